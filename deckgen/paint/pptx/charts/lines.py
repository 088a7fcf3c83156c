"""Line charts on log axes: the lines' names at their ends (or a legend when ends crowd), the
chosen speed's rule, the dial's marks, and tick labels thinned to stand apart."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pptx.enum.chart import (
    XL_CHART_TYPE,
    XL_LABEL_POSITION,
    XL_LEGEND_POSITION,
    XL_MARKER_STYLE,
    XL_TICK_MARK,
)
from pptx.enum.dml import MSO_LINE_DASH_STYLE, MSO_THEME_COLOR
from pptx.util import Pt

from deckgen import locale
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.charts.parts import (
    CREATED,
    EMU_PER_IN,
    _chart,
    _colour,
    _label,
    _width,
    _XyData,
)
from deckgen.story import Line, LineChart
from deckgen.typeset.fit import spread

_DASHES = (MSO_LINE_DASH_STYLE.DASH, MSO_LINE_DASH_STYLE.ROUND_DOT,
           MSO_LINE_DASH_STYLE.DASH_DOT, MSO_LINE_DASH_STYLE.DASH_DOT_DOT,
           MSO_LINE_DASH_STYLE.LONG_DASH, MSO_LINE_DASH_STYLE.SQUARE_DOT)
_MARKERS = (XL_MARKER_STYLE.SQUARE, XL_MARKER_STYLE.TRIANGLE, XL_MARKER_STYLE.DIAMOND,
            XL_MARKER_STYLE.X, XL_MARKER_STYLE.PLUS, XL_MARKER_STYLE.STAR)
# The tick labels a native chart draws from its values, in the story's own forms.
_NUMBER_FORMATS = {
    "speed": '[>=1000000]#,##0,,"M";[>=1000]#,##0,"K";General',  # 100, 1K, 1M
    "seconds": '[>=1000]#,##0" s";General" s"',  # 0.1 s, 1 s, 1,000 s
    "times": '[>=1]#,##0"\u00d7";General"\u00d7"',  # 0.1×, 1×, 1,000×
}


def number_format(unit: str, chart: LineChart) -> str:
    """The tick labels' number format for `unit`, in the chart's language: its marks (a
    locale prefix on each section) and its word for seconds."""
    code = _NUMBER_FORMATS[unit]
    if unit == "seconds":
        code = code.replace('" s"', '"' + chart.seconds_suffix.replace('"', "") + '"')
    prefix = locale.format_locale(chart.language)
    return ";".join(prefix + part for part in code.split(";")) if prefix else code


LABEL_GAP = 0.3  # inches between a line's last point and the far end of its label
LEGEND_KEY_EM = 3.0  # a legend key (a stretch of line with its marker) and its gap, in ems
LEGEND_PAD = 0.45  # inches of the legend's own padding and its gap to the plot
TICK_GAP = 0.15  # inches at least between two tick labels
RIGHT_MOST = 0.45  # the most of a chart's width its end labels or legend may take


def _line_chart(slide: Any, chart: LineChart, box: tuple[int, int, int, int],
                colours: Mapping[str, MSO_THEME_COLOR], font_pt: float,
                created: datetime = CREATED) -> Any:
    frame = _chart(slide, XL_CHART_TYPE.XY_SCATTER_LINES, box, _data(chart, created), font_pt,
                   colours)
    c = frame.chart
    x_axis, y_axis = c.category_axis, c.value_axis
    _axes(chart, x_axis, y_axis, colours, font_pt)
    # Names at the lines' right-hand ends, unless two ends sit too close to tell apart:
    # then a legend, which shows each line's dash and marker beside its name.
    ends = sorted(math.log10(float(line.points[-1][1])) for line in chart.lines)
    direct = all(b - a >= 0.3 for a, b in zip(ends, ends[1:], strict=False)) and \
        _ends_hold(chart, box, font_pt)
    series_list = list(c.plots[0].series)  # each pass over plot.series finds every series again
    ends_at = _draw_lines(chart, series_list, colours, font_pt, direct)
    _draw_rule(chart, series_list[len(chart.lines)], colours, font_pt)
    for mark, series in zip(chart.marks, series_list[len(chart.lines) + 1:], strict=True):
        _draw_mark(chart, mark, series, colours, font_pt)
    if not direct:
        c.has_legend = True
        c.legend.position = XL_LEGEND_POSITION.RIGHT
        c.legend.include_in_layout = False
        c.legend.font.size = Pt(font_pt)
        compat.hide_legend_entries(  # the dial's own marks
            c.legend, range(len(chart.lines), len(series_list)))
    left, top, right, bottom = _margins(chart, box, font_pt, direct)
    compat.plot_layout(c, left, top, 1 - left - right, 1 - top - bottom)
    # Tick labels the chart draws a decade apart: every second (third...) decade when the
    # plot is too small for each of them to stand clear of the next.
    width_in, height_in = box[2] / EMU_PER_IN, box[3] / EMU_PER_IN
    x_room = max(_width(t.label, font_pt) for t in chart.x_ticks) + TICK_GAP
    _thin(x_axis, chart.x_scale, chart.x_range, width_in * (1 - left - right), x_room)
    _thin(y_axis, chart.y_scale, chart.y_range, height_in * (1 - top - bottom),
          font_pt * 1.2 / 72 + TICK_GAP)
    if ends_at:  # end labels nudged apart where their lines end close together
        wanted, _, placed = _end_places(chart, box, font_pt)
        for (series, idx), want, got in zip(ends_at, wanted, placed, strict=True):
            if abs(got - want) > 1e-3:
                compat.label_offset(series, idx, (got - want) / height_in)
    return frame


def _data(chart: LineChart, created: datetime) -> _XyData:
    """The chart's series: each line, the chosen speed's rule (a vertical line from the
    bottom of the y range to its top), and each of the dial's marks, a point alone."""
    data = _XyData(created)
    for line in chart.lines:
        series = data.series(line.label)
        for x, y in line.points:
            series.add_data_point(float(x), float(y))
    y_low, y_high = chart.y_range
    marker = data.series(chart.marker_label)  # a vertical line at the chosen speed
    marker.add_data_point(float(chart.marker), float(y_low))
    marker.add_data_point(float(chart.marker), float(y_high))
    for mark in chart.marks:
        data.series(mark.name or mark.label).add_data_point(float(mark.at), float(mark.value))
    return data


