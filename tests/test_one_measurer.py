"""One text measurer: the handout and the charts measure with deckgen.layout.text's faces."""

from __future__ import annotations

import io

import pytest

from deckgen import build, fonts, source
from deckgen.layout.text import Face


@pytest.mark.parametrize(("style", "name"), [("regular", "LiberationSans"),
                                             ("bold", "LiberationSans-Bold")])
def test_the_handouts_widths_are_the_layout_layers(style: str, name: str) -> None:
    from deckgen.render.handout import fonts as handout_fonts

    handout_fonts._register_fonts()
    face = Face.from_ttf(name, fonts.text_path(style).read_bytes())
    for text in ("Check 60 seconds", "1,000,000 tokens/sec", "Our dial: 1M \u00b7 132.57×"):
        assert handout_fonts._width(text, name, 8.5) == pytest.approx(face.width(text, 8.5))
    # Arial's advances, in 2048ths of an em: C 1479, h e 6 0 o n d 1139, c k s 1024, space 569.
    if style == "regular":
        assert handout_fonts._width("Check 60 seconds", name, 8.5) == pytest.approx(
            16849 / 2048 * 8.5)


@pytest.mark.slow
def test_the_handout_and_its_charts_embed_liberation_sans_only() -> None:
    from pypdf import PdfReader

    content, _ = source.read(None)
    pdf = build.render(content, build.Options(only="handout"), warnings=[])[".pdf"]
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    for xobject in (x.get_object() for page in PdfReader(io.BytesIO(pdf)).pages
                    for x in page["/Resources"].get("/XObject", {}).values()):
        for font in xobject.get("/Resources", {}).get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    assert "LiberationSans" in names and "LiberationSans-Bold" in names
    assert not any("DejaVu" in n for n in names), names
