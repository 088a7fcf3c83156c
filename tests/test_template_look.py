"""A deck on a template looks like one deck, set in the face that will draw it: text measured
with the template's theme fonts (or the content's, named), a face with no known twin built
with a warning, one title size across the content slides, and a layout without a title
placeholder given its title where the layout's title band is."""

from __future__ import annotations

import functools
import html
import io
import re
import shutil
import subprocess
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT, arranged_of, deck_of, placed_of
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml.ns import qn

import deckgen.story
from deckgen import fonts, source
from deckgen.content import Content
from deckgen.errors import Problem
from deckgen.plan.items import WIDTH_SAFETY, TextItem


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


def parts_of(template: bytes | None = None) -> dict[str, bytes]:
    """A template's parts by name (python-pptx's default deck without one)."""
    with zipfile.ZipFile(io.BytesIO(template or python_pptx_template())) as z:
        return {name: z.read(name) for name in z.namelist()}


def packed(entries: dict[str, bytes]) -> bytes:
    """Parts packed again into a template."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


def with_theme_fonts(heading: str, body: str, template: bytes | None = None) -> bytes:
    """A template (python-pptx's default deck) with its theme's major and minor fonts
    renamed."""
    entries = parts_of(template)
    theme = entries["ppt/theme/theme1.xml"].decode()
    for kind, family in (("majorFont", heading), ("minorFont", body)):
        theme = re.sub(rf'(<a:{kind}>\s*<a:latin typeface=")[^"]*', rf"\g<1>{family}", theme)
    entries["ppt/theme/theme1.xml"] = theme.encode()
    return packed(entries)


def theme_fonts(pptx: bytes) -> tuple[str, str]:
    with zipfile.ZipFile(io.BytesIO(pptx)) as z:
        theme = z.read("ppt/theme/theme1.xml").decode()
    major = re.search(r'<a:majorFont>\s*<a:latin typeface="([^"]*)"', theme)
    minor = re.search(r'<a:minorFont>\s*<a:latin typeface="([^"]*)"', theme)
    assert major and minor
    return major.group(1), minor.group(1)


def figures(plans: list) -> dict[str, tuple[int, str, float]]:  # noqa: ANN001 (ArrangedSlide)
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
        found[face] = figures(arranged_of(story, with_theme_fonts(face, face)))
        assert "writing time" in found[face]
        for field, (width, text, size) in found[face].items():
            need = fonts.face(face, True).width(text, size) * fonts.FIGURE_SLACK / WIDTH_SAFETY
            assert width / 12700 >= need - 0.01, (face, field, text, size)
    assert figures(arranged_of(story, python_pptx_template())) == found["Calibri"]
    arial, calibri = found["Arial"], found["Calibri"]
    assert calibri["ceiling"][1:] == arial["ceiling"][1:]  # the figure's text and size
    assert calibri["ceiling"][0] < arial["ceiling"][0]  # its box, as wide as it needs


@pytest.mark.slow
def test_a_face_with_no_twin_builds_with_one_warning_naming_it(content: Content,
                                                             pandoc_template: bytes) -> None:
    heard: list[Problem] = []
    story = deckgen.story.compose(content)
    pptx = deck_of(story, template=with_theme_fonts("Aptos Display", "Aptos",
                                                        pandoc_template), warn=heard.append)
    assert theme_fonts(pptx) == ("Aptos Display", "Aptos")
    lines = [str(p) for p in heard if "twin" in str(p)]
    assert len(lines) == 1, lines
    assert "'Aptos Display' and 'Aptos'" in lines[0] and "theme.fonts" in lines[0], lines
    quiet: list[Problem] = []
    deck_of(story, template=with_theme_fonts("Calibri", "Calibri"), warn=quiet.append)
    assert not [p for p in quiet if "twin" in str(p)]


@pytest.mark.slow
def test_fonts_named_in_the_content_win_over_the_template(content: Content,
                                                         pandoc_template: bytes) -> None:
    named = replace(content, theme=replace(content.theme, heading_font="Cambria",
                                           body_font="Calibri", fonts_named=True))
    heard: list[Problem] = []
    template = with_theme_fonts("Aptos", "Aptos", pandoc_template)
    pptx = deck_of(deckgen.story.compose(named), template=template, warn=heard.append)
    assert theme_fonts(pptx) == ("Cambria", "Calibri")
    assert not [p for p in heard if "twin" in str(p)]  # both measured by their own twins
    plain = deck_of(deckgen.story.compose(content), template=template)
    assert theme_fonts(plain) == ("Aptos", "Aptos")  # the bundled talk names no font


@pytest.mark.parametrize("which", ["python-pptx", "pandoc"])
def test_content_slides_share_one_title_size_and_kicker_place(content: Content, which: str,
                                                              pandoc_template: bytes) -> None:
    """On a template, every content slide's title has one size and its kicker one place
    (inside the title's box over the title, or under it); the cover may differ."""
    template = python_pptx_template() if which == "python-pptx" else pandoc_template
    walk = deckgen.story.walk(content)
    plans = arranged_of(deckgen.story.compose(content), template, walk)
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
    pptx = deck_of(deckgen.story.compose(content), template=template)
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


# --- template decks as LibreOffice prints them --------------------------------------------------

ARTWORK = ("Blueprint_Plans", "Nature_Illustration")  # a pencil and trees in their pictures
DRAWN = 48  # RGB distance from a box's own ground that counts as drawing


@pytest.fixture(scope="module")
def template_decks(tmp_path_factory: pytest.TempPathFactory, content: Content,
                   pandoc_template: bytes, libreoffice_templates: dict[str, Path]
                   ) -> dict[str, tuple[Path, Path]]:
    """Decks on python-pptx's default, pandoc's reference, a template in Aptos (no twin)
    and two of LibreOffice's templates whose pictures carry artwork (as test_templates has
    them exported), each with the PDF LibreOffice prints of it, all in one soffice run."""
    tmp = tmp_path_factory.mktemp("template-decks")
    profile = f"-env:UserInstallation=file://{tmp / 'profile'}"
    templates = {"python-pptx": python_pptx_template(), "pandoc": pandoc_template,
                 "aptos": with_theme_fonts("Aptos Display", "Aptos", pandoc_template),
                 **{n: libreoffice_templates[n].read_bytes() for n in ARTWORK}}
    story = deckgen.story.compose(content)
    decks = {}
    for name, template in templates.items():
        path = tmp / f"{name}.pptx"
        path.write_bytes(deck_of(story, template=template))
        decks[name] = path
    subprocess.run(["soffice", profile, "--headless", "--convert-to", "pdf", "--outdir",
                    str(tmp), *map(str, decks.values())], capture_output=True, timeout=600,
                   check=True)
    return {name: (path, path.with_suffix(".pdf")) for name, path in decks.items()}


TEMPLATES = ["python-pptx", "pandoc", "aptos", *ARTWORK]


@pytest.mark.slow
@pytest.mark.soffice
@pytest.mark.parametrize("name", TEMPLATES)
def test_libreoffice_breaks_no_word_of_a_template_deck(
        template_decks: dict[str, tuple[Path, Path]], name: str) -> None:
    """No word LibreOffice prints is broken across lines (`pdftotext -bbox`): where a line
    ends and the next begins, the two pieces never join into one word of the slide (a
    figure "1,000,00|0", a unit "tokens/se|c", a word "secon|d")."""
    pptx, pdf = template_decks[name]
    bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                          text=True, timeout=60, check=True).stdout
    pages = re.findall(r"<page .*?</page>", bbox, re.S)
    slides = list(Presentation(str(pptx)).slides)
    assert len(pages) == len(slides)
    for number, (slide, page) in enumerate(zip(slides, pages, strict=True), 1):
        text = "\n".join(f.text for s in slide.shapes for f in
                         ([c.text_frame for r in s.table.rows for c in r.cells] if s.has_table
                          else [s.text_frame] if s.has_text_frame else []))
        words = {w for w in re.split(r"[\s\u00a0]+", text.lower()) if w}
        printed = [(float(y0), float(y1), html.unescape(w).lower()) for y0, y1, w in re.findall(
            r'<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">(.*?)</word>', page)]
        for (_, end_y, end), (start_y, _, start) in zip(printed, printed[1:], strict=False):
            if start_y < end_y - 1 or end.endswith(("-", "/", "\u2014")) or len(end) < 2:
                continue  # the same line, a break the text allows, or letter-spaced capitals
            joined = end + start
            assert not any(joined in w for w in words), (name, number, end, start)


@functools.lru_cache(maxsize=8)
def _picture(blob: bytes) -> Any:
    """A background picture decoded to RGB once, for every box on every slide it is under."""
    from PIL import Image

    return Image.open(io.BytesIO(blob)).convert("RGB")


def _drawn_share(slide, box: tuple[int, int, int, int]) -> float:  # noqa: ANN001
    """The share of `box` where the slide's background picture (its layout's or master's)
    draws: pixels far from the box's most common shade; 0 without a picture."""
    for owner in (slide.slide_layout, slide.slide_layout.slide_master):
        bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
        if bg is None:
            continue
        blip = bg.find(f".//{qn('a:blip')}")
        if blip is None:
            return 0.0
        image = _picture(owner.part.related_part(blip.get(qn("r:embed"))).blob)
        width, height = slide.part.package.presentation_part.presentation.slide_width, \
            slide.part.package.presentation_part.presentation.slide_height
        w, h = image.size
        x0, y0, x1, y1 = box
        crop = image.crop((max(0, x0 * w // width), max(0, y0 * h // height),
                           min(w, max(x0 * w // width + 1, x1 * w // width)),
                           min(h, max(y0 * h // height + 1, y1 * h // height))))
        pixels = list(crop.resize((48, 24)).get_flattened_data())
        coarse = [(r // 32, g // 32, b // 32) for r, g, b in pixels]
        ground = pixels[coarse.index(max(set(coarse), key=coarse.count))]
        far = [p for p in pixels
               if sum((a - b) ** 2 for a, b in zip(p, ground, strict=True)) >= DRAWN ** 2]
        return len(far) / len(pixels)
    return 0.0


@pytest.mark.slow
@pytest.mark.soffice
@pytest.mark.parametrize("name", TEMPLATES)
def test_template_decks_keep_text_off_artwork_and_share_one_title_size(
        template_decks: dict[str, tuple[Path, Path]], name: str) -> None:
    """No title, kicker or content box sits on a picture of its layout or master or on the
    drawing in its background picture (unless a panel backs it); the content slides'
    titles share one size."""
    pptx, _ = template_decks[name]
    slides = list(Presentation(str(pptx)).slides)
    sizes = set()
    for number, slide in enumerate(slides, 1):
        backed = any(s.name == "Backdrop" for s in slide.shapes)
        pictures = [(int(s.left), int(s.top), int(s.left + s.width), int(s.top + s.height))
                    for owner in (slide.slide_layout, slide.slide_layout.slide_master)
                    for s in owner.shapes if s.shape_type == 13]  # MSO_SHAPE_TYPE.PICTURE
        for shape in slide.shapes:
            if shape.name in ("Backdrop", "Footer", "Slide number") or (
                    shape.is_placeholder and shape.placeholder_format.type in (
                        PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER,
                        PP_PLACEHOLDER.DATE)):
                continue
            box = (int(shape.left), int(shape.top), int(shape.left + shape.width),
                   int(shape.top + shape.height))
            for p in pictures:
                inside = max(0, min(box[2], p[2]) - max(box[0], p[0])) * \
                    max(0, min(box[3], p[3]) - max(box[1], p[1]))
                assert backed or inside == 0, (name, number, shape.name, "on a picture")
            if number > 1 and not backed:
                assert _drawn_share(slide, box) <= 0.05, (name, number, shape.name)
        if number > 1:
            title = next(s for s in slide.shapes if s.name == "Title" or (
                s.is_placeholder and s.placeholder_format.type == PP_PLACEHOLDER.TITLE))
            sizes |= {r.font.size for p in title.text_frame.paragraphs for r in p.runs}
    assert len(sizes) == 1, (name, sizes)


def test_a_two_line_title_never_ends_on_one_short_word(content: Content) -> None:
    """A title whose last line would hold one short word has it held to the word before it
    (a no-break space): slide 14's breaks as "... before you ask / for more", never
    "... / more"; a title on one line keeps its plain spaces."""
    plans = arranged_of(deckgen.story.compose(content))
    titles = {p.kind: p.title[0].text for p in plans}
    assert titles["checklist"].endswith("ask for\u00a0more")
    assert titles["meanings"] == "One number, four meanings"


def test_a_placeholder_colour_that_does_not_read_is_replaced_in_the_deck_too(
        content: Content) -> None:
    """A template whose title style is white on its white slides: the titles take the theme's
    text colour, and the deck writes it (it kept the white before, while the slides PDF drew
    black)."""
    story = deckgen.story.compose(content)
    entries = parts_of()
    master = "ppt/slideMasters/slideMaster1.xml"
    title_style = entries[master].index(b"<p:titleStyle>")
    white = entries[master].index(b'<a:schemeClr val="tx1"/>', title_style)
    entries[master] = (entries[master][:white] + b'<a:srgbClr val="FFFFFF"/>'
                       + entries[master][white + len(b'<a:schemeClr val="tx1"/>'):])
    template = packed(entries)
    deck: Any = placed_of(story, template)
    titled = [shape for shape in deck.slides[1].shapes
              if getattr(shape, "name", "").startswith("Title")]
    assert titled, [getattr(shape, "name", "") for shape in deck.slides[1].shapes]
    colours = {run.colour.value if run.colour else None
               for paragraph in titled[0].paragraphs for run in paragraph.runs}
    assert colours == {"#000000"}
    written = Presentation(io.BytesIO(deck_of(story, template))).slides[1].shapes.title
    fills = {run.font.color.rgb for paragraph in written.text_frame.paragraphs
             for run in paragraph.runs}
    assert {str(fill) for fill in fills} == {"000000"}


def test_a_master_that_swaps_its_colour_map_is_drawn_light_on_dark(content: Content) -> None:
    """A dark master maps text to the theme's light slot and backgrounds to its dark one
    (`bg1="dk1" tx1="lt1"`): the slides PDF draws what the deck shows, light text on a dark
    ground, and the charts name the same theme colours as the slides (tx1, not dk1)."""
    from deckgen.colour import contrast

    story = deckgen.story.compose(content)
    entries = parts_of()
    master = "ppt/slideMasters/slideMaster1.xml"
    default = b'bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2"'
    assert default in entries[master]
    entries[master] = entries[master].replace(default, b'bg1="dk1" tx1="lt1" bg2="dk2" tx2="lt2"')
    template = packed(entries)
    deck: Any = placed_of(story, template)
    theme = entries["ppt/theme/theme1.xml"].decode()
    dark = "#" + re.search(r'<a:dk1>.*?(?:val|lastClr)="([0-9A-F]{6})"', theme, re.S)[1]
    for slide in deck.slides[1:4]:
        assert slide.ground.fill == dark
        on_ground = [shape for shape in slide.shapes if hasattr(shape, "paragraphs")
                     and shape.fill is None]  # a badge's text sits on its own fill
        spans = [span for shape in on_ground for paragraph in shape.paragraphs
                 for line in paragraph.lines for span in line.spans]
        assert spans
        assert all(contrast(span.colour.value, dark) >= 4.5 for span in spans), slide.title
    with zipfile.ZipFile(io.BytesIO(deck_of(story, template))) as built:
        charts = [built.read(name).decode() for name in built.namelist()
                  if name.startswith("ppt/charts/chart")]
    assert charts and not any(re.search(r'schemeClr val="(dk1|lt1|dk2|lt2)"', c) for c in charts)


def _with_numbered_master(hidden: bool) -> bytes:
    """python-pptx's template with a slide number drawn by the master's artwork (a text box
    holding a slide-number field, not a placeholder), its layouts hiding the master's
    artwork when `hidden`."""
    entries = parts_of()
    master = "ppt/slideMasters/slideMaster1.xml"
    number = (b'<p:sp><p:nvSpPr><p:cNvPr id="99" name="Number art"/><p:cNvSpPr txBox="1"/>'
              b'<p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="8300000" y="6300000"/>'
              b'<a:ext cx="600000" cy="300000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/>'
              b'</a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p>'
              b'<a:fld id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}" type="slidenum">'
              b'<a:rPr lang="en-US"/><a:t>1</a:t></a:fld></a:p></p:txBody></p:sp>')
    entries[master] = entries[master].replace(b"</p:spTree>", number + b"</p:spTree>", 1)
    if hidden:
        for name in entries:
            if name.startswith("ppt/slideLayouts/slideLayout") and name.endswith(".xml"):
                entries[name] = entries[name].replace(b"<p:sldLayout ",
                                                      b'<p:sldLayout showMasterSp="0" ', 1)
    return packed(entries)


@pytest.mark.parametrize("hidden", [False, True])
def test_artwork_a_layout_hides_is_not_counted(content: Content, hidden: bool) -> None:
    """A master whose artwork numbers the slides: shown, the deck adds no number of its own;
    hidden by the layouts, the slides get their number (the hidden field counted before, and
    the slides went unnumbered) and the slides PDF draws none of that artwork."""
    story = deckgen.story.compose(content)
    deck: Any = placed_of(story, _with_numbered_master(hidden))
    for slide in deck.slides[1:]:
        numbered = [shape for shape in slide.shapes
                    if getattr(shape, "name", "").startswith("Slide number")]
        assert bool(numbered) == hidden, slide.title
        numbers_drawn = [art for art in slide.ground.art if art.number]
        assert bool(numbers_drawn) != hidden, slide.title


@pytest.mark.parametrize("prefix", ["a:", "d:", ""])
def test_the_theme_is_written_anew_under_any_drawingml_prefix(prefix: str) -> None:
    """A theme may bind DrawingML to any prefix, or make it the default namespace; the new
    colours, fonts and name land all the same (a theme not using `a:` kept its old colours
    in the deck before, while the slides PDF drew the new ones)."""
    from deckgen import template

    xml = parts_of()["ppt/theme/theme1.xml"].decode()
    declared = "xmlns" + (":" + prefix[:-1] if prefix else "")
    xml = xml.replace('xmlns:a="', f'{declared}="').replace("<a:", f"<{prefix}")
    xml = xml.replace("</a:", f"</{prefix}")
    written = template.themed(xml, {"dk1": "#123456"}, heading="Heading Face",
                              body="Body Face", name="Talk")
    assert f'<{prefix}dk1><{prefix}srgbClr val="123456"/></{prefix}dk1>' in written
    assert f'<{prefix}majorFont><{prefix}latin typeface="Heading Face"' in written
    assert f'<{prefix}minorFont><{prefix}latin typeface="Body Face"' in written
    assert f'<{prefix}clrScheme name="Talk"' in written
    assert written.count('"123456"') == 1


def test_the_theme_fonts_are_written_wherever_the_typeface_stands() -> None:
    """A latin font whose typeface comes after another attribute, or in single quotes,
    gets the new face too (it kept the old one before)."""
    from deckgen import template

    xml = ('<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
           '<a:fontScheme name="F"><a:majorFont><a:latin panose="020F0302020204030204" '
           'typeface="Calibri Light"/></a:majorFont><a:minorFont><a:latin typeface=\'Calibri\' '
           'panose="1"/></a:minorFont></a:fontScheme></a:theme>')
    written = template.themed(xml, heading="Arial", body="O'Brien Sans")
    assert 'panose="020F0302020204030204" typeface="Arial"/>' in written
    assert "<a:latin typeface='O&apos;Brien Sans' panose=\"1\"/>" in written
