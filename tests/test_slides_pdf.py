"""The presenter kit: the slides as a PDF and the speaker's notes book, drawn from the deck's
own slide plans. Each page is checked against the deck built beside it: size, text, titles,
notes; fonts embedded, no pictures, links and bookmarks, the same bytes twice."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, run_in
from pptx import Presentation
from pptx.util import Emu
from pypdf import PdfReader

from deckgen import build, pipeline, source
from deckgen.plan import budget

POINT = 12700  # EMU


def kit(folder: Path) -> tuple[Path, Path, Path]:
    """The deck, slides PDF and notes book a build wrote into `folder`."""
    [deck] = folder.glob("*.pptx")
    [slides] = folder.glob("*-slides.pdf")
    [notes] = folder.glob("*-notes.pdf")
    return deck, slides, notes


def words(text: str) -> list[str]:
    return text.replace("\xa0", " ").split()


def deck_words(slide: object) -> list[str]:
    """Every word a deck's slide shows in its text boxes, placeholders and tables."""
    found: list[str] = []
    for shape in slide.shapes:  # type: ignore[attr-defined]
        shapes = shape.shapes if shape.shape_type == 6 else [shape]  # a group (the QR code)
        for one in shapes:
            if one.has_text_frame:
                found += words(one.text_frame.text)
            if getattr(one, "has_table", False) and one.has_table:
                for row in one.table.rows:
                    for cell in row.cells:
                        found += words(cell.text_frame.text)
    return found


def pages_text(path: Path) -> list[str]:
    """Each page's text in the order it is drawn, as poppler's pdftotext reads it (pypdf runs
    a big figure into the line after it; pdftotext's layout mode runs "1 h" together)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler's pdftotext is not installed")
    out = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [page.replace("-\n", "-") for page in out.split("\f")[:-1]]  # a word broken at
    # its hyphen is one word


def page_words(text: str) -> Counter[str]:
    """A page's words, lower case: the deck keeps a kicker's letters as written, in capitals
    by its font's setting; the PDF shows them as capitals."""
    return Counter(w.lower() for w in words(text))


def shown(slide: object) -> Counter[str]:
    return Counter(w.lower() for w in deck_words(slide))


def check_against_deck(folder: Path) -> None:
    """Page count and size, and each page's words, as the deck has them."""
    deck_path, slides_path, _ = kit(folder)
    deck = Presentation(str(deck_path))
    pdf = PdfReader(slides_path)
    assert len(pdf.pages) == len(deck.slides)
    width, height = deck.slide_width, deck.slide_height
    texts = pages_text(slides_path)
    for number, (slide, page, text) in enumerate(zip(deck.slides, pdf.pages, texts,
                                                     strict=True), 1):
        box = page.mediabox
        assert abs(float(box.width) - width / POINT) < 0.01, number  # the slide's size,
        assert abs(float(box.height) - height / POINT) < 0.01, number  # to a hundredth pt
        missing = shown(slide) - page_words(text)
        assert not missing, (number, missing)


@pytest.mark.slow
def test_the_default_build_writes_the_kit_beside_the_deck(default_build: Path) -> None:
    deck, slides, notes = kit(default_build)
    assert slides.name == deck.stem + "-slides.pdf" and notes.name == deck.stem + "-notes.pdf"
    check_against_deck(default_build)


@pytest.mark.slow
def test_each_page_holds_its_slides_title_figures_and_table_cells(default_build: Path) -> None:
    deck_path, slides_path, _ = kit(default_build)
    text = [" ".join(words(page)) for page in pages_text(slides_path)]
    assert "A million tokens a second" in text[0]
    assert "1 second" in text[2] and "2 h 46 min 40 s" in text[2]
    for cell in ("1,000 story endings × 1,000", "1,000,000", "2 h 46 min 40 s", "10 seconds",
                 "27 h 46 min 40 s"):
        assert cell in text[3], cell
    for figure in ("10,000×", "132.57×", "98.7%"):
        assert figure in text[9], figure
    assert "134.33×" in text[11]
    # the charts' own labels and the dial's marks, as the story has them
    assert "Our dial: 1M" in text[4] and "100,000 s" in text[4] and "1 second" in text[4]
    assert "Check 60 seconds" in text[11] and "132.57×" in text[11]


