"""The checklist: the steps, each with a box to tick, in one column, else two; when the steps
cannot have lines of their own, each leads its detail in bold."""

from __future__ import annotations

import math
from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import TIGHT, Item, Para, RectItem, Run, pinned
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import texts_together
from deckgen.typeset.fit import Misfit

SQUARE = inch(0.34)  # the box to tick


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """One column, then two, with the details at the body size, then at the table size;
    then inline."""
    return [lambda: layout(c, frame, 1, 0), lambda: layout(c, frame, 2, 0),
            lambda: layout(c, frame, 1, 1), lambda: layout(c, frame, 2, 1),
            lambda: layout(c, frame, 2, 1, True), lambda: layout(c, frame, 1, 1, True)]


def layout(c: Context, frame: Box, columns: int, level: int,
           inline: bool = False) -> list[Item] | Misfit:
    """The steps in `columns` columns at size `level`; `inline`, the step leading its detail."""
    steps, t = c.story.checklist, c.t
    columns = min(columns, len(steps))
    rows = math.ceil(len(steps) / columns)
    boxes = frame.grid(columns, rows, inch(0.22))[:len(steps)]
    blocks = [[Para(step, (t.body,), bold=True, heading=True, line=TIGHT,
                    field="checklist step", origin=f"checklist[{i}].step"),
               Para(detail.text, (t.body, t.table), before=6, colour="muted",
                    field="checklist detail", origin=detail.origin)]
              for i, (step, detail, _) in enumerate(steps)]
    text_boxes = [Box(b.x + SQUARE + inch(0.25), b.y, b.w - SQUARE - inch(0.25), b.h)
                  for b in boxes]
    chosen = pinned(blocks, level)
    if inline:  # the step leads its detail, in bold
        chosen = [[replace(detail, text=f"{step.text} {detail.text}", before=0,
                           runs=(Run(f"{step.text} ", "text", bold=True), Run(detail.text)))]
                  for step, detail in chosen]
    found = texts_together(c.faces, text_boxes, chosen, name="Step")
    if isinstance(found, Misfit):
        return found
    items: list[Item] = []
    for b, item in zip(boxes, found, strict=True):
        first = item.sizes[0] * TIGHT
        y = b.y + emu(max(0.0, (first - pt(SQUARE)) / 2))
        items.append(RectItem(Box(b.x, y, SQUARE, SQUARE), None, ("accent", 2.0), "Checkbox"))
        items.append(item)
    return items
