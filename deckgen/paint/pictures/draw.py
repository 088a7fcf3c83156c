"""A placed chart drawn with matplotlib, as PNG bytes or as the boxes of its text: the plan's
plot, ticks, lines, markers, labels, legend, rule and marks, or its bars, hatching and labels,
where the plan put them, each text in the font file that measured it. Nothing is measured or
placed here.

The figure is the chart's box; its one axes covers it, in points from the box's top left, y
down, as the plan's points run."""

from __future__ import annotations

import io
from functools import cache

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from matplotlib.text import Text

from deckgen import fmt
from deckgen.errors import RenderError
from deckgen.plan.placed import (
    BarPlacement,
    Chart,
    Label,
    LinePlacement,
    Marker,
    Stroke,
)

MIN_DPI = 72
_MARKERS = {"circle": "o", "square": "s", "triangle": "^", "diamond": "D", "x": "x",
            "plus": "+", "star": "*"}


@cache
def _font(file: str) -> FontProperties:
    return FontProperties(fname=file)


class _Painter:
    def __init__(self, chart: Chart, dpi: int) -> None:
        box = chart.box
        self.x0, self.y0 = box.x / 12700, box.y / 12700
        self.w, self.h = box.w / 12700, box.h / 12700
        self.figure = Figure(figsize=(self.w / 72, self.h / 72), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.w)
        self.ax.set_ylim(self.h, 0)
        self.ax.set_axis_off()
        self.texts: list[tuple[str, Text]] = []

    def at(self, x: float, y: float) -> tuple[float, float]:
        return x - self.x0, y - self.y0

    def line(self, xs: list[float], ys: list[float], stroke: Stroke, z: float = 2.0) -> None:
        kind: tuple[float, tuple[float, ...]] | str = (0.0, stroke.pattern) \
            if stroke.pattern else "solid"
        self.ax.add_line(Line2D([x - self.x0 for x in xs], [y - self.y0 for y in ys],
                                color=stroke.colour.value, linewidth=stroke.width,
                                linestyle=kind,  # type: ignore[arg-type]
                                zorder=z, solid_capstyle="butt"))

    def marker(self, marker: Marker, x: float, y: float) -> None:
        px, py = self.at(x, y)
        self.ax.add_line(Line2D([px], [py], marker=_MARKERS[marker.kind],
                                markersize=marker.size, color=marker.colour.value,
                                markeredgewidth=1.2, linestyle="none", zorder=4))

    def label(self, label: Label | None) -> None:
        if label is None:
            return
        if label.back is not None:
            x0, y0, x1, y1 = label.box
            px, py = self.at(x0, y0)
            self.ax.add_patch(Rectangle((px, py), x1 - x0, y1 - y0, facecolor=label.back.value,
                                        edgecolor="none", zorder=5))
        pivot = None
        if label.angle and label.lines and label.lines[0].spans:
            first = label.lines[0]
            pivot = ((min(s.x for s in first.spans) + max(s.x + s.width for s in first.spans))
                     / 2, first.baseline)
        for line in label.lines:
            for span in line.spans:
                x, y = span.x, line.baseline
                if pivot is not None:  # turned a quarter about the pivot, to read upwards
                    x, y = pivot[0] + (line.baseline - pivot[1]), pivot[1] - (span.x - pivot[0])
                px, py = self.at(x, y)
                found = self.ax.text(px, py, span.text, fontproperties=_font(span.font.file),
                                     fontsize=line.size, color=span.colour.value, ha="left",
                                     va="baseline", rotation=label.angle,
                                     rotation_mode="anchor", zorder=6)
                self.texts.append((span.text, found))

    def lines(self, placement: LinePlacement) -> None:
        px, py, pw, ph = placement.plot
        for tick in placement.y_ticks:
            self.line([px, px + pw], [tick.at, tick.at], placement.grid, 1.0)
        self.line([px, px + pw], [py + ph, py + ph], placement.axis, 1.5)
        self.line([px, px], [py + ph, py], placement.axis, 1.5)
        for tick in placement.x_ticks:
            self.line([tick.at, tick.at], [py + ph, py + ph + 4], placement.axis)
            self.label(tick.label)
        for tick in placement.y_ticks:
            self.line([px - 4, px], [tick.at, tick.at], placement.axis)
            self.label(tick.label)
        self.label(placement.x_title)
        self.label(placement.y_title)
        for k, series in enumerate(placement.series):
            self.line([x for x, _ in series.points], [y for _, y in series.points],
                      series.stroke, 3.0 + (1.0 if series.emphasis else k * 0.01))
            for i in series.marked:
                self.marker(series.marker, *series.points[i])
            self.label(series.end_label)
        for entry in placement.legend or ():
            series = placement.series[entry.series]
            self.line([entry.x0, entry.x1], [entry.y, entry.y], series.stroke)
            self.marker(series.marker, (entry.x0 + entry.x1) / 2, entry.y)
            self.label(entry.label)
        rule = placement.rule
        self.line([rule.x0, rule.x1], [rule.y0, rule.y1], rule.stroke, 2.8)
        self.label(rule.label)
        for dot in placement.dots:
            px_, py_ = self.at(dot.x, dot.y)
            self.ax.add_patch(Circle((px_, py_), dot.radius, facecolor=dot.fill.value,
                                     edgecolor=dot.ring.colour.value,
                                     linewidth=dot.ring.width, zorder=5))
            self.label(dot.label)

    def bars(self, placement: BarPlacement) -> None:
        for bar in placement.bars:
            self.label(bar.title)
            for piece in bar.segments:
                x, top, w, h = piece.box
                px, py = self.at(x, top)
                edge = Rectangle((px, py), w, h, facecolor=piece.fill.value, edgecolor="none",
                                 zorder=2)
                self.ax.add_patch(edge)
                if piece.hatch is not None:
                    strokes = []
                    d = -h
                    while d < w:
                        strokes.append(((px + d, py + h), (px + d + h, py)))
                        d += piece.step
                    hatch = LineCollection(strokes, colors=piece.hatch.colour.value,
                                           linewidths=piece.hatch.width, zorder=3)
                    hatch.set_clip_path(edge)
                    self.ax.add_collection(hatch)
                self.ax.add_patch(Rectangle((px, py), w, h, facecolor="none",
                                            edgecolor=piece.edge.colour.value,
                                            linewidth=piece.edge.width, zorder=4))
            for _, label in bar.labels:
                self.label(label)


