"""The printed handout, opened as a reader would: its text, pages, fonts, links and outline.

Figures are worked out by hand here, not taken from deckgen, so a wrong formula or a
misplaced table shows up as a mismatch with the arithmetic written below.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, only_file, run_in, shared_build
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject

from deckgen import __version__

MM = 72 / 25.4
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
STANDARD_14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica",
               "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman",
               "Times-Bold", "Times-Italic", "Times-BoldItalic", "Symbol", "ZapfDingbats"}
SOURCE_URLS = {"https://docs.anthropic.com/en/docs/build-with-claude/context-windows",
               "https://platform.openai.com/docs/guides/latency-optimization",
               "https://arxiv.org/abs/2403.02310", "https://arxiv.org/abs/2309.06180"}
META_URL = "https://echohive.ai"


def the_pdf(folder: Path) -> Path:
    return only_file(folder, ".pdf")


def flat(text: str) -> str:
    """Extracted text with no-break spaces as spaces and every run of whitespace as one."""
    return " ".join(text.replace("\u00a0", " ").split())


def page_texts(pdf: Path) -> list[str]:
    return [flat(page.extract_text()) for page in PdfReader(pdf).pages]


def build_handout(out: Path, *args: str, content: Path = DEFAULT_CONTENT,
                  env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_in("build", str(content), "--only", "handout", "--out", str(out), *args, env=env)


# default_build and other_build (tests/conftest.py) build deck and handout together; the
# Letter builds below make the handout alone.
@pytest.fixture(scope="session")
def letter_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_build(tmp_path_factory, "letter-build", "--only", "handout", "--paper",
                        "letter")


@pytest.fixture(scope="session")
def other_letter_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_build(tmp_path_factory, "other-letter-build", "--only", "handout", "--paper",
                        "letter", "--speed", "2500", "--check", "15 min", "--workload",
                        "candidates")


# --------------------------------------------------------------------------------------------
# The figures, worked out by hand


def test_default_dial_figures(default_build: Path) -> None:
    front, back = page_texts(the_pdf(default_build))
    sheet = f"{front} {back}"  # the serial bottleneck may run on overleaf
    # The dial: 1,000 story endings x 1,000 tokens = 1,000,000 tokens.
    # At 1,000,000 tokens/sec: 1 s. At 100 tokens/sec: 10,000 s = 2 h 46 min 40 s.
    assert "Our dial: 1,000,000 tokens/sec" in front
    assert "1,000 story endings × 1,000 tokens = 1,000,000 output tokens" in front
    assert "1 second 1,000 story endings: 1 second of writing at 1,000,000 tokens/sec" in front
    assert "AT 100 TOKENS/SEC 2 h 46 min 40 s" in front
    # The four workloads at both ends: tokens / 100 and tokens / 1,000,000.
    assert "1,000 story endings × 1,000 1,000,000 2 h 46 min 40 s 1 second" in front
    assert "40 app drafts × 20,000 800,000 2 h 13 min 20 s 0.8 seconds" in front  # 8,000 s
    assert "10,000 critiqued candidates × 300 3,000,000 8 h 20 min 3 seconds" in front  # 30,000 s
    assert "10,000 rehearsals × 1,000 10,000,000 27 h 46 min 40 s 10 seconds" in front  # 100,000 s
    # The bottleneck: 800,000 tokens, then a 60 s check.
    # Slow: 8,000 + 60 = 8,060 s = 2 h 14 min 20 s. Fast: 0.8 + 60 = 60.8 s.
    # Writing speedup 1,000,000 / 100 = 10,000x; end to end 8,060 / 60.8 = 132.566 -> 132.57x;
    # ceiling 8,060 / 60 = 134.333 -> 134.33x; the check is 60 / 60.8 = 98.68% -> 98.7%.
    assert "WRITING SPEEDUP END-TO-END SPEEDUP 10,000× 132.57× 1,000,000 ÷ 100 tokens/sec " \
           "8,060 ÷ 60.8 seconds" in sheet
    assert "no writing speed makes this batch more than 134.33× faster end to end" in sheet
    assert "Fixed check 98.7%" in sheet and "Writing 1.3%" in sheet  # the chart's own text
    assert "100 tokens/sec: 2 h 14 min 20 s" in sheet
    assert "1,000,000 tokens/sec: 60.8 seconds" in sheet
    # The preset checks: 8,000 s + check against 0.8 s + check.
    assert "None 2 h 13 min 20 s 0.8 seconds 10,000×" in sheet
    assert "60 seconds 2 h 14 min 20 s 60.8 seconds 132.57×" in sheet
    assert "15 min 2 h 28 min 20 s 15 min 1 s 9.88×" in sheet  # 8,900 / 900.8 = 9.880
    assert "24 h 26 h 13 min 20 s 24 h 1 s 1.09×" in sheet  # 94,400 / 86,400.8 = 1.0926
    # Each experiment's arithmetic and its writing time at the chosen speed, on the front.
    assert "1,000 × 1,000 = 1,000,000 tokens 1 second of writing at 1,000,000 tokens/sec" in front
    assert "40 × 20,000 = 800,000 tokens 0.8 seconds of writing at 1,000,000 tokens/sec" in front
    assert "10,000 × 300 = 3,000,000 tokens 3 seconds of writing at 1,000,000 tokens/sec" in front
    assert "10,000 × 1,000 = 10,000,000 tokens 10 seconds of writing at 1,000,000 tokens/sec" \
        in front
    # Each source's byline: who published it, what kind of source it is, when it was checked.
    assert "OpenAI · Official API guide · checked 2026-10-02." in back


def other_dial_figures(front: str, back: str) -> None:
    """2,500 tokens/sec, a 15 min check, featuring the 10,000 critiqued candidates."""
    sheet = f"{front} {back}"  # the serial bottleneck may run on overleaf
    assert "Our dial: 2,500 tokens/sec" in front
    # The dial: 10,000 x 300 = 3,000,000 tokens; / 2,500 = 1,200 s = 20 min; / 100 = 8 h 20 min.
    assert "10,000 critiqued candidates × 300 tokens = 3,000,000 output tokens" in front
    assert "20 min 10,000 critiqued candidates: 20 min of writing at 2,500 tokens/sec" in front
    assert "AT 100 TOKENS/SEC 8 h 20 min" in front
    # The workload table at 2,500 tokens/sec.
    assert "1,000 story endings × 1,000 1,000,000 2 h 46 min 40 s 6 min 40 s" in front  # 400 s
    assert "40 app drafts × 20,000 800,000 2 h 13 min 20 s 5 min 20 s" in front  # 320 s
    assert "10,000 critiqued candidates × 300 3,000,000 8 h 20 min 20 min" in front  # 1,200 s
    # 10,000,000 / 2,500 = 4,000 s
    assert "10,000 rehearsals × 1,000 10,000,000 27 h 46 min 40 s 1 h 6 min 40 s" in front
    # The bottleneck: the 800,000 tokens of app drafts, then 15 min (900 s) of checking.
    # Fast total 320 + 900 = 1,220 s = 20 min 20 s; slow 8,000 + 900 = 8,900 s = 2 h 28 min 20 s.
    # End to end 8,900 / 1,220 = 7.295 -> 7.30x; check share 900 / 1,220 = 73.77% -> 73.8%;
    # ceiling 8,900 / 900 = 9.888 -> 9.89x; writing speedup 2,500 / 100 = 25x.
    assert "WRITING SPEEDUP END-TO-END SPEEDUP 25× 7.30× 2,500 ÷ 100 tokens/sec " \
           "8,900 ÷ 1,220 seconds" in sheet
    assert "100 tokens/sec: 2 h 28 min 20 s" in sheet and "2,500 tokens/sec: 20 min 20 s" in sheet
    assert "Fixed check 73.8%" in sheet and "Writing 26.2%" in sheet  # 320 / 1,220 = 26.23%
    assert "no writing speed makes this batch more than 9.89× faster end to end" in sheet
    assert "15 min 2 h 28 min 20 s 20 min 20 s 7.30×" in sheet
    assert "None 2 h 13 min 20 s 5 min 20 s 25×" in sheet  # 8,000 / 320
    assert "10,000 × 300 = 3,000,000 tokens 20 min of writing at 2,500 tokens/sec" in front


def test_other_dial_figures(other_build: Path) -> None:
    other_dial_figures(*page_texts(the_pdf(other_build)))


def test_other_dial_figures_on_letter(other_letter_build: Path) -> None:
    other_dial_figures(*page_texts(the_pdf(other_letter_build)))


def test_reading_order(default_build: Path) -> None:
    """Text comes out in the talk's order, section by section, left column before right,
    front before back: 01, the dial and the workloads, 02, 03, 04, 05 and the sources."""
    sheet = " ".join(page_texts(the_pdf(default_build)))
    in_order = ["A million tokens a second", "One number, four meanings", "CONTEXT CAPACITY",
                "SINGLE-AGENT OUTPUT", "Turn the dial",
                "Every workload at 100 and 1,000,000 tokens/sec",
                "Cheap drafts shift where the hard work is",
                "A map of possible endings 1,000 × 1,000 = 1,000,000 tokens",
                "An app for a neighbourhood tool library", "A handful of real experiments",
                "Practising a hard conversation",
                "Faster writing is not the same as faster work", "Take the 40 app drafts",
                "The same batch under each fixed check", "The part you cannot speed up",
                "Cheap writing makes judgement",
                "Taste. Knowing", "Cost and energy.",
                "Decide how you will choose before you ask for more",
                "Write down what done means", "Done means:",
                "Ask for disagreement, not more drafts",
                "Assumptions to vary:", "Where the facts come from", "Context windows",
                "Efficient Memory Management"]
    positions = [sheet.index(s) for s in in_order]
    assert positions == sorted(positions)


# --------------------------------------------------------------------------------------------
# The sheet: pages, paper, fonts, links, outline, metadata


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    return [(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in PdfReader(pdf).pages]


def test_two_pages_of_a4(default_build: Path) -> None:
    assert page_sizes(the_pdf(default_build)) == [A4, A4]


def test_two_pages_of_letter(letter_build: Path, other_letter_build: Path) -> None:
    assert page_sizes(the_pdf(letter_build)) == [LETTER, LETTER]
    assert page_sizes(the_pdf(other_letter_build)) == [LETTER, LETTER]


def fonts_used(pdf: Path) -> dict[str, DictionaryObject]:
    found: dict[str, DictionaryObject] = {}
    for page in PdfReader(pdf).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            font = ref.get_object()
            found[str(font["/BaseFont"])] = font
    return found


@pytest.mark.parametrize("build", ["default_build", "letter_build"])
def test_every_font_is_an_embedded_truetype(build: str, request: pytest.FixtureRequest) -> None:
    used = fonts_used(the_pdf(request.getfixturevalue(build)))
    assert used, "no fonts found"
    for name, font in used.items():
        assert name.lstrip("/").split("+")[-1] not in STANDARD_14
        for part in [font, *(d.get_object() for d in font.get("/DescendantFonts", []))]:
            if "/FontDescriptor" in part:
                descriptor = part["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor, f"{name} is not embedded"
                break
        else:
            pytest.fail(f"{name} has no font descriptor")
    assert {n.lstrip("/").split("+")[-1] for n in used} == {"LiberationSans", "LiberationSans-Bold"}


def test_pdffonts_lists_every_font_as_embedded(default_build: Path) -> None:
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    listing = subprocess.run(["pdffonts", str(the_pdf(default_build))], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    header = listing[0]
    emb = header.index("emb")
    rows = listing[2:]
    assert len(rows) >= 2
    assert [row[emb:emb + 3] for row in rows] == ["yes"] * len(rows), listing


def link_targets(pdf: Path) -> list[tuple[int, str]]:
    found = []
    for number, page in enumerate(PdfReader(pdf).pages):
        for annot in page.get("/Annots", []):
            annot = annot.get_object() if isinstance(annot, IndirectObject) else annot
            if annot.get("/Subtype") == "/Link" and "/A" in annot:
                found.append((number, str(annot["/A"].get_object()["/URI"])))
    return found


def test_sources_and_the_qr_url_are_clickable_on_the_back(default_build: Path) -> None:
    links = link_targets(the_pdf(default_build))
    assert {url for _, url in links} == SOURCE_URLS | {META_URL}
    assert {page for page, _ in links} == {1}


def test_each_source_says_what_it_supports(default_build: Path, letter_build: Path) -> None:
    """The sources on the back: each title, what it supports (the content's own sentence,
    the part the slide may leave out first) and its byline, at A4 and at Letter."""
    import deckgen.story
    from deckgen import build

    story = deckgen.story.compose(build.prepare(None, build.Options())[0])
    assert len(story.sources) == 5
    for folder in (default_build, letter_build):
        back = page_texts(the_pdf(folder))[1]
        for src in story.sources:
            assert flat(f"{src.title}. {src.supports}") in back, src.title
            assert flat(src.byline) in back, src.title


def test_outline_names_each_section_on_its_page(default_build: Path) -> None:
    reader = PdfReader(the_pdf(default_build))
    outline = [(item.title.replace("\u00a0", " "), reader.get_destination_page_number(item))
               for item in reader.outline]  # a headline's figures are kept whole (no-break)
    assert outline == [  # each section under its slide's headline
        ("One number, four meanings", 0), ("Turn the dial", 0),
        ("Every workload at 100 and 1,000,000 tokens/sec", 0),
        ("Cheap drafts shift where the hard work is", 0),
        ("Faster writing is not the same as faster work", 0),
        ("Cheap writing makes judgement the scarce part", 1),
        ("Decide how you will choose before you ask for more", 1),
        ("Where the facts come from", 1)]


def test_metadata(default_build: Path) -> None:
    info = PdfReader(the_pdf(default_build)).metadata
    assert info.title == "A million tokens a second"
    assert info.author == "Your name here"
    assert info.subject == "What the number can mean, and what faster writing does not buy"
    assert info.creator == f"deckgen {__version__}"
    keywords = info["/Keywords"]
    assert "The serial bottleneck" in keywords and "AI Builders Meetup" in keywords


def test_qpdf_finds_nothing_wrong(default_build: Path, letter_build: Path) -> None:
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed")
    for folder in (default_build, letter_build):
        run = subprocess.run(["qpdf", "--check", str(the_pdf(folder))], capture_output=True,
                             text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "No syntax or stream encoding errors found" in run.stdout


# --------------------------------------------------------------------------------------------
# Things to write on


def rectangles(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    """Every `x y w h re` in a page's content, as numbers."""
    data = PdfReader(pdf).pages[page].get_contents().get_data().decode("latin-1")
    number = r"(-?[\d.]+)"
    found = re.findall(rf"{number} {number} {number} {number} re", data)
    return [(float(x), float(y), float(w), float(h)) for x, y, w, h in found]


