"""The placed deck's text: colours, fonts, spans, lines, runs, paragraphs, text boxes."""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.box import Box

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
