"""A placed table drawn as a native PowerPoint table: no table style, its rules and the
highlighted row's fill in the theme's colours, every cell's paragraphs as placed.

python-pptx only.
"""

from __future__ import annotations

from pptx.enum.text import MSO_ANCHOR
from pptx.shapes.base import BaseShape
from pptx.slide import Slide as PptxSlide
from pptx.util import Emu

from deckgen.box import EMU_PER_PT
from deckgen.paint.pptx import compat, text
from deckgen.paint.pptx.colours import colour_xml
from deckgen.plan.placed import Colour, TableBox

_PLAIN_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"  # built-in "No Style, No Grid"


def _line_xml(tag: str, rule: tuple[Colour, float] | None) -> str:
    if rule is None:
        return f'<a:{tag} w="0"><a:noFill/></a:{tag}>'
    return f'<a:{tag} w="{round(rule[1] * EMU_PER_PT)}" cmpd="sng">{colour_xml(rule[0])}</a:{tag}>'


def draw_table(slide: PptxSlide, table: TableBox, lang: str) -> BaseShape:
    """`table` as a native table: its columns and rows at their placed sizes, each cell's
    paragraphs, its rules and fills."""
    rows, columns = len(table.cells), len(table.widths)
    b = table.box
    frame = slide.shapes.add_table(rows, columns, Emu(b.x), Emu(b.y), Emu(b.w), Emu(b.h))
    frame.name = table.name
    found = frame.table
    compat.plain_table(found, table.header, _PLAIN_TABLE)
    for c, w in enumerate(table.widths):
        found.columns[c].width = Emu(w)
    for r, h in enumerate(table.heights):
        found.rows[r].height = Emu(h)
    for r, row in enumerate(table.cells):
        for c, placed in enumerate(row):
            cell = found.cell(r, c)
            cell.margin_left = cell.margin_right = Emu(table.margin[0])
            cell.margin_top = cell.margin_bottom = Emu(table.margin[1])
            cell.vertical_anchor = MSO_ANCHOR.TOP
            text.write(cell.text_frame, placed.paragraphs, lang)
            parts = [_line_xml("lnL", None), _line_xml("lnR", None),
                     _line_xml("lnT", placed.top), _line_xml("lnB", placed.bottom),
                     colour_xml(placed.fill) if placed.fill is not None else "<a:noFill/>"]
            compat.cell_borders(cell, "".join(parts))
    return frame
