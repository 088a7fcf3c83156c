"""One placed deck, decided once and drawn by every painter.

Four builds (the default deck; 4:3 at 40,000 tokens/sec with a 1 h check; a deck on pandoc's
reference.pptx, a PowerPoint-made template in Calibri; a Japanese talk), each held to:
- its slides PDF and notes book embed exactly the faces its lines were measured with (the
  placed deck names each span's font file; pdffonts lists the PDFs' fonts);
- no two words overlap on any page of any of its PDFs (pdftotext -bbox), handout included;
- a Japanese talk's text comes out of its slides PDF as text, set in a face that has it.
Then the .pptx and the slides PDF are held to the same placed deck, box by box and line by
line (the default deck and the Calibri one); a dial that is not a round number is written one
way in every output; and a series keeps one look in the deck, its PDF and the page.
"""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, only_file, placed_of, run_in, shared_folder
from pptx import Presentation

import deckgen.story
from deckgen import build, fmt
from deckgen.plan.placed import Chart, Deck, Label, LinePlacement, TableBox, TextBox, TextLine

pytestmark = pytest.mark.slow
POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdffonts") is not None

VARIANTS = ["default", "4x3-40K-1h", "calibri", "japanese"]
OPTIONS = {"default": (), "4x3-40K-1h": ("--aspect", "4:3", "--speed", "40K", "--check", "1 h"),
           "calibri": (), "japanese": ()}


def pandoc_reference(folder: Path) -> Path:
    """pandoc's own reference.pptx (Calibri), as `pandoc --print-default-data-file` writes it."""
    pypandoc = pytest.importorskip("pypandoc")
    path = folder / "reference.pptx"
    with path.open("wb") as out:
        subprocess.run([pypandoc.get_pandoc_path(), "--print-default-data-file",
                        "reference.pptx"], stdout=out, check=True, timeout=60)
    return path


def content_of(name: str, folder: Path) -> Path:
    if name != "japanese":
        return DEFAULT_CONTENT
    from test_language import write_japanese

    return write_japanese(folder / "japanese.yaml")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each variant built once, every file, into a folder of its own (with its content
    file and template beside it)."""
    found = {}
    for name in VARIANTS:
        def make(out: Path, name: str = name) -> None:
            extra = list(OPTIONS[name])
            (out.parent / f"{name}-in").mkdir(exist_ok=True)
            if name == "calibri":
                extra += ["--template", str(pandoc_reference(out.parent / f"{name}-in"))]
            content = content_of(name, out.parent / f"{name}-in")
            run = run_in("build", str(content), "--out", str(out), *extra)
            assert run.returncode == 0, run.stderr
        found[name] = shared_folder(tmp_path_factory, f"placed-{name}", make)
    return found


def placed(name: str, folder: Path) -> Deck:
    """The placed deck of a variant, planned in this process as its build planned it."""
    content_path = content_of(name, folder.parent / f"{name}-in")
    args = OPTIONS[name]
    options = build.Options(aspect=args[1] if args else None,
                            speed=args[3] if args else None, check=args[5] if args else None)
    content, _ = build.prepare(content_path, options)
    template = (folder.parent / f"{name}-in" / "reference.pptx").read_bytes() \
        if name == "calibri" else None
    found = placed_of(deckgen.story.compose(content), template)
    assert isinstance(found, Deck)
    return found


def lines_of(deck_slide_shapes: tuple) -> Iterator[TextLine]:  # type: ignore[type-arg]
    """Every placed line of text a slide shows: its text boxes', its tables', its charts'."""
    for shape in deck_slide_shapes:
        if isinstance(shape, TextBox):
            for p in shape.paragraphs:
                yield from p.lines
        elif isinstance(shape, TableBox):
            for row in shape.cells:
                for cell in row:
                    for p in cell.paragraphs:
                        yield from p.lines
        elif isinstance(shape, Chart):
            yield from (line for label in _chart_labels(shape) for line in label.lines
                        if not label.angle)


