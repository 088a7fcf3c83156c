"""Slide plans: each slide kind offers its arrangements in order of preference, and one ordered
search takes the first that fits (deckgen.layout.fit).

Pure: the template's geometry comes in as a `Geometry`, so a plan is made and tested without
python-pptx. Every size comes from the slide's `TypeScale`; siblings (the thought
experiments, the dial slides of a walk) share one arrangement and one set of sizes, the first
that fits all of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from deckgen import fmt
from deckgen import story as st
from deckgen.errors import InputError, Problem
from deckgen.layout.fit import Misfit, TypeScale, first_fit, first_fit_all
from deckgen.render.deck.geometry import (
    LEAST_AREA,
    MARGINS,
    SLIDE_HEIGHT,
    SLIDE_WIDTHS,
    Geometry,
    area_ratio,
    content_room,
    default_geometry,
    scale_height,
)
from deckgen.render.deck.kinds_more import MoreKinds
from deckgen.render.deck.plan import (
    LOOSE,
    TIGHT,
    Box,
    ChartItem,
    Faces,
    Item,
    Lines,
    Para,
    RectItem,
    Run,
    SlidePlan,
    TextItem,
    inch,
    pt,
)

# The template's geometry lives in geometry.py; template.py and the tests take it from here.
__all__ = ["LEAST_AREA", "MARGINS", "SLIDE_HEIGHT", "SLIDE_WIDTHS", "Geometry", "Planner",
           "area_ratio", "content_room", "default_geometry", "scale_height"]

Arrangement = Callable[[], list[Item] | Misfit]


class Planner(MoreKinds):
    """Plans every slide of one story on one template."""

    def __init__(self, story: st.Story, geometry: Geometry,
                 kinds: dict[str, Geometry] | None = None, lines: Lines | None = None) -> None:
        super().__init__(Faces.of(story.theme.body_font, story.theme.heading_font), lines)
        self.story = story
        self.g = geometry
        self.base = geometry
        self.kinds = kinds or {}  # the geometry of a layout chosen by name, by slide kind
        self.wide = geometry.wide
        self.t = TypeScale.for_height(scale_height(geometry))
        self.title_step = 0  # on a template: 0 tries the title size first, 1 the body size only

    # -- the whole deck

    def plan(self, slides: Sequence[st.Slide]) -> list[SlidePlan]:
        """Every slide's plan, siblings settled together; every slide that does not fit is
        reported, all at once."""
        plans: list[SlidePlan | None] = [None] * len(slides)
        problems: list[Problem] = []
        groups: dict[str, list[int]] = {}
        for i, s in enumerate(slides):
            if s.kind in ("experiment", "dial"):
                groups.setdefault(s.kind, []).append(i)
        for kind, members in groups.items():
            try:
                self.siblings(kind, [slides[i] for i in members], members, plans, problems)
            finally:
                self.g, self.title_step = self.base, 0
        failed = {i for members in groups.values() for i in members if plans[i] is None}
        for i, s in enumerate(slides):
            if plans[i] is None and i not in failed:
                self.g = self.kinds.get(s.kind, self.base)
                try:
                    plans[i] = self.one(i + 1, s)
                except InputError as err:
                    problems += err.problems
        self.g = self.base
        if problems:
            raise InputError(problems)
        chart_pt = round(16.0 * self.t.body / TypeScale().body * 2) / 2
        for made in plans:
            for item in made.items if made is not None else []:
                if isinstance(item, ChartItem):
                    item.text_pt = chart_pt
        return [p for p in plans if p is not None]

    def siblings(self, kind: str, group: list[st.Slide], members: list[int],
                 plans: list[SlidePlan | None], problems: list[Problem]) -> None:
        """Sibling slides settled together: one arrangement and one set of sizes for all of
        them, the title as large as all of them allow; their plans go to `plans`, or the
        siblings that cannot fit even alone to `problems`."""
        self.g = self.kinds.get(kind, self.base)
        for step in self.title_steps():
            self.title_step = step
            lines = max(self.title_lines(s) for s in group)
            found = first_fit_all([self.arrangements(s, lines) for s in group])
            if not isinstance(found, Misfit):
                break
        if isinstance(found, Misfit):  # name the siblings that cannot fit even alone
            alone = [(i, first_fit(self.arrangements(s, lines)))
                     for i, s in zip(members, group, strict=True)]
            lost = [self.fail(i + 1, m) for i, m in alone if isinstance(m, Misfit)]
            problems += [p for err in lost or [self.fail(members[0] + 1, found)]
                         for p in err.problems]
            return
        size = min(self.title_size(s) for s in group)
        for i, s, items in zip(members, group, found[1], strict=True):
            plans[i] = self.slide_plan(s, items, size)

    def one(self, number: int, s: st.Slide) -> SlidePlan:
        try:
            return self._one(number, s)
        finally:
            self.title_step = 0

    def _one(self, number: int, s: st.Slide) -> SlidePlan:
        if s.kind == "title":
            cover = self.cover(s)
            if isinstance(cover, Misfit):
                raise self.fail(number, cover)
            return cover
        missed: Misfit | None = None
        for step in self.title_steps():  # the title as large as the slide allows
            self.title_step = step
            found = first_fit(self.arrangements(s, self.title_lines(s)))
            if isinstance(found, Misfit):
                missed = found
                continue
            return self.slide_plan(s, found, self.title_size(s))
        assert missed is not None
        raise self.fail(number, missed)

    def title_steps(self) -> tuple[int, ...]:
        """On a template, a slide is tried with its title at the title size (when its box
        holds it) and then at the body size, which may leave the kicker room in the title's
        box; deckgen's own master sets every title at the title size."""
        return (0,) if self.g.own else (0, 1)

    def arrangements(self, s: st.Slide, lines: int) -> list[Arrangement]:
        """The slide's arrangements in order, each with its kicker, title and frame."""
        head = self.header(s, lines)
        if isinstance(head, Misfit):
            return [lambda: head]
        kicker, frame = head
        compose: Callable[[st.Slide, Box], list[Arrangement]] = getattr(self, f"_{s.kind}")

        def with_kicker(arrange: Arrangement, extra: list[Item]) -> Arrangement:
            def run() -> list[Item] | Misfit:
                found = arrange()
                return found if isinstance(found, Misfit) else kicker + extra + found
            return run

        plain = [with_kicker(a, []) for a in compose(s, frame)]
        if not s.footnote.text:
            return plain
        # One muted line at the foot, under whatever the slide shows; only when no
        # arrangement leaves room for it does the slide go without it.
        foot = self.text_item(frame, [Para(s.footnote.text, (self.t.footnote,), colour="muted",
                                           field="footnote", origin=s.footnote.origin)],
                              shrink_to_fit=True, name="Footnote")
        if isinstance(foot, Misfit):
            return plain
        foot.box = frame.bottom_part(foot.box.h)
        above = Box(frame.x, frame.y, frame.w, foot.box.y - inch(0.15) - frame.y)
        return [with_kicker(a, [foot]) for a in compose(s, above)] + plain

    def slide_plan(self, s: st.Slide, items: list[Item], size: float) -> SlidePlan:
        anchor = "b" if s.kicker and self.kicker_inside(s) else "t" if self.g.own else None
        return SlidePlan(s.kind, self.title_paras(s), [size], items, s.notes,
                         extra={"title_anchor": anchor})

    def kicker_inside(self, s: st.Slide) -> bool:
        """Whether, on a template whose title box has no room above it for the kicker, the
        kicker fits inside the box above the title's lines (the title then sits at the foot)."""
        g = self.g
        if g.own:
            return False
        size = self.title_size(s)
        width, height = self._title_room()
        found = self.lines(self.title_paras(s)[0], size, width * 0.96)
        if not isinstance(found, tuple):
            return False
        return len(found) * size * TIGHT + pt(inch(0.4)) <= height

    def title_size(self, s: st.Slide) -> float:
        """The title's size: the title size of the scale, or on a template whose title box
        cannot hold two lines of it, the body size (0 when even that does not fit). A
        template's title may use its box's insets: the text stays inside the placeholder."""
        width, _ = self._title_room()
        height = self._title_height()
        found = self.fit([(self.title_paras(s), width, height)])
        return 0.0 if isinstance(found, Misfit) else found[0][0]

    # -- errors

    def fail(self, number: int, m: Misfit) -> InputError:
        where = self.story.where(m.origin) if m.origin else None
        what = m.field or "text"
        advice = "; shorten it" if m.origin else ""  # a computed figure cannot be shortened
        message = (f"slide {number}: the {what} does not fit ({fmt.count(len(m.text))} "
                   f"characters; {m.detail}){advice}")
        return InputError(Problem(message, self.story.file, where[0] if where else None,
                                  where[1] if where else None, m.origin or None))

    # -- kicker and title

    def title_paras(self, s: st.Slide) -> list[Para]:
        what = "title" if s.headline.origin.startswith("workloads[") else "headline"
        sizes = (self.t.title,) if self.g.own else (self.t.title, self.t.body)[self.title_step:]
        return [Para(s.headline.text, sizes, bold=True, colour=None, line=TIGHT,
                     field=what, origin=s.headline.origin)]

    def _title_room(self) -> tuple[float, float]:
        g = self.g
        inset = g.title_inset
        return pt(g.title.w - inset[0] - inset[2]), pt(g.title.h - inset[1] - inset[3])

    def _title_height(self) -> float:
        """Points a title's lines may take: its box's inner height on deckgen's own master,
        the whole box on a template."""
        return self._title_room()[1] if self.g.own else pt(self.g.title.h)

    def title_lines(self, s: st.Slide) -> int:
        paras = self.title_paras(s)
        width, _ = self._title_room()
        found = self.lines(paras[0], paras[0].size[0], width * 0.96)
        return 1 if isinstance(found, tuple) and len(found) == 1 else 2

    def header(self, s: st.Slide, lines: int) -> tuple[list[Item], Box] | Misfit:
        """The kicker's item and the frame left for content under a title of `lines` lines
        (siblings pass the most any of them needs, so their frames match)."""
        g = self.g
        paras = self.title_paras(s)
        width, _ = self._title_room()
        fits = self.fit([(paras, width, self._title_height())])
        if isinstance(fits, Misfit):
            return fits
        box, inset = g.title, g.title_inset
        left, right = box.x + inset[0], box.right - inset[2]
        if g.own:
            top = box.y + inset[1] + round(lines * paras[0].size[0] * TIGHT * 12700) + inch(0.25)
        else:
            top = box.bottom + inch(0.15)
        bottom = g.bottom
        if g.body is not None:  # a template's content goes where its layout puts the body
            left, right = g.body.x, g.body.right
            top, bottom = max(top, g.body.y), min(bottom, g.body.bottom)
        items: list[Item] = []
        if s.kicker:
            k_h = inch(0.34)
            k_y = box.y + inset[1] - k_h - inch(0.06)
            if not g.own and self.kicker_inside(s):
                k_y = box.y + inset[1]  # in the title box, over the title set at its foot
            elif not g.own or k_y < inch(0.12):  # never above a template's title: artwork
                k_y, top = top, top + k_h + inch(0.08)
            k_para = [Para(s.kicker, (self.t.footnote,), bold=True, caps=True, colour="accent",
                           tracking=1.2, field="kicker", origin=self._kicker_origin(s.headline))]
            k_x, k_w = left, right - left
            if k_y == box.y + inset[1]:  # inside the title box: the title's width
                k_x, k_w = box.x + inset[0], box.w - inset[0] - inset[2]
            kick = self.text_item(Box(k_x, k_y, k_w, k_h), k_para, anchor="b",
                                  name="Kicker")
            if isinstance(kick, Misfit):
                return kick
            items.append(kick)
        return items, Box(left, top, right - left, bottom - top)

    def _kicker_origin(self, headline: st.Text) -> str:
        m = re.match(r"slides\.(\w+)\.headline", headline.origin)
        if m:
            return f"slides.{m.group(1)}.kicker"
        if headline.origin.startswith("workloads["):
            return "slides.experiments.kicker"
        return ""

    # -- the cover

    def cover(self, s: st.Slide) -> SlidePlan | Misfit:
        """The title in the title placeholder, the rest in the subtitle (or under the title)."""
        g, t, meta = self.g, self.t, self.story.meta
        own = g.own
        sizes = (t.display, t.title) if g.cover_centred or own else (t.title,)
        heads = [Para(meta.title, sizes, bold=True, colour=None, line=TIGHT, field="title",
                      origin="meta.title", balance=True)]
        lines = [Para(meta.subtitle, (t.body, t.table), colour="muted" if own else None,
                      line=LOOSE, field="subtitle", origin="meta.subtitle", balance=True),
                 Para(meta.presenter, (t.table,), bold=True, colour="text" if own else None,
                      before=24, field="presenter", origin="meta.presenter"),
                 Para(self.story.event_line, (t.table,), colour="muted" if own else None,
                      before=4, field="event and date", origin="meta.event")]
        box, inset = g.cover_title, g.cover_title_inset
        found = self.fit([(heads, pt(box.w - inset[0] - inset[2]),
                           pt(box.h - inset[1] - inset[3]))])
        if isinstance(found, Misfit):
            return found
        title_sizes = found[0]
        items: list[Item] = []
        extra: dict[str, object] = {}
        if own:  # a short rule in the accent colour just above the title's first line
            used = self.needed_height(heads, box.w - inset[0] - inset[2], title_sizes)
            y = box.bottom - inset[3] - used - inch(0.32)
            items.append(RectItem(Box(box.x, y, inch(1.4), inch(0.09)), ("accent", 0.0), None,
                                  "Accent bar"))
        if g.cover_second is not None:
            second, inset2 = g.cover_second
            fits = self.fit([(lines, pt(second.w - inset2[0] - inset2[2]),
                              pt(second.h - inset2[1] - inset2[3]))])
            if isinstance(fits, Misfit):
                return fits
            extra["second"] = (lines, fits[0])
        else:  # a layout with a title alone: the rest goes in a text box under it
            rest = Box(box.x, box.bottom + inch(0.2), box.w,
                       g.height - inch(0.8) - box.bottom - inch(0.2))
            sub = self.text_item(rest, [replace(p, colour=p.colour or "text") for p in lines],
                                 name="Subtitle")
            if isinstance(sub, Misfit):
                return sub
            items.append(sub)
        return SlidePlan("title", heads, title_sizes, items, s.notes, cover=True, extra=extra)

    # -- the four meanings

    def _meanings(self, s: st.Slide, frame: Box) -> list[Arrangement]:
        """Four cards: a label in capitals, a question, two sentences; ours is marked. When
        the question cannot have a line of its own, it leads the sentences in bold."""
        t, cards = self.t, self.story.cards
        columns = min(2, len(cards))
        rows = math.ceil(len(cards) / columns)
        def cards_with(inline: bool, tight: bool = False) -> list[Item] | Misfit:
            pad = 0.1 if tight else 0.22 if self.wide else 0.16
            inset = (inch(pad), inch(0.1 if tight else 0.16), inch(pad), inch(0.08))
            items: list[Item] = []
            gap = 0.1 if tight else 0.18 if self.wide else 0.14
            boxes = frame.grid(columns, rows, inch(gap))[:len(cards)]
            blocks = []
            for i, card in enumerate(cards):
                label = Para(card.label, (t.footnote,), bold=True, caps=True, tracking=1.0,
                             colour="accent" if card.ours else "muted", field="card label",
                             origin=f"meanings[{i}].label")
                question = Para(card.question, (t.body, t.table), bold=True, heading=True, before=4,
                                line=TIGHT, field="card question",
                                origin=f"meanings[{i}].question")
                text = Para(card.text.text, (t.body, t.table), before=4 if tight else 6,
                            line=TIGHT if tight else LOOSE, field="card text",
                            origin=card.text.origin)
                if inline:
                    both = f"{card.question} {card.text.text}"
                    text = replace(text, text=both, runs=(Run(f"{card.question} ", "text"),
                                                          Run(card.text.text)))
                    blocks.append([label, text])
                else:
                    blocks.append([label, question, text])
            found = self.texts_together(boxes, blocks, inset=inset)
            if isinstance(found, Misfit):
                return found
            for card, item in zip(cards, found, strict=True):
                item.fill = ("accent", 0.9) if card.ours else ("rule", 0.75)
                item.outline = ("accent", 2.5) if card.ours else None
                item.name = f"Card: {card.label}"
                items.append(item)
                if card.ours:
                    items.append(self.badge(self.story.labels.our_dial, item.box))
            return items

        return [lambda: cards_with(False), lambda: cards_with(True),
                lambda: cards_with(True, True)]

    def badge(self, words: str, card: Box) -> TextItem:
        """A small tab in the accent colour sitting on a card's top edge, at its right."""
        size = self.t.footnote
        w = self.need(words.upper(), size, True, 1.0) + inch(0.3)
        h = inch(0.3)
        box = Box(card.right - w - inch(0.2), card.y - h // 2, w, h)
        return TextItem(box, [Para(words, (size,), bold=True, caps=True, tracking=1.0,
                                   colour="background", align="ctr", line=TIGHT)], [size], "ctr",
                        (0, 0, 0, 0), fill=("accent", 0.0), name="Badge")
