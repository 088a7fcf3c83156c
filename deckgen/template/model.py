"""A template as plain data: its slide size, theme, masters and layouts, their placeholders,
artwork and backgrounds, and its pictures decoded small for sampling.

What `deckgen.template.read` (a presenter's .pptx) and `deckgen.template.own` (deckgen's own
master) give the planner. Frozen and picklable, nothing of any library inside: the planner
reads these values, never the file format. Lengths are EMU on the slide, as the file gives
them; colours keep how the template names them (a theme slot with its modifiers, or a literal
value), since the theme's slots may change before they are drawn (`ThemeColour.on`).
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping
from dataclasses import dataclass

from deckgen.box import Box, overlap

# The names text and backgrounds use for the theme's colour slots, as a master's colour map
# (`p:clrMap`) gives them by default; a dark master may swap them (tx1 to lt1, bg1 to dk1).
DEFAULT_COLOUR_MAP = (("bg1", "lt1"), ("tx1", "dk1"), ("bg2", "lt2"), ("tx2", "dk2"))
SLOT_ALIASES = dict(DEFAULT_COLOUR_MAP)


def mapped(slots: Mapping[str, str],
           colour_map: tuple[tuple[str, str], ...] = DEFAULT_COLOUR_MAP) -> dict[str, str]:
    """The theme's colour `slots` with the colour map's names (tx1, bg1, tx2, bg2) added, each
    the value of the slot it names."""
    found = dict(slots)
    for name, slot in colour_map:
        if slot in found:
            found[name] = found[slot]
    return found


# Placeholder kinds, by the names PresentationML gives them (`p:ph/@type`; "obj" without one).
TITLE_KINDS = ("title", "ctrTitle")
BODY_KINDS = ("body", "obj")
FOOTER_KINDS = ("dt", "ftr", "sldNum")
# A placeholder's family: the master placeholder a layout's inherits from when it has no
# position of its own, the way PowerPoint resolves it (by type, not by idx or name).
FAMILY = {"ctrTitle": "title", "subTitle": "body", "obj": "body"}


def family(kind: str) -> str:
    return FAMILY.get(kind, kind)


@dataclass(frozen=True)
class ThemeColour:
    """A colour as a template names it: a theme slot (`slot`, 'accent1', 'tx1') or a literal
    '#RRGGBB' (`value`), with its DrawingML modifiers (tint, shade, lumMod, lumOff), in
    order, and its opacity."""

    slot: str = ""
    value: str = ""
    modifiers: tuple[tuple[str, int], ...] = ()
    alpha: float = 1.0

    def on(self, scheme: Mapping[str, str]) -> str:
        """'#RRGGBB' with `scheme`'s slots (theme colours, '#RRGGBB' by slot name); '' when
        it names a slot the scheme lacks."""
        base = (scheme.get(self.slot) or scheme.get(SLOT_ALIASES.get(self.slot, self.slot), "")) \
            if self.slot else self.value
        return modified(base, self.modifiers) if base else ""


def modified(colour: str, modifiers: tuple[tuple[str, int], ...]) -> str:
    """`colour` with DrawingML's colour modifiers applied (tint, shade, lumMod, lumOff), in
    sRGB, as near as a contrast check needs."""
    if not modifiers:
        return colour
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    for tag, val in modifiers:
        k = val / 100000
        if tag == "tint":
            rgb = [c + (1 - c) * (1 - k) for c in rgb]
        elif tag == "shade":
            rgb = [c * k for c in rgb]
        elif tag in ("lumMod", "lumOff"):
            h, lum, sat = colorsys.rgb_to_hls(*rgb)
            lum = lum * k if tag == "lumMod" else lum + k
            rgb = list(colorsys.hls_to_rgb(h, min(1.0, max(0.0, lum)), sat))
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02X}" for c in rgb)


@dataclass(frozen=True)
class Raster:
    """A picture decoded small, for sampling what text would sit on: `width` x `height`
    pixels, RGB, row by row, on white where it was transparent."""

    width: int
    height: int
    pixels: bytes


@dataclass(frozen=True)
class TemplatePicture:
    """A picture of the template: its bytes when they are PNG or JPEG (what the slides PDF
    can draw; b'' otherwise), its format, and its raster (None when it cannot be decoded
    within bounds)."""

    data: bytes
    format: str  # "png", "jpeg", or the part's content type when neither
    raster: Raster | None


@dataclass(frozen=True)
class Gradient:
    """A gradient fill: its stops (0 to 1, each with its colour) along a line at `angle`
    degrees (clockwise from across) through the box, or with `radial` out from `focus`
    (shares of the box's width and height) to its farthest corner."""

    stops: tuple[tuple[float, ThemeColour], ...]
    angle: float = 0.0
    radial: bool = False
    focus: tuple[float, float] = (0.5, 0.5)


@dataclass(frozen=True)
class Fill:
    """How a shape or a background is filled: "none", "solid", "gradient", "pattern" or
    "picture"; the colours in it (a gradient's stops, a pattern's two), its gradient, its
    picture."""

    kind: str = "none"
    colours: tuple[ThemeColour, ...] = ()
    gradient: Gradient | None = None
    picture: TemplatePicture | None = None

    @property
    def translucent(self) -> bool:
        """Whether what is under it shows more than it does (every colour under 50%
        opaque): text on it reads on what is under it."""
        return bool(self.colours) and max(c.alpha for c in self.colours) < 0.5


Point = tuple[float, float]  # EMU on the slide
Step = tuple[str, tuple[Point, ...]]  # "move", "line", "curve" (three points) or "close"


@dataclass(frozen=True)
class Drawing:
    """One drawable piece of artwork, in EMU on the slide: a picture in its box, or an
    outline (`steps`, else the box as a rectangle or, with `ellipse`, the ellipse in it)
    filled and stroked; or the slide's number, shown in the artwork's own field."""

    box: Box
    picture: TemplatePicture | None = None
    fill: Fill = Fill()
    line: ThemeColour | None = None
    line_width: float = 0.0  # points
    ellipse: bool = False
    steps: tuple[Step, ...] = ()
    number: NumberField | None = None


@dataclass(frozen=True)
class NumberField:
    """A slide-number field in the artwork (Midnightblue's circle): the size (points),
    colour and weight it shows the number in."""

    size: float
    colour: ThemeColour | None
    bold: bool


@dataclass(frozen=True)
class Artwork:
    """One piece of a layout's or master's artwork (a shape, picture or group that is not a
    placeholder): its box, what it is, its fill, whether it holds text or shows the slide's
    number, and how it is drawn (`drawings`, its group's pieces placed on the slide; what
    cannot be drawn is named in `undrawn`)."""

    box: Box
    kind: str  # "shape", "picture" or "group"
    fill: Fill = Fill()
    picture: TemplatePicture | None = None  # a picture's, or a shape's picture fill
    numbers: bool = False  # shows the slide number in a field of its own
    drawings: tuple[Drawing, ...] = ()
    undrawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextLook:
    """What a placeholder or text style gives its first level of text, where it says: the
    size (points), weight, colour (the colours of its fill) and alignment ('l', 'ctr', 'r'),
    each None where it says nothing."""

    size: float | None = None
    bold: bool | None = None
    colours: tuple[ThemeColour, ...] = ()
    align: str | None = None


@dataclass(frozen=True)
class Placeholder:
    """A placeholder of a layout or master, as its own XML gives it: its kind (`p:ph/@type`,
    "obj" without one), idx, name, box (None: inherited), text insets (left, top, right,
    bottom; None each where it says none), anchor ('t', 'ctr', 'b'), whether its text block
    is centred, and its text's look (`run` from its prompt text, which new text does not
    inherit but the template's designer chose; `listed` from its list style)."""

    kind: str
    idx: int
    name: str
    box: Box | None
    insets: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    anchor: str | None = None
    centred: bool = False
    listed: TextLook = TextLook()
    run: TextLook = TextLook()


@dataclass(frozen=True)
class Master:
    """A slide master: its placeholders, artwork (bottom first), background, and its text
    styles' first levels for titles and body text."""

    placeholders: tuple[Placeholder, ...]
    art: tuple[Artwork, ...]
    background: Fill | None
    title_style: TextLook = TextLook()
    body_style: TextLook = TextLook()


@dataclass(frozen=True)
class Layout:
    """A slide layout: its name, its master (by index), its index among the master's layouts
    (python-pptx's and PowerPoint's order), its placeholders, artwork (bottom first) and
    background, and whether the master's artwork shows on it."""

    name: str
    master: int
    index: int
    placeholders: tuple[Placeholder, ...]
    art: tuple[Artwork, ...]
    background: Fill | None
    shows_master_art: bool = True

    def kinds(self) -> list[str]:
        return [p.kind for p in self.placeholders]


@dataclass(frozen=True)
class Template:
    """A template as the planner reads it: the slide size (EMU), whether it is deckgen's own
    master, the theme's colour slots ('#RRGGBB' by slot name) and fonts (heading and body),
    the masters and every layout of every master in order; the file itself (`data`, None
    for deckgen's own), which the deck is drawn on; and the first master's colour map (which
    slot text and backgrounds show)."""

    width: int
    height: int
    own: bool
    scheme: tuple[tuple[str, str], ...]
    heading_font: str
    body_font: str
    masters: tuple[Master, ...]
    layouts: tuple[Layout, ...]
    data: bytes | None = None
    colour_map: tuple[tuple[str, str], ...] = DEFAULT_COLOUR_MAP

    @property
    def colours(self) -> dict[str, str]:
        """The theme's colours by slot, and by the names the colour map gives them."""
        return mapped(dict(self.scheme), self.colour_map)

    def showing(self, layout: Layout) -> tuple[Artwork, ...]:
        """The artwork a layout's slides show, bottom first: its master's (unless the
        layout hides it), then its own."""
        master = self.master_of(layout).art if layout.shows_master_art else ()
        return (*master, *layout.art)

    def covers(self, box: Box) -> bool:
        """Whether `box` covers the slide (95% of it or more): a background piece."""
        slide = Box(0, 0, self.width, self.height)
        return overlap(box, slide) * 20 >= 19 * self.width * self.height

    def slot(self, name: str) -> str:
        """The theme slot a colour-map name ('tx1', 'bg1', 'tx2', 'bg2') shows."""
        return dict(self.colour_map).get(name, name)

    def master_of(self, layout: Layout) -> Master:
        return self.masters[layout.master]
