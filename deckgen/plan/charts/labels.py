"""A chart's text placed: its lines (one per line of the text, 1.2 ems apart) cut into spans
in the faces that draw them, aligned at a point, and the box it takes."""

from __future__ import annotations

from deckgen.fonts import Typeface
from deckgen.plan.placed import Colour, Font, Label, Span, TextLine

PITCH = 1.2  # a chart's lines of text, in ems
PAD = 0.2  # ems of patch around a label set on lines or hatching


def label_of(text: str, x: float, y: float, typeface: Typeface, size: float, colour: Colour,
             *, align: str = "l", middle: bool = False, back: Colour | None = None,
             angle: float = 0.0) -> Label:
    """`text` at `size` aligned at `x` ('l' its left, 'c' its middle, 'r' its right); `y` its
    first baseline, or with `middle` the middle of its lines; turned by `angle` (90: to read
    upwards) about (x, y)."""
    rows = text.split("\n")
    pitch = size * PITCH
    face = typeface.measure
    first = y - len(rows) * pitch / 2 + size * 0.95 if middle else y
    lines = []
    widest = 0.0
    for k, row in enumerate(rows):
        spans = []
        for part, found in typeface.runs(row):
            spans.append((part, found, found.width(part, size)))
        wide = sum(w for _, _, w in spans)
        widest = max(widest, wide)
        at = {"r": x - wide, "c": x - wide / 2}.get(align, x)
        placed = []
        for part, found, w in spans:
            font = Font(typeface.family if found is typeface.chain[0] else "", found.file,
                        typeface.bold, found.index)
            placed.append(Span(part, font, at, w, colour))
            at += w
        lines.append(TextLine(tuple(placed), first + k * pitch, size))
    left = {"r": x - widest, "c": x - widest / 2}.get(align, x)
    top = first - face.ascent * size
    bottom = first + (len(rows) - 1) * pitch + face.descent * size
    pad = size * PAD if back is not None else 0.0
    box = (left - pad, top - pad, left + widest + pad, bottom + pad)
    if angle:  # turned a quarter about (x, y): its box turns with it
        x0, y0, x1, y1 = box
        box = (x + (y0 - y), y - (x1 - x), x + (y1 - y), y - (x0 - x))
    return Label(tuple(lines), box, back, angle, (x, first) if angle else (0.0, 0.0))
