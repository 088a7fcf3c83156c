"""The deck as planned, for drawing it elsewhere than in python-pptx (the slides PDF and the
notes book): the slides `write.lay_out` plans, and what the writer adds on the
template's side of each slide, read from the same template: the title's and cover's boxes,
the footer, the panel behind busy artwork, the checked theme colours, and the slide's ground
(ground.py: its background and the pictures and plain shapes of its master and layout).

python-pptx (through write.py's and layouts.py's objects) only here and in ground.py; what
they return is pure data. What of a template's ground cannot be drawn is named in
`Planned.undrawn`, never dropped silently.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.slide import SlideLayout

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.content import Theme
from deckgen.paint.pptx.ground import Grounds
from deckgen.paint.pptx.placed import Placed, Planned, PlannedSlide
from deckgen.paint.pptx.placeholders import BODY_TYPES, TITLE_TYPES
from deckgen.paint.pptx.write import FOOTER, Laid, Writer
from deckgen.plan.items import Para, SlidePlan, TextItem


def planned(story: st.Story, laid: Laid) -> Planned:
    """The slides `laid` out for the deck (write.lay_out), placed as the writer places them:
    read before the deck is drawn, nothing is added to its presentation."""
    plans, writer = laid.plans, laid.writer
    theme = writer.theme
    reader = Grounds(writer, theme)
    slides = []
    for number, plan in enumerate(plans, 1):
        layout = writer.layout_of(plan)
        if not writer.own and not plan.cover:
            plan = _kickers_clear(writer, layout, plan)
        slides.append(PlannedSlide(plan, *_titles(writer, plan, layout, theme),
                                   footer=[] if plan.cover else _footer(writer, number, layout),
                                   backdrop=None if plan.cover else _backdrop(writer, layout,
                                                                              plan),
                                   ground=reader.ground(layout)))
    return Planned(writer.width, writer.height, theme, story.theme.body_font,
                   story.theme.heading_font, slides, sorted(reader.undrawn), writer.warnings)


def _titles(writer: Writer, plan: SlidePlan, layout: SlideLayout, theme: Theme
            ) -> tuple[Placed, Placed | None]:
    """The title (and on the cover, the subtitle) in the boxes the writer gives them."""
    g = writer.layouts.geometry(layout=None if plan.cover else layout,
                                cover_layout=layout if plan.cover else None)
    if plan.cover:
        anchor = "b" if writer.own else _anchor(writer, layout, TITLE_TYPES, "b")
        title = TextItem(g.cover_title, plan.title, plan.title_sizes, anchor,
                         g.cover_title_inset, name="Title")
        align = "l" if writer.own else _align(writer, layout, TITLE_TYPES, "p:titleStyle")
        placed = Placed(title, _colour(writer, layout, TITLE_TYPES, g.cover_title, theme), align)
        second = plan.extra.get("second")
        if second is None or g.cover_second is None:
            return placed, None
        paras, sizes = cast(tuple[list[Para], list[float]], second)
        box, inset = g.cover_second
        kinds = (PP_PLACEHOLDER.SUBTITLE, *BODY_TYPES)
        anchor = "t" if writer.own else _anchor(writer, layout, kinds, "t")
        sub = TextItem(box, list(paras), list(sizes), anchor, inset, name="Subtitle")
        align = "l" if writer.own else _align(writer, layout, kinds, "p:bodyStyle")
        return placed, Placed(sub, _colour(writer, layout, kinds, box, theme), align)
    box = g.title if not writer.own else writer.title_box
    given = plan.extra.get("title_anchor")
    anchor = given if isinstance(given, str) else _anchor(writer, layout, TITLE_TYPES, "t")
    title = TextItem(box, plan.title, plan.title_sizes, anchor, writer.title_inset, name="Title")
    align = "l" if writer.own else _align(writer, layout, TITLE_TYPES, "p:titleStyle")
    return Placed(title, _colour(writer, layout, TITLE_TYPES, box, theme), align), None


def _kickers_clear(writer: Writer, layout: SlideLayout, plan: SlidePlan) -> SlidePlan:
    """The plan with each kicker moved right, off a small piece of the template's artwork
    that covers its start, as `Writer.clear_of_art` moves it in the deck."""
    items: list[Any] = []
    for item in plan.items:
        if isinstance(item, TextItem) and item.name == "Kicker":
            item = replace(item, box=writer.kicker_box(item.box, layout))
        items.append(item)
    return replace(plan, items=items)


def _colour(writer: Writer, layout: SlideLayout, kinds: tuple[PP_PLACEHOLDER, ...], box: Box,
            theme: Theme) -> str:
    if writer.own:
        return theme.text
    return writer.colours.for_placeholder(layout, kinds, box) or theme.text


def _anchor(writer: Writer, layout: SlideLayout, kinds: tuple[PP_PLACEHOLDER, ...],
            default: str) -> str:
    """The vertical anchor a template gives its placeholder of `kinds`: the layout's, else
    the master's."""
    for owner in (layout, layout.slide_master):
        for kind, ph in writer.ph.places(owner):
            if kind in kinds:
                body = ph._element.find(f".//{qn('a:bodyPr')}")
                if body is not None and body.get("anchor"):
                    return {"t": "t", "ctr": "ctr", "b": "b"}.get(body.get("anchor"), default)
    return default


