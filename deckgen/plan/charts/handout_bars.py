"""Where everything of a bar chart goes, decided once for every renderer that draws one.

Each bar runs to 100% of its total; a segment's label goes inside it when it fits, else on a
row under the bar where it never clashes with another. Distances are in inches on a sheet of
`width` by `height` with y up (matplotlib's figure and reportlab's drawing alike); text is
measured by the layout layer in the charts' Liberation Sans. Pure: no rendering library, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from deckgen import fonts
from deckgen.errors import RenderError
from deckgen.fmt import NBSP, dimensions, measure
from deckgen.story import Bar, BarChart
from deckgen.typeset.text import Face, Overlong, break_lines, longest_word

HATCH_STEP = 0.11  # inches between hatch strokes at deck size

Placed = tuple[int, float, float, str, float]  # segment index, left, width, label, label width
Row = tuple[int, float, float, str, float, str]  # segment index, left, width, label, x, alignment


def face(weight: str = "normal") -> Face:
    """The measured face the charts' text is set in: Liberation Sans, regular or bold."""
    return fonts.face(fonts.CHART_FAMILY, weight == "bold")


class ChartArea(Protocol):
    """What a chart is laid out on: its size in inches, its text size, a way to measure."""

    width: float
    height: float
    font_pt: float

    @property
    def line_h(self) -> float: ...

    @property
    def pad(self) -> float: ...

    def size(self, text: str, *, weight: str = "normal") -> tuple[float, float]: ...


@dataclass
class MeasuredArea:
    """A sheet of `width` by `height` inches with text at `font_pt`, measured by the layout
    layer: its widest line, and a line box per line."""

    width: float
    height: float
    font_pt: float

    @property
    def line_h(self) -> float:
        """One line of base text, in inches."""
        return self.font_pt * 1.2 / 72

    @property
    def pad(self) -> float:
        return self.font_pt * 0.4 / 72

    def size(self, text: str, *, weight: str = "normal") -> tuple[float, float]:
        """Width and height in inches of `text` (one or more lines) as it will be drawn."""
        return text_size(text, self.font_pt, weight)


def text_size(text: str, font_pt: float, weight: str = "normal") -> tuple[float, float]:
    """Width and height in inches of `text` (one or more lines) at `font_pt`: its widest line,
    and a line box per line."""
    if not text:
        return 0.0, 0.0
    lines = text.split("\n")
    measured = face(weight)
    wide = max(measured.width(line, font_pt) for line in lines)
    return wide / 72, measured.height(len(lines), font_pt) / 72


def _breakable(words: Sequence[str], i: int) -> bool:
    """May a line break fall before words[i]? Not inside '2 h 14 min' nor '60 seconds'."""
    before, after = words[i - 1], words[i]
    if any(ch.isdigit() for ch in before):
        return False
    return not (any(ch.isdigit() for ch in after) and len(before) <= 3)


def chunks(text: str) -> list[str]:
    """The pieces of `text` that a line break may fall between."""
    words = text.split(" ")
    pieces = [words[0]]
    for i in range(1, len(words)):
        if _breakable(words, i):
            pieces.append(words[i])
        else:
            pieces[-1] += " " + words[i]
    return pieces


def wrap(page: ChartArea, text: str, budget: float, weight: str) -> str:
    """`text` broken into lines no wider than `budget` inches where it can be, by the layout
    layer's line breaker; a figure and its unit ("2 h 14 min", "60 seconds") are held
    together for it, and a piece wider than the line goes on a line of its own."""
    held = " ".join(chunk.replace(" ", NBSP) for chunk in chunks(text))
    width = budget * 1.12 * 72  # a little over beats a lone word
    width = max(width, longest_word(held, face(weight), page.font_pt))
    lines = break_lines(held, face(weight), page.font_pt, width)
    assert not isinstance(lines, Overlong)  # no piece is wider than the line
    return "\n".join(line.replace(NBSP, " ") for line in lines)


@dataclass(frozen=True)
class SegmentBox:
    left: float
    width: float
    hatched: bool  # every segment after the first: hatching on the background


@dataclass(frozen=True)
class Inside:
    """A label set inside its segment, vertically centred on the bar."""

    segment: int
    text: str
    x: float
    align: str  # "left" or "right"
    boxed: bool  # set on a patch of background over the hatching


@dataclass(frozen=True)
class Below:
    """A label on a row under the bar; `top` is the top of its line; a lower row has a
    leader from the bar down to it at `leader_x`."""

    segment: int
    text: str
    x: float
    align: str  # "left", "right" or "center"
    top: float
    leader_x: float | None


