"""The sheet: sides made of bands of sections, measured before anything is drawn, and drawn."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer

from deckgen import fmt
from deckgen.errors import Problem
from deckgen.paint.handout.flowables import (
    Grid,
    Stack,
    StepHead,
    WriteIn,
)
from deckgen.paint.handout.fonts import (
    font_runs,
)
from deckgen.paint.handout.style import (
    BAND_GAP,
    GUTTER,
    HEADING_GAP,
)
from deckgen.story import Story

# --------------------------------------------------------------------------------------------
# The layout: sections in bands, measured, then drawn


@dataclass
class Section:
    """A run of flowables under one name, with the content key each text came from."""

    name: str
    flowables: list[Flowable] = field(default_factory=list)
    outline: str | None = None  # an entry in the PDF's outline, placed at the section's top

    def add(self, flowable: Flowable, origin: str = "") -> Section:
        self.flowables.append(tagged(flowable, origin))
        return self

    def space(self, height: float) -> Section:
        return self.add(Spacer(1, height))


@dataclass
class Band:
    """Full width (one column) or the grid's two columns, each a list of sections."""

    columns: tuple[list[Section], ...]
    keep_with_next: bool = False  # a heading: never left alone at the foot of a page
    continues: bool = False  # its section goes on in the next band
    flowing: list[Section] | None = None  # what it was balanced from, when a page may cut it
    measured: dict[float, float] = field(default_factory=dict, repr=False, compare=False)


@dataclass
class Side:
    """One side of the sheet, the front or the back: its bands, `gap` apart, or `heading_gap`
    under a heading."""

    name: str
    bands: list[Band]
    gap: float = BAND_GAP
    heading_gap: float = HEADING_GAP

    def after(self, band: Band) -> float:
        """The space under `band` before the next one."""
        return self.heading_gap if band.keep_with_next else self.gap


def column_widths(frame_w: float, count: int) -> list[float]:
    if count == 1:
        return [frame_w]
    return [(frame_w - GUTTER) / 2] * 2


def _flowables(column: list[Section]) -> list[Flowable]:
    return [f for s in column for f in s.flowables]


def _height(flowables: Iterable[Flowable], width: float) -> float:
    return sum(float(f.wrap(width, 10**6)[1]) for f in flowables)


def band_height(band: Band, frame_w: float) -> float:
    """The band's height on a frame `frame_w` wide: its tallest column (measured once)."""
    if frame_w not in band.measured:
        widths = column_widths(frame_w, len(band.columns))
        band.measured[frame_w] = max(_height(_flowables(col), w)
                                     for col, w in zip(band.columns, widths, strict=True))
    return band.measured[frame_w]


def side_height(side: Side, frame_w: float) -> float:
    gaps = [side.after(b) for b in side.bands[:-1]]
    return sum(band_height(b, frame_w) for b in side.bands) + sum(gaps)


def overflow(side: Side, frame_w: float, frame_h: float, story: Story) -> Problem | None:
    """None when the side fits its page; else how far it runs over, where, and the side's
    longest text (the likeliest to shorten), located in the content file."""
    over = side_height(side, frame_w) - frame_h
    if over <= 0.01:
        return None
    top, section = 0.0, None
    for band in side.bands:
        widths = column_widths(frame_w, len(band.columns))
        for column, width in zip(band.columns, widths, strict=True):
            y = top
            for s in column:
                y += _height(s.flowables, width)
                if y > frame_h + 0.01 and section is None:
                    section = s
        if section is not None:
            break
        top += band_height(band, frame_w) + side.after(band)
    lengths: dict[str, int] = {}
    for band in side.bands:
        for f in (f for column in band.columns for s in column for f in s.flowables):
            for _, text, origin in flowable_texts(f):
                if origin:
                    lengths[origin] = lengths.get(origin, 0) + len(text)
    where = f"{section.name} runs past the bottom" if section else "it runs past the bottom"
    message = (f"the handout's {side.name} is {fmt.number(math.ceil(over / mm))} mm too long for "
               f"one page ({where}); its longest text is here: shorten it or others, or build "
               f"with --pages auto to allow more pages")
    if not lengths:
        return Problem(message, story.file)
    origin = max(lengths, key=lambda o: lengths[o])
    place = story.where(origin)
    line, col = place if place else (None, None)
    return Problem(message, story.file, line, col, origin)


def _split_column(flowables: list[Flowable], width: float, room: float,
                  forced: bool) -> tuple[list[Flowable], list[Flowable]]:
    """The flowables that fit in `room`, splitting the one that crosses it, and the rest."""
    head: list[Flowable] = []
    used = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrap(width, room - used)
        if used + h <= room + 0.01:
            head.append(f)
            used += h
            continue
        parts = f.split(width, room - used) if room - used > 0 else []
        if parts:
            head.append(parts[0])
            return head, list(parts[1:]) + flowables[i + 1:]
        if not head and forced:  # cannot split and alone on a fresh page: let it run over
            return [f], flowables[i + 1:]
        return head, flowables[i:]
    return head, []


