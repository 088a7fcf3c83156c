"""The deck's native charts, read back with python-pptx, against the dial math done by hand.

Three dials: the default (1,000,000 tokens/sec, a 60 s check), 2,500 tokens/sec with a 15 min
check (the critiqued candidates featured), and 40,000 tokens/sec with a 1 h check, which is
not one of the presets. Then the texts around the charts: the chosen check's row, the "how"
lines, no check at all, a speed below the slow speed, and the palette in greyscale.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, only_file, run_in, shared_build
from pptx import Presentation
from pptx.enum.chart import XL_CHART_TYPE
from pptx.enum.dml import MSO_THEME_COLOR
from pptx.oxml.ns import qn
from pptx.util import Pt

import deckgen.story
from deckgen import fmt, source
from deckgen.figures import with_overrides

pytestmark = pytest.mark.slow


def build(out: Path, *args: str) -> Path:
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "deck", "--out", str(out), *args)
    assert run.returncode == 0, run.stderr
    return only_file(out, ".pptx")


@pytest.fixture(scope="module")
def default_deck(default_build: Path):
    return Presentation(str(only_file(default_build, ".pptx")))


@pytest.fixture(scope="module")
def other_deck(other_build: Path):
    return Presentation(str(only_file(other_build, ".pptx")))


@pytest.fixture(scope="module")
def hour_deck(tmp_path_factory: pytest.TempPathFactory):
    """40,000 tokens/sec and a 1 h check: not a preset."""
    return Presentation(str(only_file(shared_build(
        tmp_path_factory, "hour-deck", "--only", "deck", "--speed", "40K", "--check", "1 h"),
        ".pptx")))


def frames(deck) -> list:  # noqa: ANN001
    """(slide number, frame) for every native chart, in slide order."""
    return [(n, shape) for n, slide in enumerate(deck.slides, 1) for shape in slide.shapes
            if getattr(shape, "has_chart", False) and shape.has_chart]


def chart_on(deck, number: int):  # noqa: ANN001
    [frame] = [f for n, f in frames(deck) if n == number]
    return frame.chart


def xy(series) -> list[tuple[float, float]]:  # noqa: ANN001
    xs = [float(v.text) for v in series._element.find(qn("c:xVal")).iter(qn("c:v"))]
    return list(zip(xs, [float(v) for v in series.values], strict=True))


def is_log(axis) -> bool:  # noqa: ANN001
    base = axis._element.find(qn("c:scaling")).find(qn("c:logBase"))
    return base is not None and base.get("val") == "10"


def label(point) -> str:  # noqa: ANN001
    return point.data_label.text_frame.text


def approx(pairs: list[tuple[float, float]]) -> list:
    return [pytest.approx(p, rel=1e-9) for p in pairs]


# --- the charts, by hand ---------------------------------------------------------------------


def test_three_native_charts_on_their_slides(default_deck) -> None:
    # The writing chart has a slide of its own (5), the bars are on 10, the ceiling on 12.
    assert [n for n, _ in frames(default_deck)] == [5, 10, 12]
    types = [f.chart.chart_type for _, f in frames(default_deck)]
    # The line charts are scatter charts with lines (python-pptx names a scatter chart whose
    # markers are set point by point plain XY_SCATTER); the bars are stacked to 100%.
    assert types[1] == XL_CHART_TYPE.BAR_STACKED_100
    for k in (0, 2):
        assert types[k] in (XL_CHART_TYPE.XY_SCATTER, XL_CHART_TYPE.XY_SCATTER_LINES)
        chart = frames(default_deck)[k][1].chart
        assert type(chart.plots[0]).__name__ == "XyPlot"
        assert all(s.format.line.width >= Pt(2) for s in list(chart.plots[0].series)[:4])
    for _, frame in frames(default_deck):  # a real chart part with its workbook: Edit Data
        assert frame.chart.part.chart_workbook.xlsx_part is not None


def test_writing_chart_default(default_deck) -> None:
    chart = chart_on(default_deck, 5)
    assert is_log(chart.category_axis) and is_log(chart.value_axis)
    assert chart.category_axis.minimum_scale == 100 and chart.category_axis.maximum_scale == 1e6
    # 0.8 s (800,000 / 1M) is the least time: the axis starts at 0.1 s; 100,000 s the most.
    assert chart.value_axis.minimum_scale == 0.1 and chart.value_axis.maximum_scale == 1e5
    series = {s.name: s for s in chart.plots[0].series}
    assert list(series) == ["1,000 story endings", "40 app drafts", "10,000 critiqued candidates",
                            "10,000 rehearsals", "Our dial: 1M", "1,000 story endings at 1M"]
    # tokens / speed at 100 and at 1,000,000 tokens/sec
    assert xy(series["1,000 story endings"]) == approx([(100, 10_000), (1e6, 1)])
    assert xy(series["40 app drafts"]) == approx([(100, 8_000), (1e6, 0.8)])
    assert xy(series["10,000 critiqued candidates"]) == approx([(100, 30_000), (1e6, 3)])
    assert xy(series["10,000 rehearsals"]) == approx([(100, 100_000), (1e6, 10)])
    assert xy(series["Our dial: 1M"]) == approx([(1e6, 0.1), (1e6, 1e5)])
    dial = series["1,000 story endings at 1M"]
    assert xy(dial) == approx([(1e6, 1)])
    assert label(dial.points[0]) == "1 second"  # the table's text for the same figure
    # Readable from the back: 14 pt at least, on the ticks and on the labels.
    for axis in (chart.category_axis, chart.value_axis):
        assert axis.tick_labels.font.size >= Pt(14)
    assert dial.points[0].data_label.text_frame.paragraphs[0].runs[0].font.size >= Pt(14)


def test_writing_chart_marks_the_chosen_speed(hour_deck) -> None:
    chart = chart_on(hour_deck, 5)
    series = {s.name: s for s in chart.plots[0].series}
    # 1,000,000 tokens at 100, 40,000 and 1,000,000 tokens/sec: 10,000 s, 25 s, 1 s
    assert xy(series["1,000 story endings"]) == approx([(100, 10_000), (40_000, 25), (1e6, 1)])
    assert xy(series["Our dial: 40K"])[0][0] == 40_000
    assert label(series["1,000 story endings at 40K"].points[0]) == "25 seconds"
    slide = hour_deck.slides[3]
    assert slide.shapes.title.text_frame.text.replace("\u00a0", " ") == \
        "Every workload at 100 and 40,000 tokens/sec"  # its figures kept whole (no-break)


def test_bottleneck_bars_default(default_deck) -> None:
    chart = chart_on(default_deck, 10)
    plot = chart.plots[0]
    assert list(plot.categories) == ["100 tokens/sec: 2 h 14 min 20 s",
                                     "1,000,000 tokens/sec: 60.8 seconds"]
    writing, check = plot.series
    assert (writing.name, check.name) == ("Writing", "Fixed check")
    # 8,000 of 8,060 s and 0.8 of 60.8 s writing; 60 s of each total the check
    assert list(writing.values) == approx([8000 / 8060, 0.8 / 60.8])
    assert list(check.values) == approx([60 / 8060, 60 / 60.8])
    texts = [label(p) for s in plot.series for p in s.points if p.data_label.has_text_frame]
    assert "Writing 99.3%\nFixed check 0.7%" in texts and "Fixed check 98.7%\nWriting 1.3%" in texts
    # The check is hatched, so a grey printer still tells it from the writing.
    assert check.points[0].format.fill.pattern is not None


def test_ceiling_chart_default(default_deck) -> None:
    chart = chart_on(default_deck, 12)
    assert is_log(chart.category_axis) and is_log(chart.value_axis)
    series = {s.name: s for s in chart.plots[0].series}
    assert list(series) == ["Check none", "Check 60 seconds", "Check 15 min", "Check 24 h",
                            "Our dial: 1M", "Check 60 seconds at 1M"]
    sixty = xy(series["Check 60 seconds"])
    assert sixty[0] == pytest.approx((100, 1))  # the slow end against itself
    assert sixty[-1] == pytest.approx((1e6, 8060 / 60.8))  # 132.566...
    assert xy(series["Check none"])[-1] == pytest.approx((1e6, 10_000))
    # 24 h: (8,000 + 86,400) / (0.8 + 86,400) at 1M
    assert xy(series["Check 24 h"])[-1] == pytest.approx((1e6, 94_400 / 86_400.8))
    dial = series["Check 60 seconds at 1M"]
    assert xy(dial) == approx([(1e6, 8060 / 60.8)])
    assert label(dial.points[0]) == "132.57×"  # marked with the slide's own figure
    ends = {s.name: label(s.points[len(s.values) - 1]) for s in chart.plots[0].series
            if s.name.startswith("Check") and not s.name.endswith("1M")}
    assert ends["Check 60 seconds"] == "Check 60 seconds\nceiling 134.33×"  # 8,060 / 60
    assert ends["Check 15 min"] == "Check 15 min\nceiling 9.89×"  # 8,900 / 900
    assert _emphasised(series) == ["Check 60 seconds"]


def test_ceiling_chart_other_dial(other_deck) -> None:
    chart = chart_on(other_deck, 12)
    series = {s.name: s for s in chart.plots[0].series}
    dial = series["Check 15 min at 2.5K"]
    # (8,000 + 900) / (800,000 / 2,500 + 900) = 8,900 / 1,220 = 7.295...
    assert xy(dial) == approx([(2500, 8900 / 1220)])
    assert label(dial.points[0]) == "7.30×"
    assert _emphasised(series) == ["Check 15 min"]
    writing = {s.name: s for s in chart_on(other_deck, 5).plots[0].series}
    # 3,000,000 tokens at 2,500 tokens/sec: 1,200 s
    assert label(writing["10,000 critiqued candidates at 2.5K"].points[0]) == "20 min"


def test_the_chosen_check_gets_its_curve_and_its_row(hour_deck) -> None:
    chart = chart_on(hour_deck, 12)
    series = {s.name: s for s in chart.plots[0].series}
    assert list(series)[:5] == ["Check none", "Check 60 seconds", "Check 15 min", "Check 1 h",
                                "Check 24 h"]
    assert _emphasised(series) == ["Check 1 h"]
    # (8,000 + 3,600) / (800,000 / 40,000 + 3,600) = 11,600 / 3,620 = 3.204...
    dial = series["Check 1 h at 40K"]
    assert xy(dial) == approx([(40_000, 11_600 / 3_620)])
    assert label(dial.points[0]) == "3.20×"  # beside the 3.22× ceiling: one precision
    assert xy(series["Check 1 h"])[-1] == pytest.approx((1e6, 11_600 / 3_600.8))
    # The preset table gains the 1 h row, in its place by length, highlighted and bold.
    table = next(s for s in hour_deck.slides[10].shapes if s.has_table).table
    rows = [tuple(c.text_frame.text.replace("\u00a0", " ") for c in r.cells) for r in table.rows]
    assert rows[4] == ("1 h", "3 h 13 min 20 s", "1 h 20 s", "3.20×")
    assert [r[0] for r in rows] == ["Fixed check", "None", "60 seconds", "15 min", "1 h", "24 h"]
    filled = [i for i, r in enumerate(table.rows)
              if r.cells[0]._tc.tcPr is not None
              and r.cells[0]._tc.tcPr.find(qn("a:solidFill")) is not None]
    assert filled == [4]
    assert all(run.font.bold for c in table.rows[4].cells
               for p in c.text_frame.paragraphs for run in p.runs)
    big = "\n".join(s.text_frame.text for s in hour_deck.slides[9].shapes if s.has_text_frame)
    assert "11,600 ÷ 3,620\u00a0seconds" in big and "40,000 ÷ 100\u00a0tokens/sec" in big


def _emphasised(series: dict) -> list[str]:
    """The curves drawn in the accent, thicker: the dial's own."""
    return [name for name, s in series.items()
            if s.format.line.width == Pt(4)
            and s.format.line.color.theme_color == MSO_THEME_COLOR.ACCENT_1]


