"""One text measurer: the handout and the charts measure with deckgen.typeset.text's faces."""

from __future__ import annotations

import io

import pytest

from deckgen import build, fonts, pipeline, source
from deckgen.typeset.text import Face


@pytest.mark.parametrize(("style", "name"), [("regular", "LiberationSans"),
                                             ("bold", "LiberationSans-Bold")])
def test_the_handouts_widths_are_the_layout_layers(style: str, name: str) -> None:
    from deckgen.paint.handout import fonts as handout_fonts

    handout_fonts.register_fonts()
    face = Face.from_ttf(name, fonts.text_path(style).read_bytes())
    for text in ("Check 60 seconds", "1,000,000 tokens/sec", "Our dial: 1M \u00b7 132.57×"):
        assert handout_fonts.text_width(text, name, 8.5) == pytest.approx(face.width(text, 8.5))
    # Arial's advances, in 2048ths of an em: C 1479, h e 6 0 o n d 1139, c k s 1024, space 569.
    if style == "regular":
        assert handout_fonts.text_width("Check 60 seconds", name, 8.5) == pytest.approx(
            16849 / 2048 * 8.5)


@pytest.mark.slow
def test_the_handout_and_its_charts_embed_liberation_sans_only() -> None:
    from pypdf import PdfReader

    content, _ = source.read(None)
    pdf = pipeline.files(content, build.Options(only="handout"))[0]["handout"]
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


def test_the_handouts_tables_take_the_layout_layers_column_search(monkeypatch) -> None:  # noqa: ANN001
    """The handout has no width search of its own: its table widths are what
    deckgen.typeset.columns.search returns, and at the handout's column width the checks
    table keeps every body cell on one line, measured with Liberation Sans."""
    import deckgen.story
    from deckgen.paint.handout import fonts as handout_fonts
    from deckgen.paint.handout import parts
    from deckgen.paint.handout.style import TABLE_PAD, TABLE_PT
    from deckgen.typeset import columns

    handout_fonts.register_fonts()
    content, _ = build.prepare(None, build.Options())
    story = deckgen.story.compose(content)
    table = next(s.table for s in story.slides if s.kind == "presets" and s.table is not None)
    calls: list[tuple[str, list[float] | None]] = []

    def spy(needs, room, wrap, height, stretch=True):  # noqa: ANN001, ANN202
        found = columns.search(needs, room, wrap, height, stretch)
        calls.append((wrap, found))
        return found

    monkeypatch.setattr(parts, "search", spy)
    width = 260.0  # points: about one of the handout's two columns
    widths, one_line = parts.table_widths(table, width, TABLE_PAD, table.highlight)
    assert calls and widths == calls[-1][1]
    assert sum(widths) == pytest.approx(width)
    assert one_line
    for i, row in enumerate(table.rows):
        font = handout_fonts.BOLD if i == table.highlight else handout_fonts.REGULAR
        for text, w in zip(row, widths, strict=True):
            assert handout_fonts.text_width(text, font, TABLE_PT) + 2 * TABLE_PAD <= w
