"""Where the TrueType fonts live that the deck measures with and the handout embeds.

DejaVu Sans ships inside matplotlib's wheel, so every install has it; this module finds the
files without importing matplotlib.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from deckgen.errors import RenderError

FAMILY = "DejaVu Sans"
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
