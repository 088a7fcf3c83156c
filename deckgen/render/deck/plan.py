"""What goes on a slide, worked out before anything is drawn: boxes, paragraphs and sizes.

Pure: no python-pptx. Lengths are EMU in boxes (the file format's unit, exact integers) and
points in paragraphs and sizes; `pt` and `emu` convert between them, here only. Every text
is measured with the twin of its theme font (deckgen.fonts) and broken by the one line
breaker (deckgen.layout.text), at the largest sizes of its type-scale choices that fit; a
text that cannot fit is a `Misfit` value, never an exception.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from deckgen import fmt, fonts
from deckgen import story as st
from deckgen.layout.fit import Misfit, room
from deckgen.layout.text import (
    Face,
    Overlong,
    break_lines,
    break_runs,
    characters_in,
    longest_word,
)

EMU_PER_IN = 914400
EMU_PER_PT = 12700

# Line pitch as a multiple of the size. Liberation Sans is 1.117 em from ascent to descent.
TIGHT = 1.17
LOOSE = 1.2
WIDTH_SAFETY = 0.96  # leave room for a client whose wrapping measures a little wider


def inch(inches: float) -> int:
    """EMU of `inches`."""
    return round(inches * EMU_PER_IN)


def pt(emu: int) -> float:
    """Points of `emu`."""
    return emu / EMU_PER_PT


def emu(points: float) -> int:
    """EMU of `points`, rounded up so a measured text always has its room."""
    return math.ceil(points * EMU_PER_PT)


@dataclass(frozen=True)
class Box:
    """A rectangle on the slide, in EMU."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def columns(self, widths: Sequence[float], gap: int) -> list[Box]:
        """Split across, in proportion to `widths`, with `gap` between."""
        free = self.w - gap * (len(widths) - 1)
        total = sum(widths)
        out, x = [], self.x
        for i, share in enumerate(widths):
            w = self.right - x if i == len(widths) - 1 else round(free * share / total)
            out.append(Box(x, self.y, w, self.h))
            x += w + gap
        return out

    def rows(self, heights: Sequence[float], gap: int) -> list[Box]:
        free = self.h - gap * (len(heights) - 1)
        total = sum(heights)
        out, y = [], self.y
        for i, share in enumerate(heights):
            h = self.bottom - y if i == len(heights) - 1 else round(free * share / total)
            out.append(Box(self.x, y, self.w, h))
            y += h + gap
        return out

    def grid(self, columns: int, rows: int, gap: int) -> list[Box]:
        return [cell for row in self.rows([1] * rows, gap)
                for cell in row.columns([1] * columns, gap)]

    def top(self, h: int) -> Box:
        return Box(self.x, self.y, self.w, min(h, self.h))

    def bottom_part(self, h: int) -> Box:
        return Box(self.x, self.bottom - h, self.w, h)

    def below(self, y: int, gap: int = 0) -> Box:
        """What is left of the box under `y` (plus `gap`)."""
        top = y + gap
        return Box(self.x, top, self.w, self.bottom - top)

    def moved(self, y: int) -> Box:
        return Box(self.x, y, self.w, self.h)


@dataclass(frozen=True)
class Run:
    text: str
    colour: str | None = None  # a colour role; None keeps the paragraph's
    link: str | None = None
    bold: bool | None = None  # None keeps the paragraph's


