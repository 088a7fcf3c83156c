"""Bar charts as native charts: each bar to 100% of its own total, the check hatched, the
labels in the segments the plan put them in, the plot where the plan put it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pptx.enum.chart import XL_CHART_TYPE, XL_LABEL_POSITION, XL_TICK_MARK
from pptx.enum.dml import MSO_PATTERN_TYPE
from pptx.util import Pt

from deckgen.paint.pptx import compat
from deckgen.paint.pptx.charts.parts import data_label, new_chart, paint
from deckgen.paint.pptx.compat import CategoryData
from deckgen.plan.placed import BarPlacement
from deckgen.story import BarChart


def bar_chart(slide: Any, chart: BarChart, placement: BarPlacement,  # noqa: ANN401
              box: tuple[int, int, int, int], font_pt: float, created: datetime) -> Any:  # noqa: ANN401
    """Bars each to 100% of their own total, the first on top; the segments' labels where
    the plan put them."""
    data = CategoryData(created)
    data.categories = [bar.label for bar in chart.bars]
    names = [seg.name for seg in chart.bars[0].segments]
    for k, name in enumerate(names):
        data.series(name, [float(bar.segments[k].share) for bar in chart.bars])
    frame = new_chart(slide, XL_CHART_TYPE.BAR_STACKED_100, box, data, font_pt)
    c = frame.chart
    plot = c.plots[0]
    plot.gap_width = round(placement.gap * 100)
    plot.overlap = 100
    category, value = c.category_axis, c.value_axis
    category.reverse_order = True  # the first bar on top, as the story reads
    category.tick_labels.font.size = Pt(font_pt)
    category.major_tick_mark = XL_TICK_MARK.NONE
    category.format.line.fill.background()
    value.visible = False
    value.has_major_gridlines = False
    value.maximum_scale = 1.0
    value.minimum_scale = 0.0
    left, top, right, bottom = placement.margins
    compat.plot_layout(c, left, top, 1 - left - right, 1 - top - bottom)
    series_list = list(plot.series)
    for k, series in enumerate(series_list):
        for b in range(len(chart.bars)):
            point = series.points[b]
            fill = point.format.fill
            piece = placement.bars[b].segments[k]
            if piece.hatch is None:  # writing: solid, the dial's bar in the accent
                fill.solid()
                paint(fill.fore_color, piece.fill.role)
            else:  # the fixed check: hatched, so it reads in greyscale too
                fill.patterned()
                fill.pattern = MSO_PATTERN_TYPE.WIDE_UPWARD_DIAGONAL
                paint(fill.fore_color, piece.hatch.colour.role)
                paint(fill.back_color, piece.fill.role)
            point.format.line.width = Pt(piece.edge.width)
            paint(point.format.line.color, piece.edge.colour.role)
    for b, placed in enumerate(placement.bars):
        for k, label in placed.labels:
            data_label(series_list[k], b, label, XL_LABEL_POSITION.CENTER)
    return frame
