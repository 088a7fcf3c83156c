"""python-pptx's XPath lookups, compiled once, find what lxml finds from the expression's text."""

from __future__ import annotations

import io

from lxml import etree
from pptx import Presentation
from pptx.oxml.ns import _nsmap
from pptx.oxml.xmlchemy import BaseOxmlElement
from pptx.util import Inches

from deckgen.render.deck import write, xpaths


def test_the_deck_writer_compiles_every_expression_once() -> None:
    assert write.compile_once is xpaths.compile_once
    assert BaseOxmlElement.xpath is xpaths._xpath


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
    assert len(xpaths._compiled) >= len(expressions)
    out = io.BytesIO()
    prs.save(out)  # python-pptx's own save path runs through the same lookups
    assert Presentation(io.BytesIO(out.getvalue())).slides[0].shapes[2].text == "two words"
