"""A template's placeholders resolved as PowerPoint resolves them: a layout placeholder's box
(its own, else its master's of the same family), insets, text size, anchor and alignment, the
content frame a layout leaves under its title, and how much of an area its artwork covers.

Pure: the template's values (deckgen.template.model).
"""

from __future__ import annotations

from deckgen.box import Box, inch, overlap
from deckgen.plan.placed import Insets
from deckgen.template.model import (
    BODY_KINDS,
    FOOTER_KINDS,
    TITLE_KINDS,
    Layout,
    Master,
    Placeholder,
    Template,
    family,
)

DEFAULT_INSETS = (91440, 45720, 91440, 45720)  # DrawingML's: 0.1 in left and right, 0.05 in


class Placeholders:
    """The placeholders of one template, resolved as PowerPoint resolves them."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self.width, self.height = template.width, template.height

    def master(self, layout: Layout) -> Master:
        return self.template.master_of(layout)

    def box(self, ph: Placeholder, master: Master) -> Box | None:
        """A layout placeholder's box: its own position, else its master placeholder's of the
        same family; None when neither has one."""
        if ph.box is not None:
            return ph.box
        kind = family(ph.kind)
        base = next((m for m in master.placeholders if m.kind == kind), None)
        return base.box if base is not None else None

    def master_box(self, master: Master, kind: str) -> Box | None:
        """The box of the master's placeholder of `kind`, when it has one."""
        return next((p.box for p in master.placeholders if p.kind == kind and p.box is not None),
                    None)

    def insets(self, ph: Placeholder, master: Master) -> Insets:
        """A layout placeholder's text insets: its own, else its master's (of its kind or
        family), else the format's defaults."""
        chain = [ph, *[m for m in master.placeholders if m.kind in (ph.kind, family(ph.kind))][:1]]
        values: list[int] = []
        for k, default in enumerate(DEFAULT_INSETS):
            found = next((p.insets[k] for p in chain if p.insets[k] is not None), None)
            values.append(default if found is None else found)
        return values[0], values[1], values[2], values[3]

    def text_size(self, ph: Placeholder, master: Master) -> tuple[float, bool]:
        """The size (points) and boldness a layout placeholder sets its first level of text
        at: its own list style's (or prompt text's), else its master placeholder's, else 18
        pt regular."""
        kind = family(ph.kind)
        chain = [ph, *[m for m in master.placeholders if family(m.kind) == kind][:1]]
        size: float | None = None
        bold: bool | None = None
        for p in chain:
            for look in (p.listed, p.run):
                size = look.size if size is None else size
                bold = look.bold if bold is None else bold
        return size or 18.0, bool(bold)

    def anchor(self, layout: Layout, kinds: tuple[str, ...], default: str) -> str:
        """The vertical anchor a template gives its placeholder of `kinds`: the layout's, else
        the master's."""
        for owner in (layout, self.master(layout)):
            for ph in owner.placeholders:
                if ph.kind in kinds and ph.anchor is not None:
                    return ph.anchor
        return default

    def align(self, layout: Layout, kinds: tuple[str, ...], title: bool) -> str:
        """The alignment a template gives the first level of its placeholder of `kinds` (the
        layout's, else the master's: a block centred in its box, or its list style's; else
        the master's text style)."""
        for owner in (layout, self.master(layout)):
            for ph in owner.placeholders:
                if ph.kind in kinds:
                    if ph.centred:
                        return "ctr"  # the text's block centred in its box
                    if ph.listed.align is not None:
                        return ph.listed.align
        master = self.master(layout)
        style = master.title_style if title else master.body_style
        return style.align or "l"

    def title(self, layout: Layout) -> Placeholder | None:
        """The layout's title placeholder (a centred title counts)."""
        return next((ph for ph in layout.placeholders if ph.kind in TITLE_KINDS), None)

    def title_band(self, master: Master) -> Box:
        """Where a title goes on a layout without a title placeholder: the master's title
        box, else a band across the top of the slide (a text box is drawn there)."""
        found = self.master_box(master, "title") or self.master_box(master, "ctrTitle")
        if found is not None and found.w > 0 and found.h > 0:
            return found
        return Box(round(self.width * 0.06), round(self.height * 0.05),
                   round(self.width * 0.88), round(self.height * 0.16))

    def body_area(self, layout: Layout) -> Box | None:
        """Where a layout puts its body: the largest body or content placeholder it holds,
        else its master's body placeholder."""
        master = self.master(layout)
        boxes = [self.box(ph, master) for ph in layout.placeholders if ph.kind in BODY_KINDS]
        found = [b for b in boxes if b is not None and b.w > 0 and b.h > 0]
        if found:
            return max(found, key=lambda b: b.w * b.h)
        return self.master_box(master, "body")

    def footer_top(self, layout: Layout) -> int:
        """Where the layout's lowest band of footers starts (the slide's height without)."""
        top = self.height
        for ph in layout.placeholders:
            box = self.box(ph, self.master(layout))
            if ph.kind in FOOTER_KINDS and box is not None and box.y > self.height // 2:
                top = min(top, box.y)
        return top

    def usable_area(self, layout: Layout, title: Box | None = None,
                    body: Box | None = None) -> int:
        """The area (EMU squared) a layout leaves for content: its body area (or `body`) under
        its title (or `title`), on the slide and above its footer."""
        body = body or self.body_area(layout)
        if body is None:
            return 0
        top, bottom = body.y, min(body.bottom, self.height - inch(0.3))
        own_title = self.title(layout)
        if own_title is not None:  # content goes under the title, as the plans put it
            box = title or self.box(own_title, self.master(layout))
            if box is not None:
                top = max(top, box.bottom + inch(0.15))
        bottom = min(bottom, self.footer_top(layout) - inch(0.1))
        return max(0, body.w) * max(0, bottom - top)

    def content_frame(self, layout: Layout) -> tuple[Box, Box | None]:
        """The title box and the body area of content slides on `layout`: the layout's own,
        or the master's when the layout leaves less room (LibreOffice exports every layout
        with its title slide's boxes, while its master keeps the content slides' ones). A
        title reaching above the slide is moved down onto it."""
        master = self.master(layout)
        own_title = self.title(layout)
        title = (self.box(own_title, master) if own_title is not None else None) or \
            self.title_band(master)
        body = self.body_area(layout)
        m_title = self.master_box(master, "title")
        m_body = self.master_box(master, "body")
        if m_title is not None and m_body is not None and m_body.y >= m_title.bottom and \
                self.usable_area(layout, m_title, m_body) > self.usable_area(layout) * 1.2:
            title, body = m_title, m_body
        if title.y < 0:
            title = Box(title.x, 0, title.w, min(title.h, max(0, title.bottom) + inch(0.5)))
        if body is not None:
            body = self.off_bands(layout, body)
        return title, body

    def artwork(self, layout: Layout) -> list[Box]:
        """Where the artwork a layout's slides show is, but for pieces that cover the slide
        (a background drawn as a shape)."""
        return [piece.box for piece in self.template.showing(layout)
                if not self.template.covers(piece.box)]

    def off_bands(self, layout: Layout, body: Box) -> Box:
        """`body` shortened (or narrowed) to stay off the artwork that runs into its foot,
        head or sides (a row of notes, a wave, a corner wedge): pieces in its lowest or
        highest third, or its left or right third; never by more than a fifth of it."""
        left, top, right, bottom = body.x, body.y, body.right, body.bottom
        gap = inch(0.1)
        for piece in self.artwork(layout):
            if overlap(piece, body) == 0:
                continue
            if piece.y >= body.y + body.h * 2 // 3:
                bottom = min(bottom, piece.y - gap)
            elif piece.bottom <= body.y + body.h // 3:
                top = max(top, piece.bottom + gap)
            elif piece.x >= body.x + body.w * 2 // 3:
                right = min(right, piece.x - gap)
            elif piece.right <= body.x + body.w // 3:
                left = max(left, piece.right + gap)
        left, right = (left, right) if (right - left) * 5 >= body.w * 4 else (body.x, body.right)
        top, bottom = (top, bottom) if (bottom - top) * 5 >= body.h * 4 else (body.y, body.bottom)
        return Box(left, top, right - left, bottom - top)

    def artwork_share(self, layout: Layout, area: Box) -> float:
        """How much of `area` the layout's and its master's artwork covers, 0 to 1 (overlaps
        between pieces counted twice, capped)."""
        if area.w <= 0 or area.h <= 0:
            return 0.0
        covered = sum(overlap(box, area) for box in self.artwork(layout))
        return min(1.0, covered / (area.w * area.h))

    def numbers_itself(self, layout: Layout) -> bool:
        """Whether the layout's or its master's artwork (not a placeholder) shows the slide
        number itself, in a slide-number field (Midnightblue's circle)."""
        return any(piece.numbers for piece in self.template.showing(layout))
