"""The deck, opened the way a presenter's program opens it: slides, figures, notes, package.

The figures for the default dial come from the explainer; those for the other dial
(2,500 tokens/sec, a 15 min check, the critiqued candidates featured) are worked out by
hand in the comments, so a wrong formula cannot hide behind a golden file.
"""

from __future__ import annotations

import io
import posixpath
import re
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import DEFAULT_CONTENT, only_file, run_in, shared_build, shared_folder
from lxml import etree
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.util import Emu

NBSP = "\u00a0"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"


# --- reading a deck ------------------------------------------------------------------------


def deck_in(folder: Path) -> Path:
    return only_file(folder, ".pptx")


def plain(text: str) -> str:
    return text.replace(NBSP, " ")


def slide_texts(slide) -> list[str]:  # noqa: ANN001
    """Every paragraph on a slide (text boxes, placeholders, table cells), NBSP as space."""
    out = []
    for shape in slide.shapes:
        if shape.has_text_frame:
            out += [plain(p.text) for p in shape.text_frame.paragraphs if p.text]
        if shape.has_table:
            for row in shape.table.rows:
                for cell in row.cells:
                    out += [plain(p.text) for p in cell.text_frame.paragraphs if p.text]
    return out


def slide_text(slide) -> str:  # noqa: ANN001
    return "\n".join(slide_texts(slide))


def table_rows(slide) -> list[tuple[str, ...]]:  # noqa: ANN001
    tables = [s for s in slide.shapes if s.has_table]
    assert len(tables) == 1
    return [tuple(plain(c.text) for c in row.cells) for row in tables[0].table.rows]


def notes(slide) -> str:  # noqa: ANN001
    return plain(slide.notes_slide.notes_text_frame.text) if slide.has_notes_slide else ""


def title(slide) -> str:  # noqa: ANN001
    return plain(slide.shapes.title.text_frame.text)


@pytest.fixture(scope="module")
def default_deck(default_build: Path):
    return Presentation(str(deck_in(default_build)))


@pytest.fixture(scope="module")
def other_deck(other_build: Path):
    return Presentation(str(deck_in(other_build)))


# The decks below are built once per run (shared_build), whichever xdist worker needs one first.
@pytest.fixture(scope="module")
def walk_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return deck_in(shared_build(tmp_path_factory, "walk-deck", "--only", "deck", "--walk"))


@pytest.fixture(scope="module")
def picture_deck(tmp_path_factory: pytest.TempPathFactory):
    """The default deck with its charts as pictures (`--charts picture`)."""
    return Presentation(str(deck_in(shared_build(
        tmp_path_factory, "picture-deck", "--only", "deck", "--charts", "picture"))))


@pytest.fixture(scope="module")
def narrow_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return deck_in(shared_build(tmp_path_factory, "narrow-deck", "--only", "deck",
                                "--aspect", "4:3"))


# --- the slides and their figures: the default dial ----------------------------------------


def test_the_sixteen_slides_in_order(default_deck) -> None:
    slides = list(default_deck.slides)
    assert len(slides) == 16  # the closing slide after the sources; the writing-time chart has a
    # slide of its own
    assert [title(s) for s in slides] == [
        "A million tokens a second", "One number, four meanings", "Turn the dial",
        "Every workload at 100 and 1,000,000 tokens/sec",
        "Writing time from 100 to 1M tokens/sec", "A map of possible endings",
        "An app for a neighbourhood tool library",
        "A handful of real experiments from 10,000 ideas",
        "Practising a hard conversation", "Faster writing is not the same as faster work",
        "The same batch under each fixed check", "Every fixed check sets a ceiling",
        "Cheap writing makes judgement the scarce part",
        "Decide how you will choose before you ask for more", "Where the facts come from",
        "Faster writing moves the bottleneck to you"]
    assert default_deck.slide_width == Emu(12192000) and default_deck.slide_height == Emu(6858000)


def test_meanings_slide_has_the_token_footnote(default_deck, narrow_deck: Path) -> None:
    for deck in (default_deck, Presentation(str(narrow_deck))):
        text = slide_text(deck.slides[1])
        assert "A token is a piece of a word. A context window is a size: one million tokens " \
            "for Claude Opus 5.5." in text


