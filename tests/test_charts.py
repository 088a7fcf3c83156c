"""The charts as placed: decided once by the plan (deckgen.plan.charts) for every painter of
the deck, then drawn as pictures (`--charts picture`) exactly where the plan put them.

The placed layout is checked directly (no drawing): nothing clipped or overlapping at many
dials and sizes, ticks thinned when crowded, a legend when the lines' ends crowd, the dial's
mark labelled where it covers no other line, each series keeping its look whichever line is
featured, a bar's too-narrow labels lent to its widest segment. Then the pictures: exactly
their box's size, the same bytes every time, their text drawn where the plan put it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from conftest import chart_placed
from PIL import Image

import deckgen.story
from deckgen import colour, fonts, source
from deckgen.errors import RenderError
from deckgen.figures import with_overrides
from deckgen.plan.charts import style
from deckgen.plan.placed import BarPlacement, Label, LinePlacement

Box = tuple[float, float, float, float]


@pytest.fixture(scope="module")
def story() -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(content)


def dialled(speed: str, check: str, workload: str | None = None) -> deckgen.story.Story:
    content, _ = source.read(None)
    return deckgen.story.compose(with_overrides(content, speed, check, workload))


def labels(layout: LinePlacement | BarPlacement) -> list[Label]:
    """Every text the placed chart shows."""
    if isinstance(layout, BarPlacement):
        return [found for bar in layout.bars
                for found in (bar.title, *(label for _, label in bar.labels))]
    found = [t.label for t in (*layout.x_ticks, *layout.y_ticks)]
    found += [layout.x_title, layout.y_title]
    found += [s.end_label for s in layout.series if s.end_label is not None]
    found += [e.label for e in layout.legend or ()]
    found += [d.label for d in layout.dots]
    found += [layout.rule.label] if layout.rule.label is not None else []
    return found


def clashes(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    return [(a, b) for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1))
            in combinations(boxes, 2)
            if min(ax1, bx1) - max(ax0, bx0) > 0.5 and min(ay1, by1) - max(ay0, by0) > 0.5]


def outside(boxes: list[tuple[str, Box]], width: float, height: float) -> list[str]:
    return [text for text, (x0, y0, x1, y1) in boxes
            if x0 < -0.5 or y0 < -0.5 or x1 > width + 0.5 or y1 > height + 0.5]


# --- nothing clipped, nothing overlapping ---------------------------------------------------


@pytest.mark.parametrize(("speed", "check"), [("100", "0"), ("1M", "60s"), ("40K", "1 h"),
                                              ("1B", "24 h"), ("1T", "60s"), ("55", "0"),
                                              ("12345", "0"), ("54321", "60s")])
@pytest.mark.parametrize(("width_in", "height_in", "size"), [
    (11.5, 5.2, 16), (8.8, 4.0, 16), (6.9, 4.5, 14), (8.8, 2.6, 14), (5.5, 3.4, 12)])
def test_no_text_is_clipped_or_overlaps(speed: str, check: str, width_in: float,
                                        height_in: float, size: float) -> None:
    told = dialled(speed, check)
    for key in ("writing_time", "bottleneck", "ceiling"):
        placed = chart_placed(told.chart(key), width_in, height_in, size)
        boxes = [(found.text, found.box) for found in labels(placed.placement)]
        assert not outside(boxes, width_in * 72, height_in * 72), (key, boxes)
        assert not clashes(boxes), key


@pytest.mark.parametrize(("speed", "check"), [("100", "0"), ("12345", "0"), ("54321", "60s"),
                                              ("40K", "1 h"), ("1M", "60s"), ("1B", "24 h")])
@pytest.mark.parametrize(("width_in", "height_in"), [(6.1, 3.26), (5.4, 2.84)])
def test_nothing_clashes_in_a_template_s_narrow_chart_frame(speed: str, check: str,
                                                            width_in: float,
                                                            height_in: float) -> None:
    """Candy's and DNA's chart frames: "Our dial" sat on a tick label beside a rule between
    two ticks, and a turned axis title ran off the chart's top into the kicker above."""
    told = dialled(speed, check)
    for key in ("bottleneck", "ceiling"):
        if key == "bottleneck" and check == "0":
            continue
        placed = chart_placed(told.chart(key), width_in, height_in, 14)
        boxes = [(found.text, found.box) for found in labels(placed.placement)]
        assert not outside(boxes, width_in * 72, height_in * 72), (key, boxes)
        assert not clashes(boxes), key


