"""The cover: the talk's title in the title placeholder, the subtitle, presenter and event in
the subtitle placeholder (or in a text box under the title when the layout has none)."""

from __future__ import annotations

from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, inch, pt
from deckgen.plan.items import LOOSE, TIGHT, ArrangedSlide, Item, Para, RectItem
from deckgen.plan.kinds.context import Context
from deckgen.plan.kinds.fitting import fit, needed_height, text_item
from deckgen.plan.kinds.titles import no_lone_word
from deckgen.typeset.fit import Misfit


def plan(c: Context, s: st.Slide) -> ArrangedSlide | Misfit:
    """The title in the title placeholder, the rest in the subtitle (or under the title)."""
    g, t, meta = c.g, c.t, c.story.meta
    own = g.own
    sizes = (t.display, t.title) if g.cover_centred or own else (t.title,)
    heads = [Para(meta.title, sizes, bold=True, colour=None, line=TIGHT, heading=True,
                  field="title", origin="meta.title", balance=True)]
    lines = [Para(meta.subtitle, (t.body, t.table), colour="muted" if own else None,
                  line=LOOSE, field="subtitle", origin="meta.subtitle", balance=True),
             Para(meta.presenter, (t.table,), bold=True, colour="text" if own else None,
                  before=24, field="presenter", origin="meta.presenter"),
             Para(c.story.event_line, (t.table,), colour="muted" if own else None,
                  before=4, field="event and date", origin="meta.event")]
    box, inset = g.cover_title, g.cover_title_inset
    found = fit(c.faces, [(heads, pt(box.w - inset[0] - inset[2]),
                           pt(box.h - inset[1] - inset[3]))])
    if isinstance(found, Misfit):
        return found
    title_sizes = found[0]
    heads = [no_lone_word(c, p, size, pt(box.w - inset[0] - inset[2]))
             for p, size in zip(heads, title_sizes, strict=True)]
    items: list[Item] = []
    extra: dict[str, object] = {}
    if own:  # a short rule in the accent colour just above the title's first line
        used = needed_height(c.faces, heads, box.w - inset[0] - inset[2], title_sizes)
        y = box.bottom - inset[3] - used - inch(0.32)
        items.append(RectItem(Box(box.x, y, inch(1.4), inch(0.09)), ("accent", 0.0), None,
                              "Accent bar"))
    if g.cover_second is not None:
        second, inset2 = g.cover_second
        fits = fit(c.faces, [(lines, pt(second.w - inset2[0] - inset2[2]),
                              pt(second.h - inset2[1] - inset2[3]))])
        if isinstance(fits, Misfit):
            return fits
        extra["second"] = (lines, fits[0])
    else:  # a layout with a title alone: the rest goes in a text box under it
        rest = Box(box.x, box.bottom + inch(0.2), box.w,
                   g.height - inch(0.8) - box.bottom - inch(0.2))
        sub = text_item(c.faces, rest, [replace(p, colour=p.colour or "text") for p in lines],
                        name="Subtitle")
        if isinstance(sub, Misfit):
            return sub
        items.append(sub)
    return ArrangedSlide("title", heads, title_sizes, items, s.notes, cover=True, extra=extra)
