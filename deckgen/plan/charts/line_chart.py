"""A line chart placed in its box, once for every painter: the plot's margins (room for the
tick labels and axis titles at the left and below, and for the lines' names at their ends or
a legend at the right), the ticks each axis shows (a decade apart, or every so many decades
when their labels would touch), each series in its look, the lines' names beside their own
ends (nudged apart), or a legend when two ends sit too close to tell which name is whose,
the dial's rule and its labelled marks.

Pure. A native PowerPoint chart lays its own text out: it is given the plot's margins, the
ticks' spacing, each end label's nudge and each label's side, so it follows this plan; the
slides PDF and the chart pictures draw the plan itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from deckgen.box import Box
from deckgen.fonts import Typeface
from deckgen.plan.charts import style
from deckgen.plan.charts.labels import ChartText
from deckgen.plan.charts.marks import Scale, place_dot, place_rule
from deckgen.plan.placed import (
    AxisTick,
    Entry,
    LinePlacement,
    Marker,
    Series,
    Stroke,
)
from deckgen.story import Line, LineChart
from deckgen.typeset.fit import spread
from deckgen.typeset.text import fold_lines, pieces

LABEL_GAP = 0.3 * 72  # points between a line's last point and the far end of its label
LEGEND_KEY_EM = 3.0  # a legend's key (a stretch of line with its marker) and its gap, in ems
LEGEND_PAD = 0.45 * 72  # points of the legend's own padding and its gap to the plot
TICK_GAP = 0.15 * 72  # points at least between two tick labels
TICK = 4.0  # a tick mark's length, out from its axis (points)
RIGHT_MOST = 0.45  # the most of a chart's width its end labels or legend may take
ENDS_APART = 0.3  # decades at least between two lines' ends for names beside them


def end_text(line: Line) -> str:
    """The label at a line's right-hand end: its name, and its ceiling under it."""
    return line.label + (f"\n{line.asymptote_label}" if line.asymptote_label else "")


def _log(v: Fraction) -> float:
    return math.log10(float(v))


def place_lines(chart: LineChart, box: Box, size: float, typefaces: tuple[Typeface, Typeface],
                roles: Mapping[str, str]) -> LinePlacement:
    """`chart` placed in `box` (EMU on the slide), its text at `size` points in
    `typefaces` (regular, bold), its colours by role."""
    p = ChartText(chart, box, size, typefaces, roles)
    ends_w = max(p.width(end_text(line), line.emphasis) for line in chart.lines) + LABEL_GAP
    legend_w = max(p.width(line.label) for line in chart.lines) + size * LEGEND_KEY_EM \
        + LEGEND_PAD
    # the lines' names at their ends (right of their last points and markers), when they
    # stand apart and have the room; else a legend at the right, or below the plot when the
    # right has not the room for it either
    direct = ends_w <= RIGHT_MOST * p.w and _ends_apart(chart) and _ends_hold(p)
    side = "right" if direct or legend_w <= RIGHT_MOST * p.w else "bottom"
    right_w = ends_w if direct else legend_w if side == "right" else size * 0.5
    ticks_w = max(p.width(t.label) for t in chart.y_ticks) + TICK_GAP
    rows = _rows(p, chart) if side == "bottom" else []
    bottom, top = size * 3.4 + len(rows) * size * 1.5, size * 1.0
    # on one line along the plot's height, else on as few as keep it on the chart
    y_label = _broken(p, chart.y_label, p.h - top - bottom, p.h)
    left = ticks_w + size * 1.6 + y_label.count("\n") * size * 1.2
    # room for half the last x tick's label, which is centred on the plot's right edge
    right = max(min(right_w, RIGHT_MOST * p.w), p.width(chart.x_ticks[-1].label) / 2 + 4)
    plot = (p.left + left, p.top + top, p.w - left - right, p.h - top - bottom)
    px, py, pw, ph = plot
    margins = (left / p.w, top / p.h, right / p.w, bottom / p.h)
    x_low, x_high = (_log(v) for v in chart.x_range)
    y_low, y_high = (_log(v) for v in chart.y_range)

    def x(v: Fraction) -> float:
        return px + (_log(v) - x_low) / (x_high - x_low) * pw

    def y(v: Fraction) -> float:
        return py + ph - (_log(v) - y_low) / (y_high - y_low) * ph

    x_room = max(p.width(t.label) for t in chart.x_ticks) + TICK_GAP
    x_step = _step(chart.x_range, pw, x_room)
    y_step = _step(chart.y_range, ph, size * 1.2 + TICK_GAP)
    x_ticks = tuple(AxisTick(x(t.at), p.label(t.label, x(t.at), py + ph + TICK + size * 1.2,
                                              align="c"))
                    for t in _shown(chart.x_ticks, chart.x_range, x_step))
    y_ticks = tuple(AxisTick(y(t.at), p.label(t.label, px - TICK - 2, y(t.at), align="r",
                                              middle=True))
                    for t in _shown(chart.y_ticks, chart.y_range, y_step))
    x_title = p.label(chart.x_label, px + pw / 2, py + ph + size * 3.0, align="c")
    half = max(p.width(line) for line in y_label.split("\n")) / 2
    y_middle = min(max(py + ph / 2, p.top + half), p.top + p.h - half)  # on the chart
    y_title = p.label(y_label, p.left + size * 1.0, y_middle, align="c", angle=90.0)
    series = _series(p, chart, x, y, direct)
    legend = None if direct else \
        _legend(p, chart, px + pw + 0.3 * 72, py + ph / 2) if side == "right" else \
        _legend_below(p, rows, py + ph + size * 3.4)
    taken = [s.end_label.box for s in series if s.end_label is not None] + \
        [e.label.box for e in legend or ()] + [t.label.box for t in (*x_ticks, *y_ticks)] + \
        [x_title.box, y_title.box]
    dots = tuple(place_dot(p, chart, mark.at, mark.value, mark.label, x, y, series, taken)
                 for mark in chart.marks)
    rule = place_rule(p, chart, x(chart.marker), plot, [*taken, *(d.label.box for d in dots)],
                 [s.points for s in series])
    return LinePlacement(plot, margins, x_ticks, y_ticks, x_step, y_step,
                      Stroke(p.colour("rule"), 0.75), Stroke(p.colour("text"), 1.0), x_title,
                      y_title, series, legend, side, rule, dots, TICK)


