"""What every section of the talk composes from: the content with its figures, and the words
each slide takes from the content (`slides.<id>` there: kicker, headline, notes, footnote)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from deckgen import fmt
from deckgen.content import Content
from deckgen.figures import Figure, figures, fill, numbers_of, words_of
from deckgen.locale import Numbers
from deckgen.story.parts import Slide, Table, Text
from deckgen.words import Words

keep = fmt.keep_together  # a figure never breaks across lines: "2 h 46 min 40 s"


def keep_figures(rows: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Table rows with every figure cell (all but the first column) keeping each number with
    its unit; a renderer keeps a whole cell on one line where it has the room."""
    return tuple((row[0], *(fmt.keep_units(cell) for cell in row[1:])) for row in rows)


def table_notes(t: Table) -> str:
    """A table as the speaker's notes read it: one line per row, cells between bars."""
    lines = [" | ".join(t.header)]
    lines += [" | ".join(row) for row in t.rows]
    return "\n".join(lines)


@dataclass(frozen=True)
class Talk:
    """The content being told, with every figure it names at its dial."""

    content: Content

    @cached_property
    def figures(self) -> dict[str, Figure]:
        return figures(self.content)

    @cached_property
    def lang(self) -> Numbers:
        """How the talk's language spells numbers (meta.language)."""
        return numbers_of(self.content)

    @cached_property
    def words(self) -> Words:
        """The talk's fixed words, in its language."""
        return words_of(self.content)

    def say(self, name: str, **values: str) -> str:
        """One of the fixed sentences with its figures in place."""
        return self.words.say(name, **values)

    def rate(self, value: Fraction) -> str:
        """A speed in the talk's words: '1,000,000 tokens/sec', '1.000.000 Tokens/s'."""
        return fmt.speed(value, self.lang, self.words.tokens_per_sec)

    def check(self, value: Fraction, inline: bool = False) -> str:
        """A fixed check: 'None' as a label, 'none' inside a sentence, else its duration."""
        return fmt.check(value, self.lang, self.words.no_check if inline else self.words.none)

    @property
    def speed(self) -> str:
        """The dial's speed as text: '1,000,000 tokens/sec'."""
        return self.rate(self.content.dial.speed)

    @property
    def slow(self) -> str:
        """The slow end of the dial as text: '100 tokens/sec'."""
        return self.rate(self.content.dial.slow_speed)

    def figure(self, name: str) -> str:
        """One named figure's text: figure('bottleneck.total')."""
        return self.figures[name].text

    def fill(self, text: str) -> str:
        """`text` with its figures in place."""
        return fill(text, self.figures)

    def prose(self, path: str, text: str) -> Text:
        """Prose from the content at `path`, its figures in place and each kept on one line."""
        return Text(fill(text, self.figures, keep_together=True), path)

    def kicker(self, sid: str) -> str:
        return self.fill(self.content.slides[sid].kicker)

    def headline(self, sid: str) -> Text:
        return Text(fill(self.content.slides[sid].headline, self.figures, keep_together=True),
                    f"slides.{sid}.headline")  # "40,000 tokens/sec" never split

    def notes(self, sid: str, *extra: str) -> str:
        """The slide's own notes from the content, then `extra` paragraphs, blank-line apart."""
        base = self.content.slides[sid].notes
        parts = [self.fill(base)] if base else []
        parts.extend(e for e in extra if e)
        return "\n\n".join(parts)

    def slide(self, kind: str, *notes: str, **shows: Any) -> Slide:
        """A slide whose kicker, headline, notes and footnote come from `slides.<kind>` in the
        content."""
        said = self.content.slides[kind]
        foot = (Text(self.fill(said.footnote), f"slides.{kind}.footnote") if said.footnote
                else Text(""))
        return Slide(kind, self.kicker(kind), self.headline(kind), self.notes(kind, *notes),
                     footnote=foot, **shows)
