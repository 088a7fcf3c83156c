"""Tables planned: cells at the largest size of their choices at which the table fits its box.

Pure. Columns share the width by deckgen.typeset.columns's one search; rows are as tall as their
tallest cell. A table whose cells need no wrapping wins, unless letting only the headers wrap
buys a larger size; cells wrap only when nothing else fits.
"""

from __future__ import annotations

from dataclasses import replace

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, emu, inch, pt
from deckgen.plan.items import TIGHT, WIDTH_SAFETY, Para, TableItem
from deckgen.plan.kinds.fitting import Faces, height, longest_word, text_width
from deckgen.typeset.columns import Needs, search
from deckgen.typeset.fit import Misfit, room
from deckgen.typeset.text import characters_in

Cells = list[list[list[Para]]]
Sizes = list[list[list[float]]]


def table_item(faces: Faces, box: Box, cells: Cells, highlight: int | None, *,
               stretch: bool = True, margin: tuple[int, int] = (inch(0.1), inch(0.045)),
               name: str = "Table", header: bool = True) -> TableItem | Misfit:
    """A native table at the largest size at which it fits `box`: one whose cells need no
    wrapping, unless letting only the headers wrap buys a larger size; else one whose cells
    wrap; else the misfit of its longest cell."""
    levels = max(len(p.size) for row in cells for cell in row for p in cell)

    def attempt(k: int, wrap: str) -> TableItem | None:
        sizes = [[[p.at(k) for p in cell] for cell in row] for row in cells]
        needs = _needs(faces, cells, sizes, margin[0], header)

        def tall(widths: list[float]) -> list[float]:
            return _row_heights(faces, cells, sizes, widths, margin)

        found = search(needs, pt(box.w), wrap, lambda w: sum(tall(w)), stretch)
        if found is None:
            return None
        heights = tall(found)
        if sum(heights) > pt(box.h):
            return None
        emu_w = [emu(w) for w in found]
        emu_w[-1] -= max(0, sum(emu_w) - box.w)
        emu_h = [emu(h) for h in heights]
        used = Box(box.x, box.y, sum(emu_w), sum(emu_h))
        return TableItem(used, cells, sizes, emu_w, emu_h, highlight, name, margin, header)

    def first(wrap: str) -> TableItem | None:
        return next((t for k in range(levels) if (t := attempt(k, wrap)) is not None), None)

    tidy, headers = first("none"), first("headers")
    if tidy is not None and (headers is None or _body_size(headers) <= _body_size(tidy)):
        return tidy
    found = headers or first("any")
    kept = [p for cell in cells[0] for p in cell if fmt.NBSP in p.text] if header else []
    if found is None and kept and not any(p.runs for p in kept):
        # a header's number and unit are kept together while the table fits; only a table
        # that cannot fit so lets them part ("1,000,000 / tokens/sec")
        loose = [[[replace(p, text=p.text.replace(fmt.NBSP, " ")) for p in cell]
                  for cell in cells[0]], *cells[1:]]
        return table_item(faces, box, loose, highlight, stretch=stretch, margin=margin,
                          name=name, header=header)
    return found if found is not None else _misfit(faces, box, cells, margin[0])


def _body_size(item: TableItem) -> float:
    return item.sizes[-1][0][0]


def _row_heights(faces: Faces, cells: Cells, sizes: Sizes, widths: list[float],
                 margin: tuple[int, int]) -> list[float]:
    """Points each row takes with its columns `widths` points wide: its tallest cell's."""
    mx, my = margin
    return [max(height(faces, cell, scell, w - pt(2 * mx))
                for cell, scell, w in zip(row, srow, widths, strict=True)) + pt(2 * my)
            for row, srow in zip(cells, sizes, strict=True)]


def _needs(faces: Faces, cells: Cells, sizes: Sizes, mx: int, header: bool) -> Needs:
    """What each column needs across, in points with its padding (deckgen.typeset.columns)."""

    def widest(c: int, whole: bool, body_only: bool = False) -> float:
        skip = 1 if body_only and len(cells) > 1 else 0
        found = 0.0
        for row, srow in zip(cells[skip:], sizes[skip:], strict=True):
            for p, s in zip(row[c], srow[c], strict=True):
                if whole:
                    w = max(text_width(faces, line, s, p.bold, p.tracking, p.heading)
                            for line in p.shown.split("\n"))
                else:
                    w = longest_word(faces, p, s)
                found = max(found, w)
        return found / WIDTH_SAFETY + pt(2 * mx)

    columns = range(len(cells[0]))
    least = [widest(c, False) for c in columns]
    natural = [widest(c, True) for c in columns]
    body = [max(widest(c, True, True), least[c]) for c in columns] if header else natural
    numeric = [cells[-1][c][0].align == "r" for c in columns]
    return Needs(least, natural, body, numeric)


def _misfit(faces: Faces, box: Box, cells: Cells, mx: int) -> Misfit:
    """Blame the longest cell that came from the content (else the first), at its smallest."""
    flat = [p for row in cells for cell in row for p in cell]
    named = [p for p in flat if p.field or p.origin] or flat[:1]
    worst = max(named, key=lambda p: len(p.text))
    size = worst.size[-1]
    per_column = pt(box.w) / len(cells[0]) - pt(2 * mx)
    chars = characters_in(per_column, faces.of_para(worst), size)
    return Misfit(worst.field, worst.origin, worst.text,
                  f"the table needs more than the {fmt.measure(pt(box.h) / 72, 'in', 1)} of "
                  f"height there is; a column has {room(chars, size)} a line")


def table_cells(table: st.Table, size: tuple[float, ...],
                header: tuple[float, ...] | None = None) -> Cells:
    """A story table as cells: a bold header row (at `header` when given), figures kept whole
    and right-aligned; the dial's row bold too (the plan tints it: weight, not hue alone)."""
    rows = [[[Para(h, header or size, bold=True, align=a, line=TIGHT)]
             for h, a in zip(table.header, table.align, strict=True)]]
    for i, row in enumerate(table.rows):
        rows.append([[Para(fmt.keep_together(v) if a == "r" else v, size, align=a,
                           line=TIGHT, field="table cell", bold=i == table.highlight)]
                     for v, a in zip(row, table.align, strict=True)])
    return rows
