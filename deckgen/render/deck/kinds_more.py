"""The arrangements of the bottleneck, ceiling, sources and closing slides, in order."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from deckgen import fmt
from deckgen import story as st
from deckgen.layout.fit import Misfit
from deckgen.render.deck.kinds import BAR_CHART_LEAST, BAR_CHART_MIN, CHART_MIN, Kinds
from deckgen.render.deck.plan import (
    TIGHT,
    Box,
    ChartItem,
    Item,
    Para,
    QrItem,
    Run,
    TextItem,
    inch,
    middle,
    pt,
)
from deckgen.render.deck.tables import table_item

Arrangement = Callable[[], list[Item] | Misfit]
CEILING_ROOM = inch(3.4)  # a stacked ceiling chart's height: room for five end labels on a log axis


class MoreKinds(Kinds):
    def _bottleneck(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The setup, the bars, and the figures: the writing speedup, the end-to-end speedup
        and the check's share (beside the bars on a wide slide, in a row under them else).
        With no check there is no chart: the writing speedup alone, no empty bars."""
        b, labels, t = self.story.bottleneck, self.story.labels, self.t
        chart = s.chart
        figures = [(f.label, f.value, f.how, f.role) for f in b.figures] or [
            (labels.writing_speedup, b.writing_speedup, b.writing_speedup_how, "muted"),
            (labels.end_to_end_speedup, b.end_to_end_speedup, b.end_to_end_how, "accent"),
            (labels.check_share, b.check_share, b.check_share_how, "text"),
        ]

        def block(k: int, big: float, sums: bool, first_gap: float = 0.0) -> list[Para]:
            label, value, how, role = figures[k]
            paras = [Para(label, (t.footnote,), bold=True, caps=True, colour="muted",
                          tracking=1.0, before=first_gap),
                     Para(fmt.keep_together(value), (big,), bold=True, heading=True, colour=role,
                          line=TIGHT, one_line=True, before=2, field=label.lower())]
            if sums:
                paras.append(Para(how, (t.table,), colour="muted", field=f"{label.lower()} sum"))
            return paras

        def setup_item(size: float) -> TextItem:
            setup = [Para(b.setup.text, (size,), field="setup", origin=b.setup.origin)]
            h = self.needed_height(setup, frame.w, [size])
            return TextItem(frame.top(h), setup, [size], name="Setup")

        def beside(size: float, big: float) -> list[Item] | Misfit:
            assert chart is not None and len(figures) == 3
            setup = setup_item(size)
            rest = frame.below(setup.box.bottom, inch(0.2))
            column = block(0, big, True) + block(1, big, True, 16.0) + \
                block(2, t.title, True, 16.0)
            need = max(self.need(fmt.keep_together(v), big, True, heading=True)
                       for _, v, _, _ in figures)
            column_w = max(need, round(rest.w * 0.33))
            chart_box, column_box = rest.columns([rest.w - column_w - inch(0.5), column_w],
                                                 inch(0.5))
            if chart_box.h < self.scaled(BAR_CHART_MIN) or chart_box.w < rest.w * 0.5:
                return Misfit("setup", b.setup.origin, b.setup.text,
                              "no room left for the chart beside the figures")
            col = self.text_item(column_box, column, name="Speedups")
            if isinstance(col, Misfit):
                return col
            return [setup, ChartItem(chart_box, chart, f"Chart: {chart.title}", t.footnote), col]

        def under(size: float, big: float, sums: bool,
                  chart_least: int = BAR_CHART_MIN) -> list[Item] | Misfit:
            chart_least = self.scaled(chart_least)
            setup = setup_item(size)
            chart_y = setup.box.bottom + inch(0.15)
            budget = frame.bottom - chart_y - (chart_least if chart else 0) - inch(0.2)
            blocks = [block(k, big, sums) for k in range(len(figures))]
            need = [max(self.width(fmt.keep_together(v), big, True, heading=True),
                        self.width(lab.upper(), t.footnote, True, 1.0),
                        self.longest_word(Para(how, (t.table,)), t.table) if sums else 0.0)
                    for lab, v, how, _ in figures]
            boxes = Box(frame.x, 0, frame.w, budget).columns(need, inch(0.4))
            found = self.fit([(blk, pt(bx.w), pt(budget))
                              for bx, blk in zip(boxes, blocks, strict=True)])
            if isinstance(found, Misfit):
                return found
            row_h = max(self.needed_height(blk, bx.w, sz)
                        for bx, blk, sz in zip(boxes, blocks, found, strict=True))
            items: list[Item] = [setup]
            if chart is None:  # the figures right under the setup
                row_y = chart_y + inch(0.3)
            else:
                row_y = frame.bottom - row_h
                items.append(ChartItem(Box(frame.x, chart_y, frame.w, row_y - inch(0.2) - chart_y),
                                       chart, f"Chart: {chart.title}", t.footnote))
            for bx, blk, sz in zip(boxes, blocks, found, strict=True):
                items.append(TextItem(Box(bx.x, row_y, bx.w, row_h), blk, sz, name=blk[0].text))
            return items

        out: list[Arrangement] = []
        for size in (t.body, t.table):
            if self.wide and chart is not None:
                out.append(partial(beside, size, t.display))
            out.append(partial(under, size, t.display, True))
        for size in (t.body, t.table):  # the sums kept, the bars a little lower
            out.append(partial(under, size, t.display, True, BAR_CHART_LEAST))
        for size in (t.body, t.table):
            out += [partial(under, size, t.display, False), partial(under, size, t.title, False)]
        out.append(partial(under, t.table, t.title, False, BAR_CHART_LEAST))
        return out

    def _ceiling(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The ceiling, large, and its sentence beside the chart (wide) or over it."""
        b, t = self.story.bottleneck, self.t
        chart = s.chart
        assert chart is not None
        ceiling = fmt.keep_together(b.ceiling)

        def parts(fig: float, body: float) -> tuple[list[Para], list[Para]]:
            words = [Para(b.ceiling_sentence.text, (body,), field="ceiling sentence",
                          origin=b.ceiling_sentence.origin)]
            block = ([Para(self.story.labels.ceiling, (t.footnote,), bold=True, caps=True,
                           colour="muted", tracking=1.0),
                      Para(ceiling, (fig,), bold=True, heading=True, colour="accent",
                           line=TIGHT, one_line=True, before=2, field="ceiling")]
                     if b.has_ceiling else [])
            return block, words

        def side_by_side(fig: float, body: float) -> list[Item] | Misfit:
            block, words = parts(fig, body)
            column_w = round(frame.w * 0.34)
            if block:
                column_w = max(column_w, self.need(ceiling, fig, True, heading=True))
            if column_w > frame.w * 0.42:
                return Misfit("ceiling", "", ceiling, "too wide beside the chart")
            chart_box, column = frame.columns([frame.w - column_w - inch(0.45), column_w],
                                              inch(0.45))
            paras = block + [replace(words[0], before=14 if block else 0)]
            text = self.text_item(column, paras, shrink_to_fit=True, name="Ceiling")
            if isinstance(text, Misfit):
                return text
            text.box = text.box.moved(column.y + max(0, (column.h - text.box.h) // 3))
            return [ChartItem(chart_box, chart, f"Chart: {chart.title}", t.footnote), text]

        def stacked(fig: float, body: float, least: int = CHART_MIN) -> list[Item] | Misfit:
            block, words = parts(fig, body)
            top = Box(frame.x, frame.y, frame.w, round(frame.h * 0.4))
            items: list[Item] = []
            if block:
                fig_w = self.need(ceiling, fig, True, heading=True) + inch(0.05)
                if fig_w > top.w * 0.6:
                    return Misfit("ceiling", "", ceiling, "too wide beside its sentence")
                left, right = top.columns([fig_w, top.w - fig_w - inch(0.4)], inch(0.4))
                figure = self.text_item(left, block, shrink_to_fit=True, name="Ceiling")
                text = self.text_item(right, words, shrink_to_fit=True, name="Ceiling sentence")
                if isinstance(figure, Misfit) or isinstance(text, Misfit):
                    return figure if isinstance(figure, Misfit) else text  # type: ignore[return-value]
                h = max(figure.box.h, text.box.h)
                items += [figure, text]
            else:
                text = self.text_item(top, words, shrink_to_fit=True, name="Ceiling sentence")
                if isinstance(text, Misfit):
                    return text
                h = text.box.h
                items.append(text)
            chart_y = frame.y + h + inch(0.2)
            if frame.bottom - chart_y < self.scaled(least):
                return Misfit("ceiling sentence", b.ceiling_sentence.origin,
                              b.ceiling_sentence.text, "no room left for the chart")
            items.append(ChartItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y), chart,
                                   f"Chart: {chart.title}", t.footnote))
            return items

        out: list[Arrangement] = []
        for fig in (t.figure, t.display):  # first with room for the end labels to stand apart
            for body in (t.body, t.table):
                if self.wide:
                    out.append(partial(side_by_side, fig, body))
                out.append(partial(stacked, fig, body, CEILING_ROOM))
        for fig in (t.figure, t.display):
            for body in (t.body, t.table):
                out.append(partial(stacked, fig, body))
        return out

    def _sources(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """Each source's title, byline (publisher, kind, when checked) and site (linked to the
        page), and what it supports: a two-column table, or a list, one source to a row;
        without the sites, then with the publisher alone, then each title followed by what
        it supports without a byline; without what each supports only as a last resort. The
        handout has it all."""
        size = (self.t.table,)

        def who(i: int, src: st.Cited, lead: tuple[Run, ...] = (), site: bool = True,
                byline: bool = True) -> Para:
            runs = lead + (Run(src.byline if byline else src.publisher, "muted", bold=False),)
            if src.url and site:
                runs += (Run(" \u00b7 ", "muted", bold=False),
                         Run(_site(src.url), "accent", src.url, bold=False))
            return Para("".join(r.text for r in runs), size, bold=bool(lead), line=TIGHT,
                        runs=runs, field="source publisher", origin=f"sources[{i}].publisher")

        def what(i: int, src: st.Cited, before: float = 0.0) -> Para:
            return Para(src.supports, size, line=TIGHT, field="what the source supports",
                        origin=f"sources[{i}].supports", before=before)

        def table(site: bool = True) -> list[Item] | Misfit:
            labels = self.story.labels
            rows = [[[Para(labels.source, size, bold=True, line=TIGHT)],
                     [Para(labels.supports, size, bold=True, line=TIGHT)]]]
            for i, src in enumerate(self.story.sources):
                rows.append([[Para(src.title, size, bold=True, line=TIGHT, field="source title",
                                   origin=f"sources[{i}].title"), who(i, src, site=site)],
                             [what(i, src)]])
            found = table_item(self, frame, rows, None, name="Sources table")
            return found if isinstance(found, Misfit) else [found]

        def listed(site: bool = True, byline: bool = True,
                   supports: bool = True) -> list[Item] | Misfit:
            rows = [[[who(i, src, (Run(src.title, "text", bold=True),
                                   Run(" \u2014 ", "muted", bold=False)), site, byline),
                      *([what(i, src, before=2)] if supports else [])]]
                    for i, src in enumerate(self.story.sources)]
            found = table_item(self, frame, rows, None, name="Sources list", header=False)
            return found if isinstance(found, Misfit) else [found]

        def briefly(site: bool = True, tight: bool = False) -> list[Item] | Misfit:
            """Each source's title, then what it supports in the same paragraph (the byline
            left to the handout), then its site; `tight`, the rows closer together."""
            rows = []
            for i, src in enumerate(self.story.sources):
                runs: tuple[Run, ...] = (Run(src.title, "text", bold=True),
                                         Run(" \u2014 ", "muted", bold=False),
                                         Run(src.supports, "text", bold=False))
                if src.url and site:
                    runs += (Run(" \u00b7 ", "muted", bold=False),
                             Run(_site(src.url), "accent", src.url, bold=False))
                rows.append([[Para("".join(r.text for r in runs), size, bold=True, line=TIGHT,
                                   runs=runs, field="what the source supports",
                                   origin=f"sources[{i}].supports")]])
            margin = (inch(0.1), inch(0.02 if tight else 0.045))
            found = table_item(self, frame, rows, None, name="Sources list", header=False,
                               margin=margin)
            return found if isinstance(found, Misfit) else [found]

        # What each source supports goes before its byline; only as a last resort is a
        # source named without it.
        return [table, listed, lambda: table(False), lambda: listed(False),
                lambda: listed(True, False), lambda: listed(False, False),
                briefly, lambda: briefly(True, True), lambda: briefly(False),
                lambda: briefly(False, True),
                lambda: listed(True, True, False), lambda: listed(True, False, False)]

    def _closing(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """The takeaway, large; the checklist pointer under it; a QR code for the page."""
        c, t = s.closing, self.t
        assert c is not None
        url = c.url

        def arrange(size: float, qr_side: int) -> list[Item] | Misfit:
            text_w = frame.w - (qr_side + inch(0.6) if url else 0)
            paras = [Para(c.takeaway.text, (size,), bold=True, heading=True, line=TIGHT,
                          field="takeaway", origin=c.takeaway.origin),
                     Para(c.pointer.text, (t.body,), colour="muted", before=18,
                          field="checklist pointer", origin=c.pointer.origin)]
            if url:
                paras.append(Para(url, (t.table,), colour="accent", before=12, link=url,
                                  field="page address"))
            text = self.text_item(Box(frame.x, frame.y, text_w, frame.h), paras,
                                  shrink_to_fit=True, name="Takeaway")
            if isinstance(text, Misfit):
                return text
            items: list[Item] = [text]
            if url:
                items.append(QrItem(Box(frame.right - qr_side, frame.y, qr_side, qr_side), url))
            return middle(items, frame)

        side = min(inch(2.6), frame.h)
        return [lambda: arrange(t.title, side), lambda: arrange(t.body, side),
                lambda: arrange(t.body, inch(1.8))]


def _site(url: str) -> str:
    """'https://www.example.org/a/b' -> 'example.org'."""
    return re.sub(r"^[a-z]+://(www\.)?", "", url).split("/")[0]