def _split_sections(column: list[Section], width: float, room: float,
                    forced: bool) -> tuple[list[Section], list[Section]]:
    """A column's sections cut at `room`: what fits, and the rest; outlines stay with the
    part where each section starts."""
    head: list[Section] = []
    used = 0.0
    for k, section in enumerate(column):
        fit, rest = _split_column(section.flowables, width, room - used, forced and not head)
        if fit:
            head.append(Section(section.name, fit, section.outline))
        if rest:
            tail = [Section(section.name, rest, None if fit else section.outline), *column[k + 1:]]
            return head, tail
        used += _height(fit, width)
    return head, []


class SheetPainter:
    """Draws sides onto a canvas: a page per side, or more pages when allowed."""

    def __init__(self, canvas: Canvas, page_w: float, page_h: float, margin: float) -> None:
        self.c = canvas
        self.x0, self.top = margin, page_h - margin
        self.frame_w, self.frame_h = page_w - 2 * margin, page_h - 2 * margin
        self.bookmarks = 0

    def side(self, side: Side, paginate: bool, gap: float) -> None:
        """Draw a side from the top of a fresh page. With `paginate`, a band that does not fit
        moves to a new page, or is cut there when even a page of its own is too short."""
        y = self.top
        pending = list(side.bands)
        while pending:
            band = pending.pop(0)
            after = side.heading_gap if band.keep_with_next else gap
            height = band_height(band, self.frame_w)
            room = y - (self.top - self.frame_h)
            fresh = y == self.top
            if paginate and not fresh:
                needs = height
                if band.keep_with_next and pending:  # a heading wants some of what follows
                    needs += after + min(band_height(pending[0], self.frame_w), 30 * mm)
                if needs > room + 0.01 and (band.keep_with_next or height <= self.frame_h):
                    self._new_page()
                    y = self.top
                    pending.insert(0, band)
                    continue
            if height <= room + 0.01 or not paginate:  # without paginate, measured to fit
                self._draw_band(band, y)
                y -= height + after
                continue
            head, tail = self._split_band(band, room, forced=fresh)
            self._draw_band(head, y)
            if any(_flowables(column) for column in tail.columns):
                self._new_page()
                y = self.top
                pending.insert(0, tail)
            else:
                y -= band_height(head, self.frame_w) + after
        self._new_page()

    def _split_band(self, band: Band, room: float, forced: bool) -> tuple[Band, Band]:
        widths = column_widths(self.frame_w, len(band.columns))
        cuts = [_split_sections(column, width, room, forced)
                for column, width in zip(band.columns, widths, strict=True)]
        return Band(tuple(h for h, _ in cuts)), Band(tuple(t for _, t in cuts))

    def _draw_band(self, band: Band, top: float) -> None:
        """Draw a band's columns left to right, so text extracts in reading order."""
        widths = column_widths(self.frame_w, len(band.columns))
        x = self.x0
        for column, width in zip(band.columns, widths, strict=True):
            y = top
            for section in column:
                if section.outline:
                    key = f"section-{self.bookmarks}"
                    self.bookmarks += 1
                    self.c.bookmarkHorizontal(key, x, y + 2 * mm)
                    self.c.addOutlineEntry(section.outline, key, level=0)
                for f in section.flowables:
                    _, h = f.wrap(width, 10**6)
                    f.drawOn(self.c, x, y - h)
                    y -= h
            x += width + GUTTER

    def _new_page(self) -> None:
        self.c.showPage()


def tagged(flowable: Flowable, origin: str) -> Flowable:
    """Mark a flowable inside another with the content key its text came from."""
    flowable.deckgen_origin = origin
    return flowable


def flowable_texts(flowable: Any, origin: str = "") -> Iterable[tuple[str, str, str]]:
    """Every (font, text, content key) a flowable will draw, to check each glyph exists."""
    origin = getattr(flowable, "deckgen_origin", "") or origin
    if isinstance(flowable, Paragraph):
        # parsed afresh: wrapping reshapes a paragraph's own fragments
        for frag in Paragraph(flowable.text, flowable.style).frags:
            yield frag.fontName, getattr(frag, "text", ""), origin
    elif isinstance(flowable, Stack):
        for inner in flowable.inner:
            yield from flowable_texts(inner, origin)
    elif isinstance(flowable, StepHead):
        yield from flowable_texts(flowable.text, origin)
    elif isinstance(flowable, WriteIn):
        for font, text in font_runs(flowable.label, flowable.style.fontName):
            yield font, text, origin
    elif isinstance(flowable, Grid):
        for row in flowable.cells:
            for cell in row:
                for inner in cell if isinstance(cell, (list, tuple)) else [cell]:
                    yield from flowable_texts(inner, origin)