def _axes(chart: LineChart, x_axis: Any, y_axis: Any, colours: Mapping[str, MSO_THEME_COLOR],
          font_pt: float) -> None:
    """Both axes on their scales and ranges, their tick labels in the story's forms, their
    titles; gridlines across the y values only."""
    for axis, scale, (low, high), unit, title in (
            (x_axis, chart.x_scale, chart.x_range, chart.x_unit, chart.x_label),
            (y_axis, chart.y_scale, chart.y_range, chart.y_unit, chart.y_label)):
        if scale == "log":
            compat.log_axis(axis)
        axis.minimum_scale = float(low)
        axis.maximum_scale = float(high)
        axis.tick_labels.number_format = number_format(unit, chart)
        axis.tick_labels.number_format_is_linked = False
        axis.tick_labels.font.size = Pt(font_pt)
        axis.major_tick_mark = XL_TICK_MARK.OUTSIDE
        axis.minor_tick_mark = XL_TICK_MARK.NONE
        axis.has_title = True
        axis.axis_title.text_frame.text = title
        run = axis.axis_title.text_frame.paragraphs[0].runs[0]
        run.font.size = Pt(font_pt)
        run.font.bold = False
        axis.format.line.width = Pt(1)
        _colour(axis.format.line.color, colours, "text")
    y_axis.has_major_gridlines = True
    y_axis.major_gridlines.format.line.width = Pt(0.75)
    _colour(y_axis.major_gridlines.format.line.color, colours, "rule")
    x_axis.has_major_gridlines = False


