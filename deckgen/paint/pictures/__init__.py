"""Charts from the story's chart specs: PNG for the deck, SVG for the handout.

Only this package imports matplotlib. It draws what a spec says and formats nothing: every
tick, line and segment label is text from the story. The layout is worked out by hand, in
inches, from measured text, so labels neither overlap nor get clipped: short of room, a
chart packs tighter, wraps its y-axis label or sets it level above the plot and drops
crowded tick labels, and when its text still cannot fit it raises RenderError. The same
input always gives the same bytes.

Text is drawn in Liberation Sans from the files shipped with the package (named to matplotlib
by path, whatever copy is installed; DejaVu Sans draws what it lacks), and
measured and broken into lines by `deckgen.typeset.text`, the measurer and line breaker the
deck and the handout use, so a label is placed where the deck and the handout would set it.
"""

from __future__ import annotations

from deckgen.paint.pictures import mplconfig  # first: settles matplotlib's folder before its import
from deckgen.paint.pictures.draw import render, text_boxes
from deckgen.paint.pictures.page import FORMATS, MIN_DPI, face

__all__ = ["FORMATS", "MIN_DPI", "face", "mplconfig", "render", "text_boxes"]
