"""Parsing the dial's inputs: speeds, durations and counts become exact numbers or a rule."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import yaml

from deckgen import quantities
from deckgen.quantities import parse_count, parse_duration, parse_speed


@pytest.mark.parametrize(("given", "speed"), [
    (100, 100),
    ("100", 100),
    ("1K", 1000),
    ("1k", 1000),
    ("10K", 10_000),
    ("100K", 100_000),
    ("1M", 1_000_000),
    ("1 M", 1_000_000),
    ("2.5K", 2500),
    ("1e6", 1_000_000),
    ("1E6", 1_000_000),
    (1e6, 1_000_000),  # a YAML float is exact, not 999999.9999...
    ("1,000,000", 1_000_000),
    ("1,000,000 tokens/sec", 1_000_000),
    ("1M tokens per second", 1_000_000),
    ("1B", 10**9),
    ("1T", 10**12),
    (0.5, F(1, 2)),
    (0.1, F(1, 10)),  # exact one tenth, not the float's binary neighbour
    ("0.001", F(1, 1000)),
    (" 2500 ", 2500),
])
def test_speeds(given: object, speed: F | int) -> None:
    parsed = parse_speed(given)
    assert parsed == speed
    assert isinstance(parsed, F)


@pytest.mark.parametrize("text", ["1e6", "1E6", "1_000_000", "1000000.0", "1.0e+6"])
def test_yaml_speeds_are_exact(text: str) -> None:
    """YAML reads some of these as floats, some as ints and some as strings; all are 1,000,000."""
    assert parse_speed(yaml.safe_load(f"speed: {text}")["speed"]) == 1_000_000


@pytest.mark.parametrize("bad", [
    "fast", 0, -1, "0", "-5K", float("nan"), float("inf"), float("-inf"), ".nan", ".inf", True,
    False, None, "", "K", "1,00", "1,0000", "1.2.3", "10 tokens/min", [100], {"speed": 100},
    "1e-9999", 10**13, "2T", F(1, 10**4), 1e-300,
])
def test_bad_speeds(bad: object) -> None:
    with pytest.raises(ValueError) as err:
        parse_speed(bad)
    assert str(err.value) == quantities.SPEED_RULE
    assert str(err.value).startswith("must be a positive number of tokens per second")


def test_speed_limits() -> None:
    assert parse_speed("1T") == quantities.MAX_SPEED
    assert parse_speed("0.001") == quantities.MIN_SPEED


@pytest.mark.parametrize(("given", "seconds"), [
    (0, 0),
    ("0", 0),
    ("none", 0),
    ("None", 0),
    (None, 0),  # YAML null
    (60, 60),
    ("60", 60),
    ("60 s", 60),
    ("60s", 60),
    ("60 seconds", 60),
    ("1 second", 1),
    ("15 min", 900),
    ("15 minutes", 900),
    ("1 h", 3600),
    ("1.5 h", 5400),
    ("24 h", 86400),
    ("1 day", 86400),
    ("2 days", 172800),
    (0.5, F(1, 2)),
    ("0.001 s", F(1, 1000)),
    ("366 days", quantities.MAX_DURATION),
])
def test_durations(given: object, seconds: F | int) -> None:
    parsed = parse_duration(given)
    assert parsed == seconds
    assert isinstance(parsed, F)


@pytest.mark.parametrize("text", ["0", "none", "null", "~", "60", "60 s", "15 min", "1 h", "24 h",
                                  "1 day", "1e2"])
def test_yaml_durations(text: str) -> None:
    value = yaml.safe_load(f"check: {text}")["check"]
    expected = {"0": 0, "none": 0, "null": 0, "~": 0, "60": 60, "60 s": 60, "15 min": 900,
                "1 h": 3600, "24 h": 86400, "1 day": 86400, "1e2": 100}[text]
    assert parse_duration(value) == expected


@pytest.mark.parametrize("bad", [
    "soon", "-1", -1, "15 fortnights", "30 min 1 h", "h", "367 days", 10**9, float("nan"),
    float("inf"), True, [60], "1e-9999 s", F(1, 10**4), "60 s s",
])
def test_bad_durations(bad: object) -> None:
    with pytest.raises(ValueError) as err:
        parse_duration(bad)
    assert str(err.value) == quantities.DURATION_RULE


@pytest.mark.parametrize(("given", "count"), [
    (1, 1), (1000, 1000), ("1,000", 1000), ("10000", 10000), (40.0, 40), ("1e3", 1000),
    (10**9, 10**9),
])
def test_counts(given: object, count: int) -> None:
    assert parse_count(given) == count


@pytest.mark.parametrize("bad", [0, -1, 1.5, "1.5", "many", True, None, 10**9 + 1, float("nan"),
                                 float("inf"), [1]])
def test_bad_counts(bad: object) -> None:
    with pytest.raises(ValueError, match=r"^must be a whole number from 1 to 1,000,000,000$"):
        parse_count(bad)


def test_count_limit_is_in_the_rule() -> None:
    with pytest.raises(ValueError, match=r"^must be a whole number from 1 to 50$"):
        parse_count(51, 50)
