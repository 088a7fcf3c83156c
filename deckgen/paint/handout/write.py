"""The handout as PDF bytes: the two sides drawn on one canvas, with the document's
metadata."""

from __future__ import annotations

import io
from collections.abc import Callable

from deckgen.errors import InputError, Problem
from deckgen.paint.handout.fit import arrange
from deckgen.paint.handout.fonts import (
    REGULAR,
    register_fonts,
)
from deckgen.paint.handout.parts import (
    missing_glyphs,
)
from deckgen.paint.handout.sheet import (
    SheetPainter,
    overflow,
    side_height,
)
from deckgen.paint.handout.style import (
    BODY_PT,
    MAX_EXTRA_GAP,
    PAPER,
)
from deckgen.paint.pdf.canvas import canvas as pdf_canvas
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
    register_fonts()
    page_w, page_h = PAPER[story.meta.paper]
    sheet = arrange(story, pages_auto)
    sides, margin = sheet.sides, sheet.k.margin
    frame_w, frame_h = page_w - 2 * margin, page_h - 2 * margin
    for warning in missing_glyphs(sides, story):
        if warn:
            warn(warning)
    if not sheet.fits and not pages_auto:
        problems = [p for p in (overflow(side, frame_w, frame_h, story) for side in sides) if p]
        if problems:
            raise InputError(problems)

    out = io.BytesIO()
    m = story.meta
    topics = [s.kicker.split("/", 1)[-1].strip() for s in story.slides if s.kicker]
    keywords = list(dict.fromkeys([*topics, m.event]))
    canvas = pdf_canvas(out, (page_w, page_h), m, epoch, title=m.title,
                        subject=m.subtitle or m.title,
                        keywords=", ".join(k for k in keywords if k), font=REGULAR,
                        font_size=BODY_PT)
    drawn = SheetPainter(canvas, page_w, page_h, margin)
    for side in sides:
        # A page with room to spare spreads it between its bands, a little each.
        spare = frame_h - side_height(side, frame_w)
        stretchy = sum(1 for band in side.bands[:-1] if not band.keep_with_next)
        gap = side.gap + (min(spare / max(stretchy, 1), MAX_EXTRA_GAP) if spare > 0 else 0)
        drawn.side(side, paginate=pages_auto, gap=gap)
    canvas.showOutline()
    canvas.save()
    return out.getvalue()