# --- no check, a slowdown --------------------------------------------------------------------


def test_no_check_shows_the_writing_speedup_alone(tmp_path: Path) -> None:
    deck = Presentation(str(build(tmp_path, "--speed", "3.3M", "--check", "0")))
    slide = deck.slides[9]
    assert [n for n, _ in frames(deck)] == [5, 12]  # no bars to split
    text = "\n".join(s.text_frame.text for s in slide.shapes if s.has_text_frame)
    assert "33,000×" in text and "3,300,000 ÷ 100\u00a0tokens/sec" in text
    assert "0.0%" not in text and "CHECK SHARE" not in text.upper()
    assert "END-TO-END" not in text.upper()
    notes = slide.notes_slide.notes_text_frame.text
    assert "33,000× faster end to end, the writing speedup itself" in notes
    assert "checking is" not in notes


def test_a_speed_below_the_slow_speed_builds_as_a_slowdown(tmp_path: Path) -> None:
    deck = Presentation(str(build(tmp_path, "--speed", "37")))
    text = "\n".join(s.text_frame.text for s in deck.slides[9].shapes if s.has_text_frame)
    # 37 / 100 = 0.37; (8,000 + 60) / (800,000 / 37 + 60) = 8,060 / 21,681.6 = 0.3717
    assert "0.37×" in text
    assert "37 ÷ 100\u00a0tokens/sec" in text and "8,060 ÷ 21,682\u00a0seconds" in text
    notes = deck.slides[9].notes_slide.notes_text_frame.text
    assert "0.37× end to end, slower than at 100 tokens/sec" in notes
    ceiling = {s.name: s for s in chart_on(deck, 12).plots[0].series}
    assert label(ceiling["Check 60 seconds at 37"].points[0]) == "0.37×"
    assert chart_on(deck, 12).category_axis.minimum_scale == 10  # the axis reaches 37


