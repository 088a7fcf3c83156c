"""The printable handout: one double-sided sheet (A4 or Letter) drawn with reportlab.

The front carries the four meanings, the dial with the four-workload table, and the serial
bottleneck (chart, preset-check table, speedups, ceiling); the back carries the thought
experiments in brief, what gets precious, the checklist to write on, the sources and a QR
code. Only this module imports reportlab and svglib. It formats no figure: every number on
the sheet is text from the story. DejaVu Sans is embedded; a character it cannot draw is set
in the first installed fallback font that has it (see deckgen.fonts), and one that no font
draws prints as DejaVu's empty box, with a warning. Right-to-left text is set in logical
order, unshaped.

Each side is a stack of bands, each either full width or split into the grid's two columns.
Everything is measured before anything is drawn: a side too long for its page fails with how
far it runs over and its longest text, located in the content file, unless more pages were
asked for, in which case bands move to, or are cut across, further pages.
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing, Group, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from deckgen import __version__, fmt, fonts
from deckgen.errors import InputError, Problem, RenderError
from deckgen.story import BarChart, Slide, Story
from deckgen.story import Table as StoryTable

PAPER = {"a4": A4, "letter": LETTER}
MARGIN = 13 * mm  # survives office printers (at least 12 mm)
GUTTER = 6 * mm
BAND_GAP = 4.5 * mm
HEADING_GAP = 2.2 * mm  # under a heading that stands above two columns
MAX_EXTRA_GAP = 5 * mm
SECTION_GAP = 3.5 * mm  # between sections that follow each other in one column

# The four faces of DejaVu Sans as reportlab knows them; svglib maps the SVG family to these.
REGULAR, BOLD, ITALIC, BOLD_ITALIC = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", \
    "DejaVuSans-BoldOblique"
_FACES = {REGULAR: "regular", BOLD: "bold", ITALIC: "italic", BOLD_ITALIC: "bolditalic"}

BODY_PT, BODY_LEADING = 9.0, 11.0
TABLE_PT, TABLE_LEADING = 8.5, 10.4
SMALL_PT = 8.5
HEADLINE_PT = 13.0
TITLE_PT = 18.0
FIGURE_PT = 26.0
SPEEDUP_PT = 17.0
TABLE_PAD = 1.2 * mm
CHECK_BOX = 4 * mm
WRITE_PITCH = 8.5 * mm  # room for handwriting between ruled lines
WRITE_LINES = 3  # per checklist step, or 2 when the back is full
MIN_WRITE_WIDTH = 30 * mm  # of ruled line after a label on the same line
QR_MODULES = 22 * mm  # the code itself, quiet zone not counted
CHART_HEIGHT = 32 * mm


# --------------------------------------------------------------------------------------------
# Fonts, colours and type styles


_registered = False


def _register_fonts() -> None:
    """Register DejaVu Sans's four faces with reportlab, through svglib so that chart text in
    the family "DejaVu Sans" maps to the same embedded fonts (and svglib never asks fontconfig)."""
    global _registered
    if _registered:
        return
    from svglib import fonts as svg_fonts

    faces = {REGULAR: ("normal", "normal"), BOLD: ("bold", "normal"), ITALIC: ("normal", "italic"),
             BOLD_ITALIC: ("bold", "italic")}
    for name, (weight, style) in faces.items():
        path = fonts.path(_FACES[name])
        registered, _ = svg_fonts.register_font(fonts.FAMILY, str(path), weight, style,
                                                rlgFontName=name)
        if registered is None:
            raise RenderError(f"cannot load the font file {path}")
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=ITALIC,
                                  boldItalic=BOLD_ITALIC)
    _registered = True


# Fallback fonts, each loaded and registered the first time a character needs one, so a
# handout that needs none is built exactly as if they did not exist.
_fallback_names: dict[str, str | None] = {}
_TOKEN = re.compile(r"<[^>]*>|&#?\w+;")  # paragraph markup: tags and entities
_JOINS = {"Mn", "Me", "Cf"}  # combining marks, joiners, variation selectors


def _fallback(path: Path) -> str | None:
    """The reportlab name of a fallback font file; None when it does not load (not TrueType
    outlines, damaged)."""
    key = str(path)
    if key not in _fallback_names:
        name: str | None = "Fallback-" + path.stem
        try:
            pdfmetrics.registerFont(TTFont(name, key))
        except Exception:  # noqa: BLE001 - any unreadable font is simply not a fallback
            name = None
        _fallback_names[key] = name
    return _fallback_names[key]


def _font_for(ch: str, font: str) -> str:
    """`font` when it draws `ch`, else the first installed fallback that does, else `font`."""
    if ch < " " or ord(ch) in _coverage(font):
        return font
    for path in fonts.fallbacks():
        name = _fallback(path)
        if name and ord(ch) in _coverage(name):
            return name
    return font


def _runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut into (font, text) runs: `font` where it has the characters, a fallback where
    it has not. A combining mark or joiner stays with the character before it when it can."""
    cover = _coverage(font)
    if all(ch < " " or ord(ch) in cover for ch in text):
        return [(font, text)] if text else []
    runs: list[tuple[str, str]] = []
    for ch in text:
        name = _font_for(ch, font)
        if runs and name != runs[-1][0] and (unicodedata.category(ch) in _JOINS or
                                               0x1F3FB <= ord(ch) <= 0x1F3FF) \
                and ord(ch) in _coverage(runs[-1][0]):
            name = runs[-1][0]
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + ch)
        else:
            runs.append((name, ch))
    return runs


def _width(text: str, font: str, size: float) -> float:
    """The width of `text` as drawn: each run in its own font."""
    return sum((pdfmetrics.stringWidth(t, name, size) for name, t in _runs(text, font)), 0.0)


