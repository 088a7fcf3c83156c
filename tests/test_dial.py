"""The dial math, exact: the explainer's golden figures and the properties that must always hold."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deckgen import dial, fmt

# 100 examples a property keeps `pytest -m "not slow"` quick; the full suite's
# test_formatted_figures_keep_the_order and the fuzzers cover the same arithmetic further.
SETTINGS = settings(max_examples=100, deadline=None)

SLOW, FAST = 100, 1_000_000
BATCH = 40 * 20_000  # the 40 app drafts


@pytest.mark.parametrize(("count", "each", "tokens", "slow", "fast"), [
    (1000, 1000, "1,000,000", "2 h 46 min 40 s", "1 second"),
    (40, 20_000, "800,000", "2 h 13 min 20 s", "0.8 seconds"),
    (10_000, 300, "3,000,000", "8 h 20 min", "3 seconds"),
    (10_000, 1000, "10,000,000", "27 h 46 min 40 s", "10 seconds"),
])
def test_workloads_at_both_ends(count: int, each: int, tokens: str, slow: str, fast: str) -> None:
    output = count * each
    assert fmt.tokens(output) == tokens
    assert fmt.duration(dial.writing_time(output, SLOW)) == slow
    assert fmt.duration(dial.writing_time(output, FAST)) == fast


@pytest.mark.parametrize(("check", "label", "slow_total", "total", "speedup", "ceiling"), [
    (0, "None", "2 h 13 min 20 s", "0.8 seconds", "10,000\u00d7", None),
    (60, "60 seconds", "2 h 14 min 20 s", "60.8 seconds", "132.57\u00d7", "134.33\u00d7"),
    (900, "15 min", "2 h 28 min 20 s", "15 min 1 s", "9.88\u00d7", "9.89\u00d7"),
    (86400, "24 h", "26 h 13 min 20 s", "24 h 1 s", "1.09\u00d7", "1.09\u00d7"),
])
def test_batch_with_each_check(check: int, label: str, slow_total: str, total: str, speedup: str,
                               ceiling: str | None) -> None:
    b = dial.Batch(BATCH, F(FAST), F(SLOW), F(check))
    assert fmt.check(check) == label
    assert fmt.duration(b.slow_total) == slow_total
    assert fmt.duration(b.total) == total
    assert fmt.speedup(b.end_to_end_speedup) == speedup
    assert fmt.speedup(b.writing_speedup) == "10,000\u00d7"
    assert (fmt.speedup(b.ceiling) if b.ceiling is not None else None) == ceiling


def test_sixty_second_check_in_full() -> None:
    b = dial.Batch(BATCH, F(FAST), F(SLOW), F(60))
    assert b.writing_time == F(4, 5)
    assert b.slow_writing_time == 8000
    assert b.slow_total == 8060
    assert b.total == F(304, 5)  # 60.8
    assert b.end_to_end_speedup == F(8060) / F(608, 10)
    how = f"{fmt.number(b.slow_total)} {fmt.DIVIDE} {fmt.duration(b.total)}"
    assert how == "8,060 \u00f7 60.8 seconds"
    assert b.writing_speedup == 10_000
    assert b.ceiling == F(8060, 60)
    assert fmt.speedup(b.ceiling) == "134.33\u00d7"
    # Writing and checking shares, at the slow end and at the chosen speed.
    assert (fmt.share(b.slow_writing_share), fmt.share(b.slow_check_share)) == ("99.3%", "0.7%")
    assert (fmt.share(b.writing_share), fmt.share(b.check_share)) == ("1.3%", "98.7%")
    assert b.slow_writing_share + b.slow_check_share == 1
    assert b.writing_share + b.check_share == 1


def test_no_check_has_no_ceiling() -> None:
    assert dial.ceiling(BATCH, SLOW, 0) is None
    assert dial.Batch(BATCH, F(FAST), F(SLOW), F(0)).ceiling is None


@pytest.mark.parametrize(("target", "speed"), [
    (10, F(800_000) / (F(8060, 10) - 60)),
    (100, F(800_000) / (F(8060, 100) - 60)),
    (1, 100),
])
def test_speed_for_speedup(target: int, speed: F) -> None:
    assert dial.speed_for_speedup(BATCH, SLOW, 60, target) == speed
    assert dial.end_to_end_speedup(BATCH, speed, SLOW, 60) == target


@pytest.mark.parametrize("target", [F(8060, 60), 135, 10_000])
def test_speed_for_speedup_at_or_above_the_ceiling(target: F | int) -> None:
    assert dial.speed_for_speedup(BATCH, SLOW, 60, target) is None


@pytest.mark.parametrize("target", [0, -1])
def test_speed_for_speedup_needs_a_positive_target(target: int) -> None:
    with pytest.raises(ValueError):
        dial.speed_for_speedup(BATCH, SLOW, 60, target)


def test_math_is_exact() -> None:
    """No float anywhere: a third of a second stays a third."""
    t = dial.writing_time(1, 3)
    assert t == F(1, 3) and isinstance(t, F)
    b = dial.Batch(7, F(3), F(1), F(1, 7))
    for name in ("writing_time", "total", "slow_total", "writing_speedup", "end_to_end_speedup",
                 "writing_share", "check_share", "slow_writing_share", "slow_check_share",
                 "ceiling"):
        assert isinstance(getattr(b, name), F), name


# Properties over the whole dial: exact speeds, checks and batches.
tokens = st.integers(min_value=1, max_value=10**18)
speeds = st.fractions(min_value=F(1, 1000), max_value=10**12)
checks = st.one_of(st.just(F(0)), st.fractions(min_value=F(1, 1000), max_value=366 * 86400))


@SETTINGS
@given(tokens, speeds, speeds, checks)
def test_end_to_end_never_beats_writing_speedup_or_ceiling(output: int, a: F, b: F,
                                                           check: F) -> None:
    slow, fast = min(a, b), max(a, b)
    e2e = dial.end_to_end_speedup(output, fast, slow, check)
    assert 1 <= e2e <= dial.writing_speedup(fast, slow)
    cap = dial.ceiling(output, slow, check)
    if cap is None:
        assert check == 0
        assert e2e == dial.writing_speedup(fast, slow)
    else:
        assert e2e < cap


@SETTINGS
@given(tokens, speeds, speeds, speeds, checks)
def test_end_to_end_never_falls_as_speed_rises(output: int, slow: F, a: F, b: F, check: F) -> None:
    lower, higher = min(a, b), max(a, b)
    assert (dial.end_to_end_speedup(output, higher, slow, check)
            >= dial.end_to_end_speedup(output, lower, slow, check))


@SETTINGS
@given(tokens, speeds, speeds)
def test_no_check_gives_the_writing_speedup(output: int, speed: F, slow: F) -> None:
    assert dial.end_to_end_speedup(output, speed, slow, 0) == dial.writing_speedup(speed, slow)
    assert dial.writing_share(output, speed, 0) == 1
    assert dial.check_share(output, speed, 0) == 0


@SETTINGS
@given(tokens, speeds, checks)
def test_shares_sum_to_exactly_one(output: int, speed: F, check: F) -> None:
    w, c = dial.writing_share(output, speed, check), dial.check_share(output, speed, check)
    assert isinstance(w, F) and isinstance(c, F)
    assert w + c == 1
    assert 0 < w <= 1 and 0 <= c < 1


@SETTINGS
@given(tokens, speeds, speeds, checks)
def test_batch_agrees_with_the_functions(output: int, a: F, b: F, check: F) -> None:
    slow, fast = min(a, b), max(a, b)
    batch = dial.Batch(output, fast, slow, check)
    assert batch.total == batch.writing_time + check
    assert batch.slow_total == batch.slow_writing_time + check
    assert batch.end_to_end_speedup == batch.slow_total / batch.total
    assert batch.slow_writing_share + batch.slow_check_share == 1


@SETTINGS
@given(tokens, speeds, checks, st.fractions(min_value=F(1, 100), max_value=10**6))
def test_speed_for_speedup_inverts_end_to_end(output: int, slow: F, check: F, target: F) -> None:
    cap = dial.ceiling(output, slow, check)
    speed = dial.speed_for_speedup(output, slow, check, target)
    if cap is not None and target >= cap:
        assert speed is None
    else:
        assert speed is not None and speed > 0
        assert dial.end_to_end_speedup(output, speed, slow, check) == target


@SETTINGS
@given(tokens, speeds, st.fractions(min_value=F(1, 1000), max_value=366 * 86400))
def test_the_ceiling_itself_is_unreachable(output: int, slow: F, check: F) -> None:
    cap = dial.ceiling(output, slow, check)
    assert cap is not None and cap > 1
    assert dial.speed_for_speedup(output, slow, check, cap) is None
    # Any speedup just under the ceiling still has a speed.
    assert dial.speed_for_speedup(output, slow, check, cap * F(999, 1000)) is not None


@SETTINGS
@given(tokens, speeds, speeds, checks)
def test_formatted_figures_keep_the_order(output: int, a: F, b: F, check: F) -> None:
    """Rounding may tie two figures but never reverses them: the text shows e2e <= writing."""
    assume(a != b)
    slow, fast = min(a, b), max(a, b)
    e2e = dial.end_to_end_speedup(output, fast, slow, check)
    ws = dial.writing_speedup(fast, slow)
    assert fmt.round_half_up(e2e, 2) <= fmt.round_half_up(ws, 2)


# The same figures as the story tells them to the deck and the handout.

def _plain(text: str) -> str:
    return text.replace(fmt.NBSP, " ")


@pytest.fixture(scope="module")
def story() -> Any:
    from conftest import DEFAULT_CONTENT

    import deckgen.story
    from deckgen import source

    content, _ = source.read(DEFAULT_CONTENT)
    return deckgen.story.compose(content)


def test_story_workload_table(story: Any) -> None:
    table = story.workload_table
    assert tuple(map(_plain, table.header)) == ("Workload", "Output tokens", "100 tokens/sec",
                                                "1,000,000 tokens/sec")
    assert [tuple(map(_plain, row)) for row in table.rows] == [
        ("1,000 story endings \u00d7 1,000", "1,000,000", "2 h 46 min 40 s", "1 second"),
        ("40 app drafts \u00d7 20,000", "800,000", "2 h 13 min 20 s", "0.8 seconds"),
        ("10,000 critiqued candidates \u00d7 300", "3,000,000", "8 h 20 min", "3 seconds"),
        ("10,000 rehearsals \u00d7 1,000", "10,000,000", "27 h 46 min 40 s", "10 seconds"),
    ]
    assert table.highlight == 0  # the story endings are the featured workload


def test_story_presets_table(story: Any) -> None:
    table = story.presets_table
    assert [tuple(map(_plain, row)) for row in table.rows] == [
        ("None", "2 h 13 min 20 s", "0.8 seconds", "10,000\u00d7"),
        ("60 seconds", "2 h 14 min 20 s", "60.8 seconds", "132.57\u00d7"),
        ("15 min", "2 h 28 min 20 s", "15 min 1 s", "9.88\u00d7"),
        ("24 h", "26 h 13 min 20 s", "24 h 1 s", "1.09\u00d7"),
    ]
    assert table.highlight == 1  # the chosen 60 second check
    assert "800,000 tokens" in table.caption


def test_story_bottleneck(story: Any) -> None:
    b = story.bottleneck
    assert b.writing_speedup == "10,000\u00d7"
    assert b.end_to_end_speedup == "132.57\u00d7"
    assert _plain(b.end_to_end_how) == "8,060 \u00f7 60.8 seconds"
    assert _plain(b.writing_speedup_how) == "1,000,000 \u00f7 100 tokens/sec"
    assert _plain(b.slow_total) == "2 h 14 min 20 s"
    assert _plain(b.total) == "60.8 seconds"
    assert b.check_share == "98.7%"
    assert b.ceiling == "134.33\u00d7"
    assert "134.33\u00d7" in _plain(b.ceiling_sentence.text)
    assert b.ceiling_sentence.origin == "bottleneck.ceiling"


def test_story_bottleneck_chart_shares(story: Any) -> None:
    chart = story.chart("bottleneck")
    shares = [[(s.name, s.label) for s in bar.segments] for bar in chart.bars]
    assert shares == [[("Writing", "99.3%"), ("Fixed check", "0.7%")],
                      [("Writing", "1.3%"), ("Fixed check", "98.7%")]]
    for bar in chart.bars:
        assert sum(s.share for s in bar.segments) == 1
    for text in ("99.3%", "0.7%", "1.3%", "98.7%", "132.57\u00d7", "10,000\u00d7"):
        assert text in chart.alt_text