def test_each_checklist_step_has_a_box_of_about_4_mm(default_build: Path) -> None:
    pdf = the_pdf(default_build)
    boxes = [r for r in rectangles(pdf, 1)
             if 3.8 * MM <= r[2] <= 4.4 * MM and abs(r[2] - r[3]) < 0.01]
    assert len(boxes) == 4  # one per step in content.yaml


def test_qr_code_is_at_least_20_mm_square(default_build: Path) -> None:
    """The QR modules are equal squares; together they span at least 20 mm each way."""
    rects = rectangles(the_pdf(default_build), 1)
    heights = [round(r[3], 3) for r in rects]
    module = max(set(heights), key=heights.count)
    modules = [r for r in rects if round(r[3], 3) == module]
    assert len(modules) > 100
    width = max(r[0] + r[2] for r in modules) - min(r[0] for r in modules)
    height = max(r[1] + r[3] for r in modules) - min(r[1] for r in modules)
    assert width >= 20 * MM and height >= 20 * MM
    assert abs(width - height) < 0.01


def test_no_url_no_qr_code(tmp_path: Path, default_text: str) -> None:
    content = tmp_path / "content.yaml"
    content.write_text(default_text.replace("  url: https://echohive.ai\n", ""), encoding="utf-8")
    run = build_handout(tmp_path / "out", content=content)
    assert run.returncode == 0, run.stderr
    pdf = the_pdf(tmp_path / "out")
    assert {url for _, url in link_targets(pdf)} == SOURCE_URLS
    heights = [round(r[3], 3) for r in rectangles(pdf, 1)]
    assert max(heights.count(h) for h in set(heights)) < 20  # boxes and rules, no QR modules


