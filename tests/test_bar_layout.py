"""The handout's bar chart, placed by the pure layout layer: segments end to end across the
bar, each label inside its segment when it fits with its insets, else lent to the bar's
widest segment under that segment's own (the rule the deck's bar charts follow)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from deckgen import source, story
from deckgen.plan.charts import handout_bars as bars


def chart(*shares: tuple[int, int]) -> story.BarChart:
    segs = tuple(story.Segment(f"Part {i}", Fraction(*s), f"{i}.0%") for i, s in enumerate(shares))
    return story.BarChart("bottleneck", "", (story.Bar("A bar", segs, False),), "")


def test_the_default_chart_plan() -> None:
    content, _ = source.read(None)
    composed = story.compose(content)
    sheet = bars.MeasuredArea(3.5, 1.26, 8.5)
    laid = bars.plan(sheet, composed.chart("bottleneck"))
    pad = 8.5 * 0.4 / 72
    assert laid.x0 == pytest.approx(pad)
    assert laid.bar_w == pytest.approx(3.5 - 2 * pad)
    first, ours = laid.bars
    assert [s.width for s in first.segments] == pytest.approx(
        [laid.bar_w * 8000 / 8060, laid.bar_w * 60 / 8060])
    assert [s.hatched for s in ours.segments] == [False, True]
    assert [(i.text, i.align, i.boxed, i.role) for i in first.inside] == [
        ("Writing 99.3%\nFixed check 0.7%", "left", False, "background")]
    assert [(i.text, i.align, i.boxed, i.role) for i in ours.inside] == [
        ("Fixed check 98.7%\nWriting 1.3%", "right", True, "text")]
    assert not first.bold and ours.bold
    # Top to bottom: title, bar (tall enough for its two lines), then the next bar.
    assert 1.26 >= first.title_top > first.base + first.height > first.base
    assert ours.title_top < first.base
    assert ours.base >= 0
    assert first.height >= 2 * sheet.size("0")[1]


def test_labels_that_do_not_fit_are_lent_to_the_widest_segment() -> None:
    sheet = bars.MeasuredArea(3.0, 2.0, 8.5)
    laid = bars.plan(sheet, chart((1, 20), (1, 20), (1, 20), (17, 20)))
    (bar,) = laid.bars
    assert [(i.segment, i.text) for i in bar.inside] == [
        (3, "Part 3 3.0%\nPart 0 0.0%\nPart 1 1.0%\nPart 2 2.0%")]
    widest = bar.segments[3]
    label = bar.inside[0]
    assert label.align == "right" and label.x < widest.left + widest.width
    assert bar.height >= 4 * sheet.size("0")[1]
    assert max(sheet.size(line)[0] for line in label.text.split("\n")) < widest.width


def test_the_hatching_stays_inside_its_rectangle() -> None:
    strokes = bars.hatch(1.0, 0.5, 2.0, 0.4, 0.11)
    assert len(strokes) >= 2.0 / 0.11
    for (xa, ya), (xb, yb) in strokes:
        assert 1.0 - 1e-9 <= min(xa, xb) and max(xa, xb) <= 3.0 + 1e-9
        assert 0.5 - 1e-9 <= min(ya, yb) and max(ya, yb) <= 0.9 + 1e-9
        assert xb - xa == pytest.approx(yb - ya)  # 45 degrees
