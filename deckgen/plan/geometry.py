"""The template's geometry as the slide plans need it: the title's box, where content ends,
the cover's boxes, in EMU; deckgen's own master at each aspect, and how a template's content
area compares with it (which scales the type scale). Pure: layouts.py reads a template's
layouts into a `Geometry`, so plans are made and tested without python-pptx."""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.box import Box, inch, pt


@dataclass(frozen=True)
class Geometry:
    """What the plans need to know of the template, in EMU."""

    width: int
    height: int
    own: bool  # deckgen's own master (not a presenter's template)
    title: Box  # the content layout's title placeholder
    title_inset: tuple[int, int, int, int]
    bottom: int  # where content ends: above the footer
    cover_title: Box
    cover_title_inset: tuple[int, int, int, int]
    cover_centred: bool
    cover_second: tuple[Box, tuple[int, int, int, int]] | None  # subtitle or body placeholder
    body: Box | None = None  # a template's content area: its layout's (or master's) body

    @property
    def wide(self) -> bool:
        return self.width / self.height > 1.5


SLIDE_HEIGHT = inch(7.5)  # both aspects
SLIDE_WIDTHS = {"16:9": 12192000, "4:3": 9144000}  # 13.333 in and 10 in
MARGINS = {"16:9": inch(0.6), "4:3": inch(0.5)}


def default_geometry(aspect: str) -> Geometry:
    """The geometry of deckgen's own master at `aspect` (scripts/own_masters.py lays the
    master out from these same boxes): kicker and title at the top left, footer along the
    bottom."""
    width, margin = SLIDE_WIDTHS[aspect], MARGINS[aspect]
    inner = width - 2 * margin
    zero = (0, 0, 0, 0)
    return Geometry(width=width, height=SLIDE_HEIGHT, own=True,
                    title=Box(margin, inch(0.72), inner, inch(1.32)), title_inset=zero,
                    bottom=SLIDE_HEIGHT - inch(0.6),
                    cover_title=Box(margin, inch(2.05), inner, inch(1.9)), cover_title_inset=zero,
                    cover_centred=True, cover_second=(Box(margin, inch(4.25), inner, inch(2.45)),
                                                      zero))


def scale_height(g: Geometry) -> float:
    """The slide height (points) the type scale is set for: the slide's own, or less when a
    template's content area is smaller, in proportion, than deckgen's own master gives (so
    the same content fits the same way in a template's narrower or shorter body)."""
    height = pt(g.height)
    return height * area_ratio(g)


LEAST_AREA = 0.5  # the least a template's content area may be, in proportion to deckgen's own


def content_room(g: Geometry) -> tuple[int, int]:
    """The height a template leaves for content under its title, and the least it must."""
    own = default_geometry("16:9" if g.wide else "4:3")
    frame_h = own.bottom - inch(1.9)
    top = max(g.title.bottom + inch(0.15), g.body.y) if g.body is not None else g.title.bottom
    return g.bottom - top, round(frame_h * LEAST_AREA * g.height / own.height)


def area_ratio(g: Geometry) -> float:
    """How a template's content area (its body under its title, above its footer) compares,
    in proportion to the slide, with deckgen's own master's: 1 when as large or larger."""
    if g.body is None:
        return 1.0
    own = default_geometry("16:9" if g.wide else "4:3")
    frame_w, frame_h = own.title.w, own.bottom - inch(1.9)  # under a title of about 1.5 lines
    top = max(g.title.bottom + inch(0.15), g.body.y)
    return min(1.0, g.body.w / frame_w / (g.width / own.width),
               (g.bottom - top) / frame_h / (g.height / own.height))
