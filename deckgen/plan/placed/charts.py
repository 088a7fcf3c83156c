"""The placed deck's charts: strokes, markers, labels, series, axes, bars, and the layers
every painter of a picture or a page draws, bottom first."""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckgen import story as st
from deckgen.box import Box
from deckgen.plan.placed.text import Colour, TextLine


@dataclass(frozen=True)
class Stroke:
    """How a line is stroked: its colour, width (points), and its dash as the deck names it
    (a preset's name, 'solid' for none) and as drawn (on and off lengths in points)."""

    colour: Colour
    width: float
    dash: str = "solid"
    pattern: tuple[float, ...] = ()


@dataclass(frozen=True)
class Marker:
    """A point's marker: its kind ('circle', 'square', 'triangle', 'diamond', 'x', 'plus',
    'star'), size (points across), colour and the width of its strokes (an x's, a plus's)."""

    kind: str
    size: float
    colour: Colour
    edge: float = 1.2

    @property
    def outline(self) -> tuple[tuple[float, float], ...]:
        """The marker's shape about its centre, in units of half its size, y up: a filled
        polygon's corners, or (an x, a plus) two strokes' ends in pairs; () for a circle."""
        if self.kind in ("x", "plus"):
            turn = math.pi / 4 if self.kind == "x" else 0.0
            ends = []
            for a in (turn, turn + math.pi / 2):
                ends += [(-math.cos(a), -math.sin(a)), (math.cos(a), math.sin(a))]
            return tuple(ends)
        corners = {"square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
                   "diamond": ((0, -1), (1, 0), (0, 1), (-1, 0)),
                   "triangle": ((0, 1), (1, -0.8), (-1, -0.8))}.get(self.kind)
        if corners is not None:
            return tuple((float(x), float(y)) for x, y in corners)
        if self.kind == "star":  # five points
            return tuple(((1 if k % 2 == 0 else 0.45) * math.sin(k * math.pi / 5),
                          (1 if k % 2 == 0 else 0.45) * math.cos(k * math.pi / 5))
                         for k in range(10))
        return ()

    @property
    def stroked(self) -> bool:
        """Whether the outline is strokes (an x, a plus), not a filled shape."""
        return self.kind in ("x", "plus")


@dataclass(frozen=True)
class Label:
    """A chart's text, its lines placed (`angle` 90: turned to read upwards about `pivot`,
    the middle of its first baseline); `back`: a patch of that colour under it, so it reads
    on lines and hatching; `box`, where it is (left, top, right, bottom, points), its patch
    included."""

    lines: tuple[TextLine, ...]
    box: tuple[float, float, float, float]
    back: Colour | None = None
    angle: float = 0.0
    pivot: tuple[float, float] = (0.0, 0.0)

    @property
    def text(self) -> str:
        return "\n".join("".join(s.text for s in line.spans) for line in self.lines)


@dataclass(frozen=True)
class Series:
    """One line of a line chart as drawn: its points (points on the slide), its stroke, its
    marker on the points `marked`, whether it is the dial's, its end label (None with a
    legend) and how far a native chart moves that label from the line's end (a share of
    the chart's height, down when positive)."""

    name: str
    points: tuple[tuple[float, float], ...]
    stroke: Stroke
    marker: Marker
    marked: tuple[int, ...]
    emphasis: bool
    end_label: Label | None = None
    end_shift: float = 0.0


@dataclass(frozen=True)
class Entry:
    """A legend's entry: its series (by index), a stretch of the series' line with its
    marker (from `x0` to `x1` at `y`, points), and the series' name."""

    series: int
    x0: float
    x1: float
    y: float
    label: Label


@dataclass(frozen=True)
class Rule:
    """A rule across a chart (the dial's speed): from (x0, y0) to (x1, y1), its stroke, its
    label, the side a native chart puts it on ('left', 'right') and how far down it moves
    it from the rule's top (a share of the chart's height)."""

    x0: float
    y0: float
    x1: float
    y1: float
    stroke: Stroke
    label: Label | None = None
    side: str = "right"
    shift: float = 0.0


@dataclass(frozen=True)
class Dot:
    """One of the dial's marks: a ring of `radius` points at (x, y), its label, the side a
    native chart puts it on ('above', 'below', 'left', 'right') and how far it moves it from
    there: across (a share of the chart's width, right when positive) and down (a share of
    its height)."""

    x: float
    y: float
    radius: float
    ring: Stroke
    fill: Colour
    label: Label
    side: str
    shift: float = 0.0
    drop: float = 0.0

    @property
    def across(self) -> float:
        """Points the mark takes across, its ring included: a native marker's size."""
        return self.radius * 2 + self.ring.width


@dataclass(frozen=True)
class AxisTick:
    """A tick shown on an axis: where it is along the axis (points) and its label."""

    at: float
    label: Label