def test_a_y_title_without_spaces_breaks_between_characters_to_stay_on_the_chart() -> None:
    """A Japanese axis title has no spaces to break at: it breaks where Japanese may (it
    stayed one line, taller than the chart, over the kicker above)."""
    from dataclasses import replace

    told = dialled("40K", "1 h")
    chart = replace(told.chart("ceiling"), y_label="エンドツーエンドの高速化の倍率（対数目盛）")
    placed = chart_placed(chart, 5.4, 2.84, 14).placement
    assert isinstance(placed, LinePlacement)
    assert placed.y_title.text.count("\n") >= 1
    assert not outside([("y", placed.y_title.box)], 5.4 * 72, 2.84 * 72), placed.y_title.box
    assert placed.y_title.text.replace("\n", "") == chart.y_label


def test_the_dials_mark_is_labelled_where_it_covers_no_other_line() -> None:
    """At 40,000 tokens/sec with a 1 h check the dial's point (3.20×) has the 15 min curve
    just above it and the 24 h curve just below: its label goes beside it, on its own line,
    not over another check's."""
    placed = chart_placed(dialled("40K", "1 h").chart("ceiling"), 6.9, 3.4, 14)
    [dot] = placed.placement.dots
    assert dot.label.text == "3.20×"
    assert dot.side in ("left", "right")


def test_crowded_x_ticks_are_thinned() -> None:
    """From 100 to 1T, ten decades: on a 5.5 in chart every label a decade apart would
    touch, so they stand every second decade (or more) from the axis's start, apart."""
    placed = chart_placed(dialled("1T", "60s").chart("ceiling"), 5.5, 3.4, 14)
    layout = placed.placement
    assert layout.x_step > 1
    boxes = [t.label.box for t in layout.x_ticks]
    assert all(a[2] + 6 <= b[0] for a, b in zip(boxes, boxes[1:], strict=False))
    roomy = chart_placed(dialled("1M", "60s").chart("writing_time"), 11.5, 5.2, 16)
    assert roomy.placement.x_step == 1 and len(roomy.placement.x_ticks) == 5  # 100 ... 1M


def test_a_y_title_longer_than_the_plot_is_tall_goes_on_two_lines(story) -> None:  # noqa: ANN001
    short = chart_placed(story.chart("ceiling"), 8.0, 2.6, 16)
    assert short.placement.y_title.text.count("\n") == 1
    tall = chart_placed(story.chart("ceiling"), 8.0, 5.0, 16)
    assert "\n" not in tall.placement.y_title.text


def test_a_legend_names_the_lines_when_their_ends_crowd(story) -> None:  # noqa: ANN001
    """The writing chart's four lines end close together: a legend. The ceiling's ends
    stand apart at 4.5 in; at 2.2 in they would be pushed beside their neighbours' lines."""
    assert chart_placed(story.chart("writing_time"), 12.0, 4.6).placement.legend is not None
    ceiling = story.chart("ceiling")
    assert chart_placed(ceiling, 7.0, 4.5).placement.legend is None
    assert chart_placed(ceiling, 7.0, 2.2).placement.legend is not None


def test_each_series_keeps_its_look_whichever_line_the_dial_features() -> None:
    """A workload's line keeps its dash and marker when another workload is featured; the
    featured one is solid, thick and in the accent."""
    looks = {}
    for featured in ("endings", "apps", "candidates", "rehearsals"):
        chart = dialled("1M", "60s", featured).chart("writing_time")
        placed = chart_placed(chart, 11.5, 5.2)
        for series in placed.placement.series:
            if series.emphasis:
                assert (series.stroke.dash, series.marker.kind) == ("solid", "circle")
                assert series.stroke.colour.role == "accent"
            else:
                looks.setdefault(series.name, set()).add((series.stroke.dash,
                                                          series.marker.kind))
    assert len(looks) == 4 and all(len(found) == 1 for found in looks.values())
    assert len({next(iter(found)) for found in looks.values()}) == 4  # each its own


