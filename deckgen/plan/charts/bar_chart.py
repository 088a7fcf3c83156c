"""A bar chart placed in its box, once for every painter of the deck: each bar to 100% of its
own total, the first on top, its category label at its left; the first segment solid (the
accent on the dial's bar), the others hatched so they read in greyscale; each segment's label
set in it when it fits, else lent to the widest segment of its bar (style.lent).

Pure. A native PowerPoint chart is given the plot's margins and the bars' gap, so its bars sit
where these do; its data labels stand centred in the segments the plan names.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from deckgen.box import Box, pt
from deckgen.fonts import Typeface
from deckgen.plan.charts import style
from deckgen.plan.charts.labels import PAD, label_of
from deckgen.plan.placed import BarPiece, BarPlacement, BarRow, Colour, Stroke
from deckgen.story import BarChart

GAP = 0.7  # between two bars, a share of a bar's thickness (a native chart's gap width, 70%)
HATCH = 6.0  # points between the hatching's strokes
INSET = 0.45  # ems: a label in a segment keeps this far from its edges


def place_bars(chart: BarChart, box: Box, size: float, typefaces: tuple[Typeface, Typeface],
               roles: Mapping[str, str]) -> BarPlacement:
    """`chart` placed in `box` (EMU on the slide), its text at `size` points in `typefaces`
    (regular, bold), its colours by role."""
    x0, y0, w, h = pt(box.x), pt(box.y), pt(box.w), pt(box.h)

    def colour(role: str) -> Colour:
        return Colour(roles[role], role)

    def width(text: str, bold: bool) -> float:
        face = typefaces[1 if bold else 0].measure
        return max(face.width(line, size) for line in text.split("\n"))

    labels_w = max(width(bar.label, False) for bar in chart.bars) + size * 0.8
    px, pw = x0 + labels_w, w - labels_w - size * 0.5
    top, bottom = y0 + size * 0.5, y0 + h - size * 0.5
    slot = (bottom - top) / len(chart.bars)
    thick = slot / (1 + GAP)
    edge = Stroke(colour("muted"), 1.0)
    bars = []
    for b, bar in enumerate(chart.bars):
        middle = top + slot * (b + 0.5)
        face = typefaces[1 if bar.emphasis else 0]
        # the category's label as a native chart sets it: every bar's alike
        title = label_of(bar.label, px - size * 0.4, middle, typefaces[0], size,
                         colour("text"), align="r", middle=True)
        total = sum((seg.share for seg in bar.segments), Fraction(0))
        pieces, lefts, widths = [], [], []
        at = Fraction(0)
        for k, seg in enumerate(bar.segments):
            left = px + float(at / total) * pw
            seg_w = float(seg.share / total) * pw
            at += seg.share
            lefts.append(left)
            widths.append(seg_w)
            box_ = (left, middle - thick / 2, seg_w, thick)
            if k == 0:
                pieces.append(BarPiece(box_, colour("accent" if bar.emphasis else "muted"), edge))
            else:
                pieces.append(BarPiece(box_, colour("background"), edge, edge, HATCH))
        texts = [f"{seg.name} {seg.label}" for seg in bar.segments]
        fits = [width(text, bar.emphasis) + 2 * size * INSET + (2 * size * PAD if k else 0)
                <= widths[k] for k, text in enumerate(texts)]
        placed = []
        for k, carried in enumerate(style.lent([float(s.share) for s in bar.segments], fits)):
            if not carried:
                continue
            text = "\n".join(texts[j] for j in carried)
            # centred in its segment, but never past the bar's ends
            half = width(text, bar.emphasis) / 2 + (size * PAD if k else 0)
            centre = min(max(lefts[k] + widths[k] / 2, px + half), px + pw - half)
            placed.append((k, label_of(text, centre, middle, face, size,
                                       colour("background" if k == 0 else "text"), align="c",
                                       middle=True,
                                       back=colour("background") if k else None)))
        bars.append(BarRow(title, tuple(pieces), tuple(placed)))
    margins = (labels_w / w, size * 0.5 / h, size * 0.5 / w, size * 0.5 / h)
    return BarPlacement(margins, GAP, tuple(bars))
