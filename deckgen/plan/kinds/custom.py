"""Slides of the presenter's own, on the same grid and type scale as the built-in ones.

A text slide's bullets (each after a small accent square) or paragraph at the body size, the
table size when they need it, with the same fit errors as every slide; an image slide's
picture fitted into the content area with its aspect ratio kept (never stretched; cropped
evenly only with `fit: cover`) over its caption and credit; a section divider, its kicker
and headline over a short accent rule.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from deckgen import story as st
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import TIGHT, WIDTH_SAFETY, Item, Para, PictureItem, RectItem, TextItem
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.fitting import para_height, text_item
from deckgen.typeset.fit import Misfit

MEASURE = inch(10.5)  # the longest line a paragraph slide sets: about 75 characters at 24 pt


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    shows = s.custom
    assert shows is not None
    if shows.kind == "text":
        return [lambda: text(c, s, frame, shows)]
    if shows.kind == "image":
        return [lambda: image(c, s, frame, shows)]
    return [lambda: section(c, frame)]


def text(c: Context, s: st.Slide, frame: Box, shows: st.Custom) -> list[Item] | Misfit:
    """Bullets, each after an accent square, or one paragraph, at the body size or else the
    table size."""
    sizes = (c.t.body, c.t.table)
    origin = s.headline.origin.rsplit(".", 1)[0]
    if not shows.bullets:
        box = Box(frame.x, frame.y, min(frame.w, c.scaled(MEASURE)), frame.h)
        found = text_item(c.faces, box, [Para(shows.paragraph.text, sizes, field="paragraph",
                                              origin=shows.paragraph.origin)], name="Paragraph")
        return found if isinstance(found, Misfit) else [found]
    indent = c.scaled(inch(0.42))
    box = Box(frame.x + indent, frame.y, min(frame.w, c.scaled(MEASURE)) - indent, frame.h)
    paras = [Para(b.text, sizes, before=0 if i == 0 else 14, field="bullet", origin=b.origin
                  or f"{origin}.bullets[{i}]") for i, b in enumerate(shows.bullets)]
    found = text_item(c.faces, box, paras, name="Bullets")
    if isinstance(found, Misfit):
        return found
    # Each bullet in a box of its own, its square beside its first line, so a client that
    # wraps a line differently moves no square off its bullet.
    width = pt(box.w) * WIDTH_SAFETY
    square = c.scaled(inch(0.11))
    items: list[Item] = []
    y = box.y
    for i, (p, size) in enumerate(zip(paras, found.sizes, strict=True)):
        y += emu(p.before) if i else 0
        high = emu(para_height(c.faces, p, size, width)) + inch(0.02)
        items.append(TextItem(Box(box.x, y, box.w, high), [replace(p, before=0.0)], [size],
                              name="Bullet text"))
        first = y + emu(size * p.line * 0.55) - square // 2
        items.append(RectItem(Box(frame.x + c.scaled(inch(0.08)), first, square, square),
                              ("accent", 0.0), None, "Bullet"))
        y += high
    return items


def image(c: Context, s: st.Slide, frame: Box, shows: st.Custom) -> list[Item] | Misfit:
    """The picture in the frame over its caption and credit: its whole self at the largest
    size the frame allows, centred; with `cover`, the frame filled, the overflow cut evenly
    from both sides."""
    picture = shows.picture
    assert picture is not None
    items: list[Item] = []
    area = frame
    lines = [Para(shows.caption.text, (c.t.footnote,), line=TIGHT, field="caption",
                  origin=shows.caption.origin)] if shows.caption.text else []
    if shows.credit.text:
        lines.append(Para(shows.credit.text, (c.t.footnote,), line=TIGHT, colour="muted",
                          field="credit", origin=shows.credit.origin,
                          before=2 if lines else 0))
    if lines:
        under = text_item(c.faces, frame, lines, shrink_to_fit=True, name="Caption")
        if isinstance(under, Misfit):
            return under
        under.box = frame.bottom_part(under.box.h)
        items.append(under)
        area = Box(frame.x, frame.y, frame.w, under.box.y - inch(0.12) - frame.y)
    if area.h < c.scaled(inch(1.0)):
        return Misfit("caption", shows.caption.origin, shows.caption.text,
                      "it leaves the picture less than an inch")
    digest = hashlib.sha256(picture.data).hexdigest()
    if shows.cover:
        wide = area.w / area.h
        crop = (0.0, 0.0, 0.0, 0.0)
        if picture.aspect > wide:  # cut the sides
            cut = (1 - wide / picture.aspect) / 2
            crop = (cut, 0.0, cut, 0.0)
        elif picture.aspect < wide:  # cut top and bottom
            cut = (1 - picture.aspect / wide) / 2
            crop = (0.0, cut, 0.0, cut)
        return [PictureItem(area, picture, digest, shows.alt, crop),
                *items]
    scale = min(area.w / picture.width, area.h / picture.height)
    w, h = round(picture.width * scale), round(picture.height * scale)
    box = Box(area.x + (area.w - w) // 2, area.y, w, h)
    if lines:  # the caption under the picture, from its left edge, not at the slide's foot
        under_box = Box(box.x, box.bottom + inch(0.12), frame.right - box.x, frame.h)
        placed = text_item(c.faces, under_box, lines, shrink_to_fit=True, name="Caption")
        items = [items[0] if isinstance(placed, Misfit) else placed]
        if isinstance(placed, Misfit) or placed.box.bottom > frame.bottom:
            items[0].box = frame.bottom_part(items[0].box.h)
    return [PictureItem(box, picture, digest, shows.alt), *items]


def section(c: Context, frame: Box) -> list[Item] | Misfit:
    """A divider: under its kicker and headline, a short accent rule and nothing else."""
    return [RectItem(Box(frame.x, frame.y + c.scaled(inch(0.1)), c.scaled(inch(1.6)),
                         c.scaled(inch(0.09))), ("accent", 0.0), None, "Accent")]
