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

from deckgen.plan.placed.charts import (
    AxisTick,
    BarPiece,
    BarPlacement,
    BarRow,
    Chart,
    Dot,
    Entry,
    Label,
    Layer,
    LinePlacement,
    Marker,
    MarkerAt,
    Polyline,
    Rule,
    Segment,
    Series,
    Stroke,
)
from deckgen.plan.placed.deck import (
    Art,
    Blend,
    Deck,
    Ground,
    NotesBook,
    NotesPage,
    PlacedSlide,
    Point,
    Shape,
    Step,
)
from deckgen.plan.placed.shapes import (
    Cell,
    Image,
    Qr,
    Rect,
    TableBox,
    TableRule,
)
from deckgen.plan.placed.text import (
    DESCENT,
    Colour,
    Font,
    Insets,
    Paragraph,
    Span,
    TextBox,
    TextLine,
    TextRun,
)

__all__ = [
    "Art",
    "AxisTick",
    "BarPiece",
    "BarPlacement",
    "BarRow",
    "Blend",
    "Cell",
    "Chart",
    "Colour",
    "DESCENT",
    "Deck",
    "Dot",
    "Entry",
    "Font",
    "Ground",
    "Image",
    "Insets",
    "Label",
    "Layer",
    "LinePlacement",
    "Marker",
    "MarkerAt",
    "NotesBook",
    "NotesPage",
    "Paragraph",
    "PlacedSlide",
    "Point",
    "Polyline",
    "Qr",
    "Rect",
    "Rule",
    "Segment",
    "Series",
    "Shape",
    "Span",
    "Step",
    "Stroke",
    "TableBox",
    "TableRule",
    "TextBox",
    "TextLine",
    "TextRun",
]