def _with_fallbacks(markup: str, font: str) -> str:
    """Paragraph markup with each run of characters its font lacks put in a fallback font."""
    out, fonts_in, at = [], [font], 0

    def runs(text: str) -> str:
        return "".join(t if name == fonts_in[-1] else f'<font name="{name}">{t}</font>'
                       for name, t in _runs(text, fonts_in[-1]))

    for token in _TOKEN.finditer(markup):
        out.append(runs(markup[at:token.start()]))
        tag = token.group()
        if tag.startswith("<font"):
            name = re.search(r'name="([^"]+)"', tag)
            fonts_in.append(name.group(1) if name else fonts_in[-1])
        elif tag == "</font>" and len(fonts_in) > 1:
            fonts_in.pop()
        out.append(tag)
        at = token.end()
    out.append(runs(markup[at:]))
    return "".join(out)


def _para(markup: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of `markup`, with fallback fonts for the characters DejaVu Sans lacks."""
    return Paragraph(_with_fallbacks(markup, style.fontName), style)


def _to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """reportlab's map from a font's codes back to text, with each character beyond U+FFFF
    (most emoji) as the UTF-16 pair PDF readers expect rather than its bare code point, which
    they reject: without this, emoji would not come out of the PDF as text."""
    def pair(match: re.Match[str]) -> str:
        return f"<{chr(int(match.group(1), 16)).encode('utf-16-be').hex().upper()}>"

    return re.sub(r"<([0-9A-F]{5,6})>$", pair, _make_cmap(fontname, subset), flags=re.M)


_make_cmap = ttfonts.makeToUnicodeCMap
ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def _luminance(colour: colors.Color) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = channel(colour.red), channel(colour.green), channel(colour.blue)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast_on_paper(colour: colors.Color) -> float:
    return 1.05 / (_luminance(colour) + 0.05)


@dataclass(frozen=True)
class Palette:
    """The theme's colours for paper: text colours that read at 4.5:1 on white, or black."""

    text: colors.Color
    accent: colors.Color
    muted: colors.Color
    rule: colors.Color
    tint: colors.Color  # behind "our dial" rows; light enough for any text on it

    @classmethod
    def from_theme(cls, theme: Any) -> Palette:
        def readable(hex_colour: str, fallback: colors.Color) -> colors.Color:
            colour = colors.HexColor(hex_colour)
            return colour if _contrast_on_paper(colour) >= 4.5 else fallback

        text = readable(theme.text, colors.black)
        accent = colors.HexColor(theme.accent)
        tint = colors.Color(*(1 - 0.1 * (1 - c) for c in (accent.red, accent.green, accent.blue)))
        return cls(text=text, accent=readable(theme.accent, text),
                   muted=readable(theme.muted, text), rule=colors.HexColor(theme.rule), tint=tint)


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    strong: ParagraphStyle
    small_right: ParagraphStyle
    muted: ParagraphStyle  # captions under tables and figures
    note: ParagraphStyle  # prose set back from the main text
    kicker: ParagraphStyle
    headline: ParagraphStyle
    subhead: ParagraphStyle
    title: ParagraphStyle
    label: ParagraphStyle
    figure: ParagraphStyle
    speedup: ParagraphStyle
    speedup_ours: ParagraphStyle
    slow_figure: ParagraphStyle
    cell: ParagraphStyle
    cell_right: ParagraphStyle
    head_cell: ParagraphStyle
    head_cell_right: ParagraphStyle

    @classmethod
    def make(cls, p: Palette) -> Styles:
        base = ParagraphStyle("body", fontName=REGULAR, fontSize=BODY_PT, leading=BODY_LEADING,
                              textColor=p.text, alignment=TA_LEFT, spaceBefore=0, spaceAfter=0,
                              splitLongWords=True)

        def style(name: str, parent: ParagraphStyle = base, **kw: Any) -> ParagraphStyle:
            return ParagraphStyle(name, parent=parent, **kw)

        cell = style("cell", fontSize=TABLE_PT, leading=TABLE_LEADING)
        head = style("head", parent=cell, fontName=BOLD)
        return cls(
            body=base,
            strong=style("strong", fontName=BOLD),
            small_right=style("small_right", fontSize=SMALL_PT, leading=10.4, alignment=TA_RIGHT),
            muted=style("muted", fontSize=SMALL_PT, leading=10.4, textColor=p.muted),
            note=style("note", textColor=p.muted),
            kicker=style("kicker", fontName=BOLD, fontSize=SMALL_PT, leading=10.5,
                         textColor=p.accent),
            headline=style("headline", fontName=BOLD, fontSize=HEADLINE_PT, leading=15.5),
            subhead=style("subhead", fontName=BOLD, fontSize=10, leading=12.5),
            title=style("title", fontName=BOLD, fontSize=TITLE_PT, leading=21),
            label=style("label", fontName=BOLD, fontSize=SMALL_PT, leading=10.5,
                        textColor=p.muted),
            figure=style("figure", fontName=BOLD, fontSize=FIGURE_PT, leading=FIGURE_PT * 1.15,
                         textColor=p.accent),
            speedup=style("speedup", fontName=BOLD, fontSize=SPEEDUP_PT, leading=SPEEDUP_PT * 1.2),
            slow_figure=style("slow_figure", fontName=BOLD, fontSize=SPEEDUP_PT,
                              leading=SPEEDUP_PT * 1.2, textColor=p.muted),
            speedup_ours=style("speedup_ours", fontName=BOLD, fontSize=SPEEDUP_PT,
                               leading=SPEEDUP_PT * 1.2, textColor=p.accent),
            cell=cell,
            cell_right=style("cell_right", parent=cell, alignment=TA_RIGHT),
            head_cell=head,
            head_cell_right=style("head_right", parent=head, alignment=TA_RIGHT),
        )


def _x(text: str) -> str:
    """Story text as paragraph markup: escaped, with line breaks kept."""
    return escape(text).replace("\n", "<br/>")


# --------------------------------------------------------------------------------------------
# Small flowables


class _Rule(Flowable):
    """A horizontal line across the column."""

    def __init__(self, colour: colors.Color, thickness: float = 0.5) -> None:
        super().__init__()
        self.colour, self.thickness = colour, thickness

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, self.thickness

    def draw(self) -> None:
        self.canv.setStrokeColor(self.colour)
        self.canv.setLineWidth(self.thickness)
        self.canv.line(0, self.thickness / 2, self.width, self.thickness / 2)


class _Stack(Flowable):
    """Flowables one under the other, moved right by `indent`, with an optional bar down the
    left edge (thick and coloured for "ours"). Splits only between its flowables, or inside
    one that can split itself."""

    def __init__(self, inner: Sequence[Flowable], indent: float = 0,
                 bar: tuple[colors.Color, float] | None = None) -> None:
        super().__init__()
        self.inner, self.indent, self.bar = list(inner), indent, bar

    def _again(self, inner: Sequence[Flowable]) -> _Stack:
        return _Stack(inner, self.indent, self.bar)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.sizes = [f.wrap(availWidth - self.indent, availHeight) for f in self.inner]
        self.width, self.height = availWidth, sum(h for _, h in self.sizes)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        width, used, head = availWidth - self.indent, 0.0, []
        for i, f in enumerate(self.inner):
            _, h = f.wrap(width, availHeight - used)
            if used + h <= availHeight:
                head.append(f)
                used += h
                continue
            parts = f.split(width, availHeight - used) if availHeight - used > 0 else []
            if parts:
                rest = [*parts[1:], *self.inner[i + 1:]]
                return [self._again([*head, parts[0]]), self._again(rest)]
            return [self._again(head), self._again(self.inner[i:])] if head else []
        return [self]

    def draw(self) -> None:
        if self.bar:
            self.canv.setFillColor(self.bar[0])
            self.canv.rect(0, 0, self.bar[1], self.height, stroke=0, fill=1)
        y = self.height
        for f, (_, h) in zip(self.inner, self.sizes, strict=True):
            y -= h
            f.drawOn(self.canv, self.indent, y)


class _StepHead(Flowable):
    """A checklist step: a real box to tick, then the step in bold beside it."""

    def __init__(self, text: Paragraph, stroke: colors.Color) -> None:
        super().__init__()
        self.text, self.stroke = text, stroke
        self.indent = CHECK_BOX + 2.5 * mm

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        _, h = self.text.wrap(availWidth - self.indent, availHeight)
        self.width, self.height = availWidth, max(h, CHECK_BOX + 1)
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setStrokeColor(self.stroke)
        c.setLineWidth(0.9)
        first_line = self.text.style.leading
        top = self.height - (first_line - CHECK_BOX) / 2 + 0.6
        c.rect(0, top - CHECK_BOX, CHECK_BOX, CHECK_BOX, stroke=1, fill=0)
        self.text.drawOn(c, self.indent, self.height - self.text.height)


class _WriteIn(Flowable):
    """Ruled lines to write on, the first one after its label: "Done means: ______".

    A label too long to leave room on its line goes above the lines instead."""

    def __init__(self, label: str, lines: int, style: ParagraphStyle, colour: colors.Color,
                 indent: float) -> None:
        super().__init__()
        self.label, self.lines, self.style = label, lines, style
        self.colour, self.indent = colour, indent
        self.label_w = _width(label, style.fontName, style.fontSize)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        inline = self.indent + self.label_w + 1.5 * mm + MIN_WRITE_WIDTH <= availWidth
        self.above = None if inline or not self.label else _para(_x(self.label), self.style)
        above_h = (self.above.wrap(availWidth - self.indent, availHeight)[1] + 1.5 * mm
                   if self.above else 0)
        self.width, self.height = availWidth, above_h + self.lines * WRITE_PITCH
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        lines_top = self.lines * WRITE_PITCH
        if self.above:
            self.above.drawOn(c, self.indent, lines_top)
        c.setStrokeColor(self.colour)
        c.setLineWidth(0.6)
        for i in range(self.lines):
            y = lines_top - (i + 1) * WRITE_PITCH + 1.2 * mm
            start = self.indent
            if i == 0 and self.label and not self.above:
                c.setFillColor(self.style.textColor)
                x = self.indent
                for font, text in _runs(self.label, self.style.fontName):
                    c.setFont(font, self.style.fontSize)
                    c.drawString(x, y + 1.2, text)
                    x += pdfmetrics.stringWidth(text, font, self.style.fontSize)
                start += self.label_w + 1.5 * mm
            c.line(start, y, self.width, y)


class _Picture(Flowable):
    """A vector drawing (a chart or a QR code) scaled to a width."""

    def __init__(self, drawing: Drawing, width: float | None = None) -> None:
        super().__init__()
        self.drawing = drawing
        drawing.initialFontName = REGULAR  # not reportlab's default, the unembedded Helvetica
        self.target = width

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        width = min(self.target or availWidth, availWidth)
        self.scale = width / self.drawing.width
        self.width, self.height = width, self.drawing.height * self.scale
        return self.width, self.height

    def draw(self) -> None:
        self.canv.saveState()
        self.canv.scale(self.scale, self.scale)
        renderPDF.draw(self.drawing, self.canv, 0, 0)
        self.canv.restoreState()


# --------------------------------------------------------------------------------------------
# The layout: sections in bands, measured, then drawn


@dataclass
class Section:
    """A run of flowables under one name, with the content key each text came from."""

    name: str
    flowables: list[Flowable] = field(default_factory=list)
    outline: str | None = None  # an entry in the PDF's outline, placed at the section's top

    def add(self, flowable: Flowable, origin: str = "") -> Section:
        self.flowables.append(_tagged(flowable, origin))
        return self

    def space(self, height: float) -> Section:
        return self.add(Spacer(1, height))


@dataclass
class Band:
    """Full width (one column) or the grid's two columns, each a list of sections."""

    columns: tuple[list[Section], ...]
    keep_with_next: bool = False  # a heading: never left alone at the foot of a page


@dataclass
class Side:
    """One side of the sheet: the front or the back."""

    name: str
    bands: list[Band]


def _column_widths(frame_w: float, count: int) -> list[float]:
    if count == 1:
        return [frame_w]
    return [(frame_w - GUTTER) / 2] * 2


def _flowables(column: list[Section]) -> list[Flowable]:
    return [f for s in column for f in s.flowables]


def _height(flowables: Iterable[Flowable], width: float) -> float:
    return sum(f.wrap(width, 10**6)[1] for f in flowables)


def _band_height(band: Band, frame_w: float) -> float:
    widths = _column_widths(frame_w, len(band.columns))
    return max(_height(_flowables(col), w) for col, w in zip(band.columns, widths, strict=True))


def _side_height(side: Side, frame_w: float) -> float:
    gaps = [HEADING_GAP if b.keep_with_next else BAND_GAP for b in side.bands[:-1]]
    return sum(_band_height(b, frame_w) for b in side.bands) + sum(gaps)


def _overflow(side: Side, frame_w: float, frame_h: float, story: Story) -> Problem | None:
    """None when the side fits its page; else how far it runs over, where, and the side's
    longest text (the likeliest to shorten), located in the content file."""
    over = _side_height(side, frame_w) - frame_h
    if over <= 0.01:
        return None
    top, section = 0.0, None
    for band in side.bands:
        widths = _column_widths(frame_w, len(band.columns))
        for column, width in zip(band.columns, widths, strict=True):
            y = top
            for s in column:
                y += _height(s.flowables, width)
                if y > frame_h + 0.01 and section is None:
                    section = s
        if section is not None:
            break
        top += _band_height(band, frame_w) + (HEADING_GAP if band.keep_with_next else BAND_GAP)
    lengths: dict[str, int] = {}
    for band in side.bands:
        for f in (f for column in band.columns for s in column for f in s.flowables):
            for _, text, origin in _texts(f):
                if origin:
                    lengths[origin] = lengths.get(origin, 0) + len(text)
    where = f"{section.name} runs past the bottom" if section else "it runs past the bottom"
    message = (f"the handout's {side.name} is {fmt.number(math.ceil(over / mm))} mm too long for "
               f"one page ({where}); its longest text is here: shorten it or others, or build "
               f"with --pages auto to allow more pages")
    if not lengths:
        return Problem(message, story.file)
    origin = max(lengths, key=lambda o: lengths[o])
    place = story.where(origin)
    line, col = place if place else (None, None)
    return Problem(message, story.file, line, col, origin)


def _split_column(flowables: list[Flowable], width: float, room: float,
                  forced: bool) -> tuple[list[Flowable], list[Flowable]]:
    """The flowables that fit in `room`, splitting the one that crosses it, and the rest."""
    head: list[Flowable] = []
    used = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrap(width, room - used)
        if used + h <= room + 0.01:
            head.append(f)
            used += h
            continue
        parts = f.split(width, room - used) if room - used > 0 else []
        if parts:
            head.append(parts[0])
            return head, list(parts[1:]) + flowables[i + 1:]
        if not head and forced:  # cannot split and alone on a fresh page: let it run over
            return [f], flowables[i + 1:]
        return head, flowables[i:]
    return head, []


def _split_sections(column: list[Section], width: float, room: float,
                    forced: bool) -> tuple[list[Section], list[Section]]:
    """A column's sections cut at `room`: what fits, and the rest; outlines stay with the
    part where each section starts."""
    head: list[Section] = []
    used = 0.0
    for k, section in enumerate(column):
        fit, rest = _split_column(section.flowables, width, room - used, forced and not head)
        if fit:
            head.append(Section(section.name, fit, section.outline))
        if rest:
            tail = [Section(section.name, rest, None if fit else section.outline), *column[k + 1:]]
            return head, tail
        used += _height(fit, width)
    return head, []


class _Sheet:
    """Draws sides onto a canvas: a page per side, or more pages when allowed."""

    def __init__(self, canvas: Canvas, page_w: float, page_h: float) -> None:
        self.c = canvas
        self.x0, self.top = MARGIN, page_h - MARGIN
        self.frame_w, self.frame_h = page_w - 2 * MARGIN, page_h - 2 * MARGIN
        self.bookmarks = 0

    def side(self, side: Side, paginate: bool, gap: float) -> None:
        """Draw a side from the top of a fresh page. With `paginate`, a band that does not fit
        moves to a new page, or is cut there when even a page of its own is too short."""
        y = self.top
        pending = list(side.bands)
        while pending:
            band = pending.pop(0)
            after = HEADING_GAP if band.keep_with_next else gap
            height = _band_height(band, self.frame_w)
            room = y - (self.top - self.frame_h)
            fresh = y == self.top
            if paginate and not fresh:
                needs = height
                if band.keep_with_next and pending:  # a heading wants some of what follows
                    needs += after + min(_band_height(pending[0], self.frame_w), 30 * mm)
                if needs > room + 0.01 and (band.keep_with_next or height <= self.frame_h):
                    self._new_page()
                    y = self.top
                    pending.insert(0, band)
                    continue
            if height <= room + 0.01 or not paginate:  # without paginate, measured to fit
                self._draw_band(band, y)
                y -= height + after
                continue
            head, tail = self._split_band(band, room, forced=fresh)
            self._draw_band(head, y)
            if any(_flowables(column) for column in tail.columns):
                self._new_page()
                y = self.top
                pending.insert(0, tail)
            else:
                y -= _band_height(head, self.frame_w) + after
        self._new_page()

    def _split_band(self, band: Band, room: float, forced: bool) -> tuple[Band, Band]:
        widths = _column_widths(self.frame_w, len(band.columns))
        cuts = [_split_sections(column, width, room, forced)
                for column, width in zip(band.columns, widths, strict=True)]
        return Band(tuple(h for h, _ in cuts)), Band(tuple(t for _, t in cuts))

    def _draw_band(self, band: Band, top: float) -> None:
        """Draw a band's columns left to right, so text extracts in reading order."""
        widths = _column_widths(self.frame_w, len(band.columns))
        x = self.x0
        for column, width in zip(band.columns, widths, strict=True):
            y = top
            for section in column:
                if section.outline:
                    key = f"section-{self.bookmarks}"
                    self.bookmarks += 1
                    self.c.bookmarkHorizontal(key, x, y + 2 * mm)
                    self.c.addOutlineEntry(section.outline, key, level=0)
                for f in section.flowables:
                    _, h = f.wrap(width, 10**6)
                    f.drawOn(self.c, x, y - h)
                    y -= h
            x += width + GUTTER

    def _new_page(self) -> None:
        self.c.showPage()


# --------------------------------------------------------------------------------------------
# The content of each side


class _Builder:
    """Turns the story into the front and back sides."""

    def __init__(self, story: Story, frame_w: float) -> None:
        self.story = story
        self.p = Palette.from_theme(story.theme)
        self.s = Styles.make(self.p)
        self.frame_w = frame_w
        self.col_w = _column_widths(frame_w, 2)[0]
        self.slides = {s.kind: s for s in story.slides if s.kind != "experiment"}
        experiments = [s for s in story.slides if s.kind == "experiment"]
        self.experiments_kicker = experiments[0].kicker if experiments else ""
        self.write_lines = WRITE_LINES

    # -- pieces

    def para(self, text: str, style: ParagraphStyle) -> Paragraph:
        return _para(_x(text), style)

    def heading(self, section: Section, slide: Slide | None, after: float = 2 * mm) -> Section:
        """The section's kicker in capitals, then its headline."""
        if slide is not None:
            section.add(self.para(slide.kicker.upper(), self.s.kicker),
                        f"slides.{slide.kind}.kicker")
            section.space(0.8 * mm)
            section.add(self.para(slide.headline.text, self.s.headline), slide.headline.origin)
        if after:
            section.space(after)
        return section

    def outline(self, kind: str) -> str | None:
        """The PDF outline's entry for a section: its slide's headline, if the talk has it."""
        slide = self.slides.get(kind)
        return slide.headline.text if slide is not None else None

    def glued(self, section: Section, slide: Slide | None) -> list[Flowable]:
        """A heading's flowables, to keep together with the section's first item."""
        return self.heading(Section(section.name), slide).flowables

    def table(self, t: StoryTable, width: float) -> Table:
        """A story table: header row, thin rules, numbers right-aligned, "our dial" marked."""
        s = self.s
        # "Our" row is set in bold, unless only regular weight keeps every cell on one line.
        bold_row = t.highlight
        widths, one_line = _table_widths(t, width, TABLE_PAD, bold_row)
        if not one_line:
            regular, one_line = _table_widths(t, width, TABLE_PAD, None)
            if one_line:
                bold_row, widths = None, regular
        header = [_para(_x(h), s.head_cell_right if a == "r" else s.head_cell)
                  for h, a in zip(t.header, t.align, strict=True)]
        rows = [header]
        for i, row in enumerate(t.rows):
            ours = i == bold_row
            cells = []
            for text, a in zip(row, t.align, strict=True):
                style = (s.head_cell_right if a == "r" else s.head_cell) if ours else \
                    (s.cell_right if a == "r" else s.cell)
                cells.append(_para(_x(text), style))
            rows.append(cells)
        table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
        commands: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (-1, -1), REGULAR, TABLE_PT),  # else reportlab sets Helvetica per cell
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), TABLE_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), TABLE_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 0.9 * mm),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.1 * mm),
            ("LINEBELOW", (0, 0), (-1, 0), 0.9, self.p.text),
            ("LINEBELOW", (0, 1), (-1, -1), 0.4, self.p.rule),
        ]
        if t.highlight is not None:
            marked = t.highlight + 1  # below the header row
            commands += [("BACKGROUND", (0, marked), (-1, marked), self.p.tint),
                         ("LINEBEFORE", (0, marked), (0, marked), 2.4, self.p.accent)]
        table.setStyle(TableStyle(commands))
        return table

    # -- the front

    def front(self) -> Side:
        return Side("front page", [self._header(), self._meanings_and_dial(), self._workloads(),
                                   *self._bottleneck()])

    def _header(self) -> Band:
        st, s, m = self.story, self.s, self.story.meta
        sec = Section("the header")
        left: list[Flowable] = [_tagged(self.para(m.title, s.title), "meta.title")]
        if m.subtitle:
            left += [Spacer(1, 0.8 * mm), _tagged(self.para(m.subtitle, s.body), "meta.subtitle")]
        facts = [_tagged(self.para(x, s.small_right), f"meta.{key}")
                 for key, x in (("event", m.event), ("date", m.date), ("presenter", m.presenter))
                 if x]
        facts.append(_para(f'<font name="{BOLD}" color="{self.p.accent.hexval()}">'
                               f"{escape(st.our_dial)}</font>", s.small_right))
        width = max(_width(st.our_dial, BOLD, SMALL_PT),
                    *(_width(x or "", REGULAR, SMALL_PT)
                      for x in (m.event, m.date, m.presenter)))
        width = min(width + 1 * mm, self.frame_w * 0.42)
        table = Table([[left, facts]], colWidths=[self.frame_w - width, width], hAlign="LEFT")
        table.setStyle(_TIGHT + [("VALIGN", (0, 0), (-1, -1), "BOTTOM")])
        sec.add(table, "meta.title").space(2.2 * mm).add(_Rule(self.p.text, 1.2))
        return Band(([sec],))

    def _meanings_and_dial(self) -> Band:
        s, labels = self.s, self.story.labels
        left = self.heading(Section("the four meanings", outline=self.outline("meanings")),
                            self.slides.get("meanings"))
        for i, card in enumerate(self.story.cards):
            tag = (f' <font name="{BOLD}" color="{self.p.accent.hexval()}">'
                   f"\u25c0 {_x(labels.our_dial.upper())}</font>" if card.ours else "")
            head = _para(f'<font size="{SMALL_PT}" color="{self.p.muted.hexval()}">'
                             f"{_x(card.label.upper())}</font>\u2002{_x(card.question)}{tag}",
                             s.strong)
            _tagged(head, f"meanings[{i}].label")
            bar = (self.p.accent, 2.4) if card.ours else (self.p.rule, 0.8)
            left.add(_Stack([head, Spacer(1, 0.5 * mm), self.para(card.text.text, s.body)],
                            3 * mm, bar), card.text.origin)
            if i < len(self.story.cards) - 1:
                left.space(1.8 * mm)

        d = self.story.dial
        right = self.heading(Section("the dial", outline=self.outline("dial")),
                             self.slides.get("dial"))
        right.add(_para(f'{_x(labels.our_dial.upper())} '
                        f'<font color="{self.p.accent.hexval()}">{_x(d.speed)}</font>',
                            s.label)).space(1.8 * mm)
        right.add(self.para(d.title, s.subhead)).space(0.6 * mm)
        right.add(self.para(d.arithmetic, s.body)).space(1.5 * mm)
        right.add(self._fitted(d.figure, s.figure, self.col_w))
        right.add(self.para(d.sentence, s.body)).space(2.5 * mm)
        right.add(_Rule(self.p.rule, 0.5)).space(1.8 * mm)
        right.add(self.para(d.at_slow_speed.upper(), s.label)).space(0.3 * mm)
        right.add(self._fitted(d.slow_figure, s.slow_figure, self.col_w))
        return Band(([left], [right]))

    def _fitted(self, text: str, style: ParagraphStyle, width: float) -> Paragraph:
        """A big figure, made smaller when it would not fit the column on one line."""
        natural = _width(text, style.fontName, style.fontSize)
        if natural > width:
            size = style.fontSize * width / natural * 0.98
            style = ParagraphStyle(style.name + "-fit", parent=style, fontSize=size,
                                   leading=size * 1.15)
        return _para(_x(text), style)

    def _workloads(self) -> Band:
        t = self.story.workload_table
        sec = Section("the four-workload table", outline=self.outline("workloads"))
        slide = self.slides.get("workloads")
        if slide:
            sec.add(self.para(slide.headline.text, self.s.subhead), slide.headline.origin)
            sec.space(1.2 * mm)
        sec.add(self.table(t, self.frame_w)).space(1 * mm)
        sec.add(self.para(t.caption, self.s.muted))
        return Band(([sec],))

    def _bottleneck(self) -> list[Band]:
        s, b = self.s, self.story.bottleneck
        head = self.heading(Section("the serial bottleneck", outline=self.outline("bottleneck")),
                            self.slides.get("bottleneck"), after=0)
        left = Section("the serial bottleneck")
        left.add(self.para(b.setup.text, s.body), b.setup.origin).space(2 * mm)
        if b.has_check:  # with no check there is nothing to split: no empty bars
            chart = self.story.chart("bottleneck")
            left.add(self._chart(chart, self.col_w, CHART_HEIGHT)).space(2.5 * mm)
        left.add(self._speedups(b)).space(2.5 * mm)
        left.add(self.para(b.model.text, s.note), b.model.origin)

        right = Section("the preset-check table")
        presets = self.slides.get("presets")
        if presets:
            right.add(self.para(presets.headline.text, s.subhead), presets.headline.origin)
            right.space(1.2 * mm)
        right.add(self.table(self.story.presets_table, self.col_w)).space(1 * mm)
        right.add(self.para(self.story.presets_table.caption, s.muted)).space(3 * mm)
        right.add(_Stack([self.para(b.ceiling_sentence.text, s.strong)], 2.5 * mm,
                         (self.p.accent, 2.4)), b.ceiling_sentence.origin)
        right.space(2.5 * mm)
        right.add(self.para(b.lesson.text, s.body), b.lesson.origin)
        return [Band(([head],), keep_with_next=True), Band(([left], [right]))]

    def _speedups(self, b: Any) -> Table:
        s, labels = self.s, self.story.labels
        half = self.col_w / 2
        cells = [
            [self.para(labels.writing_speedup.upper(), s.label),
             self.para(labels.end_to_end_speedup.upper(), s.label)],
            [self._fitted(b.writing_speedup, s.speedup, half - 2 * mm),
             self._fitted(b.end_to_end_speedup, s.speedup_ours, half - 2 * mm)],
            [self.para(b.writing_speedup_how, s.muted), self.para(b.end_to_end_how, s.muted)],
        ]
        if not b.has_check:  # the writing speedup alone: the end-to-end one is the same
            cells = [row[:1] for row in cells]
        table = Table(cells, colWidths=[half] * len(cells[0]), hAlign="LEFT")
        table.setStyle(_TIGHT + [("RIGHTPADDING", (0, 0), (-1, -1), 2 * mm),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5 * mm)])
        return table

    def _chart(self, chart: BarChart | Any, width: float, height: float) -> Flowable:
        from svglib.svglib import svg2rlg

        from deckgen import chartcache

        svg = chartcache.render(chart, self.story.theme, width_in=width / 72, height_in=height / 72,
                                fmt="svg", font_pt=SMALL_PT)
        drawing = svg2rlg(io.BytesIO(svg))
        if drawing is None:
            raise RenderError(f"the {chart.key} chart could not be converted for the handout")
        _embed_fonts(drawing)
        return _Picture(drawing, width)

    # -- the back

    def back(self) -> Side:
        return Side("back page", [*self._experiments(), self._checklist_and_more()])

    def _experiments(self) -> list[Band]:
        s = self.s
        head = Section("the thought experiments",
                       outline=self.story.experiments_headline.text or None)
        head.add(self.para(self.experiments_kicker.upper(), s.kicker), "slides.experiments.kicker")
        if self.story.experiments_headline.text:
            head.space(0.8 * mm).add(self.para(self.story.experiments_headline.text, s.headline),
                                     self.story.experiments_headline.origin)
        head.space(2 * mm)
        bands = [Band(([head],), keep_with_next=True)]
        cells = []
        for i, e in enumerate(self.story.experiments):
            sec = Section(f"the thought experiment \u201c{e.title}\u201d")
            sec.add(self.para(e.title, s.subhead), f"workloads[{i}].title").space(0.6 * mm)
            sec.add(self.para(e.arithmetic, s.body))
            sec.add(_para(f'<font name="{BOLD}">{_x(e.writing)}</font>', s.body))
            sec.space(1.2 * mm)
            scarce = _para(f'<font name="{BOLD}">{_x(self.story.labels.still_scarce)}:</font> '
                           f"{_x(e.scarce.text)}",
                               s.body)
            bar = (self.p.accent, 2.4) if e.featured else (self.p.text, 1.2)
            sec.add(_Stack([scarce], 2.5 * mm, bar), e.scarce.origin)
            cells.append(sec)
        for i in range(0, len(cells), 2):
            pair = cells[i:i + 2]
            bands.append(Band(([pair[0]], [pair[1]] if len(pair) > 1 else [])))
        return bands

    def _checklist_and_more(self) -> Band:
        """What gets precious, the checklist, the sources and the QR code, flowing from the
        left column into the right one, balanced, in reading order."""
        s = self.s
        precious = Section("what gets precious", outline=self.outline("precious"))
        glue = self.glued(precious, self.slides.get("precious"))
        for name, text in self.story.precious:
            item = _para(f'<font name="{BOLD}">{_x(name)}.</font> {_x(text.text)}', s.body)
            precious.add(_Stack([*glue, item]), text.origin)
            precious.space(1.1 * mm)
            glue = []

        checklist = Section("the checklist", outline=self.outline("checklist")).space(SECTION_GAP)
        glue = self.glued(checklist, self.slides.get("checklist"))
        indent = CHECK_BOX + 2.5 * mm
        for i, (step, detail, write_in) in enumerate(self.story.checklist):
            head = _StepHead(self.para(step, s.strong), self.p.text)
            _tagged(head, f"checklist[{i}].step")
            unit = _Stack([*glue, head,
                           Spacer(1, 0.6 * mm), _Stack([self.para(detail.text, s.body)], indent),
                           _WriteIn(write_in, self.write_lines, s.body, self.p.muted, indent)])
            checklist.add(unit, detail.origin).space(2.5 * mm)
            glue = []

        sources = Section("the sources", outline=self.outline("sources")).space(SECTION_GAP)
        glue = self.glued(sources, self.slides.get("sources"))
        for i, src in enumerate(self.story.sources):
            line = f'<font name="{BOLD}">{_x(src.title)}</font>. {_x(src.byline)}.'
            if src.url:
                line += f" {_link(src.url, _short_link(src.url), self.p.accent)}"
            sources.add(_Stack([*glue, _para(line, s.body)]), f"sources[{i}].title")
            sources.space(1.4 * mm)
            glue = []
        sections = [precious, checklist, sources]
        if self.story.meta.url:
            qr = Section("the QR code")
            qr.space(1.5 * mm).add(self._qr(self.story.meta.url), "meta.url")
            sections.append(qr)
        return _balance(sections, self.col_w)

    def _qr(self, url: str) -> Table:
        widget = QrCodeWidget(url, barLevel="M")
        widget.qr.make()
        modules = widget.qr.getModuleCount()
        size = QR_MODULES * (modules + 2 * widget.barBorder) / modules
        widget.barWidth = widget.barHeight = size
        drawing = Drawing(size, size)
        drawing.add(widget)
        link = _para(_link(url, _short_link(url, keep_path=True), self.p.accent), self.s.body)
        table = Table([[_Picture(drawing, size), link]], colWidths=[size + 1 * mm, None],
                      hAlign="LEFT")
        table.setStyle(_TIGHT + [("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
        return table


def _table_widths(t: StoryTable, width: float, pad: float,
                  bold_row: int | None) -> tuple[list[float], bool]:
    """Column widths that keep every cell on one line when they can, and whether they do.

    Number columns get their widest cell; the text columns share what is left. When that is
    too little, headers wrap at their spaces first, then the text columns wrap too; only when
    even that fails does every column shrink alike.
    """
    def measure(text: str, bold: bool) -> float:
        return _width(text, BOLD if bold else REGULAR, TABLE_PT) + 2 * pad + 0.5

    columns = range(len(t.header))
    text_columns = [c for c in columns if t.align[c] == "l"]
    body = [max((measure(row[c], i == bold_row) for i, row in enumerate(t.rows)), default=0)
            for c in columns]
    words = [max((measure(w, i == bold_row) for i, row in enumerate(t.rows)
                  for w in row[c].split()), default=0) for c in columns]
    head_full = [measure(h, True) for h in t.header]
    head_words = [max((measure(w, True) for w in h.split()), default=0) for h in t.header]
    natural = [max(b, h) for b, h in zip(body, head_full, strict=True)]
    for heads, wrap_text in ((head_full, False), (head_words, False), (head_words, True)):
        wanted = [max(h, words[c] if (wrap_text and c in text_columns) else body[c])
                  for c, h in enumerate(heads)]
        fixed = sum(wanted[c] for c in columns if c not in text_columns)
        if fixed + sum(wanted[c] for c in text_columns) <= width:
            if not text_columns:
                return wanted, not wrap_text
            share = sum(natural[c] for c in text_columns)
            rest = width - fixed
            return [rest * natural[c] / share if c in text_columns else wanted[c]
                    for c in columns], not wrap_text
    total = sum(natural)
    return [width * n / total for n in natural], False


_TIGHT: list[tuple[Any, ...]] = [
    ("FONT", (0, 0), (-1, -1), REGULAR, BODY_PT),  # else reportlab sets Helvetica for each cell
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
]


def _tagged(flowable: Flowable, origin: str) -> Flowable:
    """Mark a flowable inside another with the content key its text came from."""
    flowable._deckgen_origin = origin
    return flowable


def _link(url: str, text: str, colour: colors.Color) -> str:
    """Paragraph markup for a clickable link (a URI annotation in the PDF)."""
    return (f'<a href="{escape(url, {chr(34): "&quot;"})}" color="{colour.hexval()}">'
            f"<u>{_x(text)}</u></a>")


def _balance(sections: list[Section], width: float) -> Band:
    """Sections flowing down the left column and on into the right, the two columns as even
    as whole items allow."""
    items = [(s, f) for s in sections for f in s.flowables]
    heights = [f.wrap(width, 10**6)[1] for _, f in items]

    def trimmed(run: list[int]) -> list[int]:
        while run and isinstance(items[run[0]][1], Spacer):
            run = run[1:]
        while run and isinstance(items[run[-1]][1], Spacer):
            run = run[:-1]
        return run

    best: tuple[float, int] | None = None
    for k in range(len(items) + 1):
        left, right = trimmed(list(range(k))), trimmed(list(range(k, len(items))))
        tallest = max(sum(heights[i] for i in left), sum(heights[i] for i in right))
        if best is None or tallest < best[0] - 0.01:
            best = (tallest, k)
    assert best is not None
    k = best[1]

    seen: set[int] = set()

    def column(run: list[int]) -> list[Section]:
        result: list[Section] = []
        for i in run:
            section, f = items[i]
            if not result or result[-1].name != section.name:
                outline = section.outline if id(section) not in seen else None
                seen.add(id(section))
                result.append(Section(section.name, outline=outline))
            result[-1].flowables.append(f)
        return result

    return Band((column(trimmed(list(range(k)))), column(trimmed(list(range(k, len(items)))))))


def _short_link(url: str, keep_path: bool = False) -> str:
    """A link as printed: no scheme or 'www.', and a long path cut to its last part."""
    text = url.split("://", 1)[-1]
    if text.startswith("www."):
        text = text[4:]
    text = text.rstrip("/")
    host, _, path = text.partition("/")
    parts = [p for p in path.split("/") if p]
    if keep_path or len(parts) <= 2:
        return text
    return f"{host}/\u2026/{parts[-1]}"


def _texts(flowable: Any, origin: str = "") -> Iterable[tuple[str, str, str]]:
    """Every (font, text, content key) a flowable will draw, to check each glyph exists."""
    origin = getattr(flowable, "_deckgen_origin", "") or origin
    if isinstance(flowable, Paragraph):  # parsed afresh: wrapping reshapes a paragraph's frags
        for frag in Paragraph(flowable.text, flowable.style).frags:
            yield frag.fontName, getattr(frag, "text", ""), origin
    elif isinstance(flowable, _Stack):
        for inner in flowable.inner:
            yield from _texts(inner, origin)
    elif isinstance(flowable, _StepHead):
        yield from _texts(flowable.text, origin)
    elif isinstance(flowable, _WriteIn):
        for font, text in _runs(flowable.label, flowable.style.fontName):
            yield font, text, origin
    elif isinstance(flowable, Table):
        for row in flowable._cellvalues:
            for cell in row:
                # a cell is a list of flowables, or a tuple once the table was measured
                for inner in cell if isinstance(cell, (list, tuple)) else [cell]:
                    yield from _texts(inner, origin)


def _missing_glyphs(sides: Sequence[Side], story: Story) -> list[Problem]:
    """A warning for each content key whose text has a character no installed font draws
    (it prints as an empty box, and stays in the PDF's text)."""
    missing: dict[str, set[str]] = {}
    for side in sides:
        for band in side.bands:
            for section in (s for column in band.columns for s in column):
                for f in section.flowables:
                    for font, text, origin in _texts(f):
                        cover = _coverage(font)
                        lacking = {ch for ch in text if ch >= " " and ord(ch) not in cover}
                        if lacking:
                            missing.setdefault(origin, set()).update(lacking)
    # Text with no key of its own (a table row, say) repeats text that has one: warn only of
    # characters no keyed text already warns of.
    keyed = set().union(*(chars for origin, chars in missing.items() if origin))
    if missing.get("", set()) <= keyed:
        missing.pop("", None)
    problems = []
    for origin, chars in missing.items():
        place = story.where(origin) if origin else None
        line, col = place if place else (None, None)
        listed = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in sorted(chars))
        problems.append(Problem(
            f"warning: the handout has no font for {listed}; install a font that covers it "
            f"(e.g. Debian's fonts-symbola)", story.file, line, col, origin or None))
    return problems


def _coverage(font: str) -> dict[int, int]:
    return pdfmetrics.getFont(font).face.charToGlyph  # type: ignore[no-any-return]


def _embed_fonts(node: Any) -> None:
    """Point every text in a converted chart at the embedded DejaVu faces."""
    if isinstance(node, String):
        name = node.fontName or REGULAR
        if name not in _FACES:
            bold = "bold" in name.lower()
            oblique = "italic" in name.lower() or "oblique" in name.lower()
            node.fontName = {(False, False): REGULAR, (True, False): BOLD, (False, True): ITALIC,
                             (True, True): BOLD_ITALIC}[(bold, oblique)]
        return
    if isinstance(node, (Group, Drawing)):
        for child in node.contents:
            _embed_fonts(child)


# --------------------------------------------------------------------------------------------
# The whole sheet


def render(told: Story, *, pages_auto: bool = False,
           warn: Callable[[Problem], None] | None = None) -> bytes:
    """The handout as PDF bytes: two pages (one sheet), or more when `pages_auto` allows.

    `warn` hears of each text with a character no installed font can draw."""
    _register_fonts()
    page_w, page_h = PAPER[told.meta.paper]
    frame_w, frame_h = page_w - 2 * MARGIN, page_h - 2 * MARGIN
    builder = _Builder(told, frame_w)
    front, back = builder.front(), builder.back()
    if _side_height(back, frame_w) > frame_h:  # less room to write beats a second sheet
        builder.write_lines = WRITE_LINES - 1
        back = builder.back()
    sides = [front, back]
    for warning in _missing_glyphs(sides, told):
        if warn:
            warn(warning)
    if not pages_auto:
        problems = [p for p in (_overflow(side, frame_w, frame_h, told) for side in sides) if p]
        if problems:
            raise InputError(problems)

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(page_w, page_h), invariant=1, pageCompression=1,
                    lang=told.meta.language or None, initialFontName=REGULAR,
                    initialFontSize=BODY_PT)
    _describe(canvas, told)
    sheet = _Sheet(canvas, page_w, page_h)
    for side in sides:
        # A page with room to spare spreads it between its bands, a little each.
        spare = frame_h - _side_height(side, frame_w)
        stretchy = sum(1 for band in side.bands[:-1] if not band.keep_with_next)
        gap = BAND_GAP + (min(spare / max(stretchy, 1), MAX_EXTRA_GAP) if spare > 0 else 0)
        sheet.side(side, paginate=pages_auto, gap=gap)
    canvas.showOutline()
    canvas.save()
    return out.getvalue()


def _describe(canvas: Canvas, told: Story) -> None:
    """Document metadata: title, author, subject, keywords and creator."""
    m = told.meta
    canvas.setTitle(m.title)
    canvas.setAuthor(m.presenter)
    canvas.setSubject(m.subtitle or m.title)
    topics = [s.kicker.split("/", 1)[-1].strip() for s in told.slides if s.kicker]
    keywords = list(dict.fromkeys([*topics, m.event]))
    canvas.setKeywords(", ".join(k for k in keywords if k))
    canvas.setCreator(f"deckgen {__version__}")
