"""The charts: exact sizes, the story's labels kept as text, and the same bytes every time."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from PIL import Image

import deckgen.story
from deckgen import colour, source
from deckgen.errors import RenderError
from deckgen.figures import with_overrides
from deckgen.paint import pictures as charts


@pytest.fixture(scope="module")
def story() -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(content)


@pytest.fixture(scope="module")
def other() -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(with_overrides(content, "2500", "15 min", "candidates"))


def svg_texts(data: bytes) -> list[str]:
    """The text of every <text> element in an SVG, unescaped."""
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", data.decode("utf-8"))]


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_the_same_input_gives_the_same_bytes(story: deckgen.story.Story, fmt: str) -> None:
    for chart in story.charts:
        first = charts.render(chart, story.theme, width_in=4, height_in=2.5, fmt=fmt, dpi=100,
                              font_pt=9)
        second = charts.render(chart, story.theme, width_in=4, height_in=2.5, fmt=fmt, dpi=100,
                               font_pt=9)
        assert first == second, chart.key


@pytest.mark.parametrize(("width_in", "height_in", "dpi"), [(11.5, 5.2, 200), (8.8, 4.6, 200),
                                                             (3.6, 2.3, 300)])
def test_png_is_exactly_the_size_asked_for(story: deckgen.story.Story, width_in: float,
                                           height_in: float, dpi: int) -> None:
    data = charts.render(story.chart("ceiling"), story.theme, width_in=width_in,
                         height_in=height_in, dpi=dpi, font_pt=16 if width_in > 5 else 8)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.size == (round(width_in * dpi), round(height_in * dpi))
    assert not any(key.lower() in ("software", "creation time") for key in image.info)


def test_svg_keeps_the_ceiling_charts_labels_as_text(story: deckgen.story.Story) -> None:
    chart = story.chart("ceiling")
    data = charts.render(chart, story.theme, width_in=3.6, height_in=2.3, fmt="svg", font_pt=8.5)
    texts = svg_texts(data)
    for tick in chart.x_ticks + chart.y_ticks:
        assert tick.label in texts
    assert {"1M", "10,000×", "Check 24 h", "ceiling 134.33×", "ceiling 9.89×",
            chart.x_label, chart.y_label} <= set(texts)
    assert "Check 60 seconds" in texts or {"Check", "60 seconds"} <= set(texts)  # maybe wrapped
    # The dial's own point is marked with its value, the story's figure (it used to be left
    # off the chart; the chart now always shows where the chosen dial is).
    assert "Our dial: 1M \u00b7 132.57×" in texts
    assert chart.marks[0].label == story.bottleneck.end_to_end_speedup == "132.57×"
    assert chart.title not in texts


def test_svg_has_no_date_and_sets_text_in_liberation_sans(story: deckgen.story.Story) -> None:
    data = charts.render(story.chart("writing_time"), story.theme, width_in=3.6, height_in=2.3,
                         fmt="svg", font_pt=8.5).decode("utf-8")
    assert "<dc:date>" not in data
    assert "font-family: 'Liberation Sans'" in data
    assert "font-weight: bold" in data and "font-weight: 700" not in data  # "ours" is bold
    assert "<dc:title>" not in data  # no title drawn or stored: the page has its heading


def test_writing_chart_labels_every_workload_and_the_dial(other: deckgen.story.Story) -> None:
    chart = other.chart("writing_time")
    texts = " ".join(svg_texts(charts.render(chart, other.theme, width_in=11.5, height_in=5.2,
                                             fmt="svg")))
    assert "Our dial: 2.5K" in texts
    for line in chart.lines:
        for word in line.label.split(" "):
            assert word in texts


def test_bar_chart_puts_every_segment_label_on_the_chart(story: deckgen.story.Story,
                                                         other: deckgen.story.Story) -> None:
    for each in (story, other):
        chart = each.chart("bottleneck")
        texts = svg_texts(charts.render(chart, each.theme, width_in=8.8, height_in=4.6, fmt="svg"))
        for bar in chart.bars:
            assert bar.label in texts
            for seg in bar.segments:
                assert f"{seg.name} {seg.label}" in texts
    assert "Fixed check 0.7%" in svg_texts(charts.render(story.chart("bottleneck"), story.theme,
                                                         width_in=3.6, height_in=2.3, fmt="svg",
                                                         font_pt=8.5))


def test_a_four_by_three_deck_size_renders(story: deckgen.story.Story) -> None:
    for chart in story.charts:
        data = charts.render(chart, story.theme, width_in=8.8, height_in=4.6, dpi=200)
        assert Image.open(io.BytesIO(data)).size == (1760, 920)


def test_small_segments_are_labelled_outside_their_bar(story: deckgen.story.Story) -> None:
    """'Fixed check 0.7%' cannot sit inside a 0.7% sliver: it goes under the bar, right-aligned."""
    data = charts.render(story.chart("bottleneck"), story.theme, width_in=8.8, height_in=4.6,
                         fmt="svg").decode("utf-8")
    tag = re.search(r"<text[^>]*>Fixed check 0\.7%</text>", data)
    assert tag is not None
    assert "text-anchor: end" in tag.group(0)


def test_bad_requests_are_render_errors(story: deckgen.story.Story) -> None:
    chart = story.chart("ceiling")
    with pytest.raises(RenderError, match="format"):
        charts.render(chart, story.theme, width_in=4, height_in=3, fmt="jpeg")
    with pytest.raises(RenderError, match="does not fit"):
        charts.render(chart, story.theme, width_in=1.0, height_in=0.6, font_pt=16)


@pytest.mark.parametrize(("ink", "paper", "ratio"), [("#000000", "#FFFFFF", 21.0),
                                                      ("#FFFFFF", "#FFFFFF", 1.0),
                                                      ("#1A1D21", "#FFFFFF", 16.9)])
def test_contrast_ratio(ink: str, paper: str, ratio: float) -> None:
    assert colour.contrast(ink, paper) == pytest.approx(ratio, abs=0.1)


def test_default_theme_text_colours_read_on_the_background(story: deckgen.story.Story) -> None:
    theme = story.theme
    for ink in (theme.text, theme.accent, theme.muted):
        assert colour.contrast(ink, theme.background) >= 4.5


# --- nothing clipped, nothing overlapping ---------------------------------------------------

Box = tuple[float, float, float, float]


def dialled(speed: str, check: str) -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(with_overrides(content, speed, check))


def outside(boxes: list[tuple[str, Box]], width_in: float, height_in: float) -> list[str]:
    """The texts that reach past the figure's edges (by more than a hair)."""
    return [text for text, (x0, y0, x1, y1) in boxes
            if x0 < -0.005 or y0 < -0.005 or x1 > width_in + 0.005 or y1 > height_in + 0.005]


