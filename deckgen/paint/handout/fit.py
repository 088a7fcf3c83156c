"""Fitting the talk to one sheet without changing its order.

The bands come in the talk's order; the front takes as many as fit and the back the rest.
The sheet is tried as designed, then at each tighter step of `style.SCALES` (tighter spaces,
smaller headings and figures, a line less to write on, narrower margins); at each step first
with the page turning between two sections, then with the serial bottleneck flowing on
through the columns with what gets precious, so the page may turn inside it. The first
arrangement in which both sides fit wins. Nothing moves out of its place to make room, and
nothing is dropped but the presenter's own slides, which are on the sheet only when it has
room for them as designed."""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.paint.handout.builder import Builder
from deckgen.paint.handout.lists import qr_drawing
from deckgen.paint.handout.parts import cut_band
from deckgen.paint.handout.sheet import (
    Band,
    Side,
    band_height,
    column_widths,
    side_height,
)
from deckgen.paint.handout.style import BAND_GAP, HEADING_GAP, PAPER, SCALES, Scale
from deckgen.story import Story


@dataclass(frozen=True)
class Sheet:
    """The two sides, set at one step of the scale; `fits` when neither runs over."""

    sides: list[Side]
    k: Scale
    fits: bool


def arrange(story: Story, pages_auto: bool) -> Sheet:
    """The first arrangement in which both sides fit their pages; when none does, with more
    pages allowed, the sheet as designed, else the tightest, to say how far it runs over."""
    if pages_auto:
        tries = [(k, True) for k in SCALES]
    else:
        own = any(s.custom is not None and s.custom.handout for s in story.slides)
        tries = [(SCALES[0], True)] * own + [(k, False) for k in SCALES]
    qr = qr_drawing(story.meta.url) if story.meta.url else None
    page_w, page_h = PAPER[story.meta.paper]
    first: Sheet | None = None
    for k, with_own in tries:
        frame_w, frame_h = page_w - 2 * k.margin, page_h - 2 * k.margin
        for bands in Builder(story, frame_w, k, with_own, qr).arrangements():
            sheet = _sheet(bands, k, frame_w, frame_h)
            if sheet.fits:
                return sheet
            first = first or sheet
    assert first is not None
    return first if pages_auto else sheet


def _sheet(bands: list[Band], k: Scale, frame_w: float, frame_h: float) -> Sheet:
    front, back = _turn(bands, k, frame_w, frame_h)
    sides = [_side("front page", front, k), _side("back page", back, k)]
    fits = all(side_height(side, frame_w) <= frame_h + 0.01 for side in sides)
    return Sheet(sides, k, fits)


def _side(name: str, bands: list[Band], k: Scale) -> Side:
    return Side(name, bands, gap=k.gap(BAND_GAP), heading_gap=HEADING_GAP)


def _turn(bands: list[Band], k: Scale, frame_w: float,
          frame_h: float) -> tuple[list[Band], list[Band]]:
    """The front's bands and the back's: the front takes the most that fit its page, never
    ending on a heading or on a band its section goes on from, and cuts a band that may be
    cut (`parts._cut`) when a part of it fits; it takes at least the header and the band
    after it, even when they run over."""
    col_w = column_widths(frame_w, 2)[0]
    ends = [n for n in range(1, len(bands) + 1)
            if not bands[n - 1].keep_with_next and not bands[n - 1].continues]
    least = next((n for n in ends if n >= min(2, len(bands))), len(bands))
    best: tuple[list[Band], list[Band]] = (bands[:least], bands[least:])
    height = 0.0
    for n, band in enumerate(bands, start=1):
        tall = band_height(band, frame_w)
        if height + tall > frame_h + 0.01:
            cut = cut_band(band, col_w, frame_h - height) if band.flowing and n > least else None
            if cut is not None:
                best = ([*bands[:n - 1], cut[0]], [cut[1], *bands[n:]])
            break
        height += tall
        if n in ends and n >= least:
            best = (bands[:n], bands[n:])
        height += HEADING_GAP if band.keep_with_next else k.gap(BAND_GAP)
    return best