# --------------------------------------------------------------------------------------------
# Too much for one sheet, and characters the font lacks


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_back_overflow_names_the_key_and_its_line(tmp_path: Path, default_text: str) -> None:
    old = "    detail: Pick two or three up front, so the smoothest-sounding draft cannot win on " \
          "style alone."
    long = "Pick two or three up front, so the smoothest-sounding draft cannot win on style " \
           "alone. " * 20  # 1,740 characters: more than the tightest type scale makes room for
    text = default_text.replace(old, f'    detail: "{long.strip()}"')
    content = tmp_path / "content.yaml"
    content.write_text(text, encoding="utf-8")
    run = build_handout(tmp_path / "out", content=content)
    assert run.returncode == 2, run.stderr
    line = line_of(text, '    detail: "Pick two')
    assert f"{content}:{line}:" in run.stderr
    assert "checklist[1].detail" in run.stderr
    assert re.search(r"the handout's back page is \d+ mm too long for one page", run.stderr)
    assert "--pages auto" in run.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pdf"))

    auto = build_handout(tmp_path / "auto", "--pages", "auto", content=content)
    assert auto.returncode == 0, auto.stderr
    pdf = the_pdf(tmp_path / "auto")
    pages = page_texts(pdf)
    assert len(pages) > 2
    assert all(size == A4 for size in page_sizes(pdf))
    assert flat(long) in " ".join(pages)  # every word of it, across the pages


