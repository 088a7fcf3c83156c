"""A template's pictures as the ground of text: each decoded once (within bounds, with Pillow)
and sampled for the colours under an area, how much of it the drawing fills, and the calm part
of a box, off the drawing.

python-pptx and Pillow only; the colours themselves are judged in colours.py.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image
from pptx.oxml.ns import qn
from pptx.slide import SlideLayout

from deckgen.box import Box
from deckgen.colour import contrast, luminance
from deckgen.paint.pptx.placeholders import Owner

_R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
SAMPLE_PIXELS = 12_000_000  # a picture decoded for sampling: about 100 MB at most


def busy_share(shades: list[str]) -> float:
    """The share of `shades` that stand out (1.5:1 or more) from the most common one."""
    if not shades:
        return 0.0
    def coarse(shade: str) -> str:  # a picture's noise is not drawing
        return "".join(f"{int(shade[i:i + 2], 16) // 32:X}" for i in (1, 3, 5))

    kinds = [coarse(s) for s in shades]
    mode = max(set(kinds), key=kinds.count)
    common = shades[kinds.index(mode)]
    return sum(1 for s in shades if contrast(s, common) >= 1.5) / len(shades)


DRAWN = 48  # how far (RGB distance, of 441) a background picture's pixel is from its ground
# to count as drawing


class TemplatePictures:
    """The pictures of one template's layouts and masters, decoded once and sampled once per
    area, on slides `width` x `height` EMU."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._samples: dict[tuple[int, Box], list[str]] = {}
        self._busy: dict[tuple[int, Box], float] = {}
        self._images: dict[int, Image.Image | None] = {}

    def sample(self, owner: Owner, blip: Any, piece: Box,  # noqa: ANN401
               area: Box) -> list[str] | None:
        """The colours of the part of a picture (stretched over `piece`) under `area`: its
        darkest, middle and lightest tenth, by luminance; None when the picture cannot be
        read."""
        r_id = blip.get(_R_EMBED) if blip is not None else None
        if not r_id or piece.w <= 0 or piece.h <= 0:
            return None
        try:
            part = owner.part.related_part(r_id)
        except KeyError:
            return None
        key = (id(part), area)
        if key in self._samples:
            return self._samples[key]
        flat = self._flat(part)
        if flat is None:
            return None
        w, h = flat.size
        left = max(0.0, (area.x - piece.x) / piece.w)
        top = max(0.0, (area.y - piece.y) / piece.h)
        right = min(1.0, (area.right - piece.x) / piece.w)
        bottom = min(1.0, (area.bottom - piece.y) / piece.h)
        if right <= left or bottom <= top:
            return None
        crop = flat.crop((int(left * w), int(top * h), max(int(left * w) + 1, int(right * w)),
                          max(int(top * h) + 1, int(bottom * h))))
        raw = crop.resize((16, 16)).tobytes()
        pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
        shades = sorted(f"#{r:02X}{g:02X}{b:02X}" for r, g, b in pixels)
        shades.sort(key=luminance)
        found = sorted({shades[len(shades) // 10], shades[len(shades) // 2],
                        shades[len(shades) * 9 // 10]}, key=luminance)
        self._samples[key] = found
        self._busy[key] = busy_share(shades)
        return found

    def _flat(self, part: Any) -> Image.Image | None:  # noqa: ANN401 (a python-pptx part)
        """A picture part decoded once, at most 512 pixels across, on the slide's white
        where it is transparent; None when it cannot be read or would decode to more than
        SAMPLE_PIXELS (its size is read before anything is decoded)."""
        if id(part) not in self._images:
            try:
                with Image.open(io.BytesIO(part.blob)) as image:  # its header only, so far
                    image.draft("RGB", (512, 512))  # a JPEG is decoded at 1/8 scale or less
                    if image.width * image.height > SAMPLE_PIXELS:
                        raise ValueError("too many pixels to decode within bounds")
                    image.thumbnail((512, 512))
                    rgba = image.convert("RGBA")
                    flat: Image.Image | None = Image.new("RGB", rgba.size, (255, 255, 255))
                    assert flat is not None
                    flat.paste(rgba, mask=rgba.getchannel("A"))
            except (OSError, ValueError, Image.DecompressionBombError):
                flat = None
            self._images[id(part)] = flat
        return self._images[id(part)]

    def busy(self, layout: SlideLayout, area: Box) -> float:
        """How much of `area` a layout's background picture fills with drawing (pixels that
        stand out from its most common shade), 0 to 1; 0 on a plain background."""
        slide = Box(0, 0, self.width, self.height)
        for owner, bg in backgrounds(layout):
            blip = bg.find(f".//{qn('a:blip')}")
            if blip is None:
                return 0.0
            self.sample(owner, blip, slide, area)
            r_id = blip.get(_R_EMBED)
            try:
                part = owner.part.related_part(r_id) if r_id else None
            except KeyError:
                part = None
            return self._busy.get((id(part), area), 0.0)
        return 0.0

    def calm(self, layout: SlideLayout, box: Box, least: float = 0.6) -> Box:
        """`box` cut back from its edges until it is off the drawing in the layout's
        background picture (a pencil, trees at a corner: pixels that stand out from the
        box's most common shade), a column or row of a grid at a time, the cut that takes
        the most drawing for the least room first; `box` itself when no picture draws in
        it, or when the calm part left would be under `least` of its width or height (a
        panel then backs the text)."""
        grid = self._drawn(layout, box)
        if not grid or not any(any(row) for row in grid):
            return box
        rows, cols = len(grid), len(grid[0])
        edges = (0, 0, cols, rows)
        while _drawn_in(grid, edges):
            x0, y0, x1, y1 = edges
            cuts = [cut for k in range(1, max(cols, rows))
                    for cut in ((x0 + k, y0, x1, y1), (x0, y0 + k, x1, y1), (x0, y0, x1 - k, y1),
                                (x0, y0, x1, y1 - k))
                    if cut[2] - cut[0] >= cols * least and cut[3] - cut[1] >= rows * least]
            gains = [(_cut_gain(grid, edges, c), c) for c in cuts]
            if not gains or max(gains)[0] == 0:
                return box
            edges = max(gains)[1]
        x0, y0, x1, y1 = edges
        return Box(box.x + box.w * x0 // cols, box.y + box.h * y0 // rows,
                   box.w * x1 // cols - box.w * x0 // cols, box.h * y1 // rows - box.h * y0 // rows)

    def _drawn(self, layout: SlideLayout, box: Box, cols: int = 24,
               rows: int = 12) -> list[list[bool]]:
        """A grid over `box`: True where the layout's background picture draws (a quarter
        of the cell's pixels stand out 1.5:1 from the box's most common shade)."""
        slide = Box(0, 0, self.width, self.height)
        if box.w <= 0 or box.h <= 0 or slide.w <= 0 or slide.h <= 0:
            return []
        for owner, bg in backgrounds(layout):
            blip = bg.find(f".//{qn('a:blip')}")
            r_id = blip.get(_R_EMBED) if blip is not None else None
            if not r_id:
                return []
            try:
                flat = self._flat(owner.part.related_part(r_id))
            except KeyError:
                return []
            if flat is None:
                return []
            w, h = flat.size
            area = (int(max(0, box.x) * w / slide.w), int(max(0, box.y) * h / slide.h),
                    max(1, int(min(slide.w, box.right) * w / slide.w)),
                    max(1, int(min(slide.h, box.bottom) * h / slide.h)))
            if area[2] <= area[0] or area[3] <= area[1]:
                return []
            raw = flat.crop(area).resize((cols * 4, rows * 4)).tobytes()
            pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
            coarse = [(r // 32, g // 32, b // 32) for r, g, b in pixels]
            common = pixels[coarse.index(max(set(coarse), key=coarse.count))]
            # drawing: a colour far from the ground's (a pale pencil reads as drawing too)
            out = [[sum((a - b) ** 2 for a, b in zip(p, common, strict=True)) >= DRAWN ** 2
                    for p in pixels[y * cols * 4:(y + 1) * cols * 4]] for y in range(rows * 4)]
            return [[sum(out[y * 4 + dy][x * 4 + dx] for dy in range(4) for dx in range(4)) >= 4
                     for x in range(cols)] for y in range(rows)]
        return []

Edges = tuple[int, int, int, int]  # left, top, right, bottom: columns and rows of a grid


def _drawn_in(grid: list[list[bool]], edges: Edges) -> int:
    """How many cells of `grid` inside `edges` hold drawing."""
    x0, y0, x1, y1 = edges
    return sum(grid[y][x] for y in range(y0, y1) for x in range(x0, x1))


def _cut_gain(grid: list[list[bool]], edges: Edges, cut: Edges) -> float:
    """Drawing taken per cell of room lost, cutting `edges` back to `cut`."""
    lost = (edges[2] - edges[0]) * (edges[3] - edges[1]) - (cut[2] - cut[0]) * (cut[3] - cut[1])
    return (_drawn_in(grid, edges) - _drawn_in(grid, cut)) / lost


def backgrounds(layout: SlideLayout) -> list[tuple[Any, Any]]:
    """The layout and its master that set a background of their own, the layout first, each
    with its background element."""
    found = []
    for owner in (layout, layout.slide_master):
        bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
        if bg is not None:
            found.append((owner, bg))
    return found
