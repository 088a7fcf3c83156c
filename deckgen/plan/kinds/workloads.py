"""The workloads: their table with its caption and the chart of their writing times below it;
the chart alone on a slide of its own; a table alone on its slide (the preset checks, or the
workloads when their chart has a slide of its own)."""

from __future__ import annotations

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import ChartItem, Item, Para, TextItem
from deckgen.plan.kinds.context import (
    CHART_LEAST,
    CHART_MIN,
    CHART_ROOM,
    Arrangement,
    Context,
)
from deckgen.plan.kinds.fitting import middle, needed_height
from deckgen.plan.kinds.tables import Cells, table_cells, table_item
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """The table on top, its caption, the chart below with the height that is left; when
    a narrow slide has no room for a readable chart, the table and caption alone. With no
    chart (it has a slide of its own) it is the table slide."""
    table, chart, t = s.table, s.chart, c.t
    assert table is not None
    if chart is None:
        return table_alone(c, s, frame)
    cells = table_cells(table, (t.table,))
    small = table_cells(table, (t.table,), (t.footnote,))
    return [lambda: stacked(c, table, chart, frame, c.scaled(CHART_ROOM), t.table, cells),
            lambda: stacked(c, table, chart, frame, c.scaled(CHART_MIN), t.table, cells),
            lambda: stacked(c, table, chart, frame, c.scaled(CHART_MIN), t.footnote, cells),
            lambda: stacked(c, table, chart, frame, c.scaled(CHART_LEAST), t.footnote, small),
            lambda: stacked(c, table, chart, frame, 0, t.table, cells)]


def stacked(c: Context, table: st.Table, chart: st.Chart, frame: Box, chart_h: int,
            caption_size: float, cells: Cells) -> list[Item] | Misfit:
    """The table, its caption under it, and the chart (`chart_h` tall at least; 0: none)."""
    caption = [Para(table.caption, (caption_size,), colour="muted", field="table caption")]
    cap_h = needed_height(c.faces, caption, frame.w, [caption_size])
    space = frame.h - cap_h - inch(0.25) - chart_h
    if space <= 0:
        return Misfit("table caption", "", table.caption, "no room for the table")
    found = table_item(c.faces, Box(frame.x, frame.y, frame.w, space), cells, table.highlight,
                       name="Workload table")
    if isinstance(found, Misfit):
        return found
    cap = TextItem(Box(frame.x, found.box.bottom + inch(0.1), frame.w, cap_h), caption,
                   [caption_size], name="Caption")
    if not chart_h:  # the table alone: the handout and the next slides have the curves
        return middle([found, cap], frame)
    chart_y = cap.box.bottom + inch(0.15)
    return [found, cap, ChartItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y),
                                  chart, f"Chart: {chart.title}", c.t.footnote)]


def writing_chart(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """The writing-time chart alone in the frame: room for a label at every decade, its
    labels at the scale's footnote size."""
    chart = s.chart
    assert chart is not None
    return [lambda: [ChartItem(frame, chart, f"Chart: {chart.title}", c.t.footnote)]]


def table_alone(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """A table alone on its slide, so it may be large: the preset checks, or the
    workloads when their chart has a slide of its own. Both sizes in one search: a tidy
    table (no cell wrapped) at the table size beats one at the body size whose cells wrap."""
    table, t = s.table, c.t
    assert table is not None
    name = "Workload table" if s.kind == "workloads" else "Preset checks table"
    return [lambda: large(c, table, frame, name, (t.body, t.table)),
            lambda: large(c, table, frame, name, (t.table,))]


def large(c: Context, table: st.Table, frame: Box, name: str,
          size: tuple[float, ...]) -> list[Item] | Misfit:
    """The table at the first of `size` that fits, its caption under it, in the middle."""
    t = c.t
    caption = [Para(table.caption, (t.table,), colour="muted", field="table caption")]
    cap_h = needed_height(c.faces, caption, frame.w, [t.table])
    found = table_item(c.faces, Box(frame.x, frame.y, frame.w, frame.h - cap_h - inch(0.2)),
                       table_cells(table, size), table.highlight, name=name)
    if isinstance(found, Misfit):
        return found
    cap = TextItem(Box(frame.x, found.box.bottom + inch(0.2), frame.w, cap_h), caption,
                   [t.table], name="Caption")
    return middle([found, cap], frame)
