"""The deck at five dials and both aspects, as files and as LibreOffice draws them: sizes from the
type scale only, the theme's fonts resolved to their metric twin, and no word broken."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REVIEW_ASPECTS, REVIEW_DIALS, review_name

from deckgen import build
from deckgen.typeset.fit import TypeScale

DIALS = REVIEW_DIALS
ASPECTS = REVIEW_ASPECTS
CASES = [(d, a) for d in DIALS for a in ASPECTS]
FOOTER_PT = 12.0  # the footer and the slide number, outside the type scale
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


_name = review_name


@pytest.fixture(scope="module")
def decks(review_decks: Path) -> Path:
    """The ten decks, built in this process (once per run: tests/conftest.py)."""
    return review_decks


@pytest.fixture(scope="module")
def printed(review_printed: Path) -> Path:
    """The ten decks printed to PDF by LibreOffice, in one run (with the walk deck)."""
    assert all((review_printed / f"{_name(*case)}.pdf").exists() for case in CASES)
    return review_printed


def _frames(shape):  # noqa: ANN001, ANN202
    if shape.has_table:
        return [cell.text_frame for row in shape.table.rows for cell in row.cells]
    if shape.shape_type is not None and shape.shape_type == 6:  # a group (the QR code)
        return [f for s in shape.shapes for f in _frames(s)]
    return [shape.text_frame] if shape.has_text_frame else []


def _chart_words(chart) -> str:  # noqa: ANN001
    """Every text a native chart may print, from the story's chart model: its title, axis
    titles, tick labels (which the chart draws from its number formats), series and end
    labels, the dial's marked value and rule, the bars' labels and shares."""
    import deckgen.story

    if isinstance(chart, deckgen.story.BarChart):
        return "\n".join([chart.title] + [b.label for b in chart.bars] +
                          [f"{g.name} {g.label}" for b in chart.bars for g in b.segments])
    return "\n".join([chart.title, chart.x_label, chart.y_label, chart.marker_label] +
                      [t.label for t in chart.x_ticks + chart.y_ticks] +
                      [f"{line.label} {line.asymptote_label}" for line in chart.lines] +
                      [m.label for m in chart.marks])


def _is_footer(shape) -> bool:  # noqa: ANN001
    from pptx.enum.shapes import PP_PLACEHOLDER

    if shape.is_placeholder:
        return shape.placeholder_format.type in (PP_PLACEHOLDER.FOOTER,
                                                 PP_PLACEHOLDER.SLIDE_NUMBER)
    return shape.name in ("Footer", "Slide number")


@pytest.mark.slow
@pytest.mark.parametrize(("dial", "aspect"), CASES)
def test_the_deck_uses_the_type_scale_only(decks: Path, dial: str, aspect: str) -> None:
    from pptx import Presentation

    deck = Presentation(str(decks / f"{_name(dial, aspect)}.pptx"))
    scale = TypeScale.for_height(deck.slide_height / 12700).every_size
    used: set[float] = set()
    for number, slide in enumerate(deck.slides, 1):
        for shape in slide.shapes:
            footer = _is_footer(shape)
            for frame in _frames(shape):
                for r in frame._txBody.iter(f"{A}rPr"):
                    size = int(r.get("sz", "0")) / 100
                    if footer:
                        assert size in (0, FOOTER_PT), (number, shape.name, size)
                    else:
                        assert size in scale, (number, shape.name, size)
                        used.add(size)
            if shape.has_chart:  # a native chart's every text size, from the same scale
                chart_xml = shape.chart.part._element
                sizes = [int(r.get("sz")) / 100 for tag in ("rPr", "defRPr")
                         for r in chart_xml.iter(f"{A}{tag}") if r.get("sz")]
                assert sizes, (number, shape.name)
                for size in sizes:
                    assert size in scale, (number, shape.name, size)
                    used.add(size)
    assert len(used) <= 7  # the six sizes and the step between display and title
    assert min(used) >= 14


def _tokens(text: str) -> set[str]:
    """Words, cut where a line may break (spaces, no-break spaces, after a hyphen or slash)."""
    out = set()
    for word in re.split(r"[\s\u00a0]+", text.lower()):
        out |= {w for w in re.split(r"(?<=[-/])", word) if w}
    return out


@pytest.mark.slow
@pytest.mark.soffice
@pytest.mark.parametrize(("dial", "aspect"), CASES)
def test_libreoffice_breaks_no_word(decks: Path, printed: Path, dial: str, aspect: str) -> None:
    """Every word LibreOffice prints on a page is a whole word of that slide's text, or of
    its native charts' texts (the story's chart model, found by the chart's title). The
    pages' text is poppler's in content order (`pdftotext -raw`: the words pypdf reads, on
    every page of the review decks, at a tenth of the time), a line break where each line
    ends."""
    from pptx import Presentation

    import deckgen.story

    name = _name(dial, aspect)
    deck = Presentation(str(decks / f"{name}.pptx"))
    pages = subprocess.run(["pdftotext", "-raw", str(printed / f"{name}.pdf"), "-"],
                           capture_output=True, text=True, timeout=60,
                           check=True).stdout.split("\f")
    assert pages.pop() == ""  # each page ends with a form feed
    assert len(pages) == len(deck.slides)
    story = deckgen.story.compose(build.prepare(None, replace(DIALS[dial], aspect=aspect))[0])
    by_title = {c.title: c for c in story.charts}
    for number, (slide, page) in enumerate(zip(deck.slides, pages, strict=True), 1):
        text = "\n".join(f.text for s in slide.shapes for f in _frames(s))
        for s in slide.shapes:
            if s.has_chart:
                title = s._element.nvGraphicFramePr.cNvPr.get("title")
                text += "\n" + _chart_words(by_title[title])
        expected = _tokens(text) | {str(number)}
        printed_words = _tokens(page)
        stray = printed_words - expected
        assert not stray, (number, sorted(stray))


@pytest.mark.skipif(shutil.which("fc-match") is None, reason="fontconfig is not installed")
def test_the_theme_fonts_resolve_to_their_metric_twin() -> None:
    theme = build.prepare(None, build.Options())[0].theme
    assert {theme.heading_font, theme.body_font} == {"Arial"}
    for family in (theme.heading_font, theme.body_font):
        run = subprocess.run(["fc-match", "-f", "%{family}", family], capture_output=True,
                             text=True, timeout=30)
        assert "Liberation Sans" in run.stdout, (family, run.stdout)
