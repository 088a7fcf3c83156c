"""The presenter kit: the slides as a PDF and the speaker's notes book, drawn with reportlab
from the placed deck the .pptx is drawn from and the notes book the plan placed
(deckgen.plan.placed).

`slides(deck, meta)`: one page per slide, the page the slide's size, every text in the lines
and sizes the planner chose, charts and the QR code as vector drawings, links clickable, the
fonts embedded as subsets, one bookmark per slide titled with its title.
`notes(deck, book, meta)`: each page of the placed notes book: the slide drawn small in its
frame, the heading, time and notes in their lines. Both are byte-identical between two
builds (reportlab's invariant mode, dated by the build's epoch: canvas.py)."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from deckgen.box import EMU_PER_PT
from deckgen.content import Meta
from deckgen.paint.pdf import fonts
from deckgen.paint.pdf.canvas import canvas
from deckgen.paint.pdf.slide import SlidePainter, text_line
from deckgen.plan.placed import Deck, NotesBook

__all__ = ["notes", "slides"]


def _canvas(out: io.BytesIO, size: tuple[float, float], meta: Meta, what: str, deck: Deck,
            epoch: int | None) -> Canvas:
    return canvas(out, size, meta, epoch, title=f"{meta.title}: {what}",
                  subject=meta.subtitle or meta.title, keywords=meta.event,
                  font=fonts.name(deck.body_face))


def slides(deck: Deck, meta: Meta, epoch: int | None = None) -> bytes:
    """The slides as PDF bytes, dated `epoch` (SOURCE_DATE_EPOCH's seconds; None:
    2000-01-01)."""
    out = io.BytesIO()
    size = (deck.width / EMU_PER_PT, deck.height / EMU_PER_PT)
    c = _canvas(out, size, meta, "slides", deck, epoch)
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


def notes(deck: Deck, book: NotesBook, meta: Meta, epoch: int | None = None) -> bytes:
    """The speaker's notes book as PDF bytes, dated `epoch`."""
    out = io.BytesIO()
    c = _canvas(out, (book.width, book.height), meta, "speaker notes", deck, epoch)
    painter = SlidePainter(c, deck, links=False)
    slide_w, slide_h = deck.width / EMU_PER_PT, deck.height / EMU_PER_PT
    for number, page in enumerate(book.pages, 1):
        if page.bookmark:
            key = f"notes{number}"
            c.bookmarkPage(key)
            c.addOutlineEntry(page.bookmark, key, level=0)
        if page.slide:
            x, top, scale = page.slide_at
            c.saveState()
            c.translate(x, book.height - top - slide_h * scale)
            c.scale(scale, scale)
            painter.draw(deck.slides[page.slide - 1])
            c.restoreState()
            if page.frame is not None:
                c.setStrokeColor(HexColor(page.frame.colour.value))
                c.setLineWidth(page.frame.width)
                c.rect(x, book.height - top - slide_h * scale, slide_w * scale,
                       slide_h * scale, stroke=1, fill=0)
        for line in page.lines:
            text_line(c, line, book.height, links=False)
        c.showPage()
    c.showOutline()
    c.save()
    return out.getvalue()
