"""A QR code's modules for a web address, from segno (pure Python): rows of dark or light, and
the runs of dark modules as boxes on the slide (the deck draws them as one shape, the slides'
PDF as rectangles)."""

from __future__ import annotations

from collections.abc import Sequence

import segno

from deckgen.box import Box


def modules(url: str) -> list[list[bool]]:
    """The code's dark (True) and light modules, row by row, quiet zone not included; a
    regular QR code (not a micro one) at error level M, so a phone reads it off a screen."""
    code = segno.make(url, error="m", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in code.matrix]


def qr_runs(grid: Sequence[Sequence[bool]], box: Box) -> list[tuple[int, int, int, int]]:
    """Each run of dark modules in a row, as (left, top, right, bottom) in EMU on the slide:
    the code fills `box` with a quiet zone of four modules on each side. Module edges are
    rounded half up to whole EMU from the exact fraction of the box, so neighbouring runs
    share their edges exactly."""
    n = len(grid) + 8

    def edge(origin: int, size: int, k: int) -> int:
        return origin + (2 * k * size + n) // (2 * n)  # origin + round(k * size / n), half up

    runs = []
    for r, row in enumerate(grid):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            runs.append((edge(box.x, box.w, start + 4), edge(box.y, box.h, r + 4),
                         edge(box.x, box.w, c + 4), edge(box.y, box.h, r + 5)))
    return runs
