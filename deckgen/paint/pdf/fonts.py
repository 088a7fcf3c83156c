"""The slides' fonts for reportlab: the very files each theme font was measured with
(`deckgen.fonts.twin`: Liberation Sans for Arial and its kin, DejaVu Sans for itself), with
DejaVu Sans for the characters a face lacks; reportlab embeds the subset a PDF uses.

reportlab's font registry belongs to the process: a face is registered once, under a name of
this package's own, and asked for by that name from then on."""

from __future__ import annotations

import functools
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from deckgen import fonts
from deckgen.errors import RenderError


@functools.cache
def _registered(path: Path) -> tuple[str, frozenset[int]]:
    """The reportlab name of the font file at `path` and the characters it draws."""
    name = f"Slides-{path.stem}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as err:  # noqa: BLE001 - any unreadable file is the same problem
            raise RenderError(f"cannot load the font file {path}: {err}") from None
    font = pdfmetrics.getFont(name)
    return name, frozenset(font.face.charToGlyph)


def face(family: str, bold: bool = False) -> str:
    """The registered name of the face `family` (a theme font) was measured with."""
    return _registered(fonts.drawing_file(family, bold))[0]


def runs(text: str, family: str, bold: bool = False) -> list[tuple[str, str]]:
    """`text` as (font name, text) runs: the measured face where it has the character, DejaVu
    Sans where it has not."""
    name, chars = _registered(fonts.drawing_file(family, bold))
    spare, _ = _registered(fonts.path("bold" if bold else "regular"))
    out: list[tuple[str, str]] = []
    for ch in text:
        font = name if ord(ch) in chars or ch in " \u00a0" else spare
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + ch)
        else:
            out.append((font, ch))
    return out


def width(text: str, family: str, size: float, bold: bool = False,
          tracking: float = 0.0) -> float:
    """Points `text` takes at `size`, set as `runs` sets it, with `tracking` after each
    character."""
    drawn: float = sum(pdfmetrics.stringWidth(part, font, size)
                       for font, part in runs(text, family, bold))
    return drawn + tracking * len(text)
