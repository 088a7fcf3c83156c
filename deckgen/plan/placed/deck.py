"""The placed deck itself: each slide's ground and shapes, the deck, the notes book."""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.box import Box
from deckgen.errors import Problem
from deckgen.plan.placed.charts import Chart, Stroke
from deckgen.plan.placed.shapes import Image, Qr, Rect, TableBox
from deckgen.plan.placed.text import Font, TextBox, TextLine

Shape = TextBox | TableBox | Rect | Qr | Image | Chart


@dataclass(frozen=True)
class Blend:
    """A gradient as drawn: its stops (0 to 1, '#RRGGBB') along a line at `angle` degrees
    (clockwise from across), or with `radial` out from `focus` (shares of the box)."""

    stops: tuple[tuple[float, str], ...]
    angle: float = 0.0
    radial: bool = False
    focus: tuple[float, float] = (0.5, 0.5)


Point = tuple[float, float]  # EMU on the slide
Step = tuple[str, tuple[Point, ...]]  # "move", "line", "curve" (three points) or "close"


@dataclass(frozen=True)
class Art:
    """One piece of a template's artwork as drawn on the slide: a picture (PNG or JPEG
    bytes) in its box, or an outline (`steps`, else the box as a rectangle or, with
    `ellipse`, the ellipse in it) filled and stroked ('' for none), or the slide's number
    set in the artwork's own field (`number`)."""

    box: Box
    picture: bytes = b""
    fill: str = ""
    fill_alpha: float = 1.0
    blend: Blend | None = None
    line: str = ""
    line_width: float = 0.0
    ellipse: bool = False
    steps: tuple[Step, ...] = ()
    number: TextBox | None = None


@dataclass(frozen=True)
class Ground:
    """What a slide sits on, as the slides PDF draws it (the deck's template shows it
    itself): the background colour (the first stop of a gradient) or picture, and the
    master's then the layout's artwork, bottom first."""

    fill: str
    picture: bytes = b""
    blend: Blend | None = None
    art: tuple[Art, ...] = ()


@dataclass(frozen=True)
class PlacedSlide:
    """One slide placed: its kind, its title as one line (a bookmark), the layout it goes
    on (its number among the template's layouts), its ground, its shapes bottom first,
    its notes, and whether it is the cover."""

    kind: str
    title: str
    layout: int
    ground: Ground
    shapes: tuple[Shape, ...]
    notes: str = ""
    cover: bool = False


@dataclass(frozen=True)
class Deck:
    """Every slide placed, on a template of `width` x `height` EMU; the body font's own face
    (a PDF's text state starts in it); what the deck writes into the template's theme
    (colour slots replaced; the fonts, when they are the content's), the language tag its
    text carries, the warnings the plan met, what of the template's ground the slides PDF
    cannot draw, and (when the talk's length is given) each slide's share of the time."""

    width: int
    height: int
    slides: tuple[PlacedSlide, ...]
    body_face: Font
    theme_slots: tuple[tuple[str, str], ...] = ()
    theme_fonts: tuple[str, str] | None = None
    theme_named: bool = False  # the theme is deckgen's own: its name is written too
    language: str = "en-US"
    warnings: tuple[Problem, ...] = ()
    undrawn: tuple[str, ...] = ()
    times: tuple[tuple[str, str], ...] = ()  # each slide's share of the talk, the time by its end


@dataclass(frozen=True)
class NotesPage:
    """A page of the speaker's notes book: the slide it shows small (its number, from 1; 0 on
    a page the notes run on to) at `slide_at` (left, top, and the scale it is drawn at;
    points from the page's top left) in a frame; its lines (the slide's heading, its time,
    its notes), set; the bookmark it starts (empty on a page the notes run on to)."""

    slide: int
    slide_at: tuple[float, float, float]
    frame: Stroke | None
    lines: tuple[TextLine, ...]
    bookmark: str = ""


@dataclass(frozen=True)
class NotesBook:
    """The speaker's notes book placed: its pages' size (points) and its pages in order."""

    width: float
    height: float
    pages: tuple[NotesPage, ...]
