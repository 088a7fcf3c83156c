"""Bar charts: each bar to 100% of its total, segments hatched or solid so they read in
greyscale, and labels on the segments or in rows under them that never clash."""

from __future__ import annotations

from typing import Any

from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle

from deckgen.colour import contrast
from deckgen.content import Theme
from deckgen.paint.pictures.page import _Page
from deckgen.plan.charts import bars
from deckgen.story import BarChart


def _ink_on(fill: str, theme: Theme) -> str:
    """The theme's text or background colour, whichever reads better on `fill`."""
    return max((theme.text, theme.background), key=lambda ink: contrast(ink, fill))


def _draw_bars(page: _Page, chart: BarChart, theme: Theme) -> None:
    """The chart drawn where the layout layer's plan puts everything (`bars.plan`)."""
    fig, font_pt = page.figure, page.font_pt
    scale = font_pt / 16.0
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, page.width)
    ax.set_ylim(0, page.height)
    ax.set_axis_off()
    ax.set_facecolor(theme.background)
    laid = bars.plan(page, chart)
    box_pad = laid.box_pad

    for bar, p in zip(chart.bars, laid.bars, strict=True):
        weight = "bold" if p.bold else "normal"
        spacing: dict[str, Any] = {"linespacing": 1.15} if "\n" in p.title else {}
        ax.text(laid.x0, p.title_top, p.title, ha="left", va="top", fontsize=font_pt, **spacing,
                fontweight=weight, color=theme.accent if bar.emphasis else theme.text)
        base, bar_h = p.base, p.height
        fills = []
        for seg in p.segments:
            left, width = seg.left, seg.width
            if seg.hatched:
                fill = theme.background
                ax.add_patch(Rectangle((left, base), width, bar_h, facecolor=fill,
                                       edgecolor=theme.muted, linewidth=1.0 * scale))
                ax.add_collection(LineCollection(
                    bars.hatch(left, base, width, bar_h, bars.HATCH_STEP * max(scale, 0.6)),
                    colors=theme.muted, linewidths=0.9 * scale, capstyle="butt"))
            else:
                fill = theme.accent if bar.emphasis else theme.muted
                ax.add_patch(Rectangle((left, base), width, bar_h, facecolor=fill, edgecolor=fill,
                                       linewidth=0.0))
            fills.append(fill)
        for label in p.inside:
            box = None
            if label.boxed:
                box = {"boxstyle": f"square,pad={box_pad / font_pt:.3f}",
                       "facecolor": theme.background, "edgecolor": "none"}
            ax.text(label.x, p.centre, label.text, ha=label.align, va="center_baseline",
                    fontsize=font_pt, color=_ink_on(fills[label.segment], theme), bbox=box,
                    fontweight=weight)
        for under in p.below:
            ax.text(under.x, under.top, under.text, ha=under.align, va="top", fontsize=font_pt,
                    color=theme.text, fontweight=weight)
            if under.leader_x is not None:  # a lower row: a leader up to its segment
                ax.plot([under.leader_x, under.leader_x], [base, under.top], color=theme.text,
                        linewidth=0.8 * scale)