# --- the "how" lines -------------------------------------------------------------------------


def story(speed: str | None, check: str | None) -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(with_overrides(content, speed, check))


def _number(text: str) -> Fraction:
    return Fraction(text.replace(",", ""))


@pytest.mark.parametrize(("speed", "check", "writing", "end_to_end"), [
    (None, None, "1,000,000 ÷ 100 tokens/sec", "8,060 ÷ 60.8 seconds"),
    ("40K", "1 h", "40,000 ÷ 100 tokens/sec", "11,600 ÷ 3,620 seconds"),
    # 800,000 / 3,300,000 = 0.2424... s: "60.24" would give 8,060 / 60.24 = 133.8×, not 133.79×
    ("3.3M", "60 s", "3,300,000 ÷ 100 tokens/sec", "8,060 ÷ 60.242 seconds"),
    ("3.3M", "0", "3,300,000 ÷ 100 tokens/sec", None),
])
def test_each_how_line_gives_its_figure(speed: str | None, check: str | None, writing: str,
                                        end_to_end: str | None) -> None:
    b = story(speed, check).bottleneck
    shown = {f.key: (f.value, f.how.replace(fmt.NBSP, " ")) for f in b.figures}
    assert shown["writing_speedup"][1] == writing
    if end_to_end is None:
        assert list(shown) == ["writing_speedup"]
    else:
        assert shown["end_to_end_speedup"][1] == end_to_end
    for key in ("writing_speedup", "end_to_end_speedup"):
        if key in shown:
            value, how = shown[key]
            top, bottom = re.match(r"([\d,.]+) ÷ ([\d,.]+)", how).groups()  # type: ignore[union-attr]
            assert fmt.speedup(_number(top) / _number(bottom)) == value  # the sum shown works


