"""A slide's ground as the slides PDF draws it (the deck's template shows its own): deckgen's
own background, or the template's background (the layout's, else its master's, else lt1) and
artwork (the master's, when the layout shows it, then the layout's), every colour resolved on
the theme as the deck writes it, and a slide-number field set as text.

Pure, like all of the plan: a function of the Placer's template, faces and colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from deckgen import fmt
from deckgen.plan.items import Para
from deckgen.plan.paragraphs import BoxLook, set_text
from deckgen.plan.placed import Art, Blend, Colour, Ground, TextBox
from deckgen.template.model import Drawing, Fill, Gradient, Layout

if TYPE_CHECKING:
    from deckgen.plan.place import Placer


def slide_ground(placer: Placer, layout: Layout, number: int) -> Ground:
    """What slide `number` on `layout` sits on: the deck's own background, or the
    template's background (the layout's, else its master's, else lt1) and artwork (the
    master's, when the layout shows it, then the layout's)."""
    if placer.own:
        return Ground(placer.roles["background"])
    slots = placer.grounds.slots
    fill, picture, shading = slots.get("bg1", "#FFFFFF"), b"", None
    for owner in placer.grounds.owners(layout):
        bg = owner.background
        if bg is None:
            continue
        if bg.kind == "picture":
            picture = bg.picture.data if bg.picture is not None else b""
            break
        colours = placer.grounds.fill(bg)
        if colours:
            fill = colours[0]
            shading = blend(bg.gradient, slots)
            break
    pieces = [art(placer, d, number) for piece in placer.grounds.template.showing(layout)
              for d in piece.drawings]
    return Ground(fill, picture, shading, tuple(pieces))


def blend(gradient: Gradient | None, slots: Mapping[str, str]) -> Blend | None:
    """A template's gradient with its stops' colours on the theme's `slots`."""
    if gradient is None:
        return None
    stops = tuple((at, c.on(slots) or "#FFFFFF") for at, c in gradient.stops)
    return Blend(stops, gradient.angle, gradient.radial, gradient.focus)


def art(placer: Placer, d: Drawing, number: int) -> Art:
    """One drawable piece of a template's artwork as drawn; a slide-number field shows
    `number`, set as text in its own size, colour and weight."""
    slots = placer.grounds.slots
    if d.number is not None:
        colour = d.number.colour.on(slots) if d.number.colour is not None else ""
        value = colour or placer.roles["text"]
        size = d.number.size
        para = Para(fmt.ordinal(number), (size,), bold=d.number.bold, colour=None, align="ctr",
                    one_line=True)
        found = set_text([para], [size], d.box, (0, 0, 0, 0), "ctr", placer.faces,
                         placer.roles, BoxLook(Colour(value), "ctr"))
        return Art(d.box, number=TextBox(d.box, found, anchor="ctr", name="Slide number"))
    return Art(d.box, picture=d.picture.data if d.picture is not None else b"",
               fill=_fill_value(d.fill, slots),
               fill_alpha=d.fill.colours[0].alpha if d.fill.colours else 1.0,
               blend=blend(d.fill.gradient, slots),
               line=d.line.on(slots) if d.line is not None else "", line_width=d.line_width,
               ellipse=d.ellipse, steps=d.steps)


def _fill_value(fill: Fill, slots: Mapping[str, str]) -> str:
    if fill.kind == "none":
        return ""
    values = [c.on(slots) for c in fill.colours]
    return next((v for v in values if v), "")