def test_a_label_too_narrow_for_its_segment_is_lent_to_the_widest(story) -> None:  # noqa: ANN001
    """At 1M with a 60 s check the fast bar's writing is 1.3% of it: its label goes into the
    check's segment, under the check's own; the slow bar's 0.7% check goes into its
    writing."""
    chart = story.chart("bottleneck")
    layout = chart_placed(chart, 11.0, 2.6, 14).placement
    writing, check = (seg.name for seg in chart.bars[0].segments)
    slow, fast = layout.bars
    assert [(k, found.text) for k, found in fast.labels] == \
        [(1, f"{check} 98.7%\n{writing} 1.3%")]
    assert [(k, found.text) for k, found in slow.labels] == \
        [(0, f"{writing} 99.3%\n{check} 0.7%")]
    assert style.lent([0.5, 0.5], [True, True]) == [[0], [1]]
    assert style.lent([0.9, 0.1], [True, False]) == [[0, 1], []]
    assert style.lent([0.1, 0.9], [False, True]) == [[], [1, 0]]  # its own first, then lent


def test_chart_text_is_set_in_the_faces_that_measured_it(story) -> None:  # noqa: ANN001
    """Every span of a chart's text names the font file that measured it: the body's face
    (Liberation Sans for Arial, Carlito for Calibri when installed), DejaVu Sans for a
    character the face lacks."""
    for family in ("Arial", "Calibri"):
        placed = chart_placed(story.chart("ceiling"), 8.0, 4.5, 16, family)
        files = {s.font.file for found in labels(placed.placement)
                 for line in found.lines for s in line.spans}
        assert files <= {fonts.resolve(family).face.file, fonts.resolve(family, True).face.file}
    line = deckgen.story.Line("Check \u2609 sun", story.chart("ceiling").lines[0].points, False)
    chart = story.chart("ceiling")
    odd = chart_placed(type(chart)(**{**chart.__dict__, "lines": (line, *chart.lines[1:])}),
                       8.0, 4.5)
    spans = [s for found in labels(odd.placement) for text_line in found.lines
             for s in text_line.spans if "\u2609" in s.text]
    assert spans and all(Path(s.font.file).name == "DejaVuSans.ttf" for s in spans)


# --- the pictures --------------------------------------------------------------------------


@pytest.mark.slow
def test_a_picture_is_its_box_and_the_same_bytes_every_time(story) -> None:  # noqa: ANN001
    from deckgen.paint import pictures

    placed = chart_placed(story.chart("ceiling"), 5.0, 3.0, 12)
    first = pictures.render(placed, dpi=100)
    assert pictures.render(placed, dpi=100) == first
    with Image.open(io.BytesIO(first)) as image:
        assert image.size == (500, 300)
    with pytest.raises(RenderError, match="resolution"):
        pictures.render(placed, dpi=50)


@pytest.mark.slow
@pytest.mark.parametrize("key", ["writing_time", "bottleneck", "ceiling"])
def test_a_picture_draws_its_text_where_the_plan_put_it(key: str) -> None:
    """Each text the picture draws sits where the plan placed it (its left edge and
    baseline, within a point and a half), at the plan's width."""
    from deckgen.paint import pictures

    placed = chart_placed(dialled("40K", "1 h").chart(key), 8.8, 4.0, 14)
    planned = [(s.text, s.x, s.width, line.baseline) for found in labels(placed.placement)
               if not found.angle for line in found.lines for s in line.spans]
    drawn = pictures.text_boxes(placed, dpi=144)
    assert len(drawn) >= len(planned)
    for text, x, width, _ in planned:
        near = [box for t, box in drawn if t == text and abs(box[0] - x) < 1.5]
        assert near, (text, x)
        assert near[0][2] - near[0][0] == pytest.approx(width, rel=0.03, abs=1.0)