@pytest.mark.slow
def test_fonts_are_embedded_subsets_and_no_picture_is_drawn(default_build: Path) -> None:
    _, slides, notes = kit(default_build)
    for path in (slides, notes):
        reader = PdfReader(path)
        assert all(not page.images for page in reader.pages)
        if shutil.which("pdffonts"):
            listing = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                                     check=True).stdout.splitlines()[2:]
            assert listing
            for line in listing:
                name, emb, sub = line.split()[0], line.split()[-5], line.split()[-4]
                assert re.match(r"[A-Z]{6}\+", name) and emb == "yes" and sub == "yes", line


@pytest.mark.slow
def test_the_bookmarks_are_the_slide_titles_and_links_are_clickable(default_build: Path
                                                                   ) -> None:
    deck_path, slides_path, _ = kit(default_build)
    deck = Presentation(str(deck_path))
    titles = [" ".join(words(s.shapes.title.text_frame.text)) for s in deck.slides]
    reader = PdfReader(slides_path)
    assert [item.title for item in reader.outline] == titles
    assert reader.metadata.title == "A million tokens a second: slides"
    assert reader.metadata.author == "Your name here"
    assert reader.trailer["/Root"]["/Lang"] == "en"
    links = [annot.get_object()["/A"]["/URI"] for annot in reader.pages[-1]["/Annots"]]
    assert links.count("https://echohive.ai") == 2  # the address and its QR code
    sources = [annot.get_object()["/A"]["/URI"] for annot in reader.pages[-2]["/Annots"]]
    assert len(sources) >= 3 and all(uri.startswith("https://") for uri in sources)


@pytest.mark.slow
def test_a_notes_page_holds_its_slide_and_its_notes(default_build: Path) -> None:
    deck_path, _, notes_path = kit(default_build)
    deck = Presentation(str(deck_path))
    reader = PdfReader(notes_path)
    assert len(reader.pages) == len(deck.slides)  # the notes fit a page each
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (595, 842)  # A4 portrait, meta.paper
    for number, (slide, page) in enumerate(zip(deck.slides, pages_text(notes_path),
                                               strict=True), 1):
        text = " ".join(words(page))
        notes = " ".join(words(slide.notes_slide.notes_text_frame.text))
        assert notes and notes in text, number
        assert f"Slide {number} of {len(deck.slides)}" in text
        assert not shown(slide) - page_words(page), number


