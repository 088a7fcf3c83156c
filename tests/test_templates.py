"""Templates nobody here wrote: python-pptx's own default deck and LibreOffice Impress's
bundled templates exported to .pptx, built as a presenter would build them.

Each built deck is read back and checked: every slide present, each title in its title
placeholder, every text box, table and chart inside its layout's title and body areas (so
nothing sits on the template's artwork), and the theme's text colours at least 4.5:1 against
what the slide's text sits on (the layout's background, or an opaque panel of its
artwork); and every XML part valid against the Office Open XML schemas (tests/ooxml.py), the
template's masters, layouts and theme included. Layouts chosen by name, a wrong name, and a
template too small for a slide are checked on python-pptx's default deck, edited in the test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT, LIBREOFFICE, only_file, run_in
from ooxml import problems
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.util import Emu, Inches

EMU_PER_IN = 914400
HEADLINES = ["One number, four meanings", "Turn the dial"]  # slides 2 and 3 of content.yaml
TOLERANCE = EMU_PER_IN // 50


# --- reading a deck back ---------------------------------------------------------------------


def luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_matches_the_wcag_examples() -> None:
    assert round(contrast("000000", "FFFFFF"), 2) == 21.0
    assert round(contrast("777777", "FFFFFF"), 2) == 4.48  # the classic just-failing grey
    assert round(contrast("4F81BD", "FFFFFF"), 2) == 4.03
    from deckgen.colour import contrast as deckgen_contrast

    for a, b in (("000000", "FFFFFF"), ("777777", "FFFFFF"), ("4F81BD", "FFFFFF")):
        assert round(deckgen_contrast(f"#{a}", f"#{b}"), 6) == round(contrast(a, b), 6)


def theme_colours(deck: Path) -> dict[str, str]:
    """The deck's theme colours by slot (dk1, lt1, dk2, lt2, accent1...), as 'RRGGBB'."""
    with zipfile.ZipFile(deck) as z:
        xml = z.read("ppt/theme/theme1.xml").decode()
    scheme = re.search(r"<a:clrScheme .*?</a:clrScheme>", xml, re.S)
    assert scheme
    out = {slot: value.upper() for slot, value in re.findall(
        r"<a:(\w+)>\s*<a:(?:srgbClr val|sysClr [^>]*lastClr)=\"(\w{6})\"", scheme.group(0))}
    for slot in ("dk1", "lt1", "dk2", "accent1"):
        assert slot in out, slot
    return out


SCHEME_NAMES = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}


def fill_colours(fill, colours: dict[str, str]) -> list[str] | None:  # noqa: ANN001
    """A solid or gradient fill's colours, or None when it is mostly see-through."""
    found, alphas = [], []
    for el in fill.iter(qn("a:srgbClr"), qn("a:schemeClr")):
        value = el.get("val", "")
        value = colours.get(SCHEME_NAMES.get(value, value), "") \
            if el.tag == qn("a:schemeClr") else value.upper()
        alpha = el.find(qn("a:alpha"))
        alphas.append(int(alpha.get("val")) if alpha is not None else 100000)
        if value:
            found.append(value)
    return found if found and max(alphas) >= 50000 else None


def ground(layout, colours: dict[str, str], area: tuple[int, int, int, int]) -> list[str]:  # noqa: ANN001
    """What text in `area` sits on: the topmost opaque filled shape of the layout or its
    master (not a placeholder) under the middle of `area`, else the layout's (or its
    master's) solid background, else lt1."""
    cx, cy = (area[0] + area[2]) // 2, (area[1] + area[3]) // 2
    for owner in (layout, layout.slide_master):
        tree = owner._element.find(f"{qn('p:cSld')}/{qn('p:spTree')}")
        for el in reversed(list(tree)):
            if el.tag != qn("p:sp") or el.find(f".//{qn('p:ph')}") is not None:
                continue
            xfrm = el.find(f"{qn('p:spPr')}/{qn('a:xfrm')}")
            if xfrm is None:
                continue
            off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
            x, y = int(off.get("x")), int(off.get("y"))
            if not (x <= cx <= x + int(ext.get("cx")) and y <= cy <= y + int(ext.get("cy"))):
                continue
            fill = next((c for c in el.find(qn("p:spPr"))
                         if c.tag in (qn("a:solidFill"), qn("a:gradFill"))), None)
            found = fill_colours(fill, colours) if fill is not None else None
            if found:
                return found
    for owner in (layout, layout.slide_master):
        bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
        if bg is not None and bg.find(f".//{qn('a:blip')}") is None:
            found = fill_colours(bg, colours)
            if found:
                return found
    return [colours["lt1"]]


