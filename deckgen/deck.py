"""The deck: the story as a PowerPoint file a presenter can open, edit and present as is.

Only this module imports python-pptx (and Pillow, which comes with it). Every text is set in
a real text box, placeholder or native table, at the largest size of its type scale that
fits: each block is measured with the font's real metrics (DejaVu Sans, through Pillow) and
wrapped the way a presentation program wraps, at spaces only, so the figures' no-break
spaces hold. When even the smallest size does not fit, the build stops and names the slide,
the field and its place in content.yaml.

Colours are theme references (text, muted = tx2, accent = accent1), so a `--template`'s
theme colours and fonts carry through; without a template the deck starts from
python-pptx's blank presentation, resized to the aspect and given the content's theme.

The same story gives the same bytes: fixed timestamps in docProps/core.xml and in the zip
(SOURCE_DATE_EPOCH when set, else 2000-01-01T00:00:00Z), parts in a stable order.
"""

from __future__ import annotations

import io
import math
import os
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageFont
from pptx import Presentation
from pptx.enum.dml import MSO_THEME_COLOR
from pptx.enum.shapes import MSO_SHAPE, PP_PLACEHOLDER
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import Slide as PptxSlide
from pptx.slide import SlideLayout
from pptx.util import Emu, Pt

from deckgen import chartcache, fmt, fonts
from deckgen import story as st
from deckgen.content import Theme
from deckgen.errors import InputError, Problem, RenderError

EMU_PER_IN = 914400
EMU_PER_PT = 12700
SLIDE_HEIGHT = 6858000  # 7.5 in, both aspects
SLIDE_WIDTHS = {"16:9": 12192000, "4:3": 9144000}  # 13.333 in and 10 in
DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z, when SOURCE_DATE_EPOCH is not set
ZIP_EPOCH = 315532800  # 1980-01-01, the earliest time a zip entry can carry

# The type scale, in points: (largest, smallest). Text starts at the largest size and
# shrinks no further than the smallest; the back of the room decides the floors.
KICKER = (15.0, 14.0)
TITLE = (40.0, 28.0)
ONE_LINE_TITLE = 34.0  # a title shrinks to this to stay on one line, before it takes two
COVER_TITLE = (54.0, 36.0)
COVER_SUBTITLE = (28.0, 20.0)
COVER_LINE = (22.0, 18.0)
LABEL = (15.0, 14.0)
BODY = (24.0, 18.0)
BODY_FLOOR_NARROW = 16.0
FIGURE = (120.0, 72.0)
FIGURE_SIDE = (72.0, 48.0)  # the slow speed's figure beside the chosen one
FIGURE_ROW = (88.0, 60.0)  # several big figures side by side
FIGURE_LAST = 40.0  # a figure too long for the big sizes (an extreme dial), as a last resort
TABLE = (24.0, 16.0)
CAPTION = (20.0, 18.0)
NOTE = (16.0, 16.0)  # a table's caption when room is short: a footnote, not body text
TABLE_SMALL = (18.0, 16.0)  # the sources, which say the most
TABLE_NARROW_FLOOR = 14.0  # a table on a 4:3 slide, when nothing else makes room
CHART_MIN = round(1.8 * EMU_PER_IN)  # the least height a chart gets
BAR_CHART_MIN = round(2.6 * EMU_PER_IN)  # two bars, their titles and labels at 16 pt
CHART_ROOM = round(2.6 * EMU_PER_IN)  # what a chart gets when a table shares its slide
FOOTER = 12.0

# Line pitch as a multiple of the size. DejaVu Sans is 1.165 em from ascent to descent, so
# exact spacing below that would clip glyphs in some clients.
TIGHT = 1.17
LOOSE = 1.2
WIDTH_SAFETY = 0.96  # leave room for a client whose wrapping measures a little wider

_SCHEME = {"text": "tx1", "muted": "tx2", "accent": "accent1", "background": "bg1", "rule": "bg2"}
_THEME_COLOUR = {"text": MSO_THEME_COLOR.TEXT_1, "muted": MSO_THEME_COLOR.TEXT_2,
                 "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.BACKGROUND_1,
                 "rule": MSO_THEME_COLOR.BACKGROUND_2}
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006"
_PLAIN_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"  # built-in "No Style, No Grid"
_SLIDE_NUMBER_FIELD = "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}"
_FOOTER_TYPES = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)
_TITLE_TYPES = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE)


# ---------------------------------------------------------------------------------------------
# Measuring text


@cache
def _font(bold: bool) -> ImageFont.FreeTypeFont:
    path = fonts.path("bold" if bold else "regular")
    try:
        return ImageFont.truetype(str(path), 1000, layout_engine=ImageFont.Layout.BASIC)
    except OSError as err:
        raise RenderError(f"cannot read the font {path}: {err}") from None


@lru_cache(maxsize=65536)
def _em(text: str, bold: bool) -> float:
    """The advance width of `text` in ems. Wide East Asian characters, which DejaVu Sans lacks,
    count one em each: the width every CJK font gives them."""
    if text.isascii():
        return float(_font(bold).getlength(text)) / 1000
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF")
    rest = "".join(ch for ch in text if unicodedata.east_asian_width(ch) not in "WF")
    return wide + (float(_font(bold).getlength(rest)) / 1000 if rest else 0.0)


def _width(text: str, size: float, bold: bool, tracking: float = 0.0) -> float:
    """Width of one line of `text` in points at `size`."""
    return _em(text, bold) * size + tracking * len(text)


def _wrap(text: str, size: float, width: float, bold: bool, tracking: float = 0.0) -> list[str]:
    """Lines of `text` wrapped greedily at spaces (a no-break space never breaks); a word wider
    than the line is broken between characters, as presentation programs do."""
    return list(_wrapped(text, size, width, bold, tracking))


@lru_cache(maxsize=16384)
def _wrapped(text: str, size: float, width: float, bold: bool, tracking: float) -> tuple[str, ...]:
    """`_wrap`'s lines, kept: fitting asks for the same text at the same size many times."""
    lines: list[str] = []
    for hard in text.split("\n"):
        current = ""
        for word in hard.split(" "):
            candidate = f"{current} {word}" if current else word
            if _width(candidate, size, bold, tracking) <= width + 1e-6:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            if _width(word, size, bold, tracking) <= width + 1e-6:
                current = word
                continue
            for ch in word:
                if current and _width(current + ch, size, bold, tracking) > width:
                    lines.append(current)
                    current = ""
                current += ch
        lines.append(current)
    return tuple(lines)


def _longest_word(text: str, size: float, bold: bool, tracking: float = 0.0) -> float:
    return max((_width(w, size, bold, tracking) for w in re.split(r"[ \n]", text)), default=0.0)


# ---------------------------------------------------------------------------------------------
# Blocks of text and fitting them


@dataclass(frozen=True)
class Run:
    text: str
    colour: str | None = None  # a role from _SCHEME; None keeps the paragraph's
    link: str | None = None
    bold: bool | None = None  # None keeps the paragraph's


@dataclass(frozen=True)
class Para:
    """One paragraph to set: its text, its size range and look, and where it came from."""

    text: str
    size: tuple[float, float]
    bold: bool = False
    caps: bool = False
    colour: str | None = "text"  # None: inherit (placeholders keep the template's colour)
    heading: bool = False  # the theme's heading font
    before: float = 0.0  # points of space above (never on a block's first paragraph)
    line: float = LOOSE
    align: str | None = None  # "l", "r", "ctr"; None inherits
    one_line: bool = False  # a big figure: shrink, never wrap
    tracking: float = 0.0  # letter spacing in points
    field: str = ""  # what an error calls it: "title", "card text"
    origin: str = ""  # its key path in content.yaml
    link: str | None = None
    runs: tuple[Run, ...] = ()  # several colours in one paragraph; their texts make `text`
    balance: bool = False  # a heading: rather a little smaller than a last line of one word

    @property
    def shown(self) -> str:
        return self.text.upper() if self.caps else self.text


class _NoFit(Exception):
    """A block that does not fit at its smallest sizes: the paragraph to blame and why."""

    def __init__(self, culprit: Para, detail: str) -> None:
        super().__init__(detail)
        self.culprit = culprit
        self.detail = detail


def _levels(paras: Sequence[Para]) -> int:
    return max(1, math.ceil(max((p.size[0] - p.size[1] for p in paras), default=0.0)))


def _sizes(paras: Sequence[Para], t: float) -> list[float]:
    """Each paragraph's size at level t (0 = largest, 1 = smallest), in half points."""
    return [round((p.size[0] - t * (p.size[0] - p.size[1])) * 2) / 2 for p in paras]


def _para_height(p: Para, size: float, width: float) -> float:
    if p.one_line and _width(p.shown, size, p.bold, p.tracking) > width + 1e-6:
        return math.inf
    return len(_wrapped(p.shown, size, width, p.bold, p.tracking)) * size * p.line


def _height(paras: Sequence[Para], sizes: Sequence[float], width: float) -> float:
    total = 0.0
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        total += (p.before if i else 0.0) + _para_height(p, size, width)
    return total


def _culprit(paras: Sequence[Para], width: float, height: float) -> _NoFit:
    """Why `paras` do not fit a width x height (points) box even at their smallest."""
    sizes = [p.size[1] for p in paras]
    for p, size in zip(paras, sizes, strict=True):
        wide = _width(p.shown, size, p.bold, p.tracking)
        if p.one_line and wide > width:
            return _NoFit(p, f"at {fmt.measure(size, 'pt')} it is "
                             f"{fmt.measure(wide / 72, 'in', 1)} wide on one line; "
                             f"the space is {fmt.measure(width / 72, 'in', 1)}")
        if _longest_word(p.shown, size, p.bold, p.tracking) > width:
            return _NoFit(p, f"at {fmt.measure(size, 'pt')} a word in it is wider than the "
                             f"{fmt.measure(width / 72, 'in', 1)} space")
    heights = [_para_height(p, s, width) + (p.before if i else 0.0)
               for i, (p, s) in enumerate(zip(paras, sizes, strict=True))]
    named = [i for i, p in enumerate(paras) if p.field] or list(range(len(paras)))
    i = max(named, key=lambda k: heights[k])
    p, size = paras[i], sizes[i]
    need = len(_wrap(p.shown, size, width, p.bold, p.tracking))
    free = height - (sum(heights) - heights[i]) - (p.before if i else 0.0)
    room = max(0, math.floor(free / (size * p.line) + 1e-6))
    return _NoFit(p, f"at {fmt.measure(size, 'pt')} it needs {fmt.count(need)} lines; "
                     f"there is room for {fmt.count(room)}")


def _fit(blocks: Sequence[tuple[Sequence[Para], float, float]]) -> list[list[float]]:
    """Sizes for blocks set together (so they share one level): the largest level at which
    every block's paragraphs fit its width x height (points)."""
    steps = max(_levels(paras) for paras, _, _ in blocks)
    for tidy, k in [(tidy, k) for tidy in (True, False) for k in range(steps + 1)]:
        t = k / steps
        sizes = [_sizes(paras, t) for paras, _, _ in blocks]
        if all(_height(paras, s, w * WIDTH_SAFETY) <= h + 0.01
               and not (tidy and _widowed(paras, s, w * WIDTH_SAFETY))
               for (paras, w, h), s in zip(blocks, sizes, strict=True)):
            return sizes
    for paras, w, h in blocks:
        s = _sizes(paras, 1.0)
        if _height(paras, s, w * WIDTH_SAFETY) > h + 0.01:
            raise _culprit(paras, w * WIDTH_SAFETY, h)
    raise AssertionError("unreachable")  # pragma: no cover


