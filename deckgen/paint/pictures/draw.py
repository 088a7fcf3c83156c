"""Drawing a chart spec on a matplotlib figure, as PNG or SVG bytes or as the boxes of
its text."""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from deckgen.content import Theme
from deckgen.errors import RenderError
from deckgen.fmt import dimensions, measure
from deckgen.paint.pictures.bars import _draw_bars
from deckgen.paint.pictures.lines import _draw_lines
from deckgen.paint.pictures.page import FORMATS, MIN_DPI, Box, _context, _Page, set_fonts
from deckgen.story import BarChart, Chart, LineChart


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
    corner (x0, y0, x1, y1), as the renderer measures it: for checking the layout."""
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


def _figure(chart: Chart, theme: Theme, width_in: float, height_in: float, dpi: int,
            font_pt: float) -> Figure:
    """The chart drawn on a new figure (inside `_context`)."""
    figure = Figure(figsize=(width_in, height_in), dpi=dpi, facecolor=theme.background)
    FigureCanvasAgg(figure)
    page = _Page(width_in, height_in, font_pt, figure=figure)
    if isinstance(chart, LineChart):
        _draw_lines(page, chart, theme)
    elif isinstance(chart, BarChart):
        _draw_bars(page, chart, theme)
    else:  # pragma: no cover - the story makes only these two
        raise RenderError(f"cannot draw a chart of type {type(chart).__name__}")
    set_fonts(figure)
    return figure
