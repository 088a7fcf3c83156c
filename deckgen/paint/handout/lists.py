"""The sheet's closing sections: what gets precious, the checklist to write on and the sources
(with the presenter's own slides and the QR code).

Each is its kicker and headline across the sheet, then its items in the two columns, left
column first, as even as whole items allow: an item never leaves its section's band, so a
checklist step always sits under its own heading. What gets precious may instead flow on
after the serial bottleneck, whole in one column under its own heading."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, Spacer, Table

from deckgen.paint.handout.flowables import (
    Grid,
    PictureFlowable,
    Stack,
    StepHead,
    WriteIn,
)
from deckgen.paint.handout.fonts import (
    BOLD,
    paragraph,
)
from deckgen.paint.handout.parts import (
    TIGHT,
    balance,
    link_markup,
    short_link,
)
from deckgen.paint.handout.sheet import (
    Band,
    Section,
    tagged,
)
from deckgen.paint.handout.style import (
    CHECK_BOX,
    QR_MODULES,
    SECTION_GAP,
    escaped,
)
from deckgen.story import Slide

if TYPE_CHECKING:
    from deckgen.paint.handout.builder import Builder

PICTURE_HIGH = 45 * mm  # the tallest a presenter's picture is on the handout


def precious(b: Builder) -> list[Band]:
    """What gets precious: its heading across the sheet, its items in two columns below."""
    if not b.story.shown("precious"):
        return []
    return [b.head("precious", "what gets precious"), _precious(b)]


def flowing(b: Builder, sections: list[Section]) -> Band:
    """`sections` (the rest of the serial bottleneck) and after them what gets precious, its
    heading and items kept whole in one column, flowing through the two columns in order: a
    band the page may cut."""
    if b.story.shown("precious"):
        sections = [*sections, _precious_whole(b)]
    return balance(sections, b.col_w, cuttable=True)


def closing(b: Builder) -> list[Band]:
    """The checklist and the sources, each a heading and a band of its items; the
    presenter's own slides (when `b.own`) and the QR code close the last band."""
    shown = b.story.shown
    bands: list[Band] = []
    if shown("checklist"):
        bands += [b.head("checklist", "the checklist"), _checklist(b)]
    last: list[Section] = []
    if shown("sources"):
        bands.append(b.head("sources", "the sources"))
        last.append(_sources(b))
    if b.own:
        last += [_own(b, slide) for slide in b.story.slides
                 if slide.custom is not None and slide.custom.handout]
    if b.story.meta.url:
        qr = Section("the QR code")
        qr.space(1.5 * mm).add(_qr(b, b.story.meta.url), "meta.url")
        last.append(qr)
    if any(section.flowables for section in last):
        bands.append(balance(last, b.col_w))
    return bands


def _precious(b: Builder) -> Band:
    precious = Section("what gets precious")
    for item, origin in _precious_items(b):
        precious.add(item, origin).space(b.gap(1.1 * mm))
    return balance([precious], b.col_w)


def _precious_whole(b: Builder) -> Section:
    """What gets precious in one column: its kicker, headline and items, kept together."""
    section = Section("what gets precious", outline=b.outline("precious"))
    glue = b.glued(section, b.slides.get("precious"))
    items: list[Flowable] = []
    for item, origin in _precious_items(b):
        items += [tagged(item, origin), Spacer(1, b.gap(1.1 * mm))]
    section.space(b.gap(SECTION_GAP)).add(Stack([*glue, *items[:-1]]))
    return section


def _precious_items(b: Builder) -> list[tuple[Flowable, str]]:
    return [(paragraph(f'<font name="{BOLD}">{escaped(name)}.</font> {escaped(text.text)}',
                       b.s.body), text.origin) for name, text in b.story.precious]


def _checklist(b: Builder) -> Band:
    """Each step a box to tick, its words, and lines to write on, kept whole in one column."""
    checklist = Section("the checklist")
    indent = CHECK_BOX + 2.5 * mm
    for i, (step, detail, write_in) in enumerate(b.story.checklist):
        head = StepHead(b.para(step, b.s.strong), b.p.text)
        tagged(head, f"checklist[{i}].step")
        unit = Stack([head, Spacer(1, 0.6 * mm), Stack([b.para(detail.text, b.s.body)], indent),
                       WriteIn(write_in, b.k.write_lines, b.s.body, b.p.muted, indent,
                                b.k.write_pitch)])
        checklist.add(unit, detail.origin).space(b.gap(2.5 * mm))
    return balance([checklist], b.col_w)


def _sources(b: Builder) -> Section:
    sources = Section("the sources")
    for i, src in enumerate(b.story.sources):
        line = (f'<font name="{BOLD}">{escaped(src.title)}</font>. {escaped(src.supports)} '
                f'<font color="{b.p.muted.hexval()}">{escaped(src.byline)}.</font>')
        if src.url:
            line += f" {link_markup(src.url, short_link(src.url), b.p.accent)}"
        sources.add(paragraph(line, b.s.body), f"sources[{i}].title").space(b.gap(1.4 * mm))
    return sources


def _own(b: Builder, slide: Slide) -> Section:
    """A slide of the presenter's own: its kicker, headline and words, or its picture (its
    whole self, as wide as the column allows and at most PICTURE_HIGH tall) with its caption
    and credit."""
    shows = slide.custom
    assert shows is not None
    sec = Section(f"the slide \u201c{slide.headline.text}\u201d",
                  outline=slide.headline.text).space(b.gap(SECTION_GAP))
    glue = b.glued(sec, slide)
    items: list[Flowable] = []
    for bullet in shows.bullets:
        items.append(paragraph(f"\u2022\u2002{escaped(bullet.text)}", b.s.body))
    if shows.paragraph.text:
        items.append(b.para(shows.paragraph.text, b.s.body))
    if shows.picture is not None:
        picture = shows.picture
        scale = min(b.col_w / picture.width, PICTURE_HIGH / picture.height)
        image = Image(io.BytesIO(picture.data), picture.width * scale, picture.height * scale)
        image.hAlign = "LEFT"
        items.append(image)
        words = " ".join(t.text for t in (shows.caption, shows.credit) if t.text)
        if words:
            items += [Spacer(1, 0.8 * mm), b.para(words, b.s.muted)]
    sec.add(Stack([*glue, *items]), slide.headline.origin)
    return sec


def _qr(b: Builder, url: str) -> Table:
    drawing = b.qr or qr_drawing(url)
    size = drawing.width
    link = paragraph(link_markup(url, short_link(url, keep_path=True), b.p.accent), b.s.body)
    table = Grid([[PictureFlowable(drawing, size), link]], colWidths=[size + 1 * mm, None],
                  hAlign="LEFT")
    table.setStyle(TIGHT + [("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
    return table


def qr_drawing(url: str) -> Drawing:
    """`url` as a QR code, QR_MODULES wide for its modules, with its quiet zone around them."""
    widget = QrCodeWidget(url, barLevel="M")
    widget.qr.make()
    modules = widget.qr.getModuleCount()
    size = QR_MODULES * (modules + 2 * widget.barBorder) / modules
    widget.barWidth = widget.barHeight = size
    drawing = Drawing(size, size)
    drawing.add(widget.draw())
    return drawing
