"""The sources: what each one supports, and who published it."""

from __future__ import annotations

from deckgen.content import Source
from deckgen.story.parts import Cited, Slide
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[tuple[Cited, ...], Slide]:
    """Every source as the reader sees it, and the slide."""
    cited = tuple(
        Cited(**{**vars(s), "supports": talk.fill(s.supports)}, byline=byline(s))
        for s in talk.content.sources
    )
    return cited, talk.slide("sources")


def byline(source: Source) -> str:
    """Who published a source, what kind it is and when it was checked."""
    return " \u00b7 ".join((source.publisher, source.kind, f"checked {source.checked}"))
