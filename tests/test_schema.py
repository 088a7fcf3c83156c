"""The deck against the Office Open XML schemas: every XML part of the decks deckgen writes
(the default, both aspects at every review dial, the walk, charts as pictures, slides of one's
own) matches ECMA-376's W3C XML Schemas with what ISO/IEC 29500 transitional adds
(tests/ooxml.py; the schemas and where they come from: tests/data/ooxml/README.md). A strict
reader refuses a part that does not. The decks built on templates (python-pptx's, pandoc's,
every one LibreOffice bundles) are checked the same way in test_templates.py.

The validator itself is checked on parts made wrong on purpose, so a pass means something."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, only_file, run_in
from lxml import etree
from ooxml import AMENDMENTS, SCHEMAS, XML, XSI, compatible, problems, schema
from PIL import Image
from pptx import Presentation
from pptx.chart.data import XyChartData
from pptx.enum.chart import XL_CHART_TYPE
from test_custom_slides import talk

from deckgen.paint.pptx import compat


def deck_of(folder: Path, *args: str, content: Path = DEFAULT_CONTENT) -> Path:
    run = run_in("build", str(content), "--only", "deck", "--out", str(folder), *args)
    assert run.returncode == 0, run.stderr
    return only_file(folder, ".pptx")


# --- the decks deckgen writes ----------------------------------------------------------------


def parts(deck: Path) -> list[str]:
    with zipfile.ZipFile(deck) as z:
        return z.namelist()


def test_the_default_deck_is_valid(default_build: Path) -> None:
    deck = only_file(default_build, ".pptx")
    assert [n for n in parts(deck) if n.startswith("ppt/charts/chart")]  # native charts
    assert problems(deck) == []


@pytest.mark.slow
def test_every_review_deck_is_valid(review_decks: Path) -> None:
    """Both aspects (16:9, 4:3) at every review dial, and the walk."""
    decks = sorted(review_decks.glob("*.pptx"))
    assert len(decks) == 11
    assert {deck.name: problems(deck) for deck in decks} == {deck.name: [] for deck in decks}


@pytest.mark.slow
def test_charts_as_pictures_and_slides_of_ones_own_are_valid(tmp_path: Path) -> None:
    pictures = deck_of(tmp_path / "pictures", "--charts", "picture")
    assert not [n for n in parts(pictures) if n.startswith("ppt/charts/")]
    assert problems(pictures) == []
    Image.new("RGB", (800, 400), (30, 90, 160)).save(tmp_path / "hosts.png")
    own = deck_of(tmp_path / "own", content=talk(tmp_path))  # a text, a section, an image
    assert len(Presentation(str(own)).slides) > len(Presentation(str(pictures)).slides)
    assert problems(own) == []


# --- the validator finds what is wrong ---------------------------------------------------------


def saved(prs) -> bytes:  # type: ignore[no-untyped-def]  # noqa: ANN001
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def edited(data: bytes, part: str, old: bytes, new: bytes) -> io.BytesIO:
    """The package `data` with `old` replaced by `new` once in `part`."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            body = src.read(name)
            if name == part:
                assert old in body, (part, old)
                body = body.replace(old, new, 1)
            dst.writestr(name, body)
    return out


def test_python_pptxs_negative_axis_ids_are_refused_and_compat_s_are_valid() -> None:
    def chart_deck(fix: bool) -> io.BytesIO:
        prs = Presentation()
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        data = XyChartData()
        data.add_series("line").add_data_point(1, 2)
        chart = slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER, 0, 0, 4_000_000, 3_000_000,
                                       data).chart
        if fix:
            compat.positive_axis_ids(chart)
        return io.BytesIO(saved(prs))

    found = problems(chart_deck(fix=False))
    assert found and all(p.startswith("ppt/charts/chart") for p in found)
    assert "c:axId" in found[0] and "is not a valid value of the atomic type 'xs:unsignedInt'" \
        in found[0]
    assert problems(chart_deck(fix=True)) == []


@pytest.fixture(scope="module")
def blank() -> bytes:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "A title"
    return saved(prs)


