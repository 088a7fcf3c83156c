"""Rectangles on a slide and the slide's units: EMU (the file format's, exact integers) in
boxes, points in text sizes; `inch`, `pt` and `emu` convert between them, here only."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

EMU_PER_IN = 914400
EMU_PER_PT = 12700


def inch(inches: float) -> int:
    """EMU of `inches`."""
    return round(inches * EMU_PER_IN)


def pt(emu: int) -> float:
    """Points of `emu`."""
    return emu / EMU_PER_PT


def emu(points: float) -> int:
    """EMU of `points`, rounded up so a measured text always has its room."""
    return math.ceil(points * EMU_PER_PT)


@dataclass(frozen=True)
class Box:
    """A rectangle on the slide, in EMU."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def columns(self, widths: Sequence[float], gap: int) -> list[Box]:
        """Split across, in proportion to `widths`, with `gap` between."""
        free = self.w - gap * (len(widths) - 1)
        total = sum(widths)
        out, x = [], self.x
        for i, share in enumerate(widths):
            w = self.right - x if i == len(widths) - 1 else round(free * share / total)
            out.append(Box(x, self.y, w, self.h))
            x += w + gap
        return out

    def rows(self, heights: Sequence[float], gap: int) -> list[Box]:
        free = self.h - gap * (len(heights) - 1)
        total = sum(heights)
        out, y = [], self.y
        for i, share in enumerate(heights):
            h = self.bottom - y if i == len(heights) - 1 else round(free * share / total)
            out.append(Box(self.x, y, self.w, h))
            y += h + gap
        return out

    def grid(self, columns: int, rows: int, gap: int) -> list[Box]:
        return [cell for row in self.rows([1] * rows, gap)
                for cell in row.columns([1] * columns, gap)]

    def top(self, h: int) -> Box:
        return Box(self.x, self.y, self.w, min(h, self.h))

    def bottom_part(self, h: int) -> Box:
        return Box(self.x, self.bottom - h, self.w, h)

    def below(self, y: int, gap: int = 0) -> Box:
        """What is left of the box under `y` (plus `gap`)."""
        top = y + gap
        return Box(self.x, top, self.w, self.bottom - top)

    def moved(self, y: int) -> Box:
        return Box(self.x, y, self.w, self.h)


def overlap(a: Box, b: Box) -> int:
    """The area two boxes share (EMU squared)."""
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return max(0, w) * max(0, h)


def union(a: Box, b: Box) -> Box:
    """The smallest box holding both."""
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Box(x, y, max(a.right, b.right) - x, max(a.bottom, b.bottom) - y)
