"""Making the talk one's own: slides of the presenter's own (text, image, section), built-in
slides hidden or moved, sources that never lose a description, speaker notes kept off the page.

Each test builds a content file of its own from the bundled talk and reads what a user sees:
the deck's slides and their pictures (python-pptx), the page's sections, the exit status and
the one line a refused file gives."""

from __future__ import annotations

import io
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
import yaml
from conftest import DEFAULT_CONTENT, faces_of, run_in, shared_folder
from PIL import Image
from pptx import Presentation
from pptx.util import Emu

from deckgen import figures, source
from deckgen import story as st
from deckgen.plan.geometry import default_geometry
from deckgen.plan.items import PictureItem
from deckgen.plan.kinds import arrange_slides

OWN = """
  about-me:
    kind: text
    after: title
    kicker: Before we start
    headline: Who is talking
    bullets:
      - Builds agents for a living
      - Has waited {bottleneck.total} for a lot of tokens
    notes: Keep this under a minute, said only to the room.
  part-two:
    kind: section
    after: experiments
    kicker: Part two
    headline: Where the time really goes
  hosts:
    kind: image
    after: closing
    headline: Thanks to our hosts
    image: hosts.png
    alt: The organisers on stage at the last meetup
    caption: Our hosts tonight
    credit: "Photo: the venue"
"""


def talk(folder: Path, extra: str = OWN, edit: dict[str, str] | None = None) -> Path:
    """The bundled talk with `extra` slides of its own and `edit`'s replacements."""
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    text = text.replace("\n  # Slides of your own:",
                        "\n" + extra.strip("\n") + "\n  # Slides of your own:", 1)
    for old, new in (edit or {}).items():
        assert old in text
        text = text.replace(old, new, 1)
    path = folder / "talk.yaml"
    path.write_text(text, encoding="utf-8")
    return path


MOVED = {"  ceiling:\n    kicker:": "  ceiling:\n    hidden: true\n    kicker:",
         "  presets:\n    kicker:": "  presets:\n    after: precious\n    kicker:"}


