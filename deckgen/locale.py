"""How numbers, percentages and durations are spelled in the talk's language (meta.language).

English is written out here and needs no library. Every other language comes from CLDR
through Babel, imported on first use only, so `deckgen table` and `check` on an English talk
never load it. deckgen rounds first, exactly and half up (deckgen.fmt); a `Numbers` only
spells the finished decimal: its marks, the percent pattern, the unit words of a duration and
the word that joins two items. Babel itself rounds half-even, so it is never handed a number
to round.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from babel import Locale

Plural = Callable[[Decimal], str]  # CLDR plural category of a number: 'one', 'other', ...


def _english_plural(value: Decimal) -> str:
    return "one" if value == 1 and value.as_tuple().exponent == 0 else "other"


@dataclass(frozen=True)
class Numbers:
    """The spelling of numbers in one language. Patterns hold `{}` where the number goes."""

    tag: str  # BCP 47: 'en', 'de', 'fr-CA'
    decimal: str = "."
    group: str = ","
    percent: str = "{}%"
    # A duration under 100 s in words, by plural category: '80 seconds', '1 second'.
    seconds: dict[str, str] = field(default_factory=lambda: {"one": "{} second",
                                                             "other": "{} seconds"})
    # The parts of a longer duration: '2 h 46 min 40 s'.
    hours: str = "{} h"
    minutes: str = "{} min"
    short_seconds: str = "{} s"
    pair: str = "{} and {}"  # two items: '100 and 5,000 tokens/sec'
    plural: Plural = field(default=_english_plural, compare=False)

    def spell(self, english: str) -> str:
        """A number written the English way ('1,234.5') in this language's marks."""
        if (self.decimal, self.group) == (".", ","):
            return english
        return english.translate({ord(","): "\0", ord("."): self.decimal}).replace(
            "\0", self.group)

    def seconds_text(self, value: Decimal, spelled: str) -> str:
        pattern = self.seconds.get(self.plural(value)) or self.seconds["other"]
        return pattern.format(spelled)


ENGLISH = Numbers("en")


def numbers(tag: str) -> Numbers:
    """The spelling of numbers for the BCP 47 `tag`: English without Babel, any other
    language from CLDR (an unknown tag: English's; `known` says which)."""
    base = tag.split("-")[0].lower()
    if base == "en" or not base:
        return ENGLISH
    return _from_cldr(tag)


def known(tag: str) -> bool:
    """Whether CLDR has data for `tag` (English always)."""
    if tag.split("-")[0].lower() == "en":
        return True
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return False
    return True


def office_tag(tag: str) -> str:
    """`tag` with its region, as office programs name a language for spell checking: 'de-DE'
    for 'de', 'ja-JP' for 'ja', 'en-US' for 'en' (CLDR's likely region); a tag that names its
    region, or one CLDR does not know, as it is."""
    parts = tag.replace("_", "-").split("-")
    if any(len(p) == 2 and p.isalpha() or len(p) == 3 and p.isdigit() for p in parts[1:]):
        return "-".join(parts)
    if parts[0].lower() == "en":
        return "en-US"
    from babel.core import get_global

    table = get_global("likely_subtags")
    likely = str(table.get("_".join([parts[0].lower(), *parts[1:]])) or
                 table.get(parts[0].lower(), ""))
    region = [p for p in likely.split("_")[1:] if len(p) == 2 and p.isupper()]
    return f"{parts[0].lower()}-{region[0]}" if region else "-".join(parts)


# Windows locale ids of the languages an office program is most likely to be asked for: a
# number format that starts with [$-407] shows German marks whatever the reader's settings.
_LCID = {"en": 0x409, "de": 0x407, "fr": 0x40C, "ja": 0x411, "es": 0xC0A, "it": 0x410,
         "nl": 0x413, "pt": 0x416, "sv": 0x41D, "da": 0x406, "nb": 0x414, "fi": 0x40B,
         "pl": 0x415, "cs": 0x405, "ru": 0x419, "tr": 0x41F, "zh": 0x804, "ko": 0x412}


def format_locale(tag: str) -> str:
    """The locale prefix of a spreadsheet number format for `tag` ('[$-407]' for German), so
    a chart's tick labels take the language's marks; '' for English or an unlisted
    language (the reader's own settings then decide)."""
    base = tag.replace("_", "-").split("-")[0].lower()
    return "" if base == "en" or base not in _LCID else f"[$-{_LCID[base]:X}]"


_NUMBER_PART = re.compile(r"[#0,.]+")


@cache
def _from_cldr(tag: str) -> Numbers:
    from babel import Locale, UnknownLocaleError, lists
    from babel import numbers as cldr

    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return ENGLISH
    percent = _NUMBER_PART.sub("{}", locale.percent_formats[None].pattern, count=1)
    seconds = {form: _unit_pattern(locale, "duration-second", "long", sample)
               for form, sample in _samples(locale).items()}
    return Numbers(
        tag=tag,
        decimal=cldr.get_decimal_symbol(locale),
        group=cldr.get_group_symbol(locale),
        percent=percent.split(";")[0],
        seconds=seconds,
        hours=_unit_pattern(locale, "duration-hour", "short", Decimal(2)),
        minutes=_unit_pattern(locale, "duration-minute", "short", Decimal(2)),
        short_seconds=_unit_pattern(locale, "duration-second", "short", Decimal(2)),
        pair=lists.format_list(["{0}", "{1}"], locale=locale).replace(
            "{0}", "{}", 1).replace("{1}", "{}", 1),
        plural=lambda value: str(locale.plural_form(value)),
    )


def _samples(locale: Locale) -> dict[str, Decimal]:
    """A number of each plural category the locale uses for durations in seconds."""
    found: dict[str, Decimal] = {}
    for text in ("1", "2", "5", "21", "80", "0.5", "1.5", "0.303", "0"):
        value = Decimal(text)
        found.setdefault(str(locale.plural_form(value)), value)
    return found


def _unit_pattern(locale: Locale, unit: str, length: Literal["long", "short"],
                  sample: Decimal) -> str:
    """CLDR's pattern for `sample` of `unit`, with `{}` where the number goes. Babel spells
    the number itself, so its own spelling of `sample` is found in its output and replaced;
    where CLDR lacks the long form (Babel then writes the unit's id), the short one serves."""
    from babel import numbers as cldr
    from babel import units

    written = units.format_unit(sample, unit, length=length, locale=locale)
    if unit in written and length != "short":
        written = units.format_unit(sample, unit, length="short", locale=locale)
    number = cldr.format_decimal(sample, locale=locale)
    if number not in written:
        return "{} " + unit.split("-")[1][0]
    return written.replace(number, "{}", 1)
