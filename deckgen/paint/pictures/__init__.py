"""The deck's charts as pictures (`--charts picture`): each placed chart drawn with matplotlib
as a PNG of exactly its box, where the plan put everything (draw.py).

Only this package imports matplotlib. It draws what the placed chart says and decides
nothing: every line, label and its place is the plan's, every text in the font file that
measured it. The same chart always gives the same bytes.
"""

from __future__ import annotations

from deckgen.paint.pictures import mplconfig  # first: settles matplotlib's folder before its import
from deckgen.paint.pictures.draw import MIN_DPI, render, text_boxes

__all__ = ["MIN_DPI", "mplconfig", "render", "text_boxes"]
