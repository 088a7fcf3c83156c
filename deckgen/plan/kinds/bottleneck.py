"""The bottleneck: the setup, the bars, and the figures (the writing speedup, the end-to-end
speedup and the check's share) beside the bars on a wide slide, in a row under them else.
With no check there is no chart: the writing speedup alone, no empty bars."""

from __future__ import annotations

from functools import partial

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, inch, pt
from deckgen.plan.items import TIGHT, ChartItem, Item, Para, TextItem
from deckgen.plan.kinds.context import BAR_CHART_LEAST, BAR_CHART_MIN, Arrangement, Context
from deckgen.plan.kinds.fitting import (
    figure_need,
    fit,
    longest_word,
    needed_height,
    text_item,
    text_width,
)
from deckgen.typeset.fit import Misfit

Figure = tuple[str, str, str, str]  # label, value, its sum, colour role


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """Beside the bars (wide) or under them with their sums; the bars a little lower, the
    figures a step smaller; the figures without their sums, then smaller."""
    t = c.t
    figures = _figures(c)
    out: list[Arrangement] = []
    for size in (t.body, t.table):
        if c.wide and s.chart is not None:
            out.append(partial(beside, c, s.chart, figures, frame, size, t.display))
        out.append(partial(under, c, s.chart, figures, frame, size, t.display, True))
    for big in (t.display, t.between):  # the sums kept, the bars a little lower
        for size in (t.body, t.table):
            out.append(partial(under, c, s.chart, figures, frame, size, big, True,
                               BAR_CHART_LEAST))
    for size in (t.body, t.table):
        out += [partial(under, c, s.chart, figures, frame, size, big, False)
                for big in (t.display, t.between, t.title)]
    out += [partial(under, c, s.chart, figures, frame, t.table, big, False, BAR_CHART_LEAST)
            for big in (t.between, t.title)]
    return out


def _figures(c: Context) -> list[Figure]:
    b, labels = c.story.bottleneck, c.story.labels
    return [(f.label, f.value, f.how, f.role) for f in b.figures] or [
        (labels.writing_speedup, b.writing_speedup, b.writing_speedup_how, "muted"),
        (labels.end_to_end_speedup, b.end_to_end_speedup, b.end_to_end_how, "accent"),
        (labels.check_share, b.check_share, b.check_share_how, "text"),
    ]


def block(c: Context, figure: Figure, big: float, sums: bool,
          first_gap: float = 0.0) -> list[Para]:
    """One figure: its label, its value at `big`, and (`sums`) how it is worked out."""
    label, value, how, role = figure
    paras = [Para(label, (c.t.footnote,), bold=True, caps=True, colour="muted",
                  tracking=1.0, before=first_gap),
             Para(fmt.keep_together(value), (big,), bold=True, heading=True, colour=role,
                  line=TIGHT, one_line=True, before=2, field=label.lower())]
    if sums:
        paras.append(Para(how, (c.t.table,), colour="muted", field=f"{label.lower()} sum"))
    return paras


def setup_item(c: Context, frame: Box, size: float) -> TextItem:
    """The setup's sentence across the top of the frame."""
    b = c.story.bottleneck
    setup = [Para(b.setup.text, (size,), field="setup", origin=b.setup.origin)]
    h = needed_height(c.faces, setup, frame.w, [size])
    return TextItem(frame.top(h), setup, [size], name="Setup")


def beside(c: Context, chart: st.Chart | None, figures: list[Figure], frame: Box, size: float,
           big: float) -> list[Item] | Misfit:
    """The bars at the left, the three figures in a column at the right."""
    b, t = c.story.bottleneck, c.t
    assert chart is not None and len(figures) == 3
    setup = setup_item(c, frame, size)
    rest = frame.below(setup.box.bottom, inch(0.2))
    column = block(c, figures[0], big, True) + block(c, figures[1], big, True, 16.0) + \
        block(c, figures[2], t.title, True, 16.0)
    widest = max(figure_need(c.faces, fmt.keep_together(v), big)
                 for _, v, _, _ in figures)
    column_w = max(widest, round(rest.w * 0.33))
    chart_box, column_box = rest.columns([rest.w - column_w - inch(0.5), column_w], inch(0.5))
    if chart_box.h < c.scaled(BAR_CHART_MIN) or chart_box.w < rest.w * 0.5:
        return Misfit("setup", b.setup.origin, b.setup.text,
                      "no room left for the chart beside the figures")
    col = text_item(c.faces, column_box, column, name="Speedups")
    if isinstance(col, Misfit):
        return col
    return [setup, ChartItem(chart_box, chart, f"Chart: {chart.title}", t.footnote), col]


def under(c: Context, chart: st.Chart | None, figures: list[Figure], frame: Box, size: float,
          big: float, sums: bool, chart_least: int = BAR_CHART_MIN) -> list[Item] | Misfit:
    """The bars under the setup, the figures in a row under them (right under the setup
    when there is no chart)."""
    t = c.t
    least = c.scaled(chart_least)
    setup = setup_item(c, frame, size)
    chart_y = setup.box.bottom + inch(0.15)
    budget = frame.bottom - chart_y - (least if chart else 0) - inch(0.2)
    blocks = [block(c, f, big, sums) for f in figures]
    wanted = [max(text_width(c.faces, fmt.keep_together(v), big, True, heading=True),
                  text_width(c.faces, lab.upper(), t.footnote, True, 1.0),
                  longest_word(c.faces, Para(how, (t.table,)), t.table) if sums else 0.0)
              for lab, v, how, _ in figures]
    boxes = Box(frame.x, 0, frame.w, budget).columns(wanted, inch(0.4))
    found = fit(c.faces, [(blk, pt(bx.w), pt(budget))
                          for bx, blk in zip(boxes, blocks, strict=True)])
    if isinstance(found, Misfit):
        return found
    row_h = max(needed_height(c.faces, blk, bx.w, sz)
                for bx, blk, sz in zip(boxes, blocks, found, strict=True))
    items: list[Item] = [setup]
    if chart is None:  # the figures right under the setup
        row_y = chart_y + inch(0.3)
    else:
        row_y = frame.bottom - row_h
        items.append(ChartItem(Box(frame.x, chart_y, frame.w, row_y - inch(0.2) - chart_y),
                               chart, f"Chart: {chart.title}", t.footnote))
    for bx, blk, sz in zip(boxes, blocks, found, strict=True):
        items.append(TextItem(Box(bx.x, row_y, bx.w, row_h), blk, sz, name=blk[0].text))
    return items
