"""What deckgen.paint.pdf.compat does where reportlab has no public API, compared with
what reportlab itself does: when a reportlab release changes that, these tests say so.

Each font here sets its text on a document of its own, not through reportlab's font registry,
which keeps the first font registered for a face for the whole process."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from deckgen import fonts

SYMBOLA = next((file for file, package in fonts.FALLBACKS if package == "fonts-symbola"), None)
needs_symbola = pytest.mark.skipif(SYMBOLA is None or not SYMBOLA.is_file(),
                                   reason="the emoji font (fonts-symbola) is not installed")
ROCKET = "\U0001f680"


def _map(font_class: type, file: object, text: str) -> str:
    """The ToUnicode map a font of `font_class` adds to a document that sets `text`."""
    from reportlab.pdfbase import pdfdoc

    font = font_class("t-compat", str(file))
    doc = pdfdoc.PDFDocument(invariant=1)
    font.splitString(text, doc)  # as a canvas does when it draws the text
    font.addObjects(doc)  # as the document does when it is saved
    (found,) = [thing.content for thing in doc.idToObject.values()
                if isinstance(thing, pdfdoc.PDFStream) and "begincmap" in str(thing.content)]
    return str(found)


@needs_symbola
def test_reportlab_still_writes_an_emoji_as_its_bare_code_point() -> None:
    """Why the piece exists: reportlab's own map gives U+1F680 as <1F680>, which PDF readers
    reject. Once reportlab writes UTF-16 there itself, drop compat.TTFont."""
    from reportlab.pdfbase.ttfonts import TTFont

    assert re.search(r"^<01> <1F680>$", _map(TTFont, SYMBOLA, f"go {ROCKET}"), flags=re.M)


@needs_symbola
def test_the_map_is_reportlabs_own_with_emoji_as_utf16_pairs() -> None:
    from reportlab.pdfbase.ttfonts import TTFont as Plain

    from deckgen.paint.pdf.compat import TTFont

    text = f"go {ROCKET} \u2728 \u00e9"
    theirs, ours = _map(Plain, SYMBOLA, text), _map(TTFont, SYMBOLA, text)
    changed = [(a, b) for a, b in zip(theirs.splitlines(), ours.splitlines(), strict=True)
               if a != b]
    assert changed == [("<01> <1F680>", "<01> <D83DDE80>")]


def test_a_font_without_such_characters_keeps_reportlabs_map_as_it_is() -> None:
    from reportlab.pdfbase.ttfonts import TTFont as Plain

    from deckgen.paint.pdf.compat import TTFont

    text = "Caf\u00e9 \u00b7 132.57\u00d7 \u2014 \u03a9"
    file = fonts.text_path("regular")
    assert _map(TTFont, file, text) == _map(Plain, file, text)


@needs_symbola
def test_a_reader_takes_the_emoji_back_out_of_the_pdf() -> None:
    """A whole PDF, saved and compressed as reportlab saves it, then read back by pypdf."""
    from reportlab.pdfgen.canvas import Canvas

    from deckgen.paint.handout.fonts import _fallback, register_fonts

    register_fonts()
    assert SYMBOLA is not None
    name = _fallback(SYMBOLA)  # the handout's own fallback font
    assert name is not None
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1, pageCompression=1)
    canvas.setFont(name, 12)
    canvas.drawString(72, 720, f"go {ROCKET}")
    canvas.showPage()
    canvas.save()
    assert f"go {ROCKET}" in PdfReader(out).pages[0].extract_text()


# --- CJK paragraphs: reportlab's line breaking forgets a carried-over Latin run's width ------

CJK_TEXT = ("10,000本のストリームが100\xa0トークン/秒ずつで合計1,000,000\xa0トークン/秒になります。"
            "この合計は、どのストリームがいつ終わるかについて何も語りません。")
needs_cjk = pytest.mark.skipif(
    not any(p.name == "DroidSansFallbackFull.ttf" for p in fonts.fallbacks()),
    reason="the CJK fallback font (fonts-droid-fallback) is not installed")


def _cjk(paragraph_class: type, width: float, alignment: int = 0) -> list[float]:
    """Each line's room left (negative: past the column) when `paragraph_class` sets the
    text at 9 pt in a `width`-point column, breaking as reportlab breaks CJK; the width it
    says it takes must be the column's."""
    from reportlab.lib.styles import ParagraphStyle

    from deckgen.paint.handout.fonts import _with_fallbacks, register_fonts

    register_fonts()
    style = ParagraphStyle("cjk", fontName="LiberationSans", fontSize=9, leading=12,
                           wordWrap="CJK", alignment=alignment)
    found = paragraph_class(_with_fallbacks(CJK_TEXT, style.fontName), style)  # noqa: SLF001
    taken, _ = found.wrap(width, 500)
    first = [line.extraSpace for line in found.blPara.lines]
    assert found.wrap(width, 500)[0] == taken == width  # wrapped again: the same
    assert [line.extraSpace for line in found.blPara.lines] == first
    return first


@needs_cjk
def test_reportlab_still_lets_a_carried_over_figure_run_past_the_column() -> None:
    from reportlab.platypus import Paragraph

    assert min(_cjk(Paragraph, 245)) < -5  # "1,000,000 トークン/秒になります。…" by 7 pt


@needs_cjk
@pytest.mark.parametrize("width", [240.0, 244.0, 245.0, 248.0, 260.0, 300.0])
def test_a_cjk_paragraph_keeps_every_line_in_its_column(width: float) -> None:
    from deckgen.paint.pdf.compat import CjkParagraph

    assert min(_cjk(CjkParagraph, width)) >= 0


@needs_cjk
@pytest.mark.parametrize("width", [61.0, 155.0, 245.0])
def test_a_narrowed_cjk_paragraph_still_ends_its_lines_at_the_columns_edge(width: float
                                                                           ) -> None:
    """Right-aligned, each line ends at the column's right edge (its room is never
    negative, and none is the room given up to narrow it: the last line's is the least)."""
    import shutil
    import subprocess
    import tempfile

    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas

    from deckgen.paint.handout.fonts import _with_fallbacks
    from deckgen.paint.pdf.compat import CjkParagraph

    room = _cjk(CjkParagraph, width, TA_RIGHT)
    assert min(room) >= 0
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler's pdftotext is not installed")
    style = ParagraphStyle("cjk", fontName="LiberationSans", fontSize=9, leading=12,
                           wordWrap="CJK", alignment=TA_RIGHT)
    found = CjkParagraph(_with_fallbacks(CJK_TEXT, style.fontName), style)  # noqa: SLF001
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(width + 20, 800))
    _, height = found.wrap(width, 780)
    found.drawOn(canvas, 10, 790 - height)
    canvas.save()
    with tempfile.NamedTemporaryFile(suffix=".pdf") as pdf:
        pdf.write(out.getvalue())
        pdf.flush()
        boxes = subprocess.run(["pdftotext", "-bbox", pdf.name, "-"], capture_output=True,
                               text=True, check=True).stdout
    ends: dict[int, float] = {}  # each line's right end, the lines 12 pt apart
    for right, foot in re.findall(r'xMax="([\d.]+)" yMax="([\d.]+)"', boxes):
        ends[round(float(foot) / 12)] = max(ends.get(round(float(foot) / 12), 0.0),
                                            float(right))
    assert ends and all(abs(end - (10 + width)) < 1.0 for end in ends.values()), ends