def _align(writer: Writer, layout: SlideLayout, kinds: tuple[PP_PLACEHOLDER, ...],
           style: str) -> str:
    """The alignment a template gives the first level of its placeholder of `kinds` (the
    layout's, else the master's: a block centred in its box, or its list style's; else the
    master's text style)."""
    names = {"l": "l", "ctr": "ctr", "r": "r"}
    for owner in (layout, layout.slide_master):
        for kind, ph in writer.ph.places(owner):
            if kind in kinds:
                body = ph._element.find(f".//{qn('a:bodyPr')}")
                if body is not None and body.get("anchorCtr") in ("1", "true"):
                    return "ctr"  # the text's block centred in its box
                level = ph._element.find(f".//{qn('a:lstStyle')}/{qn('a:lvl1pPr')}")
                if level is not None and level.get("algn") in names:
                    return names[level.get("algn")]
    styles = layout.slide_master._element.find(qn("p:txStyles"))
    level = styles.find(f"{qn(style)}/{qn('a:lvl1pPr')}") if styles is not None else None
    return names.get(level.get("algn") if level is not None else "l", "l")


def _footer(writer: Writer, number: int, layout: SlideLayout) -> list[Placed]:
    """The event line and the slide number, where the writer puts them."""
    theme = writer.theme
    words = writer.story.event_line
    placed: list[Placed] = []
    kinds_done = set()
    footers = [(kind, ph) for kind, ph in writer.ph.places(layout)
               if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)]
    if layout is writer.content:
        footers = writer.footers
    if not writer.own and writer.numbers_itself(layout):
        kinds_done.add(PP_PLACEHOLDER.SLIDE_NUMBER)
        footers = [(k, ph) for k, ph in footers if k != PP_PLACEHOLDER.SLIDE_NUMBER]
    for kind, lph in footers:
        box = writer.ph.box(lph, layout.slide_master)
        if box is None:
            continue
        size, bold = FOOTER, False
        if not writer.own:
            fitted = writer.footer_size(lph, layout, words) if kind == PP_PLACEHOLDER.FOOTER \
                else None
            own, bold = writer.ph.text_size(lph, layout)
            size = fitted or own
        colour = theme.muted if writer.own else _colour(writer, layout, (kind,), box, theme)
        placed.append(_footer_text(kind, words, number, box, writer.ph.insets(lph),
                                   _anchor(writer, layout, (kind,), "ctr"), size, colour, bold))
        kinds_done.add(kind)
    title = writer.title_box
    band = Box(title.x, writer.height - inch(0.5), title.w, inch(0.34))
    for kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER):
        if kind in kinds_done:
            continue
        box = band if kind == PP_PLACEHOLDER.FOOTER \
            else Box(band.right - inch(1.2), band.y, inch(1.2), band.h)
        placed.append(_footer_text(kind, words, number, box, (0, 0, 0, 0), "ctr", FOOTER,
                                   theme.muted))
    return placed


def _footer_text(kind: PP_PLACEHOLDER, words: str, number: int, box: Box,
                 inset: tuple[int, int, int, int], anchor: str, size: float,
                 colour: str, bold: bool = False) -> Placed:
    footer = kind == PP_PLACEHOLDER.FOOTER
    para = Para(words if footer else str(number), (size,), bold=bold, colour=None,
                align="l" if footer else "r", one_line=True)
    item = TextItem(box, [para], [size], anchor, inset, name="Footer")
    return Placed(item, colour, para.align or "l")


def _backdrop(writer: Writer, layout: SlideLayout, plan: SlidePlan) -> Box | None:
    """The panel `Writer.backdrop` puts under the items on busy artwork, else None."""
    title = writer.layouts.geometry(layout=layout).title
    items = [i for i in plan.items if i.box.y >= title.bottom - inch(0.05)]
    if writer.own or not items:
        return None
    left, top = min(i.box.x for i in items), min(i.box.y for i in items)
    right, bottom = max(i.box.right for i in items), max(i.box.bottom for i in items)
    area = Box(left, top, right - left, bottom - top)
    busy = writer.colours.busy(layout, area)
    if writer.ph.artwork_share(layout, area) <= 0.1 and busy <= 0.1:
        return None
    if busy <= 0.1 and writer.colours.ground(layout, area)[1] in ("shape", "picture"):
        return None
    return area
