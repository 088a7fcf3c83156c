"""python-pptx's lookups, worked out once: XPath expressions find what lxml finds from the
expression's text, and tag names turn as python-pptx turns them."""

from __future__ import annotations

import io

import pytest
from lxml import etree
from pptx import Presentation
from pptx.oxml.ns import _nsmap
from pptx.oxml.xmlchemy import BaseOxmlElement
from pptx.util import Inches

from deckgen.render.deck import lookups, write


def test_the_deck_writer_compiles_every_expression_once() -> None:
    assert write.compile_once is lookups.compile_once
    assert BaseOxmlElement.xpath is lookups._xpath


def test_compiled_lookups_return_what_lxml_returns() -> None:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.add_textbox(Inches(1), Inches(1), Inches(2), Inches(1)).text = "two words"
    tree = slide.shapes._spTree
    expressions = ["./p:sp", "./*[1]/p:nvPr/p:ph", "//a:t/text()", "count(./p:sp)",
                   "boolean(./p:sp/p:nvSpPr/p:nvPr/p:ph[@type='title'])", "//@id"]
    for expression in expressions:
        plain = etree._Element.xpath(tree, expression, namespaces=_nsmap)
        compiled = tree.xpath(expression)
        assert compiled == plain, expression
    assert tree.xpath("count(./p:sp)") == 3.0  # title, body and the text box
    assert tree.xpath("//a:t/text()") == ["two words"]
    assert sorted(tree.xpath("//@id")) == ["1", "2", "3", "4"]
    assert len(lookups._compiled) >= len(expressions)
    out = io.BytesIO()
    prs.save(out)  # python-pptx's own save path runs through the same lookups
    assert Presentation(io.BytesIO(out.getvalue())).slides[0].shapes[2].text == "two words"


def test_tag_names_turn_as_python_pptx_turns_them() -> None:
    import pptx.oxml.xmlchemy
    import pptx.shapes.shapetree
    from pptx.oxml import ns

    from deckgen.render.deck import draw

    for tag in ("p:sp", "a:t", "c:dPt", "r:id", "p:txBody"):
        assert lookups.qn(tag) == lookups._plain_qn(tag)
    for turn in (lookups.qn, lookups._plain_qn):  # a prefix python-pptx does not know
        with pytest.raises(KeyError):
            turn("zz:nothing")
    assert lookups.qn("a:t") == "{http://schemas.openxmlformats.org/drawingml/2006/main}t"
    # python-pptx's modules and the deck writer's own use the kept names
    assert pptx.oxml.xmlchemy.qn is lookups.qn
    assert pptx.shapes.shapetree.qn is lookups.qn and ns.qn is lookups.qn
    assert draw.qn is lookups.qn


def test_the_next_part_name_is_the_one_python_pptx_would_give() -> None:
    from pptx.opc.package import OpcPackage

    prs = Presentation()
    for _ in range(3):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.notes_slide.notes_text_frame.text = "notes"
    package = prs.part.package
    assert OpcPackage.next_partname is lookups._next_partname
    assert lookups.part_names(package) == {p.partname for p in package.iter_parts()}

    def plain(tmpl: str) -> str:  # python-pptx's own, as it reads
        prefix = tmpl[: (tmpl % 42).find("42")]
        names = {p.partname for p in package.iter_parts() if p.partname.startswith(prefix)}
        return next(tmpl % n for n in range(len(names) + 1, 0, -1) if tmpl % n not in names)

    for tmpl in ("/ppt/slides/slide%d.xml", "/ppt/notesSlides/notesSlide%d.xml",
                 "/ppt/charts/chart%d.xml", "/ppt/media/image%d.png"):
        assert package.next_partname(tmpl) == plain(tmpl)
    assert package.next_partname("/ppt/slides/slide%d.xml") == "/ppt/slides/slide4.xml"
    # a gap: with slide 2 gone, python-pptx gives the highest free number, 2
    prs.part.drop_rel(prs.slides._sldIdLst[1].rId)
    del prs.slides._sldIdLst[1]
    assert package.next_partname("/ppt/slides/slide%d.xml") == plain(
        "/ppt/slides/slide%d.xml") == "/ppt/slides/slide2.xml"
