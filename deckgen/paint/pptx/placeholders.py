"""A template's placeholders, resolved the way PowerPoint resolves them: slide -> layout ->
master, by type and idx (and by type alone for placeholders without an idx).

python-pptx only. One `Placeholders` reader serves a build: each layout's placeholders, their
boxes, its body area and its content frame are read from the file once and kept, since
python-pptx walks the XML again for every inherited position it is asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.parts.slide import SlideLayoutPart
from pptx.presentation import Presentation as PresentationObject
from pptx.shapes.base import BaseShape
from pptx.slide import SlideLayout, SlideMaster
from pptx.util import Emu

from deckgen.box import Box, inch

Owner = SlideLayout | SlideMaster
Insets = tuple[int, int, int, int]

FOOTER_TYPES = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)
TITLE_TYPES = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE)
BODY_TYPES = (PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT)
# A placeholder's family: the master placeholder a layout's inherits from when it has no
# position of its own, the way PowerPoint resolves it (by type, not by idx or name).
FAMILY = {PP_PLACEHOLDER.CENTER_TITLE: PP_PLACEHOLDER.TITLE,
          PP_PLACEHOLDER.SUBTITLE: PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT: PP_PLACEHOLDER.BODY}
DEFAULT_INSETS = (91440, 45720, 91440, 45720)  # DrawingML's: 0.1 in left and right, 0.05 in


def family(kind: PP_PLACEHOLDER) -> PP_PLACEHOLDER:
    return FAMILY.get(kind, kind)


def all_layouts(prs: PresentationObject) -> Iterator[tuple[int, int, SlideLayout]]:
    """Every layout of every master, with the master's and the layout's number (from 0)."""
    for m, master in enumerate(prs.slide_masters):
        for i, layout in enumerate(master.slide_layouts):
            yield m, i, layout


def own_box(el: Any) -> Box | None:  # noqa: ANN401 (an lxml element)
    """The box a shape's XML gives it (`p:spPr/a:xfrm`, a group's `p:grpSpPr/a:xfrm`), or
    None when it has none."""
    xfrm = el.find(f"{qn('p:spPr')}/{qn('a:xfrm')}")
    if xfrm is None:
        xfrm = el.find(f"{qn('p:grpSpPr')}/{qn('a:xfrm')}")
    if xfrm is None:
        return None
    off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
    if off is None or ext is None:
        return None
    try:
        return Box(int(off.get("x", 0)), int(off.get("y", 0)), int(ext.get("cx", 0)),
                   int(ext.get("cy", 0)))
    except ValueError:
        return None


def shape_box(shape: BaseShape) -> Box:
    """A shape's box as python-pptx reports it (inherited positions included)."""
    return Box(int(shape.left or 0), int(shape.top or 0), int(shape.width or 0),
               int(shape.height or 0))


def place(shape: BaseShape, box: Box) -> None:
    """Give `shape` the box `box`, in its own XML."""
    shape.left, shape.top, shape.width, shape.height = (Emu(box.x), Emu(box.y), Emu(box.w),
                                                        Emu(box.h))


def overlap(a: Box, b: Box) -> int:
    """The area two boxes share (EMU squared)."""
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return max(0, w) * max(0, h)


def union(a: Box, b: Box) -> Box:
    """The smallest box holding both."""
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Box(x, y, max(a.right, b.right) - x, max(a.bottom, b.bottom) - y)


