"""The placed deck's fonts registered with reportlab: each the very file its text was measured
with (deckgen.fonts, resolved once by the plan), embedded as the subset a PDF uses.

reportlab's font registry belongs to the process: a file is registered once, under a name of
this package's own made from its whole path (two files of one name in two folders are two
fonts), and asked for by that name from then on."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

from deckgen.errors import RenderError
from deckgen.paint.pdf.compat import TTFont
from deckgen.plan.placed import Font


@functools.cache
def registered(file: str, index: int = 0) -> str:
    """The reportlab name of the font file (face `index` of a collection)."""
    path = Path(file)
    where = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    name = f"Slides-{path.stem}-{where[:10]}" + (f"-{index}" if index else "")
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=index))
        except Exception as err:  # noqa: BLE001 - any unreadable file is the same problem
            raise RenderError(f"cannot load the font file {path}: {err}") from None
    return name


def name(font: Font) -> str:
    """The registered name of a placed font."""
    return registered(font.file, font.index)
