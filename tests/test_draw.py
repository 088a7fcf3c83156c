"""The deck's drawing: the closing slide's QR code is its dark modules exactly; paragraphs are
written as python-pptx's own setters write them."""

from __future__ import annotations

import pytest

pytest.importorskip("pptx")

from deckgen.box import Box
from deckgen.plan.qr import modules, qr_runs  # noqa: E402

URL = "https://echohive.ai"
BOX = Box(9265920, 1946758, 2377440, 2377440)  # the closing slide's, 16:9


def test_the_runs_cover_exactly_the_dark_modules() -> None:
    grid = modules(URL)
    assert len(grid) == 25  # version 2 at level M for this address
    n = len(grid) + 8
    edges = [BOX.x + (2 * k * BOX.w + n) // (2 * n) for k in range(n + 1)]
    rows = [BOX.y + (2 * k * BOX.h + n) // (2 * n) for k in range(n + 1)]
    seen = [[False] * len(grid) for _ in grid]
    for x0, y0, x1, y1 in qr_runs(grid, BOX):
        r = rows.index(y0) - 4
        assert rows.index(y1) == r + 5
        for c in range(edges.index(x0) - 4, edges.index(x1) - 4):
            assert not seen[r][c]
            seen[r][c] = True
    assert seen == grid


def test_module_edges_are_whole_emu_rounded_half_up() -> None:
    grid = [[True]]  # one dark module in a box of 9 modules: edges at 4/9 and 5/9
    [(x0, y0, x1, y1)] = qr_runs(grid, Box(0, 0, 9, 18))
    assert (x0, x1, y0, y1) == (4, 5, 8, 10)
    [(x0, _, x1, _)] = qr_runs(grid, Box(100, 0, 36, 36))  # 16 and 20 exactly
    assert (x0, x1) == (116, 120)


# --- Paragraphs: written as XML in one go, the same as python-pptx's setters make them -------

def _frames():  # type: ignore[no-untyped-def]
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    one = slide.shapes.add_textbox(Emu(0), Emu(0), Emu(100000), Emu(100000))
    two = slide.shapes.add_textbox(Emu(0), Emu(0), Emu(100000), Emu(100000))
    return slide, one.text_frame, two.text_frame


def _with_setters(text_frame, paragraphs, lang):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    """`paragraphs` set through python-pptx's own setters, one property at a time, each
    length the nearest hundredth of a point (`Pt` alone would cut 28.8 to 28.79)."""
    from pptx.dml.color import RGBColor
    from pptx.enum.text import PP_ALIGN
    from pptx.oxml import parse_xml
    from pptx.oxml.ns import nsdecls
    from pptx.util import Emu

    from deckgen.paint.pptx.colours import THEME_COLOUR

    def Pt(points: float) -> Emu:  # noqa: N802 - python-pptx's own name, rounded
        return Emu(round(points * 100) * 127)

    align = {"l": PP_ALIGN.LEFT, "r": PP_ALIGN.RIGHT, "ctr": PP_ALIGN.CENTER}
    text_frame.clear()
    for i, p in enumerate(paragraphs):
        paragraph = text_frame.paragraphs[0] if i == 0 else text_frame.add_paragraph()
        if not p.align_kept:
            paragraph.alignment = align[p.align]
        paragraph.line_spacing = Pt(p.pitch)
        paragraph.space_before = Pt(p.before if i else 0)
        paragraph.space_after = Pt(0)
        if p.in_placeholder:
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "0")
            p_pr.set("indent", "0")
            p_pr.insert_element_before(parse_xml(f"<a:buNone {nsdecls('a')}/>"), "a:tabLst",
                                       "a:defRPr", "a:extLst")
        for spec in p.runs:
            run = paragraph.add_run()
            run.text = spec.text
            run.font.size = Pt(p.size)
            run.font.bold = spec.bold
            if spec.colour is not None and spec.colour.role:
                run.font.color.theme_color = THEME_COLOUR[spec.colour.role]
            elif spec.colour is not None:
                run.font.color.rgb = RGBColor.from_string(spec.colour.value.lstrip("#"))
            if spec.face == "heading":
                run.font.name = "+mj-lt"
            r_pr = run._r.get_or_add_rPr()
            r_pr.set("lang", lang)
            if p.caps:
                r_pr.set("cap", "all")
            if p.tracking:
                r_pr.set("spc", str(round(p.tracking * 100)))
            if spec.link:
                run.hyperlink.address = spec.link


@pytest.mark.parametrize("placeholder", [False, True])
def test_paragraphs_match_python_pptx_setters(placeholder: bool) -> None:
    from lxml import etree

    from deckgen.paint.pptx.text import write
    from deckgen.plan.placed import Colour, Paragraph, TextRun

    accent, muted = Colour("#C00000", "accent"), Colour("#595959", "muted")
    paragraphs = [
        Paragraph((TextRun("Tokens & <tags> \"quoted\"", bold=True, face="heading"),), 40.0,
                  46.8, 0.0, "l", in_placeholder=placeholder),
        Paragraph((TextRun("plain "), TextRun("linked", accent, link="https://a.b/c"),
                   TextRun(" again", bold=True, link="https://a.b/c"),
                   TextRun(" bell\x07 tab\t", muted), TextRun(" made", Colour("#0A1B2C"))), 18.0,
                  20.7, 6.0, "l", align_kept=placeholder, in_placeholder=placeholder),
        Paragraph((TextRun("caps", muted, link="https://x.y/"),), 12.5, 15.0, 0.0, "ctr",
                  caps=True, tracking=1.5, in_placeholder=placeholder),
        Paragraph((TextRun("right"),), 9.75, 8.775, 3.3, "r", in_placeholder=placeholder),
    ]
    slide, fast, slow = _frames()
    write(fast, paragraphs, "de-DE")
    _with_setters(slow, paragraphs, "de-DE")
    assert etree.tostring(fast._txBody) == etree.tostring(slow._txBody)
    assert b"_x0007_" in etree.tostring(fast._txBody)
    links = [r for r in slide.part.rels.values() if r.is_external]
    assert sorted(r.target_ref for r in links) == ["https://a.b/c", "https://x.y/"]
