"""A content slide's footer: the event and date in the layout's footer placeholder and the
slide's number in its slide-number one (unless the template's artwork shows the number
itself), each at the template's size or smaller where the event line would not fit its box;
text boxes along the bottom for those the layout lacks. deckgen's own master sets them at
FOOTER in the muted colour.

Pure, like all of the plan: a function of the Placer's template, faces and colours.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from deckgen import fmt
from deckgen.box import Box, inch
from deckgen.plan.items import WIDTH_SAFETY, Para
from deckgen.plan.paragraphs import BoxLook, set_text
from deckgen.plan.placed import Colour, Paragraph, TextBox, TextRun
from deckgen.template.model import Layout, Master, Placeholder

if TYPE_CHECKING:
    from deckgen.plan.place import Placer

FOOTER = 12.0  # points: the footer and the slide number, the only text outside the type scale
FOOTER_LEAST = 9.0  # points: the least a template's footer is shrunk to, to keep it on its box


def footers(placer: Placer, number: int, layout: Layout) -> list[TextBox]:
    """The event and date in the layout's footer placeholder, the number in its slide-
    number one (unless its artwork shows the number itself); text boxes along the
    bottom for those the layout lacks."""
    ph = placer.layouts.ph
    master = ph.master(layout)
    words = placer.story.event_line
    done: set[str] = set()
    shapes: list[TextBox] = []
    found_here = [p for p in layout.placeholders if p.kind in ("ftr", "sldNum")]
    if not placer.own and ph.numbers_itself(layout):
        done.add("sldNum")  # the template's artwork shows it
        found_here = [p for p in found_here if p.kind != "sldNum"]
    for p in found_here:
        box = ph.box(p, master)
        footer = p.kind == "ftr"
        if box is None:  # nowhere to show it: the text box below takes it
            continue
        own_size, bold = ph.text_size(p, master)
        if placer.own:
            size, size_kept, colour = FOOTER, False, placer.colour("muted")
        else:
            fitted = footer_size(placer, p, master, words) if footer else None
            size, size_kept = fitted or own_size, fitted is None
            found = placer.grounds.for_placeholder(layout, (p.kind,), box)
            colour = Colour(found) if found is not None else \
                Colour(placer.roles["text"], kept=True)
        inset = ph.insets(p, master)
        anchor = ph.anchor(layout, (p.kind,), "ctr")
        shapes.append(footer_text(placer, footer, words, number, box, inset, anchor, size,
                                       colour, bold, size_kept=size_kept,
                                       placeholder=layout.placeholders.index(p),
                                       wrap=None if placer.own else False))
        done.add(p.kind)
    title = placer.title_box
    band = Box(title.x, ph.height - inch(0.5), title.w, inch(0.34))
    for kind in ("ftr", "sldNum"):
        if kind in done:
            continue
        box = band if kind == "ftr" else Box(band.right - inch(1.2), band.y, inch(1.2),
                                             band.h)
        shapes.append(footer_text(placer, kind == "ftr", words, number, box, (0, 0, 0, 0),
                                       "ctr", FOOTER, placer.colour("muted"), False))
    return shapes


def footer_text(placer: Placer, footer: bool, words: str, number: int, box: Box,
                inset: tuple[int, int, int, int], anchor: str, size: float, colour: Colour,
                bold: bool, *, size_kept: bool = False, placeholder: int | None = None,
                wrap: bool | None = True) -> TextBox:
    """The event line or the slide's number, on one line, at `size`."""
    text = words if footer else fmt.ordinal(number)
    para = Para(text, (size,), bold=bold, colour=None, align="l" if footer else "r",
                one_line=True)
    look = BoxLook(colour, "l")
    found = set_text([para], [size], box, inset, anchor, placer.faces, placer.roles, look)
    run = TextRun(text, colour if not colour.kept else None, bold,
              field="" if footer else "slidenum", face="body")
    paragraph = found[0]
    paragraph = Paragraph((run,), size, 0.0, 0.0, paragraph.align, lines=paragraph.lines,
                          size_kept=size_kept)
    name = "Footer" if footer else "Slide number"
    return TextBox(box, (paragraph,), inset, anchor, anchor_kept=placeholder is not None,
                   wrap=wrap, name=name, placeholder=placeholder,
                   cloned=placeholder is not None)


def footer_size(placer: Placer, p: Placeholder, master: Master, words: str) -> float | None:
    """The size (points) to set a template's footer at so `words` fit its box on one
    line: None when they fit at the template's own size, else the largest half point
    that fits (never under FOOTER_LEAST)."""
    ph = placer.layouts.ph
    box = ph.box(p, master)
    if box is None:
        return None
    own, bold = ph.text_size(p, master)
    inset = ph.insets(p, master)
    room = (box.w - inset[0] - inset[2]) / 12700
    face = placer.faces.typeface(False, bold).measure
    wide = face.width(words, own) / WIDTH_SAFETY
    if wide <= room:
        return None
    return max(FOOTER_LEAST, math.floor(own * room / wide * 2) / 2)
