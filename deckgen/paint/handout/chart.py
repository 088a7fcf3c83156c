"""The handout's bar chart, drawn with reportlab's own shapes where the plan
(`deckgen.plan.charts.handout_bars.plan`) puts everything, so the sheet needs no chart
library: each bar to 100% of its total, the segments after the first hatched so they read in
greyscale, and the story's labels where the plan set them (in the segment, or lent to the
widest), in the colour it gives them, set in the embedded Liberation Sans they were measured
in."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Group, Line, Rect, String
from reportlab.lib import colors

from deckgen.paint.handout.fonts import BOLD, REGULAR, face_of, font_runs, text_width
from deckgen.paint.handout.style import Palette
from deckgen.plan.charts import handout_bars as bars
from deckgen.story import BarChart

PT = 72.0  # points per inch: the plan is in inches, the drawing in points
PAPER = colors.white
CAP = 0.35  # a label's baseline sits this many ems under its bar's centre line


@dataclass
class ChartSheet(bars.MeasuredArea):
    """The chart's sheet, measuring text as `_text` sets it: each run in its own font, a
    fallback's where Liberation Sans lacks a character."""

    def size(self, text: str, *, weight: str = "normal") -> tuple[float, float]:
        if not text:
            return 0.0, 0.0
        font = BOLD if weight == "bold" else REGULAR
        lines = text.split("\n")
        wide = max(text_width(line, font, self.font_pt) for line in lines)
        return wide / PT, face_of(font).height(len(lines), self.font_pt) / PT


def _text(group: Group, x: float, baseline: float, text: str, font: str, size: float,
          colour: colors.Color, align: str) -> tuple[float, float]:
    """`text` set at `x` (its left end, right end or centre by `align`) on `baseline`, each run
    in its own font (a fallback where Liberation Sans lacks a character); its left and right."""
    width = text_width(text, font, size)
    left = {"left": x, "right": x - width, "center": x - width / 2}[align]
    at = left
    for name, run in font_runs(text, font):
        group.add(String(at, baseline, run, fontName=name, fontSize=size, fillColor=colour,
                         textAnchor="start"))
        at += text_width(run, name, size)
    return left, left + width


def draw(chart: BarChart, p: Palette, width: float, height: float, font_pt: float) -> Drawing:
    """The chart as a `width` by `height` point drawing, text at `font_pt`."""
    laid = bars.plan(ChartSheet(width / PT, height / PT, font_pt), chart)
    scale = font_pt / 16.0
    step = bars.HATCH_STEP * max(scale, 0.6) * PT
    drawing = Drawing(width, height)
    for bar, plan in zip(chart.bars, laid.bars, strict=True):
        font = BOLD if plan.bold else REGULAR
        face = face_of(font)
        ascent, descent = face.ascent * font_pt, face.descent * font_pt
        group = Group()
        top = plan.title_top * PT
        for i, line in enumerate(plan.title.split("\n")):
            _text(group, laid.x0 * PT, top - ascent - i * (ascent + descent), line, font,
                  font_pt, p.accent if bar.emphasis else p.text, "left")
        base, bar_h = plan.base * PT, plan.height * PT
        fills = []
        for seg in plan.segments:
            left, seg_w = seg.left * PT, seg.width * PT
            if seg.hatched:
                group.add(Rect(left, base, seg_w, bar_h, fillColor=PAPER, strokeColor=p.muted,
                               strokeWidth=1.0 * scale))
                for (xa, ya), (xb, yb) in bars.hatch(left, base, seg_w, bar_h, step):
                    group.add(Line(xa, ya, xb, yb, strokeColor=p.muted,
                                   strokeWidth=0.9 * scale, strokeLineCap=0))
                fills.append(PAPER)
            else:
                fill = p.accent if bar.emphasis else p.muted
                group.add(Rect(left, base, seg_w, bar_h, fillColor=fill, strokeColor=None,
                               strokeWidth=0))
                fills.append(fill)
        ink = {"text": p.text, "background": PAPER}
        pitch = ascent + descent
        for label in plan.inside:
            lines = label.text.split("\n")
            # the lines centred on the bar: the first baseline CAP ems under the centre for
            # one line, each further line moving them all up by half a line
            first = plan.centre * PT - CAP * font_pt + (len(lines) - 1) * pitch / 2
            if label.boxed:  # a patch of paper over the hatching, under the label
                text_w = max(text_width(line, font, font_pt) for line in lines)
                x = label.x * PT - (text_w if label.align == "right" else 0)
                pad = laid.box_pad
                bottom = first - (len(lines) - 1) * pitch - descent
                group.add(Rect(x - pad, bottom - pad, text_w + 2 * pad,
                               len(lines) * pitch + 2 * pad, fillColor=PAPER, strokeColor=None,
                               strokeWidth=0))
            for i, line in enumerate(lines):
                _text(group, label.x * PT, first - i * pitch, line, font, font_pt,
                      ink[label.role], label.align)
        drawing.add(group)
    return drawing