def _chart_labels(chart: Chart) -> list[Label]:
    layout = chart.placement
    if not isinstance(layout, LinePlacement):
        return [found for bar in layout.bars for found in (bar.title, *(b for _, b in bar.labels))]
    found = [t.label for t in (*layout.x_ticks, *layout.y_ticks)] + [layout.x_title]
    found += [s.end_label for s in layout.series if s.end_label is not None]
    found += [e.label for e in layout.legend or ()] + [d.label for d in layout.dots]
    return found + ([layout.rule.label] if layout.rule.label else [])


def words(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Each page's words as poppler sets them: left, top, right, bottom (points), text."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append([(float(m[1]), float(m[2]), float(m[3]), float(m[4]), html.unescape(m[5]))
                      for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" '
                                           r'xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', page)])
    return pages


def embedded(pdf: Path) -> set[str]:
    """The fonts a PDF embeds, by name (the subset's prefix left out); every one embedded."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True,
                         timeout=60).stdout.splitlines()[2:]
    assert all(line.split()[-5] == "yes" for line in out), out  # the "emb" column
    return {line.split()[0].split("+", 1)[-1] for line in out}


@functools.cache
def postscript_name(file: str, index: int) -> str:
    """A font file's PostScript name (its name table's sixth), read by fontTools."""
    from fontTools.ttLib import TTFont

    with TTFont(file, fontNumber=index, lazy=True) as font:
        name: str = font["name"].getDebugName(6)
    return name


@pytest.mark.skipif(not POPPLER, reason="needs poppler's pdftotext and pdffonts")
@pytest.mark.parametrize("name", VARIANTS)
def test_the_pdfs_embed_the_faces_the_lines_were_measured_with(builds: dict[str, Path],
                                                                name: str) -> None:
    deck = placed(name, builds[name])
    measured = {postscript_name(s.font.file, s.font.index) for slide in deck.slides
                for line in lines_of(slide.shapes) for s in line.spans}
    body = {"default": "LiberationSans", "4x3-40K-1h": "LiberationSans", "calibri": "Carlito",
            "japanese": "LiberationSans"}[name]
    assert body in measured
    slides = embedded(only_file(builds[name], "-slides.pdf"))
    assert slides == measured, (name, slides ^ measured)
    notes = embedded(only_file(builds[name], "-notes.pdf"))
    assert measured <= notes and body in notes, (name, notes, measured)
    if name == "calibri":
        assert not any(f.startswith("Liberation") for f in slides | notes)


@pytest.mark.skipif(not POPPLER, reason="needs poppler's pdftotext and pdffonts")
@pytest.mark.parametrize("name", VARIANTS)
def test_no_two_words_overlap_on_any_page_of_any_pdf(builds: dict[str, Path],
                                                     name: str) -> None:
    pdfs = sorted(builds[name].glob("*.pdf"))
    assert len(pdfs) == 3  # the handout, the slides PDF and the notes book
    for pdf in pdfs:
        for number, page in enumerate(words(pdf), 1):
            clashes = [(a[4], b[4]) for a, b in combinations(page, 2)
                       if min(a[2], b[2]) - max(a[0], b[0]) > 0.5
                       and min(a[3], b[3]) - max(a[1], b[1]) > 0.5]
            assert not clashes, (pdf.name, number, clashes[:5])


@pytest.mark.skipif(not POPPLER, reason="needs poppler's pdftotext and pdffonts")
def test_a_japanese_talk_is_text_in_its_slides_pdf_in_a_face_that_has_it(
        builds: dict[str, Path]) -> None:
    from test_language import JA_TITLES

    from deckgen.typeset.text import Face

    pdf = only_file(builds["japanese"], "-slides.pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout.replace("\n", "")
    for title in JA_TITLES.values():
        assert title in text
    deck = placed("japanese", builds["japanese"])
    faces: dict[tuple[str, int], Face] = {}
    japanese = 0
    for slide in deck.slides:
        for line in lines_of(slide.shapes):
            for span in line.spans:
                key = (span.font.file, span.font.index)
                if key not in faces:
                    faces[key] = Face.from_ttf("", Path(key[0]).read_bytes(), key[0], key[1])
                assert all(faces[key].has(ch) for ch in span.text), span
                japanese += sum(1 for ch in span.text if "\u3040" <= ch <= "\u9fff")
    assert japanese > 500
    assert "DroidSansFallback" in embedded(pdf)


def _pptx_boxes(pptx: Path) -> list[list[tuple[tuple[int, int, int, int], str]]]:
    """Each slide's shapes with text: box (EMU), text."""
    out = []
    for slide in Presentation(str(pptx)).slides:
        found = []
        for shape in slide.shapes:
            if shape.has_text_frame and shape.text_frame.text:
                box = (int(shape.left), int(shape.top), int(shape.width), int(shape.height))
                found.append((box, shape.text_frame.text.replace("\x0b", "\n")))
        out.append(found)
    return out


