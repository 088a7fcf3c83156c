"""The placed deck's fonts registered with reportlab: each the very file its text was measured
with (deckgen.fonts), embedded as the subset a PDF uses.

reportlab's font registry belongs to the process: a file is registered once, under a name of
this package's own, and asked for by that name from then on."""

from __future__ import annotations

import functools
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

from deckgen import fonts
from deckgen.errors import RenderError
from deckgen.paint.pdf.compat import TTFont
from deckgen.plan.placed import Font


@functools.cache
def registered(file: str, index: int = 0) -> str:
    """The reportlab name of the font file (face `index` of a collection)."""
    path = Path(file)
    name = f"Slides-{path.stem}" + (f"-{index}" if index else "")
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=index))
        except Exception as err:  # noqa: BLE001 - any unreadable file is the same problem
            raise RenderError(f"cannot load the font file {path}: {err}") from None
    return name


def name(font: Font) -> str:
    """The registered name of a placed font."""
    return registered(font.file, font.index)


def runs(text: str, family: str, bold: bool = False) -> list[tuple[str, str]]:
    """`text` as (font name, text) runs, each character in the face that draws it (the
    family's, else a fallback's), as deckgen.fonts resolves them."""
    typeface = fonts.typeface(family, bold, frozenset(text))
    out: list[tuple[str, str]] = []
    for ch in text:
        face = typeface.face_of(ch)
        font = registered(face.file, face.index)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + ch)
        else:
            out.append((font, ch))
    return out


def face(family: str, bold: bool = False) -> str:
    """The registered name of the face that draws `family`."""
    found = fonts.resolve(family, bold).face
    return registered(found.file, found.index)


def width(text: str, family: str, size: float, bold: bool = False,
          tracking: float = 0.0) -> float:
    """Points `text` takes at `size`, set as `runs` sets it, with `tracking` after each
    character."""
    drawn: float = sum(pdfmetrics.stringWidth(part, font, size)
                       for font, part in runs(text, family, bold))
    return drawn + tracking * len(text)
