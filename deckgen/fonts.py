"""Where the TrueType fonts live that the deck measures with and the handout embeds.

The deck and the handout are set in Arial, a face PowerPoint, Keynote, Google Slides and every
Office or macOS install already has. They are measured with, and the handout embeds, Liberation
Sans, Arial's metric-compatible free twin (the same advance width for every character): its
files ship inside the package (`deckgen/typefaces/`, under the SIL Open Font License in
`OFL.txt`), so a plain install has them. `twin(family)` names the file that measures a theme
font; a family without a known twin is measured as Arial.

The charts are drawn by matplotlib in the same Liberation Sans (`CHART_FAMILY`, from the files
shipped here) and measured with the same `Face`, so their labels are placed as the deck and
the handout set them. DejaVu Sans (`FAMILY`), which ships inside matplotlib's wheel, draws the
characters Liberation Sans lacks; this module finds its files without importing matplotlib.
For the characters both lack (CJK, emoji), the handout falls back on system fonts when they
are installed (`fallbacks()`).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from deckgen.errors import RenderError
from deckgen.layout.text import Face

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
# Families measured by the twin shipped here (the metric-compatible clones of Arial).
_ARIAL_LIKE = {"arial", "liberation sans", "arimo", "helvetica", "helvetica neue"}


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


def twin(family: str, style: str = "regular") -> Path:
    """The file that measures `family`: DejaVu Sans's own, else Arial's twin."""
    if family.strip().lower() == FAMILY.lower():
        return path(style)
    return text_path(style)


@cache
def face(family: str = TEXT_FAMILY, bold: bool = False) -> Face:
    """The measured face of a theme font (see `twin`), read once."""
    file = twin(family, "bold" if bold else "regular")
    try:
        return Face.from_ttf(family, file.read_bytes())
    except (OSError, KeyError, IndexError, ValueError) as err:
        raise RenderError(f"cannot read the font {file}: {err}") from None


def known(family: str) -> bool:
    """Whether `family` is measured exactly (it is Arial-like or DejaVu Sans)."""
    return family.strip().lower() in _ARIAL_LIKE | {FAMILY.lower()}


def fallbacks() -> list[Path]:
    """The fallback font files, in the order to try them: DejaVu Sans (every install has it:
    Arabic, Hebrew, many symbols), then the system fonts installed here."""
    return [path("regular"), *(file for file, _ in FALLBACKS if file.is_file())]
