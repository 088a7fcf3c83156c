"""The deck as planned and placed, as pure data: what the slides PDF and the notes book draw
(deckgen.paint.pdf), and what planned.py and ground.py read from the template with
python-pptx. Nothing here imports python-pptx, so the kit can be drawn without it, and a plan
travels between processes as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from deckgen import fmt
from deckgen.box import Box
from deckgen.content import Theme
from deckgen.errors import Problem
from deckgen.plan.items import SlidePlan, TextItem

Point = tuple[float, float]  # EMU on the slide
Step = tuple[str, tuple[Point, ...]]  # "move", "line", "curve" (three points) or "close"


@dataclass(frozen=True)
class Gradient:
    """A gradient fill: its stops (0 to 1, '#RRGGBB') along a line at `angle` degrees
    (clockwise from across) through the box, or with `radial` out from `focus` (shares of
    the box's width and height) to its farthest corner."""

    stops: tuple[tuple[float, str], ...]
    angle: float = 0.0
    radial: bool = False
    focus: tuple[float, float] = (0.5, 0.5)


@dataclass(frozen=True)
class Art:
    """One piece of a template's ground, in EMU on the slide: a picture (PNG or JPEG bytes) in
    its box, or an outline (`steps`, else the box as a rectangle or, with `ellipse`, the
    ellipse in it) filled and stroked in '#RRGGBB' colours ('' for none)."""

    box: Box
    picture: bytes = b""
    fill: str = ""
    fill_alpha: float = 1.0
    line: str = ""
    line_width: float = 0.0  # points
    ellipse: bool = False
    steps: tuple[Step, ...] = ()
    number: tuple[float, str, bool] | None = None  # a slide-number field: size, colour, bold
    gradient: Gradient | None = None  # in place of `fill`


@dataclass(frozen=True)
class Ground:
    """What a slide sits on: the background colour (the first stop of a gradient) or picture,
    and the master's then the layout's artwork, bottom first."""

    fill: str
    picture: bytes = b""
    art: tuple[Art, ...] = ()
    gradient: Gradient | None = None


@dataclass(frozen=True)
class Placed:
    """A placeholder's text as the deck sets it: a text item, the colour for paragraphs that
    keep the template's (colour None) and the alignment for those that keep its own."""

    item: TextItem
    colour: str
    align: str = "l"


@dataclass
class PlannedSlide:
    plan: SlidePlan
    title: Placed
    second: Placed | None = None  # the cover's subtitle
    footer: list[Placed] = field(default_factory=list)
    backdrop: Box | None = None  # a panel in the background colour under the items
    ground: Ground = Ground("#FFFFFF")


@dataclass
class Planned:
    """Every slide of the deck, planned and placed, with the slide's size (EMU), the theme as
    the deck's text uses it (a template's colours checked) and the fonts it was measured in."""

    width: int
    height: int
    theme: Theme
    body_font: str
    heading_font: str
    slides: list[PlannedSlide]
    undrawn: list[str] = field(default_factory=list)  # what of the template is not described
    warnings: list[Problem] = field(default_factory=list)  # the writer's, on its colours


def undrawn_warning(found: Planned, template_name: str) -> Problem | None:
    """One line naming what of the template the slides PDF leaves out, when anything."""
    if not found.undrawn:
        return None
    return Problem(f"the slides PDF leaves out what it cannot draw of the template: "
                   f"{'; '.join(found.undrawn)}", file=template_name)




def budget(notes: list[str], minutes: int) -> list[tuple[str, str]]:
    """Each slide's share of a `minutes`-long talk, by the words of its notes, and the time
    in by its end, as text: exact shares, each rounded half up to whole seconds."""
    words = [len(text.split()) for text in notes]
    total = sum(words)
    whole = Fraction(minutes * 60)
    out, sum_so_far = [], Fraction(0)
    for count in words:
        share = whole * count / total if total else whole / len(words)
        sum_so_far += share
        out.append((fmt.duration(Fraction(fmt.round_half_up(share, 0))),
                    fmt.duration(Fraction(fmt.round_half_up(sum_so_far, 0)))))
    return out