def _draw_lines(chart: LineChart, series_list: list[Any], colours: Mapping[str, MSO_THEME_COLOR],
                font_pt: float, direct: bool) -> list[tuple[Any, int]]:
    """Each line: the emphasised one thick in the accent, the others muted, each with a dash
    and a marker of its own (markers on the ticks' points and the ends only); with `direct`,
    its name at its right-hand end. The series and point of each end label."""
    ticks = {float(t.at) for t in chart.x_ticks} | {float(chart.marker)}
    ends_at: list[tuple[Any, int]] = []
    others = 0
    for line, series in zip(chart.lines, series_list, strict=False):
        series.smooth = False
        fmt = series.format.line
        if line.emphasis:
            fmt.width = Pt(4.0)
            _colour(fmt.color, colours, "accent")
            fmt.dash_style = MSO_LINE_DASH_STYLE.SOLID
            style, role, size = XL_MARKER_STYLE.CIRCLE, "accent", 9
        else:
            fmt.width = Pt(2.25)
            _colour(fmt.color, colours, "muted")
            fmt.dash_style = _DASHES[others % len(_DASHES)]
            style, role, size = _MARKERS[others % len(_MARKERS)], "muted", 8
            others += 1
        series.marker.style = XL_MARKER_STYLE.NONE
        marked = [k for k, (x, _) in enumerate(line.points)
                  if float(x) in ticks or k in (0, len(line.points) - 1)]
        _mark_points(series, marked, style, size, colours[role])
        # The line's name (and its ceiling) at its right-hand end: labels, not a legend.
        if not direct:
            continue
        last = len(line.points) - 1
        _label(series, last, _end_text(line), XL_LABEL_POSITION.RIGHT, font_pt, line.emphasis,
               colours, "accent" if line.emphasis else "text")
        ends_at.append((series, last))
    return ends_at


def _draw_rule(chart: LineChart, rule: Any, colours: Mapping[str, MSO_THEME_COLOR],
               font_pt: float) -> None:
    """The chosen speed's rule, dashed, its label on the side of the plot with more room."""
    rule.smooth = False
    rule.marker.style = XL_MARKER_STYLE.NONE
    rule.format.line.width = Pt(1.5)
    rule.format.line.dash_style = MSO_LINE_DASH_STYLE.DASH
    _colour(rule.format.line.color, colours, "text")
    x_first, x_last = (float(v) for v in chart.x_range)
    middle = (x_first * x_last) ** 0.5
    side = XL_LABEL_POSITION.LEFT if float(chart.marker) > middle else XL_LABEL_POSITION.RIGHT
    _label(rule, 1, chart.marker_label, side, font_pt, True, colours, "text")


def _draw_mark(chart: LineChart, mark: Any, series: Any,  # noqa: ANN401
               colours: Mapping[str, MSO_THEME_COLOR], font_pt: float) -> None:
    """One of the dial's marks: a ringed point, its label boxed beside it."""
    series.format.line.fill.background()  # a point alone
    series.marker.style = XL_MARKER_STYLE.CIRCLE
    series.marker.size = 15
    series.marker.format.fill.solid()
    _colour(series.marker.format.fill.fore_color, colours, "background")
    series.marker.format.line.width = Pt(3)
    series.marker.format.line.fill.solid()
    _colour(series.marker.format.line.fill.fore_color, colours, "accent")
    low_y, high_y = (math.log10(float(v)) for v in chart.y_range)
    # placed by its own value: above or below the point, on the side with more room
    # before another line (or the plot's edge) at that speed, so it covers no series
    at, own = float(mark.at), math.log10(float(mark.value))
    around = [math.log10(float(v)) for line in chart.lines for x, v in line.points
              if float(x) == at and abs(math.log10(float(v)) - own) > 1e-6]
    up = min((o - own for o in around if o > own), default=high_y - own)
    down = min((own - o for o in around if o < own), default=own - low_y)
    side = XL_LABEL_POSITION.ABOVE if up >= down else XL_LABEL_POSITION.BELOW
    x_low, x_high = (math.log10(float(v)) for v in chart.x_range)
    if math.log10(at) < x_low + 0.15 * (x_high - x_low):
        side = XL_LABEL_POSITION.RIGHT  # near the y axis: clear of its tick labels
    elif math.log10(at) > x_high - 0.15 * (x_high - x_low) and \
            own > low_y + 0.25 * (high_y - low_y):
        side = XL_LABEL_POSITION.LEFT  # at the lines' ends: clear of their end labels
    _label(series, 0, mark.label, side, font_pt, True, colours, "accent",
           boxed=True)


