"""Parsing the dial's inputs: speeds, durations and counts become exact numbers or a rule."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

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
    (1, 1), (1000, 1000), ("1,000,000", 1_000_000), ("10000", 10000), (40.0, 40), ("1e3", 1000),
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


# --- numbers that read two ways ---------------------------------------------------------------


@pytest.mark.parametrize(("written", "one", "other"), [
    ("5.000", "5", "5000"),
    ("2.000", "2", "2000"),
    ("1,500", "1.5", "1500"),
    ("12.250", "12.25", "12250"),
    ("1.500K", "1.5K", "1500K"),
])
def test_a_number_that_reads_two_ways_is_refused_with_both_readings(
        written: str, one: str, other: str) -> None:
    with pytest.raises(quantities.Ambiguous) as err:
        quantities.parse_speed(written)
    message = str(err.value)
    assert f"'{written}' reads two ways: {one} " in message
    assert f", {other} where it separates thousands; write {one} or {other}" in message


@pytest.mark.parametrize("parse", [quantities.parse_speed, quantities.parse_count,
                                   quantities.parse_duration])
def test_every_quantity_refuses_a_number_that_reads_two_ways(parse: object) -> None:
    with pytest.raises(quantities.Ambiguous):
        parse("2.000")  # type: ignore[operator]


@pytest.mark.parametrize("written", ["1,000,000", "1.5K", "5.0", "5.00", "5.0000", "1234.5",
                                     "1000", "2.5", "15 min", "1.5 h"])
def test_numbers_that_read_one_way_are_not_ambiguous(written: str) -> None:
    quantities.check_unambiguous(written)


def _built_with(tmp_path: Path, old: str, new: str) -> list[str]:
    from deckgen import source
    from deckgen.errors import InputError

    text = (ROOT / "content.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "content.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        source.read(path)
    return [str(problem) for problem in err.value.problems]


def test_a_speed_written_5_000_in_the_content_is_a_located_error(tmp_path: Path) -> None:
    """YAML reads 5.000 as 5.0; the content file's text says it may mean 5000."""
    lines = _built_with(tmp_path, "  speed: 1M", "  speed: 5.000")
    assert len(lines) == 1
    assert "content.yaml:" in lines[0] and "dial.speed" in lines[0]
    assert "'5.000' reads two ways: 5 where the point marks decimals, 5000 where" in lines[0]


def test_a_count_written_2_000_in_the_content_is_a_located_error(tmp_path: Path) -> None:
    text = (ROOT / "content.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if "tokens_each:" in ln)
    lines = _built_with(tmp_path, line, line.split(":")[0] + ": 2.000")
    assert len(lines) == 1 and "tokens_each" in lines[0] and "'2.000' reads two ways" in lines[0]


def test_a_speed_written_5_000_on_the_command_line_is_refused() -> None:
    from deckgen import build, source
    from deckgen.errors import InputError

    content, _ = source.read(None)
    with pytest.raises(InputError) as err:
        build.apply(content, build.Options(speed="5.000"))
    (problem,) = err.value.problems
    assert problem.path == "--speed"
    assert str(problem.message).startswith("'5.000' reads two ways: 5 where")
