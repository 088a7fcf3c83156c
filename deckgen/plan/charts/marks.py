"""The dial on a line chart: its rule at the chosen speed and its ringed marks, each label
put where it covers no other label and crosses fewest lines (both sides of the rule, a line
lower at a time; each side of a mark, raised or lowered by up to a line), never off the
chart.

Pure, like the rest of the chart's placement (line_chart.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from deckgen.plan.charts.labels import ChartText
from deckgen.plan.placed import Dot, Label, Rule, Series, Stroke
from deckgen.story import LineChart

RING = 6.0  # points: the radius of a dial's mark
Scale = Callable[[Fraction], float]


def _log(v: Fraction) -> float:
    return math.log10(float(v))


def place_dot(p: ChartText, chart: LineChart, at: Fraction, value: Fraction, text: str, x: Scale,
         y: Scale, series: tuple[Series, ...], taken: list[tuple[float, float, float, float]]
         ) -> Dot:
    """One of the dial's marks: a ringed point, its label boxed beside it on the side with
    more room before another line (or the plot's edge) at that speed; right of it near the
    y axis, left of it at the lines' ends; and where that label would cover a line or
    another label, the first other side where it covers none."""
    low_y, high_y = (_log(v) for v in chart.y_range)
    own = _log(value)
    around = [_log(v) for line in chart.lines for a, v in line.points
              if a == at and abs(_log(v) - own) > 1e-6]
    up = min((o - own for o in around if o > own), default=high_y - own)
    down = min((own - o for o in around if o < own), default=own - low_y)
    side = "above" if up >= down else "below"
    x_low, x_high = (_log(v) for v in chart.x_range)
    if _log(at) < x_low + 0.15 * (x_high - x_low):
        side = "right"  # near the y axis: clear of its tick labels
    elif _log(at) > x_high - 0.15 * (x_high - x_low) and own > low_y + 0.25 * (high_y - low_y):
        side = "left"  # at the lines' ends: clear of their end labels
    mx, my = x(at), y(value)
    gap = RING + 8

    def beside(where: str, dx: float = 0.0, dy: float = 0.0) -> Label:
        if where == "right":
            return p.label(text, mx + gap, my + dy, middle=True, bold=True, role="accent",
                           back=True)
        if where == "left":
            return p.label(text, mx - gap, my + dy, align="r", middle=True, bold=True,
                           role="accent", back=True)
        if where == "above":
            return p.label(text, mx + dx, my - gap - p.size * 0.25, align="c", bold=True,
                           role="accent", back=True)
        return p.label(text, mx + dx, my + gap + p.size * 0.9, align="c", bold=True,
                       role="accent", back=True)

    edges = (p.left, p.top, p.left + p.w, p.top + p.h)

    def cost(label: Label) -> float:
        """What a label would cover or cut: the chart's edge (the worst), another label,
        another line, its own."""
        x0, y0, x1, y1 = label.box
        out = x0 < edges[0] or y0 < edges[1] or x1 > edges[2] or y1 > edges[3]
        return 8 * out + 4 * sum(meet(label.box, other) for other in taken) + \
            sum((0.5 if s.points and through(s, mx, my) else 1.0)
                for s in series if crosses(label.box, s.points))

    sides = [side, *(s for s in ("above", "below", "right", "left") if s != side)]
    # beside the mark, or (left or right of it) raised or lowered by up to a line
    lifts = (0.0, -0.6, 0.6, -1.2, 1.2)
    tries = [(where, lift) for lift in lifts for where in sides
             if lift == 0.0 or where in ("left", "right")]
    side, lift, found = min(((where, lift, beside(where, dy=lift * p.size))
                             for where, lift in tries),
                            key=lambda c: (cost(c[2]), tries.index((c[0], c[1]))))
    shift = 0.0
    if side in ("above", "below"):  # slid across, clear of a label it grazes
        for other in taken:
            if meet(found.box, other):
                dx = other[2] + 2 - found.box[0] if other[0] < found.box[0] \
                    else other[0] - 2 - found.box[2]
                moved = beside(side, shift + dx)
                if cost(moved) < cost(found):
                    found, shift = moved, shift + dx
    return Dot(mx, my, RING, Stroke(p.colour("accent"), 3.0), p.colour("background"), found,
               side, shift / p.w, lift * p.size / p.h)


def through(series: Series, x: float, y: float) -> bool:
    """Whether `series` passes through the point (x, y): the mark is on it."""
    return crosses((x - 1, y - 1, x + 1, y + 1), series.points)


def crosses(box: tuple[float, float, float, float],
             points: Sequence[tuple[float, float]]) -> bool:
    """Whether the line through `points` passes through `box`."""
    x0, y0, x1, y1 = box
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
            continue  # the stretch lies wholly to one side of the box
        steps = max(2, int(max(abs(bx - ax), abs(by - ay)) / 2))
        for k in range(steps + 1):
            px, py = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
            if x0 <= px <= x1 and y0 <= py <= y1:
                return True
    return False


def place_rule(p: ChartText, chart: LineChart, at: float,
          plot: tuple[float, float, float, float],
          taken: list[tuple[float, float, float, float]],
          lines: list[tuple[tuple[float, float], ...]]) -> Rule:
    """The chosen speed's rule, dashed, its label beside it at the plot's top, on the side
    with more room, else on the other; lower down, a line at a time, while it would cover
    another label. Of the places that cover no label, the one that crosses fewest lines;
    where every place covers some, the one that covers least; never off the chart."""
    px, py, pw, ph = plot
    x_first, x_last = (float(v) for v in chart.x_range)
    roomier = "left" if float(chart.marker) > (x_first * x_last) ** 0.5 else "right"
    stroke = Stroke(p.colour("text"), 1.5, "dash", (4 * 1.5, 3 * 1.5))
    edges = (p.left, p.top, p.left + p.w, p.top + p.h)
    drops = max(1, int((ph - p.size) / (p.size * 1.3)) + 1)  # every line of the plot's height
    places: list[tuple[tuple[bool, bool, float, int, int], int, str, Label]] = []
    for drop in range(drops):
        for side in (roomier, "right" if roomier == "left" else "left"):
            baseline = py + p.size * (1 + 1.3 * drop)
            found = p.label(chart.marker_label, at - 6 if side == "left" else at + 6, baseline,
                            align="r" if side == "left" else "l", bold=True)
            x0, y0, x1, y1 = found.box
            off = x0 < edges[0] - 0.5 or y0 < edges[1] - 0.5 or x1 > edges[2] + 0.5 \
                or y1 > edges[3] + 0.5
            covered = sum(_shared(found.box, other) for other in taken)
            crossed = sum(crosses(found.box, points) for points in lines)
            places.append(((off, covered > 0, covered, crossed, len(places)), drop, side, found))
    _, drop, side, found = min(places, key=lambda place: place[0])
    return Rule(at, py + ph, at, py, stroke, found, side, p.size * 1.3 * drop / p.h)


def _shared(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two boxes share (points squared)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
