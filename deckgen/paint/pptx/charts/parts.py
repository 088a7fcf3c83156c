"""What every native chart shares: the theme's colour slots, the chart data whose workbooks
carry the deck's date, and data labels with the placed text.

python-pptx only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pptx.dml.color import RGBColor
from pptx.util import Emu, Pt

from deckgen.paint.pptx import compat
from deckgen.paint.pptx.colours import SCHEME, THEME_COLOUR
from deckgen.plan.placed import Colour, Label

PALETTE = THEME_COLOUR  # each role in the theme colour the slides draw it in
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


def tinted(fmt: Any, colour: Colour) -> None:  # noqa: ANN401 (python-pptx's colour format)
    """A colour format in a placed colour: its role's theme colour, lightened or darkened as
    placed, or its value."""
    if colour.role:
        fmt.theme_color = PALETTE[colour.role]
        if colour.brightness:
            fmt.brightness = colour.brightness
    else:
        fmt.rgb = RGBColor(*(int(colour.value[i:i + 2], 16) for i in (1, 3, 5)))  # type: ignore[no-untyped-call]


def label_text(frame: Any, label: Label) -> None:  # noqa: ANN401 (a python-pptx text frame)
    """A text frame holding a placed label: a paragraph per line, a run per span, each at
    its line's size in its span's weight and colour."""
    frame.text = ""
    for n, line in enumerate(label.lines):
        paragraph = frame.paragraphs[0] if n == 0 else frame.add_paragraph()
        for span in line.spans:
            run = paragraph.add_run()
            run.text = span.text
            run.font.size = Pt(line.size)
            run.font.bold = span.font.bold
            tinted(run.font.color, span.colour)


def data_label(series: Any, idx: int, label: Label, position: Any) -> None:  # noqa: ANN401
    """The placed `label` as the data label of point `idx` of `series`, at `position`: a
    text frame that does not wrap (each placed line stays one line), on a box of the label's
    back colour when it has one (so it reads on hatching and lines)."""
    found = series.points[idx].data_label
    found.has_text_frame = True
    found.position = position
    found.text_frame.word_wrap = False
    label_text(found.text_frame, label)
    if label.back is not None:
        compat.label_box(series, idx, SCHEME[label.back.role or "background"])
