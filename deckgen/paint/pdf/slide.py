"""One placed slide drawn on a reportlab canvas: its ground, then its shapes bottom first, every
text in the lines, spans, fonts and places the plan gave it.

reportlab only; nothing is measured or decided here. Coordinates: the placed deck's EMU (boxes)
and points (text) from the slide's top left, drawn in points from the page's bottom left
(`SlidePainter.x` and `SlidePainter.y`)."""

from __future__ import annotations

import io
import math

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from deckgen.box import EMU_PER_PT, Box, pt
from deckgen.paint.pdf import fonts
from deckgen.paint.pdf.chart import ChartPainter
from deckgen.plan.placed import (
    Art,
    Blend,
    Chart,
    Colour,
    Deck,
    Image,
    Paragraph,
    PlacedSlide,
    Qr,
    Rect,
    Shape,
    TableBox,
    TextBox,
    TextLine,
)


class SlidePainter:
    """Draws placed slides on `canvas`, the slide's bottom left at the origin."""

    def __init__(self, canvas: Canvas, deck: Deck, links: bool = True) -> None:
        self.c = canvas
        self.deck = deck
        self.h = pt(deck.height)
        self.links = links  # clickable links (off where the slide is drawn small)

    # -- coordinates and colours

    def x(self, emu: float) -> float:
        return emu / EMU_PER_PT

    def y(self, emu: float) -> float:
        return self.h - emu / EMU_PER_PT

    def rect(self, box: Box, fill: Colour | None,
             outline: tuple[Colour, float] | None = None) -> None:
        c = self.c
        if fill is None and outline is None:
            return
        if fill is not None:
            c.setFillColor(HexColor(fill.value))
        if outline is not None:
            c.setStrokeColor(HexColor(outline[0].value))
            c.setLineWidth(outline[1])
        c.rect(self.x(box.x), self.y(box.bottom), box.w / EMU_PER_PT, box.h / EMU_PER_PT,
               stroke=1 if outline else 0, fill=1 if fill else 0)

    # -- the slide

    def draw(self, slide: PlacedSlide) -> None:
        self.ground(slide)
        for shape in slide.shapes:
            self.shape(shape)

    def ground(self, slide: PlacedSlide) -> None:
        c = self.c
        ground = slide.ground
        w = self.deck.width / EMU_PER_PT
        c.setFillColor(HexColor(ground.fill))
        c.rect(0, 0, w, self.h, stroke=0, fill=1)
        if ground.blend is not None:
            whole = c.beginPath()
            whole.rect(0, 0, w, self.h)
            self.blend(whole, ground.blend, Box(0, 0, self.deck.width, self.deck.height))
        if ground.picture:
            c.drawImage(ImageReader(io.BytesIO(ground.picture)), 0, 0, w, self.h)
        for art in ground.art:
            self.art(art)

    def art(self, art: Art) -> None:
        c = self.c
        x, y = self.x(art.box.x), self.y(art.box.bottom)
        bw, bh = art.box.w / EMU_PER_PT, art.box.h / EMU_PER_PT
        if art.picture:
            c.drawImage(ImageReader(io.BytesIO(art.picture)), x, y, bw, bh, mask="auto")
            return
        if art.number is not None:  # the slide's number, in the artwork's own field
            self.text(art.number)
            return
        c.saveState()
        if art.fill:
            c.setFillColor(HexColor(art.fill))
            c.setFillAlpha(art.fill_alpha)
        if art.line:
            c.setStrokeColor(HexColor(art.line))
            c.setLineWidth(art.line_width)
        path = c.beginPath()
        if art.steps:
            for kind, points in art.steps:
                flat = [v for px, py in points for v in (px / EMU_PER_PT, self.y(round(py)))]
                if kind == "move":
                    path.moveTo(*flat)
                elif kind == "line":
                    path.lineTo(*flat)
                elif kind == "curve":
                    path.curveTo(*flat)
                else:
                    path.close()
        elif art.ellipse:
            path.ellipse(x, y, bw, bh)
        else:
            path.rect(x, y, bw, bh)
        if art.blend is not None:
            self.blend(path, art.blend, art.box)
            c.drawPath(path, stroke=1 if art.line else 0, fill=0)
        else:
            c.drawPath(path, stroke=1 if art.line else 0, fill=1 if art.fill else 0)
        c.restoreState()

    def blend(self, path: object, g: Blend, box: Box) -> None:
        """`g` painted inside `path` (the outline of `box`)."""
        c = self.c
        colours = [HexColor(colour) for _, colour in g.stops]
        positions = [at for at, _ in g.stops]
        x, y = self.x(box.x), self.y(box.bottom)
        w, h = box.w / EMU_PER_PT, box.h / EMU_PER_PT
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        if g.radial:
            fx, fy = x + g.focus[0] * w, y + (1 - g.focus[1]) * h
            radius = max(math.hypot(fx - cx, fy - cy) for cx in (x, x + w) for cy in (y, y + h))
            c.radialGradient(fx, fy, radius or 1.0, colours, positions, extend=True)
        else:
            turn = math.radians(g.angle)
            half = (abs(w * math.cos(turn)) + abs(h * math.sin(turn))) / 2
            mx, my = x + w / 2, y + h / 2
            dx, dy = half * math.cos(turn), -half * math.sin(turn)  # clockwise, y up
            c.linearGradient(mx - dx, my - dy, mx + dx, my + dy, colours, positions,
                             extend=True)
        c.restoreState()

    def shape(self, shape: Shape) -> None:
        if isinstance(shape, TextBox):
            self.rect(shape.box, shape.fill, shape.outline)
            self.text(shape)
        elif isinstance(shape, Rect):
            self.rect(shape.box, shape.fill, shape.outline)
        elif isinstance(shape, TableBox):
            self.table(shape)
        elif isinstance(shape, Qr):
            self.qr(shape)
        elif isinstance(shape, Image):
            self.picture(shape)
        else:
            self.chart(shape)

    def chart(self, chart: Chart) -> None:
        ChartPainter(self.c, self.h, self.line).draw(chart)

    # -- text

    def text(self, box: TextBox) -> None:
        for paragraph in box.paragraphs:
            self.paragraph(paragraph)

    def paragraph(self, p: Paragraph) -> None:
        for line in p.lines:
            self.line(line, p.tracking)

    def line(self, line: TextLine, tracking: float = 0.0) -> None:
        text_line(self.c, line, self.h, tracking, self.links)

    # -- tables, pictures and codes

    def table(self, table: TableBox) -> None:
        c = self.c
        for row in table.cells:
            for cell in row:
                if cell.fill is not None:
                    self.rect(cell.box, cell.fill)
                for paragraph in cell.paragraphs:
                    self.paragraph(paragraph)
        for rule in table.rules:
            c.setStrokeColor(HexColor(rule.colour.value))
            c.setLineWidth(rule.width)
            c.line(self.x(rule.x0), self.y(rule.y), self.x(rule.x1), self.y(rule.y))

    def picture(self, image: Image) -> None:
        """A presenter's picture in its box, its aspect kept; cropped as placed (the whole
        picture drawn larger, clipped to the box), as the deck crops it."""
        c, box = self.c, image.box
        left, top, right, bottom = image.crop
        w = box.w / EMU_PER_PT / (1 - left - right)
        h = box.h / EMU_PER_PT / (1 - top - bottom)
        c.saveState()
        path = c.beginPath()
        path.rect(self.x(box.x), self.y(box.bottom), box.w / EMU_PER_PT, box.h / EMU_PER_PT)
        c.clipPath(path, stroke=0, fill=0)
        c.drawImage(ImageReader(io.BytesIO(image.picture.data)), self.x(box.x) - left * w,
                    self.y(box.bottom) - bottom * h, w, h)
        c.restoreState()

    def qr(self, code: Qr) -> None:
        c = self.c
        self.rect(code.box, code.light)
        c.setFillColor(HexColor(code.dark.value))
        path = c.beginPath()
        for x0, y0, x1, y1 in code.runs:
            path.rect(self.x(x0), self.y(y1), (x1 - x0) / EMU_PER_PT, (y1 - y0) / EMU_PER_PT)
        c.drawPath(path, stroke=0, fill=1)
        if self.links:
            box = code.box
            c.linkURL(code.url, (self.x(box.x), self.y(box.bottom), self.x(box.right),
                                 self.y(box.y)), relative=1, thickness=0)


def text_line(c: Canvas, line: TextLine, height: float, tracking: float = 0.0,
              links: bool = True) -> None:
    """One placed line on a page `height` points tall: each span in its font and colour at
    its place; a link underlined as placed and, with `links`, clickable."""
    baseline = height - line.baseline
    for span in line.spans:
        c.setFillColor(HexColor(span.colour.value))
        t = c.beginText(span.x, baseline)
        t.setCharSpace(tracking)
        t.setFont(fonts.name(span.font), line.size)
        t.textOut(span.text)
        c.drawText(t)
        if span.link:
            below, thickness = line.underline
            c.setStrokeColor(HexColor(span.colour.value))
            c.setLineWidth(thickness)
            c.setDash()
            c.line(span.x, baseline - below, span.x + span.width, baseline - below)
            if links:
                left, top, right, bottom = line.reach(span)
                c.linkURL(span.link, (left, height - bottom, right, height - top), relative=1,
                          thickness=0)
