"""Charts from the story's chart specs: PNG for the deck, SVG for the handout.

Only this module imports matplotlib. It draws what a spec says and formats nothing: every
tick, line and segment label is text from the story. The layout is worked out by hand, in
inches, from measured text, so labels neither overlap nor get clipped: short of room, a
chart packs tighter, wraps its y-axis label or sets it level above the plot and drops
crowded tick labels, and when its text still cannot fit it raises RenderError. The same
input always gives the same bytes.

Text is drawn in Liberation Sans from the files shipped with the package (registered with
matplotlib by path, ahead of any installed copy; DejaVu Sans draws what it lacks), and
measured and broken into lines by `deckgen.layout.text`, the measurer and line breaker the
deck and the handout use, so a label is placed where the deck and the handout would set it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from matplotlib import font_manager, rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from deckgen import fonts
from deckgen.content import Theme
from deckgen.errors import RenderError
from deckgen.fmt import NBSP, dimensions, measure
from deckgen.layout.fit import spread
from deckgen.layout.text import Face, Overlong, break_lines, longest_word
from deckgen.story import BarChart, Chart, LineChart
from deckgen.story import Line as SpecLine

FORMATS = ("png", "svg")
MIN_DPI = 72

# The other lines, after "ours": a dash pattern and a marker each, so greyscale tells them apart.
_DASHES: tuple[tuple[float, ...], ...] = (
    (6, 2.5), (1.2, 1.8), (7, 2, 1.5, 2), (3.5, 2, 1.2, 2, 1.2, 2))
_MARKERS = ("s", "^", "D", "v", "P", "X")
_HATCH_STEP = 0.11  # inches between hatch strokes at deck size

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in inches
_Placed = tuple[int, float, float, str, float]  # segment index, left, width, label, label width
_Row = tuple[int, float, float, str, float, str]  # segment index, left, width, label, x, alignment


def render(chart: Chart, theme: Theme, *, width_in: float, height_in: float, fmt: str = "png",
           dpi: int = 200, font_pt: float = 16.0) -> bytes:
    """One chart as PNG (at `dpi`) or SVG (text kept as text), exactly width_in x height_in."""
    if fmt not in FORMATS:
        raise RenderError(f"chart format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not (width_in > 0 and height_in > 0 and font_pt > 0):
        raise RenderError(f"chart size must be positive, got "
                          f"{dimensions(width_in, height_in, 'in')} at {measure(font_pt, 'pt')}")
    if dpi < MIN_DPI:
        raise RenderError(f"chart resolution must be at least {measure(MIN_DPI, 'dpi')}, "
                          f"got {measure(dpi, 'dpi')}")
    with _context(font_pt):
        figure = _figure(chart, theme, width_in, height_in, dpi, font_pt)
        out = io.BytesIO()
        if fmt == "png":
            figure.savefig(out, format="png", dpi=dpi, facecolor=theme.background,
                           metadata={"Software": None})
        else:
            figure.savefig(out, format="svg", facecolor=theme.background,
                           metadata={"Date": None, "Creator": None})
        figure.clear()
    if fmt == "svg":
        # SVG importers look faces up by keyword: "bold" finds Liberation Sans Bold, "700" may
        # not.
        return out.getvalue().replace(b"font-weight: 700;", b"font-weight: bold;")
    return out.getvalue()


def text_boxes(chart: Chart, theme: Theme, *, width_in: float, height_in: float,
               font_pt: float = 16.0, dpi: int = 100) -> list[tuple[str, Box]]:
    """Every piece of text the chart draws, with its box in inches from the figure's lower left
    corner (x0, y0, x1, y1), as the renderer measures it: for testing the layout."""
    with _context(font_pt):
        figure = _figure(chart, theme, width_in, height_in, dpi, font_pt)
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        figure.draw(renderer)
        texts: list[Text] = []
        for ax in figure.axes:
            for axis in (ax.xaxis, ax.yaxis) if ax.axison else ():
                low, high = sorted(axis.get_view_interval())
                texts += [label for at, label in zip(axis.get_majorticklocs(),
                                                     axis.get_majorticklabels(), strict=True)
                          if low <= at <= high]  # the ticks drawn
                texts.append(axis.label)
            texts += ax.texts
        texts += figure.texts
        boxes = []
        for text in texts:
            if not (text.get_visible() and text.get_text()):
                continue
            box = text.get_window_extent(renderer)
            boxes.append((text.get_text(), (box.x0 / dpi, box.y0 / dpi, box.x1 / dpi,
                                            box.y1 / dpi)))
        figure.clear()
    return boxes


_STYLES = ("regular", "bold", "italic", "bolditalic")
_registered: list[str] = []


def _register() -> None:
    """Register the shipped Liberation Sans files with matplotlib, once, ahead of any copy
    installed on the system, so every machine draws with the same files."""
    if _registered:
        return
    manager = font_manager.fontManager
    paths = [str(fonts.text_path(style)) for style in _STYLES]
    for path in paths:
        manager.addfont(path)
    ours = [entry for path in paths for entry in manager.ttflist if entry.fname == path][:4]
    manager.ttflist = ours + [entry for entry in manager.ttflist if entry not in ours]
    manager._findfont_cached.cache_clear()  # type: ignore[attr-defined]  # noqa: SLF001
    _registered.extend(paths)


def face(weight: str = "normal") -> Face:
    """The measured face the charts' text is set in: Liberation Sans, regular or bold."""
    return fonts.face(fonts.CHART_FAMILY, weight == "bold")


