"""A template's pictures sampled without any library, from their rasters (deckgen.template
.model.Raster): the colours under an area, how much of it is drawing, and a grid of where a
background picture draws over a box. Box averages come from a summed-area table per picture,
built once.
"""

from __future__ import annotations

import functools

from deckgen.box import Box
from deckgen.colour import contrast, luminance
from deckgen.template.model import Raster

DRAWN = 48  # how far (RGB distance, of 441) a background picture's pixel is from its ground
# to count as drawing


class _Sums:
    """A raster's summed-area table, one per channel: the mean colour of any rectangle of
    whole pixels in constant time."""

    def __init__(self, raster: Raster) -> None:
        w, h, px = raster.width, raster.height, raster.pixels
        self.w, self.h = w, h
        self.tables: list[list[int]] = []
        for channel in range(3):
            table = [0] * ((w + 1) * (h + 1))
            for y in range(h):
                row = 0
                base = y * w * 3 + channel
                above = y * (w + 1)
                here = (y + 1) * (w + 1)
                for x in range(w):
                    row += px[base + 3 * x]
                    table[here + x + 1] = table[above + x + 1] + row
            self.tables.append(table)

    def mean(self, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int]:
        """The mean colour of pixels [x0, x1) x [y0, y1), rounded."""
        n = (x1 - x0) * (y1 - y0)
        stride = self.w + 1
        out = []
        for t in self.tables:
            total = t[y1 * stride + x1] - t[y0 * stride + x1] - t[y1 * stride + x0] \
                + t[y0 * stride + x0]
            out.append((2 * total + n) // (2 * n))
        return out[0], out[1], out[2]

    def grid(self, left: float, top: float, right: float, bottom: float, cols: int,
             rows: int) -> list[tuple[int, int, int]]:
        """The region [left, right) x [top, bottom) (pixels, fractional) resampled to
        `cols` x `rows` box averages, row by row; a cell smaller than a pixel takes the
        pixel under its centre."""
        out = []
        cw, ch = (right - left) / cols, (bottom - top) / rows
        for j in range(rows):
            y0f, y1f = top + j * ch, top + (j + 1) * ch
            y0 = min(self.h - 1, max(0, int(y0f)))
            y1 = min(self.h, max(y0 + 1, round(y1f)))
            for i in range(cols):
                x0f, x1f = left + i * cw, left + (i + 1) * cw
                x0 = min(self.w - 1, max(0, int(x0f)))
                x1 = min(self.w, max(x0 + 1, round(x1f)))
                out.append(self.mean(x0, y0, x1, y1))
        return out


@functools.lru_cache(maxsize=16)
def _sums(raster: Raster) -> _Sums:
    return _Sums(raster)


def _hex(rgb: tuple[int, int, int]) -> str:
    return f"#{rgb[0]:02X}{rgb[1]:02X}{rgb[2]:02X}"


@functools.lru_cache(maxsize=1024)
def sampled(raster: Raster, piece: Box, area: Box) -> tuple[tuple[str, ...], float] | None:
    """The darkest, middle and lightest tenth (by luminance) of the picture stretched over
    `piece`, under `area`, and the share of it that is drawing (`busy_share`); None when
    `area` misses the picture."""
    if piece.w <= 0 or piece.h <= 0:
        return None
    left = max(0.0, (area.x - piece.x) / piece.w)
    top = max(0.0, (area.y - piece.y) / piece.h)
    right = min(1.0, (area.right - piece.x) / piece.w)
    bottom = min(1.0, (area.bottom - piece.y) / piece.h)
    if right <= left or bottom <= top:
        return None
    w, h = raster.width, raster.height
    x0, y0 = int(left * w), int(top * h)
    x1, y1 = max(x0 + 1, int(right * w)), max(y0 + 1, int(bottom * h))
    pixels = _sums(raster).grid(x0, y0, x1, y1, 16, 16)
    shades = sorted(_hex(p) for p in pixels)
    shades.sort(key=luminance)
    found = tuple(sorted({shades[len(shades) // 10], shades[len(shades) // 2],
                          shades[len(shades) * 9 // 10]}, key=luminance))
    return found, busy_share(shades)


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


@functools.lru_cache(maxsize=256)
def drawn(raster: Raster, slide: Box, box: Box, cols: int = 24,
           rows: int = 12) -> list[list[bool]]:
    """A grid over `box`: True where the background picture (stretched over `slide`)
    draws: a quarter of the cell's pixels stand out from the box's most common shade."""
    if box.w <= 0 or box.h <= 0 or slide.w <= 0 or slide.h <= 0:
        return []
    w, h = raster.width, raster.height
    area = (max(0, box.x) * w / slide.w, max(0, box.y) * h / slide.h,
            min(slide.w, box.right) * w / slide.w, min(slide.h, box.bottom) * h / slide.h)
    if area[2] <= area[0] or area[3] <= area[1]:
        return []
    pixels = _sums(raster).grid(*area, cols * 4, rows * 4)
    coarse = [(r // 32, g // 32, b // 32) for r, g, b in pixels]
    common = pixels[coarse.index(max(set(coarse), key=coarse.count))]
    # drawing: a colour far from the ground's (a pale pencil reads as drawing too)
    out = [[sum((a - b) ** 2 for a, b in zip(p, common, strict=True)) >= DRAWN ** 2
            for p in pixels[y * cols * 4:(y + 1) * cols * 4]] for y in range(rows * 4)]
    return [[sum(out[y * 4 + dy][x * 4 + dx] for dy in range(4) for dx in range(4)) >= 4
             for x in range(cols)] for y in range(rows)]


Edges = tuple[int, int, int, int]  # left, top, right, bottom: columns and rows of a grid


def drawn_in(grid: list[list[bool]], edges: Edges) -> int:
    """How many cells of `grid` inside `edges` hold drawing."""
    x0, y0, x1, y1 = edges
    return sum(grid[y][x] for y in range(y0, y1) for x in range(x0, x1))


def cut_gain(grid: list[list[bool]], edges: Edges, cut: Edges) -> float:
    """Drawing taken per cell of room lost, cutting `edges` back to `cut`."""
    lost = (edges[2] - edges[0]) * (edges[3] - edges[1]) - (cut[2] - cut[0]) * (cut[3] - cut[1])
    return (drawn_in(grid, edges) - drawn_in(grid, cut)) / lost