@pytest.mark.parametrize("speed", ["7", "333", "2.5K", "1,777,777", "3.3M", "1.234567B"])
@pytest.mark.parametrize("check", ["1 s", "60 s", "7 min", "1 h"])
def test_the_division_shown_gives_the_figure_shown(speed: str, check: str) -> None:
    b = story(speed, check).bottleneck
    for f in b.figures[:2]:
        top, bottom = re.match(r"([\d,.]+) ÷ ([\d,.]+)", f.how).groups()  # type: ignore[union-attr]
        assert fmt.speedup(_number(top) / _number(bottom)) == f.value, f.how


# --- the palette in greyscale ----------------------------------------------------------------


def _lightness(colour: str) -> float:
    """CIE L* of an sRGB colour (D65)."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    f = y ** (1 / 3) if y > (6 / 29) ** 3 else y / (3 * (6 / 29) ** 2) + 4 / 29
    return 116 * f - 16


def test_lightness_formula_by_hand() -> None:
    assert _lightness("#FFFFFF") == pytest.approx(100, abs=0.01)
    assert _lightness("#000000") == pytest.approx(0, abs=0.01)
    assert _lightness("#777777") == pytest.approx(50.03, abs=0.05)  # a known mid grey


def test_accent_and_muted_differ_in_lightness() -> None:
    theme = story(None, None).theme
    assert _lightness(theme.muted) - _lightness(theme.accent) >= 20  # 49.6 against 28.5


# --- LibreOffice prints them -----------------------------------------------------------------


@pytest.mark.soffice
@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftoppm") is None,
                    reason="LibreOffice (soffice) or pdftoppm is not installed")
def test_libreoffice_prints_every_chart(default_build: Path, tmp_path: Path,
                                        review_decks: Path, review_printed: Path) -> None:
    from PIL import Image

    path = only_file(default_build, ".pptx")
    deck = Presentation(str(path))
    # The default review deck is this deck, printed with the others in one LibreOffice run.
    assert (review_decks / "default-16x9.pptx").read_bytes() == path.read_bytes()
    pdf = review_printed / "default-16x9.pdf"
    assert pdf.exists(), sorted(review_printed.iterdir())
    dpi = 40
    for number, frame in frames(deck):
        stem = tmp_path / f"page{number}"
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile",
                        "-f", str(number), "-l", str(number), str(pdf), str(stem)],
                       check=True, timeout=120)
        page = Image.open(f"{stem}.png").convert("L")
        scale = page.width / deck.slide_width
        inset = 0.1
        box = (round((frame.left + inset * frame.width) * scale),
               round((frame.top + inset * frame.height) * scale),
               round((frame.left + (1 - inset) * frame.width) * scale),
               round((frame.top + (1 - inset) * frame.height) * scale))
        area = page.crop(box)
        inked = sum(area.histogram()[:200])  # pixels darker than light grey
        assert inked > 0.03 * area.width * area.height, f"slide {number}: the chart is blank"


def test_embedded_workbooks_carry_the_fixed_date(default_build: Path) -> None:
    """Edit Data opens a real workbook; it records the deck's fixed date, not the clock's, so
    two builds give the same bytes (tests/test_reproducible.py compares whole builds)."""
    import io
    import zipfile

    with zipfile.ZipFile(only_file(default_build, ".pptx")) as deck:
        books = [n for n in deck.namelist() if n.startswith("ppt/embeddings/")]
        assert len(books) == 3
        for name in books:
            with zipfile.ZipFile(io.BytesIO(deck.read(name))) as book:
                core = book.read("docProps/core.xml").decode()
                assert ">2000-01-01T00:00:00Z</dcterms:created>" in core
                assert ">2000-01-01T00:00:00Z</dcterms:modified>" in core
                assert "xl/worksheets/sheet1.xml" in book.namelist()


# --- label room, measured with the twin's metrics --------------------------------------------


def _charts() -> dict[str, deckgen.story.LineChart]:
    from deckgen import build

    content, _ = build.prepare(None, build.Options())
    return {s.kind: s.chart for s in deckgen.story.compose(content).slides
            if isinstance(s.chart, deckgen.story.LineChart)}


def _drawn(chart: deckgen.story.LineChart, width_in: float, height_in: float,
           font_pt: float = 16.0):
    """The chart placed alone in a box of that size, drawn as a native chart: the chart
    part, and the placed chart it follows."""
    from conftest import chart_placed

    from deckgen.paint.pptx.charts import add_chart

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    placed = chart_placed(chart, width_in, height_in, font_pt)
    return add_chart(slide, placed).chart, placed


def _plot(chart) -> dict[str, float]:  # noqa: ANN001
    manual = chart._chartSpace.chart.plotArea.find(qn("c:layout")).find(qn("c:manualLayout"))
    return {tag: float(manual.find(qn(f"c:{tag}")).get("val")) for tag in ("x", "y", "w", "h")}


def _major_unit(axis) -> float | None:  # noqa: ANN001
    unit = axis._element.find(qn("c:majorUnit"))
    return None if unit is None else float(unit.get("val"))


def test_the_legend_has_the_room_its_measured_names_need() -> None:
    """The writing chart's four lines end too close to label: a legend at the right, and the
    plot stops short of it by the widest name measured in Liberation Sans (Arial's twin) plus
    the key; the native chart's plot is where the plan put it. "10,000 critiqued candidates"
    at 16 pt is 2.72 in wide: 0.56 em for each of its 27 characters would have guessed
    3.36 in."""
    from deckgen import fonts

    chart, placed = _drawn(_charts()["writing_chart"], 12.0, 4.6)
    assert chart.has_legend and placed.placement.legend is not None
    widest = max(fonts.face().width(line.label, 16.0)
                 for line in _charts()["writing_chart"].lines)
    assert widest / 72 == pytest.approx(2.72, abs=0.005)
    plot = _plot(chart)
    left, top, right, bottom = placed.placement.margins
    assert (plot["x"], plot["w"]) == (pytest.approx(left, abs=1e-4),
                                      pytest.approx(1 - left - right, abs=1e-4))
    right_in = (1 - plot["x"] - plot["w"]) * 12.0
    assert right_in >= widest / 72 + 16.0 * 3 / 72 + 0.4


def test_end_labels_have_the_room_their_measured_text_needs() -> None:
    from deckgen import fonts

    spec = _charts()["ceiling"]
    chart, placed = _drawn(spec, 8.0, 4.6)
    assert not chart.has_legend and placed.placement.legend is None
    widest = max(fonts.face(bold=line.emphasis).width(part, 16.0)
                 for line in spec.lines for part in (line.label, line.asymptote_label))
    plot = _plot(chart)
    assert (1 - plot["x"] - plot["w"]) * 8.0 >= widest / 72 + 0.25
    names = [label(s.points[len(list(s.points)) - 1]) for s in chart.plots[0].series
             if s.name in {line.label for line in spec.lines}]
    assert names == [s.end_label.text for s in placed.placement.series]


def test_tick_labels_thin_out_on_a_small_chart() -> None:
    """Four decades from 100 to 1M; the widest label, "100K", is 0.519 in at 16 pt, so labels
    a decade apart need 0.669 in each with their gap. A 7 in chart's plot is 3.32 in wide
    (0.83 in a decade): every decade labelled. A 6 in chart's is 2.32 in (0.58 in a decade):
    every second decade (100, 10K, 1M), a major unit of 100 on the log axis, as planned."""
    from deckgen import fonts

    spec = _charts()["ceiling"]
    assert fonts.face().width("100K", 16.0) / 72 == pytest.approx(0.519, abs=0.001)
    wide, placed = _drawn(spec, 7.0, 4.5)  # tall enough for the end labels beside their lines
    assert _plot(wide)["w"] * 7.0 == pytest.approx(3.32, abs=0.01)
    assert _major_unit(wide.category_axis) is None and placed.placement.x_step == 1
    narrow, placed = _drawn(spec, 6.0, 4.5)
    assert _plot(narrow)["w"] * 6.0 == pytest.approx(2.32, abs=0.01)
    assert _major_unit(narrow.category_axis) == 100.0 and placed.placement.x_step == 2


def test_each_line_marks_its_ends_and_the_decades_in_its_own_marker(default_deck) -> None:
    """The marked points read back through python-pptx: a circle in the accent for the
    chosen check, every other line the marker of its place among the chart's lines in the
    muted colour, at each line's ends and at every tick (each decade, and the dial)."""
    from pptx.enum.chart import XL_MARKER_STYLE

    chart = chart_on(default_deck, 12)
    lines = [s for s in chart.plots[0].series if s.name.startswith("Check")
             and not s.name.endswith("1M")]
    decades = {10.0 ** k for k in range(2, 7)}  # 100 ... 1M; the dial is at 1M here
    shapes = []
    for series in lines:
        xs = [x for x, _ in xy(series)]
        points = series._element.findall(qn("c:dPt"))
        marked = [int(p.find(qn("c:idx")).get("val")) for p in points]
        assert marked == [k for k, x in enumerate(xs)
                          if k in (0, len(xs) - 1) or any(abs(x - d) < 1e-6 for d in decades)]
        assert len(marked) == 5  # 100, 1K, 10K, 100K and 1M
        first = series.points[marked[0]].marker
        shapes.append(first.style)
        for k in marked:
            marker = series.points[k].marker
            assert (marker.style, marker.size) == (first.style, first.size)
            assert marker.format.fill.fore_color.theme_color == \
                marker.format.line.color.theme_color
        emphasis = series.name == "Check 60 seconds"
        assert first.size == (9 if emphasis else 8)
        assert first.format.fill.fore_color.theme_color == \
            (MSO_THEME_COLOR.ACCENT_1 if emphasis else MSO_THEME_COLOR.TEXT_2)
        # the points are the series' children in python-pptx's order: after the marker
        children = [c.tag for c in series._element]
        assert children.index(qn("c:marker")) < children.index(qn("c:dPt"))
        assert max(i for i, t in enumerate(children) if t == qn("c:dPt")) < \
            children.index(qn("c:xVal"))
    assert shapes == [XL_MARKER_STYLE.SQUARE, XL_MARKER_STYLE.CIRCLE, XL_MARKER_STYLE.DIAMOND,
                      XL_MARKER_STYLE.X]


def test_a_short_ceiling_chart_takes_a_legend_not_labels_beside_the_wrong_lines() -> None:
    """At 4.5 in tall the ceiling's end labels sit each by its own line's end; at 2.2 in they
    would be pushed beside their neighbours' lines, so the plan takes a legend, and the
    native chart shows one."""
    spec = _charts()["ceiling"]
    assert not _drawn(spec, 7.0, 4.5)[0].has_legend
    assert _drawn(spec, 7.0, 2.2)[0].has_legend


@pytest.mark.soffice
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext is missing")
@pytest.mark.parametrize("dial", ["default", "40K", "3.3M"])
def test_libreoffice_prints_the_tick_labels_the_plan_placed(dial: str, review_printed: Path
                                                            ) -> None:
    """A native chart writes its own tick labels from the values and a number format; the
    printed chart shows exactly the labels the plan placed (and the slides PDF draws): the
    same texts, and no others, on each line chart's slide."""
    from dataclasses import replace as replaced

    from conftest import REVIEW_DIALS, placed_of, review_name

    from deckgen import build
    from deckgen.plan.placed import Chart, LinePlacement

    options = REVIEW_DIALS[dial]
    content, _ = build.prepare(None, replaced(options, aspect="16:9"))
    story = deckgen.story.compose(content)
    deck = placed_of(story)
    pdf = review_printed / f"{review_name(dial, '16:9')}.pdf"
    checked = 0
    for number, slide in enumerate(deck.slides, 1):  # type: ignore[attr-defined]
        for shape in slide.shapes:
            if not (isinstance(shape, Chart) and isinstance(shape.placement, LinePlacement)):
                continue
            page = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number), "-raw",
                                   str(pdf), "-"], capture_output=True, text=True,
                                  check=True).stdout
            shown = " " + " ".join(page.split()) + " "  # one space between words, NBSP too
            for tick in (*shape.placement.x_ticks, *shape.placement.y_ticks):
                text = " ".join(tick.label.text.split())
                assert f" {text} " in shown, (number, text, shown)
            checked += 1
    assert checked == 2  # the writing chart and the ceiling chart
