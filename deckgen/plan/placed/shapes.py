"""The placed deck's other shapes: tables, rectangles, QR codes, pictures."""

from __future__ import annotations

from dataclasses import dataclass, field

from deckgen.box import Box
from deckgen.pictures import Picture
from deckgen.plan.placed.text import Colour, Paragraph


@dataclass(frozen=True)
class TableRule:
    """A rule across a table: from `x0` to `x1` at `y` (EMU), `width` points, its colour."""

    x0: int
    x1: int
    y: int
    width: float
    colour: Colour


@dataclass(frozen=True)
class Cell:
    """A table's cell: its box, its paragraphs, its fill, and the rules at its top and
    bottom edges as the deck writes them (None: no rule)."""

    box: Box
    paragraphs: tuple[Paragraph, ...]
    fill: Colour | None
    top: tuple[Colour, float] | None
    bottom: tuple[Colour, float] | None


@dataclass(frozen=True)
class TableBox:
    """A native table: its box, column widths and row heights (EMU), cells by row, the cell
    margins (across, down), whether the first row is a header."""

    box: Box
    widths: tuple[int, ...]
    heights: tuple[int, ...]
    cells: tuple[tuple[Cell, ...], ...]
    margin: tuple[int, int]
    header: bool
    name: str = "Table"

    @property
    def rules(self) -> tuple[TableRule, ...]:
        """The rules across the table, as its cells' top and bottom edges give them (the
        first cell of each row speaks for the row)."""
        left, right = self.box.x, self.box.x + sum(self.widths)
        out = []
        for row in self.cells:
            first = row[0]
            for edge, y in ((first.top, first.box.y), (first.bottom, first.box.bottom)):
                if edge is not None:
                    out.append(TableRule(left, right, y, edge[1], edge[0]))
        return tuple(out)


@dataclass(frozen=True)
class Rect:
    """A plain rectangle: a rule, a card, a backdrop behind busy artwork (`back`: under
    everything else on the slide)."""

    box: Box
    fill: Colour | None
    outline: tuple[Colour, float] | None = None
    name: str = "Rule"


@dataclass(frozen=True)
class Qr:
    """A QR code for `url`: a square in the background colour, and the runs of dark modules
    (left, top, right, bottom, EMU on the slide) in the text colour."""

    box: Box
    url: str
    runs: tuple[tuple[int, int, int, int], ...]
    dark: Colour
    light: Colour
    name: str = "QR code"


@dataclass(frozen=True)
class Image:
    """A presenter's picture in its box, cropped by the shares given (left, top, right,
    bottom), with its description."""

    box: Box
    picture: Picture = field(repr=False)
    digest: str
    alt: str
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    name: str = "Picture"