@pytest.mark.skipif(not POPPLER, reason="needs poppler's pdftotext and pdffonts")
@pytest.mark.parametrize("name", ["default", "calibri"])
def test_the_deck_and_the_slides_pdf_are_the_same_placed_deck(builds: dict[str, Path],
                                                               name: str) -> None:
    """Every text box of the .pptx is where the placed deck puts it, with its text; every
    placed line is in the slides PDF where the placed deck puts it: its first word's left
    edge within a point, on its baseline."""
    deck = placed(name, builds[name])
    boxes = _pptx_boxes(only_file(builds[name], ".pptx"))
    pages = words(only_file(builds[name], "-slides.pdf"))
    assert len(boxes) == len(pages) == len(deck.slides)
    checked = 0
    for number, (slide, drawn, page) in enumerate(zip(deck.slides, boxes, pages, strict=True), 1):
        expected = [((s.box.x, s.box.y, s.box.w, s.box.h), s.text)
                    for s in slide.shapes if isinstance(s, TextBox) and s.text]
        assert sorted(drawn) == sorted(expected), number
        for line in lines_of(slide.shapes):
            text = "".join(s.text for s in line.spans)
            first = re.split(r"[ \u00a0\u202f]", text.strip())[0] if text.strip() else ""
            if not first or not line.spans:
                continue
            x = line.spans[0].x + (len(text) - len(text.lstrip())) * 0  # lines never start blank
            found = [w for w in page if w[4].startswith(first[:8])
                     and abs(w[0] - x) <= 1.0 and w[1] - 0.5 <= line.baseline <= w[3] + 0.5]
            assert found, (number, first, round(x, 1), round(line.baseline, 1))
            checked += 1
    assert checked > 200


@pytest.fixture(scope="module")
def odd_dial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(out: Path) -> None:
        run = run_in("build", str(DEFAULT_CONTENT), "--speed", "12345", "--out", str(out))
        assert run.returncode == 0, run.stderr
    return shared_folder(tmp_path_factory, "odd-dial", make)


@pytest.mark.skipif(not POPPLER, reason="needs poppler's pdftotext and pdffonts")
def test_a_dial_that_is_not_round_is_written_one_way_in_every_output(odd_dial: Path) -> None:
    """12,345 tokens/sec is '12,345' in the text and on the charts, never '12.35K'."""
    assert fmt.dial_mark(12345) == "12,345" and fmt.dial_mark(40000) == "40K"
    texts = {pdf.name: subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                      text=True, check=True, timeout=60).stdout
             for pdf in odd_dial.glob("*.pdf")}
    texts["page"] = only_file(odd_dial, ".html").read_text(encoding="utf-8")
    prs = Presentation(str(only_file(odd_dial, ".pptx")))
    charts = [shape.chart for slide in prs.slides for shape in slide.shapes
              if getattr(shape, "has_chart", False) and shape.has_chart]
    texts["deck charts"] = " ".join(series.name for c in charts for p in c.plots
                                    for series in p.series)
    texts["deck"] = " ".join(shape.text_frame.text for slide in prs.slides
                             for shape in slide.shapes if shape.has_text_frame)
    for where, text in texts.items():
        assert "12.35K" not in text, where
    assert "Our dial: 12,345" in texts["deck charts"]
    assert "Our dial: 12,345" in texts[only_file(odd_dial, "-slides.pdf").name]
    assert "12,345" in texts["deck"]


