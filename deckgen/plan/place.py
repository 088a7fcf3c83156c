"""Each slide as arranged by its kind, placed on its layout of the template: its title (and on
the cover its subtitle) in the layout's placeholders or in text boxes where the layout has
none, the kicker kept off artwork at its start and coloured to read where it sits, a panel
behind the content where artwork runs under it, the footer and slide number, every text
set into its lines, every colour resolved, and the slide's ground for the slides PDF.

Pure: the template's values, the slides' arrangements (deckgen.plan.items) and the measured
faces. What is decided here is what every painter draws.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.colour import TEXT_CONTRAST, contrast, passing
from deckgen.plan.charts.bar_chart import place_bars
from deckgen.plan.charts.line_chart import place_lines
from deckgen.plan.footers import footers
from deckgen.plan.geometry import Geometry
from deckgen.plan.ground import slide_ground
from deckgen.plan.grounds import Grounds
from deckgen.plan.items import (
    ArrangedSlide,
    ChartItem,
    Item,
    Para,
    PictureItem,
    QrItem,
    RectItem,
    TableItem,
    TextItem,
)
from deckgen.plan.kinds.fitting import Faces
from deckgen.plan.layouts import Layouts
from deckgen.plan.paragraphs import BoxLook, set_text
from deckgen.plan.placed import (
    Cell,
    Chart,
    Colour,
    Image,
    Paragraph,
    PlacedSlide,
    Qr,
    Rect,
    Shape,
    Span,
    TableBox,
    TextBox,
    TextLine,
    TextRun,
)
from deckgen.plan.qr import modules, qr_runs
from deckgen.template.model import (
    BODY_KINDS,
    TITLE_KINDS,
    Layout,
    Placeholder,
)

CHART_LEAST = 14.0  # points: the least size of any text on a chart
SECOND_KINDS = ("subTitle", *BODY_KINDS)


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
    """Whether a '#RRGGBB' background is dark enough for light text."""
    h = colour.lstrip("#")
    if len(h) != 6:
        return False
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100


@dataclass
class Placer:
    """Places the arranged slides of one deck on one template."""

    story: st.Story
    layouts: Layouts
    grounds: Grounds  # on the theme as the deck writes it (its colours checked)
    roles: Mapping[str, str]  # '#RRGGBB' by colour role, as the deck's theme shows them
    dark: bool  # the deck's background is dark: tints become shades
    faces: Faces
    by_kind: Mapping[str, Layout]
    title_box: Box  # the content layout's title box: the footer band runs under it

    @property
    def own(self) -> bool:
        return self.layouts.own

    def colour(self, role: str, brightness: float = 0.0) -> Colour:
        return Colour(shade(self.roles[role], brightness), role, brightness)

    def fill(self, fill: tuple[str, float] | None) -> Colour | None:
        """A fill's colour, a tint made a shade on a dark background (so light text on it
        keeps its contrast)."""
        if fill is None:
            return None
        role, brightness = fill
        if self.dark and brightness > 0:
            brightness = -brightness
        return self.colour(role, brightness)

    def outline(self, outline: tuple[str, float] | None) -> tuple[Colour, float] | None:
        return (self.colour(outline[0]), outline[1]) if outline else None

    def layout_of(self, plan: ArrangedSlide) -> Layout:
        if plan.cover:
            return self.by_kind.get("title", self.layouts.cover)
        return self.by_kind.get(plan.kind, self.layouts.content)

    # -- a slide

    def slide(self, number: int, plan: ArrangedSlide) -> PlacedSlide:
        layout = self.layout_of(plan)
        if plan.cover:
            shapes = self.cover(plan, layout)
        else:
            shapes = self.content(number, plan, layout)
        title = " ".join(" ".join(p.shown.split()) for p in plan.title) or plan.kind
        return PlacedSlide(plan.kind, title, self.layouts.number(layout),
                           slide_ground(self, layout, number), tuple(shapes), plan.notes,
                           plan.cover)

    def cover(self, plan: ArrangedSlide, layout: Layout) -> list[Shape]:
        g = self.layouts.geometry(cover_layout=layout)
        master = self.layouts.ph.master(layout)
        shapes: list[Shape] = []
        title_ph = self.layouts.ph.title(layout)
        if title_ph is None:
            shapes.append(self.text(plan.title, plan.title_sizes, g.cover_title, (0, 0, 0, 0),
                                    "b", BoxLook(self.colour("text")), name="Title"))
        else:
            box = g.cover_title
            inset = self.layouts.ph.insets(title_ph, master)
            anchor = "b" if self.own else self.layouts.ph.anchor(layout, TITLE_KINDS, "b")
            shapes.append(self.placeholder(plan.title, plan.title_sizes, box, inset, anchor,
                                           not self.own, layout, TITLE_KINDS, title_ph,
                                           name="Title"))
        second = plan.extra.get("second")
        second_ph = self.layouts.second(layout)
        if second is not None and second_ph is not None and g.cover_second is not None:
            paras, sizes = cast(tuple[list[Para], list[float]], second)
            box = g.cover_second[0]
            inset = self.layouts.ph.insets(second_ph, master)
            anchor = "t" if self.own else self.layouts.ph.anchor(layout, SECOND_KINDS, "t")
            shapes.append(self.placeholder(paras, sizes, box, inset, anchor, not self.own,
                                           layout, SECOND_KINDS, second_ph, name="Subtitle"))
        shapes += [self.item(item, layout) for item in plan.items]
        return shapes

    def content(self, number: int, plan: ArrangedSlide, layout: Layout) -> list[Shape]:
        g = self.layouts.geometry(layout=layout)
        shapes: list[Shape] = []
        backdrop = self.backdrop(layout, plan, g)
        if backdrop is not None:
            shapes.append(Rect(backdrop, self.colour("background"), None, "Backdrop"))
        given = plan.extra.get("title_anchor")
        title_ph = self.layouts.ph.title(layout)
        if title_ph is None:  # a text box in the title band
            shapes.append(self.text(plan.title, plan.title_sizes, g.title, g.title_inset,
                                    given if isinstance(given, str) else "t",
                                    BoxLook(self.colour("text")), name="Title"))
        else:
            box = g.title if not self.own else \
                self.layouts.ph.box(title_ph, self.layouts.ph.master(layout)) or g.title
            kept = not isinstance(given, str)
            anchor = given if isinstance(given, str) else \
                self.layouts.ph.anchor(layout, TITLE_KINDS, "t")
            shapes.append(self.placeholder(plan.title, plan.title_sizes, box, g.title_inset,
                                           anchor, kept, layout, TITLE_KINDS, title_ph,
                                           name="Title"))
        for item in plan.items:
            if isinstance(item, TextItem) and item.name == "Kicker" and not self.own:
                shapes.append(self.kicker(item, layout, g))
            else:
                shapes.append(self.item(item, layout))
        shapes += footers(self, number, layout)
        return shapes

    # -- text

    def text(self, paras: Sequence[Para], sizes: Sequence[float], box: Box,
             inset: tuple[int, int, int, int], anchor: str, look: BoxLook, name: str = "Text",
             fill: Colour | None = None, outline: tuple[Colour, float] | None = None
             ) -> TextBox:
        """A text box of the deck's own: its frame and paragraphs written in full."""
        found = set_text(paras, sizes, box, inset, anchor, self.faces, self.roles, look)
        return TextBox(box, found, inset, anchor, name=name, fill=fill, outline=outline)

    def placeholder(self, paras: Sequence[Para], sizes: Sequence[float], box: Box,
                    inset: tuple[int, int, int, int], anchor: str, anchor_kept: bool,
                    layout: Layout, kinds: tuple[str, ...], ph: Placeholder,
                    name: str) -> TextBox:
        """Text set in a placeholder of the layout, at `box`: the template's alignment kept
        where the text sets none, and a colour that reads where it sits (the template's
        own where it does)."""
        if self.own:
            look = BoxLook(Colour(self.roles["text"], kept=True), "l", True, True)
        else:
            look = BoxLook(Colour(self.roles["text"], kept=True),
                        self.layouts.ph.align(layout, kinds, kinds[0] in TITLE_KINDS), True,
                        True)
        found = set_text(paras, sizes, box, inset, anchor, self.faces, self.roles, look)
        if not self.own:
            found = self.readable(found, layout, kinds, box)
        index = layout.placeholders.index(ph)
        return TextBox(box, found, inset, anchor, anchor_kept, name=name, placeholder=index)

    def readable(self, paragraphs: tuple[Paragraph, ...], layout: Layout,
                 kinds: tuple[str, ...], box: Box) -> tuple[Paragraph, ...]:
        """A template's placeholder text in a colour that reads on what the placeholder sits
        on (the template's own look where it does); a run with a colour role of its own
        (muted, accent) keeps it where it reads there too, else takes its hue made to."""
        colour = self.grounds.for_placeholder(layout, kinds, box)
        grounds, _ = self.grounds.ground(layout, box)

        def mended(value: Colour | None) -> Colour | None:
            if value is not None and all(contrast(value.value, g) >= TEXT_CONTRAST
                                         for g in grounds):
                return value
            if value is not None:
                return Colour(passing(value.value, grounds))
            return Colour(colour) if colour is not None else None

        return _recoloured(paragraphs, mended)

    def kicker(self, item: TextItem, layout: Layout, g: Geometry) -> TextBox:
        """A kicker moved right off small artwork at its start; one set inside a template's
        title box (over the title) sits on the title's ground: the accent there is made to
        read on it, in its hue."""
        box = self.kicker_box(item.box, layout)
        placed = self.text(item.paras, item.sizes, box, item.inset, item.anchor,
                           BoxLook(self.colour("text")), name=item.name)
        if box.y >= g.title.bottom - inch(0.05):
            return placed
        grounds, _ = self.grounds.ground(layout, box)
        accent = self.roles["accent"]
        if all(contrast(accent, ground) >= TEXT_CONTRAST for ground in grounds):
            return placed
        made = Colour(passing(accent, grounds))
        return TextBox(placed.box, _recoloured(placed.paragraphs, lambda _: made),
                       placed.inset, placed.anchor, name=placed.name)

    def kicker_box(self, box: Box, layout: Layout) -> Box:
        """`box` moved right, off the small pieces of the layout's and master's artwork (an
        icon, a mark) that cover its start; `box` itself when no room is left beside them."""
        ph = self.layouts.ph
        pieces = [piece for piece in ph.artwork(layout) if piece.w < box.w // 3]
        start = box
        moved = True
        while moved and box.w * 5 >= start.w * 3:  # an icon is often several pieces in a row
            moved = False
            for piece in pieces:
                if piece.x < box.x + inch(0.15) and piece.right > box.x \
                        and _overlaps(piece, box):
                    shift = piece.right + inch(0.08) - box.x
                    box = Box(box.x + shift, box.y, box.w - shift, box.h)
                    moved = True
        return start if box.w * 5 < start.w * 3 else box

    def backdrop(self, layout: Layout, plan: ArrangedSlide, g: Geometry) -> Box | None:
        """On a template whose artwork runs under the content area (more than a tenth of
        it), a panel in the background colour behind the slide's items, so they read."""
        items = [i for i in plan.items if i.box.y >= g.title.bottom - inch(0.05)]
        if self.own or not items:
            return None
        left, top = min(i.box.x for i in items), min(i.box.y for i in items)
        right, bottom = max(i.box.right for i in items), max(i.box.bottom for i in items)
        area = Box(left, top, right - left, bottom - top)
        busy = self.grounds.busy(layout, area)
        if self.layouts.ph.artwork_share(layout, area) <= 0.1 and busy <= 0.1:
            return None
        if busy <= 0.1 and self.grounds.ground(layout, area)[1] in ("shape", "picture"):
            return None  # one piece of artwork under all of it: the colours were checked on it
        return area

    # -- items

    def item(self, item: Item, layout: Layout) -> Shape:
        if isinstance(item, TextItem):
            return self.text(item.paras, item.sizes, item.box, item.inset, item.anchor,
                             BoxLook(self.colour("text")), name=item.name,
                             fill=self.fill(item.fill), outline=self.outline(item.outline))
        if isinstance(item, RectItem):
            return Rect(item.box, self.fill(item.fill), self.outline(item.outline), item.name)
        if isinstance(item, ChartItem):
            return self.chart(item)
        if isinstance(item, QrItem):
            return Qr(item.box, item.url, tuple(qr_runs(modules(item.url), item.box)),
                      self.colour("text"), self.colour("background"), item.name)
        if isinstance(item, PictureItem):
            return Image(item.box, item.picture, item.digest, item.alt, item.crop, item.name)
        return self.table(item)

    def chart(self, item: ChartItem) -> Chart:
        """A chart placed in its box, its text at its size (never under CHART_LEAST), in the
        body's face."""
        size = max(item.size, CHART_LEAST)
        faces = (self.faces.typeface(False, False), self.faces.typeface(False, True))
        chart = item.chart
        placement = place_lines(chart, item.box, size, faces, self.roles) \
            if isinstance(chart, st.LineChart) else \
            place_bars(chart, item.box, size, faces, self.roles)
        return Chart(item.box, chart, size, placement, self.colour("background"), item.name)

    def table(self, item: TableItem) -> TableBox:
        """A table's cells set in their boxes, a rule above the header and below the last
        row, thin rules between rows, the highlighted row tinted with the accent."""
        xs = [item.box.x]
        for w in item.widths:
            xs.append(xs[-1] + w)
        ys = [item.box.y]
        for h in item.heights:
            ys.append(ys[-1] + h)
        rows = len(item.cells)
        strong, thin = (self.colour("text"), 1.0), (self.colour("rule"), 0.75)
        m = item.margin
        cells = []
        for r in range(rows):
            row = []
            top = (self.colour("text"), 1.5) if r == 0 else None
            bottom = strong if r == rows - 1 or (r == 0 and item.header) else thin
            ours = item.highlight is not None and r - 1 == item.highlight
            fill = self.fill(("accent", 0.78)) if ours else None
            for c in range(len(item.widths)):
                box = Box(xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r])
                found = set_text(item.cells[r][c], item.sizes[r][c], box,
                                 (m[0], m[1], m[0], m[1]), "t", self.faces, self.roles,
                                 BoxLook(self.colour("text")))
                row.append(Cell(box, found, fill, top, bottom))
            cells.append(tuple(row))
        return TableBox(item.box, tuple(item.widths), tuple(item.heights), tuple(cells),
                        item.margin, item.header, item.name)


def _overlaps(a: Box, b: Box) -> bool:
    return min(a.right, b.right) > max(a.x, b.x) and min(a.bottom, b.bottom) > max(a.y, b.y)


Mend = Callable[[Colour | None], Colour | None]


def _recoloured(paragraphs: tuple[Paragraph, ...], mend: Mend) -> tuple[Paragraph, ...]:
    """`paragraphs` with each run's colour passed through `mend` (None: a run that writes no
    colour of its own), and each span's as its run's."""
    out = []
    for p in paragraphs:
        runs = tuple(TextRun(r.text, mend(r.colour) or r.colour, r.bold, r.link, r.field, r.face)
                     for r in p.runs)
        lines = tuple(TextLine(tuple(Span(s.text, s.font, s.x, s.width,
                                          mend(None if s.colour.kept else s.colour) or s.colour,
                                          s.link) for s in line.spans),
                               line.baseline, line.size) for line in p.lines)
        out.append(Paragraph(runs, p.size, p.pitch, p.before, p.align, p.align_kept, p.caps,
                             p.tracking, p.in_placeholder, lines, p.size_kept))
    return tuple(out)