@dataclass(frozen=True)
class BarPlan:
    title: str  # one or more lines
    title_top: float
    bold: bool
    emphasis: bool
    base: float
    height: float
    segments: tuple[SegmentBox, ...]
    inside: tuple[Inside, ...]
    below: tuple[Below, ...]

    @property
    def centre(self) -> float:
        return self.base + self.height / 2


@dataclass(frozen=True)
class BarsPlan:
    x0: float
    bar_w: float
    inset: float  # text inside a segment keeps this far from its edges (inches)
    box_pad: float  # points around a label set on the hatching
    bars: tuple[BarPlan, ...]


def plan(page: ChartArea, chart: BarChart) -> BarsPlan:
    """Where the chart's titles, bars, segments and labels go on `page`; a RenderError when
    they cannot fit."""
    x0, x1 = page.pad, page.width - page.pad
    bar_w = x1 - x0
    inset = page.font_pt * 0.45 / 72
    box_pad = page.font_pt * 0.2
    plans = [_labels(page, bar, x0, x1, inset, box_pad) for bar in chart.bars]
    titles = _titles(page, chart, bar_w, plans)
    sizes = _heights(page, chart, titles, plans, box_pad)
    line_h, pad = page.line_h, page.pad
    y = sizes.top
    bars = []
    for bar, title, (inside, bar_rows) in zip(chart.bars, titles, plans, strict=True):
        top = y - max(line_h, page.size(title)[1]) - pad * 0.6
        base = top - sizes.bar_h
        left = x0
        boxes = []
        for k, seg in enumerate(bar.segments):
            width = bar_w * float(seg.share)
            boxes.append(SegmentBox(left, width, k > 0))
            left += width
        inner = []
        for k, seg_left, width, text, _ in inside:
            last = k == len(bar.segments) - 1
            x = seg_left + width - inset if last else seg_left + inset
            inner.append(Inside(k, text, x, "right" if last else "left", k > 0))
        row_top = base - pad * 0.5
        under = []
        for r, row in enumerate(bar_rows):
            for k, seg_left, width, text, lx, align in row:
                under.append(Below(k, text, lx, align, row_top - r * line_h,
                                   seg_left + width / 2 if r else None))
        bars.append(BarPlan(title, y, bar.emphasis, bar.emphasis, base, sizes.bar_h,
                            tuple(boxes), tuple(inner), tuple(under)))
        y = base - (len(bar_rows) * line_h + pad * 0.5 if bar_rows else 0) - sizes.between
    return BarsPlan(x0, bar_w, inset, box_pad, tuple(bars))


Labels = tuple[list[Placed], list[list[Row]]]  # a bar's labels inside it, and its rows below


def _labels(page: ChartArea, bar: Bar, x0: float, x1: float, inset: float,
            box_pad: float) -> Labels:
    """Per segment, whether its label goes inside it or on a row below the bar."""
    weight = "bold" if bar.emphasis else "normal"
    inside: list[Placed] = []
    below: list[Placed] = []
    left = x0
    for k, seg in enumerate(bar.segments):
        width = (x1 - x0) * float(seg.share)
        text = f"{seg.name} {seg.label}"
        tw = page.size(text, weight=weight)[0] + (2 * box_pad / 72 if k > 0 else 0)
        (inside if tw + 2 * inset <= width else below).append((k, left, width, text, tw))
        left += width
    return inside, rows(below, x0, x1, page, weight)


def _too_wide(page: ChartArea, chart: BarChart, what: str) -> RenderError:
    return RenderError(f"the chart {chart.key!r} does not fit in "
                       f"{dimensions(page.width, page.height, 'in')} at "
                       f"{measure(page.font_pt, 'pt')} text: {what} is wider than the chart")


def _titles(page: ChartArea, chart: BarChart, bar_w: float, plans: list[Labels]) -> list[str]:
    """Each bar's title, wrapped to the bars' width; a RenderError when a title or a label
    below a bar is wider than the chart."""
    titles = []
    for bar in chart.bars:
        weight = "bold" if bar.emphasis else "normal"
        title = bar.label
        if page.size(title, weight=weight)[0] > bar_w:
            title = wrap(page, title, bar_w / 1.12, weight)
        if max(page.size(t, weight=weight)[0] for t in title.split("\n")) > bar_w:
            raise _too_wide(page, chart, f"the bar label {bar.label!r}")
        titles.append(title)
    for bar, (_, bar_rows) in zip(chart.bars, plans, strict=True):
        for row in bar_rows:
            for _, _, _, text, _, _ in row:
                if page.size(text, weight="bold" if bar.emphasis else "normal")[0] > bar_w:
                    raise _too_wide(page, chart, f"the label {text!r}")
    return titles


