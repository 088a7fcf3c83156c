"""A placed chart drawn on a reportlab canvas as vector shapes: the plan's plot, ticks, lines,
markers, labels, legend, rule and marks, or its bars, hatching and labels, where the plan put
them. Nothing is measured or placed here."""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from deckgen.plan.placed import BarPlacement, Chart, Label, LinePlacement, Marker, Stroke, TextLine

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
        if isinstance(chart.placement, LinePlacement):
            self.lines(chart.placement)
        elif isinstance(chart.placement, BarPlacement):
            self.bars(chart.placement)

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
        """A marker centred at (x, y), the plan's points."""
        c = self.c
        r = marker.size / 2
        cx, cy = x, self.y(y)
        c.setFillColor(HexColor(marker.colour.value))
        c.setStrokeColor(HexColor(marker.colour.value))
        c.setDash()
        c.setLineWidth(1.2)
        if marker.kind == "circle":
            c.circle(cx, cy, r, stroke=0, fill=1)
            return
        if marker.kind in ("x", "plus"):
            turn = math.pi / 4 if marker.kind == "x" else 0.0
            for a in (turn, turn + math.pi / 2):
                dx, dy = r * math.cos(a), r * math.sin(a)
                c.line(cx - dx, cy - dy, cx + dx, cy + dy)
            return
        corners = {"square": [(-r, -r), (r, -r), (r, r), (-r, r)],
                   "diamond": [(0, -r), (r, 0), (0, r), (-r, 0)],
                   "triangle": [(0, r), (r, -r * 0.8), (-r, -r * 0.8)]}.get(marker.kind)
        if corners is None:  # a star: five points
            corners = [((r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
                        (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5))
                       for k in range(10)]
        path = c.beginPath()
        path.moveTo(cx + corners[0][0], cy + corners[0][1])
        for dx, dy in corners[1:]:
            path.lineTo(cx + dx, cy + dy)
        path.close()
        c.drawPath(path, stroke=0, fill=1)

    def label(self, label: Label | None) -> None:
        if label is None:
            return
        c = self.c
        if label.back is not None:
            x0, y0, x1, y1 = label.box
            c.setFillColor(HexColor(label.back.value))
            c.rect(x0, self.y(y1), x1 - x0, y1 - y0, stroke=0, fill=1)
        if not label.angle:
            for line in label.lines:
                self.text(line)
            return
        # turned about the point it is aligned at: its first line's baseline, at its middle
        first = label.lines[0]
        px = (min(s.x for s in first.spans) + max(s.x + s.width for s in first.spans)) / 2 \
            if first.spans else 0.0
        py = first.baseline
        c.saveState()
        c.translate(px, self.y(py))
        c.rotate(label.angle)
        c.translate(-px, -self.y(py))
        for line in label.lines:
            self.text(line)
        c.restoreState()

    # -- line charts

    def lines(self, placement: LinePlacement) -> None:
        c = self.c
        px, py, pw, ph = placement.plot
        self.stroke(placement.grid)
        for tick in placement.y_ticks:
            c.line(px, self.y(tick.at), px + pw, self.y(tick.at))
        self.stroke(placement.axis)
        c.line(px, self.y(py + ph), px + pw, self.y(py + ph))
        c.line(px, self.y(py + ph), px, self.y(py))
        for tick in placement.x_ticks:
            c.line(tick.at, self.y(py + ph), tick.at, self.y(py + ph + 4))
            self.label(tick.label)
        for tick in placement.y_ticks:
            c.line(px, self.y(tick.at), px - 4, self.y(tick.at))
            self.label(tick.label)
        self.label(placement.x_title)
        self.label(placement.y_title)
        for series in placement.series:
            self.stroke(series.stroke)
            path = c.beginPath()
            first, *rest = series.points
            path.moveTo(first[0], self.y(first[1]))
            for x, y in rest:
                path.lineTo(x, self.y(y))
            c.drawPath(path, stroke=1, fill=0)
            for k in series.marked:
                self.marker(series.marker, *series.points[k])
            self.label(series.end_label)
        for entry in placement.legend or ():
            series = placement.series[entry.series]
            self.stroke(series.stroke)
            c.line(entry.x0, self.y(entry.y), entry.x1, self.y(entry.y))
            self.marker(series.marker, (entry.x0 + entry.x1) / 2, entry.y)
            self.label(entry.label)
        rule = placement.rule
        self.stroke(rule.stroke)
        c.line(rule.x0, self.y(rule.y0), rule.x1, self.y(rule.y1))
        c.setDash()
        self.label(rule.label)
        for dot in placement.dots:
            self.stroke(dot.ring)
            c.setFillColor(HexColor(dot.fill.value))
            c.circle(dot.x, self.y(dot.y), dot.radius, stroke=1, fill=1)
            self.label(dot.label)

    # -- bar charts

    def bars(self, placement: BarPlacement) -> None:
        c = self.c
        for bar in placement.bars:
            self.label(bar.title)
            for piece in bar.segments:
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
            for _, label in bar.labels:
                self.label(label)
