"""The handout read where its words stand on the page (pdftotext's boxes): the talk's order,
each checklist step under its own heading, one sheet, nothing overlapping or in the margins.

The sheet follows the talk: 01 (the four meanings), the dial and the workloads, 02, 03, 04,
05 and the sources. The headings are the content file's own words, as printed."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT, only_file, run_in

pytestmark = [pytest.mark.slow,  # each case builds handouts
              pytest.mark.skipif(shutil.which("pdftotext") is None,
                                 reason="pdftotext (poppler-utils) is not installed")]

MM = 72 / 25.4
XHTML = "{http://www.w3.org/1999/xhtml}"
GERMAN = ROOT / "content.de.yaml"


@dataclass(frozen=True)
class Talk:
    headings: tuple[str, ...]  # each section's first line on the sheet, in the talk's order
    steps: tuple[str, ...]  # the checklist's steps
    write_ins: tuple[str, ...]  # the label before each step's lines


ENGLISH = Talk(
    headings=("01 / WHAT THE NUMBER MEANS", "TRY IT / THE IMAGINED DIAL", "Every workload at",
              "02 / THOUGHT EXPERIMENTS", "03 / THE SERIAL BOTTLENECK",
              "04 / WHAT GETS PRECIOUS", "05 / USE IT THIS WEEK", "SOURCES AND LIMITS"),
    steps=("Write down what done means", "Set your criteria before you read the options",
           "Find the slow step", "Ask for disagreement, not more drafts"),
    write_ins=("Done means:", "My criteria:", "The slow step:", "Assumptions to vary:"))
DEUTSCH = Talk(
    headings=("01 / WAS DIE ZAHL BEDEUTET", "AUSPROBIEREN / DER GEDACHTE REGLER",
              "Jede Aufgabe bei", "02 / GEDANKENEXPERIMENTE", "03 / DER SERIELLE ENGPASS",
              "04 / WAS KOSTBAR WIRD", "05 / DIESE WOCHE ANWENDEN", "QUELLEN UND GRENZEN"),
    steps=("Schreiben Sie auf, was fertig heißt",
           "Legen Sie Kriterien fest, bevor Sie die Optionen lesen",
           "Finden Sie den langsamen Schritt",
           "Bitten Sie um Widerspruch, nicht um mehr Entwürfe"),
    write_ins=("Fertig heißt:", "Meine Kriterien:", "Der langsame Schritt:",
               "Annahmen zum Variieren:"))

# Each build: its content, its talk's words and the command line's options.
BUILDS = {
    "a4": (DEFAULT_CONTENT, ENGLISH, ()),
    "letter": (DEFAULT_CONTENT, ENGLISH, ("--paper", "letter")),
    "german-a4": (GERMAN, DEUTSCH, ()),
    "german-letter": (GERMAN, DEUTSCH, ("--paper", "letter")),
    "speed-100": (DEFAULT_CONTENT, ENGLISH, ("--speed", "100")),
    "check-2h30m-letter": (DEFAULT_CONTENT, ENGLISH, ("--check", "2h30m", "--paper", "letter")),
    "german-2500-letter": (GERMAN, DEUTSCH, ("--speed", "2500", "--check", "15 min",
                                             "--workload", "candidates", "--paper", "letter")),
}


@dataclass(frozen=True)
class Line:
    """A line of text as pdftotext sees it: its page (0 the front) and box in points, from
    the page's top left."""

    page: int
    text: str
    left: float
    top: float
    right: float
    bottom: float


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    lines: list[Line]
    words: list[Line]


def read_pages(pdf: Path) -> list[Page]:
    run = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True)
    pages = []
    for number, page in enumerate(ET.fromstring(run.stdout).iter(f"{XHTML}page")):
        lines = [_box(number, line, " ".join((w.text or "").replace("\u00a0", " ")
                                             for w in line.iter(f"{XHTML}word")))
                 for line in page.iter(f"{XHTML}line")]
        words = [_box(number, w, w.text or "") for w in page.iter(f"{XHTML}word")]
        pages.append(Page(float(page.attrib["width"]), float(page.attrib["height"]), lines,
                          words))
    return pages


def _box(page: int, element: ET.Element, text: str) -> Line:
    return Line(page, text, *(float(element.attrib[k]) for k in ("xMin", "yMin", "xMax", "yMax")))