@dataclass(frozen=True)
class _Heights:
    top: float  # the top of the first bar's title
    bar_h: float
    between: float  # from one bar's last label row to the next bar's title


def _heights(page: ChartArea, chart: BarChart, titles: list[str], plans: list[Labels],
             box_pad: float) -> _Heights:
    """Heights: bar title, bar, label rows under it; spare height goes to the bars, then
    around. Short of height, the space between the bars goes first, then the bars get
    thinner, then the margins; a label never leaves the page."""
    line_h, pad = page.line_h, page.pad
    titles_h = [max(line_h, page.size(t)[1]) for t in titles]
    rows_h = [len(bar_rows) * line_h for _, bar_rows in plans]
    n = max(len(chart.bars), 1)
    gaps = max(len(chart.bars) - 1, 0)
    text_h = page.size("0")[1]
    thinnest = max(1.05 * text_h + 2 * box_pad / 72 * any(k > 0 for inside, _ in plans
                                                          for k, *_ in inside),
                   0.9 * line_h)

    def fixed_h(margin: float) -> float:
        return 2 * margin + sum(t + pad * 0.6 + h + (pad * 0.5 if h else 0)
                                for t, h in zip(titles_h, rows_h, strict=True))

    margin = pad
    fixed = fixed_h(margin)
    bar_h = min(max((page.height - fixed - gaps * 1.2 * line_h) / n, 1.3 * line_h), 3.2 * line_h)
    between = 1.2 * line_h if gaps else 0.0
    used = fixed + len(chart.bars) * bar_h + gaps * between
    if used > page.height:
        between = max((page.height - fixed - n * bar_h) / gaps, 0.35 * line_h) if gaps else 0.0
        bar_h = max((page.height - fixed - gaps * between) / n, thinnest)
        margin = max(min((page.height - fixed_h(0) - n * bar_h - gaps * between) / 2, pad),
                     0.15 * pad)
        fixed = fixed_h(margin)
        used = fixed + len(chart.bars) * bar_h + gaps * between
        if used > page.height + 1e-9:
            raise RenderError(f"the chart {chart.key!r} does not fit in "
                              f"{dimensions(page.width, page.height, 'in')} at "
                              f"{measure(page.font_pt, 'pt')} text: its bars and labels need "
                              f"{measure(used, 'in')} of height")
    if gaps and used < page.height:
        between = min(between + (page.height - used) / gaps, 2.8 * line_h)
    used = fixed + len(chart.bars) * bar_h + gaps * between
    return _Heights(page.height - max((page.height - used) / 2, 0) - margin, bar_h, between)


def hatch(left: float, base: float, width: float, height: float,
          step: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Diagonal strokes filling a rectangle, as plain lines that end on its edges."""
    strokes = []
    k = math.floor((left - height) / step)
    while k * step < left + width:
        c = k * step  # the stroke through (c + t, base + t)
        t0, t1 = max(0.0, left - c), min(height, left + width - c)
        if t1 - t0 > 1e-9:
            strokes.append(((c + t0, base + t0), (c + t1, base + t1)))
        k += 1
    return strokes


def rows(below: list[Placed], x0: float, x1: float, page: ChartArea,
         weight: str) -> list[list[Row]]:
    """Labels set under a bar, at its left end, right end or centred, in rows that don't clash."""
    placed: list[list[Row]] = []
    spans: list[list[tuple[float, float]]] = []
    for k, left, width, text, _ in below:
        tw = page.size(text, weight=weight)[0]
        mid = left + width / 2
        if mid - x0 < (x1 - x0) / 3:
            lx, align, span = max(left, x0), "left", (max(left, x0), max(left, x0) + tw)
        elif x1 - mid < (x1 - x0) / 3:
            end = min(left + width, x1)
            lx, align, span = end, "right", (end - tw, end)
        else:
            c = min(max(mid, x0 + tw / 2), x1 - tw / 2)
            lx, align, span = c, "center", (c - tw / 2, c + tw / 2)
        for row, taken in zip(placed, spans, strict=True):
            if all(span[1] + page.pad <= a or span[0] >= b + page.pad for a, b in taken):
                row.append((k, left, width, text, lx, align))
                taken.append(span)
                break
        else:
            placed.append([(k, left, width, text, lx, align)])
            spans.append([span])
    return placed