def test_front_overflow_names_the_key_and_its_line(tmp_path: Path, default_text: str) -> None:
    """The four meanings beside the dial, too tall for the front even on its own."""
    old = "      The text one request can hold, the model's own reply included.\n"
    other = "      and reading speed is a different figure from writing speed.\n"
    text = default_text.replace(old, old * 30).replace(other, other * 20)
    content = tmp_path / "content.yaml"
    content.write_text(text, encoding="utf-8")
    run = build_handout(tmp_path / "out", content=content)
    assert run.returncode == 2, run.stderr
    assert f"{content}:{line_of(text, 'text: >-') }:" in run.stderr
    assert "meanings[0].text" in run.stderr
    assert re.search(r"the handout's front page is \d+ mm too long for one page", run.stderr)


def test_accented_and_greek_letters_print_and_missing_glyphs_warn(tmp_path: Path,
                                                                 default_text: str) -> None:
    title = "Café naïve · Ωμέγα ≈ ÷ × ☐ Жук"
    text = default_text.replace("title: A million tokens a second", f'title: "{title}"', 1)
    text = text.replace("Your name here", "Ada Lovelace")  # no starter warning besides
    content = tmp_path / "content.yaml"
    content.write_text(text, encoding="utf-8")
    run = build_handout(tmp_path / "out", content=content)
    assert run.returncode == 0, run.stderr
    assert page_texts(the_pdf(tmp_path / "out"))[0].startswith(title)

    # Egyptian hieroglyphs: no font here draws them; the sheet is still built, with a warning.
    glyph = "\U00013000"
    text = text.replace("label: Context capacity", f"label: {glyph} capacity")
    content.write_text(text, encoding="utf-8")
    run = build_handout(tmp_path / "glyphs", content=content)
    assert run.returncode == 0, run.stderr
    assert the_pdf(tmp_path / "glyphs").is_file()
    assert run.stderr.startswith(f"{content}:{line_of(text, glyph)}:")
    assert "meanings[0].label: warning: the handout has no font for" in run.stderr
    assert "(U+13000)" in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr


# --------------------------------------------------------------------------------------------
# The same input, the same bytes


# --------------------------------------------------------------------------------------------
# The bottleneck chart, drawn with reportlab's shapes


def _chart_drawing(composed):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    from deckgen.paint.handout import chart, fonts, style

    fonts.register_fonts()  # noqa: SLF001
    width, height = 250.0, style.CHART_HEIGHT
    drawn = chart.draw(composed.chart("bottleneck"), style.Palette.from_theme(composed.theme),
                       width, height, style.SMALL_PT)
    return drawn, width, height


def _shapes(group, kind):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return [s for s in group.contents if type(s).__name__ == kind]


def test_the_chart_is_drawn_from_the_story_segments_as_shares_of_the_bar() -> None:
    from fractions import Fraction

    from deckgen import source, story

    content, _ = source.read(None)
    composed = story.compose(content)
    bars = composed.chart("bottleneck").bars
    # 800,000 tokens: 8,000 s of writing at 100 tokens/sec, 0.8 s at 1,000,000; a 60 s check.
    assert [[s.share for s in b.segments] for b in bars] == [
        [Fraction(8000, 8060), Fraction(60, 8060)], [Fraction(8, 608), Fraction(600, 608)]]
    drawn, width, height = _chart_drawing(composed)
    assert (drawn.width, drawn.height) == (width, height)
    pad = 8.5 * 0.4  # the chart's margin left and right: 0.4 em of its 8.5 pt text
    bar_w = width - 2 * pad
    for bar, group in zip(bars, drawn.contents, strict=True):
        rects = _shapes(group, "Rect")
        segments = rects[:len(bar.segments)]
        assert [r.width for r in segments] == pytest.approx(
            [bar_w * float(s.share) for s in bar.segments])
        assert segments[0].x == pytest.approx(pad)
        assert segments[1].x == pytest.approx(pad + segments[0].width)  # end to end: 100%
        assert sum(r.width for r in segments) == pytest.approx(bar_w)
        texts = [s.text for s in _shapes(group, "String")]
        assert bar.label in texts
        for seg in bar.segments:
            assert f"{seg.name} {seg.label}" in texts
        # The hatching: strokes that stay inside the second segment's rectangle.
        hatched = segments[1]
        strokes = [ln for ln in _shapes(group, "Line")
                   if hatched.x - 1e-6 <= min(ln.x1, ln.x2)
                   and max(ln.x1, ln.x2) <= hatched.x + hatched.width + 1e-6
                   and ln.x1 != ln.x2]
        assert strokes, "the check's segment carries hatching"
        for ln in strokes:
            assert hatched.y - 1e-6 <= min(ln.y1, ln.y2)
            assert max(ln.y1, ln.y2) <= hatched.y + hatched.height + 1e-6
    assert [s.text for s in _shapes(drawn.contents[0], "String")] == [
        "100 tokens/sec: 2 h 14 min 20 s", "Writing 99.3%", "Fixed check 0.7%"]
    assert [s.text for s in _shapes(drawn.contents[1], "String")] == [
        "1,000,000 tokens/sec: 60.8 seconds", "Fixed check 98.7%", "Writing 1.3%"]