def _widowed(paras: Sequence[Para], sizes: Sequence[float], width: float) -> bool:
    """Whether a heading-like paragraph would end on a line holding one short word (or has
    shrunk by more than is worth it to avoid that)."""
    for p, size in zip(paras, sizes, strict=True):
        if p.balance:
            if size < p.size[0] * 0.85:  # not worth shrinking further for
                return True
            lines = _wrap(p.shown, size, width, p.bold, p.tracking)
            if len(lines) > 1 and " " not in lines[-1] and len(lines[-1]) < 12:
                return True
    return False


def _natural_height(paras: Sequence[Para], sizes: Sequence[float], width: float) -> float:
    return _height(paras, sizes, width * WIDTH_SAFETY)


# ---------------------------------------------------------------------------------------------
# Geometry


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


def _in(inches: float) -> int:
    return round(inches * EMU_PER_IN)


def _pt(emu: int) -> float:
    return emu / EMU_PER_PT


def _inches(emu: int | None) -> Fraction:
    """A template's length, exactly, for the layouts listing."""
    return Fraction(int(emu or 0), EMU_PER_IN)


def _emu(points: float) -> int:
    return math.ceil(points * EMU_PER_PT)


# ---------------------------------------------------------------------------------------------
# What goes on a slide, worked out before anything is drawn


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
class PictureItem:
    box: Box
    chart: st.Chart
    name: str = "Chart"


@dataclass
class RectItem:
    box: Box
    fill: tuple[str, float] | None = None
    outline: tuple[str, float] | None = None
    name: str = "Rule"


Item = TextItem | TableItem | PictureItem | RectItem


def text_item(box: Box, paras: Sequence[Para], *, inset: tuple[int, int, int, int] = (0, 0, 0, 0),
              anchor: str = "t", fill: tuple[str, float] | None = None,
              outline: tuple[str, float] | None = None, name: str = "Text",
              shrink_to_fit: bool = False) -> TextItem:
    """A text box whose paragraphs fit `box` (raises _NoFit); with `shrink_to_fit` the box
    is cut to the height its text needs."""
    w, h = _pt(box.w - inset[0] - inset[2]), _pt(box.h - inset[1] - inset[3])
    sizes = _fit([(paras, w, h)])[0]
    if shrink_to_fit:
        need = _natural_height(paras, sizes, w)
        box = Box(box.x, box.y, box.w, min(box.h, _emu(need) + inset[1] + inset[3] + _in(0.02)))
    return TextItem(box, list(paras), sizes, anchor, inset, fill, outline, name)


def texts_together(boxes: Sequence[Box], blocks: Sequence[Sequence[Para]],
                   inset: tuple[int, int, int, int] = (0, 0, 0, 0), **kw: object) -> list[TextItem]:
    """Several text boxes set at one shared level, so like parts share one size."""
    sizes = _fit([(paras, _pt(b.w - inset[0] - inset[2]), _pt(b.h - inset[1] - inset[3]))
                  for b, paras in zip(boxes, blocks, strict=True)])
    return [TextItem(b, list(paras), s, inset=inset, **kw)  # type: ignore[arg-type]
            for b, paras, s in zip(boxes, blocks, sizes, strict=True)]


def needed_height(paras: Sequence[Para], width: int, sizes: Sequence[float] | None = None,
                  inset: tuple[int, int, int, int] = (0, 0, 0, 0)) -> int:
    """EMU height of `paras` set at `sizes` (default: their largest that fits one width)."""
    w = _pt(width - inset[0] - inset[2])
    if sizes is None:
        sizes = _fit([(paras, w, 1e9)])[0]
    return _emu(_natural_height(paras, sizes, w)) + inset[1] + inset[3]


def table_item(box: Box, cells: list[list[list[Para]]], highlight: int | None, *,
               stretch: bool = True, margin: tuple[int, int] = (_in(0.1), _in(0.045)),
               name: str = "Table", header: bool = True) -> TableItem:
    """A native table at the largest size at which it fits `box`; columns share the width
    in proportion to what their text needs, rows are as tall as their tallest cell. Nothing
    wrapping wins, unless letting only the headers wrap buys a clearly larger size; cells
    wrap only when nothing else fits."""
    flat = [p for row in cells for cell in row for p in cell]
    steps = _levels(flat)
    mx, my = margin
    columns = len(cells[0])

    def attempt(k: int, wrap: str) -> TableItem | None:
        t = k / steps
        sizes = [[_sizes(cell, t) for cell in row] for row in cells]

        def widest(c: int, measure: Callable[[Para, float], float],
                   body_only: bool = False) -> float:
            skip = 1 if body_only and len(cells) > 1 else 0
            rows = zip(cells[skip:], sizes[skip:], strict=True)
            return max(measure(p, s) for row, srow in rows
                       for p, s in zip(row[c], srow[c], strict=True)) / WIDTH_SAFETY + _pt(2 * mx)

        def whole(p: Para, s: float) -> float:
            return max(_width(line, s, p.bold, p.tracking) for line in p.shown.split("\n"))

        least = [widest(c, lambda p, s: _longest_word(p.shown, s, p.bold, p.tracking))
                 for c in range(columns)]
        natural = [widest(c, whole) for c in range(columns)]
        body = ([max(widest(c, whole, True), least[c]) for c in range(columns)] if header
                else natural)
        room = _pt(box.w)
        if sum(least) > room or (wrap == "none" and sum(natural) > room) or (
                wrap == "headers" and sum(body) > room):
            return None
        if sum(natural) <= room:
            spare = room - sum(natural) if stretch else 0.0
            choices = [[n + spare * n / sum(natural) for n in natural]]
        elif wrap == "headers":
            spare = room - sum(body)
            choices = [[b + spare * b / sum(body) for b in body]]
        else:
            k_ = (room - sum(least)) / (sum(natural) - sum(least))
            choices = [[lo + k_ * (n - lo) for lo, n in zip(least, natural, strict=True)]]
            # Or: numbers whole (their headers may wrap), the words share what is left.
            numeric = [cells[-1][c][0].align == "r" for c in range(columns)]
            fixed = [body[c] if numeric[c] else 0.0 for c in range(columns)]
            left = room - sum(fixed)
            words = [c for c in range(columns) if not numeric[c]]
            lo_w = sum(least[c] for c in words)
            hi_w = sum(natural[c] for c in words)
            if words and left >= lo_w:
                k2 = min(1.0, (left - lo_w) / (hi_w - lo_w)) if hi_w > lo_w else 1.0
                choice = list(fixed)
                for c in words:
                    choice[c] = least[c] + k2 * (natural[c] - least[c])
                choice[words[-1]] += room - sum(choice)
                choices.append(choice)

        def row_heights(widths: list[float]) -> list[float]:
            return [max(_natural_height(cell, s, w - _pt(2 * mx))
                        for cell, s, w in zip(row, srow, widths, strict=True)) + _pt(2 * my)
                    for row, srow in zip(cells, sizes, strict=True)]

        widths, heights = min(((w, row_heights(w)) for w in choices), key=lambda wh: sum(wh[1]))
        if sum(heights) > _pt(box.h):
            return None
        emu_w = [_emu(w) for w in widths]
        emu_w[-1] -= max(0, sum(emu_w) - box.w)
        emu_h = [_emu(h) for h in heights]
        used = Box(box.x, box.y, sum(emu_w), sum(emu_h))
        return TableItem(used, cells, sizes, emu_w, emu_h, highlight, name, margin, header)

    def first(wrap: str) -> TableItem | None:
        return next((t for k in range(steps + 1) if (t := attempt(k, wrap)) is not None), None)

    def body_size(item: TableItem) -> float:
        return item.sizes[-1][0][0]

    tidy, headers = first("none"), first("headers")
    if tidy is not None and (headers is None or body_size(headers) < body_size(tidy) * 1.2):
        return tidy
    found = headers or first("any")
    if found is not None:
        return found
    # Blame the cell that needs the most height at the smallest size.
    sizes = [[_sizes(cell, 1.0) for cell in row] for row in cells]
    share = _pt(box.w) / columns - _pt(2 * mx)
    worst = max(((p, s) for row, srow in zip(cells, sizes, strict=True)
                 for cell, sc in zip(row, srow, strict=True)
                 for p, s in zip(cell, sc, strict=True) if p.field or p.origin),
                key=lambda ps: len(ps[0].text), default=None)
    if worst is None:
        worst = (flat[0], flat[0].size[1])
    p, s = worst
    rows_h = _pt(box.h)
    raise _NoFit(p, f"the table needs more than the {fmt.measure(rows_h / 72, 'in', 1)} of "
                    f"height there is, even at {fmt.measure(s, 'pt')} "
                    f"(about {fmt.measure(share / 72, 'in', 1)} per column)")


# ---------------------------------------------------------------------------------------------
# Drawing


def _colour_xml(role: str, brightness: float = 0.0) -> str:
    mods = ""
    if brightness > 0:
        mods = (f'<a:lumMod val="{round((1 - brightness) * 100000)}"/>'
                f'<a:lumOff val="{round(brightness * 100000)}"/>')
    elif brightness < 0:
        mods = f'<a:lumMod val="{round((1 + brightness) * 100000)}"/>'
    return f'<a:solidFill><a:schemeClr val="{_SCHEME[role]}">{mods}</a:schemeClr></a:solidFill>'


def _line_xml(tag: str, role: str | None, width_pt: float) -> str:
    if role is None:
        return f'<a:{tag} w="0"><a:noFill/></a:{tag}>'
    return f'<a:{tag} w="{round(width_pt * EMU_PER_PT)}" cmpd="sng">{_colour_xml(role)}</a:{tag}>'


_ALIGN = {"l": PP_ALIGN.LEFT, "r": PP_ALIGN.RIGHT, "ctr": PP_ALIGN.CENTER}


def _write(text_frame, paras: Sequence[Para], sizes: Sequence[float], *,  # noqa: ANN001
           placeholder: bool = False) -> None:
    """Set `paras` into a text frame, replacing what was there."""
    text_frame.clear()
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        paragraph = text_frame.paragraphs[0] if i == 0 else text_frame.add_paragraph()
        if p.align or not placeholder:  # shapes centre their text unless told otherwise
            paragraph.alignment = _ALIGN[p.align or "l"]
        paragraph.line_spacing = Pt(size * p.line)
        paragraph.space_before = Pt(p.before if i else 0)
        paragraph.space_after = Pt(0)
        if placeholder:  # a template's body style may bring bullets and indents
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "0")
            p_pr.set("indent", "0")
            p_pr.insert_element_before(_xml("<a:buNone/>")[0], "a:tabLst", "a:defRPr", "a:extLst")
        for run_spec in p.runs or (Run(p.text),):
            run = paragraph.add_run()
            run.text = run_spec.text
            font = run.font
            font.size = Pt(size)
            font.bold = p.bold if run_spec.bold is None else run_spec.bold
            colour = run_spec.colour or p.colour
            if colour:
                font.color.theme_color = _THEME_COLOUR[colour]
            if p.heading:
                font.name = "+mj-lt"
            r_pr = run._r.get_or_add_rPr()
            r_pr.set("lang", "en-US")
            if p.caps:
                r_pr.set("cap", "all")
            if p.tracking:
                r_pr.set("spc", str(round(p.tracking * 100)))
            if run_spec.link or p.link:
                run.hyperlink.address = run_spec.link or p.link