@pytest.mark.slow
def test_at_4_3_the_pages_are_the_decks(tmp_path: Path) -> None:
    """At 4:3, another dial, with the walk's slides and on Letter paper."""
    run = run_in("build", str(DEFAULT_CONTENT), "--aspect", "4:3", "--speed", "40K", "--check",
                 "1 h", "--walk", "--paper", "letter", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    check_against_deck(tmp_path)
    assert Presentation(str(kit(tmp_path)[0])).slide_width == Emu(9144000)


@pytest.fixture(scope="module")
def pandoc_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pandoc = shutil.which("pandoc")
    if pandoc is None:
        pypandoc = pytest.importorskip("pypandoc")
        pandoc = pypandoc.get_pandoc_path()
    path = tmp_path_factory.mktemp("pandoc") / "reference.pptx"
    path.write_bytes(subprocess.run([pandoc, "--print-default-data-file", "reference.pptx"],
                                    capture_output=True, check=True, timeout=60).stdout)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("which", ["python-pptx", "pandoc"])
def test_on_a_template_the_pages_are_the_decks(tmp_path: Path, which: str,
                                               pandoc_reference: Path) -> None:
    template = pandoc_reference
    if which == "python-pptx":
        template = tmp_path / "default.pptx"
        Presentation().save(str(template))  # 4:3, 10 x 7.5 in
    run = run_in("build", str(DEFAULT_CONTENT), "--template", str(template),
                 "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    check_against_deck(tmp_path / "out")
    assert "leaves out" not in run.stderr  # these templates have nothing it cannot draw


def test_the_time_budget_shares_the_talk_by_the_words_of_the_notes() -> None:
    shares = budget(["one two three", "", "four five six seven eight nine"], 3)
    assert shares == [("60 seconds", "60 seconds"), ("0 seconds", "60 seconds"),
                      ("2 min", "3 min")]  # durations as the explainer writes them (fmt)
    assert budget(["a b", "c"], 1) == [("40 seconds", "40 seconds"),
                                       ("20 seconds", "60 seconds")]
    assert budget(["a", "b", "c"], 1)[0] == ("20 seconds", "20 seconds")


def test_meta_minutes_is_read_and_checked(tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(text.replace("  paper: a4\n", "  paper: a4\n  minutes: 20\n"),
                    encoding="utf-8")
    content, _ = source.read(good)
    assert content.meta.minutes == 20
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("  paper: a4\n", "  paper: a4\n  minutes: twenty\n"),
                   encoding="utf-8")
    run = run_in("check", str(bad))
    assert run.returncode == 2
    assert "meta.minutes" in run.stderr and "whole minutes" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_the_notes_book_shows_each_slides_share_of_the_talk(tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    path = tmp_path / "timed.yaml"
    path.write_text(text.replace("  paper: a4\n", "  paper: letter\n  minutes: 20\n"),
                    encoding="utf-8")
    content, _ = source.read(path)
    files, _ = pipeline.files(content, build.Options(only="notes"))
    assert set(files) == {"notes"}
    reader = PdfReader(io.BytesIO(files["notes"]))
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [612, 792]  # Letter
    book = tmp_path / "notes.pdf"
    book.write_bytes(files["notes"])
    pages = [" ".join(words(page)) for page in pages_text(book)]
    assert all("of the talk's 20 min" in page for page in pages)
    assert "20 min in by the end of this slide" in pages[-1]


def test_every_pdf_is_dated_by_the_build_s_epoch_whatever_the_environment_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The build reads SOURCE_DATE_EPOCH once; every PDF's canvas is dated by the epoch it is
    handed, through reportlab's own date formatter, and leaves the environment alone."""
    from deckgen.content import Meta
    from deckgen.paint.pdf.canvas import canvas

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "946684800")
    meta = source.read(DEFAULT_CONTENT)[0].meta
    assert isinstance(meta, Meta)
    for epoch, stamp in ((1700000000, b"D:20231114221320"), (None, b"D:20000101000000")):
        out = io.BytesIO()
        c = canvas(out, (100, 100), meta, epoch, title="t", subject="s", keywords="k",
                   font="Helvetica")
        c.showPage()
        c.save()
        assert b"/CreationDate (" + stamp in out.getvalue()
        assert os.environ["SOURCE_DATE_EPOCH"] == "946684800"


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain PNG of one colour."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                            0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.mark.slow
def test_a_templates_ground_is_drawn_and_what_is_not_is_named(tmp_path: Path) -> None:
    import copy

    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Inches

    prs = Presentation()
    master = prs.slide_master
    picture = tmp_path / "mark.png"
    picture.write_bytes(_png(8, 8, (200, 30, 30)))
    # Shapes are drawn on a scratch slide (masters take no new shapes through python-pptx)
    # and their XML moved onto the master; the picture's image is related to the master.
    scratch = Presentation().slides.add_slide(Presentation().slide_layouts[6])
    pic = scratch.shapes.add_picture(str(picture), Inches(9.2), Inches(0.1), Inches(0.6),
                                     Inches(0.6))
    _, r_id = master.part.get_or_add_image_part(str(picture))
    pieces = [pic]
    for kind, left in ((MSO_SHAPE.OVAL, 0.1), (MSO_SHAPE.STAR_5_POINT, 0.6),
                       (MSO_SHAPE.RECTANGLE, 1.2)):
        shape = scratch.shapes.add_shape(kind, Inches(left), Inches(7.0), Inches(0.4),
                                         Inches(0.4))
        shape.fill.solid()
        shape.fill.fore_color.rgb = RGBColor(0x20, 0x60, 0xA0)
        pieces.append(shape)
    pieces[-1].rotation = 30
    tree = master.shapes._spTree
    for number, piece in enumerate(pieces, 100):
        el = copy.deepcopy(piece._element)
        el.find(".//{*}cNvPr").set("id", str(number))
        for blip in el.iter("{*}blip"):
            blip.set("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
                     "embed", r_id)
        tree.append(el)
    template = tmp_path / "marked.pptx"
    prs.save(str(template))
    run = run_in("build", str(DEFAULT_CONTENT), "--template", str(template), "--only",
                 "slides", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    [line] = [row for row in run.stderr.splitlines() if "leaves out" in row]
    assert line == (f"{template}: the slides PDF leaves out what it cannot draw of the "
                    "template: shapes other than rectangles, ellipses and drawn outlines")
    [slides] = (tmp_path / "out").glob("*-slides.pdf")
    reader = PdfReader(slides)
    assert all(len(page.images) == 1 for page in reader.pages)  # the master's picture
    drawn = reader.pages[1].get_contents().get_data()
    assert drawn.count(b".12549 .376471 .627451 rg") == 2  # the oval's and the turned bar's
    assert b" c " in drawn and b" l " in drawn  # the oval's curves, the turned bar's edges


def notes_book_with(slide: int, notes: str) -> tuple[object, object, object]:
    """The default talk's placed deck with `notes` on slide `slide` (from 0), its story,
    and the notes book the plan places for it."""
    from dataclasses import replace

    from conftest import placed_of

    import deckgen.story
    from deckgen import fonts, plan

    content, _ = source.read(DEFAULT_CONTENT)
    story = deckgen.story.compose(content)
    deck = placed_of(story)
    slides = list(deck.slides)  # type: ignore[attr-defined]
    slides[slide] = replace(slides[slide], notes=notes)
    deck = replace(deck, slides=tuple(slides))  # type: ignore[type-var]
    typefaces = fonts.typefaces(story.theme.heading_font, story.theme.body_font,
                                deckgen.story.characters(story))
    return deck, story, plan.notes(deck, story, typefaces)  # type: ignore[arg-type]


def test_long_notes_run_on_to_pages_the_plan_places(tmp_path: Path) -> None:
    """The notes book is placed by the plan: notes too long for one page run on to the next
    under the slide's heading, marked as continued in the talk's words; every line stays
    inside the page's margins, below the one before; the PDF holds exactly those lines."""
    from deckgen.paint import pdf
    from deckgen.plan.notes import MARGIN

    long_notes = "\n\n".join(f"Paragraph {k}: " + "the check stays where it is " * 30
                             for k in range(1, 9))
    deck, story, book = notes_book_with(2, long_notes)
    slides = deck.slides  # type: ignore[attr-defined]
    count = len(slides)
    assert len(book.pages) > count
    third = [k for k, page in enumerate(book.pages) if page.slide == 3]
    assert len(third) == 1
    runs_on = book.pages[third[0] + 1]
    assert runs_on.slide == 0 and runs_on.bookmark == "" and runs_on.frame is None
    head = "".join(s.text for s in runs_on.lines[0].spans)
    assert head == f"Slide 3 of {count}: {slides[2].title} (continued)"
    for page in book.pages:
        baselines = [line.baseline for line in page.lines]
        assert baselines == sorted(baselines)
        assert all(b.baseline - a.baseline >= b.size for a, b in pairwise(page.lines))
        for line in page.lines:
            assert line.baseline + 0.25 * line.size <= book.height - MARGIN + 1e-6
            for span in line.spans:
                assert span.x >= MARGIN - 1e-6
                assert span.x + span.width <= book.width - MARGIN + 1e-6
    drawn = tmp_path / "notes.pdf"
    drawn.write_bytes(pdf.notes(deck, book, story.meta))
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler's pdftotext is not installed")
    laid = subprocess.run(["pdftotext", "-layout", str(drawn), "-"], capture_output=True,
                          text=True, check=True).stdout  # line by line, as drawn
    pages = laid.split("\f")[:-1]
    assert len(pages) == len(book.pages)
    for page, text in zip(book.pages, pages, strict=True):
        drawn_lines = [" ".join(words(line)) for line in text.splitlines()]
        for line in page.lines:
            placed = " ".join(words("".join(s.text for s in line.spans)))
            assert placed in drawn_lines, (placed, drawn_lines)


def test_a_word_wider_than_the_notes_column_is_cut_not_run_off_the_page() -> None:
    """A link or a hash wider than the column is cut between characters, a line's worth at a
    time (its paragraph was set on one line running off the page); nothing is lost."""
    from deckgen.plan.notes import MARGIN

    link = "https://example.org/" + "recording-of-the-talk-" * 20 + "?utm_source=newsletter"
    digest = "0123456789abcdef" * 16
    notes = f"The recording: {link} and the slides' hash {digest}, both in the handout."
    _, _, book = notes_book_with(0, notes)
    first = book.pages[0]  # type: ignore[attr-defined]
    for line in first.lines:
        for span in line.spans:
            assert span.x + span.width <= book.width - MARGIN + 1e-6, span.text
    shown = "".join("".join(s.text for s in line.spans) for line in first.lines[1:])
    assert shown.replace(" ", "") == notes.replace(" ", "")
