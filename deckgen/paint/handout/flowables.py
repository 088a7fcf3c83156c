"""The handout's own flowables: rules, stacks, checklist heads, write-in lines, pictures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table

from deckgen.paint.handout.fonts import (
    REGULAR,
    font_runs,
    paragraph,
    text_width,
)
from deckgen.paint.handout.style import (
    CHECK_BOX,
    MIN_WRITE_WIDTH,
    WRITE_PITCH,
    escaped,
)

# --------------------------------------------------------------------------------------------
# Small flowables


class RuleFlowable(Flowable):
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


class Stack(Flowable):
    """Flowables one under the other, moved right by `indent`, with an optional bar down the
    left edge (thick and coloured for "ours"). Splits only between its flowables, or inside
    one that can split itself."""

    def __init__(self, inner: Sequence[Flowable], indent: float = 0,
                 bar: tuple[colors.Color, float] | None = None) -> None:
        super().__init__()
        self.inner, self.indent, self.bar = list(inner), indent, bar

    def _again(self, inner: Sequence[Flowable]) -> Stack:
        return Stack(inner, self.indent, self.bar)

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


class StepHead(Flowable):
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


class WriteIn(Flowable):
    """Ruled lines to write on, `pitch` apart, the first one after its label: "Done means:
    ______".

    A label too long to leave room on its line goes above the lines instead."""

    def __init__(self, label: str, lines: int, style: ParagraphStyle, colour: colors.Color,
                 indent: float, pitch: float = WRITE_PITCH) -> None:
        super().__init__()
        self.label, self.lines, self.style, self.pitch = label, lines, style, pitch
        self.colour, self.indent = colour, indent
        self.label_w = text_width(label, style.fontName, style.fontSize)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        inline = self.indent + self.label_w + 1.5 * mm + MIN_WRITE_WIDTH <= availWidth
        self.above = None if inline or not self.label else \
            paragraph(escaped(self.label), self.style)
        above_h = (self.above.wrap(availWidth - self.indent, availHeight)[1] + 1.5 * mm
                   if self.above else 0)
        self.width, self.height = availWidth, above_h + self.lines * self.pitch
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        lines_top = self.lines * self.pitch
        if self.above:
            self.above.drawOn(c, self.indent, lines_top)
        c.setStrokeColor(self.colour)
        c.setLineWidth(0.6)
        for i in range(self.lines):
            y = lines_top - (i + 1) * self.pitch + 1.2 * mm
            start = self.indent
            if i == 0 and self.label and not self.above:
                c.setFillColor(self.style.textColor)
                x = self.indent
                for font, text in font_runs(self.label, self.style.fontName):
                    c.setFont(font, self.style.fontSize)
                    c.drawString(x, y + 1.2, text)
                    x += text_width(text, font, self.style.fontSize)
                start += self.label_w + 1.5 * mm
            c.line(start, y, self.width, y)


class PictureFlowable(Flowable):
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


class Grid(Table):
    """reportlab's table, keeping the cells it was given: the sheet reads their text to check
    that every character has a font."""

    def __init__(self, cells: list[list[Any]], *args: Any, **kwargs: Any) -> None:
        super().__init__(cells, *args, **kwargs)
        self.cells = cells
