"""The title: the talk's name and subtitle with their figures, and its opening slide."""

from __future__ import annotations

from dataclasses import replace

from deckgen.content import Meta
from deckgen.story.parts import Slide, Text
from deckgen.story.talk import Talk


def tell(talk: Talk) -> tuple[Meta, Slide]:
    """The talk's meta with its title and subtitle filled in, and the title slide."""
    content = talk.content
    meta = replace(content.meta, title=talk.fill(content.meta.title),
                   subtitle=talk.fill(content.meta.subtitle))
    slide = Slide("title", talk.kicker("title"), Text(talk.fill(content.meta.title), "meta.title"),
                  talk.notes("title"))
    return meta, slide


def event_line(meta: Meta) -> str:
    """The deck's footer: "AI Builders Meetup \u00b7 2026-12-03"."""
    return " \u00b7 ".join(x for x in (meta.event, meta.date) if x)
