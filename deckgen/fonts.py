"""Where the TrueType fonts live that the deck measures with and the handout embeds.

DejaVu Sans ships inside matplotlib's wheel, so every install has it; this module finds the
files without importing matplotlib. For the characters DejaVu Sans lacks (CJK, emoji), the
handout falls back on system fonts when they are installed (`fallbacks()`).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from deckgen.errors import RenderError

FAMILY = "DejaVu Sans"
# TrueType (glyf outline) fonts tried in turn for a character DejaVu Sans cannot draw, with
# the Debian package that installs each: Chinese and Japanese, Korean, emoji and symbols.
FALLBACKS = (
    (Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"), "fonts-droid-fallback"),
    (Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"), "fonts-nanum"),
    (Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"), "fonts-symbola"),
)
_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
          "italic": "DejaVuSans-Oblique.ttf", "bolditalic": "DejaVuSans-BoldOblique.ttf"}


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
    """The TTF file of DejaVu Sans in `style`: regular, bold, italic or bolditalic."""
    return _folder() / _FILES[style]


def fallbacks() -> list[Path]:
    """The fallback font files installed here, in the order to try them."""
    return [file for file, _ in FALLBACKS if file.is_file()]
