"""Numbers, percentages and durations in the talk's language: rounded by deckgen, spelled as CLDR
writes them (Babel), English without Babel."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import python_prints

from deckgen import fmt, locale

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(("tag", "million", "speedup", "share", "long", "hours"), [
    ("en", "1,000,000", "132.57×", "99.3%", "2 h 46 min 40 s", "2,000 h"),
    ("de", "1.000.000", "132,57×", f"99,3{NBSP}%", "2 Std. 46 Min. 40 Sek.", "2.000 Std."),
    ("fr", f"1{NNBSP}000{NNBSP}000", "132,57×", f"99,3{NBSP}%", f"2{NNBSP}h 46{NBSP}min 40{NNBSP}s",
     f"2{NNBSP}000{NNBSP}h"),
    ("ja", "1,000,000", "132.57×", "99.3%", "2 時間 46 分 40 秒", "2,000 時間"),
    ("de-CH", "1’000’000", "132.57×", "99.3%", "2 Std. 46 Min. 40 Sek.", "2’000 Std."),
])
def test_numbers_follow_cldr(tag: str, million: str, speedup: str, share: str, long: str,
                             hours: str) -> None:
    lang = locale.numbers(tag)
    assert fmt.number(1_000_000, lang=lang) == million
    assert fmt.speedup(F(8060) / F(608, 10), lang) == speedup  # 8,060 s over 60.8 s
    assert fmt.share(F(8000, 8060), lang) == share
    assert fmt.duration(10_000, lang) == long  # the explainer's 2 h 46 min 40 s
    assert fmt.duration(2000 * 3600, lang) == hours


@pytest.mark.parametrize(("tag", "seconds", "text"), [
    ("en", 80, "80 seconds"), ("en", 1, "1 second"), ("en", F(3, 2), "1.5 seconds"),
    ("de", 80, "80 Sekunden"), ("de", 1, "1 Sekunde"), ("de", F(303, 1000), "0,303 Sekunden"),
    # French counts 0 to under 2 as one: "1,5 seconde".
    ("fr", 1, f"1{NBSP}seconde"), ("fr", F(3, 2), f"1,5{NBSP}seconde"),
    ("fr", 80, f"80{NBSP}secondes"),
    ("ja", 80, "80 秒"),
])
def test_short_durations_use_the_languages_plural(tag: str, seconds: F | int, text: str) -> None:
    assert fmt.duration(seconds, locale.numbers(tag)) == text


def test_rounding_is_deckgens_half_up_not_babels_half_even() -> None:
    """Babel rounds 0.125 to 0.12 (half-even); deckgen rounds first, half up: 0,13."""
    assert fmt.number(F(1, 8), 2, locale.numbers("de")) == "0,13"
    assert fmt.speedup(F(5, 2) / 100, locale.numbers("de")) == "0,03×"


def test_shares_that_round_to_all_or_nothing_keep_their_sign_in_any_language() -> None:
    de = locale.numbers("de")
    assert fmt.share(F(99964, 100000), de) == f">99,9{NBSP}%"
    assert fmt.share(F(36, 100000), de) == f"<0,1{NBSP}%"


def test_two_items_are_joined_with_the_languages_word() -> None:
    assert locale.numbers("en").pair.format("100", "5,000") == "100 and 5,000"
    assert locale.numbers("de").pair.format("100", "5.000") == "100 und 5.000"
    assert locale.numbers("fr").pair.format("100", "5 000") == "100 et 5 000"


def test_a_language_cldr_lacks_is_spelled_as_english() -> None:
    assert locale.numbers("qx") == locale.ENGLISH
    assert not locale.known("qx") and locale.known("de") and locale.known("en")


def test_english_needs_no_babel() -> None:
    code = ("import sys; from deckgen import fmt, locale; "
            "fmt.duration(10000, locale.numbers('en-GB')); print('babel' in sys.modules)")
    assert python_prints(code) == "False"
