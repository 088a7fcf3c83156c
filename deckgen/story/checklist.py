"""The checklist: the steps to take home, each with its detail and a label to write in."""

from __future__ import annotations

from deckgen.story.parts import Slide, Text
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[tuple[tuple[str, Text, str], ...], Slide]:
    """Each step, its detail and its write-in label, and the slide."""
    steps = tuple(
        (talk.fill(s.step), talk.prose(f"checklist[{i}].detail", s.detail), talk.fill(s.write_in))
        for i, s in enumerate(talk.content.checklist)
    )
    return steps, talk.slide("checklist")
