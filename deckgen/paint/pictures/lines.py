"""Line charts: log axes, the lines' names at their ends, the dial's marks, ticks that
stand apart, and a y-axis label that wraps or sits level above the plot when short of room."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from deckgen.content import Theme
from deckgen.errors import RenderError
from deckgen.fmt import dimensions, measure
from deckgen.paint.pictures.page import _DASHES, _MARKERS, _chunks, _Page, _wrap
from deckgen.story import Line as SpecLine
from deckgen.story import LineChart
from deckgen.typeset.fit import spread


@dataclass
class _Style:
    colour: str
    dashes: tuple[float, ...] | None  # None: solid
    marker: str
    width: float
    label_colour: str
    weight: str


def _styles(lines: Sequence[SpecLine], theme: Theme, scale: float) -> list[_Style]:
    styles = []
    other = 0
    for line in lines:
        if line.emphasis:
            styles.append(_Style(theme.accent, None, "o", 3.2 * scale, theme.accent, "bold"))
        else:
            styles.append(_Style(theme.muted, _DASHES[other % len(_DASHES)],
                                 _MARKERS[other % len(_MARKERS)], 2.2 * scale, theme.text,
                                 "normal"))
            other += 1
    return styles


def _log_limits(values: Sequence[float], pad: float) -> tuple[float, float]:
    low, high = math.log10(min(values)), math.log10(max(values))
    span = max(high - low, 1e-9)
    return 10 ** (low - pad * span), 10 ** (high + pad * span)


def _label_text(line: SpecLine) -> str:
    return f"{line.label}\n{line.asymptote_label}" if line.asymptote_label else line.label


def _draw_lines(page: _Page, chart: LineChart, theme: Theme) -> None:
    fig, font_pt = page.figure, page.font_pt
    scale = font_pt / 16.0
    styles = _styles(chart.lines, theme, scale)
    tick_len, tick_pad = 0.35 * font_pt, 0.3 * font_pt  # points
    texts, sizes = _end_texts(page, chart, styles)
    label_w = max((w for w, _ in sizes), default=0.0)

    # Margins, in inches, from the measured text around the plot; the y-axis label as drawn by
    # matplotlib when it fits beside the plot, else placed by hand (see _y_label).
    y_tick_w = max((page.size(t.label)[0] for t in chart.y_ticks), default=0.0)
    x_tick_h = max((page.size(t.label)[1] for t in chart.x_ticks), default=0.0)
    x_label_h = page.size(chart.x_label)[1]
    # The rule's label names the dial and the value of its marked point: "Our dial: 1M · 132.57×".
    marker_text = " \u00b7 ".join([chart.marker_label, *(m.label for m in chart.marks)])
    mark_w, mark_h = page.size(marker_text, weight="bold")
    ticks = (tick_len + tick_pad) / 72
    gap = page.pad
    bottom = page.pad + x_label_h + gap + x_tick_h + ticks
    right = page.pad + label_w + 2 * gap
    x_lim, y_lim = _limits(chart)
    at = (math.log10(float(chart.marker)) - math.log10(x_lim[0])) / (
        math.log10(x_lim[1]) - math.log10(x_lim[0]))

    def marker_span(left: float) -> tuple[float, float]:
        """Where the marker label goes across the page when the plot starts at `left`."""
        plot_w = page.width - left - right
        start = min(max(left + plot_w * at - mark_w / 2, left), left + plot_w - mark_w)
        return start, start + mark_w

    y_label = None
    for how in ("beside", "wrapped", "above"):
        y_label = _y_label(page, chart, how, bottom, mark_h, y_tick_w + ticks, marker_span)
        if y_label is not None:
            break
    assert y_label is not None  # "above" always has a plan
    left, top = y_label.left, y_label.top
    plot_w, plot_h = page.width - left - right, page.height - top - bottom
    if plot_w <= 0.5 * page.line_h or plot_h <= page.line_h:
        raise RenderError(f"the chart {chart.key!r} does not fit in "
                          f"{dimensions(page.width, page.height, 'in')} at "
                          f"{measure(font_pt, 'pt')} text")
    ax = fig.add_axes((left / page.width, bottom / page.height, plot_w / page.width,
                       plot_h / page.height))
    _axes_look(ax, chart, theme, font_pt, tick_len, tick_pad)
    if y_label.how == "beside":
        ax.set_ylabel(chart.y_label, fontsize=font_pt, color=theme.text, labelpad=font_pt * 0.4)

    ax.set_xlim(*x_lim)
    ax.set_ylim(*y_lim)
    _thin_y_ticks(ax, chart, page, plot_h)
    _thin_x_ticks(ax, chart, page, plot_w)
    _draw_y_label(page, chart, theme, y_label, bottom, plot_h)
    _plot_lines(ax, chart, theme, styles, scale)

    # The chosen speed: a rule across the plot and its label above it.
    marker_x = float(chart.marker)
    ax.axvline(marker_x, color=theme.accent, linewidth=1.5 * scale, zorder=2.8)
    to_inches = ax.transData + fig.dpi_scale_trans.inverted()
    mx = to_inches.transform((marker_x, 1.0))[0]
    start = min(max(mx - mark_w / 2, left), left + plot_w - mark_w)
    fig.text(start / page.width, (bottom + plot_h + gap * 0.6) / page.height, marker_text,
             ha="left", va="bottom", color=theme.accent, fontweight="bold", fontsize=font_pt)
    _end_labels(page, ax, chart, styles, texts, [h for _, h in sizes],
                (left, bottom, plot_w), to_inches)


def _end_texts(page: _Page, chart: LineChart, styles: Sequence[_Style]
               ) -> tuple[list[str], list[tuple[float, float]]]:
    """The direct labels at the lines' right-hand ends, wrapped when they would take too much
    width, and each one's size (inches)."""
    texts = [_label_text(line) for line in chart.lines]
    natural = max((page.size(t, weight=s.weight)[0]
                   for t, s in zip(texts, styles, strict=True)), default=0.0)
    budget = max([0.26 * page.width] + [page.size(chunk, weight=s.weight)[0]
                                        for line, s in zip(chart.lines, styles, strict=True)
                                        for chunk in _chunks(line.label) + [line.asymptote_label]])
    if natural > budget:
        texts = [_wrap(page, t.split("\n")[0], budget, s.weight)
                 + (f"\n{line.asymptote_label}" if line.asymptote_label else "")
                 for t, s, line in zip(texts, styles, chart.lines, strict=True)]
    return texts, [page.size(t, weight=s.weight) for t, s in zip(texts, styles, strict=True)]


