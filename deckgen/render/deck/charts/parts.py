"""What every native chart shares: the theme's colour slots, the workbook writers that date
their workbooks, measured label widths, data labels, log scales and the plot's own layout."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from pptx.chart.data import CategoryChartData, XyChartData
from pptx.chart.xlsx import CategoryWorkbookWriter, XyWorkbookWriter
from pptx.enum.chart import XL_LABEL_POSITION
from pptx.enum.dml import MSO_THEME_COLOR
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls
from pptx.oxml.xmlchemy import OxmlElement
from pptx.util import Emu, Pt

from deckgen import fonts
from deckgen.render.deck.lookups import qn

PALETTE: Mapping[str, MSO_THEME_COLOR] = {
    "text": MSO_THEME_COLOR.DARK_1, "muted": MSO_THEME_COLOR.DARK_2,
    "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.LIGHT_1,
    "rule": MSO_THEME_COLOR.LIGHT_2,
}
CREATED = datetime(2000, 1, 1)  # the embedded workbooks' date unless given: never the clock's
EMU_PER_IN = 914400
MIN_PT = 14.0  # the least size of any label on a chart


class _FixedDate:
    """A workbook writer whose workbook carries `CREATED`, not the time of the build."""

    _chart_data: Any

    def _open_worksheet(self, xlsx_file: Any) -> Any:
        from contextlib import contextmanager

        from xlsxwriter import Workbook

        @contextmanager
        def opened() -> Any:
            workbook = Workbook(xlsx_file, {"in_memory": True})
            workbook.set_properties({"created": getattr(self._chart_data, "created", CREATED)})
            worksheet = workbook.add_worksheet()
            yield workbook, worksheet
            workbook.close()

        return opened()


class _XyWriter(_FixedDate, XyWorkbookWriter):
    pass


class _CategoryWriter(_FixedDate, CategoryWorkbookWriter):
    pass


class _XyData(XyChartData):
    """XY chart data whose workbook records `created` (python-pptx's own is untyped)."""

    def __init__(self, created: datetime) -> None:
        super().__init__(number_format="General")  # type: ignore[no-untyped-call]
        self.created = created

    def series(self, name: str) -> Any:
        return self.add_series(name)  # type: ignore[no-untyped-call]

    @property
    def _workbook_writer(self) -> _XyWriter:
        writer = self.__dict__.get("_writer")
        if writer is None:
            writer = self.__dict__["_writer"] = _XyWriter(self)  # type: ignore[no-untyped-call]
        return writer


class _CategoryData(CategoryChartData):
    """Category chart data whose workbook records `created` (python-pptx's own is untyped)."""

    def __init__(self, created: datetime) -> None:
        super().__init__(number_format="0.0%")  # type: ignore[no-untyped-call]
        self.created = created

    def series(self, name: str, values: list[float]) -> Any:
        return self.add_series(name, values)  # type: ignore[no-untyped-call]

    @property
    def _workbook_writer(self) -> _CategoryWriter:
        writer = self.__dict__.get("_writer")
        if writer is None:
            writer = self.__dict__["_writer"] = \
                _CategoryWriter(self)  # type: ignore[no-untyped-call]
        return writer



def _chart(slide: Any, kind: Any, box: tuple[int, int, int, int], data: Any, font_pt: float,
           colours: Mapping[str, MSO_THEME_COLOR]) -> Any:
    """A chart of `kind` from `data` in `box` (EMU), its text at `font_pt` in the theme's
    text colour, without a legend (the labels name the series): its graphic frame."""
    frame = slide.shapes.add_chart(kind, Emu(box[0]), Emu(box[1]), Emu(box[2]), Emu(box[3]),
                                   data)
    c = frame.chart
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



def _label(point: Any, text: str, position: Any, font_pt: float, bold: bool,
           colours: Mapping[str, MSO_THEME_COLOR], role: str, boxed: bool = False) -> None:
    """A data label with the story's own text at one point: the element python-pptx's data
    label API writes (a text frame that does not wrap, each line a run at `font_pt` in the
    `role` colour, a light box behind it when `boxed`), made directly, in python-pptx's
    place for it among the series' labels."""
    if any(ch < " " and ch != "\n" for ch in text):  # python-pptx's own escapes for these
        _label_by_api(point, text, position, font_pt, bold, colours, role, boxed)
        return
    run = (f'<a:r><a:rPr sz="{Pt(font_pt).centipoints}" b="{int(bold)}"><a:solidFill>'
           f'<a:schemeClr val="{MSO_THEME_COLOR.to_xml(colours[role])}"/></a:solidFill>'
           "</a:rPr><a:t>{}</a:t></a:r>")
    paragraphs = "".join(f"<a:p>{run.format(escape(line))}</a:p>" if line else "<a:p/>"
                         for line in text.split("\n"))
    box = '<c:spPr><a:solidFill><a:schemeClr val="bg1"/></a:solidFill></c:spPr>' if boxed \
        else ""
    label = parse_xml(
        f'<c:dLbl {nsdecls("c", "a")}><c:idx val="{point._idx}"/><c:tx><c:rich>'
        f'<a:bodyPr wrap="none"/><a:lstStyle/>{paragraphs}</c:rich></c:tx>{box}'
        f'<c:dLblPos val="{XL_LABEL_POSITION.to_xml(position)}"/>'
        '<c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/>'
        '<c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbl>')
    placed = point._ser.get_or_add_dLbls().get_or_add_dLbl_for_point(point._idx)
    placed.getparent().replace(placed, label)


def _label_by_api(point: Any, text: str, position: Any, font_pt: float, bold: bool,
                  colours: Mapping[str, MSO_THEME_COLOR], role: str, boxed: bool) -> None:
    """`_label` through python-pptx's data label API, for text with control characters."""
    label = point.data_label
    label.has_text_frame = True
    label.position = position
    frame = label.text_frame
    lines = text.split("\n")
    frame.text = lines[0]
    for extra in lines[1:]:
        frame.add_paragraph().text = extra
    frame._txBody.bodyPr.set("wrap", "none")  # each line of the label stays one line
    for paragraph in frame.paragraphs:
        for run in paragraph.runs:
            run.font.size = Pt(font_pt)
            run.font.bold = bold
            _colour(run.font.color, colours, role)
    if boxed:  # a light box behind the text, so it reads on hatching and lines
        d_lbl = label._dLbl
        sp_pr = d_lbl.get_or_add_spPr()
        fill = OxmlElement("a:solidFill")
        scheme = OxmlElement("a:schemeClr")
        scheme.set("val", "bg1")
        fill.append(scheme)
        sp_pr.append(fill)


def _log_axis(axis: Any) -> None:
    """A base-10 logarithmic scale: python-pptx has no API for `c:logBase`."""
    scaling = axis._element.find(qn("c:scaling"))
    if scaling.find(qn("c:logBase")) is None:
        base = OxmlElement("c:logBase")
        base.set("val", "10")
        scaling.insert(0, base)


def _plot_layout(c: Any, x: float, y: float, w: float, h: float) -> None:
    """The inner plot area at fixed fractions of the chart, leaving room for the labels."""
    plot_area = c._chartSpace.chart.plotArea
    old = plot_area.find(qn("c:layout"))
    if old is not None:
        plot_area.remove(old)
    layout = OxmlElement("c:layout")
    manual = OxmlElement("c:manualLayout")
    for tag, val in (("c:layoutTarget", "inner"), ("c:xMode", "edge"), ("c:yMode", "edge"),
                     ("c:x", f"{x:.4f}"), ("c:y", f"{y:.4f}"), ("c:w", f"{w:.4f}"),
                     ("c:h", f"{h:.4f}")):
        child = OxmlElement(tag)
        child.set("val", val)
        manual.append(child)
    layout.append(manual)
    plot_area.insert(0, layout)