def box(shape) -> tuple[int, int, int, int]:  # noqa: ANN001
    return int(shape.left), int(shape.top), int(shape.left + shape.width), \
        int(shape.top + shape.height)


def allowed_area(layout) -> tuple[int, int, int, int]:  # noqa: ANN001
    """The union of the title and body areas of a layout and of its master."""
    kinds = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.SUBTITLE,
             PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT)
    boxes = [box(ph) for owner in (layout, layout.slide_master) for ph in owner.placeholders
             if ph.placeholder_format.type in kinds and ph.width is not None]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def check_deck(deck_path: Path) -> Any:
    """Check the built deck as the module says; the deck as python-pptx reads it, for the
    test's own checks."""
    assert problems(deck_path) == []
    deck = Presentation(str(deck_path))
    slides = list(deck.slides)
    assert len(slides) == 16  # with the writing-time chart and the closing slide
    for number, slide in enumerate(slides, 1):
        title = slide.shapes.title
        assert title is not None and title.is_placeholder, number
        assert title.placeholder_format.type in (PP_PLACEHOLDER.TITLE,
                                                 PP_PLACEHOLDER.CENTER_TITLE)
        assert title.text_frame.text.strip(), number
        if number in (2, 3):
            assert title.text_frame.text.replace("\u00a0", " ") == HEADLINES[number - 2]
        left, top, right, bottom = allowed_area(slide.slide_layout)
        for shape in slide.shapes:
            if shape.is_placeholder or shape.name in ("Footer", "Slide number"):
                continue
            x0, y0, x1, y1 = box(shape)
            assert x0 >= left - TOLERANCE and x1 <= right + TOLERANCE, (number, shape.name)
            assert y0 >= top - TOLERANCE and y1 <= bottom + TOLERANCE, (number, shape.name)
    colours = theme_colours(deck_path)
    cover = slides[0]  # its title and subtitle: each run's own colour, else the theme's text
    for ph in cover.placeholders:
        if ph.placeholder_format.type in (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER,
                                          PP_PLACEHOLDER.SLIDE_NUMBER):
            continue
        for run in (r for p in ph.text_frame.paragraphs for r in p.runs):
            fill = run._r.find(f"{qn('a:rPr')}/{qn('a:solidFill')}")
            [colour] = fill_colours(fill, colours) if fill is not None else [colours["dk1"]]
            grounds = ground(cover.slide_layout, colours, box(ph))
            # 4.5:1 on every stop of a gradient, or, where no colour has that on all of them
            # (Lights: navy to pink), the better of black and white
            reach = max(min(contrast(c, u) for u in grounds) for c in ("000000", "FFFFFF"))
            assert min(contrast(colour, u) for u in grounds) >= min(4.5, reach), \
                (1, run.text, colour, grounds)
    for number, slide in enumerate(slides[1:], 2):  # the theme's colours, on the items' ground
        drawn = [box(s) for s in slide.shapes if not s.is_placeholder
                 and s.name not in ("Footer", "Slide number", "Backdrop")]
        area = (min(b[0] for b in drawn), min(b[1] for b in drawn),
                max(b[2] for b in drawn), max(b[3] for b in drawn))
        grounds = ground(slide.slide_layout, colours, area)
        reach = max(min(contrast(c, u) for u in grounds) for c in ("000000", "FFFFFF"))
        for slot in ("dk1", "dk2", "accent1"):
            assert min(contrast(colours[slot], u) for u in grounds) >= min(4.5, reach), \
                (number, slot, grounds)
    return deck


def build(tmp: Path, template: Path, content: Path = DEFAULT_CONTENT) -> tuple[int, str, Path]:
    out = tmp / "out"
    run = run_in("build", str(content), "--only", "deck", "--template", str(template),
                 "--out", str(out))
    return run.returncode, run.stderr, out


# --- python-pptx's default deck ----------------------------------------------------------------


@pytest.fixture(scope="module")
def default_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("default") / "default.pptx"
    Presentation().save(str(path))
    return path


@pytest.mark.slow
def test_python_pptx_default_template_builds_and_looks_right(tmp_path: Path,
                                                             default_template: Path) -> None:
    code, err, out = build(tmp_path, default_template)
    assert code == 0, err
    check_deck(only_file(out, ".pptx"))
    # the theme's accent (4F81BD, 4:1 on white) is darkened in its hue, and the build says so
    assert "accent #4F81BD (4:1 on the solid #FFFFFF background of layout 'Title Only') " \
        "-> #4774AA" in err
    assert theme_colours(only_file(out, ".pptx"))["accent1"] == "4774AA"