def _limits(chart: LineChart) -> tuple[tuple[float, float], tuple[float, float]]:
    """The x and y limits of the log axes: every point, tick, ceiling and the marker, with a
    little room around them."""
    xs = [float(x) for line in chart.lines for x, _ in line.points]
    xs += [float(t.at) for t in chart.x_ticks] + [float(chart.marker)]
    ys = [float(y) for line in chart.lines for _, y in line.points]
    ys += [float(t.at) for t in chart.y_ticks]
    ys += [float(line.asymptote) for line in chart.lines if line.asymptote is not None]
    return _log_limits(xs, 0.035), _log_limits(ys, 0.05)


def _plot_lines(ax: Axes, chart: LineChart, theme: Theme, styles: Sequence[_Style],
                scale: float) -> None:
    """Each line in its style (its ceiling dashed across the plot, markers on the ticks'
    points and its ends), then the dial's own point: a ring in the accent, on top of its
    line."""
    marked = {float(t.at) for t in chart.x_ticks} | {float(chart.marker)}
    for order, (line, style) in enumerate(zip(chart.lines, styles, strict=True)):
        px = [float(x) for x, _ in line.points]
        py = [float(y) for _, y in line.points]
        every = [i for i, x in enumerate(px) if x in marked or i in (0, len(px) - 1)]
        z = 4.0 if line.emphasis else 3.0 + order * 0.01
        if line.asymptote is not None:
            ax.axhline(float(line.asymptote), color=style.colour, linewidth=1.1 * scale,
                       dashes=(2.5, 3), zorder=2.5)
        drawn = ax.plot(px, py, color=style.colour, linewidth=style.width, marker=style.marker,
                        markevery=every, markersize=(7.5 if line.emphasis else 6.5) * scale,
                        markerfacecolor=theme.background if not line.emphasis else style.colour,
                        markeredgewidth=1.4 * scale, zorder=z, clip_on=False,
                        solid_capstyle="butt")[0]
        if style.dashes is not None:
            drawn.set_dashes([d * scale for d in style.dashes])
    for m in chart.marks:
        ax.plot([float(m.at)], [float(m.value)], marker="o", markersize=13 * scale,
                markerfacecolor="none", markeredgecolor=theme.accent, markeredgewidth=2.6 * scale,
                linestyle="none", zorder=5, clip_on=False)


