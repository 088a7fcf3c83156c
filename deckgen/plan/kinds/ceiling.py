"""The ceiling: its figure, large, and its sentence beside the chart (wide) or over it."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import TIGHT, ChartItem, Item, Para
from deckgen.plan.kinds.context import CEILING_ROOM, CHART_MIN, Arrangement, Context
from deckgen.plan.kinds.fitting import figure_need, text_item
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """First with room for the chart's end labels to stand apart, then with less."""
    t, chart = c.t, s.chart
    assert chart is not None
    out: list[Arrangement] = []
    for fig in (t.figure, t.display):
        for body in (t.body, t.table):
            if c.wide:
                out.append(partial(side_by_side, c, chart, frame, fig, body))
            out.append(partial(stacked, c, chart, frame, fig, body, CEILING_ROOM))
    for fig in (t.figure, t.display):
        for body in (t.body, t.table):
            out.append(partial(stacked, c, chart, frame, fig, body))
    return out


def parts(c: Context, fig: float, body: float) -> tuple[list[Para], list[Para]]:
    """The ceiling's label and figure (none when nothing caps it), and its sentence."""
    b, t = c.story.bottleneck, c.t
    words = [Para(b.ceiling_sentence.text, (body,), field="ceiling sentence",
                  origin=b.ceiling_sentence.origin)]
    block = ([Para(c.story.labels.ceiling, (t.footnote,), bold=True, caps=True,
                   colour="muted", tracking=1.0),
              Para(fmt.keep_together(b.ceiling), (fig,), bold=True, heading=True,
                   colour="accent", line=TIGHT, one_line=True, before=2, field="ceiling")]
             if b.has_ceiling else [])
    return block, words


def side_by_side(c: Context, chart: st.Chart, frame: Box, fig: float,
                 body: float) -> list[Item] | Misfit:
    """The chart at the left, the figure and its sentence at the right."""
    block, words = parts(c, fig, body)
    ceiling = fmt.keep_together(c.story.bottleneck.ceiling)
    column_w = round(frame.w * 0.34)
    if block:
        column_w = max(column_w, figure_need(c.faces, ceiling, fig))
    if column_w > frame.w * 0.45:
        return Misfit("ceiling", "", ceiling, "too wide beside the chart")
    chart_box, column = frame.columns([frame.w - column_w - inch(0.45), column_w], inch(0.45))
    paras = block + [replace(words[0], before=14 if block else 0)]
    text = text_item(c.faces, column, paras, shrink_to_fit=True, name="Ceiling")
    if isinstance(text, Misfit):
        return text
    text.box = text.box.moved(column.y + max(0, (column.h - text.box.h) // 3))
    return [ChartItem(chart_box, chart, f"Chart: {chart.title}", c.t.footnote), text]


def stacked(c: Context, chart: st.Chart, frame: Box, fig: float, body: float,
            least: int = CHART_MIN) -> list[Item] | Misfit:
    """The figure and its sentence side by side over the chart (`least` tall at least)."""
    b = c.story.bottleneck
    block, words = parts(c, fig, body)
    ceiling = fmt.keep_together(b.ceiling)
    top = Box(frame.x, frame.y, frame.w, round(frame.h * 0.4))
    items: list[Item] = []
    if block:
        fig_w = figure_need(c.faces, ceiling, fig) + inch(0.05)
        if fig_w > top.w * 0.6:
            return Misfit("ceiling", "", ceiling, "too wide beside its sentence")
        left, right = top.columns([fig_w, top.w - fig_w - inch(0.4)], inch(0.4))
        figure = text_item(c.faces, left, block, shrink_to_fit=True, name="Ceiling")
        text = text_item(c.faces, right, words, shrink_to_fit=True, name="Ceiling sentence")
        if isinstance(figure, Misfit) or isinstance(text, Misfit):
            return figure if isinstance(figure, Misfit) else text  # type: ignore[return-value]
        h = max(figure.box.h, text.box.h)
        items += [figure, text]
    else:
        text = text_item(c.faces, top, words, shrink_to_fit=True, name="Ceiling sentence")
        if isinstance(text, Misfit):
            return text
        h = text.box.h
        items.append(text)
    chart_y = frame.y + h + inch(0.2)
    if frame.bottom - chart_y < c.scaled(least):
        return Misfit("ceiling sentence", b.ceiling_sentence.origin,
                      b.ceiling_sentence.text, "no room left for the chart")
    items.append(ChartItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y), chart,
                           f"Chart: {chart.title}", c.t.footnote))
    return items