def _broken(p: ChartText, text: str, room: float, most: float) -> str:
    """`text` on one line when it is at most `room` points wide (the plot's height), else on
    the fewest lines (two or three) whose widest is at most `most` (the chart's), each break
    at the break opportunity (a space; between characters in Japanese) that leaves the
    narrowest widest line; else on as many lines as keep it on the chart."""
    parts = pieces(text)
    ways = [[text]]
    for k in (2, 3):
        cuts = _cuts(len(parts), k)
        if cuts:
            ways.append(min((["".join(parts[a:b]).strip(" ")
                              for a, b in zip((0, *c), (*c, len(parts)), strict=True)]
                             for c in cuts),
                            key=lambda lines: max(p.width(line) for line in lines)))
    for lines in ways:
        widest = max(p.width(line) for line in lines)
        if widest <= (room if len(lines) == 1 else most):
            return "\n".join(lines)
    return "\n".join(fold_lines(text, p.typefaces[0].measure, p.size, most))


def _cuts(n: int, k: int) -> list[tuple[int, ...]]:
    """The ways to cut `n` pieces into `k` lines: the index each line after the first
    starts at."""
    if k == 2:
        return [(i,) for i in range(1, n)]
    return [(i, j) for i in range(1, n) for j in range(i + 1, n)]


def _ends_apart(chart: LineChart) -> bool:
    """Whether every two lines end at least ENDS_APART decades apart."""
    ends = sorted(_log(line.points[-1][1]) for line in chart.lines)
    return all(b - a >= ENDS_APART for a, b in zip(ends, ends[1:], strict=False))


def _end_places(p: ChartText) -> tuple[list[float], list[float], list[float]]:
    """Where each line's end label wants its middle (points from the chart's top, by its
    line's last value), how tall it is, and where it goes once the labels are spread apart
    (clear of each other and of the x axis's labels)."""
    chart, size = p.chart, p.size
    bottom, top = size * 3.4, size * 1.0
    low, high = (_log(v) for v in chart.y_range)
    plot_h = p.h - top - bottom
    wanted = [top + plot_h * (1 - (_log(line.points[-1][1]) - low) / (high - low))
              for line in chart.lines]
    heights = [(end_text(line).count("\n") + 1) * size * 1.3 for line in chart.lines]
    floor = p.h - bottom + size * 0.4
    return wanted, heights, spread(wanted, heights, 0.0, floor, size * 0.3)


