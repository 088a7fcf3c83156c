"""The charts' page: Liberation Sans registered with matplotlib, the rc settings, and a
figure with inch coordinates that measures text with the layout layer before drawing it."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure

from deckgen import fonts
from deckgen.fmt import NBSP
from deckgen.layout.text import Face, Overlong, break_lines, longest_word

FORMATS = ("png", "svg")
MIN_DPI = 72

# The other lines, after "ours": a dash pattern and a marker each, so greyscale tells them apart.
_DASHES: tuple[tuple[float, ...], ...] = (
    (6, 2.5), (1.2, 1.8), (7, 2, 1.5, 2), (3.5, 2, 1.2, 2, 1.2, 2))
_MARKERS = ("s", "^", "D", "v", "P", "X")
_HATCH_STEP = 0.11  # inches between hatch strokes at deck size

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches
_Placed = tuple[int, float, float, str, float]  # segment index, left, width, label, label width
_Row = tuple[int, float, float, str, float, str]  # segment index, left, width, label, x, alignment


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


def face(weight: str = "normal") -> Face:
    """The measured face the charts' text is set in: Liberation Sans, regular or bold."""
    return fonts.face(fonts.CHART_FAMILY, weight == "bold")


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
class _Page:
    """A figure with inch coordinates and a way to measure text before drawing it."""

    figure: Figure
    width: float
    height: float
    font_pt: float

    @property
    def line_h(self) -> float:
        """One line of base text, in inches."""
        return self.font_pt * 1.2 / 72

    @property
    def pad(self) -> float:
        return self.font_pt * 0.4 / 72

    def size(self, text: str, *, weight: str = "normal") -> tuple[float, float]:
        """Width and height in inches of `text` (one or more lines) as it will be drawn,
        measured by the layout layer: its widest line, and a line box per line."""
        if not text:
            return 0.0, 0.0
        lines = text.split("\n")
        measured = face(weight)
        wide = max(measured.width(line, self.font_pt) for line in lines)
        return wide / 72, measured.height(len(lines), self.font_pt) / 72


def _breakable(words: Sequence[str], i: int) -> bool:
    """May a line break fall before words[i]? Not inside '2 h 14 min' nor '60 seconds'."""
    before, after = words[i - 1], words[i]
    if any(ch.isdigit() for ch in before):
        return False
    return not (any(ch.isdigit() for ch in after) and len(before) <= 3)


def _chunks(text: str) -> list[str]:
    """The pieces of `text` that a line break may fall between."""
    words = text.split(" ")
    chunks = [words[0]]
    for i in range(1, len(words)):
        if _breakable(words, i):
            chunks.append(words[i])
        else:
            chunks[-1] += " " + words[i]
    return chunks


def _wrap(page: _Page, text: str, budget: float, weight: str) -> str:
    """`text` broken into lines no wider than `budget` inches where it can be, by the layout
    layer's line breaker; a figure and its unit ("2 h 14 min", "60 seconds") are held
    together for it, and a piece wider than the line goes on a line of its own."""
    held = " ".join(chunk.replace(" ", NBSP) for chunk in _chunks(text))
    width = budget * 1.12 * 72  # a little over beats a lone word
    width = max(width, longest_word(held, face(weight), page.font_pt))
    lines = break_lines(held, face(weight), page.font_pt, width)
    assert not isinstance(lines, Overlong)  # no piece is wider than the line
    return "\n".join(line.replace(NBSP, " ") for line in lines)