def with_layout(tmp: Path, slide_id: str, name: str) -> Path:
    """content.yaml with `slides.<slide_id>.layout: name`."""
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    head = f"\n  {slide_id}:\n"
    assert head in text
    text = text.replace(head, f"{head}    layout: \"{name}\"\n", 1)
    path = tmp / "content.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_layout_chosen_by_name_carries_its_slide(tmp_path: Path,
                                                   default_template: Path) -> None:
    content = with_layout(tmp_path, "dial", "Title and Content")
    code, err, out = build(tmp_path, default_template, content)
    assert code == 0, err
    deck = check_deck(only_file(out, ".pptx"))
    names = [slide.slide_layout.name for slide in deck.slides]
    assert names[2] == "Title and Content"
    assert names[0] == "Title Slide"
    assert set(names[1:2] + names[3:]) == {"Title Only"}


def test_a_wrong_layout_name_is_located_with_the_nearest_name(tmp_path: Path,
                                                              default_template: Path) -> None:
    content = with_layout(tmp_path, "dial", "Title and Contnet")
    code, err, out = build(tmp_path, default_template, content)
    assert code == 2
    line = err.strip().splitlines()[-1]
    number = next(i for i, text in enumerate(content.read_text().splitlines(), 1)
                  if "Title and Contnet" in text)
    assert line.startswith(f"{content}:{number}:13: slides.dial.layout: 'Title and Contnet' "
                           f"is not a layout of --template {default_template}; did you mean "
                           "'Title and Content'? its layouts are 'Title Slide', ")
    assert not out.exists()


def test_a_template_too_small_for_a_slide_names_template_layout_and_placeholder(
        tmp_path: Path) -> None:
    prs = Presentation()
    cover = prs.slide_layouts[0]
    subtitle = next(ph for ph in cover.placeholders
                    if ph.placeholder_format.type == PP_PLACEHOLDER.SUBTITLE)
    subtitle.height = Inches(0.4)
    title = next(ph for ph in prs.slide_master.placeholders
                 if ph.placeholder_format.type == PP_PLACEHOLDER.TITLE)
    title.height = Emu(Inches(0.3))  # the content slides' title: every layout inherits it
    template = tmp_path / "tiny.pptx"
    prs.save(str(template))
    code, err, out = build(tmp_path, template)
    assert code == 2
    lines = [line for line in err.strip().splitlines() if line.startswith("--template")]
    # the least the cover's subtitle holds: a subtitle line (20 pt x 1.2), 24 pt of space, the
    # presenter and the event (20 pt x 1.2 each, 4 pt apart) and the insets (0.05 in twice):
    # 100 pt + 0.1 in = 1.49 in, shown rounded up; the content title's least is one line of
    # the body size (24 pt x 1.17) and its insets: 28.08 pt + 0.1 in = 0.49 in
    assert lines == [
        f"--template {template}: layout 'Title Slide': the subtitle placeholder is 0.4 in "
        "tall; it needs at least 1.5 in",
        f"--template {template}: layout 'Title Only': the title placeholder is 0.3 in tall; "
        "it needs at least 0.5 in",
    ]
    assert not out.exists()


@pytest.mark.slow
def test_a_subtitle_without_an_idx_keeps_its_own_box(tmp_path: Path) -> None:
    """LibreOffice writes layout placeholders without an idx: the slide's subtitle must sit
    where the layout's subtitle is, not where the title (idx 0 by default) is."""
    prs = Presentation()
    for ph in prs.slide_layouts[0].placeholders:
        ph._element.find(f".//{qn('p:ph')}").attrib.pop("idx", None)
    template = tmp_path / "no-idx.pptx"
    prs.save(str(template))
    code, err, out = build(tmp_path, template)
    assert code == 0, err
    deck = Presentation(str(only_file(out, ".pptx")))
    cover = deck.slides[0]
    layout_sub = next(ph for ph in cover.slide_layout.placeholders
                      if ph.placeholder_format.type == PP_PLACEHOLDER.SUBTITLE)
    sub = next(ph for ph in cover.placeholders
               if ph.placeholder_format.type == PP_PLACEHOLDER.SUBTITLE)
    assert box(sub) == box(layout_sub)
    assert box(sub) != box(cover.shapes.title)
    assert "What the number can mean" in sub.text_frame.text


