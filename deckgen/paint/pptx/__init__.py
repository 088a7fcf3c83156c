"""The deck: the story as a PowerPoint file a presenter can open, edit and present as is.

`plans/` plans every slide without python-pptx (one module per slide kind), into the types of
`plan.py`, on the template's `geometry.py`. With python-pptx, through its public API:
`template.py` reads the template (`layouts.py` its layouts, `placeholders.py` their
placeholders, `colours.py` its colours, `template_pictures.py` its pictures), `draw.py` draws
the items (native charts with `charts/`, tables with `tables.py`, text with `paragraphs.py`,
in the theme's colours by `colour_roles.py`), `write.py` adds the slides (`legibility.py`
keeps their text readable on a template's artwork), and `package.py` sets the package's
properties and saves it as stable bytes. `compat.py` holds the few things python-pptx has no
API for. The entry points are imported on first use, so planning needs no python-pptx.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from deckgen import story as st
    from deckgen.errors import Problem
    from deckgen.paint.pptx.draw import ChartPictures
    from deckgen.paint.pptx.write import Laid


def render(story: st.Story, *, template: bytes | None = None,
           walk: tuple[st.Slide, ...] = (), charts: str = "native",
           template_name: str = "template.pptx",
           warn: Callable[[Problem], None] | None = None,
           cache: ChartPictures | None = None, epoch: int | None = None,
           laid: Laid | None = None) -> bytes:
    """The deck as .pptx bytes: the story's slides, with `walk` after the dial slide (or the
    slides `laid` out already, by `write.lay_out`, drawn into its presentation); charts
    as native chart parts or, with `charts="picture"`, as PNG pictures from `cache` (the
    build's chart cache: anything with `ChartPictures.render`; None: drawn here);
    `template_name` is how errors about the template name it, and replaced template colours
    are passed to `warn`. The package is dated `epoch`
    (SOURCE_DATE_EPOCH's seconds; None: 2000-01-01)."""
    from deckgen.paint.pptx.write import render as write

    return write(story, template=template, walk=walk, charts=charts,
                 template_name=template_name, warn=warn, cache=cache, epoch=epoch,
                 laid=laid)


def describe_layouts(path: Path) -> str:
    """A template's slide size, theme, layouts and placeholders, and the two layouts deckgen
    would use."""
    from deckgen.paint.pptx.layouts import describe_layouts as describe

    return describe(path)
