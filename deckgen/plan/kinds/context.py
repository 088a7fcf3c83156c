"""What every slide is planned in: the story, the geometry, the type scale and the faces.

A `Context` is frozen: a slide kind whose layout was chosen by name gets a copy with that
layout's geometry, and a title tried at the body size a copy with `title_step` 1. Each slide
kind's module offers `Arrangement`s, functions that give the slide's items or a `Misfit`, in
order of preference; the search (deckgen.typeset.fit) takes the first that fits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.geometry import Geometry
from deckgen.plan.items import Item
from deckgen.plan.kinds.fitting import Faces
from deckgen.typeset.fit import Misfit, TypeScale

Arrangement = Callable[[], list[Item] | Misfit]

CHART_MIN = inch(1.8)  # the least height a line chart gets
BAR_CHART_MIN = inch(2.6)  # two bars, their titles and labels
BAR_CHART_LEAST = inch(2.3)  # the bars' last resort (their labels need about 2.1 in)
CHART_ROOM = inch(2.6)  # what a chart gets when a table shares its slide
CHART_LEAST = inch(1.5)  # a line chart's last resort beside a table on a narrow slide
CEILING_ROOM = inch(3.4)  # a stacked ceiling chart's height: room for five end labels on a log axis


@dataclass(frozen=True)
class Context:
    """One story on one template: `g`, the geometry of the slide's layout; `wide`, `t` (the
    type scale) and `faces`, the deck's own, whatever the layout."""

    story: st.Story
    g: Geometry
    wide: bool
    t: TypeScale
    faces: Faces
    title_step: int = 0  # on a template: 0 tries the title size first, 1 the body size only
    # One look per deck, on a template: every content slide's title at this size (None:
    # each its largest) and its kicker inside the title's box over the title, or under it
    # (None: as each slide's title allows).
    title_pt: float | None = None
    kicker_in: bool | None = None

    @classmethod
    def of(cls, story: st.Story, geometry: Geometry, scale: TypeScale, faces: Faces) -> Context:
        return cls(story, geometry, geometry.wide, scale, faces)

    def scaled(self, length: int) -> int:
        """A least size designed for deckgen's 7.5 in slide, scaled with the type scale."""
        return round(length * self.t.body / TypeScale().body)


# A slide kind's arrangements for a slide in the frame left under its title.
Kind = Callable[[Context, st.Slide, Box], list[Arrangement]]
