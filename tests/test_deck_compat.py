"""What the deck takes from python-pptx beyond its public API (deckgen/paint/pptx/compat.py),
each piece checked against python-pptx's own behaviour: what it does without the piece, and
that its own API reads the result back. A python-pptx release that changes any of it fails
here first."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime

import pytest

pytest.importorskip("pptx")

from lxml import etree  # noqa: E402
from pptx import Presentation  # noqa: E402
from pptx.chart.data import XyChartData  # noqa: E402
from pptx.enum.chart import XL_CHART_TYPE, XL_LABEL_POSITION  # noqa: E402
from pptx.opc.constants import RELATIONSHIP_TYPE as RT  # noqa: E402
from pptx.opc.package import Part  # noqa: E402
from pptx.oxml.ns import qn  # noqa: E402
from pptx.util import Emu  # noqa: E402

from deckgen.box import Box
from deckgen.paint.pptx import compat  # noqa: E402
from deckgen.paint.pptx.package import save  # noqa: E402
from deckgen.plan.qr import modules, qr_runs  # noqa: E402

WHEN = datetime(2021, 6, 5, 4, 3, 2)


def reopened(prs):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN201
    out = io.BytesIO()
    prs.save(out)
    return Presentation(io.BytesIO(out.getvalue()))


def xy_chart(data=None):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN201
    """A presentation with one XY chart on one slide, and the chart."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    if data is None:
        data = XyChartData()
    series = data.add_series("line")
    for x in (1, 10, 100):
        series.add_data_point(x, x * 2)
    frame = slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER_LINES, 0, 0, 4_000_000,
                                   3_000_000, data)
    return prs, frame.chart


# --- the template ----------------------------------------------------------------------------


def test_a_templates_slides_are_dropped_and_python_pptx_numbers_new_ones_from_one() -> None:
    template = Presentation()
    for _ in range(3):
        template.slides.add_slide(template.slide_layouts[1])
    prs = reopened(template)
    assert not hasattr(prs.slides, "remove")  # python-pptx still cannot remove a slide
    compat.drop_slides(prs)
    assert len(prs.slides) == 0
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    assert slide.part.partname == "/ppt/slides/slide1.xml"
    saved = reopened(prs)
    assert len(saved.slides) == 1
    names = {str(part.partname) for part in saved.part.package.iter_parts()}
    assert {n for n in names if n.startswith("/ppt/slides/")} == {"/ppt/slides/slide1.xml"}


def test_the_theme_is_a_plain_part_whose_bytes_python_pptx_saves_as_set() -> None:
    prs = Presentation()
    part = prs.slide_master.part.part_related_by(RT.THEME)
    assert type(part) is Part  # no theme API: were it an XML part, its blob could not be set
    compat.edit_theme(prs.slide_master, lambda xml: xml.replace('name="Office Theme"',
                                                                'name="deckgen"', 1))
    saved = reopened(prs)
    text = compat.theme_xml(saved.slide_master)
    assert 'name="deckgen"' in text and 'name="Office Theme"' not in text
    assert text == compat.theme_xml(prs.slide_master)


# --- the charts' workbooks -------------------------------------------------------------------


def workbook(chart) -> dict[str, bytes]:  # type: ignore[no-untyped-def]  # noqa: ANN001
    blob = chart.part.chart_workbook.xlsx_part.blob
    with zipfile.ZipFile(io.BytesIO(blob)) as book:
        return {name: book.read(name) for name in book.namelist()}


def test_python_pptx_dates_a_workbook_now_and_compat_data_dates_it_as_given() -> None:
    _, own = xy_chart(XyChartData())
    _, fixed = xy_chart(compat.XyData(WHEN))
    theirs, ours = workbook(own), workbook(fixed)
    created = re.compile(rb"<dcterms:created[^>]*>([^<]*)</dcterms:created>")
    stamp = created.search(theirs["docProps/core.xml"])
    assert stamp is not None and stamp.group(1)[:4] == str(datetime.now().year).encode()
    found = created.search(ours["docProps/core.xml"])
    assert found is not None and found.group(1) == b"2021-06-05T04:03:02Z"
    assert theirs.keys() == ours.keys()
    for name in theirs:  # the same workbook otherwise: the same sheet, the same values
        if name != "docProps/core.xml":
            assert theirs[name] == ours[name], name


# --- the charts' XML -------------------------------------------------------------------------


def axes_of(chart) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]  # noqa: ANN001
    """Each axis's id and the id of the axis it crosses."""
    return [(int(ax.find(qn("c:axId")).get("val")), int(ax.find(qn("c:crossAx")).get("val")))
            for ax in chart._chartSpace.valAx_lst]