def test_the_chart_lends_a_label_too_wide_for_its_segment_to_the_widest() -> None:
    """As on the slides: a label that fits sits in its segment; one that does not is lent to
    the bar's widest segment, on the line under that segment's own, on the bar."""
    from deckgen import source, story
    from deckgen.paint.handout import fonts

    content, _ = source.read(None)
    composed = story.compose(content)
    drawn, _, _ = _chart_drawing(composed)
    for group, own, lent, widest in ((drawn.contents[0], "Writing 99.3%", "Fixed check 0.7%", 0),
                                     (drawn.contents[1], "Fixed check 98.7%", "Writing 1.3%", 1)):
        rects = _shapes(group, "Rect")
        bar_bottom, bar_top = rects[0].y, rects[0].y + rects[0].height
        seg = rects[widest] if widest == 0 else rects[1]
        strings = {s.text: s for s in _shapes(group, "String")}
        for text in (own, lent):
            s = strings[text]
            w = fonts.text_width(s.text, s.fontName, s.fontSize)  # noqa: SLF001
            assert bar_bottom < s.y < bar_top, text  # on the bar
            assert seg.x <= s.x and s.x + w <= seg.x + seg.width + 1e-6, text  # in the widest
        assert strings[lent].y < strings[own].y  # on the line under the segment's own
    # The emphasised bar (ours, the 1,000,000 tokens/sec one) is set in bold, the other not.
    assert {s.fontName for s in _shapes(drawn.contents[1], "String")} == {"LiberationSans-Bold"}
    assert {s.fontName for s in _shapes(drawn.contents[0], "String")} == {"LiberationSans"}