def _body(text_frame, inset: tuple[int, int, int, int], anchor: str | None) -> None:  # noqa: ANN001
    text_frame.word_wrap = True
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    text_frame.margin_left, text_frame.margin_top = Emu(inset[0]), Emu(inset[1])
    text_frame.margin_right, text_frame.margin_bottom = Emu(inset[2]), Emu(inset[3])
    if anchor:  # None keeps a template's own
        text_frame.vertical_anchor = {"t": MSO_ANCHOR.TOP, "ctr": MSO_ANCHOR.MIDDLE,
                                      "b": MSO_ANCHOR.BOTTOM}[anchor]


def _plain_shape(slide: PptxSlide, box: Box, fill: tuple[str, float] | None,
                 outline: tuple[str, float] | None, name: str):  # noqa: ANN202
    shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(box.x), Emu(box.y), Emu(box.w),
                                   Emu(box.h))
    shape.name = name
    style = shape._element.find(qn("p:style"))
    if style is not None:  # the default style would bring an accent fill and a shadow
        shape._element.remove(style)
    if fill:
        shape.fill.solid()
        shape.fill.fore_color.theme_color = _THEME_COLOUR[fill[0]]
        if fill[1]:
            shape.fill.fore_color.brightness = fill[1]
    else:
        shape.fill.background()
    if outline:
        shape.line.fill.solid()
        shape.line.fill.fore_color.theme_color = _THEME_COLOUR[outline[0]]
        shape.line.width = Pt(outline[1])
    else:
        shape.line.fill.background()
    return shape


def _draw(slide: PptxSlide, items: Sequence[Item], theme: Theme, charts: str = "native") -> None:
    for item in items:
        if isinstance(item, TextItem):
            if item.fill or item.outline:
                shape = _plain_shape(slide, item.box, item.fill, item.outline, item.name)
            else:
                shape = slide.shapes.add_textbox(Emu(item.box.x), Emu(item.box.y),
                                                 Emu(item.box.w), Emu(item.box.h))
                shape.name = item.name
            _body(shape.text_frame, item.inset, item.anchor)
            _write(shape.text_frame, item.paras, item.sizes)
        elif isinstance(item, RectItem):
            _plain_shape(slide, item.box, item.fill, item.outline, item.name)
        elif isinstance(item, PictureItem) and charts == "native":
            from deckgen import deck_charts

            deck_charts.add_chart(slide, item.chart, item.box.x, item.box.y, item.box.w,
                                  item.box.h, name=item.name, created=_moment())
        elif isinstance(item, PictureItem):
            png = chartcache.render(item.chart, theme, width_in=item.box.w / EMU_PER_IN,
                                    height_in=item.box.h / EMU_PER_IN, fmt="png", dpi=200,
                                    font_pt=16.0)
            picture = slide.shapes.add_picture(io.BytesIO(png), Emu(item.box.x), Emu(item.box.y),
                                               Emu(item.box.w), Emu(item.box.h))
            picture.name = item.name
            c_nv_pr = picture._element.nvPicPr.cNvPr
            c_nv_pr.set("descr", item.chart.alt_text)
            c_nv_pr.set("title", item.chart.title)
        else:
            _draw_table(slide, item)


def _draw_table(slide: PptxSlide, item: TableItem) -> None:
    rows, columns = len(item.cells), len(item.cells[0])
    frame = slide.shapes.add_table(rows, columns, Emu(item.box.x), Emu(item.box.y),
                                   Emu(item.box.w), Emu(item.box.h))
    frame.name = item.name
    table = frame.table
    tbl_pr = table._tbl.tblPr
    tbl_pr.set("firstRow", "1" if item.header else "0")
    tbl_pr.set("bandRow", "0")
    style_id = tbl_pr.find(qn("a:tableStyleId"))
    if style_id is not None:
        style_id.text = _PLAIN_TABLE
    for c, w in enumerate(item.widths):
        table.columns[c].width = Emu(w)
    for r, h in enumerate(item.heights):
        table.rows[r].height = Emu(h)
    for r in range(rows):
        body = r - 1
        for c in range(columns):
            cell = table.cell(r, c)
            cell.margin_left = cell.margin_right = Emu(item.margin[0])
            cell.margin_top = cell.margin_bottom = Emu(item.margin[1])
            cell.vertical_anchor = MSO_ANCHOR.TOP
            _write(cell.text_frame, item.cells[r][c], item.sizes[r][c])
            top = ("text", 1.5) if r == 0 else None
            strong = r == rows - 1 or (r == 0 and item.header)
            bottom = ("text", 1.0) if strong else ("rule", 0.75)
            ours = item.highlight is not None and body == item.highlight
            fill = ("accent", 0.78) if ours else None
            _cell_look(cell, top, bottom, fill)


def _cell_look(cell, top: tuple[str, float] | None, bottom: tuple[str, float] | None,  # noqa: ANN001
               fill: tuple[str, float] | None) -> None:
    tc_pr = cell._tc.get_or_add_tcPr()
    for child in list(tc_pr):
        tc_pr.remove(child)
    parts = [_line_xml("lnL", None, 0), _line_xml("lnR", None, 0),
             _line_xml("lnT", top[0] if top else None, top[1] if top else 0),
             _line_xml("lnB", bottom[0] if bottom else None, bottom[1] if bottom else 0),
             _colour_xml(*fill) if fill else "<a:noFill/>"]
    for child in list(_xml("".join(parts))):
        tc_pr.append(child)


def _xml(snippet: str):  # noqa: ANN202
    """DrawingML elements from a snippet, under a throwaway root that declares `a:`."""
    return parse_xml(f"<root {nsdecls('a')}>{snippet}</root>")


# ---------------------------------------------------------------------------------------------
# The template: python-pptx's blank presentation made ours, or the presenter's own


def _open(told: st.Story, template: bytes | None) -> tuple[PresentationObject, bool]:
    if template is None:
        return _default_presentation(told.meta.aspect, told.theme), True
    try:
        prs = Presentation(io.BytesIO(template))
    except Exception as err:  # python-pptx raises many kinds for a file that is not a deck
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({_why(err)}); save the "
                                 "template as .pptx and try again", path="--template")) from None
    _drop_slides(prs)
    return prs, False


def _why(err: Exception) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return text[:120]


def _drop_slides(prs: PresentationObject) -> None:
    """Remove a template's own slides; their parts are then unreachable and not saved."""
    id_list = prs.slides._sldIdLst
    for sld_id in list(id_list):
        prs.part.drop_rel(sld_id.rId)
        id_list.remove(sld_id)


def _default_presentation(aspect: str, theme: Theme) -> PresentationObject:
    """python-pptx's blank presentation, resized to `aspect`, with the content's theme and a
    master laid out for a talk: kicker and title at the top left, footer along the bottom."""
    prs = Presentation()
    width = SLIDE_WIDTHS[aspect]
    ratio = width / prs.slide_width
    prs.slide_width, prs.slide_height = Emu(width), Emu(SLIDE_HEIGHT)
    sld_sz = prs.part._element.find(qn("p:sldSz"))
    sld_sz.attrib.pop("type", None)
    _set_theme(prs, theme)

    margin = _in(0.6 if aspect == "16:9" else 0.5)
    inner = width - 2 * margin
    master = prs.slide_master
    places = {
        PP_PLACEHOLDER.TITLE: Box(margin, _in(0.72), inner, _in(1.32)),
        PP_PLACEHOLDER.BODY: Box(margin, _in(2.3), inner, _in(4.5)),
        PP_PLACEHOLDER.DATE: Box(margin + inner - _in(4.2), _in(7.04), _in(2.2), _in(0.3)),
        PP_PLACEHOLDER.FOOTER: Box(margin, _in(7.04), round(inner * 0.7), _in(0.3)),
        PP_PLACEHOLDER.SLIDE_NUMBER: Box(margin + inner - _in(1.5), _in(7.04), _in(1.5), _in(0.3)),
    }
    for ph in master.placeholders:
        box = places.get(ph.placeholder_format.type)
        if box:
            ph.left, ph.top, ph.width, ph.height = Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h)
        body_pr = ph._element.txBody.find(qn("a:bodyPr"))
        for key in ("lIns", "rIns"):
            body_pr.set(key, "0")
        if ph.placeholder_format.type == PP_PLACEHOLDER.TITLE:
            body_pr.set("anchor", "t")
            body_pr.set("tIns", "0")
            body_pr.set("bIns", "0")
            for child in list(body_pr):
                body_pr.remove(child)
            body_pr.append(_xml("<a:noAutofit/>")[0])
        if ph.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
            for lvl in ph._element.txBody.iter(qn("a:lvl1pPr")):
                lvl.set("algn", "l")
    title_style = master._element.find(qn("p:txStyles")).find(qn("p:titleStyle"))
    lvl1 = title_style.find(qn("a:lvl1pPr"))
    lvl1.set("algn", "l")
    lvl1.find(qn("a:defRPr")).set("b", "1")
    lvl1.find(qn("a:defRPr")).set("sz", "4000")

    for layout in prs.slide_layouts:
        for ph in layout.placeholders:
            kind = ph.placeholder_format.type
            xfrm = ph._element.spPr.find(qn("a:xfrm"))
            if xfrm is None:
                continue
            if kind in (PP_PLACEHOLDER.TITLE, *_FOOTER_TYPES):
                ph._element.spPr.remove(xfrm)  # follow the master
            elif kind == PP_PLACEHOLDER.CENTER_TITLE:
                ph.left, ph.top, ph.width, ph.height = (Emu(margin), Emu(_in(2.05)), Emu(inner),
                                                        Emu(_in(1.9)))
                body_pr = ph._element.txBody.find(qn("a:bodyPr"))
                body_pr.set("anchor", "b")
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
            elif kind == PP_PLACEHOLDER.SUBTITLE:
                ph.left, ph.top, ph.width, ph.height = (Emu(margin), Emu(_in(4.25)), Emu(inner),
                                                        Emu(_in(2.45)))
                body_pr = ph._element.txBody.find(qn("a:bodyPr"))
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
                for lvl in ph._element.txBody.find(qn("a:lstStyle")):
                    lvl.set("algn", "l")
            else:
                off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
                off.set("x", str(round(int(off.get("x")) * ratio)))
                ext.set("cx", str(round(int(ext.get("cx")) * ratio)))
    return prs


