"""The formatting rules, as the explainer writes its figures: golden tables and properties."""

from __future__ import annotations

import re
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import fmt

SETTINGS = settings(max_examples=200, deadline=None)


@pytest.mark.parametrize(("seconds", "text"), [
    # Under 1 s: up to three significant figures.
    (F(4, 5), "0.8 seconds"),
    (F(3, 10000), "0.0003 seconds"),
    (F(1, 1000), "0.001 seconds"),
    (F(1234, 10000), "0.123 seconds"),
    (F(1235, 10000), "0.124 seconds"),  # half-up
    (F(99949, 100000), "0.999 seconds"),
    (F(9995, 10000), "1 second"),  # rounds up to a whole second: singular
    (F(9996, 10000), "1 second"),
    # From 1 s to under 100 s: at most one decimal, singular for exactly one.
    (1, "1 second"),
    (F(104, 100), "1 second"),
    (F(105, 100), "1.1 seconds"),
    (3, "3 seconds"),
    (10, "10 seconds"),
    (60, "60 seconds"),
    (F(608, 10), "60.8 seconds"),
    (F(9994, 100), "99.9 seconds"),
    # Rounding up to 100 s moves to the whole-second form.
    (F(9995, 100), "1 min 40 s"),
    (F(9996, 100), "1 min 40 s"),
    # From 100 s: whole seconds, rounded, zero parts left out, hours never folded into days.
    (100, "1 min 40 s"),
    (F(2005, 10), "3 min 21 s"),  # half-up
    (F(2004, 10), "3 min 20 s"),
    (120, "2 min"),
    (900, "15 min"),
    (901, "15 min 1 s"),
    (3600, "1 h"),
    (F(35995, 10), "1 h"),
    (3601, "1 h 1 s"),
    (10000, "2 h 46 min 40 s"),
    (8000, "2 h 13 min 20 s"),
    (8060, "2 h 14 min 20 s"),
    (8900, "2 h 28 min 20 s"),
    (30000, "8 h 20 min"),
    (86400, "24 h"),
    (86401, "24 h 1 s"),
    (94400, "26 h 13 min 20 s"),
    (100000, "27 h 46 min 40 s"),
    (3600 * 1000, "1,000 h"),
    (0, "0 seconds"),
])
def test_duration(seconds: F | int, text: str) -> None:
    assert fmt.duration(seconds) == text


@pytest.mark.parametrize(("seconds", "text"), [
    (0, "None"), (60, "60 seconds"), (900, "15 min"), (86400, "24 h"), (F(1, 2), "0.5 seconds"),
])
def test_check_label(seconds: F | int, text: str) -> None:
    assert fmt.check(seconds) == text


def test_negative_duration_is_refused() -> None:
    with pytest.raises(ValueError):
        fmt.duration(-1)


@pytest.mark.parametrize(("ratio", "text"), [
    (10000, "10,000\u00d7"),
    (F(8060, 1) / F(608, 10), "132.57\u00d7"),
    (F(8900, 900) * 900 / F(9008, 10), "9.88\u00d7"),
    (F(94400) / F(864008, 10), "1.09\u00d7"),
    (F(8060, 60), "134.33\u00d7"),
    (F(8900, 900), "9.89\u00d7"),
    (1, "1\u00d7"),
    (F(3, 2), "1.50\u00d7"),  # not whole: two decimals, as every such speedup
    (F(1005, 1000), "1.01\u00d7"),  # half-up, not banker's
    (F(1015, 1000), "1.02\u00d7"),
    (F(12345, 10), "1,234.50\u00d7"),
    (F(999999, 1000), "1,000.00\u00d7"),  # rounded: never reads as exact
])
def test_speedup(ratio: F | int, text: str) -> None:
    assert fmt.speedup(ratio) == text


