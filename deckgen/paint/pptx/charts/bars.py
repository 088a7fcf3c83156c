"""Bar charts: each bar to 100% of its own total, the check hatched, labels on the segments."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pptx.enum.chart import (
    XL_CHART_TYPE,
    XL_LABEL_POSITION,
    XL_TICK_MARK,
)
from pptx.enum.dml import MSO_PATTERN_TYPE, MSO_THEME_COLOR
from pptx.util import Pt

from deckgen.paint.pptx.charts.parts import (
    CREATED,
    _CategoryData,
    _chart,
    _colour,
    _label,
)
from deckgen.story import BarChart


def _bar_chart(slide: Any, chart: BarChart, box: tuple[int, int, int, int],
               colours: Mapping[str, MSO_THEME_COLOR], font_pt: float,
               created: datetime = CREATED) -> Any:
    """Bars each to 100% of their own total; the segments' labels on the bars."""
    data = _CategoryData(created)
    data.categories = [bar.label for bar in chart.bars]
    names = [seg.name for seg in chart.bars[0].segments]
    for k, name in enumerate(names):
        data.series(name, [float(bar.segments[k].share) for bar in chart.bars])
    frame = _chart(slide, XL_CHART_TYPE.BAR_STACKED_100, box, data, font_pt, colours)
    c = frame.chart
    plot = c.plots[0]
    plot.gap_width = 70
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

    for k, series in enumerate(plot.series):
        for b, bar in enumerate(chart.bars):
            point = series.points[b]
            fill = point.format.fill
            if k == 0:  # writing: solid, the dial's bar in the accent
                fill.solid()
                _colour(fill.fore_color, colours, "accent" if bar.emphasis else "muted")
                ink = "background"
            else:  # the fixed check: hatched, so it reads in greyscale too
                fill.patterned()
                fill.pattern = MSO_PATTERN_TYPE.WIDE_UPWARD_DIAGONAL
                _colour(fill.fore_color, colours, "muted")
                _colour(fill.back_color, colours, "background")
                ink = "text"
            point.format.line.width = Pt(1)
            _colour(point.format.line.color, colours, "muted")
            # A segment too thin for its label lends it to the widest segment of its bar.
            seg = bar.segments[k]
            widest = max(range(len(bar.segments)), key=lambda j: bar.segments[j].share)
            if k != widest and seg.share < 0.2:
                continue
            text = "\n".join(
                f"{s.name} {s.label}" for j, s in enumerate(bar.segments)
                if j == k or (j != widest and s.share < 0.2 and k == widest))
            _label(series, b, text, XL_LABEL_POSITION.CENTER, font_pt, bar.emphasis, colours, ink,
                   boxed=k != 0)
    return frame