def overlapping(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    clashes = []
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1:]:
            if min(ax1, bx1) - max(ax0, bx0) > 0.002 and min(ay1, by1) - max(ay0, by0) > 0.002:
                clashes.append((a, b))
    return clashes


@pytest.mark.parametrize(("speed", "check"), [("100", "0"), ("1M", "60s"), ("1B", "24 h"),
                                              ("1T", "60s")])
@pytest.mark.parametrize(("width_in", "height_in", "font_pt"), [
    (11.5, 5.2, 16), (8.8, 4.0, 16), (8.8, 2.6, 16), (3.6, 2.3, 8)])
def test_no_text_is_clipped_or_overlaps(speed: str, check: str, width_in: float,
                                        height_in: float, font_pt: float) -> None:
    story = dialled(speed, check)
    for chart in story.charts:
        boxes = charts.text_boxes(chart, story.theme, width_in=width_in, height_in=height_in,
                                  font_pt=font_pt)
        assert len(boxes) >= 6, chart.key
        assert outside(boxes, width_in, height_in) == [], chart.key
        assert overlapping(boxes) == [], chart.key


@pytest.mark.parametrize("height_in", [2.4, 2.25, 2.15])
def test_a_short_bar_chart_keeps_its_labels_on_the_page(height_in: float) -> None:
    """Under 2.5 in at 16 pt the bars get closer and thinner rather than losing their labels."""
    for story in (dialled("1M", "60s"), dialled("100", "0")):
        chart = story.chart("bottleneck")
        boxes = charts.text_boxes(chart, story.theme, width_in=9.0, height_in=height_in)
        texts = [text for text, _ in boxes]
        for bar in chart.bars:
            assert bar.label in texts
            for seg in bar.segments:
                assert f"{seg.name} {seg.label}" in texts
        assert outside(boxes, 9.0, height_in) == []
        assert overlapping(boxes) == []