@pytest.fixture(scope="module")
def own_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The talk with slides of its own (OWN) and two moved (MOVED), built once per run."""
    def make(folder: Path) -> None:
        Image.new("RGB", (800, 400), (30, 90, 160)).save(folder / "hosts.png")
        path = talk(folder, edit=MOVED)
        run = run_in("build", str(path), "--out", str(folder / "out"))
        assert run.returncode == 0, run.stderr

    return shared_folder(tmp_path_factory, "own-slides", make)


def _titles(deck: Path) -> list[str]:
    prs = Presentation(str(deck))
    return [s.shapes.title.text_frame.text if s.shapes.title is not None else ""
            for s in prs.slides]


def test_own_slides_hidden_and_moved_ones_in_the_deck(own_build: Path) -> None:
    deck = next((own_build / "out").glob("*.pptx"))
    titles = _titles(deck)
    assert titles[:3] == ["A million tokens a second", "Who is talking",
                          "One number, four meanings"]
    experiments = [i for i, t in enumerate(titles) if t.startswith(("1,000 story", "Write"))]
    assert titles.index("Where the time really goes") > titles.index("Turn the dial")
    assert "Every fixed check sets a ceiling" not in titles  # hidden
    precious = titles.index("Cheap writing makes judgement the scarce part")
    assert titles[precious + 1] == "The same batch under each fixed check"  # moved
    assert titles[-2:] == ["Faster writing moves the bottleneck to you", "Thanks to our hosts"]
    assert experiments == [] or max(experiments) < titles.index("Where the time really goes")
    prs = Presentation(str(deck))
    last = prs.slides[len(titles) - 1]
    (picture,) = [s for s in last.shapes if s.shape_type == 13]
    assert picture._element.nvPicPr.cNvPr.get("descr") == \
        "The organisers on stage at the last meetup"
    assert abs(picture.width / picture.height - 2.0) < 0.001  # 800 x 400: never stretched
    assert picture.width > Emu(914400 * 6)  # fitted into the content area, not left small
    assert (picture.crop_left, picture.crop_top) == (0.0, 0.0)
    shown = Image.open(io.BytesIO(picture.image.blob))
    assert shown.size == (800, 400)
    texts = [sh.text_frame.text for sh in last.shapes if sh.has_text_frame]
    assert any("Our hosts tonight" in t and "Photo: the venue" in t for t in texts)
    about = prs.slides[1]
    words = " ".join(sh.text_frame.text for sh in about.shapes if sh.has_text_frame)
    assert "Builds agents for a living" in words and "Has waited 60.8\u00a0seconds" in words
    assert about.notes_slide.notes_text_frame.text.startswith("Keep this under a minute")


def test_the_page_has_the_same_order_and_no_speaker_notes(own_build: Path) -> None:
    page = next((own_build / "out").glob("*.html")).read_text(encoding="utf-8")
    shown = re.findall(r'<section id="([\w-]+)"(?! hidden)', page)
    assert shown == ["slide-about-me", "meanings", "dial", "workloads", "experiments",
                     "slide-part-two", "bottleneck", "precious", "presets", "checklist",
                     "sources", "slide-hosts"]
    assert re.search(r'<section id="ceiling" hidden', page)  # the script still reads it
    assert 'alt="The organisers on stage at the last meetup"' in page
    assert 'src="data:image/png;base64,' in page
    assert "img-src data:" in page
    assert "Keep this under a minute" not in page  # notes stay with the presenter
    assert "Put the two big figures side by side" not in page
    assert 'class="notes"' not in page
    assert "The two big figures side by side" in page  # the page's own words instead


def test_figures_are_unchanged_by_slides_of_ones_own(own_build: Path) -> None:
    own, _ = source.read(own_build / "talk.yaml")
    bundled, _ = source.read(DEFAULT_CONTENT)
    assert {k: f.text for k, f in figures.figures(own).items()} == \
        {k: f.text for k, f in figures.figures(bundled).items()}
    assert st.compose(own).bottleneck == st.compose(bundled).bottleneck


def test_a_picture_cropped_only_with_fit_cover(tmp_path: Path) -> None:
    Image.new("RGB", (300, 600), (160, 90, 30)).save(tmp_path / "tall.png")
    extra = ("  tall:\n    kind: image\n    after: sources\n    headline: Tall\n"
             "    image: tall.png\n    alt: A tall picture\n")
    for aspect in ("16:9", "4:3"):
        for fit, cropped in (("", False), ("    fit: cover\n", True)):
            content, _ = source.read(talk(tmp_path, extra + fit))
            story = st.compose(content)
            plans = arrange_slides(story, default_geometry(aspect), None, story.slides,
                                faces_of(story))
            (item,) = [i for p in plans if p.kind == "tall" for i in p.items
                       if isinstance(i, PictureItem)]
            if cropped:
                shown_h = item.box.h / (1 - item.crop[1] - item.crop[3])
                assert abs(item.box.w / shown_h - 0.5) < 0.01 and item.crop[1] > 0.2
            else:
                assert item.crop == (0.0, 0.0, 0.0, 0.0)
                assert abs(item.box.w / item.box.h - 0.5) < 0.01


def _bomb(path: Path) -> None:
    width = height = 30_000
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(b"\x00" * (width + 1)) for _ in range(50))
    body += compressor.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.mark.parametrize("case", ["text", "bomb", "missing", "folder", "device"])
def test_a_bad_picture_is_one_located_line_and_nothing_written(tmp_path: Path,
                                                                case: str) -> None:
    named = tmp_path / "hosts.png"
    if case == "text":
        named.write_text("not a picture at all\n", encoding="utf-8")
    elif case == "bomb":
        _bomb(named)
    elif case == "folder":
        named.mkdir()
    elif case == "device":
        named.symlink_to("/dev/zero")
    path = talk(tmp_path)
    out = tmp_path / "out"
    run = run_in("build", str(path), "--out", str(out))
    assert run.returncode == 2
    (line,) = run.stderr.strip().splitlines()
    at = path.read_text(encoding="utf-8").splitlines().index("    image: hosts.png") + 1
    assert line.startswith(f"{path}:{at}:") and "slides.hosts.image" in line, line
    assert not out.exists() or not any(out.iterdir())


def test_slides_of_ones_own_are_validated_all_at_once(tmp_path: Path) -> None:
    extra = """
  loop-a:
    kind: text
    after: loop-b
    headline: A
    paragraph: A.
  loop-b:
    kind: text
    after: loop-a
    headline: B
    paragraph: B.
  lost:
    kind: section
    after: sorces
    headline: Lost
  odd:
    kind: slideshow
    after: title
    headline: Odd
  nameless:
    kind: image
    after: title
    headline: No alt
    image: hosts.png
  ceilling:
    hidden: true
