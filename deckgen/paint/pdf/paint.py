"""One planned slide drawn on a reportlab canvas: its ground, title, items and footer, from
the plan the deck is drawn from (deckgen.paint.pptx.placed).

Every text is broken into the lines the planner measured (the same `Fitter`, fonts and widths)
and set at the plan's size, line pitch, alignment and anchor; boxes, fills and rules are the
plan's, in the theme's colours. Coordinates: EMU from the slide's top left, as the plans give
them, drawn in points from the page's bottom left (`Slide.x` and `Slide.y`)."""

from __future__ import annotations

import colorsys
import io
import math
from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from deckgen.box import EMU_PER_PT, Box, pt
from deckgen.paint.pdf import fonts
from deckgen.paint.pdf.chart import draw_chart
from deckgen.paint.pptx.placed import Gradient, Placed, Planned, PlannedSlide
from deckgen.plan.items import (
    WIDTH_SAFETY,
    ChartItem,
    Para,
    PictureItem,
    QrItem,
    RectItem,
    Run,
    TableItem,
    TextItem,
)
from deckgen.plan.kinds.fitting import Faces, para_lines
from deckgen.plan.qr import modules, qr_runs
from deckgen.typeset.text import Overlong

DESCENT = 0.212  # Liberation Sans's descent, in ems: a line's baseline sits this far above its
# foot, the leading above the text (as PowerPoint and LibreOffice set exact line spacing)


def shade(colour: str, brightness: float) -> str:
    """`colour` lightened (brightness > 0) or darkened, as the deck's lumMod/lumOff do it."""
    if not brightness:
        return colour
    h = colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    light = light * (1 - brightness) + brightness if brightness > 0 else light * (1 + brightness)
    r, g, b = colorsys.hls_to_rgb(hue, light, sat)
    return "#" + "".join(f"{round(v * 255):02X}" for v in (r, g, b))


def is_dark(colour: str) -> bool:
    h = colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100


