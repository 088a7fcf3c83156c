"""What every native chart shares: the theme's colour slots, the chart data whose workbooks
carry the deck's date, measured label widths and data labels."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pptx.enum.dml import MSO_THEME_COLOR
from pptx.util import Emu, Pt

from deckgen import fonts
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.compat import CategoryData as _CategoryData
from deckgen.paint.pptx.compat import XyData as _XyData

PALETTE: Mapping[str, MSO_THEME_COLOR] = {
    "text": MSO_THEME_COLOR.DARK_1, "muted": MSO_THEME_COLOR.DARK_2,
    "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.LIGHT_1,
    "rule": MSO_THEME_COLOR.LIGHT_2,
}
CREATED = datetime(2000, 1, 1)  # the embedded workbooks' date unless given: never the clock's
EMU_PER_IN = 914400
MIN_PT = 14.0  # the least size of any label on a chart

__all__ = ["CREATED", "EMU_PER_IN", "MIN_PT", "PALETTE", "_CategoryData", "_XyData"]


def _chart(slide: Any, kind: Any, box: tuple[int, int, int, int], data: Any, font_pt: float,
           colours: Mapping[str, MSO_THEME_COLOR]) -> Any:
    """A chart of `kind` from `data` in `box` (EMU), its text at `font_pt` in the theme's
    text colour, without a legend (the labels name the series): its graphic frame."""
    frame = slide.shapes.add_chart(kind, Emu(box[0]), Emu(box[1]), Emu(box[2]), Emu(box[3]),
                                   data)
    c = frame.chart
    compat.positive_axis_ids(c)
    c.has_legend = False
    c.font.size = Pt(font_pt)
    _colour(c.font.color, colours, "text")
    return frame


def _colour(fmt: Any, colours: Mapping[str, MSO_THEME_COLOR], role: str) -> None:
    fmt.theme_color = colours[role]


def _width(text: str, font_pt: float, bold: bool = False) -> float:
    """The width in inches of `text`'s widest line at `font_pt`, measured by the layout layer
    with the deck's face (Arial, measured with Liberation Sans, the twin shipped here)."""
    face = fonts.face(bold=bold)
    return max((face.width(line, font_pt) for line in text.split("\n")), default=0.0) / 72



def _label(series: Any, idx: int, text: str, position: Any, font_pt: float, bold: bool,
           colours: Mapping[str, MSO_THEME_COLOR], role: str, boxed: bool = False) -> None:
    """A data label with the story's own text at point `idx` of `series`: a text frame that
    does not wrap, each line a run at `font_pt` in the `role` colour, a light box behind it
    when `boxed` (so it reads on hatching and lines)."""
    label = series.points[idx].data_label
    label.has_text_frame = True
    label.position = position
    frame = label.text_frame
    frame.word_wrap = False  # each line of the label stays one line
    frame.text = text  # a paragraph per line
    for paragraph in frame.paragraphs:
        for run in paragraph.runs:
            run.font.size = Pt(font_pt)
            run.font.bold = bold
            _colour(run.font.color, colours, role)
    if boxed:
        compat.label_box(series, idx, "bg1")