def _end_labels(page: _Page, ax: Axes, chart: LineChart, styles: Sequence[_Style],
                texts: Sequence[str], heights: list[float], plot: tuple[float, float, float],
                to_inches: Any) -> None:  # noqa: ANN401 (a matplotlib transform)
    """The direct labels at the line ends, right of the plot (its left, bottom and width in
    `plot`), nudged apart, each joined to its line when nudged; on down beside the x axis
    when the plot is too short for them."""
    fig, gap, scale = page.figure, page.pad, page.font_pt / 16.0
    left, bottom, plot_w = plot
    ends = [to_inches.transform((float(line.points[-1][0]), float(line.points[-1][1])))
            for line in chart.lines]
    label_x = left + plot_w + 2 * gap
    high = page.height - page.pad
    centres = spread([y for _, y in ends], heights, bottom, high, gap * 0.5)
    if centres and min(c - h / 2 for c, h in zip(centres, heights, strict=True)) < bottom - 1e-6:
        # Too many for the plot's height: the labels go on down beside the x-axis, which
        # moves left of them when it must.
        centres = spread([y for _, y in ends], heights, page.pad, high, gap * 0.5)
        x_label_w = page.size(chart.x_label)[0]
        if left + plot_w / 2 + x_label_w / 2 > label_x - gap:
            ax.xaxis.label.set_x((label_x - gap - x_label_w / 2 - left) / plot_w)
        span = sum(heights) + gap * 0.5 * (len(heights) - 1)
        if span > high - page.pad + 1e-6 or label_x - gap - x_label_w < page.pad:
            raise RenderError(f"the chart {chart.key!r} does not fit in "
                              f"{dimensions(page.width, page.height, 'in')} at "
                              f"{measure(page.font_pt, 'pt')} text: its line labels need "
                              f"more height")
    for text, style, (ex, ey), y in zip(texts, styles, ends, centres, strict=True):
        fig.text(label_x / page.width, y / page.height, text, ha="left", va="center",
                 color=style.label_colour, fontweight=style.weight, fontsize=page.font_pt,
                 linespacing=1.15)
        if abs(y - ey) > 0.15 * page.line_h:
            leader_x = [(ex + gap * 0.6) / page.width, (label_x - gap * 0.4) / page.width]
            fig.add_artist(Line2D(leader_x, [ey / page.height, y / page.height],
                                  color=style.colour, linewidth=0.9 * scale,
                                  transform=fig.transFigure))


def _axes_look(ax: Axes, chart: LineChart, theme: Theme, font_pt: float, tick_len: float,
               tick_pad: float) -> None:
    scale = font_pt / 16.0
    ax.set_facecolor(theme.background)
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis, ticks in ((ax.xaxis, chart.x_ticks), (ax.yaxis, chart.y_ticks)):
        axis.set_major_locator(FixedLocator([float(t.at) for t in ticks]))
        axis.set_major_formatter(FixedFormatter([t.label for t in ticks]))
        axis.set_minor_locator(NullLocator())
        axis.set_minor_formatter(NullFormatter())
    ax.tick_params(which="major", labelsize=font_pt, colors=theme.text, length=tick_len,
                   width=0.9 * scale, pad=tick_pad)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(theme.text)
        ax.spines[side].set_linewidth(0.9 * scale)
    ax.grid(True, which="major", color=theme.rule, linewidth=0.7 * scale)
    ax.set_axisbelow(True)
    ax.set_xlabel(chart.x_label, fontsize=font_pt, color=theme.text, labelpad=font_pt * 0.4)


@dataclass(frozen=True)
class _YLabel:
    """Where the y-axis label goes. "beside": matplotlib's own, centred on the plot; "shifted"
    and "wrapped": rotated beside the plot (on one or two lines), moved to stay on the page;
    "above": level, over the plot's top left corner, the marker label beside or under it."""

    how: str
    text: str
    left: float  # the plot's left edge, inches
    top: float  # the margin over the plot, inches


def _two_lines(page: _Page, text: str) -> str | None:
    """`text` on two lines, broken at the space that leaves the narrower widest line."""
    chunks = _chunks(text)
    if len(chunks) < 2:
        return None
    tries = [(" ".join(chunks[:i]), " ".join(chunks[i:])) for i in range(1, len(chunks))]
    first, second = min(tries, key=lambda t: max(page.size(t[0])[0], page.size(t[1])[0]))
    return f"{first}\n{second}"