class Slide:
    """Draws planned slides on `canvas`, the slide's bottom left at the origin."""

    def __init__(self, canvas: Canvas, found: Planned) -> None:
        self.c = canvas
        self.found = found
        self.h = pt(found.height)
        self.faces = Faces.of(found.body_font, found.heading_font)
        theme = found.theme
        self.roles = {"text": theme.text, "muted": theme.muted, "accent": theme.accent,
                      "background": theme.background, "rule": theme.rule}
        self.dark = is_dark(theme.background)
        self.links = True  # clickable links (off where the slide is drawn small)

    # -- coordinates and colours

    def x(self, emu: int) -> float:
        return emu / EMU_PER_PT

    def y(self, emu: int) -> float:
        return self.h - emu / EMU_PER_PT

    def colour(self, role: str, brightness: float = 0.0) -> object:
        return HexColor(shade(self.roles[role], brightness))

    def fill_of(self, fill: tuple[str, float] | None) -> tuple[str, float] | None:
        """A tint as a shade on a dark background (as the deck draws it)."""
        return (fill[0], -fill[1]) if fill and self.dark and fill[1] > 0 else fill

    def rect(self, box: Box, fill: tuple[str, float] | None,
             outline: tuple[str, float] | None = None) -> None:
        c = self.c
        if not fill and not outline:
            return
        if fill:
            c.setFillColor(self.colour(*fill))
        if outline:
            c.setStrokeColor(self.colour(outline[0]))
            c.setLineWidth(outline[1])
        c.rect(self.x(box.x), self.y(box.bottom), box.w / EMU_PER_PT, box.h / EMU_PER_PT,
               stroke=1 if outline else 0, fill=1 if fill else 0)

    # -- the slide

    def draw(self, s: PlannedSlide, number: int) -> None:
        self.ground(s, number)
        if s.backdrop is not None:
            self.rect(s.backdrop, ("background", 0.0))
        self.placed(s.title)
        if s.second is not None:
            self.placed(s.second)
        for item in s.plan.items:
            self.item(item)
        for footer in s.footer:
            self.placed(footer)

    def ground(self, s: PlannedSlide, number: int) -> None:
        c = self.c
        w = self.found.width / EMU_PER_PT
        c.setFillColor(HexColor(s.ground.fill))
        c.rect(0, 0, w, self.h, stroke=0, fill=1)
        if s.ground.gradient is not None:
            whole = c.beginPath()
            whole.rect(0, 0, w, self.h)
            self.gradient(whole, s.ground.gradient, Box(0, 0, self.found.width,
                                                        self.found.height))
        if s.ground.picture:
            c.drawImage(ImageReader(io.BytesIO(s.ground.picture)), 0, 0, w, self.h)
        for art in s.ground.art:
            x, y = self.x(art.box.x), self.y(art.box.bottom)
            bw, bh = art.box.w / EMU_PER_PT, art.box.h / EMU_PER_PT
            if art.picture:
                c.drawImage(ImageReader(io.BytesIO(art.picture)), x, y, bw, bh, mask="auto")
                continue
            if art.number is not None:  # the slide's number, in the artwork's own field
                size, colour, bold = art.number
                para = Para(str(number), (size,), bold=bold, colour=None, align="ctr",
                            one_line=True)
                self.paragraphs(art.box, (0, 0, 0, 0), "ctr", [para], [size], colour)
                continue
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
            if art.gradient is not None:
                self.gradient(path, art.gradient, art.box)
                c.drawPath(path, stroke=1 if art.line else 0, fill=0)
            else:
                c.drawPath(path, stroke=1 if art.line else 0, fill=1 if art.fill else 0)
            c.restoreState()

    def gradient(self, path: object, g: Gradient, box: Box) -> None:
        """`g` painted inside `path` (the outline of `box`)."""
        c = self.c
        colours = [HexColor(colour) for _, colour in g.stops]
        positions = [pos for pos, _ in g.stops]
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

    def placed(self, p: Placed) -> None:
        self.text(p.item, default_colour=p.colour, default_align=p.align)

    def item(self, item: TextItem | TableItem | ChartItem | RectItem | QrItem | PictureItem
             ) -> None:
        if isinstance(item, PictureItem):
            self.picture(item)
        elif isinstance(item, TextItem):
            self.rect(item.box, self.fill_of(item.fill), item.outline)
            self.text(item)
        elif isinstance(item, RectItem):
            self.rect(item.box, self.fill_of(item.fill), item.outline)
        elif isinstance(item, TableItem):
            self.table(item)
        elif isinstance(item, QrItem):
            self.qr(item)
        else:
            box = item.box
            draw_chart(self.c, item.chart, self.roles, self.found.body_font,
                       (self.x(box.x), self.y(box.bottom), box.w / EMU_PER_PT,
                        box.h / EMU_PER_PT), max(item.size, 14.0))

    # -- text

    def text(self, item: TextItem, default_colour: str | None = None,
             default_align: str = "l") -> None:
        self.paragraphs(item.box, item.inset, item.anchor, item.paras, item.sizes,
                        default_colour or self.roles["text"], default_align)

    def paragraphs(self, box: Box, inset: tuple[int, int, int, int], anchor: str,
                   paras: Sequence[Para], sizes: Sequence[float], default_colour: str,
                   default_align: str = "l") -> None:
        width = pt(box.w - inset[0] - inset[2])
        height = pt(box.h - inset[1] - inset[3])
        laid = []
        total = 0.0
        for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
            found = para_lines(self.faces, p, size, width * WIDTH_SAFETY)
            lines = (p.shown,) if isinstance(found, Overlong) else found
            before = p.before if i else 0.0
            laid.append((p, size, lines, before))
            total += before + len(lines) * size * p.line
        top = {"t": 0.0, "ctr": (height - total) / 2, "b": height - total}.get(anchor, 0.0)
        left = self.x(box.x + inset[0])
        y = self.y(box.y + inset[1]) - top
        for p, size, lines, before in laid:
            y -= before
            cursor = 0
            for line in lines:
                pitch = size * p.line
                baseline = y - pitch + DESCENT * size
                cursor = self.line(p, size, line, cursor, left, width, baseline, default_colour,
                                   p.align or default_align)
                y -= pitch

    def line(self, p: Para, size: float, line: str, cursor: int, left: float, width: float,
             baseline: float, default_colour: str, align: str) -> int:
        """One line of `p`, its runs in their own colours, weights and links; where the next
        line starts in the paragraph's text."""
        shown = p.shown
        runs = p.runs or (Run(p.text),)
        at = shown.find(line, cursor) if line else -1
        pieces: list[tuple[str, Run]] = []
        if at < 0 or not line:
            pieces = [(line, runs[0])]
            end = cursor
        else:
            end = at + len(line)
            start = 0
            for run in runs:  # each run's length as shown: 'ß' in capitals is 'SS'
                stop = start + len(run.text.upper() if p.caps else run.text)
                a, b = max(start, at), min(stop, end)
                if a < b:
                    pieces.append((shown[a:b], run))
                start = stop
        family_of = self.found.heading_font if p.heading else self.found.body_font
        measured = []
        for text, run in pieces:
            bold = p.bold if run.bold is None else run.bold
            measured.append((text, run, bold,
                             fonts.width(text, family_of, size, bold, p.tracking)))
        wide = sum(m[3] for m in measured)
        x = {"r": left + width - wide, "ctr": left + (width - wide) / 2}.get(align, left)
        c = self.c
        for text, run, bold, w in measured:
            role = run.colour or p.colour
            colour = self.roles[role] if role else default_colour
            c.setFillColor(HexColor(colour))
            t = c.beginText(x, baseline)
            t.setCharSpace(p.tracking)
            for font, part in fonts.runs(text, family_of, bold):
                t.setFont(font, size)
                t.textOut(part)
            c.drawText(t)
            url = run.link or p.link
            if url:  # underlined, as a presentation app shows a link
                c.setStrokeColor(HexColor(colour))
                c.setLineWidth(max(0.5, size / 18))
                c.line(x, baseline - size * 0.1, x + w, baseline - size * 0.1)
            if url and self.links:
                c.linkURL(url, (x, baseline - DESCENT * size, x + w, baseline + 0.8 * size),
                          relative=1, thickness=0)
            x += w
        return end

    # -- tables and codes

    def table(self, item: TableItem) -> None:
        c = self.c
        rows = len(item.cells)
        xs = [item.box.x]
        for w in item.widths:
            xs.append(xs[-1] + w)
        ys = [item.box.y]
        for h in item.heights:
            ys.append(ys[-1] + h)
        for r in range(rows):
            for col in range(len(item.widths)):
                cell = Box(xs[col], ys[r], xs[col + 1] - xs[col], ys[r + 1] - ys[r])
                if item.highlight is not None and r - 1 == item.highlight:
                    self.rect(cell, self.fill_of(("accent", 0.78)))
                m = item.margin
                self.paragraphs(cell, (m[0], m[1], m[0], m[1]), "t", item.cells[r][col],
                                item.sizes[r][col], self.roles["text"])
        left, right = self.x(xs[0]), self.x(xs[-1])
        for r in range(rows):
            strong = r == rows - 1 or (r == 0 and item.header)
            if r == 0:
                c.setStrokeColor(self.colour("text"))
                c.setLineWidth(1.5)
                c.line(left, self.y(ys[0]), right, self.y(ys[0]))
            c.setStrokeColor(self.colour("text" if strong else "rule"))
            c.setLineWidth(1.0 if strong else 0.75)
            c.line(left, self.y(ys[r + 1]), right, self.y(ys[r + 1]))

    def picture(self, item: PictureItem) -> None:
        """A presenter's picture in its box, its aspect kept; cropped as the plan says (the
        whole picture drawn larger, clipped to the box), as the deck crops it."""
        c, box = self.c, item.box
        left, top, right, bottom = item.crop
        w = box.w / EMU_PER_PT / (1 - left - right)
        h = box.h / EMU_PER_PT / (1 - top - bottom)
        c.saveState()
        path = c.beginPath()
        path.rect(self.x(box.x), self.y(box.bottom), box.w / EMU_PER_PT, box.h / EMU_PER_PT)
        c.clipPath(path, stroke=0, fill=0)
        c.drawImage(ImageReader(io.BytesIO(item.picture.data)), self.x(box.x) - left * w,
                    self.y(box.bottom) - bottom * h, w, h)
        c.restoreState()

    def qr(self, item: QrItem) -> None:
        c = self.c
        self.rect(item.box, ("background", 0.0))
        c.setFillColor(self.colour("text"))
        path = c.beginPath()
        for x0, y0, x1, y1 in qr_runs(modules(item.url), item.box):
            path.rect(self.x(x0), self.y(y1), (x1 - x0) / EMU_PER_PT, (y1 - y0) / EMU_PER_PT)
        c.drawPath(path, stroke=0, fill=1)
        if self.links:
            box = item.box
            c.linkURL(item.url, (self.x(box.x), self.y(box.bottom), self.x(box.right),
                                 self.y(box.y)), relative=1, thickness=0)