def _context(font_pt: float) -> AbstractContextManager[None]:
    _register()
    return rc_context({
        "font.family": [fonts.CHART_FAMILY, fonts.FAMILY],
        "font.size": font_pt,
        "axes.unicode_minus": False,
        "svg.fonttype": "none",  # text stays text, selectable once the handout imports it
        "svg.hashsalt": "deckgen",  # ids from content, not from chance
        "path.simplify": False,
    })


def _figure(chart: Chart, theme: Theme, width_in: float, height_in: float, dpi: int,
            font_pt: float) -> Figure:
    """The chart drawn on a new figure (inside `_context`)."""
    figure = Figure(figsize=(width_in, height_in), dpi=dpi, facecolor=theme.background)
    FigureCanvasAgg(figure)
    page = _Page(figure, width_in, height_in, font_pt)
    if isinstance(chart, LineChart):
        _draw_lines(page, chart, theme)
    elif isinstance(chart, BarChart):
        _draw_bars(page, chart, theme)
    else:  # pragma: no cover - the story makes only these two
        raise RenderError(f"cannot draw a chart of type {type(chart).__name__}")
    return figure


@dataclass
class _Page:
    """A figure with inch coordinates and a way to measure text before drawing it."""

    figure: Figure
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
        """Width and height in inches of `text` (one or more lines) as it will be drawn,
        measured by the layout layer: its widest line, and a line box per line."""
        if not text:
            return 0.0, 0.0
        lines = text.split("\n")
        measured = face(weight)
        wide = max(measured.width(line, self.font_pt) for line in lines)
        return wide / 72, measured.height(len(lines), self.font_pt) / 72


# ---------------------------------------------------------------------------------------------
# Line charts


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


def _breakable(words: Sequence[str], i: int) -> bool:
    """May a line break fall before words[i]? Not inside '2 h 14 min' nor '60 seconds'."""
    before, after = words[i - 1], words[i]
    if any(ch.isdigit() for ch in before):
        return False
    return not (any(ch.isdigit() for ch in after) and len(before) <= 3)


def _chunks(text: str) -> list[str]:
    """The pieces of `text` that a line break may fall between."""
    words = text.split(" ")
    chunks = [words[0]]
    for i in range(1, len(words)):
        if _breakable(words, i):
            chunks.append(words[i])
        else:
            chunks[-1] += " " + words[i]
    return chunks


def _wrap(page: _Page, text: str, budget: float, weight: str) -> str:
    """`text` broken into lines no wider than `budget` inches where it can be, by the layout
    layer's line breaker; a figure and its unit ("2 h 14 min", "60 seconds") are held
    together for it, and a piece wider than the line goes on a line of its own."""
    held = " ".join(chunk.replace(" ", NBSP) for chunk in _chunks(text))
    width = budget * 1.12 * 72  # a little over beats a lone word
    width = max(width, longest_word(held, face(weight), page.font_pt))
    lines = break_lines(held, face(weight), page.font_pt, width)
    assert not isinstance(lines, Overlong)  # no piece is wider than the line
    return "\n".join(line.replace(NBSP, " ") for line in lines)


def _label_text(line: SpecLine) -> str:
    return f"{line.label}\n{line.asymptote_label}" if line.asymptote_label else line.label


def _draw_lines(page: _Page, chart: LineChart, theme: Theme) -> None:
    fig, font_pt = page.figure, page.font_pt
    scale = font_pt / 16.0
    styles = _styles(chart.lines, theme, scale)
    tick_len, tick_pad = 0.35 * font_pt, 0.3 * font_pt  # points

    # Direct labels at the right-hand ends, wrapped when they would take too much width.
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
    sizes = [page.size(t, weight=s.weight) for t, s in zip(texts, styles, strict=True)]
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
    xs = [float(x) for line in chart.lines for x, _ in line.points]
    xs += [float(t.at) for t in chart.x_ticks] + [float(chart.marker)]
    ys = [float(y) for line in chart.lines for _, y in line.points]
    ys += [float(t.at) for t in chart.y_ticks]
    ys += [float(line.asymptote) for line in chart.lines if line.asymptote is not None]
    x_lim, y_lim = _log_limits(xs, 0.035), _log_limits(ys, 0.05)
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

    # The dial's own point: a ring in the accent, on top of its line.
    for m in chart.marks:
        ax.plot([float(m.at)], [float(m.value)], marker="o", markersize=13 * scale,
                markerfacecolor="none", markeredgecolor=theme.accent, markeredgewidth=2.6 * scale,
                linestyle="none", zorder=5, clip_on=False)

    # The chosen speed: a rule across the plot and its label above it.
    marker_x = float(chart.marker)
    ax.axvline(marker_x, color=theme.accent, linewidth=1.5 * scale, zorder=2.8)
    to_inches = ax.transData + fig.dpi_scale_trans.inverted()
    mx = to_inches.transform((marker_x, 1.0))[0]
    start = min(max(mx - mark_w / 2, left), left + plot_w - mark_w)
    fig.text(start / page.width, (bottom + plot_h + gap * 0.6) / page.height, marker_text,
             ha="left", va="bottom", color=theme.accent, fontweight="bold", fontsize=font_pt)

    # Direct labels at the line ends, nudged apart, each joined to its line when nudged.
    ends = [to_inches.transform((float(line.points[-1][0]), float(line.points[-1][1])))
            for line in chart.lines]
    heights = [h for _, h in sizes]
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
                              f"{measure(font_pt, 'pt')} text: its line labels need "
                              f"more height")
    for text, style, (ex, ey), y in zip(texts, styles, ends, centres, strict=True):
        fig.text(label_x / page.width, y / page.height, text, ha="left", va="center",
                 color=style.label_colour, fontweight=style.weight, fontsize=font_pt,
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


# ---------------------------------------------------------------------------------------------
# Bar charts


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
