"""Native PowerPoint charts drawn from the story's chart model, with python-pptx.

`add_chart(slide, chart, left, top, width, height, palette, font_pt=...)` adds one real chart
part with its embedded workbook (so Edit Data works in PowerPoint and LibreOffice): log axes where
the model says so (written into the XML, which python-pptx has no API for), direct data
labels whose text is the story's own, colours as theme references (a template's colours
carry through), and series story apart in greyscale by dash, marker and fill pattern. Every
value and every label comes from the model; nothing here computes a figure or formats one:
the tick labels a chart draws itself get a fixed number format matching the story's ticks.
The embedded workbooks carry a fixed date, so the same deck gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pptx.enum.dml import MSO_THEME_COLOR

from deckgen.paint.pptx import compat
from deckgen.paint.pptx.charts.bars import _bar_chart
from deckgen.paint.pptx.charts.lines import _line_chart
from deckgen.paint.pptx.charts.parts import CREATED, MIN_PT, PALETTE
from deckgen.story import BarChart, Chart, LineChart

__all__ = ["CREATED", "MIN_PT", "PALETTE", "add_chart"]


def add_chart(slide: Any, chart: Chart, left: int, top: int, width: int, height: int,
              palette: Mapping[str, MSO_THEME_COLOR] | None = None, name: str = "",
              created: datetime = CREATED, font_pt: float = MIN_PT) -> Any:
    """Add `chart` to `slide` as a native chart in the box given in EMU; returns its frame.
    Its labels are set at `font_pt` (the deck's type scale; never under 14 pt), the dial's
    point in bold; its embedded workbook records `created` (the deck's own fixed date)."""
    colours = {**PALETTE, **(palette or {})}
    font_pt = max(font_pt, MIN_PT)
    if isinstance(chart, LineChart):
        frame = _line_chart(slide, chart, (left, top, width, height), colours, font_pt, created)
    elif isinstance(chart, BarChart):
        frame = _bar_chart(slide, chart, (left, top, width, height), colours, font_pt, created)
    else:  # pragma: no cover - the story makes only these two
        raise TypeError(f"cannot draw a chart of type {type(chart).__name__}")
    frame.name = name or f"Chart: {chart.title}"
    compat.alt_text(frame, chart.alt_text, chart.title)
    return frame


