"""Native PowerPoint charts drawn from the placed deck's charts, with python-pptx.

`add_chart(slide, placed, created)` adds one real chart part with its embedded workbook (so
Edit Data works in PowerPoint and LibreOffice), holding the story's data: log axes where the
model says so (written into the XML, which python-pptx has no API for), the plot where the
plan put it, each series in its planned look (colours as theme references, so a template's
colours carry through), direct data labels with the plan's text on the planned sides, or a
legend where the plan took one. Nothing here computes a figure, formats one or places a label:
the tick labels a chart draws itself get a fixed number format matching the story's ticks.
The embedded workbooks carry a fixed date, so the same deck gives the same bytes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from deckgen.paint.pptx import compat
from deckgen.paint.pptx.charts.bar_chart import bar_chart
from deckgen.paint.pptx.charts.line_chart import line_chart
from deckgen.paint.pptx.charts.parts import CREATED
from deckgen.plan.placed import BarPlacement, Chart, LinePlacement
from deckgen.story import BarChart, LineChart

__all__ = ["CREATED", "add_chart"]


def add_chart(slide: Any, placed: Chart, created: datetime = CREATED) -> Any:  # noqa: ANN401
    """Add the placed chart to `slide` as a native chart in its box; returns its frame. Its
    embedded workbook records `created` (the deck's own fixed date)."""
    chart, placement = placed.chart, placed.placement
    b = placed.box
    box = (b.x, b.y, b.w, b.h)
    if isinstance(chart, LineChart) and isinstance(placement, LinePlacement):
        frame = line_chart(slide, chart, placement, box, placed.size, created)
    elif isinstance(chart, BarChart) and isinstance(placement, BarPlacement):
        frame = bar_chart(slide, chart, placement, box, placed.size, created)
    else:  # pragma: no cover - the plan places only these two
        raise TypeError(f"cannot draw a chart of type {type(chart).__name__}")
    frame.name = placed.name
    compat.describe(frame, chart.alt_text, chart.title)
    return frame
