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


@pytest.mark.parametrize("placeholder", [False, True])
def test_paragraphs_match_python_pptx_setters(placeholder: bool) -> None:
    from lxml import etree

    from deckgen.paint.pptx.paragraphs import _write_paras_slowly, write_paras
    from deckgen.plan.items import Para, Run

    paras = [
        Para("Tokens & <tags> \"quoted\"", (40.0,), bold=True, heading=True, align="l"),
        Para("", (18.0,), runs=(Run("plain "), Run("linked", colour="accent", link="https://a.b/c"),
                                Run(" again", bold=True, link="https://a.b/c"),
                                Run(" bell\x07 tab\t", colour="muted", bold=False)),
             before=6.0, line=1.15, colour=None),
        Para("caps", (12.5,), caps=True, tracking=1.5, colour="muted", align="ctr",
             link="https://x.y/"),
        Para("right", (9.75,), align="r", before=3.3, line=0.9),
    ]
    sizes = [40.0, 18.0, 12.5, 9.75]
    slide, fast, slow = _frames()
    write_paras(fast, paras, sizes, placeholder=placeholder)
    _write_paras_slowly(slow, paras, sizes, placeholder=placeholder)
    assert etree.tostring(fast._txBody) == etree.tostring(slow._txBody)
    assert b"_x0007_" in etree.tostring(fast._txBody)
    links = [r for r in slide.part.rels.values() if r.is_external]
    assert sorted(r.target_ref for r in links) == ["https://a.b/c", "https://x.y/"]
