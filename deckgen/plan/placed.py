"""The placed deck: every slide decided, as plain data for the painters to draw.

What `deckgen.plan.plan` returns and every painter of the slides draws (the .pptx, the slides
PDF, the notes book): each slide's layout on the template, its ground, and its shapes bottom
first, each with its box (EMU on the slide), its text broken into the lines the plan measured
(each stretch of a line in the font file it was measured with, at its place in points), its
colours resolved, its table rules, its chart's geometry. Frozen and picklable, no library
object inside: a painter draws these values and decides nothing.

Colours carry both what they are ('#RRGGBB', what a PDF shows) and how the deck names them (a
theme role, so a template's theme carries through; or kept: the template's own, which the
deck does not write). Positions of lines and spans are points from the slide's top left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from deckgen import story as st
from deckgen.box import Box
from deckgen.errors import Problem
from deckgen.pictures import Picture

DESCENT = 0.212  # Liberation Sans's descent, in ems: a line's baseline sits this far above its
# foot, the leading above the text (as PowerPoint and LibreOffice set exact line spacing)


@dataclass(frozen=True)
class Colour:
    """A colour as it is drawn (`value`, '#RRGGBB') and as the deck names it: a theme role
    ('text', 'muted', 'accent', 'background', 'rule') lightened or darkened by `brightness`,
    or the value itself (role ''); `kept`: the template's own, which the deck leaves as it
    is."""

    value: str
    role: str = ""
    brightness: float = 0.0
    kept: bool = False


@dataclass(frozen=True)
class Font:
    """A face as text is measured and drawn in it: the family the deck names ('' for a
    fallback for characters the family lacks), the font file (and its index in a
    collection) whose widths measured it and which the PDFs embed."""

    family: str
    file: str
    bold: bool = False
    index: int = 0


@dataclass(frozen=True)
class Span:
    """A stretch of one line in one font and colour, at `x` points from the slide's left."""

    text: str
    font: Font
    x: float
    width: float
    colour: Colour
    link: str | None = None


@dataclass(frozen=True)
class TextLine:
    """One line as set: its spans, its baseline (points from the slide's top), its size."""

    spans: tuple[Span, ...]
    baseline: float
    size: float

    @property
    def underline(self) -> tuple[float, float]:
        """A link's underline: how far below the baseline, and how thick (points), as a
        presentation app draws one."""
        return self.size * 0.1, max(0.5, self.size / 18)

    def reach(self, span: Span) -> tuple[float, float, float, float]:
        """Where a span's text lies (left, top, right, bottom; points from the top): its
        link's clickable area."""
        return (span.x, self.baseline - 0.8 * self.size, span.x + span.width,
                self.baseline + DESCENT * self.size)

    def moved(self, dy: float) -> TextLine:
        """The line `dy` points lower."""
        return TextLine(self.spans, self.baseline + dy, self.size)


@dataclass(frozen=True)
class TextRun:
    """A run of a paragraph as the deck writes it: its text (as typed; `caps` shows it in
    capitals), colour (None: the paragraph's own, which the deck does not write), weight,
    link; `field` 'slidenum' for the slide's number; `face` the theme font it names
    ('heading', 'body', or '' to leave it to the paragraph's style)."""

    text: str
    colour: Colour | None = None
    bold: bool = False
    link: str | None = None
    field: str = ""
    face: str = ""


@dataclass(frozen=True)
class Paragraph:
    """A paragraph as set: its runs, size (points), line pitch (points; 0: the template's
    own, as a footer keeps it), space before, alignment ('l', 'ctr', 'r'; `align_kept`: the
    template's own, not written), capitals, letter spacing (points), whether it sits in a
    placeholder (no bullets or indents of the template's), and the lines it is set in."""

    runs: tuple[TextRun, ...]
    size: float
    pitch: float
    before: float
    align: str
    align_kept: bool = False
    caps: bool = False
    tracking: float = 0.0
    in_placeholder: bool = False
    lines: tuple[TextLine, ...] = ()
    size_kept: bool = False  # a template footer's own size: not written

    @property
    def text(self) -> str:
        return "".join(r.text for r in self.runs)


Insets = tuple[int, int, int, int]  # left, top, right, bottom, EMU


@dataclass(frozen=True)
class TextBox:
    """A text box or a placeholder of the layout (`placeholder`: its index among the
    layout's placeholders; `cloned`: a footer placeholder the slide does not bring, cloned
    from the layout): its box, insets, anchor ('t', 'ctr', 'b'; `anchor_kept`: the
    template's own, not written), whether its lines wrap, its paragraphs, its fill and
    outline."""

    box: Box
    paragraphs: tuple[Paragraph, ...]
    inset: Insets = (0, 0, 0, 0)
    anchor: str = "t"
    anchor_kept: bool = False
    wrap: bool | None = True  # None: as the template's placeholder has it (not written)
    name: str = "Text"
    fill: Colour | None = None
    outline: tuple[Colour, float] | None = None
    placeholder: int | None = None
    cloned: bool = False

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs)


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


