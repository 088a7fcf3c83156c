"""Measuring and fitting paragraphs with the theme's faces: plain functions of a `Faces`.

Every text is measured with the twin of its theme font (deckgen.fonts) and broken by the one
line breaker (deckgen.typeset.text), at the largest sizes of its type-scale choices that fit; a
text that cannot fit is a `Misfit` value, never an exception. Widths and heights passed in
points are the column's own; the width safety margin is applied here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from deckgen import fmt, fonts
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import WIDTH_SAFETY, Item, Para, TextItem
from deckgen.typeset.fit import Misfit, room
from deckgen.typeset.text import Face, Overlong, break_lines, break_runs, characters_in
from deckgen.typeset.text import longest_word as longest_run


@dataclass(frozen=True)
class Faces:
    """The measured faces of the theme's fonts (each character in the face that draws it),
    and the typefaces they come from."""

    body: Face
    body_bold: Face
    heading: Face
    heading_bold: Face
    typefaces: fonts.Typefaces

    @classmethod
    def of(cls, typefaces: fonts.Typefaces) -> Faces:
        return cls(typefaces.body.measure, typefaces.body_bold.measure,
                   typefaces.heading.measure, typefaces.heading_bold.measure, typefaces)

    def typeface(self, heading: bool, bold: bool) -> fonts.Typeface:
        return self.typefaces.of_weight(heading, bold)

    def of_para(self, p: Para) -> Face:
        return self.of_weight(p.heading, p.bold)

    def of_weight(self, heading: bool, bold: bool) -> Face:
        if heading:
            return self.heading_bold if bold else self.heading
        return self.body_bold if bold else self.body


def text_width(faces: Faces, text: str, size: float, bold: bool = False,
               tracking: float = 0.0, heading: bool = False) -> float:
    """Points one line of `text` takes."""
    return faces.of_weight(heading, bold).width(text, size, tracking)


def need(faces: Faces, text: str, size: float, bold: bool = False, tracking: float = 0.0,
         heading: bool = False) -> int:
    """EMU a one-line text needs across, with the width safety margin."""
    return emu(text_width(faces, text, size, bold, tracking, heading) / WIDTH_SAFETY)


def figure_need(faces: Faces, text: str, size: float) -> int:
    """EMU a big figure (bold, in the heading face, on one line) needs across: with the width
    safety margin and the room of a wider face (fonts.FIGURE_SLACK), so no client breaks it."""
    return emu(text_width(faces, text, size, True, heading=True) * fonts.FIGURE_SLACK
               / WIDTH_SAFETY)


def longest_word(faces: Faces, p: Para, size: float) -> float:
    """Points the widest unbreakable run of `p` takes at `size`."""
    return longest_run(p.shown, faces.of_para(p), size, p.tracking)


def para_lines(faces: Faces, p: Para, size: float, width: float) -> tuple[str, ...] | Overlong:
    """`p` broken into lines `width` points wide at `size` (no safety margin added)."""
    face = faces.of_para(p)
    if p.one_line:  # a figure: room for a client whose face sets it a little wider
        wide = face.width(p.shown.replace("\n", " "), size, p.tracking) * fonts.FIGURE_SLACK
        return (p.shown,) if wide <= width + 1e-6 else Overlong(p.shown, wide)
    if any(r.bold is not None and r.bold != p.bold for r in p.runs):  # weights mixed
        runs = [(r.text.upper() if p.caps else r.text,
                 faces.of_weight(p.heading, p.bold if r.bold is None else r.bold))
                for r in p.runs]
        return break_runs(runs, size, width, p.tracking)
    return break_lines(p.shown, face, size, width, p.tracking)


def para_height(faces: Faces, p: Para, size: float, width: float) -> float:
    found = para_lines(faces, p, size, width)
    return math.inf if isinstance(found, Overlong) else len(found) * size * p.line


def height(faces: Faces, paras: Sequence[Para], sizes: Sequence[float], width: float) -> float:
    """Points `paras` need at `sizes` in a `width`-point column (safety margin applied)."""
    w = width * WIDTH_SAFETY
    return sum((p.before if i else 0.0) + para_height(faces, p, s, w)
               for i, (p, s) in enumerate(zip(paras, sizes, strict=True)))


def widowed(faces: Faces, paras: Sequence[Para], sizes: Sequence[float], width: float) -> bool:
    """Whether a heading would end on a line holding one short word."""
    for p, size in zip(paras, sizes, strict=True):
        if p.balance and size != p.size[0] and size == p.size[-1]:
            continue  # at its last choice: a short last line it is
        if p.balance:
            found = para_lines(faces, p, size, width * WIDTH_SAFETY)
            if (not isinstance(found, Overlong) and len(found) > 1 and " " not in found[-1]
                    and len(found[-1]) < 12):
                return True
    return False


Block = tuple[Sequence[Para], float, float]  # paragraphs, width and height in points


def fit(faces: Faces, blocks: Sequence[Block]) -> list[list[float]] | Misfit:
    """Sizes for blocks set together (so like parts share one size): the first level of
    their size choices at which every block fits its width x height (points); headings
    rather a size smaller than ending on a lone short word."""
    levels = max((len(p.size) for paras, _, _ in blocks for p in paras), default=1)
    for tidy in (True, False):
        for k in range(levels):
            sizes = [[p.at(k) for p in paras] for paras, _, _ in blocks]
            if all(height(faces, paras, s, w) <= h + 0.01
                   and not (tidy and widowed(faces, paras, s, w))
                   for (paras, w, h), s in zip(blocks, sizes, strict=True)):
                return sizes
    for paras, w, h in blocks:
        s = [p.size[-1] for p in paras]
        if height(faces, paras, s, w) > h + 0.01:
            return misfit(faces, paras, w, h)
    raise AssertionError("unreachable")  # pragma: no cover


def misfit(faces: Faces, paras: Sequence[Para], width: float, high: float) -> Misfit:
    """Why `paras` do not fit a width x height (points) box even at their smallest."""
    w = width * WIDTH_SAFETY
    sizes = [p.size[-1] for p in paras]
    for p, size in zip(paras, sizes, strict=True):
        face = faces.of_para(p)
        found = para_lines(faces, p, size, w)
        if isinstance(found, Overlong):
            what = "on one line it" if p.one_line else f"the word {found.word!r}"
            return Misfit(p.field, p.origin, p.text,
                          f"at {_pt(size)} {what} needs {_in(found.width)}; the line is "
                          f"{_in(w)} ({room(characters_in(w, face, size), size)})")
    heights = [para_height(faces, p, s, w) + (p.before if i else 0.0)
               for i, (p, s) in enumerate(zip(paras, sizes, strict=True))]
    named = [i for i, p in enumerate(paras) if p.field] or list(range(len(paras)))
    i = max(named, key=lambda k: heights[k])
    p, size = paras[i], sizes[i]
    free = high - (sum(heights) - heights[i]) - (p.before if i else 0.0)
    lines = max(0, math.floor(free / (size * p.line) + 1e-6))
    chars = lines * characters_in(w, faces.of_para(p), size)
    return Misfit(p.field, p.origin, p.text, room(chars, size))


def _pt(size: float) -> str:
    return fmt.measure(size, "pt")


def _in(points: float) -> str:
    return fmt.measure(points / 72, "in", 1)


Inset = tuple[int, int, int, int]  # left, top, right, bottom
NO_INSET: Inset = (0, 0, 0, 0)


def text_item(faces: Faces, box: Box, paras: Sequence[Para], *, inset: Inset = NO_INSET,
              anchor: str = "t", fill: tuple[str, float] | None = None,
              outline: tuple[str, float] | None = None, name: str = "Text",
              shrink_to_fit: bool = False) -> TextItem | Misfit:
    """A text box whose paragraphs fit `box`; with `shrink_to_fit` the box is cut to the
    height its text needs."""
    w, h = pt(box.w - inset[0] - inset[2]), pt(box.h - inset[1] - inset[3])
    found = fit(faces, [(paras, w, h)])
    if isinstance(found, Misfit):
        return found
    sizes = found[0]
    if shrink_to_fit:
        used = height(faces, paras, sizes, w)
        box = Box(box.x, box.y, box.w, min(box.h, emu(used) + inset[1] + inset[3] + inch(0.02)))
    return TextItem(box, list(paras), sizes, anchor, inset, fill, outline, name)


def texts_together(faces: Faces, boxes: Sequence[Box], blocks: Sequence[Sequence[Para]],
                   inset: Inset = NO_INSET, name: str = "Text") -> list[TextItem] | Misfit:
    """Several text boxes set at one shared level, so like parts share one size."""
    found = fit(faces, [(paras, pt(b.w - inset[0] - inset[2]), pt(b.h - inset[1] - inset[3]))
                        for b, paras in zip(boxes, blocks, strict=True)])
    if isinstance(found, Misfit):
        return found
    return [TextItem(b, list(paras), s, inset=inset, name=name)
            for b, paras, s in zip(boxes, blocks, found, strict=True)]


def needed_height(faces: Faces, paras: Sequence[Para], width: int, sizes: Sequence[float],
                  inset: Inset = NO_INSET) -> int:
    """EMU height of `paras` set at `sizes` in a box `width` EMU wide."""
    w = pt(width - inset[0] - inset[2])
    return emu(height(faces, paras, sizes, w)) + inset[1] + inset[3]


def middle(items: list[Item], box: Box) -> list[Item]:
    """`items` moved down together so they sit a little above the middle of `box`."""
    bottom = max(i.box.bottom for i in items)
    shift = max(0, round((box.bottom - bottom) * 0.4))
    for item in items:
        item.box = item.box.moved(item.box.y + shift)
    return items
