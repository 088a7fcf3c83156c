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
from matplotlib.path import Path
from matplotlib.text import Text

from deckgen import fmt
from deckgen.box import pt
from deckgen.errors import RenderError
from deckgen.plan.placed import (
    BarPiece,
    Chart,
    Dot,
    Label,
    Layer,
    Marker,
    MarkerAt,
    Polyline,
    Segment,
    Stroke,
)

MIN_DPI = 72


@cache
def _font(file: str) -> FontProperties:
    return FontProperties(fname=file)


class _Painter:
    """Draws a placed chart's layers, each above the ones before it (its z-order its place
    in the plan's order)."""

    def __init__(self, chart: Chart, dpi: int) -> None:
        box = chart.box
        self.x0, self.y0 = pt(box.x), pt(box.y)
        self.w, self.h = pt(box.w), pt(box.h)
        self.figure = Figure(figsize=(self.w / 72, self.h / 72), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.w)
        self.ax.set_ylim(self.h, 0)
        self.ax.set_axis_off()
        self.texts: list[tuple[str, Text]] = []
        self.z = 0.0

    def above(self) -> float:
        """The z-order of the next thing drawn: above everything drawn so far."""
        self.z += 1.0
        return self.z

    def at(self, x: float, y: float) -> tuple[float, float]:
        return x - self.x0, y - self.y0

    def line(self, xs: list[float], ys: list[float], stroke: Stroke) -> None:
        kind: tuple[float, tuple[float, ...]] | str = (0.0, stroke.pattern) \
            if stroke.pattern else "solid"
        self.ax.add_line(Line2D([x - self.x0 for x in xs], [y - self.y0 for y in ys],
                                color=stroke.colour.value, linewidth=stroke.width,
                                linestyle=kind,  # type: ignore[arg-type]
                                zorder=self.above(), solid_capstyle="butt"))

    def marker(self, marker: Marker, x: float, y: float) -> None:
        """A marker in the outline the plan gives it (y down here, so its y is turned)."""
        px, py = self.at(x, y)
        outline = marker.outline
        if not outline:
            shape: str | Path = "o"
        elif marker.stroked:
            shape = Path([(dx, -dy) for dx, dy in outline],
                         [Path.MOVETO, Path.LINETO] * (len(outline) // 2))
        else:
            shape = Path([(dx, -dy) for dx, dy in (*outline, outline[0])], closed=True)
        self.ax.add_line(Line2D([px], [py], marker=shape, markersize=marker.size,
                                color=marker.colour.value, markeredgewidth=marker.edge,
                                linestyle="none", zorder=self.above()))

    def label(self, label: Label) -> None:
        if label.back is not None:
            x0, y0, x1, y1 = label.box
            px, py = self.at(x0, y0)
            self.ax.add_patch(Rectangle((px, py), x1 - x0, y1 - y0, facecolor=label.back.value,
                                        edgecolor="none", zorder=self.above()))
        z = self.above()
        pivot = label.pivot if label.angle else None
        for line in label.lines:
            for span in line.spans:
                x, y = span.x, line.baseline
                if pivot is not None:  # turned a quarter about the pivot, to read upwards
                    x, y = pivot[0] + (line.baseline - pivot[1]), pivot[1] - (span.x - pivot[0])
                px, py = self.at(x, y)
                found = self.ax.text(px, py, span.text, fontproperties=_font(span.font.file),
                                     fontsize=line.size, color=span.colour.value, ha="left",
                                     va="baseline", rotation=label.angle,
                                     rotation_mode="anchor", zorder=z)
                self.texts.append((span.text, found))

    def layer(self, layer: Layer) -> None:
        if isinstance(layer, Segment):
            self.line([layer.x0, layer.x1], [layer.y0, layer.y1], layer.stroke)
        elif isinstance(layer, Polyline):
            self.line([x for x, _ in layer.points], [y for _, y in layer.points], layer.stroke)
        elif isinstance(layer, MarkerAt):
            self.marker(layer.marker, layer.x, layer.y)
        elif isinstance(layer, Dot):
            px, py = self.at(layer.x, layer.y)
            self.ax.add_patch(Circle((px, py), layer.radius, facecolor=layer.fill.value,
                                     edgecolor=layer.ring.colour.value,
                                     linewidth=layer.ring.width, zorder=self.above()))
        elif isinstance(layer, BarPiece):
            self.piece(layer)
        else:
            self.label(layer)

    def piece(self, piece: BarPiece) -> None:
        x, top, w, h = piece.box
        px, py = self.at(x, top)
        filled = Rectangle((px, py), w, h, facecolor=piece.fill.value, edgecolor="none",
                           zorder=self.above())
        self.ax.add_patch(filled)
        if piece.hatch is not None:
            strokes = []
            d = -h
            while d < w:
                strokes.append(((px + d, py + h), (px + d + h, py)))
                d += piece.step
            hatch = LineCollection(strokes, colors=piece.hatch.colour.value,
                                   linewidths=piece.hatch.width, zorder=self.above())
            hatch.set_clip_path(filled)
            self.ax.add_collection(hatch)
        self.ax.add_patch(Rectangle((px, py), w, h, facecolor="none",
                                    edgecolor=piece.edge.colour.value,
                                    linewidth=piece.edge.width, zorder=self.above()))


def _painted(chart: Chart, dpi: int) -> _Painter:
    if dpi < MIN_DPI:
        raise RenderError(f"chart resolution must be at least {fmt.measure(MIN_DPI, 'dpi')}, "
                          f"got {fmt.measure(dpi, 'dpi')}")
    # dashes in points as the plan gives them, and every point of a line drawn: the same
    # picture whatever a matplotlibrc says
    with rc_context({"lines.scale_dashes": False, "path.simplify": False}):
        painter = _Painter(chart, dpi)
        for layer in chart.placement.layers:
            painter.layer(layer)
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
