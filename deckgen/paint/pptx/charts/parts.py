"""What every native chart shares: the theme's colour slots, the chart data whose workbooks
carry the deck's date, and data labels with the placed text.

python-pptx only."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pptx.enum.dml import MSO_THEME_COLOR
from pptx.util import Emu, Pt

from deckgen.paint.pptx import compat

PALETTE: Mapping[str, MSO_THEME_COLOR] = {
    "text": MSO_THEME_COLOR.DARK_1, "muted": MSO_THEME_COLOR.DARK_2,
    "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.LIGHT_1,
    "rule": MSO_THEME_COLOR.LIGHT_2,
}
CREATED = datetime(2000, 1, 1)  # the embedded workbooks' date unless given: never the clock's


def new_chart(slide: Any, kind: Any, box: tuple[int, int, int, int], data: Any,  # noqa: ANN401
              font_pt: float) -> Any:  # noqa: ANN401
    """A chart of `kind` from `data` in `box` (EMU), its text at `font_pt` in the theme's
    text colour, without a legend (the labels name the series): its graphic frame."""
    frame = slide.shapes.add_chart(kind, Emu(box[0]), Emu(box[1]), Emu(box[2]), Emu(box[3]),
                                   data)
    c = frame.chart
    compat.positive_axis_ids(c)
    c.has_legend = False
    c.font.size = Pt(font_pt)
    paint(c.font.color, "text")
    return frame


def paint(fmt: Any, role: str) -> None:  # noqa: ANN401 (python-pptx's colour format)
    """A colour format in a role's theme colour."""
    fmt.theme_color = PALETTE[role]


def data_label(series: Any, idx: int, text: str, position: Any, font_pt: float,  # noqa: ANN401
               bold: bool, role: str, boxed: bool = False) -> None:
    """A data label with the placed text at point `idx` of `series`: a text frame that does
    not wrap, each line a run at `font_pt` in the `role` colour, a light box behind it when
    `boxed` (so it reads on hatching and lines)."""
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
            paint(run.font.color, role)
    if boxed:
        compat.label_box(series, idx, "bg1")
