"""The closing: the takeaway, the pointer to the checklist, and the page's address."""

from __future__ import annotations

from deckgen.story.parts import Closing, Slide, Text
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[Slide, ...]:
    """The closing slide, when the content has one."""
    if "closing" not in talk.content.slides:
        return ()
    end = talk.content.slides["closing"]
    said = Closing(Text(talk.fill(end.takeaway), "slides.closing.takeaway"),
                   Text(talk.fill(end.pointer), "slides.closing.pointer") if end.pointer
                   else Text(""), talk.content.meta.url)
    return (talk.slide("closing", closing=said),)