@dataclass(frozen=True)
class Para:
    """One paragraph to set: its text, its size choices (from the type scale, largest first),
    its look, and where it came from."""

    text: str
    size: tuple[float, ...]
    bold: bool = False
    caps: bool = False
    colour: str | None = "text"  # None: inherit (placeholders keep the template's colour)
    heading: bool = False  # the theme's heading font
    before: float = 0.0  # points of space above (never on a block's first paragraph)
    line: float = LOOSE
    align: str | None = None  # "l", "r", "ctr"; None inherits
    one_line: bool = False  # a big figure: never wraps
    tracking: float = 0.0  # letter spacing in points
    field: str = ""  # what an error calls it: "title", "card text"
    origin: str = ""  # its key path in content.yaml
    link: str | None = None
    runs: tuple[Run, ...] = ()  # several colours in one paragraph; their texts make `text`
    balance: bool = False  # a heading: rather a size smaller than a last line of one word

    @property
    def shown(self) -> str:
        return self.text.upper() if self.caps else self.text

    def at(self, level: int) -> float:
        """The size at `level` (0: the largest choice), the smallest past the last."""
        return self.size[min(level, len(self.size) - 1)]

    def pin(self, level: int) -> Para:
        """This paragraph with its size fixed at `level`."""
        return replace(self, size=(self.at(level),))


def pinned(blocks: Sequence[Sequence[Para]], level: int) -> list[list[Para]]:
    return [[p.pin(level) for p in block] for block in blocks]


# ---------------------------------------------------------------------------------------------
# Items: what the writer draws


@dataclass
class TextItem:
    box: Box
    paras: list[Para]
    sizes: list[float]
    anchor: str = "t"
    inset: tuple[int, int, int, int] = (0, 0, 0, 0)  # left, top, right, bottom
    fill: tuple[str, float] | None = None  # role, brightness
    outline: tuple[str, float] | None = None  # role, width in points
    name: str = "Text"


@dataclass
class TableItem:
    box: Box
    cells: list[list[list[Para]]]  # row, column, paragraphs
    sizes: list[list[list[float]]]
    widths: list[int]
    heights: list[int]
    highlight: int | None  # a body row, counted from 0
    name: str = "Table"
    margin: tuple[int, int] = (0, 0)  # cell insets: left and right, top and bottom
    header: bool = True  # the first row is a header


@dataclass
class ChartItem:
    """A chart in its box; the writer decides how it is drawn there."""

    box: Box
    chart: st.Chart
    name: str = "Chart"
    size: float = 14.0  # points: the labels of a native chart, from the type scale (>= 14)
    text_pt: float = 16.0  # a picture chart's text size: 16 pt on a 7.5 in slide, scaled with it


@dataclass
class RectItem:
    box: Box
    fill: tuple[str, float] | None = None
    outline: tuple[str, float] | None = None
    name: str = "Rule"


@dataclass
class QrItem:
    """A QR code for `url`, drawn as dark squares in its (square) box."""

    box: Box
    url: str
    name: str = "QR code"


Item = TextItem | TableItem | ChartItem | RectItem | QrItem


@dataclass
class SlidePlan:
    """One slide, planned: its title (paragraphs and sizes), items and notes."""

    kind: str
    title: list[Para]
    title_sizes: list[float]
    items: list[Item]
    notes: str = ""
    cover: bool = False
    extra: dict[str, object] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Fitting text


@dataclass(frozen=True)
class Faces:
    """The measured faces of the theme's fonts."""

    body: Face
    body_bold: Face
    heading: Face
    heading_bold: Face

    @classmethod
    def of(cls, body: str, heading: str) -> Faces:
        return cls(fonts.face(body), fonts.face(body, True), fonts.face(heading),
                   fonts.face(heading, True))

    def of_para(self, p: Para) -> Face:
        if p.heading:
            return self.heading_bold if p.bold else self.heading
        return self.body_bold if p.bold else self.body


# A paragraph's lines at a size and width, by what shapes them (Fitter.lines's key).
Lines = dict[tuple[Any, ...], tuple[str, ...] | Overlong]


