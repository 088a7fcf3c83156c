"""The bar chart's placement, decided once by the pure layout layer for matplotlib's chart and
the handout's: segments end to end across the bar, each label inside its segment when it fits
with its insets, else on a row under the bar that clashes with no other label."""

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
    assert [(i.text, i.align, i.boxed) for i in first.inside] == [("Writing 99.3%", "left", False)]
    assert [b.text for b in first.below] == ["Fixed check 0.7%"]
    assert [(i.text, i.align, i.boxed) for i in ours.inside] == [
        ("Fixed check 98.7%", "right", True)]
    assert [(b.text, b.align) for b in ours.below] == [("Writing 1.3%", "left")]
    assert not first.bold and ours.bold
    # Top to bottom: title, bar, its row of labels, then the next bar; all on the sheet.
    assert 1.26 >= first.title_top > first.base + first.height > first.base
    assert first.below[0].top < first.base and ours.title_top < first.below[0].top - sheet.line_h
    assert ours.below[0].top - sheet.line_h >= 0


def test_narrow_segments_labels_go_on_rows_that_never_clash() -> None:
    sheet = bars.MeasuredArea(3.0, 2.0, 8.5)
    laid = bars.plan(sheet, chart((1, 20), (1, 20), (1, 20), (17, 20)))
    (bar,) = laid.bars
    assert [i.text for i in bar.inside] == ["Part 3 3.0%"]
    below = bar.below
    assert sorted(b.text for b in below) == ["Part 0 0.0%", "Part 1 1.0%", "Part 2 2.0%"]
    spans = []
    for b in below:
        w = sheet.size(b.text)[0]
        left = {"left": b.x, "right": b.x - w, "center": b.x - w / 2}[b.align]
        spans.append((b.top, left, left + w))
        assert laid.x0 - 1e-9 <= left and left + w <= laid.x0 + laid.bar_w + 1e-9
    for i, (top, a0, a1) in enumerate(spans):
        for top2, b0, b1 in spans[i + 1:]:
            assert top != top2 or a1 + sheet.pad <= b0 or b1 + sheet.pad <= a0
    assert len({top for top, _, _ in spans}) >= 2  # they could not share one row
    # A lower row's label has a leader up to the middle of its segment.
    for b in below:
        seg = bar.segments[b.segment]
        if b.top < max(x.top for x in below):
            assert b.leader_x == pytest.approx(seg.left + seg.width / 2)
        else:
            assert b.leader_x is None


def test_the_hatching_stays_inside_its_rectangle() -> None:
    strokes = bars.hatch(1.0, 0.5, 2.0, 0.4, 0.11)
    assert len(strokes) >= 2.0 / 0.11
    for (xa, ya), (xb, yb) in strokes:
        assert 1.0 - 1e-9 <= min(xa, xb) and max(xa, xb) <= 3.0 + 1e-9
        assert 0.5 - 1e-9 <= min(ya, yb) and max(ya, yb) <= 0.9 + 1e-9
        assert xb - xa == pytest.approx(yb - ya)  # 45 degrees