def _ends_hold(p: ChartText) -> bool:
    """Whether every end label, spread apart from the others, still sits by its own line's
    end (within half its height): else a label would stand beside another line, and the
    chart takes a legend instead."""
    wanted, heights, placed = _end_places(p)
    return all(abs(got - want) <= h / 2 for want, h, got in zip(wanted, heights, placed,
                                                                strict=True))


def _step(span: tuple[Fraction, Fraction], length: float, room: float) -> int:
    """How many decades apart a log axis `length` points long shows its ticks, so labels
    `room` points long each stand apart: 1 when each decade can have its own."""
    decades = math.log10(float(span[1]) / float(span[0]))
    step = 1
    while decades > 0 and step < decades and length / decades * step < room:
        step += 1
    return step


def _shown(ticks: Sequence, span: tuple[Fraction, Fraction], step: int) -> list:  # type: ignore[type-arg]
    """The ticks shown every `step` decades from the axis's start."""
    return [t for t in ticks if round(math.log10(float(t.at / span[0]))) % step == 0]


def _series(p: ChartText, chart: LineChart, x: Scale, y: Scale, direct: bool
            ) -> tuple[Series, ...]:
    """Each line in its look, markers on the ticks' points and its ends; with `direct`, its
    name at its right-hand end, nudged clear of the others."""
    ticks = {t.at for t in chart.x_ticks} | {chart.marker}
    placed = _end_places(p)[2] if direct else []
    out = []
    for k, line in enumerate(chart.lines):
        look = style.look(k, line.emphasis)
        colour = p.colour(look.role)
        points = tuple((x(a), y(b)) for a, b in line.points)
        marked = tuple(i for i, (a, _) in enumerate(line.points)
                       if a in ticks or i in (0, len(line.points) - 1))
        end, shift = None, 0.0
        if direct:
            want = points[-1][1] - p.top
            got = placed[k]
            end = p.label(end_text(line), points[-1][0] + 8, p.top + got, middle=True,
                          bold=line.emphasis, role="accent" if line.emphasis else "text")
            shift = (got - want) / p.h if abs(got - want) > 1e-3 * 72 else 0.0
        out.append(Series(line.label, points, Stroke(colour, look.width, look.dash,
                                                     look.lengths),
                          Marker(look.marker, look.marker_size, colour), marked, line.emphasis,
                          end, shift))
    return tuple(out)


def _legend(p: ChartText, chart: LineChart, x: float, middle: float) -> tuple[Entry, ...]:
    """A legend right of the plot, its entries centred on the plot's middle: each a stretch
    of its line, then its name."""
    pitch = p.size * 1.6
    top = middle - pitch * len(chart.lines) / 2
    out = []
    for k, line in enumerate(chart.lines):
        at = top + pitch * (k + 0.5)
        key = p.size * 2.2
        out.append(Entry(k, x, x + key, at, p.label(line.label, x + key + p.size * 0.4, at,
                                                    middle=True)))
    return tuple(out)


def _rows(p: ChartText, chart: LineChart) -> list[list[int]]:
    """The lines' indices in rows of a legend across the chart's width, in order."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for k, line in enumerate(chart.lines):
        wide = p.size * 2.6 + p.width(line.label) + p.size * 1.2
        if rows[-1] and used + wide > p.w - p.size:
            rows.append([])
            used = 0.0
        rows[-1].append(k)
        used += wide
    return rows


def _legend_below(p: ChartText, rows: list[list[int]], top: float) -> tuple[Entry, ...]:
    """A legend under the x axis's title, its entries in rows across the chart."""
    out = []
    for r, row in enumerate(rows):
        at = top + p.size * 1.5 * (r + 0.5)
        left = p.left + p.size * 0.5
        for k in row:
            key = p.size * 2.2
            found = p.label(p.chart.lines[k].label, left + key + p.size * 0.4, at, middle=True)
            out.append(Entry(k, left, left + key, at, found))
            left = found.box[2] + p.size * 1.2
    return tuple(out)