def test_ceiling_slide_names_amdahls_law(default_deck) -> None:
    assert "Amdahl's law: the fixed check caps" in slide_text(default_deck.slides[11])


def test_closing_slide_has_takeaway_pointer_and_a_qr_code(default_deck) -> None:
    s = default_deck.slides[15]
    text = slide_text(s)
    assert "A faster writer does not finish the work" in text
    assert "The checklist is on the back of the handout" in text
    assert "https://echohive.ai" in text
    group = next(shape for shape in s.shapes if shape.name == "QR code")
    [dark] = [m for m in group.shapes if m.name == "QR modules"]
    runs = dark._element.findall(".//" + qn("a:close"))
    assert len(runs) > 100  # runs of dark modules, a version 2 code for this address
    assert group.width == group.height
    assert notes(s)


def test_title_slide_has_the_talk_and_its_occasion(default_deck) -> None:
    text = slide_text(default_deck.slides[0])
    for part in ("A million tokens a second", "What the number can mean", "Your name here",
                 "AI Builders Meetup", "2026-12-03"):
        assert part in text


def test_dial_slide_default(default_deck) -> None:
    s = default_deck.slides[2]
    texts = slide_texts(s)
    assert "1 second" in texts  # the big figure, alone in its paragraph
    assert "2 h 46 min 40 s" in texts  # the same batch at the slow speed
    text = "\n".join(texts)
    assert "1,000 story endings: 1 second of writing at 1,000,000 tokens/sec" in text
    assert "1,000 story endings × 1,000 tokens = 1,000,000 output tokens" in text
    assert "AT 100 TOKENS/SEC" in text.upper()
    n = notes(s)
    assert "1 second of writing at 1,000,000 tokens/sec" in n
    assert "At 100 tokens/sec the same batch takes 2 h 46 min 40 s" in n


def test_workloads_slide_default(default_deck) -> None:
    s = default_deck.slides[3]
    assert table_rows(s) == [
        ("Workload", "Output tokens", "100 tokens/sec", "1,000,000 tokens/sec"),
        ("1,000 story endings × 1,000", "1,000,000", "2 h 46 min 40 s", "1 second"),
        ("40 app drafts × 20,000", "800,000", "2 h 13 min 20 s", "0.8 seconds"),
        ("10,000 critiqued candidates × 300", "3,000,000", "8 h 20 min", "3 seconds"),
        ("10,000 rehearsals × 1,000", "10,000,000", "27 h 46 min 40 s", "10 seconds"),
    ]
    assert highlighted_rows(s) == [1]
    n = notes(s)
    assert "10,000 rehearsals × 1,000 | 10,000,000 | 27 h 46 min 40 s | 10 seconds" in n
    assert len(pictures(s)) == len(charts(s)) == 0  # the chart follows on a slide of its own
    assert len(charts(default_deck.slides[4])) == 1


def test_bottleneck_slide_default(default_deck) -> None:
    s = default_deck.slides[9]
    texts = slide_texts(s)
    for figure in ("10,000×", "132.57×", "98.7%"):
        assert figure in texts
    text = "\n".join(texts)
    assert "WRITING SPEEDUP" in text.upper() and "END-TO-END SPEEDUP" in text.upper()
    assert "1,000,000 ÷ 100 tokens/sec" in text and "8,060 ÷ 60.8 seconds" in text
    assert "Amdahl's law: the part you cannot speed up" in text
    n = notes(s)
    assert "takes 2 h 14 min 20 s at 100 tokens/sec and 60.8 seconds at 1,000,000 tokens/sec" in n
    assert "132.57× faster end to end" in n and "checking is 98.7%" in n
    assert len(charts(s)) == 1  # native charts by default


def test_presets_slide_default(default_deck) -> None:
    s = default_deck.slides[10]
    assert table_rows(s) == [
        ("Fixed check", "100 tokens/sec", "1,000,000 tokens/sec", "End to end"),
        ("None", "2 h 13 min 20 s", "0.8 seconds", "10,000×"),
        ("60 seconds", "2 h 14 min 20 s", "60.8 seconds", "132.57×"),
        ("15 min", "2 h 28 min 20 s", "15 min 1 s", "9.88×"),
        ("24 h", "26 h 13 min 20 s", "24 h 1 s", "1.09×"),
    ]
    assert highlighted_rows(s) == [2]
    assert "60 seconds | 2 h 14 min 20 s | 60.8 seconds | 132.57×" in notes(s)


