"""The charts' page: Liberation Sans registered with matplotlib, the rc settings, and a
figure with inch coordinates that measures text with the layout layer before drawing it."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure

from deckgen import fonts
from deckgen.layout.bars import Measured, face
from deckgen.layout.bars import chunks as _chunks
from deckgen.layout.bars import wrap as _wrap

FORMATS = ("png", "svg")
MIN_DPI = 72

# The other lines, after "ours": a dash pattern and a marker each, so greyscale tells them apart.
_DASHES: tuple[tuple[float, ...], ...] = (
    (6, 2.5), (1.2, 1.8), (7, 2, 1.5, 2), (3.5, 2, 1.2, 2, 1.2, 2))
_MARKERS = ("s", "^", "D", "v", "P", "X")

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches


_STYLES = ("regular", "bold", "italic", "bolditalic")
_registered: list[str] = []


def _register() -> None:
    """Register the shipped Liberation Sans files with matplotlib, once, ahead of any copy
    installed on the system, so every machine draws with the same files."""
    if _registered:
        return
    manager = font_manager.fontManager
    paths = [str(fonts.text_path(style)) for style in _STYLES]
    for path in paths:
        manager.addfont(path)
    ours = [entry for path in paths for entry in manager.ttflist if entry.fname == path][:4]
    manager.ttflist = ours + [entry for entry in manager.ttflist if entry not in ours]
    manager._findfont_cached.cache_clear()  # type: ignore[attr-defined]  # noqa: SLF001
    _registered.extend(paths)


def _context(font_pt: float) -> AbstractContextManager[None]:
    _register()
    return rc_context({
        "font.family": [fonts.CHART_FAMILY, fonts.FAMILY],
        "font.size": font_pt,
        "axes.unicode_minus": False,
        "svg.fonttype": "none",  # text stays text, selectable once the handout imports it
        "svg.hashsalt": "deckgen",  # ids from content, not from chance
        "path.simplify": False,
    })


@dataclass
class _Page(Measured):
    """A figure with inch coordinates, measured as the layout layer's sheet is."""

    figure: Figure = field(kw_only=True)

__all__ = ["FORMATS", "MIN_DPI", "Box", "_Page", "_chunks", "_context", "_register", "_wrap",
           "face"]
