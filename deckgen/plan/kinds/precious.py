"""What gets precious: the scarce things in a grid, each a name under a short accent rule and
a line; when the names cannot have lines of their own, each leads its line in bold."""

from __future__ import annotations

import math
from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import TIGHT, Item, Para, RectItem, Run, pinned
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import texts_together
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """Three columns, then two, at the body size, then at the table size; then inline."""
    t = c.t
    blocks = [[Para(name, (t.body, t.table), bold=True, heading=True, line=TIGHT,
                    field="precious name", origin=f"precious[{i}].name"),
               Para(text.text, (t.body, t.table), before=6, colour="muted",
                    field="precious text", origin=text.origin)]
              for i, (name, text) in enumerate(c.story.precious)]
    return [lambda: grid(c, frame, blocks, 3, 0), lambda: grid(c, frame, blocks, 2, 0),
            lambda: grid(c, frame, blocks, 3, 1), lambda: grid(c, frame, blocks, 2, 1),
            lambda: grid(c, frame, blocks, 2, 1, True), lambda: grid(c, frame, blocks, 1, 1, True)]


def grid(c: Context, frame: Box, blocks: list[list[Para]], columns: int, level: int,
         inline: bool = False) -> list[Item] | Misfit:
    """The things in `columns` columns at size `level`; `inline`, the name leading its line."""
    count = len(blocks)
    columns = min(columns, count)
    rows = math.ceil(count / columns)
    boxes = frame.grid(columns, rows, inch(0.25))[:count]
    inner = [Box(b.x, b.y + inch(0.2), b.w, b.h - inch(0.2)) for b in boxes]
    chosen = pinned(blocks, level)
    if inline:  # the name leads its line in bold
        chosen = [[replace(text, text=f"{name.text} {text.text}", colour="muted",
                           runs=(Run(f"{name.text} ", "text", bold=True), Run(text.text)),
                           before=0)]
                  for name, text in chosen]
    found = texts_together(c.faces, inner, chosen, name="Precious")
    if isinstance(found, Misfit):
        return found
    rules: list[Item] = [RectItem(Box(b.x, b.y, inch(0.9), inch(0.07)), ("accent", 0.0), None,
                                  "Accent") for b in boxes]
    return rules + list(found)
