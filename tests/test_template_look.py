"""A deck on a template looks like one deck, set in the face that will draw it: text measured
with the template's theme fonts (or the content's, named), a face with no known twin built
with a warning, one title size across the content slides, and a layout without a title
placeholder given its title where the layout's title band is."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from dataclasses import replace

import pytest
from conftest import DEFAULT_CONTENT
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER

import deckgen.story
from deckgen import fonts, source
from deckgen.content import Content
from deckgen.errors import Problem
from deckgen.render import deck
from deckgen.render.deck.plan import WIDTH_SAFETY, TextItem
from deckgen.render.deck.write import plan_deck


@pytest.fixture(scope="module")
def content() -> Content:
    found, _ = source.read(DEFAULT_CONTENT)
    return found


@pytest.fixture(scope="module")
def pandoc_template() -> bytes:
    """pandoc's own reference.pptx (16:9, 10 in wide), as `pandoc --print-default-data-file`
    writes it."""
    pandoc = shutil.which("pandoc")
    if pandoc is None:  # the test extras' pypandoc-binary wheel carries its own pandoc
        pypandoc = pytest.importorskip("pypandoc")
        pandoc = pypandoc.get_pandoc_path()
    return subprocess.run([pandoc, "--print-default-data-file", "reference.pptx"],
                          capture_output=True, check=True, timeout=60).stdout


def python_pptx_template() -> bytes:
    out = io.BytesIO()
    Presentation().save(out)
    return out.getvalue()


def with_theme_fonts(heading: str, body: str, template: bytes | None = None) -> bytes:
    """A template (python-pptx's default deck) with its theme's major and minor fonts
    renamed."""
    with zipfile.ZipFile(io.BytesIO(template or python_pptx_template())) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    theme = entries["ppt/theme/theme1.xml"].decode()
    for kind, family in (("majorFont", heading), ("minorFont", body)):
        theme = re.sub(rf'(<a:{kind}>\s*<a:latin typeface=")[^"]*', rf"\g<1>{family}", theme)
    entries["ppt/theme/theme1.xml"] = theme.encode()
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return packed.getvalue()


def theme_fonts(pptx: bytes) -> tuple[str, str]:
    with zipfile.ZipFile(io.BytesIO(pptx)) as z:
        theme = z.read("ppt/theme/theme1.xml").decode()
    major = re.search(r'<a:majorFont>\s*<a:latin typeface="([^"]*)"', theme)
    minor = re.search(r'<a:minorFont>\s*<a:latin typeface="([^"]*)"', theme)
    assert major and minor
    return major.group(1), minor.group(1)


def figures(plans: list) -> dict[str, tuple[int, str, float]]:  # noqa: ANN001 (SlidePlan)
    """Each big figure's box width, text and size (the first of each name)."""
    out: dict[str, tuple[int, str, float]] = {}
    for plan in plans:
        for item in plan.items:
            if isinstance(item, TextItem):
                for para, size in zip(item.paras, item.sizes, strict=True):
                    if para.one_line:
                        out.setdefault(para.field, (item.box.w, para.shown, size))
    return out


def test_a_template_is_measured_with_its_own_theme_fonts(content: Content) -> None:
    """python-pptx's default deck names Calibri: its figures get Carlito's widths (with the
    room of a wider face), narrower than the same template renamed to Arial gets."""
    story = deckgen.story.compose(content)
    found = {}
    for face in ("Arial", "Calibri", "Times New Roman"):
        found[face] = figures(plan_deck(story, with_theme_fonts(face, face))[0])
        assert "writing time" in found[face]
        for field, (width, text, size) in found[face].items():
            need = fonts.face(face, True).width(text, size) * fonts.FIGURE_SLACK / WIDTH_SAFETY
            assert width / 12700 >= need - 0.01, (face, field, text, size)
    assert figures(plan_deck(story, python_pptx_template())[0]) == found["Calibri"]
    arial, calibri = found["Arial"], found["Calibri"]
    assert calibri["ceiling"][1:] == arial["ceiling"][1:]  # the figure's text and size
    assert calibri["ceiling"][0] < arial["ceiling"][0]  # its box, as wide as it needs


@pytest.mark.slow
def test_a_face_with_no_twin_builds_with_one_warning_naming_it(content: Content,
                                                             pandoc_template: bytes) -> None:
    heard: list[Problem] = []
    story = deckgen.story.compose(content)
    pptx = deck.render(story, template=with_theme_fonts("Aptos Display", "Aptos",
                                                        pandoc_template), warn=heard.append)
    assert theme_fonts(pptx) == ("Aptos Display", "Aptos")
    lines = [str(p) for p in heard if "twin" in str(p)]
    assert len(lines) == 1, lines
    assert "'Aptos Display' and 'Aptos'" in lines[0] and "theme.fonts" in lines[0], lines
    quiet: list[Problem] = []
    deck.render(story, template=with_theme_fonts("Calibri", "Calibri"), warn=quiet.append)
    assert not [p for p in quiet if "twin" in str(p)]


@pytest.mark.slow
def test_fonts_named_in_the_content_win_over_the_template(content: Content,
                                                         pandoc_template: bytes) -> None:
    named = replace(content, theme=replace(content.theme, heading_font="Cambria",
                                           body_font="Calibri", fonts_named=True))
    heard: list[Problem] = []
    template = with_theme_fonts("Aptos", "Aptos", pandoc_template)
    pptx = deck.render(deckgen.story.compose(named), template=template, warn=heard.append)
    assert theme_fonts(pptx) == ("Cambria", "Calibri")
    assert not [p for p in heard if "twin" in str(p)]  # both measured by their own twins
    plain = deck.render(deckgen.story.compose(content), template=template)
    assert theme_fonts(plain) == ("Aptos", "Aptos")  # the bundled talk names no font


@pytest.mark.parametrize("which", ["python-pptx", "pandoc"])
def test_content_slides_share_one_title_size_and_kicker_place(content: Content, which: str,
                                                              pandoc_template: bytes) -> None:
    """On a template, every content slide's title has one size and its kicker one place
    (inside the title's box over the title, or under it); the cover may differ."""
    template = python_pptx_template() if which == "python-pptx" else pandoc_template
    walk = deckgen.story.walk(content)
    plans, _, _ = plan_deck(deckgen.story.compose(content), template, walk)
    content_plans = [p for p in plans if not p.cover]
    assert len({tuple(p.title_sizes) for p in content_plans}) == 1
    assert len({p.extra.get("title_anchor") for p in content_plans}) == 1
    kickers = {next(i.box.y for i in p.items if getattr(i, "name", "") == "Kicker")
               for p in content_plans}
    assert len(kickers) == 1


def without_titles(master_too: bool) -> bytes:
    """python-pptx's default deck with no title placeholder on any layout (nor, with
    `master_too`, on the master)."""
    prs = Presentation()
    owners = [*prs.slide_layouts, *([prs.slide_master] if master_too else [])]
    for owner in owners:
        for ph in list(owner.placeholders):
            if ph.placeholder_format.type in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE):
                ph._element.getparent().remove(ph._element)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("master_too", [False, True])
def test_a_template_without_title_placeholders_gets_titles_in_the_title_band(
        content: Content, master_too: bool) -> None:
    template = without_titles(master_too)
    master = Presentation(io.BytesIO(template)).slide_master
    band = next((ph for ph in master.placeholders
                 if ph.placeholder_format.type == PP_PLACEHOLDER.TITLE), None)
    pptx = deck.render(deckgen.story.compose(content), template=template)
    slides = list(Presentation(io.BytesIO(pptx)).slides)
    assert len(slides) == 16
    headlines = [s.headline.text for s in deckgen.story.compose(content).slides]
    for number, (slide, headline) in enumerate(zip(slides, headlines, strict=True), 1):
        [title] = [s for s in slide.shapes if s.name == "Title"]
        assert not title.is_placeholder
        assert title.text_frame.text == headline, number
        if band is not None and number > 1:  # where the master puts its titles
            assert (title.left, title.top, title.width) == (band.left, band.top, band.width)
        assert title.top >= 0 and title.top + title.height <= slides[0].part.package \
            .presentation_part.presentation.slide_height