@dataclass(frozen=True)
class LinePlacement:
    """A line chart placed: its plot (left, top, width, height, points on the slide) and that
    plot as shares of the chart's box (left, top, right, bottom margins: a native chart's
    plot layout), the ticks shown on each axis and how many decades apart they are, the
    gridlines and axes, the axis titles, the series, a legend when the lines' ends crowd
    (and its side), the dial's rule and marks."""

    plot: tuple[float, float, float, float]
    margins: tuple[float, float, float, float]
    x_ticks: tuple[AxisTick, ...]
    y_ticks: tuple[AxisTick, ...]
    x_step: int
    y_step: int
    grid: Stroke
    axis: Stroke
    x_title: Label
    y_title: Label
    series: tuple[Series, ...]
    legend: tuple[Entry, ...] | None
    legend_side: str  # 'right', or 'bottom' when the right has not the room
    rule: Rule
    dots: tuple[Dot, ...]
    tick: float = 4.0  # a tick mark's length, out from its axis (points)

    @property
    def layers(self) -> tuple[Layer, ...]:
        """What is drawn, bottom first, as every painter of a picture or a page draws it:
        the gridlines, the axes and their ticks, the dial's rule, each line with its
        markers (the dial's line last, on top), the legend's samples, the dial's marks, and
        every text last, over all of them."""
        px, py, pw, ph = self.plot
        out: list[Layer] = [Segment(px, t.at, px + pw, t.at, self.grid) for t in self.y_ticks]
        out += [Segment(px, py + ph, px + pw, py + ph, self.axis),
                Segment(px, py + ph, px, py, self.axis)]
        out += [Segment(t.at, py + ph, t.at, py + ph + self.tick, self.axis)
                for t in self.x_ticks]
        out += [Segment(px - self.tick, t.at, px, t.at, self.axis) for t in self.y_ticks]
        rule = self.rule
        out.append(Segment(rule.x0, rule.y0, rule.x1, rule.y1, rule.stroke))
        for s in sorted(self.series, key=lambda s: s.emphasis):
            out.append(Polyline(s.points, s.stroke))
            out += [MarkerAt(s.marker, *s.points[k]) for k in s.marked]
        for entry in self.legend or ():
            sample = self.series[entry.series]
            out += [Segment(entry.x0, entry.y, entry.x1, entry.y, sample.stroke),
                    MarkerAt(sample.marker, (entry.x0 + entry.x1) / 2, entry.y)]
        out += self.dots
        out += [t.label for t in (*self.x_ticks, *self.y_ticks)]
        out += [self.x_title, self.y_title]
        out += [s.end_label for s in self.series if s.end_label is not None]
        out += [entry.label for entry in self.legend or ()]
        out += [rule.label] if rule.label is not None else []
        out += [dot.label for dot in self.dots]
        return tuple(out)


@dataclass(frozen=True)
class BarPiece:
    """A bar's segment: its box (left, top, width, height, points), fill and edge; hatched
    segments stroked with `hatch` diagonals `step` points apart."""

    box: tuple[float, float, float, float]
    fill: Colour
    edge: Stroke
    hatch: Stroke | None = None
    step: float = 0.0


@dataclass(frozen=True)
class BarRow:
    """A bar placed: its category label, its segments, and the labels set on them (each by
    the segment it stands in, a native chart's data label there)."""

    title: Label
    segments: tuple[BarPiece, ...]
    labels: tuple[tuple[int, Label], ...]


@dataclass(frozen=True)
class BarPlacement:
    """A bar chart placed: its plot as shares of the chart's box (left, top, right, bottom
    margins), its bars' gap (a share of a bar's thickness), and its bars."""

    margins: tuple[float, float, float, float]
    gap: float
    bars: tuple[BarRow, ...]

    @property
    def layers(self) -> tuple[Layer, ...]:
        """What is drawn, bottom first: every bar's segments (each filled, hatched and
        edged), then every text."""
        out: list[Layer] = [piece for bar in self.bars for piece in bar.segments]
        for bar in self.bars:
            out += [bar.title, *(label for _, label in bar.labels)]
        return tuple(out)


@dataclass(frozen=True)
class Segment:
    """A straight stroke from (x0, y0) to (x1, y1), points."""

    x0: float
    y0: float
    x1: float
    y1: float
    stroke: Stroke


@dataclass(frozen=True)
class Polyline:
    """A line through `points`, stroked."""

    points: tuple[tuple[float, float], ...]
    stroke: Stroke


@dataclass(frozen=True)
class MarkerAt:
    """A marker centred at (x, y), points."""

    marker: Marker
    x: float
    y: float


Layer = Segment | Polyline | MarkerAt | Dot | BarPiece | Label


@dataclass(frozen=True)
class Chart:
    """A chart in its box: the story's chart model (its data, for a native chart's
    workbook), its text's size (points), the chart as placed, and what it sits on."""

    box: Box
    chart: st.Chart
    size: float
    placement: LinePlacement | BarPlacement
    background: Colour
    name: str = "Chart"
