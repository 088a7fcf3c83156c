"""The deck's charts as vector drawings on a reportlab canvas, laid out as the native charts
lay themselves out (deckgen.paint.pptx.charts): the same plot margins, log axes, tick labels,
lines with the dial's emphasis, the chosen speed's rule, the dial's marks and the lines'
names at their ends (a legend when ends crowd); bars to 100% of their totals with the check
hatched. Every label is the story's own text; positions only are worked out here."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from deckgen.paint.pdf import fonts
from deckgen.story import BarChart, Chart, Line, LineChart, Tick

LABEL_GAP = 0.3 * 72  # points between a line's last point and the far end of its label
RIGHT_MOST = 0.45  # the most of a chart's width its end labels or legend may take
TICK_GAP = 0.15 * 72
DASHES = ((6, 3), (1.5, 3), (6, 3, 1.5, 3), (6, 3, 1.5, 3, 1.5, 3), (10, 4), (2, 2))

Rect = tuple[float, float, float, float]  # left, bottom, width, height in points


def draw_chart(c: Canvas, chart: Chart, roles: Mapping[str, str], family: str, box: Rect,
               size: float) -> None:
    """`chart` drawn in `box` (points, from the page's bottom left), its text at `size`."""
    if isinstance(chart, LineChart):
        _Lines(c, chart, roles, family, box, size).draw()
    elif isinstance(chart, BarChart):
        _bars(c, chart, roles, family, box, size)


class _Pen:
    def __init__(self, c: Canvas, roles: Mapping[str, str], family: str, size: float) -> None:
        self.c = c
        self.roles = roles
        self.family = family
        self.size = size

    def ink(self, role: str) -> object:
        return HexColor(self.roles[role])

    def width(self, text: str, bold: bool = False) -> float:
        return max((fonts.width(line, self.family, self.size, bold)
                    for line in text.split("\n")), default=0.0)

    def text(self, x: float, y: float, text: str, role: str = "text", bold: bool = False,
             align: str = "l", middle: bool = False, angle: float = 0.0,
             boxed: bool = False) -> None:
        """`text` (lines from the top) at `x` (left, centre or right by `align`); `y` its
        first baseline, or with `middle` the middle of the whole block."""
        c = self.c
        lines = text.split("\n")
        pitch = self.size * 1.2
        if middle:
            y = y + (len(lines) * pitch) / 2 - self.size * 0.95
        c.saveState()
        if angle:
            c.translate(x, y)
            c.rotate(angle)
            x, y = 0.0, 0.0
        if boxed:
            wide = max(self.width(line, bold) for line in lines)
            left = {"r": x - wide, "c": x - wide / 2}.get(align, x)
            pad = self.size * 0.2
            c.setFillColor(self.ink("background"))
            c.rect(left - pad, y - (len(lines) - 1) * pitch - self.size * 0.3 - pad,
                   wide + 2 * pad, (len(lines) - 1) * pitch + self.size * 1.2 + 2 * pad,
                   stroke=0, fill=1)
        c.setFillColor(self.ink(role))
        for k, line in enumerate(lines):
            w = self.width(line, bold)
            left = {"r": x - w, "c": x - w / 2}.get(align, x)
            t = c.beginText(left, y - k * pitch)
            for font, part in fonts.runs(line, self.family, bold):
                t.setFont(font, self.size)
                t.textOut(part)
            c.drawText(t)
        c.restoreState()


def _log(v: Fraction) -> float:
    return math.log10(float(v))


class _Lines:
    def __init__(self, c: Canvas, chart: LineChart, roles: Mapping[str, str], family: str,
                 box: Rect, size: float) -> None:
        self.c, self.chart, self.box = c, chart, box
        self.pen = _Pen(c, roles, family, size)
        self.size = size

    def scale(self, v: Fraction, axis: str) -> float:
        chart = self.chart
        low, high = chart.x_range if axis == "x" else chart.y_range
        log = (chart.x_scale if axis == "x" else chart.y_scale) == "log"
        def f(u: Fraction) -> float:
            return _log(u) if log else float(u)

        share = (f(v) - f(low)) / (f(high) - f(low))
        px, py, pw, ph = self.plot
        return px + share * pw if axis == "x" else py + share * ph

    def draw(self) -> None:
        chart = self.chart
        ends = sorted(_log(line.points[-1][1]) for line in chart.lines)
        direct = all(b - a >= 0.3 for a, b in zip(ends, ends[1:], strict=False))
        self.place(direct)
        self.axes()
        self.lines(direct)
        if not direct:
            px, py, pw, ph = self.plot
            self.legend(px + pw + 0.3 * 72,
                        py + ph / 2 + self.size * 1.6 * len(chart.lines) / 2)  # centred, as native
        self.rule()
        self.marks()

    def place(self, direct: bool) -> None:
        """The plot's rectangle in the box: room for the y tick labels and title at the left,
        the end labels (`direct`) or the legend at the right, the x tick labels and title
        below."""
        chart, pen, size = self.chart, self.pen, self.size
        x0, y0, w, h = self.box
        if direct:
            right_w = max(pen.width(_end_text(line), line.emphasis) for line in chart.lines) \
                + LABEL_GAP
        else:
            right_w = max(pen.width(line.label) for line in chart.lines) + size * 3.0 + 0.45 * 72
        ticks_w = max(pen.width(t.label) for t in chart.y_ticks) + 0.15 * 72
        left = ticks_w + size * 1.6
        right = min(right_w, RIGHT_MOST * w)
        bottom, top = size * 3.4, size * 1.0
        self.plot = (x0 + left, y0 + bottom, w - left - right, h - top - bottom)

    def axes(self) -> None:
        """Grid, axes and ticks: every so many decades that the labels stand apart, as the
        native chart thins them; the axes' titles."""
        chart, pen, size, c = self.chart, self.pen, self.size, self.c
        x0, y0, _, _ = self.box
        px, py, pw, ph = self.plot
        x_room = max(pen.width(t.label) for t in chart.x_ticks) + TICK_GAP
        x_ticks = _thinned(chart.x_ticks, chart.x_scale, chart.x_range, pw, x_room)
        y_ticks = _thinned(chart.y_ticks, chart.y_scale, chart.y_range, ph,
                           size * 1.2 + TICK_GAP)
        c.setLineWidth(0.75)
        c.setStrokeColor(pen.ink("rule"))
        c.setDash()
        for t in y_ticks:
            y = self.scale(t.at, "y")
            c.line(px, y, px + pw, y)
        c.setLineWidth(1)
        c.setStrokeColor(pen.ink("text"))
        c.line(px, py, px + pw, py)
        c.line(px, py, px, py + ph)
        for t in x_ticks:
            x = self.scale(t.at, "x")
            c.line(x, py, x, py - 4)
            pen.text(x, py - 4 - size, t.label, align="c")
        for t in y_ticks:
            y = self.scale(t.at, "y")
            c.line(px, y, px - 4, y)
            pen.text(px - 6, y, t.label, align="r", middle=True)
        pen.text(px + pw / 2, y0 + size * 0.4, chart.x_label, align="c")
        pen.text(x0 + size * 1.0, py + ph / 2, chart.y_label, align="c", angle=90)

    def lines(self, direct: bool) -> None:
        """The lines, their points and, with `direct`, their names at their ends."""
        chart, pen, c = self.chart, self.pen, self.c
        ticks = {t.at for t in chart.x_ticks} | {chart.marker}
        others = 0
        for line in chart.lines:
            role = "accent" if line.emphasis else "muted"
            c.setStrokeColor(pen.ink(role))
            c.setFillColor(pen.ink(role))
            c.setLineWidth(4.0 if line.emphasis else 2.25)
            if line.emphasis:
                c.setDash()
            else:
                c.setDash(*_dash(DASHES[others % len(DASHES)]))
            path = c.beginPath()
            points = [(self.scale(x, "x"), self.scale(y, "y")) for x, y in line.points]
            path.moveTo(*points[0])
            for p in points[1:]:
                path.lineTo(*p)
            c.drawPath(path, stroke=1, fill=0)
            c.setDash()
            for k, ((at, _), p) in enumerate(zip(line.points, points, strict=True)):
                if at in ticks or k in (0, len(points) - 1):
                    if line.emphasis:
                        c.circle(p[0], p[1], 4.5, stroke=0, fill=1)
                    else:
                        c.rect(p[0] - 4, p[1] - 4, 8, 8, stroke=0, fill=1)
            if not line.emphasis:
                others += 1
            if direct:
                end = points[-1]
                pen.text(end[0] + 8, end[1], _end_text(line),
                         "accent" if line.emphasis else "text", line.emphasis, middle=True)

    def rule(self) -> None:
        """The chosen speed's rule and its label, on the side with more room."""
        chart, pen, size, c = self.chart, self.pen, self.size, self.c
        _, py, _, ph = self.plot
        x = self.scale(chart.marker, "x")
        c.setStrokeColor(pen.ink("text"))
        c.setLineWidth(1.5)
        c.setDash(6, 3)
        c.line(x, py, x, py + ph)
        c.setDash()
        x_first, x_last = (float(v) for v in chart.x_range)
        side = "r" if float(chart.marker) > (x_first * x_last) ** 0.5 else "l"
        pen.text(x + (-6 if side == "r" else 6), py + ph - size, chart.marker_label,
                 bold=True, align=side)

    def marks(self) -> None:
        """The dial's marks: ringed points, each label boxed on the side clear of the axes
        and the lines' ends."""
        chart, pen, size, c = self.chart, self.pen, self.size, self.c
        low_y, high_y = (_log(v) for v in chart.y_range)
        x_low, x_high = (_log(v) for v in chart.x_range)
        for mark in chart.marks:
            mx, my = self.scale(mark.at, "x"), self.scale(mark.value, "y")
            c.setFillColor(pen.ink("background"))
            c.setStrokeColor(pen.ink("accent"))
            c.setLineWidth(3)
            c.circle(mx, my, 6, stroke=1, fill=1)
            near_floor = _log(mark.value) < low_y + 0.25 * (high_y - low_y)
            if _log(mark.at) < x_low + 0.15 * (x_high - x_low):
                pen.text(mx + 14, my, mark.label, "accent", True, middle=True, boxed=True)
            elif not near_floor and _log(mark.at) > x_high - 0.15 * (x_high - x_low):
                pen.text(mx - 14, my, mark.label, "accent", True, align="r", middle=True,
                         boxed=True)
            elif near_floor:
                pen.text(mx, my + 14, mark.label, "accent", True, align="c", boxed=True)
            else:
                pen.text(mx, my - 14 - size, mark.label, "accent", True, align="c", boxed=True)

    def legend(self, x: float, top: float) -> None:
        c, pen, size = self.c, self.pen, self.size
        others = 0
        for k, line in enumerate(self.chart.lines):
            y = top - size * 1.6 * (k + 0.5)
            role = "accent" if line.emphasis else "muted"
            c.setStrokeColor(pen.ink(role))
            c.setLineWidth(4.0 if line.emphasis else 2.25)
            if line.emphasis:
                c.setDash()
            else:
                c.setDash(*_dash(DASHES[others % len(DASHES)]))
                others += 1
            c.line(x, y, x + size * 2.2, y)
            c.setDash()
            pen.text(x + size * 2.6, y, line.label, middle=True)


def _thinned(ticks: Sequence[Tick], scale: str, span: tuple[Fraction, Fraction],
             length: float, room: float) -> list[Tick]:
    """The ticks a native chart shows on a log axis `length` points long: one every so many
    decades from the axis's start that labels `room` points long stand apart."""
    if scale != "log":
        return list(ticks)
    decades = math.log10(float(span[1]) / float(span[0]))
    if decades <= 0:
        return list(ticks)
    step = 1
    while step < decades and length / decades * step < room:
        step += 1
    return [t for t in ticks
            if round(math.log10(float(t.at / span[0]))) % step == 0]


def _dash(pattern: Sequence[float]) -> tuple[list[float], int]:
    return list(pattern), 0


def _end_text(line: Line) -> str:
    """The label at a line's right-hand end: its name, and its ceiling under it."""
    return line.label + (f"\n{line.asymptote_label}" if line.asymptote_label else "")


def _bars(c: Canvas, chart: BarChart, roles: Mapping[str, str], family: str, box: Rect,
          size: float) -> None:
    """Bars each to 100% of their own total, the first on top; the segments' labels on them."""
    pen = _Pen(c, roles, family, size)
    x0, y0, w, h = box
    labels_w = max(pen.width(bar.label) for bar in chart.bars) + size * 0.8
    px, pw = x0 + labels_w, w - labels_w - size * 0.5
    top, bottom = y0 + h - size * 0.5, y0 + size * 0.5
    slot = (top - bottom) / len(chart.bars)
    bar_h = slot / 1.7  # a gap of 70% of a bar between bars
    for b, bar in enumerate(chart.bars):
        mid = top - slot * (b + 0.5)
        pen.text(px - size * 0.4, mid, bar.label, align="r", middle=True)
        total = sum((seg.share for seg in bar.segments), Fraction(0))
        at = Fraction(0)
        widest = max(range(len(bar.segments)), key=lambda j: bar.segments[j].share)
        for k, seg in enumerate(bar.segments):
            left = px + float(at / total) * pw
            seg_w = float(seg.share / total) * pw
            at += seg.share
            lower = mid - bar_h / 2
            c.setLineWidth(1)
            c.setStrokeColor(pen.ink("muted"))
            if k == 0:
                c.setFillColor(pen.ink("accent" if bar.emphasis else "muted"))
                c.rect(left, lower, seg_w, bar_h, stroke=1, fill=1)
            else:
                c.setFillColor(pen.ink("background"))
                c.rect(left, lower, seg_w, bar_h, stroke=0, fill=1)
                c.saveState()
                clip = c.beginPath()
                clip.rect(left, lower, seg_w, bar_h)
                c.clipPath(clip, stroke=0, fill=0)
                c.setLineWidth(1)
                step = 6.0
                d = -bar_h
                while d < seg_w:
                    c.line(left + d, lower, left + d + bar_h, lower + bar_h)
                    d += step
                c.restoreState()
                c.setStrokeColor(pen.ink("muted"))
                c.rect(left, lower, seg_w, bar_h, stroke=1, fill=0)
            if k != widest and seg.share < Fraction(1, 5):
                continue
            text = "\n".join(f"{s.name} {s.label}" for j, s in enumerate(bar.segments)
                             if j == k or (j != widest and s.share < Fraction(1, 5)
                                           and k == widest))
            pen.text(left + seg_w / 2, mid, text, "background" if k == 0 else "text",
                     bar.emphasis, align="c", middle=True, boxed=k != 0)
