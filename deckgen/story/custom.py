"""Slides of the presenter's own, and the order of every slide.

`tell` makes a custom slide (content.CustomSlide: text, image or section) into a story
`Slide` whose kind is its id; `arrange` puts the talk's slides in the content's order
(`Content.order`: built-in slides moved with `after:`, hidden ones left out, the presenter's
own where they said).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deckgen.content import CustomSlide
from deckgen.story.parts import Custom, Slide, Text
from deckgen.story.talk import Talk

BUILT_IN_ORDER = ("title", "meanings", "dial", "workloads", "experiments", "bottleneck",
                  "presets", "ceiling", "precious", "checklist", "sources", "closing")


def tell(talk: Talk, own: CustomSlide) -> Slide:
    """One slide of the presenter's own, its prose with its figures in place."""
    path = f"slides.{own.id}"

    def prose(key: str, text: str) -> Text:
        return talk.prose(f"{path}.{key}", text) if text else Text("")

    shows = Custom(
        kind=own.kind,
        bullets=tuple(prose(f"bullets[{i}]", b) for i, b in enumerate(own.bullets)),
        paragraph=prose("paragraph", own.paragraph),
        picture=own.picture,
        alt=talk.fill(own.alt),
        caption=prose("caption", own.caption),
        credit=prose("credit", own.credit),
        cover=own.fit == "cover",
        handout=own.handout,
    )
    return Slide(own.id, talk.fill(own.kicker), Text(talk.fill(own.headline), f"{path}.headline"),
                 talk.fill(own.notes) if own.notes else "", custom=shows)


def arrange(talk: Talk, built_in: Mapping[str, Sequence[Slide]]) -> tuple[Slide, ...]:
    """Every slide in the content's order: the built-in slides (by content id) and the
    presenter's own."""
    content = talk.content
    order = content.order or tuple(s for s in BUILT_IN_ORDER if s in built_in)
    slides: list[Slide] = []
    for sid in order:
        if sid in content.custom:
            slides.append(tell(talk, content.custom[sid]))
        else:
            slides.extend(built_in.get(sid, ()))
    return tuple(slides)
