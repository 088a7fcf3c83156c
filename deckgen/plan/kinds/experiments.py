"""The thought experiments: the sum, the writing time large with its speed, the story, and
"still scarce" set apart in a band at the foot. Every size is pinned in each arrangement, so
the four experiments, which take the same arrangement, share every size."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import partial

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import TIGHT, Item, Para, RectItem, TextItem
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import (
    figure_need,
    fit,
    need,
    needed_height,
    text_item,
)
from deckgen.typeset.fit import Misfit


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """From the largest figure down: the figure's column beside the story (wide slides), the
    speed beside the figure, the speed under it."""
    e, t = s.experiment, c.t
    assert e is not None
    shapes = (["side"] if c.wide else []) + ["beside", "under"]
    out: list[Arrangement] = []
    for fig, body in itertools.product((t.figure, t.display, t.between, t.title),
                                  (t.body, t.table)):
        for shape in shapes:
            out.append(partial(arrange, c, e, frame, shape, fig, body))
    return out


@dataclass(frozen=True)
class Parts:
    """An experiment's paragraphs: the sum (with the featured label), the figure, the speed,
    the story; `fig_w`, the figure's width in EMU."""

    head: list[Para]
    number: list[Para]
    speed: list[Para]
    tale: list[Para]
    fig_w: int


def arrange(c: Context, e: st.Experiment, frame: Box, shape: str, fig: float,
            body: float) -> list[Item] | Misfit:
    band = set_apart(c, c.story.labels.still_scarce, e.scarce, frame, body)
    if isinstance(band, Misfit):
        return band
    above = Box(frame.x, frame.y, frame.w, band[0].box.y - frame.y - inch(0.25))
    t = c.t
    head: list[Para] = []
    label = Para(e.featured_label or "-", (t.footnote,), bold=True, caps=True,
                 colour="accent", tracking=1.0)
    marked: list[Item] = []
    if any(x.featured for x in c.story.experiments):  # keep the siblings aligned
        skip = needed_height(c.faces, [label], above.w, [t.footnote]) + emu(4)
        if e.featured:  # its label in its own box, over where every sibling's text starts
            marked.append(TextItem(Box(above.x, above.y, above.w, skip - emu(4)), [label],
                                   [t.footnote], name="Featured"))
        above = above.below(above.y + skip)
    head.append(Para(e.arithmetic, (t.table,), colour="muted", field="arithmetic"))
    big = fmt.keep_together(e.figure)
    parts = Parts(
        head,
        [Para(big, (fig,), bold=True, heading=True, colour="accent", line=TIGHT,
              one_line=True, field="writing time")],
        [Para(e.writing_at, (t.table,), colour="muted", field="writing speed")],
        [Para(e.story.text, (body,), field="story", origin=e.story.origin)],
        figure_need(c.faces, big, fig) + inch(0.05))
    if shape == "side":
        found = side(c, parts, above)
    else:
        found = stacked(c, parts, above, shape == "beside")
    return found if isinstance(found, Misfit) else marked + found + band


def side(c: Context, parts: Parts, above: Box) -> list[Item] | Misfit:
    """The figure's column at the left, the story at the right."""
    left_w = max(parts.fig_w, round(above.w * 0.4))
    if left_w > above.w * 0.55:
        return Misfit("writing time", "", parts.number[0].text, "too wide for a column")
    left, right = above.columns([left_w, above.w - left_w - inch(0.5)], inch(0.5))
    a = text_item(c.faces, left, parts.head + [replace(parts.number[0], before=4)] + parts.speed,
                  shrink_to_fit=True, name="Writing time")
    b = text_item(c.faces, right, parts.tale, shrink_to_fit=True, name="Story")
    if isinstance(a, Misfit) or isinstance(b, Misfit):
        return a if isinstance(a, Misfit) else b  # type: ignore[return-value]
    return [a, b]  # at the frame's top, where every sibling's figure sits