def _set_theme(prs: PresentationObject, theme: Theme) -> None:
    """Write the content's colours and fonts into the theme every slide refers to."""
    part = prs.slide_master.part.part_related_by(RT.THEME)
    xml = part.blob.decode("utf-8")
    colours = {"dk1": theme.text, "lt1": theme.background, "dk2": theme.muted, "lt2": theme.rule,
               "accent1": theme.accent, "accent2": theme.muted, "accent3": theme.rule,
               "hlink": theme.accent, "folHlink": theme.muted}
    for slot, value in colours.items():
        xml = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                     f'<a:{slot}><a:srgbClr val="{value.lstrip("#").upper()}"/></a:{slot}>', xml,
                     count=1, flags=re.S)
    for kind, family in (("majorFont", theme.heading_font), ("minorFont", theme.body_font)):
        xml = re.sub(rf'(<a:{kind}><a:latin typeface=")[^"]*(")', rf"\g<1>{_xml_attr(family)}\g<2>",
                     xml, count=1)
    xml = re.sub(r'(<a:theme [^>]*name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    xml = re.sub(r'(<a:clrScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    xml = re.sub(r'(<a:fontScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    part._blob = xml.encode("utf-8")


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attr(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def _theme_of(prs: PresentationObject, fallback: Theme) -> Theme:
    """The colours and fonts of a deck's theme, for drawing its charts."""
    xml = prs.slide_master.part.part_related_by(RT.THEME).blob.decode("utf-8", "replace")

    def colour(slot: str, default: str) -> str:
        found = re.search(rf"<a:{slot}>\s*<a:(?:srgbClr val|sysClr [^>]*lastClr)="
                          rf"\"([0-9A-Fa-f]{{6}})\"", xml)
        return f"#{found.group(1).upper()}" if found else default

    def family(kind: str, default: str) -> str:
        found = re.search(rf'<a:{kind}>\s*<a:latin typeface="([^"]+)"', xml)
        return found.group(1) if found else default

    return replace(fallback, text=colour("dk1", fallback.text),
                   background=colour("lt1", fallback.background),
                   muted=colour("dk2", fallback.muted), rule=colour("lt2", fallback.rule),
                   accent=colour("accent1", fallback.accent),
                   heading_font=family("majorFont", fallback.heading_font),
                   body_font=family("minorFont", fallback.body_font))


def _layouts(prs: PresentationObject) -> Iterator[tuple[int, int, SlideLayout]]:
    for m, master in enumerate(prs.slide_masters):
        for i, layout in enumerate(master.slide_layouts):
            yield m, i, layout


def _types(layout: SlideLayout) -> list[PP_PLACEHOLDER]:
    return [ph.placeholder_format.type for ph in layout.placeholders]


def pick_layouts(prs: PresentationObject) -> tuple[SlideLayout, SlideLayout]:
    """The title slide's layout and the content slides' layout, chosen by the kinds of
    placeholder they hold, never by name."""
    layouts = [layout for _, _, layout in _layouts(prs)]
    kinds_of = {lay.part: _types(lay) for lay in layouts}  # each layout's placeholders, once

    def types_of(layout: SlideLayout) -> list[PP_PLACEHOLDER]:
        return kinds_of[layout.part]

    titled = [lay for lay in layouts if any(t in _TITLE_TYPES for t in types_of(lay))]
    if not titled:
        raise InputError(Problem("no slide layout in the template has a title placeholder",
                                 path="--template"))

    def extras(layout: SlideLayout) -> int:
        return sum(1 for t in types_of(layout) if t not in (*_TITLE_TYPES, *_FOOTER_TYPES))

    content_pool = [lay for lay in titled if PP_PLACEHOLDER.TITLE in types_of(lay)] or titled
    content = min(content_pool, key=extras)  # "Title Only" when there is one

    def cover_rank(layout: SlideLayout) -> tuple[int, int]:
        kinds = types_of(layout)
        has_sub = PP_PLACEHOLDER.SUBTITLE in kinds
        if PP_PLACEHOLDER.CENTER_TITLE in kinds and has_sub:
            return (0, extras(layout))
        if has_sub:
            return (1, extras(layout))
        if PP_PLACEHOLDER.BODY in kinds:
            return (2, extras(layout))
        return (3, extras(layout))

    cover = min(titled, key=cover_rank)
    return cover, content


# ---------------------------------------------------------------------------------------------
# One slide at a time


class _Deck:
    def __init__(self, prs: PresentationObject, told: st.Story, own: bool,
                 charts: str = "native") -> None:
        self.prs = prs
        self.charts = charts  # "native" chart parts, or "picture" (matplotlib PNGs)
        self.told = told
        self.own = own
        self.cover, self.content = pick_layouts(prs)
        self.theme = told.theme if own else _theme_of(prs, told.theme)
        self.width, self.height = int(prs.slide_width), int(prs.slide_height)
        self.wide = self.width / self.height > 1.5
        self.dial_look: tuple[str, tuple[float, float]] | None = None
        self.relaxed = True  # whether a slide may settle for its fallback arrangements
        # Layouts and masters do not change while the slides are added: their placeholders
        # (each a search of the part's XML in python-pptx) are listed once per part.
        self._places: dict[object, list[tuple[PP_PLACEHOLDER, Any]]] = {}
        self._tops: dict[int, int] = {}
        self._title_boxes: dict[object, Box] = {}
        self._layout_insets: tuple[int, int, int, int] | None = None

    def fallbacks(self, *variants: Callable[[], list[Item]]) -> list[Callable[[], list[Item]]]:
        """`variants` when the slide may settle for less, else none."""
        return list(variants) if self.relaxed else []

    def body(self, size: tuple[float, float]) -> tuple[float, float]:
        """A body text's size range: never below 18 pt on a wide slide; a 4:3 slide, narrower
        for the same height, may go to 16 pt when nothing else makes room."""
        return size if self.wide else (size[0], min(size[1], BODY_FLOOR_NARROW))

    # -- errors

    def fail(self, number: int, err: _NoFit) -> InputError:
        p = err.culprit
        where = self.told.where(p.origin) if p.origin else None
        what = p.field or "text"
        advice = "; shorten it" if p.origin else ""  # a computed figure cannot be shortened
        message = (f"slide {number}: the {what} does not fit ({fmt.count(len(p.text))} characters; "
                   f"{err.detail}){advice}")
        return InputError(Problem(message, self.told.file, where[0] if where else None,
                                  where[1] if where else None, p.origin or None))

    # -- the parts every slide shares

    def new_slide(self, layout: SlideLayout) -> PptxSlide:
        """A slide on `layout` with only its title (and, on the cover, one subtitle or body
        placeholder) left of the placeholders the layout brings."""
        slide = self.prs.slides.add_slide(layout)
        second = None
        if layout is self.cover:
            kinds = [ph.placeholder_format.type for ph in slide.placeholders]
            second = (PP_PLACEHOLDER.SUBTITLE if PP_PLACEHOLDER.SUBTITLE in kinds
                      else PP_PLACEHOLDER.BODY)
        for ph in list(slide.placeholders):
            kind = ph.placeholder_format.type
            if kind in _TITLE_TYPES:
                continue
            if kind == second:
                second = None  # keep the first one only
                continue
            ph._element.getparent().remove(ph._element)
        return slide

    def footer(self, slide: PptxSlide, number: int) -> None:
        """The event and date in the footer placeholder, the number in the slide-number one."""
        words = self.told.event_line
        placed = set()
        for kind, lph in self.places(self.content):
            if kind not in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER):
                continue
            slide.shapes.clone_placeholder(lph)
            ph = slide.placeholders[lph.placeholder_format.idx]
            self._footer_text(ph.text_frame, kind, words, number)
            placed.add(kind)
        title = self._title_box(self.content)
        band = Box(title.x, self.height - _in(0.5), title.w, _in(0.34))
        for kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER):
            if kind in placed:
                continue
            box = (band if kind == PP_PLACEHOLDER.FOOTER
                   else Box(band.right - _in(1.2), band.y, _in(1.2), band.h))
            shape = slide.shapes.add_textbox(Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h))
            shape.name = "Footer" if kind == PP_PLACEHOLDER.FOOTER else "Slide number"
            _body(shape.text_frame, (0, 0, 0, 0), "ctr")
            self._footer_text(shape.text_frame, kind, words, number, box=True)

    def _footer_text(self, text_frame, kind: PP_PLACEHOLDER, words: str, number: int,  # noqa: ANN001
                     box: bool = False) -> None:
        paragraph = text_frame.paragraphs[0]
        styled = box or self.own  # a template keeps its own footer look, but the body font
        paragraph.alignment = PP_ALIGN.LEFT if kind == PP_PLACEHOLDER.FOOTER else PP_ALIGN.RIGHT
        size = f' sz="{round(FOOTER * 100)}"' if styled else ""
        fill = '<a:solidFill><a:schemeClr val="tx2"/></a:solidFill>' if styled else ""
        look = f'<a:rPr lang="en-US"{size}>{fill}<a:latin typeface="+mn-lt"/></a:rPr>'
        if kind == PP_PLACEHOLDER.FOOTER:
            paragraph._p.append(_xml(f"<a:r>{look}<a:t>{_xml_text(words)}</a:t></a:r>")[0])
        else:
            paragraph._p.append(_xml(f'<a:fld id="{_SLIDE_NUMBER_FIELD}" type="slidenum">'
                                     f"{look}<a:t>{number}</a:t></a:fld>")[0])

    def places(self, owner: Any) -> list[tuple[PP_PLACEHOLDER, Any]]:  # noqa: ANN401
        """A layout's or master's placeholders with their kinds, read once per part."""
        found = self._places.get(owner.part)
        if found is None:
            found = [(ph.placeholder_format.type, ph) for ph in owner.placeholders]
            self._places[owner.part] = found
        return found

    def _top(self, ph: Any) -> int:  # noqa: ANN401
        """A listed layout placeholder's top (inherited from its master when it has none)."""
        top = self._tops.get(id(ph))
        if top is None:
            top = self._tops[id(ph)] = int(ph.top)
        return top

    def _title_box(self, layout: SlideLayout) -> Box:
        box = self._title_boxes.get(layout.part)
        if box is not None:
            return box
        for kind, ph in self.places(layout):
            if kind in _TITLE_TYPES:
                box = Box(int(ph.left), int(ph.top), int(ph.width), int(ph.height))
                self._title_boxes[layout.part] = box
                return box
        raise AssertionError("layouts are picked for their title")  # pragma: no cover

    def _insets(self, ph) -> tuple[int, int, int, int]:  # noqa: ANN001
        """A slide or layout placeholder's text insets: its own, else its layout's, else its
        master's, else the format's defaults."""
        kind = ph.placeholder_format.type
        chain = [ph._element]
        layout = getattr(ph.part, "slide_layout", None)
        if layout is not None:
            match = next((lph for lkind, lph in self.places(layout) if lkind == kind), None)
            if match is not None:
                chain.append(match._element)
        master = layout.slide_master if layout is not None else ph.part.slide_master
        family = {PP_PLACEHOLDER.CENTER_TITLE: PP_PLACEHOLDER.TITLE,
                  PP_PLACEHOLDER.SUBTITLE: PP_PLACEHOLDER.BODY}.get(kind, kind)
        chain += [mph._element for mkind, mph in self.places(master)
                  if mkind in (kind, family)][:1]
        values = []
        for key, default in (("lIns", 91440), ("tIns", 45720), ("rIns", 91440), ("bIns", 45720)):
            for element in chain:
                body_pr = element.find(qn("p:txBody") + "/" + qn("a:bodyPr"))
                if body_pr is not None and body_pr.get(key) is not None:
                    values.append(int(body_pr.get(key)))
                    break
            else:
                values.append(default)
        return values[0], values[1], values[2], values[3]

    def _layout_title(self):  # noqa: ANN202
        return next(ph for kind, ph in self.places(self.content) if kind in _TITLE_TYPES)

    def header(self, kicker: str, headline: st.Text, what: str,
               squeeze: bool = False) -> tuple[list[Para], list[float], list[Item], Box, int]:
        """Plan the kicker and the title: the title's paragraphs and sizes, the kicker's item,
        the frame left for content and the title's line count. A title takes one line when
        it can at a little under the largest size, else two; `squeeze` asks for one line at
        any size down to the floor, to give the content more room."""
        title = self._layout_title()  # every content slide's title sits where its layout's does
        box = self._title_box(self.content)
        if self._layout_insets is None:
            self._layout_insets = self._insets(title)
        inset = self._layout_insets
        paras = [Para(headline.text, TITLE, bold=True, colour=None, line=TIGHT, field=what,
                      origin=headline.origin, balance=True)]
        width, height = _pt(box.w - inset[0] - inset[2]), _pt(box.h - inset[1] - inset[3])
        one_line = [replace(paras[0], size=(TITLE[0], TITLE[1] if squeeze else ONE_LINE_TITLE),
                            one_line=True)]
        try:
            sizes = _fit([(one_line, width, height)])[0]
        except _NoFit:
            if squeeze:
                raise
            sizes = _fit([(paras, width, height)])[0]
        lines = len(_wrap(paras[0].shown, sizes[0], width * WIDTH_SAFETY, True))

        left, right = box.x + inset[0], box.right - inset[2]
        bottom = self.height - _in(0.6)
        for kind, lph in self.places(self.content):
            if kind in _FOOTER_TYPES and self._top(lph) > self.height // 2:
                bottom = min(bottom, self._top(lph) - _in(0.1))
        if self.own:
            used = needed_height(paras, box.w - inset[0] - inset[2], sizes)
            top = box.y + inset[1] + used + _in(0.28)
        else:
            top = box.bottom + _in(0.15)
        items: list[Item] = []
        if kicker:
            k_h = _in(0.34)
            k_y = box.y + inset[1] - k_h - _in(0.06)
            if k_y < _in(0.12):
                k_y, top = top, top + k_h + _in(0.08)
            k_para = [Para(kicker, KICKER, bold=True, caps=True, colour="accent", tracking=1.2,
                           field="kicker", origin=self._kicker_origin(headline))]
            items.append(text_item(Box(left, k_y, right - left, k_h), k_para, anchor="b",
                                   name="Kicker"))
        return paras, sizes, items, Box(left, top, right - left, bottom - top), lines

    def _kicker_origin(self, headline: st.Text) -> str:
        m = re.match(r"slides\.(\w+)\.headline", headline.origin)
        if m:
            return f"slides.{m.group(1)}.kicker"
        if headline.origin.startswith("workloads["):
            return "slides.experiments.kicker"
        return ""

    # -- the slides

    def add(self, number: int, s: st.Slide) -> None:
        if s.kind == "title":
            self.title_slide(number, s)
            return
        slide = self.new_slide(self.content)
        what = "title" if s.headline.origin.startswith("workloads[") else "headline"
        compose = getattr(self, f"_{s.kind}")
        try:
            plan = self.header(s.kicker, s.headline, what)
        except _NoFit as err:
            raise self.fail(number, err) from None
        # The arrangements a slide prefers come first; when they do not fit under a title of
        # two lines, the title takes one line (smaller) before the slide settles for less.
        attempts = [(plan, plan[4] == 1)]
        if plan[4] > 1:
            try:
                squeezed = self.header(s.kicker, s.headline, what, squeeze=True)
                attempts += [(squeezed, False), (plan, True), (squeezed, True)]
            except _NoFit:
                attempts += [(plan, True)]
        last: _NoFit | None = None
        for plan, relaxed in attempts:
            self.relaxed = relaxed
            try:
                items = compose(s, plan[3])
                break
            except _NoFit as err:
                last = err
        else:
            assert last is not None
            raise self.fail(number, last) from None
        paras, sizes, head, frame, lines = plan
        title = slide.shapes.title
        _body(title.text_frame, self._insets(title), "t" if self.own else None)
        _write(title.text_frame, paras, sizes, placeholder=True)
        _draw(slide, head + items, self.theme, self.charts)
        self.footer(slide, number)
        self.notes(slide, s.notes)

    def notes(self, slide: PptxSlide, text: str) -> None:
        if text:
            slide.notes_slide.notes_text_frame.text = text

    def title_slide(self, number: int, s: st.Slide) -> None:
        meta = self.told.meta
        slide = self.new_slide(self.cover)
        title = slide.shapes.title
        subtitle = next((ph for ph in slide.placeholders
                         if ph.placeholder_format.type not in _TITLE_TYPES), None)
        centred = title.placeholder_format.type == PP_PLACEHOLDER.CENTER_TITLE
        cover_size = COVER_TITLE if centred or self.own else TITLE
        heads = [Para(meta.title, cover_size, bold=True, colour=None, line=TIGHT, field="title",
                      origin="meta.title", balance=True)]
        lines = [Para(meta.subtitle, COVER_SUBTITLE, colour=None if not self.own else "muted",
                      line=LOOSE, field="subtitle", origin="meta.subtitle", balance=True),
                 Para(meta.presenter, COVER_LINE, bold=True,
                      colour=None if not self.own else "text",
                      before=24, field="presenter", origin="meta.presenter"),
                 Para(self.told.event_line, COVER_LINE,
                      colour=None if not self.own else "muted", before=4, field="event and date",
                      origin="meta.event")]
        title_box = Box(int(title.left), int(title.top), int(title.width), int(title.height))
        extra: list[Item] = []
        try:
            inset = self._insets(title)
            sizes = _fit([(heads, _pt(title_box.w - inset[0] - inset[2]),
                           _pt(title_box.h - inset[1] - inset[3]))])[0]
            _body(title.text_frame, inset, "b" if self.own else None)
            _write(title.text_frame, heads, sizes, placeholder=True)
            if self.own:  # a short rule in the accent colour just above the title's first line
                used = needed_height(heads, title_box.w - inset[0] - inset[2], sizes)
                y = title_box.bottom - inset[3] - used - _in(0.32)
                extra.append(RectItem(Box(title_box.x, y, _in(1.4), _in(0.09)), ("accent", 0.0),
                                      None, "Accent bar"))
            if subtitle is not None:
                inset = self._insets(subtitle)
                sizes = _fit([(lines, _pt(int(subtitle.width) - inset[0] - inset[2]),
                               _pt(int(subtitle.height) - inset[1] - inset[3]))])[0]
                _body(subtitle.text_frame, inset, "t" if self.own else None)
                _write(subtitle.text_frame, lines, sizes, placeholder=True)
            else:  # a layout with a title alone: the rest goes in a text box under it
                room = Box(title_box.x, title_box.bottom + _in(0.2), title_box.w,
                           self.height - _in(0.8) - title_box.bottom - _in(0.2))
                extra.append(text_item(room, [replace(p, colour=p.colour or "text") for p in lines],
                                       name="Subtitle"))
        except _NoFit as err:
            raise self.fail(number, err) from None
        _draw(slide, extra, self.theme)
        self.notes(slide, s.notes)

    # Each composer returns the items for one slide's frame, or raises _NoFit.

    def _meanings(self, s: st.Slide, frame: Box) -> list[Item]:
        """Four cards: a label in capitals, a question, two sentences; ours is marked. When
        the question cannot have a line of its own, it leads the sentences in bold."""
        cards = self.told.cards
        columns = min(2, len(cards))
        rows = math.ceil(len(cards) / columns)
        boxes = frame.grid(columns, rows, _in(0.18))[:len(cards)]
        inset = (_in(0.22), _in(0.16), _in(0.22), _in(0.12))

        def label(i: int, card: st.Card) -> Para:
            return Para(card.label, LABEL, bold=True, caps=True, tracking=1.0,
                        colour="accent" if card.ours else "muted", field="card label",
                        origin=f"meanings[{i}].label")

        def cards_with(inline: bool) -> list[Item]:
            blocks = []
            for i, card in enumerate(cards):
                question = Para(card.question, (26.0, 20.0), bold=True, heading=True, before=4,
                                line=TIGHT, field="card question", origin=f"meanings[{i}].question")
                text = Para(card.text.text, self.body((22.0, 18.0)), before=6, field="card text",
                            origin=card.text.origin)
                if inline:
                    both = f"{card.question} {card.text.text}"
                    text = replace(text, text=both, runs=(Run(f"{card.question} ", "text"),
                                                          Run(card.text.text)))
                    blocks.append([label(i, card), text])
                else:
                    blocks.append([label(i, card), question, text])
            items: list[Item] = []
            for card, item in zip(cards, texts_together(boxes, blocks, inset=inset), strict=True):
                item.fill = ("accent", 0.9) if card.ours else ("rule", 0.75)
                item.outline = ("accent", 2.5) if card.ours else None
                item.name = f"Card: {card.label}"
                items.append(item)
                if card.ours:
                    items.append(self._badge(self.told.labels.our_dial, item.box))
            return items

        return _first_fit(lambda: cards_with(False), lambda: cards_with(True))

    def _badge(self, words: str, card: Box) -> TextItem:
        """A small tab in the accent colour sitting on a card's top edge, at its right."""
        size = 13.0
        w = _emu(_width(words.upper(), size, True, 1.0) / WIDTH_SAFETY) + _in(0.3)
        h = _in(0.26)
        box = Box(card.right - w - _in(0.2), card.y - h // 2, w, h)
        return TextItem(box, [Para(words, (size, size), bold=True, caps=True, tracking=1.0,
                                   colour="background", align="ctr", line=TIGHT)], [size], "ctr",
                        (0, 0, 0, 0), fill=("accent", 0.0), name="Badge")

    def _dial(self, s: st.Slide, frame: Box) -> list[Item]:
        d = s.dial
        assert d is not None
        big = fmt.keep_together(d.figure)
        slow = fmt.keep_together(d.slow_figure)
        chosen = [
            Para(d.at_speed, LABEL, bold=True, caps=True, colour="accent", tracking=1.0,
                 field="speed label"),
            Para(big, FIGURE, bold=True, heading=True, colour="accent", line=TIGHT, one_line=True,
                 before=4, field="writing time"),
            Para(d.sentence, BODY, before=6, field="dial sentence", balance=True),
            Para(d.arithmetic, CAPTION, colour="muted", before=10, field="dial arithmetic"),
        ]
        side = [
            Para(d.at_slow_speed, LABEL, bold=True, caps=True, colour="muted", tracking=1.0,
                 field="slow speed label"),
            Para(slow, FIGURE_SIDE, bold=True, heading=True, colour="muted", line=TIGHT,
                 one_line=True, before=4, field="slow writing time"),
            Para(d.slow_note, CAPTION, colour="muted", before=6,
                 balance=True),
        ]
        if self.dial_look:  # the dial slides of a walk share one arrangement and sizes
            _, (fast_pt, slow_pt) = self.dial_look
            chosen[1] = replace(chosen[1], size=(min(FIGURE[0], fast_pt), FIGURE[1]))
            side[1] = replace(side[1], size=(min(FIGURE_SIDE[0], slow_pt), FIGURE_SIDE[1]))

        def side_by_side() -> list[Item]:
            need_right = _width(slow, FIGURE_SIDE[0], True) / WIDTH_SAFETY
            right_w = min(max(_emu(need_right), round(frame.w * 0.36)), round(frame.w * 0.46))
            left, right = frame.columns([frame.w - right_w - _in(0.6), right_w], _in(0.6))
            a, b = texts_together([left, right], [chosen, side])
            h = max(needed_height(a.paras, left.w, a.sizes),
                    needed_height(b.paras, right.w, b.sizes))
            y = frame.y + max(0, (frame.h - h) // 3)
            a.box = Box(left.x, y, left.w, h)
            b.box = Box(right.x, y, right.w, h)
            rule = RectItem(Box(right.x - _in(0.32), y, _in(0.02), h), ("rule", 0.0), None,
                            "Divider")
            return [a, rule, b]

        def stacked() -> list[Item]:
            gap = 28.0  # points between the two, with a rule in the middle
            both = chosen + [replace(side[0], before=gap)] + side[1:]
            sizes = _fit([(both, _pt(frame.w), _pt(frame.h))])[0]
            n = len(chosen)
            a_h = needed_height(chosen, frame.w, sizes[:n])
            b_h = needed_height(side, frame.w, sizes[n:])
            a = TextItem(Box(frame.x, frame.y, frame.w, a_h), chosen, sizes[:n],
                         name="Chosen speed")
            rule_y = frame.y + a_h + _emu(gap / 2)
            b = TextItem(Box(frame.x, frame.y + a_h + _emu(gap), frame.w, b_h), side, sizes[n:],
                         name="Slow speed")
            rule = RectItem(Box(frame.x, rule_y, frame.w, _in(0.02)), ("rule", 0.0), None,
                            "Divider")
            return [a, rule, b]

        def smaller() -> list[Item]:  # a last resort for a figure too long for the big sizes
            chosen[1] = replace(chosen[1], size=(chosen[1].size[0], FIGURE_LAST))
            side[1] = replace(side[1], size=(side[1].size[0], FIGURE_LAST))
            return stacked()

        if self.dial_look:
            return side_by_side() if self.dial_look[0] == "side" else stacked()
        return _first_fit(side_by_side, stacked, *self.fallbacks(smaller))

    def settle_dials(self, slides: Sequence[st.Slide]) -> None:
        """Give every 'turn the dial' slide the arrangement and figure sizes that suit them
        all, so clicking through a walk turns the dial without the page jumping."""
        dials = [s for s in slides if s.kind == "dial"]
        if len(dials) < 2:
            return

        def sizes_of(items: list[Item]) -> tuple[float, float]:
            found = {p.field: size for item in items if isinstance(item, TextItem)
                     for p, size in zip(item.paras, item.sizes, strict=True)}
            return found["writing time"], found["slow writing time"]

        plans = []
        for s in dials:
            try:
                frame = self.header(s.kicker, s.headline, "headline")[3]
                items = self._dial(s, frame)
            except _NoFit:
                return  # the slide itself will report it
            plans.append(("side" if any(i.name == "Divider" and i.box.w < i.box.h for i in items
                                        if isinstance(i, RectItem)) else "stacked", frame))
        variant = "side" if all(v == "side" for v, _ in plans) else "stacked"
        found = []
        for s, (_, frame) in zip(dials, plans, strict=True):
            self.dial_look = (variant, (FIGURE[0], FIGURE_SIDE[0]))
            try:
                found.append(sizes_of(self._dial(s, frame)))
            except _NoFit:
                self.dial_look = None
                return
        self.dial_look = (variant, (min(f for f, _ in found), min(w for _, w in found)))

    def _writing_chart(self, s: st.Slide, frame: Box) -> list[Item]:
        """The writing-time chart alone on its own slide, room for a label at every decade."""
        assert s.chart is not None
        return [PictureItem(frame, s.chart, f"Chart: {s.chart.title}")]

    def _workloads(self, s: st.Slide, frame: Box) -> list[Item]:
        """The table on top, its caption, the chart below with the height that is left."""
        assert s.table is not None
        if s.chart is None:  # the chart has a slide of its own
            return self._presets(s, frame)
        cells = _table_cells(s.table, TABLE)
        chart = s.chart

        def stacked(chart_h: int, caption_size: tuple[float, float],
                    cells: list[list[list[Para]]] = cells) -> list[Item]:
            caption = [Para(s.table.caption, caption_size, colour="muted", field="table caption")]
            cap_h = needed_height(caption, frame.w)
            room = frame.h - cap_h - _in(0.25) - chart_h
            table = table_item(Box(frame.x, frame.y, frame.w, room), cells,
                               s.table.highlight, name="Workload table")
            cap = text_item(Box(frame.x, table.box.bottom + _in(0.1), frame.w, cap_h), caption)
            chart_y = cap.box.bottom + _in(0.15)
            return [table, cap, PictureItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y),
                                            chart, f"Chart: {chart.title}")]

        variants = [lambda: stacked(CHART_ROOM, CAPTION),
                    *self.fallbacks(lambda: stacked(CHART_MIN, CAPTION),
                                    lambda: stacked(CHART_MIN, NOTE))]
        if not self.wide:  # a narrow slide's last resort: the table a size smaller
            cells_small = _table_cells(s.table, (TABLE[0], TABLE_NARROW_FLOOR))
            variants += self.fallbacks(lambda: stacked(CHART_MIN, NOTE, cells_small))
        return _first_fit(*variants)

    def _experiment(self, s: st.Slide, frame: Box) -> list[Item]:
        e = s.experiment
        assert e is not None
        big = fmt.keep_together(e.figure)
        figure = [
            Para(e.arithmetic, (24.0, 20.0), colour="muted", field="arithmetic"),
            Para(big, (88.0, 60.0) if self.wide else (72.0, 48.0), bold=True, heading=True,
                 colour="accent", line=TIGHT, one_line=True, before=4, field="writing time"),
            Para(e.writing_at, CAPTION, colour="muted",
                 field="writing speed"),
        ]
        if e.featured:
            figure.insert(0, Para(e.featured_label, LABEL, bold=True, caps=True,
                                  colour="accent", tracking=1.0))
            figure[1] = replace(figure[1], before=4)
        tale = [Para(e.story.text, self.body(BODY), field="story", origin=e.story.origin)]
        band = self._set_apart(self.told.labels.still_scarce, e.scarce, frame)
        above = Box(frame.x, frame.y, frame.w, band[0].box.y - frame.y - _in(0.25))

        def side_by_side() -> list[Item]:
            need = _emu(max(_width(big, figure[-2].size[1], True),
                            _width(e.arithmetic, 20.0, False)) / WIDTH_SAFETY)
            whole = _emu(_width(e.arithmetic, 24.0, False) / WIDTH_SAFETY) + _in(0.05)
            left_w = max(need, min(whole, round(above.w * 0.5)), round(above.w * 0.4))
            if left_w > above.w * 0.55:
                raise _NoFit(figure[-2], "too wide for a column")
            left, right = above.columns([left_w, above.w - left_w - _in(0.5)], _in(0.5))
            a = text_item(left, figure, shrink_to_fit=True, name="Writing time")
            b = text_item(right, tale, shrink_to_fit=True, name="Story")
            return _middle([a, b], above) + band

        def stacked(beside_it: str) -> list[Item]:
            """The figure with its speed (and its sum, or the sum above it) beside it, or with
            nothing beside it ("none": the sum above, the speed below); the story under them.
            The figure gives way first, down to its smallest size, so the story keeps room."""
            arithmetic, number, speed = figure[-3], [replace(figure[-2], before=0)], figure[-1]
            above_row = figure[:-3] if beside_it == "sum" else figure[:-2]
            beside = {"sum": [arithmetic, replace(speed, before=4)], "speed": [speed],
                      "none": []}[beside_it]
            items: list[Item] = []
            top = above
            if above_row:
                items.append(text_item(above, above_row, shrink_to_fit=True, name="Sum"))
                top = Box(above.x, items[0].box.bottom + _in(0.05), above.w,
                          above.bottom - items[0].box.bottom - _in(0.05))
            low, high = number[0].size[1], number[0].size[0]
            tried: _NoFit | None = None
            for step in range(int(high - low) // 4 + 1):
                size = [max(low, high - 4 * step)]
                fig_w = _emu(_width(big, size[0], True) / WIDTH_SAFETY) + _in(0.05)
                if fig_w > top.w * (0.72 if beside else 1.0):
                    continue
                fig_h = needed_height(number, fig_w, size)
                try:
                    fig = TextItem(Box(top.x, top.y, fig_w, fig_h), number, size,
                                   name="Writing time")
                    placed: list[Item] = [fig]
                    below = fig.box.bottom
                    if beside:
                        side = text_item(Box(top.x + fig_w + _in(0.3), top.y,
                                             top.w - fig_w - _in(0.3), fig_h),
                                         beside, shrink_to_fit=True, name="Speed")
                        base = top.y + fig_h - round(fig_h * 0.1)  # near the figure's baseline
                        side.box = Box(side.box.x, base - side.box.h, side.box.w, side.box.h)
                        placed.append(side)
                    else:
                        side = text_item(Box(top.x, below, top.w, top.bottom - below),
                                         [replace(speed, before=0)], shrink_to_fit=True,
                                         name="Speed")
                        placed.append(side)
                        below = side.box.bottom
                    rest = Box(top.x, below + _in(0.2), top.w, top.bottom - below - _in(0.2))
                    placed.append(text_item(rest, tale, shrink_to_fit=True, name="Story"))
                except _NoFit as err:
                    tried = tried or err
                    continue
                return items + placed + band
            raise tried or _NoFit(figure[-2], "too wide for the slide")

        def smaller() -> list[Item]:  # a last resort for a figure too long for the big sizes
            figure[-2] = replace(figure[-2], size=(figure[-2].size[0], FIGURE_LAST))
            return stacked("none")

        variants = [lambda: stacked("sum"), lambda: stacked("speed"), lambda: stacked("none"),
                    *self.fallbacks(smaller)]
        return _first_fit(side_by_side, *variants) if self.wide else _first_fit(*variants)

    def _set_apart(self, label: str, line: st.Text, frame: Box) -> list[Item]:
        """A band across the foot of the frame: a label in capitals, then one line of text
        (beside the label on a wide slide, under it on a narrow one)."""
        pad_x, pad_y = _in(0.3), _in(0.17)
        head = [Para(label, LABEL, bold=True, caps=True, colour="accent", tracking=1.0)]
        words = [Para(line.text, (28.0, 20.0) if self.wide else (22.0, 18.0), bold=True,
                      heading=True, line=TIGHT, field="still scarce line", origin=line.origin,
                      balance=True)]
        inner_w = frame.w - 2 * pad_x
        if self.wide:
            head_w = _emu(_width(label.upper(), LABEL[0], True, 1.0) / WIDTH_SAFETY) + _in(0.05)
            text_w = inner_w - head_w - _in(0.35)
            sizes = _fit([(words, _pt(text_w), _pt(frame.h) / 3)])[0]
            h = needed_height(words, text_w, sizes)
            band = frame.bottom_part(h + 2 * pad_y)
            head_box = Box(band.x + pad_x, band.y + pad_y, head_w, h)
            text_box = Box(band.x + pad_x + head_w + _in(0.35), band.y + pad_y, text_w, h)
            anchor = "ctr"
        else:
            sizes = _fit([(words, _pt(inner_w), _pt(frame.h) / 3)])[0]
            h = needed_height(words, inner_w, sizes)
            head_h = needed_height(head, inner_w)
            band = frame.bottom_part(head_h + _in(0.04) + h + 2 * pad_y)
            head_box = Box(band.x + pad_x, band.y + pad_y, inner_w, head_h)
            text_box = Box(band.x + pad_x, head_box.bottom + _in(0.04), inner_w, h)
            anchor = "t"
        return [RectItem(band, ("rule", 0.75), None, label),
                RectItem(Box(band.x, band.y, _in(0.08), band.h), ("accent", 0.0), None, "Accent"),
                text_item(head_box, head, anchor=anchor, name=label),
                TextItem(text_box, words, sizes, name=f"{label}: line")]

    def _bottleneck(self, s: st.Slide, frame: Box) -> list[Item]:
        """The setup, the bars, and the figures: the writing speedup, the end-to-end speedup
        and the check's share (beside the bars on a wide slide, in a row under them else)."""
        b, labels = self.told.bottleneck, self.told.labels
        chart = s.chart  # None with no check: the writing speedup alone, no empty bars
        setup = [Para(b.setup.text, self.body((20.0, 18.0)), field="setup", origin=b.setup.origin)]
        figures = [(f.label, f.value, f.how, f.role) for f in b.figures] or [
            (labels.writing_speedup, b.writing_speedup, b.writing_speedup_how, "muted"),
            (labels.end_to_end_speedup, b.end_to_end_speedup, b.end_to_end_how, "accent"),
            (labels.check_share, b.check_share, b.check_share_how, "text"),
        ]

        def block(k: int, big: tuple[float, float], sums: bool,
                  first_gap: float = 0.0) -> list[Para]:
            label, value, how, role = figures[k]
            paras = [Para(label, LABEL, bold=True, caps=True, colour="muted", tracking=1.0,
                          before=first_gap),
                     Para(fmt.keep_together(value), big, bold=True, heading=True, colour=role,
                          line=TIGHT, one_line=True, before=2, field=label.lower())]
            if sums:
                paras.append(Para(how, CAPTION, colour="muted", field=f"{label.lower()} sum"))
            return paras

        def beside(setup_sizes: list[float]) -> list[Item]:
            assert chart is not None and len(figures) == 3
            setup_h = needed_height(setup, frame.w, setup_sizes)
            rest = Box(frame.x, frame.y + setup_h + _in(0.2), frame.w, frame.h - setup_h - _in(0.2))
            column = block(0, (72.0, 48.0), True) + block(1, (72.0, 48.0), True, 16.0) + \
                block(2, (48.0, 36.0), True, 16.0)
            need = max(_width(fmt.keep_together(v), 48.0, True) for _, v, _, _ in figures)
            column_w = max(_emu(need / WIDTH_SAFETY), round(rest.w * 0.33))
            chart_box, column_box = rest.columns([rest.w - column_w - _in(0.5), column_w], _in(0.5))
            if chart_box.h < BAR_CHART_MIN or chart_box.w < rest.w * 0.5:
                raise _NoFit(setup[0], "no room left for the chart beside the figures")
            return [TextItem(frame.top(setup_h), setup, setup_sizes, name="Setup"),
                    PictureItem(chart_box, chart, f"Chart: {chart.title}"),
                    text_item(column_box, column, name="Speedups")]

        def under(setup_sizes: list[float], sums: bool, last: bool = False) -> list[Item]:
            setup_h = needed_height(setup, frame.w, setup_sizes)
            chart_y = frame.y + setup_h + _in(0.15)
            budget = frame.bottom - chart_y - BAR_CHART_MIN - _in(0.2)
            big = (80.0, 54.0) if self.wide else (64.0, 40.0)
            if last:
                big = (big[0], FIGURE_LAST / 2)
            blocks = [block(k, big, sums) for k in range(len(figures))]
            need = [max(_width(fmt.keep_together(v), big[1], True),
                        _width(lab.upper(), LABEL[1], True, 1.0),
                        _longest_word(how, CAPTION[1], False) if sums else 0.0) / WIDTH_SAFETY
                    for lab, v, how, _ in figures]
            boxes = Box(frame.x, 0, frame.w, budget).columns(need, _in(0.4))
            sizes = _fit([(blk, _pt(bx.w), _pt(budget))
                          for bx, blk in zip(boxes, blocks, strict=True)])
            row_h = max(needed_height(blk, bx.w, sz)
                        for bx, blk, sz in zip(boxes, blocks, sizes, strict=True))
            row_y = frame.bottom - row_h if chart is not None else chart_y + _in(0.3)
            items: list[Item] = [TextItem(frame.top(setup_h), setup, setup_sizes, name="Setup")]
            if chart is not None:
                items.append(PictureItem(Box(frame.x, chart_y, frame.w,
                                             row_y - _in(0.2) - chart_y), chart,
                                         f"Chart: {chart.title}"))
            for bx, blk, sz in zip(boxes, blocks, sizes, strict=True):
                items.append(TextItem(Box(bx.x, row_y, bx.w, row_h), blk, sz, name=blk[0].text))
            return items

        variants = [lambda: _shrinking(setup, lambda sz: under(sz, True)),
                    *self.fallbacks(
                        lambda: _shrinking(setup, lambda sz: under(sz, False)),
                        lambda: _shrinking(setup, lambda sz: under(sz, False, last=True)))]
        if self.wide and chart is not None:
            variants.insert(0, lambda: _shrinking(setup, beside))
        return _first_fit(*variants)

    def _presets(self, s: st.Slide, frame: Box) -> list[Item]:
        """The preset checks: a table alone on its slide, so it may be large."""
        assert s.table is not None
        cells = _table_cells(s.table, (28.0, TABLE[1]))
        caption = [Para(s.table.caption, CAPTION, colour="muted", field="table caption")]
        cap_h = needed_height(caption, frame.w)
        table = table_item(Box(frame.x, frame.y, frame.w, frame.h - cap_h - _in(0.2)), cells,
                           s.table.highlight, name="Workload table" if s.kind == "workloads"
                           else "Preset checks table")
        cap = text_item(Box(frame.x, table.box.bottom + _in(0.2), frame.w, cap_h), caption)
        return _middle([table, cap], frame)

    def _ceiling(self, s: st.Slide, frame: Box) -> list[Item]:
        b = self.told.bottleneck
        assert s.chart is not None
        has_ceiling = b.has_ceiling
        words = [Para(b.ceiling_sentence.text, self.body(BODY), field="ceiling sentence",
                      origin=b.ceiling_sentence.origin, balance=True)]
        block = ([Para(self.told.labels.ceiling, LABEL, bold=True, caps=True, colour="muted",
                       tracking=1.0),
                  Para(fmt.keep_together(b.ceiling), FIGURE_ROW, bold=True, heading=True,
                       colour="accent", line=TIGHT, one_line=True, before=2, field="ceiling")]
                 if has_ceiling else [])
        chart = s.chart

        def side_by_side() -> list[Item]:
            column_w = round(frame.w * 0.34)
            if block:
                least = _width(fmt.keep_together(b.ceiling), FIGURE_ROW[1], True)
                column_w = max(column_w, _emu(least / WIDTH_SAFETY))
            if column_w > frame.w * 0.42:
                raise _NoFit(words[0], "too wide beside the chart")
            chart_box, column = frame.columns([frame.w - column_w - _in(0.45), column_w], _in(0.45))
            paras = block + [replace(words[0], before=14 if block else 0)]
            text = text_item(column, paras, shrink_to_fit=True, name="Ceiling")
            text.box = Box(column.x, column.y + max(0, (column.h - text.box.h) // 3), column.w,
                           text.box.h)
            return [PictureItem(chart_box, chart, f"Chart: {chart.title}"), text]

        def stacked() -> list[Item]:
            items: list[Item] = []
            if block:
                ceiling = fmt.keep_together(b.ceiling)
                wide = _emu(_width(ceiling, FIGURE_ROW[0], True) / WIDTH_SAFETY)
                least = _emu(_width(ceiling, FIGURE_ROW[1], True) / WIDTH_SAFETY)
                fig_w = max(least + _in(0.05), min(wide, round(frame.w * 0.45)))
                top = Box(frame.x, frame.y, frame.w, round(frame.h * 0.4))
                left, right = top.columns([fig_w, top.w - fig_w - _in(0.4)], _in(0.4))
                fig = text_item(left, block, shrink_to_fit=True, name="Ceiling")
                try:  # no taller than the figure, so the chart keeps its height
                    text = text_item(Box(right.x, right.y, right.w, fig.box.h), words,
                                     shrink_to_fit=True, name="Ceiling sentence")
                except _NoFit:
                    text = text_item(right, words, shrink_to_fit=True, name="Ceiling sentence")
                h = max(fig.box.h, text.box.h)
                items += [fig, text]
            else:
                text = text_item(Box(frame.x, frame.y, frame.w, round(frame.h * 0.4)), words,
                                 shrink_to_fit=True, name="Ceiling sentence")
                h = text.box.h
                items.append(text)
            chart_y = frame.y + h + _in(0.2)
            items.append(PictureItem(Box(frame.x, chart_y, frame.w, frame.bottom - chart_y), chart,
                                     f"Chart: {chart.title}"))
            return items

        return _first_fit(side_by_side, stacked) if self.wide else stacked()

    def _precious(self, s: st.Slide, frame: Box) -> list[Item]:
        """The scarce things in a grid, each a name under a short accent rule and a line."""
        things = self.told.precious
        blocks = [[Para(name, (28.0, 20.0), bold=True, heading=True, line=TIGHT,
                        field="precious name", origin=f"precious[{i}].name"),
                   Para(text.text, self.body((22.0, 18.0)), before=6, colour="muted",
                        field="precious text", origin=text.origin)]
                  for i, (name, text) in enumerate(things)]

        def grid(columns: int) -> list[Item]:
            columns = min(columns, len(things))
            rows = math.ceil(len(things) / columns)
            boxes = frame.grid(columns, rows, _in(0.25))[:len(things)]
            inner = [Box(b.x, b.y + _in(0.2), b.w, b.h - _in(0.2)) for b in boxes]
            items: list[Item] = [RectItem(Box(b.x, b.y, _in(0.9), _in(0.07)), ("accent", 0.0), None,
                                          "Accent") for b in boxes]
            return items + texts_together(inner, blocks, name="Precious")

        return _best_fit(lambda: grid(3), lambda: grid(2))

    def _checklist(self, s: st.Slide, frame: Box) -> list[Item]:
        steps = self.told.checklist
        square = _in(0.34)

        def layout(columns: int) -> list[Item]:
            columns = min(columns, len(steps))
            rows = math.ceil(len(steps) / columns)
            boxes = frame.grid(columns, rows, _in(0.22))[:len(steps)]
            blocks = [[Para(step, (28.0, 22.0), bold=True, heading=True, line=TIGHT,
                            field="checklist step", origin=f"checklist[{i}].step"),
                       Para(detail.text, self.body((22.0, 18.0)), before=6, colour="muted",
                            field="checklist detail", origin=detail.origin)]
                      for i, (step, detail, _) in enumerate(steps)]
            text_boxes = [Box(b.x + square + _in(0.25), b.y, b.w - square - _in(0.25), b.h)
                          for b in boxes]
            texts = texts_together(text_boxes, blocks, name="Step")
            items: list[Item] = []
            for b, t in zip(boxes, texts, strict=True):
                first = t.sizes[0] * TIGHT
                y = b.y + _emu(max(0.0, (first - _pt(square)) / 2))
                items.append(RectItem(Box(b.x, y, square, square), None, ("accent", 2.0),
                                      "Checkbox"))
                items.append(t)
            return items

        return _best_fit(lambda: layout(1), lambda: layout(2))

    def _sources(self, s: st.Slide, frame: Box) -> list[Item]:
        """Each source's title, byline (publisher, kind, when checked) and site (linked to the
        page), and what it supports: a two-column table, or on a narrow frame a list, one
        source to a row; without the sites, then with the publisher alone, if that is what it
        takes. The handout has it all."""
        size = TABLE_SMALL if self.wide else (TABLE_SMALL[0], TABLE_NARROW_FLOOR)

        def who(i: int, src: st.Cited, lead: tuple[Run, ...] = (), site: bool = True,
                byline: bool = True) -> Para:
            runs = lead + (Run(src.byline if byline else src.publisher, "muted", bold=False),)
            if src.url and site:
                runs += (Run(" \u00b7 ", "muted", bold=False),
                         Run(_site(src.url), "accent", src.url, bold=False))
            return Para("".join(r.text for r in runs), size, bold=bool(lead), line=TIGHT,
                        runs=runs, field="source publisher", origin=f"sources[{i}].publisher")

        def what(i: int, src: st.Cited, **kw: object) -> Para:
            return Para(src.supports, size, line=TIGHT, field="what the source supports",
                        origin=f"sources[{i}].supports", **kw)  # type: ignore[arg-type]

        def table(site: bool = True) -> list[Item]:
            labels = self.told.labels
            rows = [[[Para(labels.source, size, bold=True, line=TIGHT)],
                     [Para(labels.supports, size, bold=True, line=TIGHT)]]]
            for i, src in enumerate(self.told.sources):
                rows.append([[Para(src.title, size, bold=True, line=TIGHT, field="source title",
                                   origin=f"sources[{i}].title"), who(i, src, site=site)],
                             [what(i, src)]])
            return [table_item(frame, rows, None, name="Sources table")]

        def listed(site: bool = True, byline: bool = True) -> list[Item]:
            rows = [[[who(i, src, (Run(src.title, "text", bold=True),
                                   Run(" \u2014 ", "muted", bold=False)), site, byline),
                      what(i, src, before=2)]] for i, src in enumerate(self.told.sources)]
            return [table_item(frame, rows, None, name="Sources list", header=False)]

        # When room is short the sites go first, then the sources' kinds and dates: the
        # handout has them all.
        return _first_fit(table, listed, lambda: table(False), lambda: listed(False),
                          lambda: listed(True, False), lambda: listed(False, False))

    # -- the package

    def finish(self) -> None:
        meta = self.told.meta
        when = _moment()
        props = self.prs.core_properties
        props.title = meta.title
        props.subject = meta.subtitle
        props.author = meta.presenter
        props.last_modified_by = meta.presenter
        props.keywords = meta.event
        props.comments = ""
        props.category = ""
        props.language = meta.language
        props.revision = 1
        props.created = when
        props.modified = when
        props.last_printed = when
        package = self.prs.part.package
        for r_id, rel in list(package._rels.items()):
            if rel.reltype == RT.THUMBNAIL:  # a picture of the template, not of this deck
                package.drop_rel(r_id)
            elif rel.reltype == RT.EXTENDED_PROPERTIES:
                rel.target_part._blob = self._app_xml()

    def _app_xml(self) -> bytes:
        slides = len(self.prs.slides)
        notes = sum(1 for slide in self.prs.slides if slide.has_notes_slide)
        four_three = abs(self.width / self.height - 4 / 3) < 0.01
        shape = "16:9" if self.wide else "4:3" if four_three else "custom"
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Properties xmlns="{_OFFICE}/extended-properties" '
            f'xmlns:vt="{_OFFICE}/docPropsVTypes">'
            f"<Application>deckgen</Application><PresentationFormat>On-screen Show ({shape})"
            f"</PresentationFormat><Slides>{slides}</Slides><Notes>{notes}</Notes>"
            "<HiddenSlides>0</HiddenSlides></Properties>").encode("utf-8")


def _shrinking(paras: Sequence[Para], arrange: Callable[[list[float]], list[Item]]) -> list[Item]:
    """`arrange(sizes)` for `paras` at the largest sizes with which the rest of the slide fits."""
    steps = _levels(paras)
    last: _NoFit | None = None
    for k in range(steps + 1):
        try:
            return arrange(_sizes(paras, k / steps))
        except _NoFit as err:
            last = err
    assert last is not None
    raise last


def _best_fit(*variants: Callable[[], list[Item]]) -> list[Item]:
    """Of the arrangements that fit, the one whose smallest named text is largest (the
    earlier one on a tie)."""
    best: tuple[float, list[Item]] | None = None
    last: _NoFit | None = None
    for variant in variants:
        try:
            items = variant()
        except _NoFit as err:
            last = err
            continue
        smallest = min((size for item in items if isinstance(item, TextItem)
                        for p, size in zip(item.paras, item.sizes, strict=True) if p.field),
                       default=0.0)
        if best is None or smallest > best[0]:
            best = (smallest, items)
    if best is None:
        assert last is not None
        raise last
    return best[1]


def _first_fit(*variants: Callable[[], list[Item]]) -> list[Item]:
    """The first arrangement whose text fits. Arrangements go from the one that reads best
    to the one that asks least, so when none fits, the last one's reason is the one to fix."""
    last: _NoFit | None = None
    for variant in variants:
        try:
            return variant()
        except _NoFit as err:
            last = err
    assert last is not None
    raise last


def _middle(items: list[Item], box: Box) -> list[Item]:
    """`items` moved down together so they sit a little above the middle of `box`."""
    bottom = max(i.box.bottom for i in items)
    shift = max(0, round((box.bottom - bottom) * 0.4))
    for item in items:
        item.box = Box(item.box.x, item.box.y + shift, item.box.w, item.box.h)
    return items


def _table_cells(table: st.Table, size: tuple[float, float]) -> list[list[list[Para]]]:
    rows = [[[Para(h, size, bold=True, align=a, line=TIGHT)]
             for h, a in zip(table.header, table.align, strict=True)]]
    for i, row in enumerate(table.rows):  # the dial's row: tinted and bold (weight, not hue)
        rows.append([[Para(fmt.keep_together(v) if a == "r" else v, size, align=a,
                           line=TIGHT, field="table cell", bold=i == table.highlight)]
                     for v, a in zip(row, table.align, strict=True)])
    return rows


def _site(url: str) -> str:
    """'https://www.example.org/a/b' -> 'example.org'."""
    return re.sub(r"^[a-z]+://(www\.)?", "", url).split("/")[0]


def _moment() -> datetime:
    """The time recorded in the package: SOURCE_DATE_EPOCH when set, else a fixed date."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    epoch = DEFAULT_EPOCH
    if raw:
        try:
            epoch = int(raw)
        except ValueError:
            raise InputError(Problem(f"must be a whole number of seconds, got {raw!r}",
                                     path="SOURCE_DATE_EPOCH")) from None
    return datetime.fromtimestamp(max(epoch, ZIP_EPOCH), tz=timezone.utc).replace(tzinfo=None)


def _repack(data: bytes, when: datetime) -> bytes:
    """The package with every entry stamped `when`, in a stable order, with fixed attributes."""
    stamp = (when.year, when.month, when.day, when.hour, when.minute, when.second)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        names = source.namelist()
        ordered = ["[Content_Types].xml"] + sorted(n for n in names if n != "[Content_Types].xml")
        for name in ordered:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            target.writestr(info, source.read(name), compresslevel=6)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# The two entry points


def render(told: st.Story, *, template: bytes | None = None,
           walk: tuple[st.Slide, ...] = (), charts: str = "native") -> bytes:
    """The deck as .pptx bytes: the story's slides, with `walk` after the dial slide; charts
    as native chart parts or, with `charts="picture"`, as PNG pictures."""
    prs, own = _open(told, template)
    deck = _Deck(prs, told, own, charts)
    slides = list(told.slides)
    at = next((i for i, s in enumerate(slides) if s.kind == "dial"), len(slides)) + 1
    slides[at:at] = walk
    deck.settle_dials(slides)
    for number, s in enumerate(slides, 1):
        deck.add(number, s)
    deck.finish()
    raw = io.BytesIO()
    prs.save(raw)
    return _repack(raw.getvalue(), _moment())


def describe_layouts(path: Path) -> str:
    """A template's slide size, theme, layouts and placeholders, and the two layouts deckgen
    would use."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise InputError(Problem(f"cannot be read: {err.strerror}", str(path))) from None
    try:
        prs = Presentation(io.BytesIO(data))
    except Exception as err:  # python-pptx raises many kinds for a file that is not a deck
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({_why(err)})",
                                 str(path))) from None
    width, height = int(prs.slide_width or 0), int(prs.slide_height or 0)
    theme = _theme_of(prs, Theme("", "", "", "", "", "", ""))
    lines = [f"{path}: {fmt.dimensions(_inches(width), _inches(height), 'in')}",
             f"theme: text {theme.text or '?'}, accent {theme.accent or '?'}, "
             f"muted {theme.muted or '?'}, "
             f"background {theme.background or '?'}; fonts {theme.heading_font or '?'} (headings), "
             f"{theme.body_font or '?'} (body)"]
    try:
        cover, content = pick_layouts(prs)
    except InputError:
        cover = content = None
    for m, i, layout in _layouts(prs):
        use = []
        if layout is cover:
            use.append("title slide")
        if layout is content:
            use.append("content slides")
        note = f"  <- deckgen: {', '.join(use)}" if use else ""
        lines.append(f"master {m + 1}, layout {i + 1}: {layout.name!r}{note}")
        for ph in layout.placeholders:
            pf = ph.placeholder_format
            kind = pf.type.name.lower() if pf.type is not None else "?"
            lines.append(f"    idx {pf.idx:>3}  {kind:<14} {ph.name!r} at "
                         f"{fmt.number(_inches(ph.left))}, {fmt.measure(_inches(ph.top), 'in')}, "
                         f"{fmt.dimensions(_inches(ph.width), _inches(ph.height), 'in')}")
    if cover is None:
        lines.append("deckgen cannot use this template: no layout has a title placeholder")
    return "\n".join(lines) + "\n"