def test_python_pptx_writes_negative_axis_ids_and_compat_makes_them_positive() -> None:
    prs, chart = xy_chart()
    ids = [int(v) for v in chart._chartSpace.xpath("//c:axId/@val")]
    assert any(v < 0 for v in ids)  # still so in this release: ISO/IEC 29500 says unsigned
    axes_before = axes_of(chart)
    compat.positive_axis_ids(chart)
    space = chart._chartSpace
    ids = [int(v) for v in space.xpath("//c:axId/@val")]
    assert all(0 < v < 2**31 for v in ids)  # unsigned, and positive read as signed 32 bits
    axes = axes_of(chart)
    assert [(a % 2**31, c % 2**31) for a, c in axes_before] == axes
    (one, other) = axes  # each axis crosses the other one
    assert one[1] == other[0] and other[1] == one[0]
    plot_ids = [int(v) for v in space.xpath("//c:scatterChart/c:axId/@val")]
    assert plot_ids == [one[0], other[0]]
    saved = reopened(prs)  # python-pptx reads the chart's axes back
    chart = next(s for s in saved.slides[0].shapes if s.has_chart).chart
    assert chart.value_axis.maximum_scale is None and chart.category_axis.visible


def test_chart_pieces_without_an_api_read_back_through_python_pptx() -> None:
    prs, chart = xy_chart()
    compat.log_axis(chart.value_axis)
    compat.log_axis(chart.value_axis)  # once only
    compat.plot_layout(chart, 0.1, 0.2, 0.6, 0.5)
    series = chart.plots[0].series[0]
    label = series.points[2].data_label
    label.has_text_frame = True
    label.text_frame.text = "Check 60 seconds\nceiling 134.33×"
    label.position = XL_LABEL_POSITION.RIGHT
    compat.label_box(series, 2, "bg1")
    compat.label_offset(series, 2, 0.125)
    chart.has_legend = True
    compat.hide_legend_entries(chart.legend, [0])
    space = chart._chartSpace
    assert len(space.xpath("//c:valAx/c:scaling/c:logBase[@val='10']")) == 1
    assert space.xpath("//c:plotArea/c:layout/c:manualLayout/c:w/@val") == ["0.6000"]
    assert space.xpath("//c:dLbl[c:idx/@val='2']/c:layout/c:manualLayout/c:y/@val") == \
        ["0.1250"]
    assert space.xpath("//c:dLbl/c:spPr/a:solidFill/a:schemeClr/@val") == ["bg1"]
    assert space.xpath("//c:legend/c:legendEntry/c:delete/@val") == ["1"]
    saved = reopened(prs)  # in the schema's order: python-pptx's API reads it all back
    chart = next(s for s in saved.slides[0].shapes if s.has_chart).chart
    point = chart.plots[0].series[0].points[2]
    assert point.data_label.text_frame.text == "Check 60 seconds\nceiling 134.33×"
    assert point.data_label.position == XL_LABEL_POSITION.RIGHT
    assert chart.has_legend and chart.legend.horz_offset == 0.0
    assert chart.value_axis.minimum_scale is None


# --- the QR code -----------------------------------------------------------------------------


def test_the_qr_shape_is_the_one_python_pptxs_freeform_builder_makes() -> None:
    """The same shape as the builder drawing every rectangle (slowly): the same offset,
    size and path."""
    box = Box(9265920, 1946758, 2377440, 2377440)  # the closing slide's, 16:9
    runs = qr_runs(modules("https://echohive.ai"), box)
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    ours = compat.qr_shape(slide.shapes, runs)
    x0, y0, _, _ = runs[0]
    builder = slide.shapes.build_freeform(x0, y0)
    for k, (x0, y0, x1, y1) in enumerate(runs):
        if k:
            builder.move_to(x0, y0)
        builder.add_line_segments([(x1, y0), (x1, y1), (x0, y1)], close=True)
    theirs = builder.convert_to_shape()
    assert (ours.left, ours.top) == (Emu(9554095), Emu(2234933))  # the quiet zone: 4 modules
    assert (ours.width, ours.height) == (Emu(1801090), Emu(1801090))
    assert (ours.left, ours.top, ours.width, ours.height) == \
        (theirs.left, theirs.top, theirs.width, theirs.height)

    def path(shape) -> bytes:  # type: ignore[no-untyped-def]  # noqa: ANN001
        return etree.tostring(shape._element.find(".//" + qn("a:path")))

    assert path(ours) == path(theirs)
    assert path(ours).count(b"<a:close/>") == len(runs)
    assert ours.shape_id != theirs.shape_id and ours.name.startswith("Freeform")


def test_the_saved_deck_is_python_pptxs_package_in_a_fixed_order_and_date() -> None:
    prs = Presentation()
    prs.slides.add_slide(prs.slide_layouts[1]).shapes.title.text = "Hello"
    own = io.BytesIO()
    prs.save(own)
    data = save(prs, WHEN)
    assert data == save(prs, WHEN)
    with zipfile.ZipFile(own) as theirs, zipfile.ZipFile(io.BytesIO(data)) as ours:
        assert sorted(theirs.namelist()) == sorted(ours.namelist())
        for name in theirs.namelist():
            assert theirs.read(name) == ours.read(name), name
        infos = ours.infolist()
        assert infos[0].filename == "[Content_Types].xml"
        assert [i.filename for i in infos[1:]] == sorted(i.filename for i in infos[1:])
        assert {i.date_time for i in infos} == {(2021, 6, 5, 4, 3, 2)}
        assert {(i.create_system, i.external_attr) for i in infos} == {(0, 0o600 << 16)}