def test_the_page_writes_the_dial_as_the_charts_do() -> None:
    """The page's script marks the dial as fmt.dial_mark does, in node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs node on PATH")
    from deckgen import source
    from deckgen.paint.page import render as page

    script_path = Path(deckgen.__file__).parent / "paint" / "page" / "page.js"
    source_text = script_path.read_text(encoding="utf-8")
    start = source_text.index("  var Z = BigInt(0)")
    end = source_text.index("  // ---- the content ----")
    model = page.model(deckgen.story.compose(source.read(DEFAULT_CONTENT)[0]))
    values = ["1000000", "40000", "2500", "12345", "999999", "55", "1234567", "100", "1/3"]
    script = ("'use strict';\n  var M = " + json.dumps(model) + ";\n" + source_text[start:end]
              + "\n  console.log(JSON.stringify(" + json.dumps(values)
              + ".map(function (v) { return dialMark(q(v)); })));\n")
    run = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    from fractions import Fraction

    assert json.loads(run.stdout) == [fmt.dial_mark(Fraction(v)) for v in values]


def test_a_series_keeps_one_look_in_the_deck_its_pdf_and_the_page(tmp_path: Path) -> None:
    """The placed deck gives each line its dash by its place among its chart's lines; the
    native chart writes that dash, the slides PDF strokes it, and the page takes the same
    table of dashes."""
    from pptx.oxml.ns import qn

    from deckgen import source
    from deckgen.paint import pdf, pptx
    from deckgen.paint.page import render as page
    from deckgen.plan.charts import style

    content, _ = source.read(DEFAULT_CONTENT)
    story = deckgen.story.compose(content)
    deck = placed_of(story)
    assert isinstance(deck, Deck)
    chart = next(s for slide in deck.slides for s in slide.shapes
                 if isinstance(s, Chart) and s.chart.key == "ceiling")
    assert isinstance(chart.placement, LinePlacement)
    looks = [(s.name, s.stroke.dash) for s in chart.placement.series]
    assert looks == [(line.label, "solid" if line.emphasis else style.DASHES[k][0])
                     for k, line in enumerate(chart.chart.lines)]
    from deckgen import template

    data = pptx.paint(deck, template.own(content.meta.aspect).data or b"", story.meta)
    (tmp_path / "d.pptx").write_bytes(data)
    native = next(shape.chart for slide in Presentation(str(tmp_path / "d.pptx")).slides
                  for shape in slide.shapes if getattr(shape, "has_chart", False)
                  and shape.has_chart and shape.chart.chart_type is not None
                  and "speedup" in shape.chart.value_axis.axis_title.text_frame.text)
    written = []
    for series in list(native.plots[0].series)[:len(looks)]:
        dash = series._element.find(f".//{qn('a:prstDash')}")
        written.append((series.name, dash.get("val") if dash is not None else "solid"))
    assert written == looks
    drawn = pdf.slides(deck, story.meta)
    lengths = {tuple(round(k, 2) for k in s.stroke.pattern) for s in chart.placement.series
               if s.stroke.pattern}
    import io

    from pypdf import PdfReader

    page_text = PdfReader(io.BytesIO(drawn)).pages[11].get_contents().get_data().decode("latin-1")
    for pattern in lengths:
        assert f"[{' '.join(f'{k:g}' for k in pattern)}] 0 d" in page_text, pattern
    assert page.model(story)["dashes"] == style.dasharrays(page.LINE_WIDTH)
