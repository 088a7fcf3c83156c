"""Parse the dial's inputs (speeds, durations, counts) into exact numbers.

Each parser takes what YAML or the command line gave (a number or a string) and returns
an exact `Fraction`, or raises `ValueError` with the sentence that the validator shows
after "got ...". No floats survive parsing: 1e6 becomes exactly 1,000,000.
"""

from __future__ import annotations

import math
import re
import unicodedata
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

# Longer texts are refused before any pattern runs, so parsing stays fast on any input; the
# longest value deckgen itself prints (a file name's exact decimal) is far shorter.
MAX_TEXT = 200

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9, "t": 10**12}
_NUMBER = re.compile(r"^[+-]?(\d[\d,_]*(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?$")
_UNITS = {
    "": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
}
# One part of a duration: a number and its unit ('2 h', '46min', '0.8 seconds', '1e3').
_PART = re.compile(r"\s*([+-]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:e[+-]?\d{1,4})?)\s*([a-z]*)")
_SPEED_UNIT = re.compile(r"\s*tokens?\s*(?:/|per)\s*(?:sec(?:ond)?|s)$")
_ORDER = {86400: 0, 3600: 1, 60: 2, 1: 3}
# One mark and three digits after it: a decimal point to one reader, a thousands separator to
# another ('5.000' is 5 in English and 5000 in German).
_TWO_WAYS = re.compile(r"^([+-]?)([1-9]\d{0,2})([.,])(\d{3})([a-z]*)$")


class Ambiguous(ValueError):
    """A number readers of different languages read as different values; the message names
    both readings and how to write it so that it reads one way."""


def check_unambiguous(written: str) -> None:
    """Raise Ambiguous when `written` (a number as the user typed it, perhaps with a suffix
    such as 'K') reads as two values: '5.000', '2,000', '1.500K'."""
    plain = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in written)
    match = _TWO_WAYS.match(plain.strip().lower())
    if not match:
        return
    sign, whole, mark, part, suffix = match.groups()
    as_decimal = f"{whole}.{part.rstrip('0')}" if part.rstrip("0") else whole
    as_thousands = str(int(whole + part))
    mark_name = "point" if mark == "." else "comma"
    unit = suffix.upper() if suffix in ("k", "m", "g", "b", "t") else suffix
    raise Ambiguous(
        f"{written.strip()!r} reads two ways: {sign}{as_decimal}{unit} where the {mark_name} "
        f"marks decimals, {sign}{as_thousands}{unit} where it separates thousands; write "
        f"{sign}{as_decimal}{unit} or {sign}{as_thousands}{unit}, whichever you mean")


def _exact(text: str) -> Fraction:
    """An exact value from a decimal string such as '1,000,000', '2.5' or '1e6'."""
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise ValueError
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
            if len(value) > MAX_TEXT:
                raise ValueError
            text = value.strip().lower()
            text = _SPEED_UNIT.sub("", text)
            shown = value.strip()[: len(text)]
            check_unambiguous(shown if shown.lower() == text else text)
            suffix = text[-1:] if text[-1:] in "kmgbt" and text[-1:] != "" else ""
            speed = _exact(text[: len(text) - len(suffix)]) * _SUFFIX[suffix]
        else:
            speed = _from_number(value)
    except Ambiguous:
        raise
    except (ValueError, TypeError, KeyError, IndexError):
        raise ValueError(SPEED_RULE) from None
    if speed < MIN_SPEED or speed > MAX_SPEED:
        raise ValueError(SPEED_RULE)
    return speed


def parse_duration(value: object) -> Fraction:
    """Seconds: 0, None/'none', 60, '60 s', '15 min', '1 h', '24 h', '1 day', '1.5 h', and
    every duration deckgen prints: '2 h 46 min 40 s', '0.8 seconds', '2h46min40s'."""
    try:
        if value is None:
            return Fraction(0)
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ValueError
            text = value.strip().lower()
            if text in ("none", "no", "0"):
                return Fraction(0)
            if not text[-1:].isalpha():  # a bare number of seconds ('1.500'); with a unit it
                check_unambiguous(text)  # is a duration as deckgen prints it ('1,000 h')
            seconds = _parts(text)
        else:
            seconds = _from_number(value)
    except Ambiguous:
        raise
    except (ValueError, TypeError):
        raise ValueError(DURATION_RULE) from None
    if seconds < 0 or seconds > MAX_DURATION or 0 < seconds < MIN_DURATION:
        raise ValueError(DURATION_RULE)
    return seconds


def _parts(text: str) -> Fraction:
    """A duration of one or more parts, units from the largest down, each once: '90',
    '15 min', '2 h 46 min 40 s'. One pass over the text."""
    total = Fraction(0)
    at, last = 0, -1
    while at < len(text):
        match = _PART.match(text, at)
        if not match or match.end() == at:
            raise ValueError
        number, unit = match.groups()
        if unit not in _UNITS or (number[0] in "+-" and at > 0):
            raise ValueError
        order = _ORDER[_UNITS[unit]]
        if order <= last or (not unit and (at > 0 or match.end() < len(text.rstrip()))):
            raise ValueError  # '1 h 2 h', '5 min 1 h', or a bare number beside others
        total += _exact(number) * _UNITS[unit]
        at, last = match.end(), order
        while at < len(text) and text[at].isspace():
            at += 1
    if last < 0:
        raise ValueError
    return total


def parse_count(value: object, limit: int = MAX_COUNT) -> int:
    """A whole number from 1 to `limit`."""
    rule = f"must be a whole number from 1 to {limit:,}"
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str):
            try:
                check_unambiguous(value)
                exact = _exact(value)
            except Ambiguous:
                raise
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