def test_ceiling_slide_default(default_deck) -> None:
    s = default_deck.slides[11]
    texts = slide_texts(s)
    assert "134.33×" in texts
    assert any("no writing speed makes this batch more than 134.33× faster end to end" in t
               for t in texts)
    assert "more than 134.33× faster end to end" in notes(s)
    assert len(charts(s)) == 1


# --- the other dial, by hand ----------------------------------------------------------------
# 2,500 tokens/sec, a 15 min (900 s) check, the critiqued candidates featured.


def test_dial_slide_other(other_deck) -> None:
    s = other_deck.slides[2]
    texts = slide_texts(s)
    assert "20 min" in texts  # 10,000 x 300 = 3,000,000 tokens / 2,500 = 1,200 s
    assert "8 h 20 min" in texts  # 3,000,000 / 100 = 30,000 s
    text = "\n".join(texts)
    assert "10,000 critiqued candidates: 20 min of writing at 2,500 tokens/sec" in text
    assert "10,000 critiqued candidates × 300 tokens = 3,000,000 output tokens" in text
    n = notes(s)
    assert "20 min of writing at 2,500 tokens/sec" in n
    assert "At 100 tokens/sec the same batch takes 8 h 20 min" in n


def test_workloads_slide_other(other_deck) -> None:
    s = other_deck.slides[3]
    assert table_rows(s) == [
        ("Workload", "Output tokens", "100 tokens/sec", "2,500 tokens/sec"),
        ("1,000 story endings × 1,000", "1,000,000", "2 h 46 min 40 s", "6 min 40 s"),  # 400 s
        ("40 app drafts × 20,000", "800,000", "2 h 13 min 20 s", "5 min 20 s"),  # 320 s
        ("10,000 critiqued candidates × 300", "3,000,000", "8 h 20 min", "20 min"),  # 1,200 s
        # 10,000,000 / 2,500 = 4,000 s
        ("10,000 rehearsals × 1,000", "10,000,000", "27 h 46 min 40 s", "1 h 6 min 40 s"),
    ]
    assert highlighted_rows(s) == [3]
    assert "40 app drafts × 20,000 | 800,000 | 2 h 13 min 20 s | 5 min 20 s" in notes(s)


def test_bottleneck_slide_other(other_deck) -> None:
    s = other_deck.slides[9]
    texts = slide_texts(s)
    assert "25×" in texts  # 2,500 / 100
    assert "7.30×" in texts  # (8,000 + 900) / (320 + 900) = 8,900 / 1,220 = 7.295...
    assert "73.8%" in texts  # 900 / 1,220 = 73.77%
    assert "8,900 ÷ 1,220 seconds" in "\n".join(texts)
    n = notes(s)
    assert "7.30× faster end to end" in n and "checking is 73.8%" in n
    # 8,900 s and 1,220 s
    assert "takes 2 h 28 min 20 s at 100 tokens/sec and 20 min 20 s at 2,500 tokens/sec" in n
    assert "73.8%" in n


def test_presets_slide_other(other_deck) -> None:
    s = other_deck.slides[10]
    assert table_rows(s) == [
        ("Fixed check", "100 tokens/sec", "2,500 tokens/sec", "End to end"),
        ("None", "2 h 13 min 20 s", "5 min 20 s", "25×"),  # 8,000 s, 320 s
        ("60 seconds", "2 h 14 min 20 s", "6 min 20 s", "21.21×"),  # 8,060 / 380 = 21.2105
        ("15 min", "2 h 28 min 20 s", "20 min 20 s", "7.30×"),  # 8,900 / 1,220
        ("24 h", "26 h 13 min 20 s", "24 h 5 min 20 s", "1.09×"),  # 94,400 / 86,720 = 1.0886
    ]
    assert highlighted_rows(s) == [3]
    assert "15 min | 2 h 28 min 20 s | 20 min 20 s | 7.30×" in notes(s)