def _y_label(page: _Page, chart: LineChart, how: str, bottom: float, mark_h: float,
             tick_col: float, marker_span: Callable[[float], tuple[float, float]]
             ) -> _YLabel | None:
    """A plan for the y-axis label, or None when `how` cannot keep it whole on the page."""
    gap, room = page.pad, page.height - 2 * page.pad
    top = page.pad + mark_h + gap
    if how in ("beside", "wrapped"):
        text = chart.y_label if how == "beside" else _two_lines(page, chart.y_label)
        if text is None:
            return None
        along, across = page.size(text)
        if along > room:
            return None
        centre = bottom + (page.height - top - bottom) / 2
        if how == "beside" and not (page.pad <= centre - along / 2 and
                                    centre + along / 2 <= page.height - page.pad):
            how = "shifted"
        return _YLabel(how, text, page.pad + across + gap + tick_col, top)
    text = chart.y_label
    if page.size(text)[0] > page.width - 2 * page.pad:
        text = _wrap(page, text, page.width - 2 * page.pad, "normal")
    w, h = page.size(text)
    left = page.pad + tick_col
    if marker_span(left)[0] < page.pad + w + gap:  # the two would meet: the marker's row below
        top = page.pad + h + gap * 0.5 + mark_h + gap
    else:
        top = page.pad + max(h, mark_h) + gap
    return _YLabel("above", text, left, top)


def _draw_y_label(page: _Page, chart: LineChart, theme: Theme, plan: _YLabel, bottom: float,
                  plot_h: float) -> None:
    if plan.how == "beside":
        return  # set on the axes
    style: dict[str, Any] = {"color": theme.text, "fontsize": page.font_pt, "linespacing": 1.15}
    if plan.how == "above":
        page.figure.text(page.pad / page.width, 1 - page.pad / page.height, plan.text,
                         ha="left", va="top", **style)
        return
    along, across = page.size(plan.text)
    centre = min(max(bottom + plot_h / 2, page.pad + along / 2),
                 page.height - page.pad - along / 2)
    page.figure.text((page.pad + across / 2) / page.width, centre / page.height, plan.text,
                     rotation=90, ha="center", va="center", multialignment="center", **style)


def _thin_x_ticks(ax: Axes, chart: LineChart, page: _Page, plot_w: float) -> None:
    """Drop tick labels that would run into each other: the first and last stay, then the ones
    nearest the chosen speed, then the rest as room allows."""
    low, high = (math.log10(v) for v in ax.get_xlim())
    per_inch = plot_w / (high - low)
    ticks = list(chart.x_ticks)
    if len(ticks) < 2:
        return
    gap = page.size("0")[0] * 0.35
    at = [(math.log10(float(t.at)) - low) * per_inch for t in ticks]
    half = [page.size(t.label)[0] / 2 for t in ticks]
    marker = math.log10(float(chart.marker))
    rest = sorted(range(1, len(ticks) - 1),
                  key=lambda i: (abs(math.log10(float(ticks[i].at)) - marker), i))
    keep: list[int] = []
    for i in [0, len(ticks) - 1, *rest]:
        if all(abs(at[i] - at[k]) >= half[i] + half[k] + gap for k in keep):
            keep.append(i)
    if len(keep) != len(ticks):
        kept = [ticks[i] for i in sorted(keep)]
        ax.xaxis.set_major_locator(FixedLocator([float(t.at) for t in kept]))
        ax.xaxis.set_major_formatter(FixedFormatter([t.label for t in kept]))


def _thin_y_ticks(ax: Axes, chart: LineChart, page: _Page, plot_h: float) -> None:
    """Drop tick labels that would touch the one below them, keeping the lowest and highest."""
    low, high = (math.log10(v) for v in ax.get_ylim())
    per_inch = plot_h / (high - low)
    shown = [t for t in chart.y_ticks if low <= math.log10(float(t.at)) <= high]
    if len(shown) < 3:
        return
    need = page.size("0")[1] * 0.9  # the box has room above and below the digits
    at = [math.log10(float(t.at)) * per_inch for t in shown]
    keep = [0]
    for i in range(1, len(shown) - 1):
        if at[i] - at[keep[-1]] >= need and at[-1] - at[i] >= need:
            keep.append(i)
    keep.append(len(shown) - 1)
    kept = [shown[i] for i in keep]
    if len(kept) != len(chart.y_ticks):
        ax.yaxis.set_major_locator(FixedLocator([float(t.at) for t in kept]))
        ax.yaxis.set_major_formatter(FixedFormatter([t.label for t in kept]))

