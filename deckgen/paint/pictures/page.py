"""The charts' page: the rc settings, the fonts text is drawn in (the shipped Liberation Sans,
by path), and a figure with inch coordinates that measures text with the layout layer before
drawing it."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text

from deckgen import fonts
from deckgen.plan.charts.bars import Measured, face
from deckgen.plan.charts.bars import chunks as _chunks
from deckgen.plan.charts.bars import wrap as _wrap

FORMATS = ("png", "svg")
MIN_DPI = 72

# The other lines, after "ours": a dash pattern and a marker each, so greyscale tells them apart.
_DASHES: tuple[tuple[float, ...], ...] = (
    (6, 2.5), (1.2, 1.8), (7, 2, 1.5, 2), (3.5, 2, 1.2, 2, 1.2, 2))
_MARKERS = ("s", "^", "D", "v", "P", "X")

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches


_FAMILIES = [fonts.CHART_FAMILY, fonts.FAMILY]  # the names an SVG's text asks for


def _context(font_pt: float) -> AbstractContextManager[None]:
    return rc_context({
        "font.family": _FAMILIES,
        "font.size": font_pt,
        "axes.unicode_minus": False,
        "svg.fonttype": "none",  # text stays text, selectable once the handout imports it
        "svg.hashsalt": "deckgen",  # ids from content, not from chance
        "path.simplify": False,
    })


def set_fonts(figure: Figure) -> None:
    """Give every text of the figure its font (see `font`), once everything is placed."""
    for axes in figure.axes:  # the tick labels, made for the ticks as they are now
        axes.xaxis.get_majorticklabels()
        axes.yaxis.get_majorticklabels()
    for text in figure.findobj(Text):
        text.set_fontproperties(font(text.get_text(), text.get_fontweight(),
                                     text.get_fontsize()))


def font(text: str, weight: int | str, size: float | str) -> FontProperties:
    """The font `text` is drawn in: the Liberation Sans file shipped with the package, by
    path, so every machine draws with the same file whatever copy it has installed. A text
    with a character Liberation Sans lacks is set by matplotlib's lookup of Liberation Sans,
    then DejaVu Sans for those characters (matplotlib falls back from font to font by family
    name only, never from a file named by path)."""
    bold = weight in ("bold", 700, "700")
    if all(ch == "\n" or ord(ch) in face("bold" if bold else "normal").advances for ch in text):
        return FontProperties(family=_FAMILIES, weight=weight, size=size,
                              fname=fonts.text_path("bold" if bold else "regular"))
    _add_shipped()
    return FontProperties(family=_FAMILIES, weight=weight, size=size)


def _add_shipped() -> None:
    """Make the shipped Liberation Sans known to matplotlib, for a machine with none."""
    known = {entry.fname for entry in font_manager.fontManager.ttflist}
    for style in ("regular", "bold"):
        path = str(fonts.text_path(style))
        if path not in known:
            font_manager.fontManager.addfont(path)


@dataclass
class _Page(Measured):
    """A figure with inch coordinates, measured as the layout layer's sheet is."""

    figure: Figure = field(kw_only=True)

__all__ = ["FORMATS", "MIN_DPI", "Box", "_Page", "_chunks", "_context", "_wrap", "face", "font",
           "set_fonts"]