def test_a_valid_package_has_no_problem(blank: bytes) -> None:
    assert problems(io.BytesIO(blank)) == []


def test_an_element_out_of_place_is_named_with_its_part_and_path(blank: bytes) -> None:
    found = problems(edited(blank, "ppt/slides/slide1.xml", b"<p:spTree>",
                            b"<p:spTree><p:bogus/>"))
    assert len(found) == 1
    assert found[0].startswith("ppt/slides/slide1.xml:")
    assert "/p:sld/p:cSld/p:spTree/p:bogus" in found[0] and "not expected" in found[0]


def test_a_part_whose_root_is_not_its_content_types_is_a_problem(blank: bytes) -> None:
    with zipfile.ZipFile(io.BytesIO(blank)) as z:
        theme = z.read("ppt/theme/theme1.xml")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blank)) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, theme if name == "ppt/slides/slide1.xml" else src.read(name))
    [found] = problems(out)
    assert found.startswith("ppt/slides/slide1.xml: the root is ") and "}theme" in found


def test_the_title_iso_29500_adds_to_a_drawing_is_valid_and_a_misspelling_is_not(
        blank: bytes) -> None:
    assert [a[1] for a in AMENDMENTS] == ["CT_NonVisualDrawingProps"]
    part, old = "ppt/slides/slide1.xml", b'name="Title 1"'
    assert problems(edited(blank, part, old, old + b' title="Chart: the dial"')) == []
    [found] = problems(edited(blank, part, old, old + b' titel="Chart: the dial"'))
    assert "attribute 'titel'" in found and "not allowed" in found


# --- markup compatibility (ECMA-376 Part 3) --------------------------------------------------

MC_PART = """<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"
 xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"
 xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
 xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main"
 xmlns:v="urn:example:vendor" mc:Ignorable="v" {extra}>
 <p:cSld v:note="dropped"><p:spTree>
  <p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>
  <p:grpSpPr/></p:spTree></p:cSld>
 <v:extra><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></v:extra>
 <mc:AlternateContent>
  <mc:Choice Requires="p14"><p:transition p14:dur="2000"><p14:prism/></p:transition></mc:Choice>
  <mc:Fallback><p:transition><p:fade/></p:transition></mc:Fallback>
 </mc:AlternateContent>
</p:sld>"""


def reduced(extra: str = "") -> tuple[etree._Element, list[str]]:
    validator, understood = schema()
    root = etree.fromstring(MC_PART.format(extra=extra))
    found = list(compatible(root, understood | {XML, XSI}))
    if not validator.validate(root):
        found += [e.message for e in validator.error_log]
    return root, found


def test_the_fallback_is_read_and_ignorable_markup_dropped() -> None:
    root, found = reduced()
    assert found == []
    tags = [etree.QName(el).localname for el in root]
    assert tags == ["cSld", "transition"]  # v:extra dropped, the Fallback's transition kept
    assert root[1][0].tag.endswith("}fade")
    assert not [a for el in root.iter() for a in el.attrib if "vendor" in a or "compat" in a]


def test_processed_content_stays_and_a_namespace_that_must_be_understood_is_a_problem() -> None:
    root, found = reduced('mc:ProcessContent="v:extra"')
    assert [etree.QName(el).localname for el in root] == ["cSld", "clrMapOvr", "transition"]
    assert found == []
    _, found = reduced('mc:MustUnderstand="p14"')
    assert len(found) == 1 and "p14/" not in found[0] and "powerpoint/2010/main" in found[0]


def test_markup_not_declared_ignorable_is_refused() -> None:
    _, found = reduced('xmlns:w="urn:example:other" w:flag="1"')
    assert len(found) == 1 and "urn:example:other" in found[0] and "not allowed" in found[0]


# --- the schemas are Ecma's, as listed -----------------------------------------------------------


def test_the_schemas_are_the_files_listed_with_their_digests() -> None:
    listed = {name: digest for digest, name in (
        line.split("  ", 1) for line in (SCHEMAS / "SHA256SUMS").read_text().splitlines())}
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SCHEMAS.glob("*.xsd")}
    assert found == listed
    assert len(found) == 51
