"""The four meanings of "fast": four cards, each a label in capitals, a question and two
sentences; ours is marked with a badge. When the question cannot have a line of its own, it
leads the sentences in bold."""

from __future__ import annotations

import math
from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import LOOSE, TIGHT, Item, Para, Run, TextItem
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import need, texts_together
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """The cards with their questions on lines of their own, then leading the sentences,
    then closer together."""
    return [lambda: cards(c, frame, False), lambda: cards(c, frame, True),
            lambda: cards(c, frame, True, True)]


def cards(c: Context, frame: Box, inline: bool, tight: bool = False) -> list[Item] | Misfit:
    t, found_cards = c.t, c.story.cards
    columns = min(2, len(found_cards))
    rows = math.ceil(len(found_cards) / columns)
    pad = 0.1 if tight else 0.22 if c.wide else 0.16
    inset = (inch(pad), inch(0.1 if tight else 0.16), inch(pad), inch(0.08))
    gap = 0.1 if tight else 0.18 if c.wide else 0.14
    boxes = frame.grid(columns, rows, inch(gap))[:len(found_cards)]
    blocks = []
    for i, card in enumerate(found_cards):
        label = Para(card.label, (t.footnote,), bold=True, caps=True, tracking=1.0,
                     # the text colour on the grey card: muted grey there reads at 3.7:1
                     colour="accent" if card.ours else "text", field="card label",
                     origin=f"meanings[{i}].label")
        question = Para(card.question, (t.body, t.table), bold=True, heading=True, before=4,
                        line=TIGHT, field="card question", origin=f"meanings[{i}].question")
        text = Para(card.text.text, (t.body, t.table), before=4 if tight else 6,
                    line=TIGHT if tight else LOOSE, field="card text", origin=card.text.origin)
        if inline:
            both = f"{card.question} {card.text.text}"
            text = replace(text, text=both, runs=(Run(f"{card.question} ", "text"),
                                                  Run(card.text.text)))
            blocks.append([label, text])
        else:
            blocks.append([label, question, text])
    found = texts_together(c.faces, boxes, blocks, inset=inset)
    if isinstance(found, Misfit):
        return found
    items: list[Item] = []
    for card, item in zip(found_cards, found, strict=True):
        item.fill = ("accent", 0.9) if card.ours else ("rule", 0.75)
        item.outline = ("accent", 2.5) if card.ours else None
        item.name = f"Card: {card.label}"
        items.append(item)
        if card.ours:
            items.append(badge(c, c.story.labels.our_dial, item.box))
    return items


def badge(c: Context, words: str, card: Box) -> TextItem:
    """A small tab in the accent colour sitting on a card's top edge, at its right."""
    size = c.t.footnote
    w = need(c.faces, words.upper(), size, True, 1.0) + inch(0.3)
    h = inch(0.3)
    box = Box(card.right - w - inch(0.2), card.y - h // 2, w, h)
    return TextItem(box, [Para(words, (size,), bold=True, caps=True, tracking=1.0,
                               colour="background", align="ctr", line=TIGHT)], [size], "ctr",
                    (0, 0, 0, 0), fill=("accent", 0.0), name="Badge")