@pytest.mark.slow
def test_an_unwritable_matplotlib_folder_gives_no_warning_and_no_stray_folder(
        tmp_path: Path) -> None:
    """Importing the pictures settles matplotlib's folder first: a chart is drawn with no
    warning about the folder, and the one made for the process is gone after it."""
    (tmp_path / "blocker").write_text("a file where matplotlib's folder would go")
    temp = tmp_path / "tmp"
    temp.mkdir()
    root = Path(__file__).resolve().parent.parent
    code = ("import sys; sys.path.insert(0, 'tests'); from conftest import chart_placed; "
            "from deckgen import source, story; from deckgen.paint import pictures; "
            "import matplotlib; s = story.compose(source.read(None)[0]); "
            "pictures.render(chart_placed(s.chart('ceiling'), 8, 4.5), dpi=72); "
            f"print(matplotlib.get_configdir().startswith({str(temp / 'deckgen-matplotlib-')!r}))")
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / "blocker" / "mpl"), "TMPDIR": str(temp),
           "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=root)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True\n"


# --- colours ------------------------------------------------------------------------------


@pytest.mark.parametrize(("ink", "paper", "ratio"), [("#000000", "#FFFFFF", 21.0),
                                                      ("#FFFFFF", "#FFFFFF", 1.0),
                                                      ("#1A1D21", "#FFFFFF", 16.9)])
def test_contrast_ratio(ink: str, paper: str, ratio: float) -> None:
    assert colour.contrast(ink, paper) == pytest.approx(ratio, abs=0.1)


def test_default_theme_text_colours_read_on_the_background(story) -> None:  # noqa: ANN001
    theme = story.theme
    for ink in (theme.text, theme.accent, theme.muted):
        assert colour.contrast(ink, theme.background) >= 4.5


def test_one_contrast_for_the_deck_the_handout_and_the_charts() -> None:
    """WCAG's own examples: #767676 on white is the lightest grey that passes 4.5:1 (4.54),
    #777777 just fails (4.48); the handout's reading of reportlab's colours agrees."""
    from reportlab.lib import colors

    from deckgen.paint.handout import style as handout_style

    assert colour.contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.005)
    assert colour.contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.005)
    grey = colors.HexColor("#767676")
    assert colour.ratio(handout_style.luminance(grey), 1.0) == \
        colour.contrast("#767676", "#FFFFFF")


# --- one drawing order, for every painter of a picture or a page ----------------------------


def test_every_painter_draws_the_layers_in_the_plans_order(story) -> None:  # noqa: ANN001
    """The plan says what is drawn over what: gridlines first, the dial's rule under the
    lines, the dial's line over the others, every text last (the slides PDF drew the rule
    over the lines and each label as it came; the picture did neither)."""
    from deckgen.plan.placed import Label, Polyline, Segment

    placed = chart_placed(story.chart("ceiling"), 11.5, 5.2, 16).placement
    assert isinstance(placed, LinePlacement)
    layers = placed.layers
    kinds = [type(layer).__name__ for layer in layers]
    first_text = kinds.index("Label")
    assert set(kinds[first_text:]) == {"Label"}
    assert sorted(map(id, (x for x in layers if isinstance(x, Label)))) == \
        sorted(map(id, labels(placed)))
    rule = next(k for k, x in enumerate(layers) if isinstance(x, Segment)
                and x.stroke == placed.rule.stroke)
    lines = [k for k, x in enumerate(layers) if isinstance(x, Polyline)]
    assert rule < min(lines)
    emphasised = [s.points for s in placed.series if s.emphasis]
    assert [layers[k].points for k in lines][-1:] == emphasised  # type: ignore[union-attr]
    assert layers[0] == Segment(placed.plot[0], placed.y_ticks[0].at,
                                placed.plot[0] + placed.plot[2], placed.y_ticks[0].at,
                                placed.grid)


def test_a_marker_s_outline_is_the_plan_s(story) -> None:  # noqa: ANN001
    """Each painter draws the outline the plan gives a marker (in units of half its size)."""
    from deckgen.plan.placed import Colour, Marker

    ink = Colour("#000000")
    assert Marker("square", 8, ink).outline == ((-1, -1), (1, -1), (1, 1), (-1, 1))
    assert Marker("circle", 8, ink).outline == ()
    plus = Marker("plus", 8, ink)
    assert plus.stroked and [tuple(round(v, 9) + 0.0 for v in p) for p in plus.outline] == \
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
    assert len(Marker("star", 8, ink).outline) == 10