@dataclass(frozen=True)
class Stroke:
    """How a line is stroked: its colour, width (points), and its dash as the deck names it
    (a preset's name, 'solid' for none) and as drawn (on and off lengths in points)."""

    colour: Colour
    width: float
    dash: str = "solid"
    pattern: tuple[float, ...] = ()


@dataclass(frozen=True)
class Marker:
    """A point's marker: its kind ('circle', 'square', 'triangle', 'diamond', 'x', 'plus',
    'star'), size (points across), colour and the width of its strokes (an x's, a plus's)."""

    kind: str
    size: float
    colour: Colour
    edge: float = 1.2

    @property
    def outline(self) -> tuple[tuple[float, float], ...]:
        """The marker's shape about its centre, in units of half its size, y up: a filled
        polygon's corners, or (an x, a plus) two strokes' ends in pairs; () for a circle."""
        if self.kind in ("x", "plus"):
            turn = math.pi / 4 if self.kind == "x" else 0.0
            ends = []
            for a in (turn, turn + math.pi / 2):
                ends += [(-math.cos(a), -math.sin(a)), (math.cos(a), math.sin(a))]
            return tuple(ends)
        corners = {"square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
                   "diamond": ((0, -1), (1, 0), (0, 1), (-1, 0)),
                   "triangle": ((0, 1), (1, -0.8), (-1, -0.8))}.get(self.kind)
        if corners is not None:
            return tuple((float(x), float(y)) for x, y in corners)
        if self.kind == "star":  # five points
            return tuple(((1 if k % 2 == 0 else 0.45) * math.sin(k * math.pi / 5),
                          (1 if k % 2 == 0 else 0.45) * math.cos(k * math.pi / 5))
                         for k in range(10))
        return ()

    @property
    def stroked(self) -> bool:
        """Whether the outline is strokes (an x, a plus), not a filled shape."""
        return self.kind in ("x", "plus")


@dataclass(frozen=True)
class Label:
    """A chart's text, its lines placed (`angle` 90: turned to read upwards about `pivot`,
    the middle of its first baseline); `back`: a patch of that colour under it, so it reads
    on lines and hatching; `box`, where it is (left, top, right, bottom, points), its patch
    included."""

    lines: tuple[TextLine, ...]
    box: tuple[float, float, float, float]
    back: Colour | None = None
    angle: float = 0.0
    pivot: tuple[float, float] = (0.0, 0.0)

    @property
    def text(self) -> str:
        return "\n".join("".join(s.text for s in line.spans) for line in self.lines)


@dataclass(frozen=True)
class Series:
    """One line of a line chart as drawn: its points (points on the slide), its stroke, its
    marker on the points `marked`, whether it is the dial's, its end label (None with a
    legend) and how far a native chart moves that label from the line's end (a share of
    the chart's height, down when positive)."""

    name: str
    points: tuple[tuple[float, float], ...]
    stroke: Stroke
    marker: Marker
    marked: tuple[int, ...]
    emphasis: bool
    end_label: Label | None = None
    end_shift: float = 0.0


@dataclass(frozen=True)
class Entry:
    """A legend's entry: its series (by index), a stretch of the series' line with its
    marker (from `x0` to `x1` at `y`, points), and the series' name."""

    series: int
    x0: float
    x1: float
    y: float
    label: Label


@dataclass(frozen=True)
class Rule:
    """A rule across a chart (the dial's speed): from (x0, y0) to (x1, y1), its stroke, its
    label, the side a native chart puts it on ('left', 'right') and how far down it moves
    it from the rule's top (a share of the chart's height)."""

    x0: float
    y0: float
    x1: float
    y1: float
    stroke: Stroke
    label: Label | None = None
    side: str = "right"
    shift: float = 0.0


@dataclass(frozen=True)
class Dot:
    """One of the dial's marks: a ring of `radius` points at (x, y), its label, the side a
    native chart puts it on ('above', 'below', 'left', 'right') and how far it moves it from
    there: across (a share of the chart's width, right when positive) and down (a share of
    its height)."""

    x: float
    y: float
    radius: float
    ring: Stroke
    fill: Colour
    label: Label
    side: str
    shift: float = 0.0
    drop: float = 0.0


@dataclass(frozen=True)
class AxisTick:
    """A tick shown on an axis: where it is along the axis (points) and its label."""

    at: float
    label: Label


