"""Parse the dial's inputs (speeds, durations, counts) into exact numbers.

Each parser takes what YAML or the command line gave (a number or a string) and returns
an exact `Fraction`, or raises `ValueError` with the sentence that the validator shows
after "got ...". No floats survive parsing: 1e6 becomes exactly 1,000,000.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

# Documented limits (README, "Limits"): far beyond any talk, small enough to stay exact and fast.
MIN_SPEED = Fraction(1, 1000)  # tokens per second; slower makes times too long to print
MAX_SPEED = Fraction(10**12)  # tokens per second
MIN_DURATION = Fraction(1, 1000)  # the shortest check that is not none, in seconds
MAX_DURATION = Fraction(366 * 24 * 3600)  # one year, in seconds
MAX_COUNT = 10**9
MAX_TOKENS_EACH = 10**9

SPEED_RULE = ("must be a positive number of tokens per second from 0.001 to 1,000,000,000,000 "
              "(100, 1K, 1M, 1e6, '1,000,000')")
DURATION_RULE = ("must be a duration of 0 or from 0.001 seconds to 366 days "
                 "(0, none, 60, '60 s', '15 min', '1 h', '24 h', '1 day')")

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9, "t": 10**12}
_NUMBER = re.compile(r"^[+-]?(\d[\d,_]*(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?$")
_UNITS = {
    "": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
}
_DURATION = re.compile(r"^([+-]?[\d.,_eE+-]+?)\s*([a-z]*)$")


def _exact(text: str) -> Fraction:
    """An exact value from a decimal string such as '1,000,000', '2.5' or '1e6'."""
    text = text.strip()
    if not _NUMBER.match(text):
        raise ValueError
    if "," in text and not re.match(r"^[+-]?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?$", text):
        raise ValueError
    try:
        value = Decimal(text.replace(",", "").replace("_", ""))
    except InvalidOperation:
        raise ValueError from None
    if not value.is_finite():
        raise ValueError
    return Fraction(value)


def _from_number(value: object) -> Fraction:
    """An exact value from a YAML number (never a bool)."""
    if isinstance(value, bool):
        raise ValueError
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError
        return Fraction(Decimal(repr(value)))
    raise TypeError


def parse_speed(value: object) -> Fraction:
    """Tokens per second: 100, 1K, 10K, 1M, 1e6, '1,000,000', '2.5K', '1,000,000 tokens/sec'."""
    try:
        if isinstance(value, str):
            text = value.strip().lower()
            text = re.sub(r"\s*(tokens?\s*(/|per)\s*(sec(ond)?|s))$", "", text)
            suffix = text[-1:] if text[-1:] in "kmgbt" and text[-1:] != "" else ""
            speed = _exact(text[: len(text) - len(suffix)]) * _SUFFIX[suffix]
        else:
            speed = _from_number(value)
    except (ValueError, TypeError, KeyError, IndexError):
        raise ValueError(SPEED_RULE) from None
    if speed < MIN_SPEED or speed > MAX_SPEED:
        raise ValueError(SPEED_RULE)
    return speed


def parse_duration(value: object) -> Fraction:
    """Seconds: 0, None/'none', 60, '60 s', '15 min', '1 h', '24 h', '1 day', '1.5 h'."""
    try:
        if value is None:
            return Fraction(0)
        if isinstance(value, str):
            text = value.strip().lower()
            if text in ("none", "no", "0"):
                return Fraction(0)
            match = _DURATION.match(text)
            if not match or match.group(2) not in _UNITS:
                raise ValueError
            seconds = _exact(match.group(1)) * _UNITS[match.group(2)]
        else:
            seconds = _from_number(value)
    except (ValueError, TypeError):
        raise ValueError(DURATION_RULE) from None
    if seconds < 0 or seconds > MAX_DURATION or 0 < seconds < MIN_DURATION:
        raise ValueError(DURATION_RULE)
    return seconds


def parse_count(value: object, limit: int = MAX_COUNT) -> int:
    """A whole number from 1 to `limit`."""
    rule = f"must be a whole number from 1 to {limit:,}"
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str):
            try:
                exact = _exact(value)
            except ValueError:
                raise ValueError(rule) from None
            if exact.denominator == 1:
                value = int(exact)
            else:
                raise ValueError(rule)
        elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        else:
            raise ValueError(rule)
    assert isinstance(value, int)
    if value < 1 or value > limit:
        raise ValueError(rule)
    return value
