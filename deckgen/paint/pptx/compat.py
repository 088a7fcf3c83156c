"""What the deck needs from python-pptx that its public API does not offer, in one place.

Everything else in the deck goes through python-pptx's API. Each piece here says why no public
API serves; the XML a piece reaches (python-pptx's `_element` escape hatch, a shape's or a
table's own element) is reached here and nowhere else in deckgen. tests/test_deck_compat.py
checks each against python-pptx's own behaviour, so a release that changes it (or adds the
API) is noticed. Tested with python-pptx 1.0.2 (pinned in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from pptx.chart.data import CategoryChartData, XyChartData
from pptx.chart.xlsx import CategoryWorkbookWriter, XyWorkbookWriter
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.presentation import Presentation
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.shapes.shapetree import GroupShapes, SlideShapes
from pptx.slide import Slide, SlideMaster
from pptx.table import Table, _Cell
from pptx.text.text import TextFrame
from pptx.util import Emu

# ---------------------------------------------------------------------------------------------
# The template


def drop_slides(prs: Presentation) -> None:
    """Remove a template's own slides; their parts are then unreachable and not saved.

    python-pptx can add slides but not remove them: `Slides` has no `remove`, and the list
    of slide ids it keeps (`p:sldIdLst`) is reached only through its private `_sldIdLst`.
    Dropping the relationship (`Part.drop_rel`, public) and the id is how a slide goes."""
    id_list = prs.slides._sldIdLst  # noqa: SLF001 (no public API, above)
    for sld_id in list(id_list):
        prs.part.drop_rel(sld_id.rId)
        id_list.remove(sld_id)


def theme_xml(master: SlideMaster) -> str:
    """The XML of the theme `master` uses, as text.

    python-pptx has no theme API: it loads the theme as a plain part whose bytes are all it
    offers (`Part.blob`); the colours and fonts are read from those."""
    blob: bytes = master.part.part_related_by(RT.THEME).blob
    return blob.decode("utf-8", "replace")


def edit_theme(master: SlideMaster, edit: Callable[[str], str]) -> None:
    """Replace the theme `master` uses by `edit(its XML)`.

    With no theme API (see `theme_xml`), the theme's colour slots and fonts are written by
    replacing the part's bytes through `Part.blob`'s setter, which python-pptx saves as
    they are."""
    part = master.part.part_related_by(RT.THEME)
    part.blob = edit(theme_xml(master)).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Shapes and their text


def set_paragraphs(text_frame: TextFrame, markup: str) -> None:
    """Replace a text frame's paragraphs by `markup` (`a:p` elements, written as python-pptx's
    setters write them, with the `a:` and `r:` prefixes).

    python-pptx sets a paragraph's properties one setter at a time, each measuring and
    rewriting the XML again: a deck's 1,500 runs took a noticeable share of a build. Its text
    frame offers no way to set paragraphs as a whole; the body (`TextFrame._txBody`) is where
    they live."""
    body = text_frame._txBody  # noqa: SLF001 (no public API, above)
    for old in body.p_lst:
        body.remove(old)
    for new in parse_xml(f"<root {nsdecls('a', 'r')}>{markup}</root>"):
        body.append(new)


def remove(shape: BaseShape) -> None:
    """Take `shape` off its slide: python-pptx can add shapes but not remove them, so a
    placeholder a layout brings that the slide does not use is removed from the shape tree
    (its element's parent)."""
    element = shape._element  # noqa: SLF001 (no public API, above)
    element.getparent().remove(element)


def restack(slide: Slide, shapes: Sequence[BaseShape]) -> None:
    """Put `shapes` (every shape of the slide) in this order, bottom first: python-pptx adds a
    shape on top of the others and has no API for the stacking order, which is the order of
    the shape tree's elements."""
    tree = slide.shapes._spTree  # noqa: SLF001 (no public API, above)
    elements = [shape._element for shape in shapes]  # noqa: SLF001
    first = min(tree.index(e) for e in elements)
    for k, element in enumerate(elements):
        tree.remove(element)
        tree.insert(first + k, element)


def unstyled(shape: BaseShape) -> None:
    """Without python-pptx's default style for a new shape (`p:style`), which would bring an
    accent fill and a shadow: python-pptx has no API for a shape's style reference."""
    element = shape._element  # noqa: SLF001 (no public API, above)
    style = element.find(qn("p:style"))
    if style is not None:
        element.remove(style)


def describe(shape: BaseShape, description: str, title: str | None = None) -> None:
    """A picture's, group's or graphic frame's alternative text (`cNvPr/@descr`, and its
    title): python-pptx names a shape but has no API for its description."""
    element = shape._element  # noqa: SLF001 (no public API, above)
    c_nv_pr = element.find(f"./*[1]/{qn('p:cNvPr')}")
    c_nv_pr.set("descr", description)
    if title is not None:
        c_nv_pr.set("title", title)


def plain_table(table: Table, header: bool, style_id: str) -> None:
    """A table with no banded rows, its first row a header or not (both written, as
    PowerPoint writes them), and the table style `style_id`: python-pptx's table has no
    table style, and its `first_row` and `horz_banding` leave out a value that is the
    default."""
    tbl_pr = table._tbl.tblPr  # noqa: SLF001 (no public API, above)
    assert tbl_pr is not None  # python-pptx makes every table with one
    tbl_pr.set("firstRow", "1" if header else "0")
    tbl_pr.set("bandRow", "0")
    found = tbl_pr.find(qn("a:tableStyleId"))
    if found is not None:
        found.text = style_id


def cell_borders(cell: _Cell, markup: str) -> None:
    """A cell's borders and fill (`a:tcPr`'s children, given as DrawingML markup):
    python-pptx's cell has a fill but no borders."""
    tc_pr = cell._tc.get_or_add_tcPr()  # noqa: SLF001 (no public API, above)
    for child in list(tc_pr):
        tc_pr.remove(child)
    for child in parse_xml(f"<root {nsdecls('a')}>{markup}</root>"):
        tc_pr.append(child)


def run_language(text_frame: TextFrame, lang: str) -> None:
    """Every run of a text frame tagged with the language `lang`: python-pptx's font has no
    language (`a:rPr/@lang`)."""
    for paragraph in text_frame.paragraphs:
        for run in paragraph.runs:
            run._r.get_or_add_rPr().set("lang", lang)  # noqa: SLF001 (no public API, above)


# ---------------------------------------------------------------------------------------------
# The native charts' embedded workbooks


class _FixedDate:
    """A workbook writer whose workbook records the chart data's `created`.

    python-pptx's workbook writers open an xlsxwriter Workbook with no document properties,
    so xlsxwriter stamps the time of the build into each embedded workbook, and no two
    builds of a deck would be the same bytes. python-pptx offers no way to pass properties:
    the writer's `_open_worksheet` is the one place the Workbook is made, and the chart
    data's `_workbook_writer` the one place the writer is chosen."""

    _chart_data: Any

    def _open_worksheet(self, xlsx_file: Any) -> Any:  # noqa: ANN401 (python-pptx's own)
        from xlsxwriter import Workbook

        created = getattr(self._chart_data, "created", None)

        @contextmanager
        def opened() -> Iterator[tuple[Any, Any]]:
            workbook = Workbook(xlsx_file, {"in_memory": True})
            workbook.set_properties({"created": created})
            worksheet = workbook.add_worksheet()
            yield workbook, worksheet
            workbook.close()

        return opened()


class _XyWriter(_FixedDate, XyWorkbookWriter):
    pass


class _CategoryWriter(_FixedDate, CategoryWorkbookWriter):
    pass


class XyData(XyChartData):
    """XY chart data whose embedded workbook records `created` (see `_FixedDate`)."""

    def __init__(self, created: datetime) -> None:
        super().__init__(number_format="General")  # type: ignore[no-untyped-call]
        self.created = created

    def series(self, name: str) -> Any:  # noqa: ANN401 (python-pptx's, untyped)
        return self.add_series(name)  # type: ignore[no-untyped-call]

    @property
    def _workbook_writer(self) -> _XyWriter:
        writer = self.__dict__.get("_writer")
        if writer is None:
            writer = self.__dict__["_writer"] = _XyWriter(self)  # type: ignore[no-untyped-call]
        return writer


class CategoryData(CategoryChartData):
    """Category chart data whose embedded workbook records `created` (see `_FixedDate`)."""

    def __init__(self, created: datetime) -> None:
        super().__init__(number_format="0.0%")  # type: ignore[no-untyped-call]
        self.created = created

    def series(self, name: str, values: list[float]) -> Any:  # noqa: ANN401 (untyped)
        return self.add_series(name, values)  # type: ignore[no-untyped-call]

    @property
    def _workbook_writer(self) -> _CategoryWriter:
        writer = self.__dict__.get("_writer")
        if writer is None:
            writer = self.__dict__["_writer"] = \
                _CategoryWriter(self)  # type: ignore[no-untyped-call]
        return writer


# ---------------------------------------------------------------------------------------------
# The native charts' XML where python-pptx has no API


def positive_axis_ids(chart: Any) -> None:  # noqa: ANN401 (python-pptx's Chart)
    """Every axis id of `chart` (`c:axId`, and `c:crossAx` naming one) made positive.

    python-pptx writes fixed negative axis ids (`c:axId val="-2068027336"`); ISO/IEC 29500
    types them unsigned (CT_UnsignedInt), so a strict reader refuses them. There is no API
    for axis ids. Each id becomes its lowest 31 bits: unsigned, and still a positive signed
    32-bit integer, which is how LibreOffice reads them (past 2**31 it takes both axes of a
    scatter chart for value axes of one side). The ids stay distinct and every `c:crossAx`
    still names its axis."""
    space = chart._element  # noqa: SLF001 (the chart's XML: python-pptx's escape hatch)
    found = [el for tag in ("c:axId", "c:crossAx") for el in space.iter(qn(tag))]
    old = {int(el.get("val")) for el in found}
    new = {v: v % 2**31 for v in old}
    assert len(set(new.values())) == len(old), "axis ids that differ only in their top bit"
    for el in found:
        el.set("val", str(new[int(el.get("val"))]))


def log_axis(axis: Any) -> None:  # noqa: ANN401 (python-pptx's axis)
    """A base-10 logarithmic scale on `axis`: python-pptx has no API for `c:logBase`."""
    scaling = axis._element.find(qn("c:scaling"))  # noqa: SLF001 (escape hatch)
    if scaling.find(qn("c:logBase")) is None:
        base = parse_xml(f'<c:logBase {nsdecls("c")} val="10"/>')
        scaling.insert(0, base)


def _manual_layout(children: Sequence[tuple[str, str]]) -> Any:  # noqa: ANN401 (lxml)
    inner = "".join(f'<c:{tag} val="{val}"/>' for tag, val in children)
    return parse_xml(f'<c:layout {nsdecls("c")}><c:manualLayout>{inner}</c:manualLayout>'
                     "</c:layout>")


def plot_layout(chart: Any, x: float, y: float, w: float, h: float) -> None:  # noqa: ANN401
    """The inner plot area at fixed fractions of the chart: python-pptx has no API for the
    plot area's manual layout."""
    plot_area = chart._element.chart.plotArea  # noqa: SLF001 (escape hatch)
    old = plot_area.find(qn("c:layout"))
    if old is not None:
        plot_area.remove(old)
    plot_area.insert(0, _manual_layout([
        ("layoutTarget", "inner"), ("xMode", "edge"), ("yMode", "edge"),
        ("x", f"{x:.4f}"), ("y", f"{y:.4f}"), ("w", f"{w:.4f}"), ("h", f"{h:.4f}")]))


def _label_of(series: Any, idx: int) -> Any:  # noqa: ANN401 (lxml)
    """The `c:dLbl` of point `idx` of `series`, which python-pptx's data label API made."""
    found = series._element.xpath(  # noqa: SLF001 (escape hatch)
        f"c:dLbls/c:dLbl[c:idx/@val='{idx}']")
    assert found, "the point's data label is made through python-pptx's API first"
    return found[0]


def label_offset(series: Any, idx: int, dy: float, dx: float = 0.0) -> None:  # noqa: ANN401
    """Move the data label of point `idx` of `series` by `dy` of the chart's height (down
    when positive) and `dx` of its width (right when positive): python-pptx's DataLabel has
    a position but no manual layout."""
    d_lbl = _label_of(series, idx)
    old = d_lbl.find(qn("c:layout"))
    if old is not None:
        d_lbl.remove(old)
    d_lbl.insert(1, _manual_layout([("x", f"{dx:.4f}" if dx else "0"), ("y", f"{dy:.4f}")]))


def label_box(series: Any, idx: int, scheme: str) -> None:  # noqa: ANN401
    """A solid box in theme colour `scheme` behind the data label of point `idx` of
    `series`: python-pptx's DataLabel has a font and a text frame but no fill."""
    d_lbl = _label_of(series, idx)
    sp_pr = d_lbl.get_or_add_spPr()
    sp_pr.append(parse_xml(f'<a:solidFill {nsdecls("a")}><a:schemeClr val="{scheme}"/>'
                           "</a:solidFill>"))


def hide_legend_entries(legend: Any, indices: Sequence[int]) -> None:  # noqa: ANN401
    """Leave the series at `indices` out of `legend`: python-pptx has no API for legend
    entries."""
    element = legend._element  # noqa: SLF001 (escape hatch)
    for k in indices:
        element.insert(1, parse_xml(f'<c:legendEntry {nsdecls("c")}><c:idx val="{k}"/>'
                                    '<c:delete val="1"/></c:legendEntry>'))


# ---------------------------------------------------------------------------------------------
# The closing slide's QR code


def qr_shape(shapes: SlideShapes | GroupShapes,
             runs: Sequence[tuple[int, int, int, int]]) -> Shape:
    """One freeform shape whose path holds every rectangle of `runs` (left, top, right,
    bottom, in EMU on the slide): the dark modules of a QR code, so it scales and prints
    sharp.

    python-pptx's FreeformBuilder makes this shape (one contour per rectangle, `move_to`
    between them), but it measures every point again for each point it writes, so a QR
    code's 1,500 points take 0.6 s. The builder makes the shape from the outer rectangle
    (its id, name, offset and size) and the path is written here in one go, the same
    moveTo/lnTo/close contours the builder writes."""
    left = min(x0 for x0, _, _, _ in runs)
    top = min(y0 for _, y0, _, _ in runs)
    right = max(x1 for _, _, x1, _ in runs)
    bottom = max(y1 for _, _, _, y1 in runs)
    builder = shapes.build_freeform(left, top)
    builder.add_line_segments([(right, top), (right, bottom), (left, bottom)], close=True)
    shape: Shape = builder.convert_to_shape()

    def pt(x: int, y: int) -> str:
        return f'<a:pt x="{x - left}" y="{y - top}"/>'

    contours = "".join(
        f"<a:moveTo>{pt(x0, y0)}</a:moveTo><a:lnTo>{pt(x1, y0)}</a:lnTo>"
        f"<a:lnTo>{pt(x1, y1)}</a:lnTo><a:lnTo>{pt(x0, y1)}</a:lnTo><a:close/>"
        for x0, y0, x1, y1 in runs)
    path = shape._element.find(  # noqa: SLF001 (escape hatch)
        f"{qn('p:spPr')}/{qn('a:custGeom')}/{qn('a:pathLst')}/{qn('a:path')}")
    for old in list(path):
        path.remove(old)
    for new in parse_xml(f"<a:path {nsdecls('a')}>{contours}</a:path>"):
        path.append(new)
    assert (shape.width, shape.height) == (Emu(right - left), Emu(bottom - top))
    return shape

