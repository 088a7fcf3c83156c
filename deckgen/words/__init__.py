"""The talk's fixed words, from a catalogue per language (`deckgen/words/<language>.yaml`).

Every word and generated sentence deckgen writes beside the content's own prose (labels,
table headers, chart titles and alt texts, the notes' sentences, the page's controls) comes
from here. A sentence holds its figures by name in braces ("At {speed}"); `Words.say` puts
them in. A language without a catalogue takes the English words (its numbers still follow
its own CLDR spelling); the content file's `labels:` overrides any word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from deckgen import loader

SLOT = re.compile(r"\{(\w+)\}")  # where a figure goes: {speed}; the page's script uses the same


@cache
def catalogue(language: str) -> Mapping[str, str]:
    """The catalogue of one language ('en', 'de', ...), or an empty one where there is none."""
    if not re.fullmatch(r"[a-z]{2,3}", language):
        return {}
    place = resources.files("deckgen.words").joinpath(f"{language}.yaml")
    if not place.is_file():
        return {}
    data = loader.bundled(place.read_text(encoding="utf-8"))
    # Lines folded by YAML join with one space; a no-break space stays what it is.
    return {str(k): re.sub(r"[ \t\r\n]+", " ", str(v)).strip() for k, v in data.items()}


def languages() -> tuple[str, ...]:
    """The languages with a catalogue of their own."""
    found = (p.name[:-5] for p in resources.files("deckgen.words").iterdir()
             if p.name.endswith(".yaml"))
    return tuple(sorted(found))


def base(tag: str) -> str:
    """The language of a BCP 47 tag: 'de' of 'de-AT'."""
    return tag.split("-")[0].split("_")[0].lower()


def has_catalogue(tag: str) -> bool:
    return bool(catalogue(base(tag)))


def slots(template: str) -> set[str]:
    """The names a template puts figures in: {'speed'} of 'At {speed}'."""
    return set(SLOT.findall(template))


@dataclass(frozen=True)
class Words:
    """The fixed words of one talk: its language's catalogue, English where it has none, and
    the content's own `labels`."""

    tag: str
    table: Mapping[str, str] = field(hash=False)

    def __getattr__(self, name: str) -> str:
        try:
            return self.table[name]
        except KeyError:
            raise AttributeError(name) from None

    def say(self, name: str, **values: str) -> str:
        """The sentence `name` with each {slot} filled from `values`."""
        return SLOT.sub(lambda m: values[m.group(1)], self.table[name])


def english() -> Mapping[str, str]:
    return catalogue("en")


def of(tag: str, labels: Mapping[str, str] | None = None) -> Words:
    """The words for the BCP 47 `tag`, with `labels` (validated beforehand) over them."""
    return _of(tag, tuple(sorted((labels or {}).items())))


@cache
def _of(tag: str, labels: tuple[tuple[str, str], ...]) -> Words:
    table = dict(english())
    table.update(catalogue(base(tag)))
    table.update(labels)
    return Words(tag, table)
