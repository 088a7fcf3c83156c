"""What goes on a slide, worked out before anything is drawn: boxes, paragraphs and sizes.

Pure: no python-pptx. Lengths are EMU in boxes (the file format's unit, exact integers) and
points in paragraphs and sizes; `pt` and `emu` convert between them, here only. The planner
(deckgen.plan.kinds) makes these; place.py places them into the placed deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from deckgen import story as st
from deckgen.box import Box
from deckgen.pictures import Picture

# Line pitch as a multiple of the size. Liberation Sans is 1.117 em from ascent to descent.
TIGHT = 1.17
LOOSE = 1.2
WIDTH_SAFETY = 0.96  # leave room for a client whose wrapping measures a little wider


@dataclass(frozen=True)
class Run:
    text: str
    colour: str | None = None  # a colour role; None keeps the paragraph's
    link: str | None = None
    bold: bool | None = None  # None keeps the paragraph's


@dataclass(frozen=True)
class Para:
    """One paragraph to set: its text, its size choices (from the type scale, largest first),
    its look, and where it came from."""

    text: str
    size: tuple[float, ...]
    bold: bool = False
    caps: bool = False
    colour: str | None = "text"  # None: inherit (placeholders keep the template's colour)
    heading: bool = False  # the theme's heading font
    before: float = 0.0  # points of space above (never on a block's first paragraph)
    line: float = LOOSE
    align: str | None = None  # "l", "r", "ctr"; None inherits
    one_line: bool = False  # a big figure: never wraps
    tracking: float = 0.0  # letter spacing in points
    field: str = ""  # what an error calls it: "title", "card text"
    origin: str = ""  # its key path in content.yaml
    link: str | None = None
    runs: tuple[Run, ...] = ()  # several colours in one paragraph; their texts make `text`
    balance: bool = False  # a heading: rather a size smaller than a last line of one word

    @property
    def shown(self) -> str:
        return self.text.upper() if self.caps else self.text

    def at(self, level: int) -> float:
        """The size at `level` (0: the largest choice), the smallest past the last."""
        return self.size[min(level, len(self.size) - 1)]

    def pin(self, level: int) -> Para:
        """This paragraph with its size fixed at `level`."""
        return replace(self, size=(self.at(level),))


def pinned(blocks: Sequence[Sequence[Para]], level: int) -> list[list[Para]]:
    return [[p.pin(level) for p in block] for block in blocks]


# ---------------------------------------------------------------------------------------------
# Items: what is placed on a slide


@dataclass
class TextItem:
    box: Box
    paras: list[Para]
    sizes: list[float]
    anchor: str = "t"
    inset: tuple[int, int, int, int] = (0, 0, 0, 0)  # left, top, right, bottom
    fill: tuple[str, float] | None = None  # role, brightness
    outline: tuple[str, float] | None = None  # role, width in points
    name: str = "Text"


@dataclass
class TableItem:
    box: Box
    cells: list[list[list[Para]]]  # row, column, paragraphs
    sizes: list[list[list[float]]]
    widths: list[int]
    heights: list[int]
    highlight: int | None  # a body row, counted from 0
    name: str = "Table"
    margin: tuple[int, int] = (0, 0)  # cell insets: left and right, top and bottom
    header: bool = True  # the first row is a header


@dataclass
class ChartItem:
    """A chart in its box, its text at `size` (from the type scale)."""

    box: Box
    chart: st.Chart
    name: str = "Chart"
    size: float = 14.0


@dataclass
class RectItem:
    box: Box
    fill: tuple[str, float] | None = None
    outline: tuple[str, float] | None = None
    name: str = "Rule"


@dataclass
class QrItem:
    """A QR code for `url`, drawn as dark squares in its (square) box."""

    box: Box
    url: str
    name: str = "QR code"


@dataclass
class PictureItem:
    """A picture of the presenter's in its box, its aspect ratio kept: `crop` is the share
    cut from each edge (left, top, right, bottom), nothing unless the content asked for
    `fit: cover`; `alt` its description for a screen reader. The plan shows the picture by
    its digest (its bytes stay out of the plan's text)."""

    box: Box
    picture: Picture = field(repr=False)
    digest: str
    alt: str
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    name: str = "Picture"


Item = TextItem | TableItem | ChartItem | RectItem | QrItem | PictureItem


@dataclass
class ArrangedSlide:
    """One slide, planned: its title (paragraphs and sizes), items and notes."""

    kind: str
    title: list[Para]
    title_sizes: list[float]
    items: list[Item]
    notes: str = ""
    cover: bool = False
    extra: dict[str, object] = field(default_factory=dict)