def test_ceiling_slide_other(other_deck) -> None:
    s = other_deck.slides[11]
    texts = slide_texts(s)
    assert "9.89×" in texts  # 8,900 / 900 = 9.888...
    assert any("15 min" in t and "more than 9.89× faster end to end" in t for t in texts)
    assert "more than 9.89× faster end to end" in notes(s)


def test_other_dial_experiments_show_their_writing_times(other_deck) -> None:
    # 1,000,000 / 2,500 = 400 s; 800,000 / 2,500 = 320 s; 1,200 s; 10,000,000 / 2,500 = 4,000 s
    for index, figure in ((5, "6 min 40 s"), (6, "5 min 20 s"), (7, "20 min"),
                          (8, "1 h 6 min 40 s")):
        texts = slide_texts(other_deck.slides[index])
        assert figure in texts
        assert "of writing at 2,500 tokens/sec" in texts
        assert any(t.upper() == "STILL SCARCE" for t in texts)
    assert "FEATURED ON THE DIAL" in slide_text(other_deck.slides[7]).upper()


# --- what every slide carries ---------------------------------------------------------------


def test_notes_on_every_slide_after_the_title(default_deck, other_deck) -> None:
    for deck in (default_deck, other_deck):
        for slide in list(deck.slides)[1:]:
            assert len(notes(slide)) > 40


def test_footer_and_slide_numbers(default_build: Path, default_deck) -> None:
    with zipfile.ZipFile(deck_in(default_build)) as z:
        for number, slide in enumerate(default_deck.slides, 1):
            if number == 1:
                continue
            fields = [f for f in ElementTree.fromstring(z.read(f"ppt/slides/slide{number}.xml"))
                      .iter(f"{A}fld") if f.get("type") == "slidenum"]
            assert [f.findtext(f"{A}t") for f in fields] == [str(number)]
            assert "AI Builders Meetup · 2026-12-03" in slide_texts(slide)


def test_every_chart_has_alt_text_stating_its_data(default_deck, other_deck) -> None:
    for deck, figure in ((default_deck, "132.57×"), (other_deck, "7.30×")):
        described = []
        for slide in deck.slides:
            for frame in charts(slide):  # native charts carry their alt text on their frame
                descr = frame._element.nvGraphicFramePr.cNvPr.get("descr")
                assert descr and len(descr) > 80
                described.append(descr)
        assert len(described) == 3
        assert any(figure in d for d in described)


def test_charts_are_drawn_at_their_box_size_and_at_least_200_dpi(picture_deck) -> None:
    from PIL import Image

    assert sum(len(pictures(slide)) for slide in picture_deck.slides) == 3
    for slide in picture_deck.slides:
        for picture in pictures(slide):
            image = Image.open(io.BytesIO(picture.image.blob))
            width_in, height_in = picture.width / 914400, picture.height / 914400
            assert image.size[0] / width_in >= 199 and image.size[1] / height_in >= 199
            assert abs(image.size[0] / image.size[1] - width_in / height_in) < 0.02


def test_text_is_never_too_small(default_deck) -> None:
    for number, slide in enumerate(default_deck.slides, 1):
        for shape in slide.shapes:
            kind = shape.placeholder_format.type if shape.is_placeholder else None
            if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER):
                continue
            frames = ([cell.text_frame for row in shape.table.rows for cell in row.cells]
                      if shape.has_table else [shape.text_frame] if shape.has_text_frame else [])
            floor = 18 if shape.has_table else 14  # the type scale's floors on a 7.5 in slide
            for frame in frames:
                for paragraph in frame.paragraphs:
                    for run in paragraph.runs:
                        size = run.font.size
                        assert size is not None and size.pt >= floor, (number, run.text)


def test_titles_sit_in_the_title_placeholder(default_deck) -> None:
    for slide in default_deck.slides:
        ph = slide.shapes.title
        assert ph is not None and ph.is_placeholder and ph.placeholder_format.idx == 0
        assert ph.text_frame.text


