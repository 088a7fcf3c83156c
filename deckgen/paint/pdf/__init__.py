"""The presenter kit: the slides as a PDF and the speaker's notes book, drawn with reportlab
from the placed deck the .pptx is drawn from (deckgen.plan.placed).

`slides(deck, meta)`: one page per slide, the page the slide's size, every text in the lines
and sizes the planner chose, charts and the QR code as vector drawings, links clickable, the
fonts embedded as subsets, one bookmark per slide titled with its title.
`notes(deck, meta)`: A4 or Letter portrait (`meta.paper`), each page the slide drawn small
above its speaker notes at 12 pt, with its number, and each slide's share of `meta.minutes`
when given. Both are byte-identical between two builds (reportlab's invariant mode, dated
by the build's epoch: canvas.py)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from deckgen import words
from deckgen.box import EMU_PER_PT
from deckgen.content import Meta
from deckgen.paint.pdf import fonts
from deckgen.paint.pdf.canvas import canvas
from deckgen.paint.pdf.slide import SlidePainter
from deckgen.plan.placed import Deck

__all__ = ["notes", "slides"]

PAPER = {"a4": A4, "letter": LETTER}
MARGIN = 48.0  # points around a notes page
NOTES_PT = 12.0  # the notes' size (at least 11 pt)
HEAD_PT = 13.0


def _canvas(out: io.BytesIO, size: tuple[float, float], meta: Meta, what: str,
            family: str, epoch: int | None) -> Canvas:
    return canvas(out, size, meta, epoch, title=f"{meta.title}: {what}",
                  subject=meta.subtitle or meta.title, keywords=meta.event,
                  font=fonts.face(family))


def slides(deck: Deck, meta: Meta, epoch: int | None = None) -> bytes:
    """The slides as PDF bytes, dated `epoch` (SOURCE_DATE_EPOCH's seconds; None:
    2000-01-01)."""
    out = io.BytesIO()
    size = (deck.width / EMU_PER_PT, deck.height / EMU_PER_PT)
    c = _canvas(out, size, meta, "slides", deck.body_font, epoch)
    painter = SlidePainter(c, deck)
    for number, s in enumerate(deck.slides, 1):
        key = f"slide{number}"
        c.bookmarkPage(key)
        c.addOutlineEntry(s.title, key, level=0)
        painter.draw(s)
        c.showPage()
    c.showOutline()
    c.save()
    return out.getvalue()


def notes(deck: Deck, meta: Meta, epoch: int | None = None,
          table: Mapping[str, str] | None = None) -> bytes:
    """The speaker's notes book as PDF bytes, dated `epoch`."""
    out = io.BytesIO()
    page_w, page_h = PAPER[meta.paper]
    c = _canvas(out, (page_w, page_h), meta, "speaker notes", deck.body_font, epoch)
    painter = SlidePainter(c, deck, links=False)
    slide_w, slide_h = deck.width / EMU_PER_PT, deck.height / EMU_PER_PT
    scale = (page_w - 2 * MARGIN) / slide_w
    times = deck.times
    body = fonts.face(deck.body_font)
    style = ParagraphStyle("notes", fontName=body, fontSize=NOTES_PT, leading=NOTES_PT * 1.35,
                           textColor=HexColor("#000000"), spaceAfter=NOTES_PT * 0.5)
    count = len(deck.slides)
    # The notes book's own words: the talk's (its language's, with the content's labels).
    said = words.Words(meta.language, table) if table else words.of(meta.language)
    for number, s in enumerate(deck.slides, 1):
        key = f"notes{number}"
        c.bookmarkPage(key)
        c.addOutlineEntry(s.title, key, level=0)
        top = page_h - MARGIN
        c.saveState()
        c.translate(MARGIN, top - slide_h * scale)
        c.scale(scale, scale)
        painter.draw(s)
        c.restoreState()
        c.setStrokeColor(HexColor("#808080"))
        c.setLineWidth(0.5)
        c.rect(MARGIN, top - slide_h * scale, slide_w * scale, slide_h * scale, stroke=1, fill=0)
        y = top - slide_h * scale - HEAD_PT * 2
        head = said.say("notes_slide", number=str(number), count=str(count), title=s.title)
        _line(c, MARGIN, y, head, deck.body_font, HEAD_PT, bold=True)
        if times:
            y -= HEAD_PT * 1.5
            own, by_end = times[number - 1]
            _line(c, MARGIN, y, said.say("notes_time", own=own, minutes=str(meta.minutes),
                                         by_end=by_end), deck.body_font, NOTES_PT)
        y -= NOTES_PT
        _notes_text(c, s.notes or said.no_notes, style, MARGIN, y, page_w - 2 * MARGIN,
                    page_h, number, head, deck.body_font)
        c.showPage()
    c.showOutline()
    c.save()
    return out.getvalue()


def _line(c: Canvas, x: float, y: float, text: str, family: str, size: float,
          bold: bool = False) -> None:
    t = c.beginText(x, y)
    for font, part in fonts.runs(text, family, bold):
        t.setFont(font, size)
        t.textOut(part)
    c.drawText(t)


def _paragraphs(text: str, style: ParagraphStyle, family: str) -> Sequence[Paragraph]:
    """The notes' paragraphs (blank lines part them), each character in a font that has it."""
    out = []
    for block in text.split("\n\n"):
        markup = "".join(
            f'<font name="{font}">{_escape(part)}</font>'
            for font, part in fonts.runs(" ".join(block.split()), family))
        if markup:
            out.append(Paragraph(markup, style))
    return out


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _notes_text(c: Canvas, text: str, style: ParagraphStyle, x: float, y: float, width: float,
                page_h: float, number: int, head: str, family: str) -> None:
    """The notes from `y` down; what does not fit goes on to the next page, headed again."""
    floor = MARGIN
    for para in _paragraphs(text, style, family):
        rest: list[Paragraph] = [para]
        while rest:
            p = rest.pop(0)
            _, h = p.wrap(width, y - floor)
            if h <= y - floor:
                p.drawOn(c, x, y - h)
                y -= h + style.spaceAfter
                continue
            parts = p.split(width, y - floor)
            if len(parts) > 1:
                parts[0].wrap(width, y - floor)
                parts[0].drawOn(c, x, y - parts[0].height)
                rest = [*parts[1:], *rest]
            else:
                rest = [p, *rest]
            c.showPage()
            y = page_h - MARGIN
            _line(c, x, y, f"{head} (continued)", family, HEAD_PT, bold=True)
            y -= HEAD_PT * 1.5
