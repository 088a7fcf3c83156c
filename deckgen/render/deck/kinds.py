"""The arrangements of each content slide kind, in order of preference.

Each `_kind(slide, frame)` returns arrangements: functions that give the slide's items or a
`Misfit`. The search (deckgen.render.deck.slides) takes the first that fits. The sibling
kinds (dial, experiment) pin every size in each arrangement, so siblings that take the same
arrangement also share every size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from deckgen import fmt
from deckgen import story as st
from deckgen.layout.fit import Misfit, TypeScale
from deckgen.render.deck.plan import (
    TIGHT,
    Box,
    ChartItem,
    Fitter,
    Item,
    Para,
    RectItem,
    Run,
    TextItem,
    emu,
    inch,
    middle,
    pinned,
    pt,
)
from deckgen.render.deck.tables import table_cells, table_item

if TYPE_CHECKING:
    from deckgen.render.deck.geometry import Geometry

Arrangement = Callable[[], list[Item] | Misfit]
CHART_MIN = inch(1.8)  # the least height a line chart gets
BAR_CHART_MIN = inch(2.6)  # two bars, their titles and labels
BAR_CHART_LEAST = inch(2.3)  # the bars' last resort (their labels need about 2.1 in)
CHART_ROOM = inch(2.6)  # what a chart gets when a table shares its slide
CHART_LEAST = inch(1.5)  # a line chart's last resort beside a table on a narrow slide


class Kinds(Fitter):
    story: st.Story
    g: Geometry
    wide: bool
    t: TypeScale

    def scaled(self, length: int) -> int:
        """A least size designed for deckgen's 7.5 in slide, scaled with the type scale."""
        return round(length * self.t.body / TypeScale().body)

    # -- the dial

    def _dial(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The chosen speed's writing time, large, with its sentence and sum; the slow speed's
        beside it (or under it on a narrow slide)."""
        d, t = s.dial, self.t
        assert d is not None
        big, slow = fmt.keep_together(d.figure), fmt.keep_together(d.slow_figure)

        def blocks(fig: float, side_fig: float, body: float) -> tuple[list[Para], list[Para]]:
            chosen = [
                Para(d.at_speed, (t.footnote,), bold=True, caps=True, colour="accent",
                     tracking=1.0, field="speed label"),
                Para(big, (fig,), bold=True, heading=True, colour="accent", line=TIGHT,
                     one_line=True, before=4, field="writing time"),
                Para(d.sentence, (body,), before=6, field="dial sentence"),
                Para(d.arithmetic, (t.table,), colour="muted", before=10,
                     field="dial arithmetic"),
            ]
            side = [
                Para(d.at_slow_speed, (t.footnote,), bold=True, caps=True, colour="muted",
                     tracking=1.0, field="slow speed label"),
                Para(slow, (side_fig,), bold=True, heading=True, colour="muted", line=TIGHT,
                     one_line=True, before=4, field="slow writing time"),
                Para(d.slow_note, (t.table,), colour="muted", before=6),
            ]
            return chosen, side

        def side_by_side(fig: float, side_fig: float, body: float) -> list[Item] | Misfit:
            chosen, side = blocks(fig, side_fig, body)
            right_w = round(frame.w * 0.36)
            if self.need(slow, side_fig, True, heading=True) > right_w:
                return Misfit("slow writing time", "", slow, "too wide for its column")
            left, right = frame.columns([frame.w - right_w - inch(0.6), right_w], inch(0.6))
            found = self.texts_together([left, right], [chosen, side])
            if isinstance(found, Misfit):
                return found
            a, b = found
            h = max(self.needed_height(a.paras, left.w, a.sizes),
                    self.needed_height(b.paras, right.w, b.sizes))
            y = frame.y + max(0, (frame.h - h) // 3)
            a.box, b.box = Box(left.x, y, left.w, h), Box(right.x, y, right.w, h)
            a.name, b.name = "Chosen speed", "Slow speed"
            rule = RectItem(Box(right.x - inch(0.32), y, inch(0.02), h), ("rule", 0.0), None,
                            "Divider")
            return [a, rule, b]

        def stacked(fig: float, side_fig: float, body: float) -> list[Item] | Misfit:
            chosen, side = blocks(fig, side_fig, body)
            gap = 28.0  # points between the two, with a rule in the middle
            both = chosen + [replace(side[0], before=gap)] + side[1:]
            found = self.fit([(both, pt(frame.w), pt(frame.h))])
            if isinstance(found, Misfit):
                return found
            sizes, n = found[0], len(chosen)
            a_h = self.needed_height(chosen, frame.w, sizes[:n])
            b_h = self.needed_height(side, frame.w, sizes[n:])
            a = TextItem(Box(frame.x, frame.y, frame.w, a_h), chosen, sizes[:n],
                         name="Chosen speed")
            b = TextItem(Box(frame.x, frame.y + a_h + emu(gap), frame.w, b_h), side, sizes[n:],
                         name="Slow speed")
            rule = RectItem(Box(frame.x, frame.y + a_h + emu(gap / 2), frame.w, inch(0.02)),
                            ("rule", 0.0), None, "Divider")
            return [a, rule, b]

        out: list[Arrangement] = []
        figs = [(t.figure, t.display), (t.display, t.title), (t.title, t.title)]
        shapes = [side_by_side, stacked] if self.wide else [stacked]
        for (fig, side_fig), shape, body in itertools.product(figs, shapes, (t.body, t.table)):
            out.append(partial(shape, fig, side_fig, body))
        return out

    # -- the workloads table and chart

    def _workloads(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The table on top, its caption, the chart below with the height that is left; when
        a narrow slide has no room for a readable chart, the table and caption alone. With no
        chart (it has a slide of its own) it is the table slide."""
        assert s.table is not None
        if s.chart is None:
            return self._presets(s, frame)
        table, chart, t = s.table, s.chart, self.t
        cells = table_cells(table, (t.table,))

        def stacked(chart_h: int, caption_size: float,
                    cells: list[list[list[Para]]] = cells) -> list[Item] | Misfit:
            caption = [Para(table.caption, (caption_size,), colour="muted",
                            field="table caption")]
            cap_h = self.needed_height(caption, frame.w, [caption_size])
            space = frame.h - cap_h - inch(0.25) - chart_h
            if space <= 0:
                return Misfit("table caption", "", table.caption, "no room for the table")
            found = table_item(self, Box(frame.x, frame.y, frame.w, space), cells,
                               table.highlight, name="Workload table")
            if isinstance(found, Misfit):
                return found
            cap = TextItem(Box(frame.x, found.box.bottom + inch(0.1), frame.w, cap_h), caption,
                           [caption_size], name="Caption")
            if not chart_h:  # the table alone: the handout and the next slides have the curves
                return middle([found, cap], frame)
            chart_y = cap.box.bottom + inch(0.15)
            return [found, cap, ChartItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y),
                                          chart, f"Chart: {chart.title}", t.footnote)]

        return [lambda: stacked(self.scaled(CHART_ROOM), t.table),
                lambda: stacked(self.scaled(CHART_MIN), t.table),
                lambda: stacked(self.scaled(CHART_MIN), t.footnote),
                lambda: stacked(self.scaled(CHART_LEAST), t.footnote, table_cells(table, (t.table,),
                                                                     (t.footnote,))),
                lambda: stacked(0, t.table)]

    def _writing_chart(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The writing-time chart alone in the frame: room for a label at every decade, its
        labels at the scale's footnote size."""
        chart = s.chart
        assert chart is not None
        return [lambda: [ChartItem(frame, chart, f"Chart: {chart.title}", self.t.footnote)]]

    def _presets(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """A table alone on its slide, so it may be large: the preset checks, or the
        workloads when their chart has a slide of its own."""
        assert s.table is not None
        table, t = s.table, self.t
        name = "Workload table" if s.kind == "workloads" else "Preset checks table"

        def arrange(*size: float) -> list[Item] | Misfit:
            caption = [Para(table.caption, (t.table,), colour="muted", field="table caption")]
            cap_h = self.needed_height(caption, frame.w, [t.table])
            found = table_item(self, Box(frame.x, frame.y, frame.w, frame.h - cap_h - inch(0.2)),
                               table_cells(table, size), table.highlight, name=name)
            if isinstance(found, Misfit):
                return found
            cap = TextItem(Box(frame.x, found.box.bottom + inch(0.2), frame.w, cap_h), caption,
                           [t.table], name="Caption")
            return middle([found, cap], frame)

        # Both sizes in one search: a tidy table (no cell wrapped) at the table size beats one
        # at the body size whose cells wrap.
        return [lambda: arrange(t.body, t.table), lambda: arrange(t.table)]

    # -- the thought experiments

    def _experiment(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The sum, the writing time large with its speed, the story, and "still scarce" set
        apart at the foot."""
        e, t = s.experiment, self.t
        assert e is not None
        big = fmt.keep_together(e.figure)

        def arrange(shape: str, fig: float, body: float) -> list[Item] | Misfit:
            band = self.set_apart(self.story.labels.still_scarce, e.scarce, frame, body)
            if isinstance(band, Misfit):
                return band
            above = Box(frame.x, frame.y, frame.w, band[0].box.y - frame.y - inch(0.25))
            head: list[Para] = []
            label = Para(e.featured_label or "-", (t.footnote,), bold=True, caps=True,
                         colour="accent", tracking=1.0)
            if e.featured:
                head.append(label)
            elif any(x.featured for x in self.story.experiments):  # keep the siblings aligned
                skip = self.needed_height([label], above.w, [t.footnote]) + emu(4)
                above = above.below(above.y + skip)
            head.append(Para(e.arithmetic, (t.table,), colour="muted", field="arithmetic",
                             before=4 if head else 0))
            number = [Para(big, (fig,), bold=True, heading=True, colour="accent", line=TIGHT,
                           one_line=True, field="writing time")]
            speed = [Para(e.writing_at, (t.table,), colour="muted", field="writing speed")]
            tale = [Para(e.story.text, (body,), field="story", origin=e.story.origin)]
            fig_w = self.need(big, fig, True, heading=True) + inch(0.05)
            if shape == "side":  # figure column at the left, the story at the right
                left_w = max(fig_w, round(above.w * 0.4))
                if left_w > above.w * 0.55:
                    return Misfit("writing time", "", big, "too wide for a column")
                left, right = above.columns([left_w, above.w - left_w - inch(0.5)], inch(0.5))
                a = self.text_item(left, head + [replace(number[0], before=4)] + speed,
                                   shrink_to_fit=True, name="Writing time")
                b = self.text_item(right, tale, shrink_to_fit=True, name="Story")
                if isinstance(a, Misfit) or isinstance(b, Misfit):
                    return a if isinstance(a, Misfit) else b  # type: ignore[return-value]
                return middle([a, b], above) + band
            # Stacked: the sum, the figure with its speed beside it (or under it), the story.
            top = self.text_item(above, head, shrink_to_fit=True, name="Sum")
            if isinstance(top, Misfit):
                return top
            y = top.box.bottom + inch(0.05)
            fig_h = self.needed_height(number, fig_w, [fig])
            if fig_w > above.w:
                return Misfit("writing time", "", big, "too wide for the slide")
            items: list[Item] = [top, TextItem(Box(above.x, y, fig_w, fig_h), number, [fig],
                                               name="Writing time")]
            if shape == "beside" and above.w - fig_w - inch(0.3) > above.w * 0.25:
                side = self.text_item(Box(above.x + fig_w + inch(0.3), y,
                                          above.w - fig_w - inch(0.3), fig_h), speed,
                                      shrink_to_fit=True, name="Speed")
                if isinstance(side, Misfit):
                    return side
                base = y + fig_h - round(fig_h * 0.1)  # near the figure's baseline
                side.box = side.box.moved(base - side.box.h)
                below = y + fig_h
            elif shape == "beside":
                return Misfit("writing speed", "", e.writing_at, "no room beside the figure")
            else:
                side = self.text_item(above.below(y + fig_h), speed, shrink_to_fit=True,
                                      name="Speed")
                if isinstance(side, Misfit):
                    return side
                below = side.box.bottom
            story = self.text_item(above.below(below, inch(0.2)), tale, shrink_to_fit=True,
                                   name="Story")
            if isinstance(story, Misfit):
                return story
            return items + [side, story] + band

        shapes = (["side"] if self.wide else []) + ["beside", "under"]
        out: list[Arrangement] = []
        for fig, body in itertools.product((t.figure, t.display, t.title), (t.body, t.table)):
            for shape in shapes:
                out.append(partial(arrange, shape, fig, body))
        return out

    def set_apart(self, label: str, line: st.Text, frame: Box,
                  size: float) -> list[Item] | Misfit:
        """A band across the foot of the frame: a label in capitals, then one line of text
        (beside the label on a wide slide, under it on a narrow one)."""
        t = self.t
        pad_x, pad_y = inch(0.3), inch(0.17)
        head = [Para(label, (t.footnote,), bold=True, caps=True, colour="accent", tracking=1.0)]
        words = [Para(line.text, (size,), bold=True, heading=True, line=TIGHT,
                      field="still scarce line", origin=line.origin)]
        inner_w = frame.w - 2 * pad_x
        if self.wide:
            head_w = self.need(label.upper(), t.footnote, True, 1.0) + inch(0.05)
            text_w = inner_w - head_w - inch(0.35)
            found = self.fit([(words, pt(text_w), pt(frame.h) / 3)])
            if isinstance(found, Misfit):
                return found
            h = self.needed_height(words, text_w, found[0])
            band = frame.bottom_part(h + 2 * pad_y)
            head_box = Box(band.x + pad_x, band.y + pad_y, head_w, h)
            text_box = Box(band.x + pad_x + head_w + inch(0.35), band.y + pad_y, text_w, h)
            anchor = "ctr"
        else:
            found = self.fit([(words, pt(inner_w), pt(frame.h) / 3)])
            if isinstance(found, Misfit):
                return found
            h = self.needed_height(words, inner_w, found[0])
            head_h = self.needed_height(head, inner_w, [t.footnote])
            band = frame.bottom_part(head_h + inch(0.04) + h + 2 * pad_y)
            head_box = Box(band.x + pad_x, band.y + pad_y, inner_w, head_h)
            text_box = Box(band.x + pad_x, head_box.bottom + inch(0.04), inner_w, h)
            anchor = "t"
        return [RectItem(band, ("rule", 0.75), None, label),
                RectItem(Box(band.x, band.y, inch(0.08), band.h), ("accent", 0.0), None, "Accent"),
                TextItem(head_box, head, [t.footnote], anchor=anchor, name=label),
                TextItem(text_box, words, found[0], name=f"{label}: line")]

    # -- what gets precious, the checklist

    def _precious(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The scarce things in a grid, each a name under a short accent rule and a line."""
        things, t = self.story.precious, self.t
        blocks = [[Para(name, (t.body, t.table), bold=True, heading=True, line=TIGHT,
                        field="precious name", origin=f"precious[{i}].name"),
                   Para(text.text, (t.body, t.table), before=6, colour="muted",
                        field="precious text", origin=text.origin)]
                  for i, (name, text) in enumerate(things)]

        def grid(columns: int, level: int, inline: bool = False) -> list[Item] | Misfit:
            columns = min(columns, len(things))
            rows = math.ceil(len(things) / columns)
            boxes = frame.grid(columns, rows, inch(0.25))[:len(things)]
            inner = [Box(b.x, b.y + inch(0.2), b.w, b.h - inch(0.2)) for b in boxes]
            chosen = pinned(blocks, level)
            if inline:  # the name leads its line in bold
                chosen = [[replace(text, text=f"{name.text} {text.text}", colour="muted",
                                   runs=(Run(f"{name.text} ", "text", bold=True),
                                         Run(text.text)), before=0)]
                          for name, text in chosen]
            found = self.texts_together(inner, chosen, name="Precious")
            if isinstance(found, Misfit):
                return found
            rules: list[Item] = [RectItem(Box(b.x, b.y, inch(0.9), inch(0.07)), ("accent", 0.0),
                                          None, "Accent") for b in boxes]
            return rules + list(found)

        return [lambda: grid(3, 0), lambda: grid(2, 0), lambda: grid(3, 1), lambda: grid(2, 1),
                lambda: grid(2, 1, True), lambda: grid(1, 1, True)]

    def _checklist(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The steps, each with a box to tick: one column, else two."""
        steps, t = self.story.checklist, self.t
        square = inch(0.34)

        def layout(columns: int, level: int, inline: bool = False) -> list[Item] | Misfit:
            columns = min(columns, len(steps))
            rows = math.ceil(len(steps) / columns)
            boxes = frame.grid(columns, rows, inch(0.22))[:len(steps)]
            blocks = [[Para(step, (t.body,), bold=True, heading=True, line=TIGHT,
                            field="checklist step", origin=f"checklist[{i}].step"),
                       Para(detail.text, (t.body, t.table), before=6, colour="muted",
                            field="checklist detail", origin=detail.origin)]
                      for i, (step, detail, _) in enumerate(steps)]
            text_boxes = [Box(b.x + square + inch(0.25), b.y, b.w - square - inch(0.25), b.h)
                          for b in boxes]
            chosen = pinned(blocks, level)
            if inline:  # the step leads its detail, in bold
                chosen = [[replace(detail, text=f"{step.text} {detail.text}", before=0,
                                   runs=(Run(f"{step.text} ", "text", bold=True),
                                         Run(detail.text)))]
                          for step, detail in chosen]
            found = self.texts_together(text_boxes, chosen, name="Step")
            if isinstance(found, Misfit):
                return found
            items: list[Item] = []
            for b, item in zip(boxes, found, strict=True):
                first = item.sizes[0] * TIGHT
                y = b.y + emu(max(0.0, (first - pt(square)) / 2))
                items.append(RectItem(Box(b.x, y, square, square), None, ("accent", 2.0),
                                      "Checkbox"))
                items.append(item)
            return items

        return [lambda: layout(1, 0), lambda: layout(2, 0), lambda: layout(1, 1),
                lambda: layout(2, 1), lambda: layout(2, 1, True), lambda: layout(1, 1, True)]
