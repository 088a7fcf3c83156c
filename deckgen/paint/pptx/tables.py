"""A planned table drawn as a native PowerPoint table: no table style, its rules and the
highlighted row's fill in the theme's colours.

python-pptx only.
"""

from __future__ import annotations

from pptx.enum.text import MSO_ANCHOR
from pptx.oxml.ns import qn
from pptx.slide import Slide as PptxSlide
from pptx.table import _Cell
from pptx.util import Emu

from deckgen.box import EMU_PER_PT
from deckgen.paint.pptx.colour_roles import colour_xml, on_ground
from deckgen.paint.pptx.paragraphs import write_paras
from deckgen.paint.pptx.template import xml
from deckgen.plan.items import TableItem

_PLAIN_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"  # built-in "No Style, No Grid"


def _line_xml(tag: str, role: str | None, width_pt: float) -> str:
    if role is None:
        return f'<a:{tag} w="0"><a:noFill/></a:{tag}>'
    return f'<a:{tag} w="{round(width_pt * EMU_PER_PT)}" cmpd="sng">{colour_xml(role)}</a:{tag}>'


def draw_table(slide: PptxSlide, item: TableItem, dark: bool = False,
               lang: str = "en-US") -> None:
    """`item` as a native table: its columns and rows at their planned sizes, each cell's
    paragraphs, a rule above the header and below the last row, the highlighted row filled
    with a tint of the accent (a shade on a dark background)."""
    rows, columns = len(item.cells), len(item.cells[0])
    frame = slide.shapes.add_table(rows, columns, Emu(item.box.x), Emu(item.box.y),
                                   Emu(item.box.w), Emu(item.box.h))
    frame.name = item.name
    table = frame.table
    tbl_pr = table._tbl.tblPr
    assert tbl_pr is not None  # python-pptx makes every table with one
    tbl_pr.set("firstRow", "1" if item.header else "0")
    tbl_pr.set("bandRow", "0")
    style_id = tbl_pr.find(qn("a:tableStyleId"))
    if style_id is not None:
        style_id.text = _PLAIN_TABLE
    for c, w in enumerate(item.widths):
        table.columns[c].width = Emu(w)
    for r, h in enumerate(item.heights):
        table.rows[r].height = Emu(h)
    for r in range(rows):
        body = r - 1
        for c in range(columns):
            cell = table.cell(r, c)
            cell.margin_left = cell.margin_right = Emu(item.margin[0])
            cell.margin_top = cell.margin_bottom = Emu(item.margin[1])
            cell.vertical_anchor = MSO_ANCHOR.TOP
            write_paras(cell.text_frame, item.cells[r][c], item.sizes[r][c], lang=lang)
            top = ("text", 1.5) if r == 0 else None
            strong = r == rows - 1 or (r == 0 and item.header)
            bottom = ("text", 1.0) if strong else ("rule", 0.75)
            ours = item.highlight is not None and body == item.highlight
            fill = on_ground(("accent", 0.78), dark) if ours else None
            _cell_look(cell, top, bottom, fill)


def _cell_look(cell: _Cell, top: tuple[str, float] | None, bottom: tuple[str, float] | None,
               fill: tuple[str, float] | None) -> None:
    tc_pr = cell._tc.get_or_add_tcPr()
    for child in list(tc_pr):
        tc_pr.remove(child)
    parts = [_line_xml("lnL", None, 0), _line_xml("lnR", None, 0),
             _line_xml("lnT", top[0] if top else None, top[1] if top else 0),
             _line_xml("lnB", bottom[0] if bottom else None, bottom[1] if bottom else 0),
             colour_xml(*fill) if fill else "<a:noFill/>"]
    for child in list(xml("".join(parts))):
        tc_pr.append(child)