def find(pages: list[Page], text: str) -> Line:
    """The first line that starts `text` (a text longer than its line goes on below it)."""
    for page in pages:
        for line in page.lines:
            if line.text and (line.text.startswith(text) or
                              (len(line.text) > 8 and text.startswith(line.text))):
                return line
    raise AssertionError(f"{text!r} is not on the sheet")


def after(first: Line, then: Line) -> bool:
    """Whether `then` comes after `first` in reading order: on a later page, lower down, or
    level with it in a column to its right."""
    if then.page != first.page:
        return then.page > first.page
    if abs(then.top - first.top) < 2:
        return then.left > first.right
    return then.top > first.bottom - 0.5


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Talk, list[Page]]]:
    built = {}
    for name, (content, talk, options) in BUILDS.items():
        out = tmp_path_factory.mktemp(name)
        run = run_in("build", str(content), "--only", "handout", "--out", str(out), *options)
        assert run.returncode == 0, run.stderr
        built[name] = (talk, read_pages(only_file(out, ".pdf")))
    return built


@pytest.mark.parametrize("name", BUILDS)
def test_one_sheet_two_pages(sheets: dict[str, tuple[Talk, list[Page]]], name: str) -> None:
    _, pages = sheets[name]
    assert len(pages) == 2


@pytest.mark.parametrize("name", BUILDS)
def test_sections_in_the_talks_order(sheets: dict[str, tuple[Talk, list[Page]]],
                                     name: str) -> None:
    """01, the dial, the workloads and 02 open on the front; 03 follows (its heading on
    either side); 04, 05 and the sources follow on the back, each after the one before."""
    talk, pages = sheets[name]
    found = [find(pages, heading) for heading in talk.headings]
    for first, then in zip(found, found[1:], strict=False):
        assert after(first, then), (first, then)
    assert [line.page for line in found[:4]] == [0, 0, 0, 0]
    assert [line.page for line in found[5:]] == [1, 1, 1]


@pytest.mark.parametrize("name", BUILDS)
def test_each_checklist_step_sits_under_its_own_heading(
        sheets: dict[str, tuple[Talk, list[Page]]], name: str) -> None:
    """Every step is on the page of the checklist's heading, below it and above the next
    section's heading, never at the top of a column beside or above its heading; its lines
    to write on follow it in its own column, before the next step there."""
    talk, pages = sheets[name]
    heading, following = find(pages, talk.headings[-2]), find(pages, talk.headings[-1])
    steps = [find(pages, step) for step in talk.steps]
    for step in steps:
        assert step.page == heading.page, step
        assert step.top > heading.bottom, (heading, step)
        if following.page == heading.page:
            assert step.bottom < following.top, (step, following)
    page = pages[heading.page]
    for i, (step, label) in enumerate(zip(steps, talk.write_ins, strict=True)):
        written = [line for line in page.lines if line.text.startswith(label)
                   and line.top > step.bottom and abs(line.left - step.left) < 3 * MM]
        assert written, (step, label)
        below = [s for s in steps[i + 1:] if abs(s.left - step.left) < 3 * MM]
        if below:
            assert written[0].bottom < below[0].top, (label, below[0])


@pytest.mark.parametrize("name", BUILDS)
def test_no_words_overlap_and_none_in_the_margins(sheets: dict[str, tuple[Talk, list[Page]]],
                                                  name: str) -> None:
    """Every word clear of every other, inside the 12 mm margins, and no smaller than
    8.5 pt text (pdftotext boxes a word of Liberation Sans 0.939 em tall)."""
    _, pages = sheets[name]
    for page in pages:
        words = sorted(page.words, key=lambda w: w.top)
        for i, word in enumerate(words):
            assert 12 * MM - 1 <= word.left and word.right <= page.width - 12 * MM + 1, word
            assert 12 * MM - 1 <= word.top and word.bottom <= page.height - 12 * MM + 1, word
            assert word.bottom - word.top >= 8.5 * 0.938, word
            for other in words[i + 1:]:
                if other.top >= word.bottom - 0.3:
                    break
                clear = (other.left >= word.right - 0.3 or word.left >= other.right - 0.3 or
                         other.top >= word.bottom - 0.3)
                assert clear, (word, other)
