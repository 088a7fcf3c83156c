"""Every number a reader sees is formatted here, and only here.

Exact inputs (`Fraction` or `int`), half-up rounding, no floats: a renderer's own measurement
for a message (`measure`, `dimensions`) is taken at its shortest decimal text first. Renderers
and the story call these; nothing else turns a number into text.

Each reader-facing function takes the talk's `Numbers` (deckgen.locale, English by default):
the number is rounded here first, then spelled in that language's marks and words.
"""

from __future__ import annotations

import math
import re
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from fractions import Fraction

from deckgen.locale import ENGLISH, Numbers

Number = Fraction | int

# Wide enough that moving the decimal point never rounds: the default context keeps 28 digits.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)

NBSP = "\u00a0"
TIMES = "\u00d7"
DIVIDE = "\u00f7"


def round_half_up(value: Number, places: int) -> Decimal:
    """`value` rounded to `places` decimals, halves away from zero, exactly."""
    if not isinstance(value, (int, Fraction)):
        value = Fraction(value)
    top, bottom = abs(value.numerator), value.denominator
    if places >= 0:
        top *= 10**places
    else:
        bottom *= 10**-places
    whole = (2 * top + bottom) // (2 * bottom)  # floor(|value| x 10^places + 1/2), in integers
    if value < 0:
        whole = -whole
    return Decimal(whole).scaleb(-places, _EXACT)


def _plain(value: Decimal, places: int, group: bool = True) -> str:
    """A decimal with thousands separators and trailing zeros dropped."""
    text = f"{value:,.{places}f}" if group else f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _significant(value: Fraction, figures: int) -> tuple[Decimal, int]:
    """`value` (0 < value) rounded to `figures` significant figures, and the decimals used."""
    exponent = 0
    while value >= Fraction(10) ** (exponent + 1):
        exponent += 1
    while value < Fraction(10) ** exponent:
        exponent -= 1
    places = max(figures - 1 - exponent, 0)
    return round_half_up(value, places), places


def number(value: Number, places: int = 2, lang: Numbers = ENGLISH) -> str:
    """A plain number: '8,060', '60.8', '2.5'; one too small for `places` keeps 3 significant
    figures ('0.001') rather than showing as 0."""
    rounded = round_half_up(value, places)
    if rounded == 0 and value != 0:
        rounded, places = _significant(abs(Fraction(value)), 3)
        if value < 0:
            rounded = -rounded
    return lang.spell(_plain(rounded, places))


def duration(seconds: Number, lang: Numbers = ENGLISH) -> str:
    """A span of time as the explainer writes it.

    Under 1 s: up to three significant figures ("0.8 seconds"); under 100 s: at most one
    decimal ("60.8 seconds", "1 second"); from 100 s: whole seconds as hours, minutes and
    seconds with zero parts left out ("2 h 46 min 40 s", "8 h 20 min", "24 h 1 s").
    """
    seconds = Fraction(seconds)
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    if seconds == 0:
        return lang.seconds_text(Decimal(0), "0")
    if seconds < 1:
        rounded, places = _significant(seconds, 3)
        if rounded < 1:
            return lang.seconds_text(rounded, lang.spell(_plain(rounded, places)))
    if seconds < 100:
        rounded = round_half_up(seconds, 1)
        if rounded < 100:
            plain = _plain(rounded, 1)
            return lang.seconds_text(Decimal(plain.replace(",", "")), lang.spell(plain))
    whole = int(round_half_up(seconds, 0))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [lang.hours.format(lang.spell(f"{hours:,}"))] if hours else []
    if minutes:
        parts.append(lang.minutes.format(minutes))
    if secs:
        parts.append(lang.short_seconds.format(secs))
    return " ".join(parts)


def check(seconds: Number, lang: Numbers = ENGLISH, none: str = "None") -> str:
    """A fixed check as a table label: 'None' (`none`, the language's word), '60 seconds',
    '15 min', '24 h'."""
    return none if Fraction(seconds) == 0 else duration(seconds, lang)


def speedup(ratio: Number, lang: Numbers = ENGLISH) -> str:
    """A whole ratio without decimals, any other with two, thousands separators: '10,000×',
    '132.57×', '1.09×', and '3.20×' (not '3.2×') beside '3.22×': every speedup that is not
    whole is shown at one precision, and a rounded one never reads as exact ('4.00×' for
    3.999)."""
    exact = Fraction(ratio)
    rounded = round_half_up(exact, 2)
    if exact.denominator == 1 or rounded == 0:  # whole, or too small for two decimals
        return number(exact, 2, lang) + TIMES
    return lang.spell(f"{rounded:,.2f}") + TIMES