def _margins(chart: LineChart, box: tuple[int, int, int, int], font_pt: float,
             direct: bool) -> tuple[float, float, float, float]:
    """The plot's margins (left, top, right, bottom) as shares of the chart's width and
    height: the y tick labels and title at the left, the end labels or the legend at the
    right (never more than RIGHT_MOST), the x tick labels and title below."""
    if direct:  # the end labels, right of the lines' last points and their markers
        right_w = max(_width(_end_text(line), font_pt, line.emphasis)
                      for line in chart.lines) + LABEL_GAP
    else:  # the legend, at the chart's right edge: its keys, its names, its padding
        right_w = max(_width(line.label, font_pt) for line in chart.lines) + \
            font_pt * LEGEND_KEY_EM / 72 + LEGEND_PAD
    ticks_w = max(_width(t.label, font_pt) for t in chart.y_ticks) + 0.15
    width_in, height_in = box[2] / EMU_PER_IN, box[3] / EMU_PER_IN
    left = (ticks_w + font_pt * 1.6 / 72) / width_in
    right = min(right_w / width_in, RIGHT_MOST)
    bottom = (font_pt * 3.4 / 72) / height_in
    top = (font_pt * 1.0 / 72) / height_in
    return left, top, right, bottom


def _end_places(chart: LineChart, box: tuple[int, int, int, int], font_pt: float
                ) -> tuple[list[float], list[float], list[float]]:
    """Where each line's end label wants its centre (inches from the chart's top, by its
    line's last value), how tall it is, and where it goes once the labels are spread apart
    (clear of each other and of the x-axis labels)."""
    height_in = box[3] / EMU_PER_IN
    bottom = (font_pt * 3.4 / 72) / height_in
    top = (font_pt * 1.0 / 72) / height_in
    low_y, high_y = (math.log10(float(v)) for v in chart.y_range)
    plot_h = height_in * (1 - top - bottom)
    wanted = [height_in * top + plot_h * (1 - (math.log10(float(line.points[-1][1])) - low_y)
                                          / (high_y - low_y)) for line in chart.lines]
    heights = [(_end_text(line).count("\n") + 1) * font_pt * 1.3 / 72 for line in chart.lines]
    floor = height_in * (1 - bottom) + font_pt * 0.4 / 72
    return wanted, heights, spread(wanted, heights, 0.0, floor, font_pt * 0.3 / 72)


def _ends_hold(chart: LineChart, box: tuple[int, int, int, int], font_pt: float) -> bool:
    """Whether every end label, spread apart from the others, still sits by its own line's
    end (within half its height): else a label would stand beside another line, and the
    chart takes a legend instead."""
    wanted, heights, placed = _end_places(chart, box, font_pt)
    return all(abs(got - want) <= h / 2 for want, h, got in zip(wanted, heights, placed,
                                                                strict=True))


def _mark_points(series: Any, indices: list[int], style: XL_MARKER_STYLE, size: int,
                 colour: MSO_THEME_COLOR) -> None:
    """Give the points at `indices` a marker of `style` and `size`, filled and outlined in
    `colour`."""
    for k in indices:
        marker = series.points[k].marker
        marker.style = style
        marker.size = size
        marker.format.fill.solid()
        marker.format.fill.fore_color.theme_color = colour
        marker.format.line.fill.solid()
        marker.format.line.fill.fore_color.theme_color = colour


def _thin(axis: Any, scale: str, span: tuple[Any, Any], length: float, room: float) -> None:
    """On a log `axis` `length` inches long, a tick (and its label) every so many decades that
    labels `room` inches long each stand apart; every decade when they can."""
    if scale != "log":
        return
    decades = math.log10(float(span[1]) / float(span[0]))
    if decades <= 0:
        return
    step = 1
    while step < decades and length / decades * step < room:
        step += 1
    if step > 1:
        axis.major_unit = float(10 ** step)


def _end_text(line: Line) -> str:
    """The label at a line's right-hand end: its name, and its ceiling under it."""
    return line.label + (f"\n{line.asymptote_label}" if line.asymptote_label else "")
