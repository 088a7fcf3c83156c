"""Tables planned: cells at the largest size of their choices at which the table fits its box.

Pure. Columns share the width by deckgen.layout.columns's one search; rows are as tall as their
tallest cell. A table whose cells need no wrapping wins, unless letting only the headers wrap
buys a larger size; cells wrap only when nothing else fits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from deckgen import fmt
from deckgen import story as st
from deckgen.layout.columns import Needs, search
from deckgen.layout.fit import Misfit, room
from deckgen.layout.text import characters_in
from deckgen.render.deck.plan import (
    TIGHT,
    WIDTH_SAFETY,
    Box,
    Fitter,
    Para,
    TableItem,
    emu,
    inch,
    pt,
)

Cells = list[list[list[Para]]]


def table_item(fit: Fitter, box: Box, cells: Cells, highlight: int | None, *,
               stretch: bool = True, margin: tuple[int, int] = (inch(0.1), inch(0.045)),
               name: str = "Table", header: bool = True) -> TableItem | Misfit:
    """A native table at the largest size at which it fits `box`: found once per process
    for the same faces, box and cells (a sweep's decks share the tables the speed does not
    change), and a copy handed out (its lists too), since a slide may move or change it."""
    key = (fit.faces, box, tuple(tuple(tuple(cell) for cell in row) for row in cells),
           highlight, stretch, margin, name, header)
    found = _TABLES.get(key)
    if found is None:
        found = _table_item(fit, box, cells, highlight, stretch=stretch, margin=margin,
                            name=name, header=header)
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.clear()
        _TABLES[key] = found
    if not isinstance(found, TableItem):
        return found
    return replace(found, cells=[[list(c) for c in row] for row in found.cells],
                   sizes=[[list(c) for c in row] for row in found.sizes],
                   widths=list(found.widths), heights=list(found.heights))


_TABLES: dict[tuple[Any, ...], TableItem | Misfit] = {}
TABLES_KEPT = 128  # tables planned, kept per process (a deck plans about ten)


def _table_item(fit: Fitter, box: Box, cells: Cells, highlight: int | None, *,
                stretch: bool, margin: tuple[int, int], name: str,
                header: bool) -> TableItem | Misfit:
    flat = [p for row in cells for cell in row for p in cell]
    levels = max(len(p.size) for p in flat)
    mx, my = margin
    columns = len(cells[0])

    def attempt(k: int, wrap: str) -> TableItem | None:
        sizes = [[[p.at(k) for p in cell] for cell in row] for row in cells]

        measured: dict[tuple[int, float], list[float]] = {}

        def column(c: int, width: float) -> list[float]:
            """The heights of column `c`'s cells at `width`: measured once, since the search
            tries each column at many widths while the others stay as they were."""
            found = measured.get((c, width))
            if found is None:
                found = measured[(c, width)] = [
                    fit.height(row[c], srow[c], width - pt(2 * mx))
                    for row, srow in zip(cells, sizes, strict=True)]
            return found

        def row_heights(widths: list[float]) -> list[float]:
            columns = [column(c, w) for c, w in enumerate(widths)]
            return [max(heights) + pt(2 * my) for heights in zip(*columns, strict=True)]

        def widest(c: int, whole: bool, body_only: bool = False) -> float:
            skip = 1 if body_only and len(cells) > 1 else 0
            found = 0.0
            for row, srow in zip(cells[skip:], sizes[skip:], strict=True):
                for p, s in zip(row[c], srow[c], strict=True):
                    if whole:
                        w = max(fit.width(line, s, p.bold, p.tracking, p.heading)
                                for line in p.shown.split("\n"))
                    else:
                        w = fit.longest_word(p, s)
                    found = max(found, w)
            return found / WIDTH_SAFETY + pt(2 * mx)

        least = [widest(c, False) for c in range(columns)]
        natural = [widest(c, True) for c in range(columns)]
        body = ([max(widest(c, True, True), least[c]) for c in range(columns)] if header
                else natural)
        numeric = [cells[-1][c][0].align == "r" for c in range(columns)]
        needs = Needs(least, natural, body, numeric)
        found = search(needs, pt(box.w), wrap, lambda w: sum(row_heights(w)), stretch)
        if found is None:
            return None
        widths, heights = found, row_heights(found)
        if sum(heights) > pt(box.h):
            return None
        emu_w = [emu(w) for w in widths]
        emu_w[-1] -= max(0, sum(emu_w) - box.w)
        emu_h = [emu(h) for h in heights]
        used = Box(box.x, box.y, sum(emu_w), sum(emu_h))
        return TableItem(used, cells, sizes, emu_w, emu_h, highlight, name, margin, header)

    def first(wrap: str) -> TableItem | None:
        return next((t for k in range(levels) if (t := attempt(k, wrap)) is not None), None)

    def body_size(item: TableItem) -> float:
        return item.sizes[-1][0][0]

    tidy, headers = first("none"), first("headers")
    if tidy is not None and (headers is None or body_size(headers) <= body_size(tidy)):
        return tidy
    found = headers or first("any")
    if found is not None:
        return found
    # Blame the longest cell that came from the content (else the first), at its smallest.
    named = [p for p in flat if p.field or p.origin] or flat[:1]
    worst = max(named, key=lambda p: len(p.text))
    size = worst.size[-1]
    per_column = pt(box.w) / columns - pt(2 * mx)
    chars = characters_in(per_column, fit.faces.of_para(worst), size)
    return Misfit(worst.field, worst.origin, worst.text,
                  f"the table needs more than the {fmt.measure(pt(box.h) / 72, 'in', 1)} of "
                  f"height there is; a column has {room(chars, size)} a line")


def table_cells(table: st.Table, size: tuple[float, ...],
                header: tuple[float, ...] | None = None) -> Cells:
    """A story table as cells: a bold header row (at `header` when given), figures kept whole
    and right-aligned; the dial's row bold too (the writer tints it: weight, not hue alone)."""
    rows = [[[Para(h, header or size, bold=True, align=a, line=TIGHT)]
             for h, a in zip(table.header, table.align, strict=True)]]
    for i, row in enumerate(table.rows):
        rows.append([[Para(fmt.keep_together(v) if a == "r" else v, size, align=a,
                           line=TIGHT, field="table cell", bold=i == table.highlight)]
                     for v, a in zip(row, table.align, strict=True)])
    return rows
