"""A placed chart drawn on a reportlab canvas as vector shapes: the plan's plot, ticks, lines,
markers, labels, legend, rule and marks, or its bars, hatching and labels, where the plan put
them. Nothing is measured or placed here."""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

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
    TextLine,
)

Text = Callable[[TextLine], None]  # draws a placed line of text


class ChartPainter:
    """Draws placed charts on `canvas`, whose page is `height` points tall (the plan's
    points run down from the slide's top); `text` draws a placed line."""

    def __init__(self, canvas: Canvas, height: float, text: Text) -> None:
        self.c = canvas
        self.h = height
        self.text = text

    def y(self, y: float) -> float:
        return self.h - y

    def draw(self, chart: Chart) -> None:
        for layer in chart.placement.layers:
            self.layer(layer)
        self.c.setDash()

    # -- strokes, markers and labels

    def stroke(self, stroke: Stroke) -> None:
        c = self.c
        c.setStrokeColor(HexColor(stroke.colour.value))
        c.setLineWidth(stroke.width)
        if stroke.pattern:
            c.setDash(list(stroke.pattern), 0)
        else:
            c.setDash()

    def marker(self, marker: Marker, x: float, y: float) -> None:
        """A marker centred at (x, y), the plan's points, in the outline the plan gives it."""
        c = self.c
        r = marker.size / 2
        cx, cy = x, self.y(y)
        c.setFillColor(HexColor(marker.colour.value))
        c.setStrokeColor(HexColor(marker.colour.value))
        c.setDash()
        c.setLineWidth(marker.edge)
        outline = marker.outline
        if not outline:
            c.circle(cx, cy, r, stroke=0, fill=1)
        elif marker.stroked:
            for (ax, ay), (bx, by) in zip(outline[::2], outline[1::2], strict=True):
                c.line(cx + ax * r, cy + ay * r, cx + bx * r, cy + by * r)
        else:
            path = c.beginPath()
            path.moveTo(cx + outline[0][0] * r, cy + outline[0][1] * r)
            for dx, dy in outline[1:]:
                path.lineTo(cx + dx * r, cy + dy * r)
            path.close()
            c.drawPath(path, stroke=0, fill=1)

    def label(self, label: Label) -> None:
        c = self.c
        if label.back is not None:
            x0, y0, x1, y1 = label.box
            c.setFillColor(HexColor(label.back.value))
            c.rect(x0, self.y(y1), x1 - x0, y1 - y0, stroke=0, fill=1)
        if not label.angle:
            for line in label.lines:
                self.text(line)
            return
        px, py = label.pivot
        c.saveState()
        c.translate(px, self.y(py))
        c.rotate(label.angle)
        c.translate(-px, -self.y(py))
        for line in label.lines:
            self.text(line)
        c.restoreState()

    # -- the layers

    def layer(self, layer: Layer) -> None:
        c = self.c
        if isinstance(layer, Segment):
            self.stroke(layer.stroke)
            c.line(layer.x0, self.y(layer.y0), layer.x1, self.y(layer.y1))
        elif isinstance(layer, Polyline):
            self.stroke(layer.stroke)
            path = c.beginPath()
            first, *rest = layer.points
            path.moveTo(first[0], self.y(first[1]))
            for x, y in rest:
                path.lineTo(x, self.y(y))
            c.drawPath(path, stroke=1, fill=0)
        elif isinstance(layer, MarkerAt):
            self.marker(layer.marker, layer.x, layer.y)
        elif isinstance(layer, Dot):
            self.stroke(layer.ring)
            c.setFillColor(HexColor(layer.fill.value))
            c.circle(layer.x, self.y(layer.y), layer.radius, stroke=1, fill=1)
        elif isinstance(layer, BarPiece):
            self.piece(layer)
        else:
            self.label(layer)

    def piece(self, piece: BarPiece) -> None:
        c = self.c
        x, top, w, h = piece.box
        bottom = self.y(top + h)
        c.setFillColor(HexColor(piece.fill.value))
        c.rect(x, bottom, w, h, stroke=0, fill=1)
        if piece.hatch is not None:
            c.saveState()
            clip = c.beginPath()
            clip.rect(x, bottom, w, h)
            c.clipPath(clip, stroke=0, fill=0)
            self.stroke(piece.hatch)
            d = -h
            while d < w:
                c.line(x + d, bottom, x + d + h, bottom + h)
                d += piece.step
            c.restoreState()
        self.stroke(piece.edge)
        c.rect(x, bottom, w, h, stroke=1, fill=0)
