"""Bar charts: each bar to 100% of its total, segments hatched or solid so they read in
greyscale, and labels on the segments or in rows under them that never clash."""

from __future__ import annotations

import math
from typing import Any

from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgb
from matplotlib.patches import Rectangle

from deckgen.charts.page import _HATCH_STEP, _Page, _Placed, _Row, _wrap
from deckgen.content import Theme
from deckgen.errors import RenderError
from deckgen.fmt import dimensions, measure
from deckgen.story import BarChart


def _luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _ink_on(fill: str, theme: Theme) -> str:
    """The theme's text or background colour, whichever reads better on `fill`."""
    return max((theme.text, theme.background), key=lambda ink: contrast(ink, fill))


def _draw_bars(page: _Page, chart: BarChart, theme: Theme) -> None:
    fig, font_pt = page.figure, page.font_pt
    scale = font_pt / 16.0
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, page.width)
    ax.set_ylim(0, page.height)
    ax.set_axis_off()
    ax.set_facecolor(theme.background)

    line_h, pad = page.line_h, page.pad
    x0, x1 = pad, page.width - pad
    bar_w = x1 - x0
    inset = font_pt * 0.45 / 72  # text inside a segment keeps this far from its edges
    box_pad = font_pt * 0.2  # points around a label set on the hatching

    # Decide, per segment, whether its label goes inside or on a row below the bar.
    plans = []
    for bar in chart.bars:
        weight = "bold" if bar.emphasis else "normal"
        inside: list[_Placed] = []
        below: list[_Placed] = []
        left = x0
        for k, seg in enumerate(bar.segments):
            width = bar_w * float(seg.share)
            text = f"{seg.name} {seg.label}"
            tw = page.size(text, weight=weight)[0] + (2 * box_pad / 72 if k > 0 else 0)
            (inside if tw + 2 * inset <= width else below).append((k, left, width, text, tw))
            left += width
        plans.append((inside, _rows(below, x0, x1, page, weight)))

    # Heights: bar title, bar, label rows under it; spare height goes to the bars, then around.
    # Short of height, the space between the bars goes first, then the bars get thinner, then
    # the margins; a label never leaves the page.
    titles = []
    for bar in chart.bars:
        weight = "bold" if bar.emphasis else "normal"
        title = bar.label
        if page.size(title, weight=weight)[0] > bar_w:
            title = _wrap(page, title, bar_w / 1.12, weight)
        if max(page.size(t, weight=weight)[0] for t in title.split("\n")) > bar_w:
            raise RenderError(f"the chart {chart.key!r} does not fit in "
                              f"{dimensions(page.width, page.height, 'in')} at "
                              f"{measure(font_pt, 'pt')} text: the bar label "
                              f"{bar.label!r} is wider than the chart")
        titles.append(title)
    for bar, (_, rows) in zip(chart.bars, plans, strict=True):
        for row in rows:
            for _, _, _, text, _, _ in row:
                if page.size(text, weight="bold" if bar.emphasis else "normal")[0] > bar_w:
                    raise RenderError(f"the chart {chart.key!r} does not fit in "
                                      f"{dimensions(page.width, page.height, 'in')} at "
                                      f"{measure(font_pt, 'pt')} text: the label "
                                      f"{text!r} is wider than the chart")
    titles_h = [max(line_h, page.size(t)[1]) for t in titles]
    rows_h = [len(rows) * line_h for _, rows in plans]
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
                              f"{measure(font_pt, 'pt')} text: its bars and labels need "
                              f"{measure(used, 'in')} of height")
    if gaps and used < page.height:
        between = min(between + (page.height - used) / gaps, 2.8 * line_h)
    used = fixed + len(chart.bars) * bar_h + gaps * between
    y = page.height - max((page.height - used) / 2, 0) - margin  # top of the first bar's title

    for bar, title, title_h, (inside, rows) in zip(chart.bars, titles, titles_h, plans,
                                                   strict=True):
        spacing: dict[str, Any] = {"linespacing": 1.15} if "\n" in title else {}
        ax.text(x0, y, title, ha="left", va="top", fontsize=font_pt, **spacing,
                fontweight="bold" if bar.emphasis else "normal",
                color=theme.accent if bar.emphasis else theme.text)
        top = y - title_h - pad * 0.6
        base = top - bar_h
        centre = base + bar_h / 2
        left = x0
        fills = []
        for k, seg in enumerate(bar.segments):
            width = bar_w * float(seg.share)
            hatched = k > 0
            if hatched:
                fill = theme.background
                ax.add_patch(Rectangle((left, base), width, bar_h, facecolor=fill,
                                       edgecolor=theme.muted, linewidth=1.0 * scale))
                ax.add_collection(LineCollection(
                    _hatch(left, base, width, bar_h, _HATCH_STEP * max(scale, 0.6)),
                    colors=theme.muted, linewidths=0.9 * scale, capstyle="butt"))
            else:
                fill = theme.accent if bar.emphasis else theme.muted
                ax.add_patch(Rectangle((left, base), width, bar_h, facecolor=fill, edgecolor=fill,
                                       linewidth=0.0))
            fills.append(fill)
            left += width
        for k, seg_left, width, text, _ in inside:
            last = k == len(bar.segments) - 1
            x = seg_left + width - inset if last else seg_left + inset
            box = None
            if k > 0:
                box = {"boxstyle": f"square,pad={box_pad / font_pt:.3f}",
                       "facecolor": theme.background, "edgecolor": "none"}
            ax.text(x, centre, text, ha="right" if last else "left", va="center_baseline",
                    fontsize=font_pt, color=_ink_on(fills[k], theme), bbox=box,
                    fontweight="bold" if bar.emphasis else "normal")
        row_top = base - pad * 0.5
        for r, row in enumerate(rows):
            for _, seg_left, width, text, lx, align in row:
                ty = row_top - r * line_h
                ax.text(lx, ty, text, ha=align, va="top", fontsize=font_pt, color=theme.text,
                        fontweight="bold" if bar.emphasis else "normal")
                if r:  # a lower row: a leader up to its segment
                    mid = seg_left + width / 2
                    ax.plot([mid, mid], [base, ty], color=theme.text, linewidth=0.8 * scale)
        y = base - (len(rows) * line_h + pad * 0.5 if rows else 0) - between


def _hatch(left: float, base: float, width: float, height: float,
           step: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Diagonal strokes filling a rectangle, as plain lines (patterns don't survive SVG import)."""
    strokes = []
    k = math.floor((left - height) / step)
    while k * step < left + width:
        c = k * step  # the stroke through (c + t, base + t)
        t0, t1 = max(0.0, left - c), min(height, left + width - c)
        if t1 - t0 > 1e-9:
            strokes.append(((c + t0, base + t0), (c + t1, base + t1)))
        k += 1
    return strokes


def _rows(below: list[_Placed], x0: float, x1: float, page: _Page,
          weight: str) -> list[list[_Row]]:
    """Labels set under a bar, at its left end, right end or centred, in rows that don't clash."""
    rows: list[list[_Row]] = []
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
        for row, taken in zip(rows, spans, strict=True):
            if all(span[1] + page.pad <= a or span[0] >= b + page.pad for a, b in taken):
                row.append((k, left, width, text, lx, align))
                taken.append(span)
                break
        else:
            rows.append([(k, left, width, text, lx, align)])
            spans.append([span])
    return rows
