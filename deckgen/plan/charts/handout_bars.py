"""The handout's bar chart placed: where its titles, bars, segments and labels go on the
handout's sheet.

Each bar runs to 100% of its total; a segment's label goes inside it when it fits, else it is
lent to the widest segment of its bar, under that segment's own (style.lent: the rule the
deck's charts follow too). Distances are in inches on a sheet of `width` by `height` with y
up (as reportlab's drawing has it); text is measured by the sheet it is given (the
handout's own fonts). Pure: no rendering library, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from deckgen import fonts
from deckgen.errors import RenderError
from deckgen.fmt import NBSP, dimensions, measure
from deckgen.plan.charts import style
from deckgen.story import Bar, BarChart
from deckgen.typeset.text import Face, Overlong, break_lines, longest_word

HATCH_STEP = 0.11  # inches between hatch strokes at deck size


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
    """A label set inside a segment (its own, and those lent to it, a line each), its lines
    centred on the bar, in the colour role that reads on the segment ('background' on a
    solid one, 'text' on the hatching)."""

    segment: int
    text: str
    x: float
    align: str  # "left" or "right"
    boxed: bool  # set on a patch of background over the hatching
    role: str = "text"


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
    for bar, title, inside in zip(chart.bars, titles, plans, strict=True):
        top = y - max(line_h, page.size(title)[1]) - pad * 0.6
        base = top - sizes.bar_h
        left = x0
        boxes = []
        for k, seg in enumerate(bar.segments):
            width = bar_w * float(seg.share)
            boxes.append(SegmentBox(left, width, k > 0))
            left += width
        bars.append(BarPlan(title, y, bar.emphasis, bar.emphasis, base, sizes.bar_h,
                            tuple(boxes), tuple(inside)))
        y = base - sizes.between
    return BarsPlan(x0, bar_w, inset, box_pad, tuple(bars))


def _labels(page: ChartArea, bar: Bar, x0: float, x1: float, inset: float,
            box_pad: float) -> list[Inside]:
    """The bar's labels, each in its own segment when it fits there with its insets (and
    its patch, on the hatching), else lent to the bar's widest segment (style.lent)."""
    weight = "bold" if bar.emphasis else "normal"
    lefts, widths, texts, fits = [], [], [], []
    left = x0
    for k, seg in enumerate(bar.segments):
        width = (x1 - x0) * float(seg.share)
        text = f"{seg.name} {seg.label}"
        tw = page.size(text, weight=weight)[0] + (2 * box_pad / 72 if k > 0 else 0)
        lefts.append(left)
        widths.append(width)
        texts.append(text)
        fits.append(tw + 2 * inset <= width)
        left += width
    out = []
    last = len(bar.segments) - 1
    for k, carried in enumerate(style.lent([float(s.share) for s in bar.segments], fits)):
        if carried:
            x = lefts[k] + widths[k] - inset if k == last else lefts[k] + inset
            out.append(Inside(k, "\n".join(texts[j] for j in carried), x,
                              "right" if k == last else "left", k > 0,
                              "text" if k > 0 else "background"))
    return out


def _too_wide(page: ChartArea, chart: BarChart, what: str) -> RenderError:
    return RenderError(f"the chart {chart.key!r} does not fit in "
                       f"{dimensions(page.width, page.height, 'in')} at "
                       f"{measure(page.font_pt, 'pt')} text: {what} is wider than the chart")


def _titles(page: ChartArea, chart: BarChart, bar_w: float,
            plans: list[list[Inside]]) -> list[str]:
    """Each bar's title, wrapped to the bars' width; a RenderError when a title or a label
    is wider than the chart."""
    titles = []
    for bar in chart.bars:
        weight = "bold" if bar.emphasis else "normal"
        title = bar.label
        if page.size(title, weight=weight)[0] > bar_w:
            title = wrap(page, title, bar_w / 1.12, weight)
        if max(page.size(t, weight=weight)[0] for t in title.split("\n")) > bar_w:
            raise _too_wide(page, chart, f"the bar label {bar.label!r}")
        titles.append(title)
    for bar, inside in zip(chart.bars, plans, strict=True):
        for label in inside:
            for text in label.text.split("\n"):
                if page.size(text, weight="bold" if bar.emphasis else "normal")[0] > bar_w:
                    raise _too_wide(page, chart, f"the label {text!r}")
    return titles


@dataclass(frozen=True)
class _Heights:
    top: float  # the top of the first bar's title
    bar_h: float
    between: float  # from one bar's last label row to the next bar's title


def _heights(page: ChartArea, chart: BarChart, titles: list[str], plans: list[list[Inside]],
             box_pad: float) -> _Heights:
    """Heights: bar title, then the bar; spare height goes to the bars, then around. Short
    of height, the space between the bars goes first, then the bars get thinner (never
    thinner than their labels' lines), then the margins; a label never leaves the page."""
    line_h, pad = page.line_h, page.pad
    titles_h = [max(line_h, page.size(t)[1]) for t in titles]
    n = max(len(chart.bars), 1)
    gaps = max(len(chart.bars) - 1, 0)
    most = max((label.text.count("\n") + 1 for inside in plans for label in inside), default=1)
    text_h = page.size("\n".join("0" * most))[1]
    boxed = any(label.boxed for inside in plans for label in inside)
    thinnest = max(1.05 * text_h + 2 * box_pad / 72 * boxed, 0.9 * line_h * most)

    def fixed_h(margin: float) -> float:
        return 2 * margin + sum(t + pad * 0.6 for t in titles_h)

    margin = pad
    fixed = fixed_h(margin)
    bar_h = min(max((page.height - fixed - gaps * 1.2 * line_h) / n, 1.3 * line_h, thinnest),
                max(3.2 * line_h, thinnest))
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