def test_a_bar_chart_too_short_for_its_text_is_a_render_error() -> None:
    story = dialled("1M", "60s")
    # 2.08 in: the text's height is Liberation Sans's line box (1.117 em a line), as the layout
    # layer measures it; DejaVu Sans drawn by matplotlib needed 2.1 in.
    with pytest.raises(RenderError, match=r"does not fit in 9 x 1\.5 in at 16 pt text: "
                                          r"its bars and labels need 2\.08 in of height"):
        charts.render(story.chart("bottleneck"), story.theme, width_in=9.0, height_in=1.5)


def test_a_bar_label_wider_than_the_chart_wraps() -> None:
    story = dialled("1T", "0")
    chart = story.chart("bottleneck")
    label = chart.bars[1].label
    assert label == "1,000,000,000,000 tokens/sec: 0.0000008 seconds"
    # 4.8 in: in Liberation Sans (narrower than DejaVu Sans) the label is 5.04 in at 16 pt, so
    # it wraps on a chart narrower than that (it fitted 5.5 in once the charts left DejaVu).
    assert charts.face().width(label, 16) / 72 == pytest.approx(5.041, abs=1e-3)
    boxes = charts.text_boxes(chart, story.theme, width_in=4.8, height_in=4.6)
    assert label.replace("sec: ", "sec:\n") in [text for text, _ in boxes]
    assert outside(boxes, 4.8, 4.6) == []


def test_a_y_label_longer_than_the_chart_is_tall_goes_on_two_lines(
        story: deckgen.story.Story) -> None:
    chart = story.chart("ceiling")
    boxes = dict(charts.text_boxes(chart, story.theme, width_in=8.8, height_in=2.9))
    assert chart.y_label not in boxes
    x0, y0, x1, y1 = boxes["End-to-end\nspeedup (log scale)"]
    assert y1 - y0 > x1 - x0  # still upright beside the axis
    assert y0 >= 0 and y1 <= 2.9
    assert outside(list(boxes.items()), 8.8, 2.9) == []


def test_a_y_label_that_fits_beside_the_plot_stays_one_line(story: deckgen.story.Story) -> None:
    chart = story.chart("ceiling")
    boxes = dict(charts.text_boxes(chart, story.theme, width_in=11.5, height_in=5.2))
    x0, y0, x1, y1 = boxes[chart.y_label]
    assert y1 - y0 > 3 * (x1 - x0)
    assert 0 < y0 and y1 < 5.2


def test_with_no_room_beside_the_plot_the_y_label_sits_level_above_it() -> None:
    story = dialled("1T", "60s")
    chart = story.chart("ceiling")
    # 2.1 in: in Liberation Sans the label on two lines (1.94 in along) still stands beside a
    # 2.2 in chart; at 2.1 in it does not, and the chart's line labels still fit.
    boxes = dict(charts.text_boxes(chart, story.theme, width_in=12.0, height_in=2.1))
    x0, y0, x1, y1 = boxes[chart.y_label]
    assert x1 - x0 > 3 * (y1 - y0)  # level
    assert x0 < 0.2 and 2.1 - 0.2 < y1 <= 2.1  # top left
    assert overlapping(list(boxes.items())) == []


@pytest.mark.parametrize("speed", ["1B", "1T"])
def test_crowded_x_ticks_are_thinned_keeping_the_ends(speed: str) -> None:
    story = dialled(speed, "60s")
    for key in ("writing_time", "ceiling"):
        chart = story.chart(key)
        labels = [t.label for t in chart.x_ticks]
        boxes = charts.text_boxes(chart, story.theme, width_in=3.6, height_in=2.3, font_pt=8.5)
        shown = [text for text, _ in boxes if text in labels]
        assert shown[0] == labels[0] and shown[-1] == labels[-1]
        assert len(shown) < len(labels)  # some had to go
        assert overlapping([b for b in boxes if b[0] in labels]) == []


def test_roomy_x_ticks_all_stay(story: deckgen.story.Story) -> None:
    chart = story.chart("writing_time")
    labels = [t.label for t in chart.x_ticks]
    boxes = charts.text_boxes(chart, story.theme, width_in=11.5, height_in=5.2)
    assert [text for text, _ in boxes if text in labels] == labels


# --- one measurer: the layout layer's, in the shipped Liberation Sans -----------------------