@pytest.mark.parametrize(("part", "text"), [
    (F(8000, 8060), "99.3%"),
    (F(60, 8060), "0.7%"),
    (F(8, 10) / F(608, 10), "1.3%"),
    (F(60) / F(608, 10), "98.7%"),
    (1, "100.0%"),
    (0, "0.0%"),
    (F(1, 2), "50.0%"),
    (F(1, 3), "33.3%"),
    (F(2, 3), "66.7%"),
    (F(1, 2000), "0.1%"),  # 0.05% rounds half-up
    (F(9995, 10000), ">99.9%"),  # 99.95% rounds to 100.0%, which would read as all of it
    (F(99964, 100000), ">99.9%"),  # a 2 h 30 min check at 250K: 99.964%
    (F(36, 100000), "<0.1%"),  # and its writing share, 0.036%
    (F(5, 10000), "0.1%"),  # 0.05% rounds half up to 0.1%
    (F(4999, 10000000), "<0.1%"),
])
def test_share(part: F | int, text: str) -> None:
    assert fmt.share(part) == text


@pytest.mark.parametrize(("count", "text"), [
    (1_000_000, "1,000,000"), (800_000, "800,000"), (3_000_000, "3,000,000"),
    (10_000_000, "10,000,000"), (1000, "1,000"), (300, "300"), (1, "1"),
])
def test_tokens_and_counts(count: int, text: str) -> None:
    assert fmt.tokens(count) == text
    assert fmt.count(count) == text


@pytest.mark.parametrize(("speed", "text"), [
    (1_000_000, "1,000,000 tokens/sec"),
    (100, "100 tokens/sec"),
    (2500, "2,500 tokens/sec"),
    (F(5, 2), "2.5 tokens/sec"),
    (F(1, 3), "0.33 tokens/sec"),
    (F(1, 1000), "0.001 tokens/sec"),  # never "0 tokens/sec" for a positive speed
])
def test_speed(speed: F | int, text: str) -> None:
    assert fmt.speed(speed) == text


@pytest.mark.parametrize(("speed", "mark"), [
    (100, "100"), (1000, "1K"), (10_000, "10K"), (100_000, "100K"), (1_000_000, "1M"),
    (2500, "2.5K"), (1500, "1.5K"), (999, "999"), (10**9, "1B"), (10**12, "1T"),
    (F(1, 2), "0.5"),
    # A value that rounds up to the next thousand takes the next letter.
    (F(999999, 1000), "1K"),
    (999_999, "1M"),
    (999_999_999, "1B"),
])
def test_speed_mark(speed: F | int, mark: str) -> None:
    assert fmt.speed_mark(speed) == mark


@pytest.mark.parametrize(("value", "places", "text"), [
    (8060, 2, "8,060"), (F(608, 10), 2, "60.8"), (F(5, 2), 2, "2.5"), (F(1, 200), 2, "0.01"),
    (F(1, 1000), 2, "0.001"),  # a positive number never shows as 0
    (0, 2, "0"),
])
def test_number(value: F | int, places: int, text: str) -> None:
    assert fmt.number(value, places) == text


@pytest.mark.parametrize(("value", "places", "text"), [
    (F(5, 100), 1, "0.1"), (F(15, 100), 1, "0.2"), (F(25, 100), 1, "0.3"), (F(-15, 100), 1, "-0.2"),
    (F(1, 3), 3, "0.333"), (F(2, 3), 0, "1"), (F(1, 2), 0, "1"),
])
def test_round_half_up(value: F, places: int, text: str) -> None:
    assert str(fmt.round_half_up(value, places)) == text


def test_round_half_up_is_exact_past_28_digits() -> None:
    value = F(12345678901234567890123456789012345, 1000)
    assert str(fmt.round_half_up(value, 2)) == "12345678901234567890123456789012.35"
    assert fmt.speedup(value) == "12,345,678,901,234,567,890,123,456,789,012.35\u00d7"


def test_keep_together() -> None:
    assert fmt.keep_together("2 h 46 min 40 s") == "2\u00a0h\u00a046\u00a0min\u00a040\u00a0s"