def test_walk_adds_one_dial_slide_per_speed_mark(walk_deck: Path) -> None:
    deck = Presentation(str(walk_deck))
    slides = list(deck.slides)
    assert len(slides) == 21  # with the closing slide and the writing-time chart's own slide
    # the dial's slide, then one per mark, each titled with its speed
    assert [title(s).replace("\u00a0", " ") for s in slides[2:8]] == ["Turn the dial"] + [
        f"Turn the dial to {speed} tokens/sec"
        for speed in ("100", "1,000", "10,000", "100,000", "1,000,000")]
    # 1,000,000 tokens at each mark: 10,000 s, 1,000 s, 100 s, 10 s, 1 s.
    expected = [("100 tokens/sec", "2 h 46 min 40 s"), ("1,000 tokens/sec", "16 min 40 s"),
                ("10,000 tokens/sec", "1 min 40 s"), ("100,000 tokens/sec", "10 seconds"),
                ("1,000,000 tokens/sec", "1 second")]
    for slide, (speed, figure) in zip(slides[3:8], expected, strict=True):
        texts = slide_texts(slide)
        assert figure in texts
        assert f"1,000 story endings: {figure} of writing at {speed}" in "\n".join(texts)
        assert f"{figure} of writing at {speed}" in notes(slide)
    assert title(slides[8]) == "Every workload at 100 and 1,000,000 tokens/sec"
    assert all(notes(s) for s in slides[1:])


def test_four_by_three(narrow_deck: Path) -> None:
    deck = Presentation(str(narrow_deck))
    assert deck.slide_width == Emu(9144000) and deck.slide_height == Emu(6858000)
    assert len(deck.slides) == 16
    assert "132.57×" in slide_texts(deck.slides[9])
    for slide in deck.slides:
        for shape in slide.shapes:
            assert shape.left >= 0 and shape.top >= 0
            assert shape.left + shape.width <= deck.slide_width
            assert shape.top + shape.height <= deck.slide_height


# --- the package ----------------------------------------------------------------------------


def test_shape_ids_are_unique_on_every_slide(default_build: Path, walk_deck: Path) -> None:
    for path in (deck_in(default_build), walk_deck):
        with zipfile.ZipFile(path) as z:
            slides = [n for n in z.namelist()
                      if re.fullmatch(r"ppt/(slides|notesSlides)/\w+\.xml", n)]
            assert slides
            for name in slides:
                ids = [e.get("id") for e in ElementTree.fromstring(z.read(name)).iter(f"{P}cNvPr")]
                assert len(ids) == len(set(ids)), (name, ids)


def test_every_part_is_referenced_and_every_reference_exists(default_build: Path,
                                                             walk_deck: Path) -> None:
    for path in (deck_in(default_build), walk_deck):
        assert_no_orphans(path)


def assert_no_orphans(path: Path) -> None:
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        targets = set()
        for rels in (n for n in names if n.endswith(".rels")):
            base = posixpath.dirname(posixpath.dirname(rels))
            for rel in ElementTree.fromstring(z.read(rels)).iter(f"{REL}Relationship"):
                if rel.get("TargetMode") == "External":
                    continue
                target = rel.get("Target")
                full = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                    posixpath.join(base, target))
                assert full in names, (rels, target)
                targets.add(full)
        parts = {n for n in names if not n.endswith(".rels") and n != "[Content_Types].xml"}
        assert parts - targets == set()
        assert "docProps/thumbnail.jpeg" not in names


def test_without_source_date_epoch_the_deck_is_dated_2000_01_01(default_build: Path) -> None:
    """(A second build's same bytes, and SOURCE_DATE_EPOCH's date: test_reproducible.)"""
    with zipfile.ZipFile(deck_in(default_build)) as z:
        assert {i.date_time for i in z.infolist()} == {(2000, 1, 1, 0, 0, 0)}
        core = z.read("docProps/core.xml").decode()
        assert "2000-01-01T00:00:00Z" in core and "A million tokens a second" in core


