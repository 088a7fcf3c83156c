"""Line charts as native charts on log axes, following the plan: the plot's margins, the
ticks' spacing, each series' look, the lines' names at their ends (each nudged as planned) or
a legend, the chosen speed's rule and the dial's marks with their labels on the planned
sides."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pptx.enum.chart import (
    XL_CHART_TYPE,
    XL_LABEL_POSITION,
    XL_LEGEND_POSITION,
    XL_MARKER_STYLE,
    XL_TICK_MARK,
)
from pptx.enum.dml import MSO_LINE_DASH_STYLE
from pptx.util import Pt

from deckgen import locale
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.charts.parts import data_label, label_text, new_chart, paint, tinted
from deckgen.paint.pptx.compat import XyData
from deckgen.plan.placed import LinePlacement, Series
from deckgen.story import LineChart

# PowerPoint's preset dashes, by the name the plan gives them.
DASHES = {"solid": MSO_LINE_DASH_STYLE.SOLID, "dash": MSO_LINE_DASH_STYLE.DASH,
          "sysDot": MSO_LINE_DASH_STYLE.ROUND_DOT, "dashDot": MSO_LINE_DASH_STYLE.DASH_DOT,
          "lgDashDotDot": MSO_LINE_DASH_STYLE.DASH_DOT_DOT,
          "lgDash": MSO_LINE_DASH_STYLE.LONG_DASH, "sysDash": MSO_LINE_DASH_STYLE.SQUARE_DOT}
MARKERS = {"circle": XL_MARKER_STYLE.CIRCLE, "square": XL_MARKER_STYLE.SQUARE,
           "triangle": XL_MARKER_STYLE.TRIANGLE, "diamond": XL_MARKER_STYLE.DIAMOND,
           "x": XL_MARKER_STYLE.X, "plus": XL_MARKER_STYLE.PLUS, "star": XL_MARKER_STYLE.STAR}
SIDES = {"left": XL_LABEL_POSITION.LEFT, "right": XL_LABEL_POSITION.RIGHT,
         "above": XL_LABEL_POSITION.ABOVE, "below": XL_LABEL_POSITION.BELOW}
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


def line_chart(slide: Any, chart: LineChart, placement: LinePlacement,  # noqa: ANN401
               box: tuple[int, int, int, int], font_pt: float, created: datetime) -> Any:  # noqa: ANN401
    frame = new_chart(slide, XL_CHART_TYPE.XY_SCATTER_LINES, box, _data(chart, created),
                      font_pt)
    c = frame.chart
    _axes(chart, placement, c.category_axis, c.value_axis, font_pt)
    series_list = list(c.plots[0].series)  # each pass over plot.series finds every series again
    for placed, series in zip(placement.series, series_list, strict=False):
        _line(placed, series, font_pt)
    rule = series_list[len(chart.lines)]
    rule.smooth = False
    rule.marker.style = XL_MARKER_STYLE.NONE
    _stroke(rule.format.line, placement.rule.stroke.width, placement.rule.stroke.dash,
            placement.rule.stroke.colour.role)
    if placement.rule.label is not None:
        data_label(rule, 1, placement.rule.label, SIDES[placement.rule.side])
        if placement.rule.shift:
            compat.label_offset(rule, 1, placement.rule.shift)
    for dot, series in zip(placement.dots, series_list[len(chart.lines) + 1:], strict=True):
        series.format.line.fill.background()  # a point alone
        series.marker.style = XL_MARKER_STYLE.CIRCLE
        series.marker.size = round(dot.across)
        series.marker.format.fill.solid()
        paint(series.marker.format.fill.fore_color, dot.fill.role)
        series.marker.format.line.width = Pt(dot.ring.width)
        series.marker.format.line.fill.solid()
        paint(series.marker.format.line.fill.fore_color, dot.ring.colour.role)
        data_label(series, 0, dot.label, SIDES[dot.side])
        if dot.shift or dot.drop:
            compat.label_offset(series, 0, dot.drop, dot.shift)
    if placement.legend is not None:
        c.has_legend = True
        c.legend.position = XL_LEGEND_POSITION.RIGHT if placement.legend_side == "right" \
            else XL_LEGEND_POSITION.BOTTOM
        c.legend.include_in_layout = False
        c.legend.font.size = Pt(font_pt)
        compat.hide_legend_entries(  # the rule and the dial's marks
            c.legend, range(len(chart.lines), len(series_list)))
    left, top, right, bottom = placement.margins
    compat.plot_layout(c, left, top, 1 - left - right, 1 - top - bottom)
    return frame


def _data(chart: LineChart, created: datetime) -> XyData:
    """The chart's series: each line, the chosen speed's rule (a vertical line from the
    bottom of the y range to its top), and each of the dial's marks, a point alone."""
    data = XyData(created)
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


def _axes(chart: LineChart, placement: LinePlacement, x_axis: Any, y_axis: Any,  # noqa: ANN401
          font_pt: float) -> None:
    """Both axes on their scales and ranges, ticks as many decades apart as planned, their
    labels in the story's forms, their titles; gridlines across the y values only."""
    for axis, scale, (low, high), unit, title, step in (
            (x_axis, chart.x_scale, chart.x_range, chart.x_unit, placement.x_title,
             placement.x_step),
            (y_axis, chart.y_scale, chart.y_range, chart.y_unit, placement.y_title,
             placement.y_step)):
        if scale == "log":
            compat.log_axis(axis)
            if step > 1:
                axis.major_unit = float(10 ** step)
        axis.minimum_scale = float(low)
        axis.maximum_scale = float(high)
        axis.tick_labels.number_format = number_format(unit, chart)
        axis.tick_labels.number_format_is_linked = False
        axis.tick_labels.font.size = Pt(font_pt)
        axis.major_tick_mark = XL_TICK_MARK.OUTSIDE
        axis.minor_tick_mark = XL_TICK_MARK.NONE
        axis.has_title = True
        label_text(axis.axis_title.text_frame, title)
        axis.format.line.width = Pt(placement.axis.width)
        paint(axis.format.line.color, placement.axis.colour.role)
    y_axis.has_major_gridlines = True
    y_axis.major_gridlines.format.line.width = Pt(placement.grid.width)
    paint(y_axis.major_gridlines.format.line.color, placement.grid.colour.role)
    x_axis.has_major_gridlines = False


def _stroke(line: Any, width: float, dash: str, role: str) -> None:  # noqa: ANN401
    line.width = Pt(width)
    paint(line.color, role)
    line.dash_style = DASHES[dash]


def _line(placed: Series, series: Any, font_pt: float) -> None:  # noqa: ANN401
    """One line as placed: its stroke, markers on its marked points, its name at its end
    (nudged as planned) unless a legend names it."""
    series.smooth = False
    stroke = placed.stroke
    _stroke(series.format.line, stroke.width, stroke.dash, stroke.colour.role)
    series.marker.style = XL_MARKER_STYLE.NONE
    for k in placed.marked:
        marker = series.points[k].marker
        marker.style = MARKERS[placed.marker.kind]
        marker.size = round(placed.marker.size)
        marker.format.fill.solid()
        tinted(marker.format.fill.fore_color, placed.marker.colour)
        marker.format.line.fill.solid()
        tinted(marker.format.line.fill.fore_color, placed.marker.colour)
    if placed.end_label is None:
        return
    last = len(placed.points) - 1
    data_label(series, last, placed.end_label, XL_LABEL_POSITION.RIGHT)
    if placed.end_shift:
        compat.label_offset(series, last, placed.end_shift)
