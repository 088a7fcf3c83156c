"""What stays precious: the things no writing speed makes cheap."""

from __future__ import annotations

from deckgen.story.parts import Slide, Text
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[tuple[tuple[str, Text], ...], Slide]:
    """Each precious thing's name and why, and the slide."""
    told = tuple((talk.fill(p.name), talk.prose(f"precious[{i}].text", p.text))
                 for i, p in enumerate(talk.content.precious))
    return told, talk.slide("precious")