@pytest.mark.parametrize("dial", [("40K", "1h"), ("100", None), ("2500", "15 min")])
def test_chart_labels_never_overlap_at_other_dials(dial: tuple[str, str | None]) -> None:
    from deckgen import source, story
    from deckgen.figures import with_overrides
    from deckgen.paint.handout import fonts

    content, _ = source.read(None)
    composed = story.compose(with_overrides(content, dial[0], dial[1], None))
    if not any(c.key == "bottleneck" for c in composed.charts):
        pytest.skip("no check, no bottleneck chart")
    drawn, width, height = _chart_drawing(composed)
    boxes = []
    for group in drawn.contents:
        for s in _shapes(group, "String"):
            w = fonts.text_width(s.text, s.fontName, s.fontSize)  # noqa: SLF001
            box = (s.x, s.y - 0.21 * s.fontSize, s.x + w, s.y + 0.9 * s.fontSize)
            assert 0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height
            boxes.append((s.text, box))
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            apart = ba[2] <= bb[0] or bb[2] <= ba[0] or ba[3] <= bb[1] or bb[3] <= ba[1]
            assert apart, (a, b)


def test_chart_text_a_fallback_font_draws_is_measured_in_that_font() -> None:
    """A label in a script Liberation Sans lacks is set in the fallback font and placed by
    the widths it is drawn with: here the check's label, 6 CJK characters (8.5 pt each) and
    " 30.0%", is about 77 pt wide, wider than its 73 pt segment (0.3 of 243.2 pt): it is
    lent to the writing segment, under its label, which fits there, measured the same way."""
    from fractions import Fraction

    from deckgen import fonts as core_fonts
    from deckgen import source, story
    from deckgen.paint.handout import chart, fonts, style

    if not any(p.name == "DroidSansFallbackFull.ttf" for p in core_fonts.fallbacks()):
        pytest.skip("the CJK fallback font (fonts-droid-fallback) is not installed")
    fonts.register_fonts()  # noqa: SLF001
    content, _ = source.read(None)
    theme = story.compose(content).theme
    bar = story.Bar("每秒一百万个词元", (story.Segment("写作", Fraction(7, 10), "70.0%"),
                                  story.Segment("固定检查时间", Fraction(3, 10), "30.0%")), True)
    drawn = chart.draw(story.BarChart("bottleneck", "", (bar,), ""),
                       style.Palette.from_theme(theme), 250.0, style.CHART_HEIGHT, 8.5)
    group = drawn.contents[0]
    rects = _shapes(group, "Rect")
    strings = _shapes(group, "String")
    assert {s.fontName for s in strings} >= {"Fallback-DroidSansFallbackFull"}
    assert "".join(s.text for s in strings) == "每秒一百万个词元写作 70.0%固定检查时间 30.0%"
    writing, check = rects[0], rects[1]
    assert check.width == pytest.approx(243.2 * 0.3)
    on_writing = [s for s in strings if writing.y < s.y < writing.y + writing.height]
    assert "".join(s.text for s in on_writing) == "写作 70.0%固定检查时间 30.0%"
    assert max(s.x + fonts.text_width(s.text, s.fontName, s.fontSize)  # noqa: SLF001
               for s in on_writing) <= writing.x + writing.width
    own = [s for s in on_writing if s.text.startswith("写作")]
    lent = [s for s in on_writing if s.text.startswith("固定")]
    assert lent[0].y < own[0].y  # on the line under the writing's own


def test_the_qr_code_prints_as_reportlabs_widget_draws_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The QR code is reportlab's widget, sized so each module is QR_MODULES over the module
    count, and draws exactly as the widget added to a drawing draws itself."""
    from reportlab import rl_config
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    from deckgen.paint.handout.lists import QR_MODULES, qr_drawing

    url = "https://example.org/talks/a-million-tokens"
    drawing = qr_drawing(url)
    widget = QrCodeWidget(url, barLevel="M")
    widget.qr.make()
    modules = widget.qr.getModuleCount()
    assert modules == 29  # version 3 at level M: this link's length
    size = QR_MODULES * (modules + 2 * widget.barBorder) / modules
    assert drawing.width == drawing.height == pytest.approx(size)
    widget.barWidth = widget.barHeight = size
    plain = Drawing(size, size)
    plain.add(widget)
    monkeypatch.setattr(rl_config, "invariant", 1)  # no clock or random id in the PDF
    assert renderPDF.drawToString(drawing) == renderPDF.drawToString(plain)