"""
    Image.new("RGB", (40, 20)).save(tmp_path / "hosts.png")
    path = talk(tmp_path, extra, {"  title:\n": "  title:\n    hidden: true\n"})
    run = run_in("check", str(path))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    joined = "\n".join(lines)
    assert "slides.title.hidden: the title slide cannot be hidden" in joined
    assert "slides.lost.after: 'sorces' is not a slide of this talk; did you mean 'sources'?" \
        in joined
    assert re.search(r"slides\.loop-a\.after: .*loop-a, loop-b follow each other in a circle",
                     joined)
    assert "slides.odd.kind: must be one of text, image, section, got 'slideshow'" in joined
    assert "slides.nameless.alt: required field is missing" in joined
    assert "'ceilling' is not a built-in slide; did you mean 'ceiling'?" in joined
    assert all(re.match(r".*talk\.yaml:\d+:\d+: ", line) for line in lines), joined


def test_ten_sources_keep_every_description(tmp_path: Path) -> None:
    data = yaml.safe_load(DEFAULT_CONTENT.read_text(encoding="utf-8"))
    base = data["sources"]
    data["sources"] = [{**base[i % len(base)], "title": f"Source number {i + 1}",
                        "supports": f"What source {i + 1} supports: "
                                    + base[i % len(base)]["supports"]} for i in range(10)]
    path = tmp_path / "ten.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    content, _ = source.read(path)
    story = st.compose(content)
    for aspect in ("16:9", "4:3"):
        plans = arrange_slides(story, default_geometry(aspect), None, story.slides,
                                faces_of(story))
        parts = [p for p in plans if p.kind == "sources"]
        assert len(parts) >= 2
        assert [p.title[0].text for p in parts][-1] == \
            f"Where the facts come from ({len(parts)}/{len(parts)})"
        words = [para.text for p in parts for item in p.items
                 for para in _paras(item)]
        for i in range(10):
            assert any(f"What source {i + 1} supports" in w for w in words), (aspect, i)
    # The handout holds every source in full too, on as many pages as it takes.
    run = run_in("build", str(path), "--only", "handout", "--pages", "auto", "--out",
                 str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr


def _paras(item: object) -> list[st.Text | object]:
    cells = getattr(item, "cells", None)
    if cells is not None:
        return [p for row in cells for cell in row for p in cell]
    return list(getattr(item, "paras", []))


def test_page_notes_true_shows_the_notes(tmp_path: Path) -> None:
    Image.new("RGB", (40, 20)).save(tmp_path / "hosts.png")
    path = talk(tmp_path, edit={"\ntheme:": "\npage:\n  notes: true\n\ntheme:"})
    run = run_in("build", str(path), "--only", "html", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    page = next((tmp_path / "out").glob("*.html")).read_text(encoding="utf-8")
    assert "Keep this under a minute" in page


def test_the_handout_shows_own_slides_marked_for_it_only_when_they_fit(tmp_path: Path) -> None:
    Image.new("RGB", (800, 400), (30, 90, 160)).save(tmp_path / "hosts.png")
    path = talk(tmp_path, OWN.replace('    credit: "Photo: the venue"\n',
                                      '    credit: "Photo: the venue"\n    handout: true\n'),
                MOVED)
    sheet = run_in("build", str(path), "--only", "handout", "--out", str(tmp_path / "one"))
    assert sheet.returncode == 0, sheet.stderr  # no room on the one sheet: left out, no error
    pages = run_in("build", str(path), "--only", "handout", "--pages", "auto", "--out",
                   str(tmp_path / "more"))
    assert pages.returncode == 0, pages.stderr
    texts = {}
    for name in ("one", "more"):
        pdf = next((tmp_path / name).glob("*.pdf"))
        texts[name] = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                     text=True, check=True).stdout
    assert "Thanks to our hosts" not in texts["one"]
    assert "Thanks to our hosts" in texts["more"] and "Our hosts tonight" in texts["more"]
    assert "Who is talking" not in texts["more"]  # not marked for the handout
    for text in texts.values():  # the hidden ceiling slide's sentence is gone
        assert "no writing speed makes this batch more than" not in " ".join(text.split())


def test_a_pixel_bomb_in_a_build_stays_in_bounded_memory(tmp_path: Path) -> None:
    """A fresh `deckgen build` refusing a 30,000 x 30,000 px PNG of a few KB stays well under
    200 MiB: the picture is refused from its header, never decoded."""
    _bomb(tmp_path / "hosts.png")
    path = talk(tmp_path)
    # The peak of this process's own memory (VmHWM, in kB): ru_maxrss would carry the peak
    # of the test's process, which the child was forked from, across exec.
    code = ("import sys\nsys.argv = ['deckgen', *sys.argv[1:]]\n"
            "from deckgen.cli import main\ntry:\n    main()\nfinally:\n"
            "    peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "    print('maxrss', peak.split()[1], file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code, "build", str(path), "--out",
                          str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert "is 30,000 x 30,000 pixels" in lines[0] and len(lines) == 2
    assert int(lines[1].split()[1]) < 200 * 1024  # kB
    assert not (tmp_path / "out").exists()


def test_a_bullet_too_long_is_located_like_any_slide_text(tmp_path: Path) -> None:
    extra = ("  long:\n    kind: text\n    after: title\n    headline: Long\n    bullets:\n"
             + "".join(f"      - {'A sentence that goes on and on. ' * 12}\n" for _ in range(6)))
    Image.new("RGB", (40, 20)).save(tmp_path / "hosts.png")
    path = talk(tmp_path, extra)
    run = run_in("build", str(path), "--only", "deck", "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    (line,) = run.stderr.strip().splitlines()
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: slides\.long\.bullets\[\d\]: slide 2: "
                    r"the bullet does not fit .*; shorten it$", line), line


def test_a_slide_of_ones_own_takes_a_template_layout_by_name(tmp_path: Path) -> None:
    template = tmp_path / "default.pptx"
    Presentation().save(str(template))
    Image.new("RGB", (800, 400)).save(tmp_path / "hosts.png")
    path = talk(tmp_path, OWN.replace("    kicker: Part two\n",
                                      "    kicker: Part two\n    layout: Section Header\n"))
    run = run_in("build", str(path), "--only", "deck", "--template", str(template), "--out",
                 str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    prs = Presentation(str(next((tmp_path / "out").glob("*.pptx"))))
    layouts = {s.shapes.title.text_frame.text: s.slide_layout.name for s in prs.slides
               if s.shapes.title is not None}
    assert layouts["Where the time really goes"] == "Section Header"
    assert layouts["Who is talking"] == layouts["One number, four meanings"]


def test_the_slides_pdf_and_notes_book_draw_the_same_slides(own_build: Path) -> None:
    deck = next((own_build / "out").glob("*.pptx"))
    titles = _titles(deck)
    for suffix in ("slides", "notes"):
        pdf = next((own_build / "out").glob(f"*-{suffix}.pdf"))
        pages = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                               check=True).stdout.split("\f")
        assert len([p for p in pages if p.strip()]) == len(titles)
        assert "Who is talking" in pages[1] and "Builds agents for a living" in pages[1]
        assert "Thanks to our hosts" in pages[len(titles) - 1]
        images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True,
                                text=True, check=True).stdout.splitlines()[2:]
        assert any(line.split()[0] == str(len(titles)) and line.split()[3:5] == ["800", "400"]
                   for line in images), images