def test_a_title_that_cannot_fit_names_slide_field_and_line(tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  title: "))
    long_title = ("Tokens " * 60)[:399] + "s"
    assert len(long_title) == 400
    lines[at] = f"  title: {long_title}"
    content = tmp_path / "content.yaml"
    content.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = run_in("build", str(content), "--only", "deck", "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    first = run.stderr.strip().splitlines()[0]
    assert first.startswith(f"{content}:{at + 1}:10: meta.title: slide 1: the title does not fit "
                            "(400 characters; "), first
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pptx"))


def test_a_headline_that_cannot_fit_names_its_slide(tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    long = "Every fixed check sets a ceiling " * 12
    text = text.replace("headline: Every fixed check sets a ceiling", f"headline: {long.strip()}")
    content = tmp_path / "content.yaml"
    content.write_text(text, encoding="utf-8")
    run = run_in("build", str(content), "--only", "deck", "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert re.match(rf"{re.escape(str(content))}:\d+:\d+: slides\.ceiling\.headline: slide 12: "
                    r"the headline does not fit \(\d+ characters; ", run.stderr), run.stderr


# --- a template of one's own ----------------------------------------------------------------

ACCENT = "0A7A3B"  # the template's accent1: a green no default theme uses
DARK2 = "3D2B56"


def make_template(path: Path) -> Path:
    """python-pptx's blank deck with other layout names, other theme colours, and one slide
    of its own that the deck must not keep."""
    from pptx.opc.constants import RELATIONSHIP_TYPE as RT

    prs = Presentation()
    names = ["Opening", "Words and a picture", "Chapter", "Side by side", "Versus", "Headline only",
             "Empty", "Caption left", "Photo", "Vertical words", "Vertical headline"]
    for layout, name in zip(prs.slide_layouts, names, strict=True):
        layout._element.cSld.set("name", name)
    theme = prs.slide_master.part.part_related_by(RT.THEME)
    xml = theme.blob.decode("utf-8")
    xml = re.sub(r"<a:accent1>.*?</a:accent1>",
                 f'<a:accent1><a:srgbClr val="{ACCENT}"/></a:accent1>', xml)
    xml = re.sub(r"<a:dk2>.*?</a:dk2>", f'<a:dk2><a:srgbClr val="{DARK2}"/></a:dk2>', xml)
    theme._blob = xml.encode("utf-8")
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "A slide of the template's own"
    prs.save(str(path))
    return path


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(folder: Path) -> None:
        make_template(folder / "brand.pptx")

    return shared_folder(tmp_path_factory, "brand-template", make) / "brand.pptx"


@pytest.fixture(scope="module")
def templated_deck(tmp_path_factory: pytest.TempPathFactory, template: Path) -> Path:
    return deck_in(shared_build(tmp_path_factory, "templated-deck", "--only", "deck",
                                "--template", str(template)))


def test_template_colours_layouts_and_size_are_used(templated_deck: Path) -> None:
    deck = Presentation(str(templated_deck))
    slides = list(deck.slides)
    assert len(slides) == 16
    assert deck.slide_width == Emu(9144000)  # the template's 4:3
    assert slides[0].slide_layout.name == "Opening"
    assert {s.slide_layout.name for s in slides[1:]} == {"Headline only"}
    assert all("A slide of the template's own" not in slide_text(s) for s in slides)
    with zipfile.ZipFile(templated_deck) as z:
        theme = z.read("ppt/theme/theme1.xml").decode()
        assert f'<a:accent1><a:srgbClr val="{ACCENT}"/>' in theme
        slide_xml = z.read("ppt/slides/slide2.xml").decode()
        assert '<a:schemeClr val="accent1"/>' in slide_xml  # the kicker follows the theme
    assert "132.57×" in slide_texts(slides[9])
    assert_no_orphans(templated_deck)


def test_template_colours_reach_the_charts(templated_deck: Path) -> None:
    """Native charts name the theme's slots, so the template's accent colours them."""
    deck = Presentation(str(templated_deck))
    [frame] = charts(deck.slides[9])
    xml = frame.chart.part.blob.decode()
    assert '<a:schemeClr val="accent1"/>' in xml and "srgbClr" not in xml


def test_layouts_command_lists_layouts_and_what_deckgen_uses(template: Path) -> None:
    run = run_in("layouts", str(template))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "'Opening'  <- deckgen: title slide" in out
    assert "'Headline only'  <- deckgen: content slides" in out
    assert "center_title" in out and "slide_number" in out
    assert f"accent #{ACCENT}" in out
    assert out.count("layout ") == 11


def test_layouts_command_refuses_a_file_that_is_not_a_deck(tmp_path: Path) -> None:
    bad = tmp_path / "notes.pptx"
    bad.write_text("not a deck", encoding="utf-8")
    run = run_in("layouts", str(bad))
    assert run.returncode == 2
    assert run.stderr.startswith(f"{bad}: is not a PowerPoint .pptx file")
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "deck", "--template", str(bad),
                  "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert "--template: is not a PowerPoint .pptx file" in run.stderr


# --- a real client --------------------------------------------------------------------------


@pytest.mark.soffice
@pytest.mark.skipif(shutil.which("soffice") is None,
                    reason="LibreOffice (soffice) is not installed")
def test_libreoffice_prints_one_page_per_slide(default_build: Path, walk_deck: Path,
                                               review_decks: Path, review_printed: Path) -> None:
    """The decks printed are these very decks (the review decks, printed in one run)."""
    from pypdf import PdfReader

    for path, name, pages in ((deck_in(default_build), "default-16x9", 16),
                              (walk_deck, "walk", 21)):
        assert (review_decks / f"{name}.pptx").read_bytes() == path.read_bytes(), name
        pdf = review_printed / f"{name}.pdf"
        assert pdf.exists(), sorted(review_printed.iterdir())
        assert len(PdfReader(str(pdf)).pages) == pages


# --- helpers that read shapes ---------------------------------------------------------------


def pictures(slide) -> list:  # noqa: ANN001
    return [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]


def charts(slide) -> list:  # noqa: ANN001
    """The native chart frames on a slide."""
    return [s for s in slide.shapes if getattr(s, "has_chart", False) and s.has_chart]


def highlighted_rows(slide) -> list[int]:  # noqa: ANN001
    """Rows whose cells are filled (the 'our dial' row), counted with the header as 0."""
    table = next(s for s in slide.shapes if s.has_table).table
    filled = []
    for r, row in enumerate(table.rows):
        tc_pr = row.cells[0]._tc.tcPr
        if tc_pr is not None and tc_pr.find(f"{A}solidFill") is not None:
            filled.append(r)
    return filled


def test_every_notes_page_is_the_one_python_pptx_makes(default_deck) -> None:  # noqa: ANN001
    """Each notes page is python-pptx's (the notes master's slide image, notes and number
    placeholders, the same ids and names) with its own text, tied to the notes master and
    to its own slide, named in slide order."""
    import copy

    from pptx.opc.constants import RELATIONSHIP_TYPE as RT

    def textless(notes_slide) -> bytes:  # noqa: ANN001
        element = copy.deepcopy(notes_slide._element)
        for body in element.iter(qn("p:txBody")):  # the text, one paragraph a line
            for paragraph in body.findall(qn("a:p")):
                body.remove(paragraph)
        return etree.tostring(element)

    pages = [(n, s.notes_slide) for n, s in enumerate(default_deck.slides, 1) if s.has_notes_slide]
    assert len(pages) == 16
    first = textless(pages[0][1])
    names = [sp.name for sp in pages[0][1].shapes]
    assert names == ["Slide Image Placeholder 1", "Notes Placeholder 2",
                     "Slide Number Placeholder 3"]
    for number, page in pages:
        assert textless(page) == first
        assert page.part.part_related_by(RT.SLIDE) is default_deck.slides[number - 1].part
        assert page.part.part_related_by(RT.NOTES_MASTER) is \
            default_deck.notes_master.part
        assert page.part.partname == f"/ppt/notesSlides/notesSlide{number}.xml"
        assert page.notes_text_frame.text.strip()


def test_decks_drawn_one_after_another_in_a_process_are_the_same_bytes() -> None:
    """Nothing one deck draws stays behind for the next (a watch draws many in a process)."""
    from conftest import deck_of

    from deckgen import source
    from deckgen import story as st

    content, _ = source.read(DEFAULT_CONTENT)
    story = st.compose(content)
    first = deck_of(story)
    assert deck_of(story, charts="native") == first
    with zipfile.ZipFile(io.BytesIO(first)) as package:
        names = package.namelist()
        assert names[0] == "[Content_Types].xml" and names[1:] == sorted(names[1:])
        assert {info.date_time for info in package.infolist()} == {(2000, 1, 1, 0, 0, 0)}
