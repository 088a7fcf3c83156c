"""Every content slide's kicker and title, and the frame they leave for its content.

On deckgen's own master the title sits at its box's top, the kicker above it; on a template
the title may be set at the body size (`Context.title_step`), and the kicker goes above the
title's lines inside its box when there is room there, else under the title. A deck on a
template has one look (`one_look`): every content slide's title at one size and its kicker in
one place, the largest size and the place inside the title's box when every slide allows them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, inch, pt
from deckgen.plan.items import TIGHT, WIDTH_SAFETY, ArrangedSlide, Item, Para
from deckgen.plan.kinds.context import Context
from deckgen.plan.kinds.fitting import fit, para_lines, text_item
from deckgen.typeset.fit import Misfit


def title_steps(c: Context) -> tuple[int, ...]:
    """On a template, a slide is tried with its title at the title size (when its box
    holds it) and then at the body size, which may leave the kicker room in the title's
    box; deckgen's own master sets every title at the title size."""
    if c.title_pt is not None:  # the deck's one look decided it
        return (c.title_step,)
    return (0,) if c.g.own else (0, 1)


def title_paras(c: Context, s: st.Slide) -> list[Para]:
    what = "title" if s.headline.origin.startswith("workloads[") else "headline"
    sizes = (c.t.title,) if c.g.own else (c.t.title, c.t.body)[c.title_step:]
    if c.title_pt is not None:
        sizes = (c.title_pt,)
    return [Para(s.headline.text, sizes, bold=True, colour=None, line=TIGHT, heading=True,
                 field=what, origin=s.headline.origin)]


def no_lone_word(c: Context, p: Para, size: float, width: float) -> Para:
    """`p` with its last word held to the word before it (a no-break space) when, set at
    `size` in `width` points, its last line would hold that one short word alone: a title
    of two lines never ends "... ask for / more"."""
    found = para_lines(c.faces, p, size, width * WIDTH_SAFETY)
    if not isinstance(found, tuple) or len(found) < 2 or " " in found[-1].strip() \
            or len(found[-1]) >= 12:
        return p
    head, space, last = p.text.rpartition(" ")
    return replace(p, text=f"{head}\u00a0{last}") if space else p


def title_room(c: Context) -> tuple[float, float]:
    """Points inside the title's box, across and down."""
    inset = c.g.title_inset
    return pt(c.g.title.w - inset[0] - inset[2]), pt(c.g.title.h - inset[1] - inset[3])


def title_height(c: Context) -> float:
    """Points a title's lines may take: its box's inner height on deckgen's own master,
    the whole box on a template."""
    return title_room(c)[1] if c.g.own else pt(c.g.title.h)


def title_size(c: Context, s: st.Slide) -> float:
    """The title's size: the title size of the scale, or on a template whose title box
    cannot hold two lines of it, the body size (0 when even that does not fit). A
    template's title may use its box's insets: the text stays inside the placeholder."""
    width, _ = title_room(c)
    found = fit(c.faces, [(title_paras(c, s), width, title_height(c))])
    return 0.0 if isinstance(found, Misfit) else found[0][0]


def title_lines(c: Context, s: st.Slide) -> int:
    """1 when the title takes one line at its largest size, else 2."""
    paras = title_paras(c, s)
    width, _ = title_room(c)
    found = para_lines(c.faces, paras[0], paras[0].size[0], width * 0.96)
    return 1 if isinstance(found, tuple) and len(found) == 1 else 2


def kicker_inside(c: Context, s: st.Slide) -> bool:
    """Whether, on a template whose title box has no room above it for the kicker, the
    kicker fits inside the box above the title's lines (the title then sits at the foot)."""
    if c.g.own:
        return False
    if c.kicker_in is not None:
        return c.kicker_in
    size = title_size(c, s)
    width, room = title_room(c)
    found = para_lines(c.faces, title_paras(c, s)[0], size, width * 0.96)
    if not isinstance(found, tuple):
        return False
    return len(found) * size * TIGHT + pt(inch(0.4)) <= room


def slide_plan(c: Context, s: st.Slide, items: list[Item], size: float) -> ArrangedSlide:
    """The slide's plan: its title at `size` over `items`."""
    anchor = "b" if s.kicker and kicker_inside(c, s) else "t" if c.g.own else None
    title = [no_lone_word(c, p, size, title_room(c)[0]) for p in title_paras(c, s)]
    return ArrangedSlide(s.kind, title, [size], items, s.notes, extra={"title_anchor": anchor})


def header(c: Context, s: st.Slide, lines: int) -> tuple[list[Item], Box] | Misfit:
    """The kicker's item and the frame left for content under a title of `lines` lines
    (siblings pass the most any of them needs, so their frames match)."""
    g = c.g
    paras = title_paras(c, s)
    width, _ = title_room(c)
    fits = fit(c.faces, [(paras, width, title_height(c))])
    if isinstance(fits, Misfit):
        return fits
    box, inset = g.title, g.title_inset
    left, right = box.x + inset[0], box.right - inset[2]
    if g.own:
        top = box.y + inset[1] + round(lines * paras[0].size[0] * TIGHT * 12700) + inch(0.25)
    else:
        top = box.bottom + inch(0.15)
    bottom = g.bottom
    if g.body is not None:  # a template's content goes where its layout puts the body
        left, right = g.body.x, g.body.right
        top, bottom = max(top, g.body.y), min(bottom, g.body.bottom)
    items: list[Item] = []
    if s.kicker:
        k_h = inch(0.34)
        k_y = box.y + inset[1] - k_h - inch(0.06)
        if not g.own and kicker_inside(c, s):
            k_y = box.y + inset[1]  # in the title box, over the title set at its foot
        elif not g.own or k_y < inch(0.12):  # never above a template's title: artwork
            k_y, top = top, top + k_h + inch(0.08)
        k_para = [Para(s.kicker, (c.t.footnote,), bold=True, caps=True, colour="accent",
                       tracking=1.2, field="kicker", origin=_kicker_origin(s.headline))]
        k_x, k_w = left, right - left
        if k_y == box.y + inset[1]:  # inside the title box: the title's width
            k_x, k_w = box.x + inset[0], box.w - inset[0] - inset[2]
        kick = text_item(c.faces, Box(k_x, k_y, k_w, k_h), k_para, anchor="b", name="Kicker")
        if isinstance(kick, Misfit):
            return kick
        items.append(kick)
    return items, Box(left, top, right - left, bottom - top)


def _kicker_origin(headline: st.Text) -> str:
    m = re.match(r"slides\.([\w-]+)\.headline", headline.origin)
    if m:
        return f"slides.{m.group(1)}.kicker"
    if headline.origin.startswith("workloads["):
        return "slides.experiments.kicker"
    return ""


def one_look(c: Context, slides: Sequence[tuple[Context, st.Slide]]) -> Context | None:
    """`c` with the one title size and kicker place every content slide of a template deck
    shares (`slides`: each with its own context, at the title step tried): the largest size
    all their titles fit at, the kicker inside the title's box only when it fits there on
    every slide; None when some title does not fit at this step."""
    sizes = [title_size(own, s) for own, s in slides]
    if not sizes or min(sizes) == 0:
        return None
    size = min(sizes)
    inside = all(kicker_inside(replace(own, title_pt=size), s) for own, s in slides if s.kicker)
    return replace(c, title_pt=size, kicker_in=inside)
