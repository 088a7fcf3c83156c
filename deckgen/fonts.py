"""The fonts the deck measures with and the handout embeds.

The deck and the handout are set in Arial by default, a face PowerPoint, Keynote, Google
Slides and every Office or macOS install already has. They are measured with, and the handout
embeds, Liberation Sans, Arial's metric-compatible free twin (the same advance width for every
character): its files ship inside the package (`deckgen/typefaces/`, under the SIL Open Font
License in `OFL.txt`), so a plain install has them.

A template or the content may name another theme font. Text is measured with the widths of
the face the client will draw it with: Calibri with Carlito's, Cambria with Caladea's, Times
New Roman with Liberation Serif's, Courier New with Liberation Mono's, Arial Narrow with
Liberation Sans Narrow's (`TWINS`). Those twins' advance widths ship as data
(`typefaces/widths.json`, written by `scripts/twin_widths.py`), not as fonts: measuring needs
nothing else. A family with no known twin (Aptos, Segoe UI, a brand face) is measured with a
conservative stand-in, Arial's widths with 5% more room (`STAND_IN_SLACK`; Aptos and Segoe UI
set narrower), and the deck says so in one warning line. A big figure on one line gets the room
of a face wider still (`FIGURE_SLACK`), so no client breaks it inside a word.

The charts are drawn by matplotlib in the same Liberation Sans (`CHART_FAMILY`, from the files
shipped here) and measured with the same `Face`, so their labels are placed as the deck and
the handout set them. DejaVu Sans (`FAMILY`), which ships inside matplotlib's wheel, draws the
characters Liberation Sans lacks; this module finds its files without importing matplotlib.
For the characters both lack (CJK, emoji), the handout falls back on system fonts when they
are installed (`fallbacks()`).
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Any

from deckgen.errors import RenderError
from deckgen.typeset.text import Face

FAMILY = "DejaVu Sans"  # the fallback for characters Liberation Sans lacks
TEXT_FAMILY = "Arial"  # what the deck's theme names and the handout is set in
TWIN_FAMILY = "Liberation Sans"  # Arial's metric-compatible twin, shipped with the package
CHART_FAMILY = TWIN_FAMILY  # what the charts are drawn and measured in
TYPEFACES = Path(__file__).parent / "typefaces"
# TrueType (glyf outline) fonts tried in turn, after DejaVu Sans, for a character the faces
# cannot draw, with
# the Debian package that installs each: Chinese and Japanese, Korean, emoji and symbols.
FALLBACKS = (
    (Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"), "fonts-droid-fallback"),
    (Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"), "fonts-nanum"),
    (Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"), "fonts-symbola"),
)
_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
          "italic": "DejaVuSans-Oblique.ttf", "bolditalic": "DejaVuSans-BoldOblique.ttf"}
_TWIN_FILES = {"regular": "LiberationSans-Regular.ttf", "bold": "LiberationSans-Bold.ttf",
               "italic": "LiberationSans-Italic.ttf",
               "bolditalic": "LiberationSans-BoldItalic.ttf"}
# Theme fonts and the metric-compatible twin each is measured with (lower-case names).
TWINS = {
    **dict.fromkeys(("arial", "liberation sans", "arimo", "helvetica", "helvetica neue"),
                    TWIN_FAMILY),
    **dict.fromkeys(("arial narrow", "liberation sans narrow"), "Liberation Sans Narrow"),
    **dict.fromkeys(("calibri", "carlito"), "Carlito"),
    **dict.fromkeys(("cambria", "caladea"), "Caladea"),
    **dict.fromkeys(("times new roman", "times", "tinos", "liberation serif"),
                    "Liberation Serif"),
    **dict.fromkeys(("courier new", "courier", "cousine", "liberation mono"),
                    "Liberation Mono"),
    FAMILY.lower(): FAMILY,
}
# The theme fonts a presenter may name that are measured exactly, as a warning lists them.
MEASURED = ("Arial", "Helvetica", "Calibri", "Cambria", "Times New Roman", "Courier New",
            "Arial Narrow")
# A figure set on one line ("1,000,000", "2 h 46 min 40 s") never wraps: it gets the room of
# a face this much wider than the one measured, beyond the width safety every text keeps
# (hinting, kerning and a substituted face differ by a few percent between clients).
FIGURE_SLACK = 1.03
STAND_IN = "Arial"  # what measures a family with no known twin (by Liberation Sans's widths)
STAND_IN_SLACK = 1.05  # and how much wider than the stand-in such text is taken to be
WIDTHS = TYPEFACES / "widths.json"


@cache
def _folder() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
        if (folder / _FILES["regular"]).is_file():
            return folder
    system = Path("/usr/share/fonts/truetype/dejavu")
    if (system / _FILES["regular"]).is_file():
        return system
    raise RenderError("cannot find the DejaVu Sans font files (they come with matplotlib)")


def path(style: str = "regular") -> Path:
    """The TTF file of DejaVu Sans (the fallback family) in `style`: regular, bold, italic or
    bolditalic."""
    return _folder() / _FILES[style]


def text_path(style: str = "regular") -> Path:
    """The TTF file of Liberation Sans, the deck's and handout's twin, in `style`."""
    return TYPEFACES / _TWIN_FILES[style]


def twin(family: str) -> str | None:
    """The metric-compatible twin that measures `family`, or None when none is known."""
    return TWINS.get(" ".join(family.split()).lower())


def known(family: str) -> bool:
    """Whether `family` is measured exactly, by its own metric twin."""
    return twin(family) is not None


@cache
def face(family: str = TEXT_FAMILY, bold: bool = False) -> Face:
    """The measured face of a theme font: its twin's widths, or the stand-in's with slack."""
    name = twin(family)
    style = "bold" if bold else "regular"
    if name == TWIN_FAMILY:
        return _from_file(family, text_path(style))
    if name is None:
        own = _from_file(family, text_path(style))
        wider = {cp: advance * STAND_IN_SLACK for cp, advance in own.advances.items()}
        return Face(family, wider, own.missing * STAND_IN_SLACK, own.ascent, own.descent)
    if name == FAMILY:
        return _from_file(family, path(style))
    table = _widths()[name][style]
    units = table["units"]
    advances = {start + i: width / units
                for start, widths in table["runs"] for i, width in enumerate(widths)}
    return Face(family, advances, advances.get(0x20, 0.25) * 2, table["ascent"] / units,
                table["descent"] / units)


# Where Debian installs the twins (fonts-liberation, fonts-crosextra-carlito and -caladea).
SYSTEM_TWINS = Path("/usr/share/fonts/truetype")
_SYSTEM_FILES = {"Carlito": "crosextra/Carlito", "Caladea": "crosextra/Caladea",
                 "Liberation Serif": "liberation/LiberationSerif",
                 "Liberation Mono": "liberation/LiberationMono",
                 "Liberation Sans Narrow": "liberation/LiberationSansNarrow"}


def drawing_file(family: str, bold: bool = False) -> Path:
    """The font file that draws `family` where deckgen sets text itself (the slides PDF): the
    file of the face it was measured with (Liberation Sans shipped here; another twin when it
    is installed), else a face no wider than what was measured (Liberation Sans; DejaVu Sans
    for a family measured with the stand-in)."""
    name = twin(family)
    style = "bold" if bold else "regular"
    if name in _SYSTEM_FILES:
        file = SYSTEM_TWINS / f"{_SYSTEM_FILES[name]}-{'Bold' if bold else 'Regular'}.ttf"
        if file.is_file():
            return file
    if name is None or name == FAMILY:
        return path(style)
    return text_path(style)


def _from_file(family: str, file: Path) -> Face:
    try:
        return Face.from_ttf(family, file.read_bytes())
    except (OSError, KeyError, IndexError, ValueError) as err:
        raise RenderError(f"cannot read the font {file}: {err}") from None


@cache
def _widths() -> dict[str, dict[str, dict[str, Any]]]:
    try:
        data: dict[str, dict[str, dict[str, Any]]] = json.loads(WIDTHS.read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise RenderError(f"cannot read the font widths {WIDTHS}: {err}") from None
    return data


def fallbacks() -> list[Path]:
    """The fallback font files, in the order to try them: DejaVu Sans (every install has it:
    Arabic, Hebrew, many symbols), then the system fonts installed here."""
    return [path("regular"), *(file for file, _ in FALLBACKS if file.is_file())]