def stacked(c: Context, parts: Parts, above: Box, beside: bool) -> list[Item] | Misfit:
    """The sum, the figure with its speed beside it (or under it), the story."""
    top = text_item(c.faces, above, parts.head, shrink_to_fit=True, name="Sum")
    if isinstance(top, Misfit):
        return top
    fig_w, number, speed = parts.fig_w, parts.number, parts.speed
    fig = number[0].size[0]
    y = top.box.bottom + inch(0.05)
    fig_h = needed_height(c.faces, number, fig_w, [fig])
    if fig_w > above.w:
        return Misfit("writing time", "", number[0].text, "too wide for the slide")
    items: list[Item] = [top, TextItem(Box(above.x, y, fig_w, fig_h), number, [fig],
                                       name="Writing time")]
    if beside and above.w - fig_w - inch(0.3) > above.w * 0.25:
        found = text_item(c.faces, Box(above.x + fig_w + inch(0.3), y,
                                       above.w - fig_w - inch(0.3), fig_h), speed,
                          shrink_to_fit=True, name="Speed")
        if isinstance(found, Misfit):
            return found
        base = y + fig_h - round(fig_h * 0.1)  # near the figure's baseline
        found.box = found.box.moved(base - found.box.h)
        below = y + fig_h
    elif beside:
        return Misfit("writing speed", "", speed[0].text, "no room beside the figure")
    else:
        found = text_item(c.faces, above.below(y + fig_h), speed, shrink_to_fit=True,
                          name="Speed")
        if isinstance(found, Misfit):
            return found
        below = found.box.bottom
    story = text_item(c.faces, above.below(below, inch(0.2)), parts.tale, shrink_to_fit=True,
                      name="Story")
    if isinstance(story, Misfit):
        return story
    return items + [found, story]


def set_apart(c: Context, label: str, line: st.Text, frame: Box,
              size: float) -> list[Item] | Misfit:
    """A band across the foot of the frame: a label in capitals, then one line of text
    (beside the label on a wide slide, under it on a narrow one), as tall on every
    experiment's slide: the height its longest line needs."""
    t = c.t
    pad_x, pad_y = inch(0.3), inch(0.17)
    head = [Para(label, (t.footnote,), bold=True, caps=True, colour="accent", tracking=1.0)]

    def said(text: st.Text) -> list[Para]:
        return [Para(text.text, (size,), bold=True, heading=True, line=TIGHT,
                     field="still scarce line", origin=text.origin)]

    words = said(line)
    siblings = [said(e.scarce) for e in c.story.experiments if e.scarce.text] or [words]
    inner_w = frame.w - 2 * pad_x
    if c.wide:
        head_w = need(c.faces, label.upper(), t.footnote, True, 1.0) + inch(0.05)
        text_w = inner_w - head_w - inch(0.35)
        found = fit(c.faces, [(words, pt(text_w), pt(frame.h) / 3)])
        if isinstance(found, Misfit):
            return found
        h = max(needed_height(c.faces, paras, text_w, found[0]) for paras in siblings)
        band = frame.bottom_part(h + 2 * pad_y)
        head_box = Box(band.x + pad_x, band.y + pad_y, head_w, h)
        text_box = Box(band.x + pad_x + head_w + inch(0.35), band.y + pad_y, text_w, h)
        anchor = "ctr"
    else:
        found = fit(c.faces, [(words, pt(inner_w), pt(frame.h) / 3)])
        if isinstance(found, Misfit):
            return found
        h = max(needed_height(c.faces, paras, inner_w, found[0]) for paras in siblings)
        head_h = needed_height(c.faces, head, inner_w, [t.footnote])
        band = frame.bottom_part(head_h + inch(0.04) + h + 2 * pad_y)
        head_box = Box(band.x + pad_x, band.y + pad_y, inner_w, head_h)
        text_box = Box(band.x + pad_x, head_box.bottom + inch(0.04), inner_w, h)
        anchor = "t"
    return [RectItem(band, ("rule", 0.75), None, label),
            RectItem(Box(band.x, band.y, inch(0.08), band.h), ("accent", 0.0), None, "Accent"),
            TextItem(head_box, head, [t.footnote], anchor=anchor, name=label),
            TextItem(text_box, words, found[0], anchor=anchor, name=f"{label}: line")]
