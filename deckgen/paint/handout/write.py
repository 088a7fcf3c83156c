"""The handout as PDF bytes: the two sides drawn on one canvas, with the document's
metadata."""

from __future__ import annotations

import io
import time
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from deckgen import __version__
from deckgen.errors import InputError, Problem
from deckgen.paint.handout.fit import arrange
from deckgen.paint.handout.fonts import (
    REGULAR,
    _register_fonts,
)
from deckgen.paint.handout.parts import (
    _missing_glyphs,
)
from deckgen.paint.handout.sheet import (
    _overflow,
    _Sheet,
    _side_height,
)
from deckgen.paint.handout.style import (
    BODY_PT,
    MAX_EXTRA_GAP,
    PAPER,
)
from deckgen.story import Story

DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z, reportlab's date in its invariant mode

# --------------------------------------------------------------------------------------------
# The whole sheet


def render(story: Story, *, pages_auto: bool = False,
           warn: Callable[[Problem], None] | None = None,
           epoch: int | None = None) -> bytes:
    """The handout as PDF bytes: two pages (one sheet), or more when `pages_auto` allows.

    `warn` hears of each text with a character no installed font can draw; the PDF is dated
    `epoch` (SOURCE_DATE_EPOCH's seconds; None: 2000-01-01)."""
    _register_fonts()
    page_w, page_h = PAPER[story.meta.paper]
    sheet = arrange(story, pages_auto)
    sides, margin = sheet.sides, sheet.k.margin
    frame_w, frame_h = page_w - 2 * margin, page_h - 2 * margin
    for warning in _missing_glyphs(sides, story):
        if warn:
            warn(warning)
    if not sheet.fits and not pages_auto:
        problems = [p for p in (_overflow(side, frame_w, frame_h, story) for side in sides) if p]
        if problems:
            raise InputError(problems)

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(page_w, page_h), invariant=1, pageCompression=1,
                    lang=story.meta.language or None, initialFontName=REGULAR,
                    initialFontSize=BODY_PT)
    _date(canvas, epoch)
    _describe(canvas, story)
    drawn = _Sheet(canvas, page_w, page_h, margin)
    for side in sides:
        # A page with room to spare spreads it between its bands, a little each.
        spare = frame_h - _side_height(side, frame_w)
        stretchy = sum(1 for band in side.bands[:-1] if not band.keep_with_next)
        gap = side.gap + (min(spare / max(stretchy, 1), MAX_EXTRA_GAP) if spare > 0 else 0)
        drawn.side(side, paginate=pages_auto, gap=gap)
    canvas.showOutline()
    canvas.save()
    return out.getvalue()


def _date(canvas: Canvas, epoch: int | None) -> None:
    """The document's dates from `epoch` (None: 2000-01-01, reportlab's own fixed date),
    whatever the environment says now: the build read SOURCE_DATE_EPOCH once, before any
    work. The document's ID is reportlab's own in its invariant mode: a digest of the
    document's text and of SOURCE_DATE_EPOCH as reportlab reads it (else its fixed date)."""
    stamp = time.gmtime(DEFAULT_EPOCH if epoch is None else epoch)
    text = time.strftime("D:%Y%m%d%H%M%S+00'00'", stamp)
    canvas.setDateFormatter(lambda *_: text)


def _describe(canvas: Canvas, story: Story) -> None:
    """Document metadata: title, author, subject, keywords and creator."""
    m = story.meta
    canvas.setTitle(m.title)
    canvas.setAuthor(m.presenter)
    canvas.setSubject(m.subtitle or m.title)
    topics = [s.kicker.split("/", 1)[-1].strip() for s in story.slides if s.kicker]
    keywords = list(dict.fromkeys([*topics, m.event]))
    canvas.setKeywords(", ".join(k for k in keywords if k))
    canvas.setCreator(f"deckgen {__version__}")
