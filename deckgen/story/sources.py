"""The sources: what each one supports, and who published it."""

from __future__ import annotations

from deckgen.content import Source
from deckgen.story.parts import Cited, Slide
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[tuple[Cited, ...], Slide]:
    """Every source as the reader sees it, and the slide."""
    cited = tuple(
        Cited(**{**vars(s), "supports": talk.fill(s.supports)},
              byline=byline(s, talk.say("checked", date=s.checked)))
        for s in talk.content.sources
    )
    return cited, talk.slide("sources")


def byline(source: Source, checked: str = "") -> str:
    """Who published a source, what kind it is and when it was checked (`checked`: that in
    the talk's words)."""
    return " \u00b7 ".join((source.publisher, source.kind, checked or f"checked {source.checked}"))
