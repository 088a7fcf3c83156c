"""The handout's grid, sizes, palette and paragraph styles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

from deckgen.colour import luminance_rgb, ratio
from deckgen.paint.handout.fonts import (
    BOLD,
    REGULAR,
)

PAPER = {"a4": A4, "letter": LETTER}
MARGIN = 13 * mm  # survives office printers (at least 12 mm)
GUTTER = 6 * mm
BAND_GAP: float = 4.5 * mm
HEADING_GAP: float = 2.2 * mm  # under a heading that stands above two columns
MAX_EXTRA_GAP = 5 * mm
SECTION_GAP = 3.5 * mm  # between sections that follow each other in one column


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


@dataclass(frozen=True)
class Scale:
    """The sheet's type sizes and spaces: as designed, or one of the tighter steps it takes,
    in order, when the talk would not fit two pages otherwise. No step sets text below the
    designed sizes' least (body 9 pt, tables and captions 8.5 pt), a headline below 12 pt or
    the lines to write on closer than 8 mm."""

    headline: float = HEADLINE_PT
    title: float = TITLE_PT
    figure: float = FIGURE_PT  # the dial's writing time
    speedup: float = SPEEDUP_PT  # the two speedups, and the time at the slow speed
    leading: float = BODY_LEADING  # of body text
    space: float = 1.0  # the spaces between items, sections and bands, as a share of the designed
    chart: float = CHART_HEIGHT
    write_lines: int = WRITE_LINES
    write_pitch: float = WRITE_PITCH
    margin: float = MARGIN

    def gap(self, designed: float) -> float:
        """A space between items, sections or bands at this step."""
        return designed * self.space


# The steps, from the sheet as designed to the tightest it may be set: tighter spaces, then
# smaller headings and figures with a little less leading, then a line less to write on, then
# the narrowest margins.
_SMALLER = {"headline": 12.0, "title": 16.0, "figure": 22.0, "speedup": 15.0, "leading": 10.6,
            "chart": 26 * mm, "write_pitch": 8 * mm}
SCALES = (
    Scale(),
    Scale(space=0.8, chart=29 * mm),
    Scale(space=0.65, **_SMALLER),
    Scale(space=0.65, **_SMALLER, write_lines=WRITE_LINES - 1),
    Scale(space=0.5, **{**_SMALLER, "leading": 10.4}, write_lines=WRITE_LINES - 1,
          margin=12 * mm),
)


def luminance(colour: colors.Color) -> float:
    """The relative luminance of one of reportlab's colours."""
    return luminance_rgb(colour.red, colour.green, colour.blue)


def _contrast_on_paper(colour: colors.Color) -> float:
    return ratio(luminance(colour), 1.0)


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
    def make(cls, p: Palette, k: Scale = SCALES[0]) -> Styles:
        """The styles in the palette's colours at the sizes of `k`."""
        base = ParagraphStyle("body", fontName=REGULAR, fontSize=BODY_PT, leading=k.leading,
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
            headline=style("headline", fontName=BOLD, fontSize=k.headline,
                           leading=k.headline * 15.5 / 13),
            subhead=style("subhead", fontName=BOLD, fontSize=10, leading=12.5),
            title=style("title", fontName=BOLD, fontSize=k.title, leading=k.title * 7 / 6),
            label=style("label", fontName=BOLD, fontSize=SMALL_PT, leading=10.5,
                        textColor=p.muted),
            figure=style("figure", fontName=BOLD, fontSize=k.figure, leading=k.figure * 1.15,
                         textColor=p.accent),
            speedup=style("speedup", fontName=BOLD, fontSize=k.speedup, leading=k.speedup * 1.2),
            slow_figure=style("slow_figure", fontName=BOLD, fontSize=k.speedup,
                              leading=k.speedup * 1.2, textColor=p.muted),
            speedup_ours=style("speedup_ours", fontName=BOLD, fontSize=k.speedup,
                               leading=k.speedup * 1.2, textColor=p.accent),
            cell=cell,
            cell_right=style("cell_right", parent=cell, alignment=TA_RIGHT),
            head_cell=head,
            head_cell_right=style("head_right", parent=head, alignment=TA_RIGHT),
        )


def escaped(text: str) -> str:
    """Story text as paragraph markup: escaped, with line breaks kept."""
    return escape(text).replace("\n", "<br/>")