class Placeholders:
    """The placeholders of one template, resolved once per build."""

    def __init__(self, prs: PresentationObject) -> None:
        self.prs = prs
        self.width, self.height = int(prs.slide_width or 0), int(prs.slide_height or 0)
        self._places: dict[Any, list[tuple[PP_PLACEHOLDER, BaseShape]]] = {}
        self._boxes: dict[Any, Box | None] = {}
        self._frames: dict[Any, tuple[Box, Box | None]] = {}

    def places(self, owner: Owner) -> list[tuple[PP_PLACEHOLDER, BaseShape]]:
        """A layout's or master's placeholders with their kinds."""
        key = owner.part
        if key not in self._places:
            self._places[key] = [(ph.placeholder_format.type, ph) for ph in owner.shapes
                                 if ph.is_placeholder]
        return self._places[key]

    def kinds(self, owner: Owner) -> list[PP_PLACEHOLDER]:
        return [kind for kind, _ in self.places(owner)]

    def box(self, ph: BaseShape, master: SlideMaster | None = None) -> Box | None:
        """A layout placeholder's box: its own position, else its master placeholder's of the
        same family; None when neither has one."""
        key = ph._element
        if key not in self._boxes:
            found = own_box(ph._element)
            if found is None and master is not None:
                kind = family(ph.placeholder_format.type)
                base = next((mph for mkind, mph in self.places(master) if mkind == kind), None)
                found = own_box(base._element) if base is not None else None
            self._boxes[key] = found
        return self._boxes[key]

    def master_box(self, master: SlideMaster, kind: PP_PLACEHOLDER) -> Box | None:
        """The box of the master's placeholder of `kind`, when it has one."""
        return next((b for k, ph in self.places(master) if k == kind
                     for b in [own_box(ph._element)] if b is not None), None)

    def insets(self, ph: BaseShape, layout: SlideLayout | None = None) -> Insets:
        """A placeholder's text insets: its own, else its layout's (when `ph` is on a slide),
        else its master's, else the format's defaults."""
        kind = ph.placeholder_format.type
        chain = [ph._element]
        if layout is not None:
            match = next((lph for lkind, lph in self.places(layout) if lkind == kind), None)
            if match is not None:
                chain.append(match._element)
        master = layout.slide_master if layout is not None else \
            cast(SlideLayoutPart, ph.part).slide_master  # `ph` is a layout's
        chain += [mph._element for mkind, mph in self.places(master)
                  if mkind in (kind, family(kind))][:1]
        values = []
        for key, default in zip(("lIns", "tIns", "rIns", "bIns"), DEFAULT_INSETS, strict=True):
            for element in chain:
                body_pr = element.find(qn("p:txBody") + "/" + qn("a:bodyPr"))
                if body_pr is not None and body_pr.get(key) is not None:
                    values.append(int(body_pr.get(key)))
                    break
            else:
                values.append(default)
        return values[0], values[1], values[2], values[3]

    def text_size(self, ph: BaseShape, layout: SlideLayout) -> tuple[float, bool]:
        """The size (points) and boldness a layout placeholder sets its first level of text
        at: its own list style's, else its master placeholder's, else 18 pt regular."""
        kind = family(ph.placeholder_format.type)
        chain = [ph._element] + [mph._element for mkind, mph in self.places(layout.slide_master)
                                 if family(mkind) == kind][:1]
        size: float | None = None
        bold: bool | None = None
        for element in chain:
            for path in (f".//{qn('a:lstStyle')}/{qn('a:lvl1pPr')}/{qn('a:defRPr')}",
                         f".//{qn('a:r')}/{qn('a:rPr')}"):
                r_pr = element.find(path)
                if r_pr is None:
                    continue
                if size is None and (r_pr.get("sz") or "").isdigit():
                    size = int(r_pr.get("sz")) / 100
                if bold is None and r_pr.get("b") is not None:
                    bold = r_pr.get("b") in ("1", "true")
        return size or 18.0, bool(bold)

    def counterpart(self, layout: SlideLayout, ph: BaseShape) -> BaseShape | None:
        """The layout placeholder a slide placeholder inherits from, as PowerPoint finds it:
        the one of the same idx and type, else the first of the same type, else of the same
        family. (python-pptx looks by idx alone, and placeholders without an idx all have
        idx 0, so a subtitle without one would take the title's box.)"""
        kind, idx = ph.placeholder_format.type, ph.placeholder_format.idx
        found = self.places(layout)
        for same in (lambda k, p: k == kind and p.placeholder_format.idx == idx,
                     lambda k, p: k == kind,
                     lambda k, p: family(k) == family(kind)):
            match = next((lph for k, lph in found if same(k, lph)), None)
            if match is not None:
                return match
        return None

    def pin(self, slide_ph: BaseShape, layout: SlideLayout) -> None:
        """Give a slide's placeholder the box of its true layout counterpart, so every reader
        (PowerPoint, LibreOffice, python-pptx) puts it in the same place."""
        match = self.counterpart(layout, slide_ph)
        if match is None:
            return
        box = self.box(match, layout.slide_master)
        if box is not None:
            place(slide_ph, box)

    def title(self, layout: SlideLayout) -> BaseShape | None:
        """The layout's title placeholder (a centred title counts)."""
        return next((ph for kind, ph in self.places(layout) if kind in TITLE_TYPES), None)

    def title_band(self, master: SlideMaster) -> Box:
        """Where a title goes on a layout without a title placeholder: the master's title
        box, else a band across the top of the slide (a text box is drawn there)."""
        found = self.master_box(master, PP_PLACEHOLDER.TITLE) or \
            self.master_box(master, PP_PLACEHOLDER.CENTER_TITLE)
        if found is not None and found.w > 0 and found.h > 0:
            return found
        return Box(round(self.width * 0.06), round(self.height * 0.05),
                   round(self.width * 0.88), round(self.height * 0.16))

    def body_area(self, layout: SlideLayout) -> Box | None:
        """Where a layout puts its body: the largest body or content placeholder it holds,
        else its master's body placeholder."""
        master = layout.slide_master
        boxes = [self.box(ph, master) for kind, ph in self.places(layout) if kind in BODY_TYPES]
        found = [b for b in boxes if b is not None and b.w > 0 and b.h > 0]
        if found:
            return max(found, key=lambda b: b.w * b.h)
        return self.master_box(master, PP_PLACEHOLDER.BODY)

    def footer_top(self, layout: SlideLayout) -> int:
        """Where the layout's lowest band of footers starts (the slide's height without)."""
        top = self.height
        for kind, ph in self.places(layout):
            box = self.box(ph, layout.slide_master)
            if kind in FOOTER_TYPES and box is not None and box.y > self.height // 2:
                top = min(top, box.y)
        return top

    def usable_area(self, layout: SlideLayout, title: Box | None = None,
                    body: Box | None = None) -> int:
        """The area (EMU squared) a layout leaves for content: its body area (or `body`) under
        its title (or `title`), on the slide and above its footer."""
        body = body or self.body_area(layout)
        if body is None:
            return 0
        top, bottom = body.y, min(body.bottom, self.height - inch(0.3))
        own_title = self.title(layout)
        if own_title is not None:  # content goes under the title, as the plans put it
            box = title or self.box(own_title, layout.slide_master)
            if box is not None:
                top = max(top, box.bottom + inch(0.15))
        bottom = min(bottom, self.footer_top(layout) - inch(0.1))
        return max(0, body.w) * max(0, bottom - top)

    def content_frame(self, layout: SlideLayout) -> tuple[Box, Box | None]:
        """The title box and the body area of content slides on `layout`: the layout's own,
        or the master's when the layout leaves less room (LibreOffice exports every layout
        with its title slide's boxes, while its master keeps the content slides' ones). A
        title reaching above the slide is moved down onto it."""
        key = layout.part
        if key in self._frames:
            return self._frames[key]
        master = layout.slide_master
        own_title = self.title(layout)
        title = (self.box(own_title, master) if own_title is not None else None) or \
            self.title_band(master)
        body = self.body_area(layout)
        m_title = self.master_box(master, PP_PLACEHOLDER.TITLE)
        m_body = self.master_box(master, PP_PLACEHOLDER.BODY)
        if m_title is not None and m_body is not None and m_body.y >= m_title.bottom and \
                self.usable_area(layout, m_title, m_body) > self.usable_area(layout) * 1.2:
            title, body = m_title, m_body
        if title.y < 0:
            title = Box(title.x, 0, title.w, min(title.h, max(0, title.bottom) + inch(0.5)))
        if body is not None:
            body = self.off_bands(layout, body)
        self._frames[key] = (title, body)
        return title, body

    def off_bands(self, layout: SlideLayout, body: Box) -> Box:
        """`body` shortened (or narrowed) to stay off the artwork that runs into its foot,
        head or sides (a row of notes, a wave, a corner wedge): pieces in its lowest or
        highest third, or its left or right third; never by more than a fifth of it."""
        left, top, right, bottom = body.x, body.y, body.right, body.bottom
        gap = inch(0.1)
        for owner in (layout, layout.slide_master):
            for _, piece in self.artwork(owner):
                if overlap(piece, body) == 0 or self.covers_slide(piece):
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

    def artwork(self, owner: Owner) -> Iterator[tuple[Any, Box]]:
        """The artwork of a layout or master (shapes, pictures and groups of them that are
        not placeholders) with their boxes, bottom first; a piece covering the whole slide
        is its background, not artwork."""
        tree = owner._element.find(f"{qn('p:cSld')}/{qn('p:spTree')}")
        kinds = (qn("p:sp"), qn("p:pic"), qn("p:grpSp"))
        for el in list(tree) if tree is not None else []:
            if el.tag not in kinds or el.find(f".//{qn('p:ph')}") is not None:
                continue
            box = own_box(el)
            if box is not None:
                yield el, box

    def covers_slide(self, box: Box) -> bool:
        slide = Box(0, 0, self.width, self.height)
        return overlap(box, slide) >= 0.95 * self.width * self.height

    def artwork_share(self, layout: SlideLayout, area: Box) -> float:
        """How much of `area` the layout's and its master's artwork covers, 0 to 1 (overlaps
        between pieces counted twice, capped)."""
        if area.w <= 0 or area.h <= 0:
            return 0.0
        covered = sum(overlap(box, area) for owner in (layout, layout.slide_master)
                      for _, box in self.artwork(owner) if not self.covers_slide(box))
        return min(1.0, covered / (area.w * area.h))