# --- LibreOffice's bundled templates -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.soffice
@pytest.mark.parametrize("name", LIBREOFFICE)
def test_libreoffice_templates_build_and_look_right(tmp_path: Path, name: str,
                                                    libreoffice_templates: dict[str, Path]
                                                    ) -> None:
    code, err, out = build(tmp_path, libreoffice_templates[name])
    assert code == 0, err
    assert err.count("contrast replaced") <= 1  # one warning line, whatever was replaced
    deck = check_deck(only_file(out, ".pptx"))
    for changed in re.findall(r"(\w+) (#[0-9A-F]{6}) \([^)]*\) -> (#[0-9A-F]{6})", err):
        assert changed[1] != changed[2], changed  # a colour left as it was is not "replaced"
    if name == "Lights":  # navy to pink: no colour reads on both, and the line says so
        assert "no colour reads on every ground" in err, err
    if name == "Vintage":  # its background is a photo of old paper: sampled, not assumed
        found = re.search(r"on the picture (#[0-9A-F]{6}) background", err)
        assert found and found.group(1) != "#FFFFFF", err
    cover = deck.slides[0]
    subtitle = next(ph for ph in cover.placeholders
                    if ph.placeholder_format.type == PP_PLACEHOLDER.SUBTITLE)
    assert box(subtitle) != box(cover.shapes.title)
    assert "What the number can mean" in subtitle.text_frame.text
    if name in ("Progress", "Vintage"):
        # their first master is the title slide's (title low, a small body under it); the
        # content slides take a layout of a content master, with the title at the top
        content = deck.slides[1]
        assert content.slide_layout.slide_master != deck.slide_masters[0]
        assert content.shapes.title.top < Inches(0.5)
    if name == "Midnightblue":
        # the footer (18 pt bold in a 3.5 in box) is set smaller, so the date stays whole
        footer = next(ph for ph in deck.slides[1].placeholders
                      if ph.placeholder_format.type == PP_PLACEHOLDER.FOOTER)
        assert footer.text_frame.text == "AI Builders Meetup · 2026-12-03"
        [run] = footer.text_frame.paragraphs[0].runs
        assert run.font.size is not None and run.font.size < Emu(18 * 12700)
        # its master's circle shows the slide number (a field in its artwork): not twice
        assert not [ph for ph in deck.slides[1].placeholders
                    if ph.placeholder_format.type == PP_PLACEHOLDER.SLIDE_NUMBER]


@pytest.fixture(scope="module")
def pandoc_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pandoc's own reference.pptx, as `pandoc --print-default-data-file` writes it."""
    pandoc = shutil.which("pandoc")
    if pandoc is None:  # the test extras' pypandoc-binary wheel carries its own pandoc
        pypandoc = pytest.importorskip("pypandoc")
        pandoc = pypandoc.get_pandoc_path()
    path = tmp_path_factory.mktemp("pandoc") / "reference.pptx"
    with path.open("wb") as out:
        subprocess.run([pandoc, "--print-default-data-file", "reference.pptx"], stdout=out,
                       check=True, timeout=60)
    return path


@pytest.mark.slow
def test_pandoc_reference_template_builds_and_looks_right(tmp_path: Path,
                                                          pandoc_template: Path) -> None:
    code, err, out = build(tmp_path, pandoc_template)
    assert code == 0, err
    check_deck(only_file(out, ".pptx"))


@pytest.mark.slow
def test_the_cover_layout_chosen_by_name(tmp_path: Path, default_template: Path) -> None:
    """`slides.title.layout` puts the cover on the named layout; its content placeholder (the
    layout has no subtitle) holds the subtitle, presenter and event."""
    content = with_layout(tmp_path, "title", "Title and Content")
    code, err, out = build(tmp_path, default_template, content)
    assert code == 0, err
    deck = check_deck(only_file(out, ".pptx"))
    names = [slide.slide_layout.name for slide in deck.slides]
    assert names[0] == "Title and Content"
    assert set(names[1:]) == {"Title Only"}
    cover = deck.slides[0]
    assert cover.shapes.title.text_frame.text == "A million tokens a second"
    [second] = [ph for ph in cover.placeholders
                if ph.placeholder_format.type == PP_PLACEHOLDER.OBJECT]
    layout_body = next(ph for ph in cover.slide_layout.placeholders
                       if ph.placeholder_format.type == PP_PLACEHOLDER.OBJECT)
    assert box(second) == box(layout_body)
    assert "What the number can mean" in second.text_frame.text
    assert "AI Builders Meetup" in second.text_frame.text
