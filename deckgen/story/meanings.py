"""The meanings: the four things "a million tokens a second" can mean, one card each, ours
marked."""

from __future__ import annotations

from deckgen.story.parts import Card, Slide
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[tuple[Card, ...], Slide]:
    """One card per meaning, and the slide that shows them."""
    cards = tuple(
        Card(talk.fill(m.label), talk.fill(m.question), talk.prose(f"meanings[{i}].text", m.text),
             m.ours)
        for i, m in enumerate(talk.content.meanings)
    )
    return cards, talk.slide("meanings")