class Fitter:
    """Measures and fits paragraphs with one set of faces."""

    def __init__(self, faces: Faces, found: Lines | None = None) -> None:
        self.faces = faces
        # The lines of a paragraph at a size and width, as found: the arrangements of a slide
        # measure the same text again and again (kept for one deck, or handed from build to
        # build for the same faces).
        self.found: Lines = {} if found is None else found

    def width(self, text: str, size: float, bold: bool = False, tracking: float = 0.0,
              heading: bool = False) -> float:
        face = self.faces.of_para(Para(text, (size,), bold=bold, heading=heading))
        return face.width(text, size, tracking)

    def need(self, text: str, size: float, bold: bool = False, tracking: float = 0.0,
             heading: bool = False) -> int:
        """EMU a one-line text needs across, with the width safety margin."""
        return emu(self.width(text, size, bold, tracking, heading) / WIDTH_SAFETY)

    def lines(self, p: Para, size: float, width: float) -> tuple[str, ...] | Overlong:
        # Only what shapes the lines (not the colour, alignment or origin): a plain tuple is
        # quicker to hash and compare than the paragraph.
        key = (p.text, p.caps, p.bold, p.heading, p.tracking, p.one_line, p.runs, size, width)
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = self._lines(p, size, width)
        return found

    def _lines(self, p: Para, size: float, width: float) -> tuple[str, ...] | Overlong:
        face = self.faces.of_para(p)
        if p.one_line:
            wide = face.width(p.shown.replace("\n", " "), size, p.tracking)
            return (p.shown,) if wide <= width + 1e-6 else Overlong(p.shown, wide)
        if any(r.bold is not None and r.bold != p.bold for r in p.runs):  # weights mixed
            runs = [(r.text.upper() if p.caps else r.text,
                     self.faces.of_para(replace(p, bold=p.bold if r.bold is None else r.bold)))
                    for r in p.runs]
            return break_runs(runs, size, width, p.tracking)
        return break_lines(p.shown, face, size, width, p.tracking)

    def para_height(self, p: Para, size: float, width: float) -> float:
        found = self.lines(p, size, width)
        return math.inf if isinstance(found, Overlong) else len(found) * size * p.line

    def height(self, paras: Sequence[Para], sizes: Sequence[float], width: float) -> float:
        """Points `paras` need at `sizes` in a `width`-point column (safety margin applied)."""
        w = width * WIDTH_SAFETY
        return sum((p.before if i else 0.0) + self.para_height(p, s, w)
                   for i, (p, s) in enumerate(zip(paras, sizes, strict=True)))

    def widowed(self, paras: Sequence[Para], sizes: Sequence[float], width: float) -> bool:
        """Whether a heading would end on a line holding one short word."""
        for p, size in zip(paras, sizes, strict=True):
            if p.balance and size != p.size[0] and size == p.size[-1]:
                continue  # at its last choice: a short last line it is
            if p.balance:
                found = self.lines(p, size, width * WIDTH_SAFETY)
                if (not isinstance(found, Overlong) and len(found) > 1 and " " not in found[-1]
                        and len(found[-1]) < 12):
                    return True
        return False

    def fit(self, blocks: Sequence[tuple[Sequence[Para], float, float]]
            ) -> list[list[float]] | Misfit:
        """Sizes for blocks set together (so like parts share one size): the first level of
        their size choices at which every block fits its width x height (points); headings
        rather a size smaller than ending on a lone short word."""
        levels = max((len(p.size) for paras, _, _ in blocks for p in paras), default=1)
        for tidy in (True, False):
            for k in range(levels):
                sizes = [[p.at(k) for p in paras] for paras, _, _ in blocks]
                if all(self.height(paras, s, w) <= h + 0.01
                       and not (tidy and self.widowed(paras, s, w))
                       for (paras, w, h), s in zip(blocks, sizes, strict=True)):
                    return sizes
        for paras, w, h in blocks:
            s = [p.size[-1] for p in paras]
            if self.height(paras, s, w) > h + 0.01:
                return self.misfit(paras, w, h)
        raise AssertionError("unreachable")  # pragma: no cover

    def misfit(self, paras: Sequence[Para], width: float, height: float) -> Misfit:
        """Why `paras` do not fit a width x height (points) box even at their smallest."""
        w = width * WIDTH_SAFETY
        sizes = [p.size[-1] for p in paras]
        for p, size in zip(paras, sizes, strict=True):
            face = self.faces.of_para(p)
            found = self.lines(p, size, w)
            if isinstance(found, Overlong):
                what = "on one line it" if p.one_line else f"the word {found.word!r}"
                return Misfit(p.field, p.origin, p.text,
                              f"at {_pt(size)} {what} needs {_in(found.width)}; the line is "
                              f"{_in(w)} ({room(characters_in(w, face, size), size)})")
        heights = [self.para_height(p, s, w) + (p.before if i else 0.0)
                   for i, (p, s) in enumerate(zip(paras, sizes, strict=True))]
        named = [i for i, p in enumerate(paras) if p.field] or list(range(len(paras)))
        i = max(named, key=lambda k: heights[k])
        p, size = paras[i], sizes[i]
        free = height - (sum(heights) - heights[i]) - (p.before if i else 0.0)
        lines = max(0, math.floor(free / (size * p.line) + 1e-6))
        chars = lines * characters_in(w, self.faces.of_para(p), size)
        return Misfit(p.field, p.origin, p.text, room(chars, size))

    def text_item(self, box: Box, paras: Sequence[Para], *,
                  inset: tuple[int, int, int, int] = (0, 0, 0, 0), anchor: str = "t",
                  fill: tuple[str, float] | None = None,
                  outline: tuple[str, float] | None = None, name: str = "Text",
                  shrink_to_fit: bool = False) -> TextItem | Misfit:
        """A text box whose paragraphs fit `box`; with `shrink_to_fit` the box is cut to the
        height its text needs."""
        w, h = pt(box.w - inset[0] - inset[2]), pt(box.h - inset[1] - inset[3])
        found = self.fit([(paras, w, h)])
        if isinstance(found, Misfit):
            return found
        sizes = found[0]
        if shrink_to_fit:
            need = self.height(paras, sizes, w)
            box = Box(box.x, box.y, box.w, min(box.h, emu(need) + inset[1] + inset[3] + inch(0.02)))
        return TextItem(box, list(paras), sizes, anchor, inset, fill, outline, name)

    def texts_together(self, boxes: Sequence[Box], blocks: Sequence[Sequence[Para]],
                       inset: tuple[int, int, int, int] = (0, 0, 0, 0),
                       name: str = "Text") -> list[TextItem] | Misfit:
        """Several text boxes set at one shared level, so like parts share one size."""
        found = self.fit([(paras, pt(b.w - inset[0] - inset[2]), pt(b.h - inset[1] - inset[3]))
                          for b, paras in zip(boxes, blocks, strict=True)])
        if isinstance(found, Misfit):
            return found
        return [TextItem(b, list(paras), s, inset=inset, name=name)
                for b, paras, s in zip(boxes, blocks, found, strict=True)]

    def needed_height(self, paras: Sequence[Para], width: int, sizes: Sequence[float],
                      inset: tuple[int, int, int, int] = (0, 0, 0, 0)) -> int:
        """EMU height of `paras` set at `sizes` in a box `width` EMU wide."""
        w = pt(width - inset[0] - inset[2])
        return emu(self.height(paras, sizes, w)) + inset[1] + inset[3]

    def longest_word(self, p: Para, size: float) -> float:
        return longest_word(p.shown, self.faces.of_para(p), size, p.tracking)


def _pt(size: float) -> str:
    return fmt.measure(size, "pt")


def _in(points: float) -> str:
    return fmt.measure(points / 72, "in", 1)


def middle(items: list[Item], box: Box) -> list[Item]:
    """`items` moved down together so they sit a little above the middle of `box`."""
    bottom = max(i.box.bottom for i in items)
    shift = max(0, round((box.bottom - bottom) * 0.4))
    for item in items:
        item.box = item.box.moved(item.box.y + shift)
    return items
