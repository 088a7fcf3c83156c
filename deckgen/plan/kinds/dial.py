"""The dial: the chosen speed's writing time, large, with its sentence and sum; the slow
speed's beside it (or under it on a narrow slide). Every size is pinned in each arrangement,
so the dial slides of a walk that take the same arrangement share every size."""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import partial

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import TIGHT, Item, Para, RectItem, TextItem
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import figure_need, fit, needed_height, texts_together
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """From the largest figures down; beside each other first on a wide slide."""
    d, t = s.dial, c.t
    assert d is not None
    out: list[Arrangement] = []
    figs = [(t.figure, t.display), (t.display, t.title), (t.title, t.title)]
    shapes = [side_by_side, stacked] if c.wide else [stacked]
    for (fig, side_fig), shape, body in itertools.product(figs, shapes, (t.body, t.table)):
        out.append(partial(shape, c, d, frame, fig, side_fig, body))
    return out


def blocks(c: Context, d: st.DialView, fig: float, side_fig: float,
           body: float) -> tuple[list[Para], list[Para]]:
    """The chosen speed's paragraphs and the slow speed's."""
    t = c.t
    chosen = [
        Para(d.at_speed, (t.footnote,), bold=True, caps=True, colour="accent",
             tracking=1.0, field="speed label"),
        Para(fmt.keep_together(d.figure), (fig,), bold=True, heading=True, colour="accent",
             line=TIGHT, one_line=True, before=4, field="writing time"),
        Para(d.sentence, (body,), before=6, field="dial sentence"),
        Para(d.arithmetic, (t.table,), colour="muted", before=10, field="dial arithmetic"),
    ]
    side = [
        Para(d.at_slow_speed, (t.footnote,), bold=True, caps=True, colour="muted",
             tracking=1.0, field="slow speed label"),
        Para(fmt.keep_together(d.slow_figure), (side_fig,), bold=True, heading=True,
             colour="muted", line=TIGHT, one_line=True, before=4, field="slow writing time"),
        Para(d.slow_note, (t.table,), colour="muted", before=6),
    ]
    return chosen, side


def side_by_side(c: Context, d: st.DialView, frame: Box, fig: float, side_fig: float,
                 body: float) -> list[Item] | Misfit:
    chosen, side = blocks(c, d, fig, side_fig, body)
    slow = fmt.keep_together(d.slow_figure)
    right_w = round(frame.w * 0.36)
    if figure_need(c.faces, slow, side_fig) > right_w:
        return Misfit("slow writing time", "", slow, "too wide for its column")
    left, right = frame.columns([frame.w - right_w - inch(0.6), right_w], inch(0.6))
    found = texts_together(c.faces, [left, right], [chosen, side])
    if isinstance(found, Misfit):
        return found
    a, b = found
    h = max(needed_height(c.faces, a.paras, left.w, a.sizes),
            needed_height(c.faces, b.paras, right.w, b.sizes))
    y = frame.y + max(0, (frame.h - h) // 3)
    a.box, b.box = Box(left.x, y, left.w, h), Box(right.x, y, right.w, h)
    a.name, b.name = "Chosen speed", "Slow speed"
    rule = RectItem(Box(right.x - inch(0.32), y, inch(0.02), h), ("rule", 0.0), None, "Divider")
    return [a, rule, b]


def stacked(c: Context, d: st.DialView, frame: Box, fig: float, side_fig: float,
            body: float) -> list[Item] | Misfit:
    chosen, side = blocks(c, d, fig, side_fig, body)
    gap = 28.0  # points between the two, with a rule in the middle
    both = chosen + [replace(side[0], before=gap)] + side[1:]
    found = fit(c.faces, [(both, pt(frame.w), pt(frame.h))])
    if isinstance(found, Misfit):
        return found
    sizes, n = found[0], len(chosen)
    a_h = needed_height(c.faces, chosen, frame.w, sizes[:n])
    b_h = needed_height(c.faces, side, frame.w, sizes[n:])
    a = TextItem(Box(frame.x, frame.y, frame.w, a_h), chosen, sizes[:n], name="Chosen speed")
    b = TextItem(Box(frame.x, frame.y + a_h + emu(gap), frame.w, b_h), side, sizes[n:],
                 name="Slow speed")
    rule = RectItem(Box(frame.x, frame.y + a_h + emu(gap / 2), frame.w, inch(0.02)),
                    ("rule", 0.0), None, "Divider")
    return [a, rule, b]