@dataclass(frozen=True)
class LinePlacement:
    """A line chart placed: its plot (left, top, width, height, points on the slide) and that
    plot as shares of the chart's box (left, top, right, bottom margins: a native chart's
    plot layout), the ticks shown on each axis and how many decades apart they are, the
    gridlines and axes, the axis titles, the series, a legend when the lines' ends crowd
    (and its side), the dial's rule and marks."""

    plot: tuple[float, float, float, float]
    margins: tuple[float, float, float, float]
    x_ticks: tuple[AxisTick, ...]
    y_ticks: tuple[AxisTick, ...]
    x_step: int
    y_step: int
    grid: Stroke
    axis: Stroke
    x_title: Label
    y_title: Label
    series: tuple[Series, ...]
    legend: tuple[Entry, ...] | None
    legend_side: str  # 'right', or 'bottom' when the right has not the room
    rule: Rule
    dots: tuple[Dot, ...]
    tick: float = 4.0  # a tick mark's length, out from its axis (points)

    @property
    def layers(self) -> tuple[Layer, ...]:
        """What is drawn, bottom first, as every painter of a picture or a page draws it:
        the gridlines, the axes and their ticks, the dial's rule, each line with its
        markers (the dial's line last, on top), the legend's samples, the dial's marks, and
        every text last, over all of them."""
        px, py, pw, ph = self.plot
        out: list[Layer] = [Segment(px, t.at, px + pw, t.at, self.grid) for t in self.y_ticks]
        out += [Segment(px, py + ph, px + pw, py + ph, self.axis),
                Segment(px, py + ph, px, py, self.axis)]
        out += [Segment(t.at, py + ph, t.at, py + ph + self.tick, self.axis)
                for t in self.x_ticks]
        out += [Segment(px - self.tick, t.at, px, t.at, self.axis) for t in self.y_ticks]
        rule = self.rule
        out.append(Segment(rule.x0, rule.y0, rule.x1, rule.y1, rule.stroke))
        for s in sorted(self.series, key=lambda s: s.emphasis):
            out.append(Polyline(s.points, s.stroke))
            out += [MarkerAt(s.marker, *s.points[k]) for k in s.marked]
        for entry in self.legend or ():
            sample = self.series[entry.series]
            out += [Segment(entry.x0, entry.y, entry.x1, entry.y, sample.stroke),
                    MarkerAt(sample.marker, (entry.x0 + entry.x1) / 2, entry.y)]
        out += self.dots
        out += [t.label for t in (*self.x_ticks, *self.y_ticks)]
        out += [self.x_title, self.y_title]
        out += [s.end_label for s in self.series if s.end_label is not None]
        out += [entry.label for entry in self.legend or ()]
        out += [rule.label] if rule.label is not None else []
        out += [dot.label for dot in self.dots]
        return tuple(out)


@dataclass(frozen=True)
class BarPiece:
    """A bar's segment: its box (left, top, width, height, points), fill and edge; hatched
    segments stroked with `hatch` diagonals `step` points apart."""

    box: tuple[float, float, float, float]
    fill: Colour
    edge: Stroke
    hatch: Stroke | None = None
    step: float = 0.0


@dataclass(frozen=True)
class BarRow:
    """A bar placed: its category label, its segments, and the labels set on them (each by
    the segment it stands in, a native chart's data label there)."""

    title: Label
    segments: tuple[BarPiece, ...]
    labels: tuple[tuple[int, Label], ...]


@dataclass(frozen=True)
class BarPlacement:
    """A bar chart placed: its plot as shares of the chart's box (left, top, right, bottom
    margins), its bars' gap (a share of a bar's thickness), and its bars."""

    margins: tuple[float, float, float, float]
    gap: float
    bars: tuple[BarRow, ...]

    @property
    def layers(self) -> tuple[Layer, ...]:
        """What is drawn, bottom first: every bar's segments (each filled, hatched and
        edged), then every text."""
        out: list[Layer] = [piece for bar in self.bars for piece in bar.segments]
        for bar in self.bars:
            out += [bar.title, *(label for _, label in bar.labels)]
        return tuple(out)


@dataclass(frozen=True)
class Segment:
    """A straight stroke from (x0, y0) to (x1, y1), points."""

    x0: float
    y0: float
    x1: float
    y1: float
    stroke: Stroke


@dataclass(frozen=True)
class Polyline:
    """A line through `points`, stroked."""

    points: tuple[tuple[float, float], ...]
    stroke: Stroke


@dataclass(frozen=True)
class MarkerAt:
    """A marker centred at (x, y), points."""

    marker: Marker
    x: float
    y: float


Layer = Segment | Polyline | MarkerAt | Dot | BarPiece | Label


@dataclass(frozen=True)
class Chart:
    """A chart in its box: the story's chart model (its data, for a native chart's
    workbook), its text's size (points), the chart as placed, and what it sits on."""

    box: Box
    chart: st.Chart
    size: float
    placement: LinePlacement | BarPlacement
    background: Colour
    name: str = "Chart"


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
