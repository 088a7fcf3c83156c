"""A chart's text placed: its lines (one per line of the text, 1.2 ems apart) cut into spans
in the faces that draw them, aligned at a point, and the box it takes."""

from __future__ import annotations

from collections.abc import Mapping

from deckgen.box import Box, pt
from deckgen.fonts import Typeface
from deckgen.plan.placed import Colour, Font, Label, Span, TextLine
from deckgen.story import LineChart

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


class ChartText:
    """A chart's box (points on the slide: `left`, `top`, `w`, `h`) and its text: measured
    and set in the chart's faces (regular, bold) at its size, in its colours by role."""

    def __init__(self, chart: LineChart, box: Box, size: float,
                 typefaces: tuple[Typeface, Typeface], roles: Mapping[str, str]) -> None:
        self.chart = chart
        self.size = size
        self.left, self.top = pt(box.x), pt(box.y)
        self.w, self.h = pt(box.w), pt(box.h)
        self.typefaces = typefaces
        self.roles = roles

    def colour(self, role: str) -> Colour:
        return Colour(self.roles[role], role)

    def width(self, text: str, bold: bool = False) -> float:
        face = self.typefaces[1 if bold else 0].measure
        return max((face.width(line, self.size) for line in text.split("\n")), default=0.0)

    def label(self, text: str, x: float, y: float, *, align: str = "l", middle: bool = False,
              bold: bool = False, role: str = "text", back: bool = False,
              angle: float = 0.0) -> Label:
        return label_of(text, x, y, self.typefaces[1 if bold else 0], self.size,
                        self.colour(role), align=align, middle=middle,
                        back=self.colour("background") if back else None, angle=angle)