# Any positive finite input, exact or from a float, large or tiny.
positive = st.one_of(
    st.fractions(min_value=F(1, 10**12), max_value=F(10**15)).filter(lambda f: f > 0),
    st.floats(min_value=0, max_value=1e300, exclude_min=True, allow_nan=False,
              allow_infinity=False).map(F),
    st.integers(min_value=1, max_value=10**30),
)


@SETTINGS
@given(positive)
def test_every_formatter_accepts_any_positive_input(value: F | int) -> None:
    texts = [fmt.duration(value), fmt.check(value), fmt.speedup(value), fmt.share(value),
             fmt.speed(value), fmt.speed_mark(value), fmt.number(value)]
    whole = int(value)
    if whole >= 1:
        texts += [fmt.tokens(whole), fmt.count(whole)]
    for text in texts:
        assert text
        assert not re.search(r"\d[eE][+-]?\d|nan|inf|Infinity", text), text


@SETTINGS
@given(positive)
def test_positive_values_never_show_as_zero(value: F | int) -> None:
    assert fmt.speed(value) != "0 tokens/sec"
    assert fmt.speed_mark(value) != "0"
    assert fmt.number(value) != "0"
    assert fmt.duration(value) != "0 seconds"


@SETTINGS
@given(st.fractions(min_value=0, max_value=10**7))
def test_duration_shape(seconds: F) -> None:
    text = fmt.duration(seconds)
    if fmt.round_half_up(seconds, 1) >= 100:
        # Hours, minutes and seconds, each part present only when non-zero.
        parts = text.split(" ")
        assert len(parts) % 2 == 0
        units = parts[1::2]
        assert units == sorted(units, key=["h", "min", "s"].index)
        assert all(int(n.replace(",", "")) > 0 for n in parts[0::2])
        minutes = [int(n) for n, u in zip(parts[0::2], units, strict=True) if u in ("min", "s")]
        assert all(m < 60 for m in minutes)
    else:
        assert text.endswith(" seconds") or text == "1 second"


def test_a_renderers_measurement_is_rounded_from_its_shortest_decimal_text() -> None:
    assert fmt.measure(13.5, "pt") == "13.5 pt"
    # Half up, as written: the floats 2.675 and 2.05 are a hair below, and f"{x:.2f}" says
    # 2.67, f"{y:.1f}" says 2.0.
    assert fmt.measure(2.675, "in") == "2.68 in"
    assert fmt.measure(2.05, "in", 1) == "2.1 in"
    assert fmt.measure(float("nan"), "in") == "nan in"
    assert fmt.measure(300, "dpi") == "300 dpi"
    assert fmt.dimensions(13.333333, 7.5, "in") == "13.33 x 7.5 in"


def test_round_half_up_in_integers_agrees_with_fraction_arithmetic() -> None:
    """Rounding works on the fraction's integers; the reference here adds one half and
    floors, in Fractions, for random values, every exact half, whole numbers and tens."""
    import random
    from decimal import Decimal
    from fractions import Fraction

    def reference(value: Fraction, places: int) -> Decimal:
        scaled = abs(value) * Fraction(10) ** places
        whole = int(scaled + Fraction(1, 2))
        return Decimal(-whole if value < 0 else whole).scaleb(-places, fmt._EXACT)

    picks = random.Random(14)
    cases = [(Fraction(picks.randint(-10**9, 10**9), picks.randint(1, 10**6)),
              picks.randint(-2, 6)) for _ in range(3000)]
    cases += [(Fraction(k, 2 * 10**p), p) for k in range(-300, 300) for p in range(4)]
    cases += [(Fraction(picks.randint(-10**6, 10**6)), picks.randint(-3, 3)) for _ in range(300)]
    for value, places in cases:
        assert str(fmt.round_half_up(value, places)) == str(reference(value, places)), \
            (value, places)
    assert str(fmt.round_half_up(Fraction(-5, 2), 0)) == "-3"  # away from zero
    assert str(fmt.round_half_up(Fraction(1325, 10), -1)) == "1.3E+2"
    assert str(fmt.round_half_up(7, 2)) == "7.00"