def _painted(chart: Chart, dpi: int) -> _Painter:
    if dpi < MIN_DPI:
        raise RenderError(f"chart resolution must be at least {fmt.measure(MIN_DPI, 'dpi')}, "
                          f"got {fmt.measure(dpi, 'dpi')}")
    # dashes in points as the plan gives them, and every point of a line drawn: the same
    # picture whatever a matplotlibrc says
    with rc_context({"lines.scale_dashes": False, "path.simplify": False}):
        painter = _Painter(chart, dpi)
        if isinstance(chart.placement, LinePlacement):
            painter.lines(chart.placement)
        else:
            painter.bars(chart.placement)
    return painter


def render(chart: Chart, *, dpi: int = 200) -> bytes:
    """The placed chart as PNG bytes at `dpi`, exactly its box's size, on its background."""
    painter = _painted(chart, dpi)
    out = io.BytesIO()
    background = chart.background.value
    painter.figure.savefig(out, format="png", dpi=dpi, facecolor=background,
                           metadata={"Software": None})
    painter.figure.clear()
    return out.getvalue()


def text_boxes(chart: Chart, *, dpi: int = 100) -> list[tuple[str, tuple[float, float, float,
                                                                          float]]]:
    """Every piece of text the picture draws, with its box as drawn (left, top, right,
    bottom, points on the slide): for holding the picture to the plan."""
    painter = _painted(chart, dpi)
    renderer = painter.figure.canvas.get_renderer()  # type: ignore[attr-defined]
    scale = 72 / dpi
    out = []
    for text, found in painter.texts:
        box = found.get_window_extent(renderer)
        out.append((text, (painter.x0 + box.x0 * scale, painter.y0 + painter.h - box.y1 * scale,
                           painter.x0 + box.x1 * scale, painter.y0 + painter.h - box.y0 * scale)))
    painter.figure.clear()
    return out