def share(part: Number, lang: Numbers = ENGLISH) -> str:
    """A share of a whole (0..1) as a percentage with one decimal: '99.3%'. A share that is
    not all or nothing never reads as if it were: '>99.9%', '<0.1%'."""
    percent = Fraction(part) * 100
    shown = round_half_up(percent, 1)
    if shown == 100 and percent < 100:
        return ">" + lang.percent.format(lang.spell("99.9"))
    if shown == 0 and percent > 0:
        return "<" + lang.percent.format(lang.spell("0.1"))
    return lang.percent.format(lang.spell(f"{shown:.1f}"))


def tokens(count: int, lang: Numbers = ENGLISH) -> str:
    """A token count: '1,000,000'."""
    return lang.spell(f"{count:,}")


def count(value: int, lang: Numbers = ENGLISH) -> str:
    """A count of things: '1,000', '40'."""
    return lang.spell(f"{value:,}")


def ordinal(position: int) -> str:
    """A slide's or page's number as it is shown on it: '7', never grouped."""
    return str(position)


def percent(value: Number) -> str:
    """A whole percentage in a message: '5%'."""
    return f"{round_half_up(value, 0):f}%"


def speed(tokens_per_second: Number, lang: Numbers = ENGLISH, unit: str = "tokens/sec") -> str:
    """'1,000,000 tokens/sec' (`unit`: the language's word for tokens per second)."""
    return f"{number(tokens_per_second, 2, lang)} {unit}"


_MARKS = ((1, ""), (10**3, "K"), (10**6, "M"), (10**9, "B"), (10**12, "T"))


def speed_mark(tokens_per_second: Number, lang: Numbers = ENGLISH) -> str:
    """The dial's short marks: '100', '1K', '2.5K', '1M' (999,999 rounds up to '1M')."""
    value = Fraction(tokens_per_second)
    step = max((i for i, (size, _) in enumerate(_MARKS) if value >= size), default=0)
    # Rounding can carry into the next letter: 999.999K shows as 1M, not 1,000K.
    while step + 1 < len(_MARKS) and round_half_up(value / _MARKS[step][0], 2) >= 1000:
        step += 1
    size, letter = _MARKS[step]
    return number(value / size, 2, lang) + letter


def dial_mark(tokens_per_second: Number, lang: Numbers = ENGLISH) -> str:
    """The dial's own speed where a chart marks it: its short mark when that is the speed
    exactly ('1M', '2.5K', '40K'), else the number as the text writes it ('12,345'), so one
    speed is written one way in every output."""
    value = Fraction(tokens_per_second)
    step = max((i for i, (size, _) in enumerate(_MARKS) if value >= size), default=0)
    while step + 1 < len(_MARKS) and round_half_up(value / _MARKS[step][0], 2) >= 1000:
        step += 1
    if Fraction(round_half_up(value / _MARKS[step][0], 2)) * _MARKS[step][0] == value:
        return speed_mark(value, lang)
    return number(value, 2, lang)


def _exact(value: float | Number) -> Number | None:
    """A renderer's measurement as an exact number (a float by its shortest decimal text), or
    None for a float that is not finite."""
    if isinstance(value, float):
        return Fraction(repr(float(value))) if math.isfinite(value) else None
    return value


def measure(value: float | Number, unit: str, places: int = 2) -> str:
    """A length or size for a message: '2.5 in', '13.5 pt', '0.001 in'."""
    exact = _exact(value)
    return f"{value if exact is None else number(exact, places)} {unit}"


def dimensions(width: float | Number, height: float | Number, unit: str, places: int = 2) -> str:
    """A width by a height for a message: '13.33 x 7.5 in'."""
    sides = [(v if (e := _exact(v)) is None else number(e, places)) for v in (width, height)]
    return f"{sides[0]} x {sides[1]} {unit}"


def keep_together(text: str) -> str:
    """Join a figure's parts with no-break spaces so a line never splits '2 h 46 min'."""
    return text.replace(" ", NBSP)


def keep_units(text: str) -> str:
    """Join each number to the word after it ('2 h', '1,000,000 tokens/sec') and no more: a
    narrow table cell may break '2 Std. 13 Min. 20 Sek.' between its parts, never inside one."""
    return re.sub(r"(?<=\d) ", NBSP, text)