def test_charts_measure_with_the_layout_layers_face() -> None:
    from deckgen import fonts
    from deckgen.typeset.text import Face

    for weight, style in (("normal", "regular"), ("bold", "bold")):
        own = Face.from_ttf("x", fonts.text_path(style).read_bytes())
        for text in ("Our dial: 1M \u00b7 132.57×", "Check 60 seconds", "ceiling 134.33×"):
            assert charts.face(weight).width(text, 16) == pytest.approx(own.width(text, 16))
    # Arial's advances, in 2048ths of an em: C 1479, h e 6 0 o n d 1139, c k s 1024, space 569.
    assert charts.face().em("Check 60 seconds") == pytest.approx(16849 / 2048)


def test_charts_draw_with_the_shipped_liberation_sans(story: deckgen.story.Story) -> None:
    """Every text of a chart is drawn from the shipped files, named by path, whatever copy of
    Liberation Sans the machine has installed."""
    from matplotlib.text import Text

    from deckgen import fonts
    from deckgen.paint.pictures.draw import _figure
    from deckgen.paint.pictures.page import _context

    with _context(8.5):
        figure = _figure(story.chart("ceiling"), story.theme, 3.6, 2.3, 100, 8.5)
        drawn = {(text.get_text(), text.get_fontproperties().get_file())
                 for text in figure.findobj(Text) if text.get_visible() and text.get_text()}
    shipped = {str(fonts.text_path("regular")), str(fonts.text_path("bold"))}
    assert {file for _, file in drawn} == shipped
    assert ("Speed (tokens/sec, log scale)", str(fonts.text_path("regular"))) in drawn
    assert ("Our dial: 1M \u00b7 132.57×", str(fonts.text_path("bold"))) in drawn


def test_a_character_liberation_sans_lacks_is_drawn_by_dejavu_sans() -> None:
    """matplotlib falls back from font to font by family name only: a text with a character
    Liberation Sans lacks is set by matplotlib's own lookup, which finds both faces."""
    from matplotlib import font_manager

    from deckgen import fonts
    from deckgen.paint.pictures.page import font

    plain, arabic = font("Check 60 s", "normal", 12), font("\u0623\u0644\u0641 s", "bold", 12)
    assert plain.get_file() == str(fonts.text_path("regular"))
    assert arabic.get_file() is None
    assert arabic.get_family() == [fonts.CHART_FAMILY, fonts.FAMILY]
    for family in arabic.get_family():
        found = font_manager.findfont(font_manager.FontProperties(family=family, weight="bold"),
                                      fallback_to_default=False)
        assert font_manager.FontProperties(fname=found).get_name() == family


def test_a_wrapped_chart_label_never_breaks_a_figure_from_its_unit() -> None:
    story = dialled("100", "0")
    chart = story.chart("bottleneck")
    boxes = charts.text_boxes(chart, story.theme, width_in=2.6, height_in=4.0, font_pt=16)
    texts = [text for text, _ in boxes]
    label = chart.bars[0].label
    assert label == "100 tokens/sec: 2 h 13 min 20 s"  # 800,000 tokens at 100 a second
    assert "100 tokens/sec:\n2 h 13 min 20 s" in texts, texts


def test_one_contrast_for_the_deck_the_handout_and_the_charts() -> None:
    """WCAG's own examples: #767676 on white is the lightest grey that passes 4.5:1 (4.54),
    #777777 just fails (4.48); the handout's reading of reportlab's colours agrees."""
    from reportlab.lib import colors

    from deckgen.paint.handout import style

    assert colour.contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.005)
    assert colour.contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.005)
    grey = colors.HexColor("#767676")
    assert colour.ratio(style.luminance(grey), 1.0) == colour.contrast("#767676", "#FFFFFF")


def test_an_unwritable_matplotlib_folder_gives_no_warning_and_no_stray_folder(
        tmp_path: Path) -> None:
    """Importing the charts settles matplotlib's folder first: a chart is drawn with no
    warning about the folder, and the one made for the process is gone after it."""
    (tmp_path / "blocker").write_text("a file where matplotlib's folder would go")
    temp = tmp_path / "tmp"
    temp.mkdir()
    code = ("from deckgen import source, story; from deckgen.paint import pictures as charts; "
            "import matplotlib; "
            "s = story.compose(source.read(None)[0]); "
            "charts.render(s.chart('ceiling'), s.theme, width_in=8, height_in=4.5, dpi=72); "
            f"print(matplotlib.get_configdir().startswith({str(temp / 'deckgen-matplotlib-')!r}))")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / "blocker" / "mpl"), "TMPDIR": str(temp),
           "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True\n"
    assert run.stderr == ""
    assert list(temp.iterdir()) == []
