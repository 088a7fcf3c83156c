"""Items drawn on a python-pptx slide: text boxes, shapes, native tables, QR codes, charts.

python-pptx only. Colours are theme references (text, muted = tx2, accent = accent1), so a
template's theme colours carry through. Charts are placed by one function,
`place_chart(slide, chart, box, theme)`: native chart parts (charts.py) by default, or
matplotlib pictures with `charts="picture"`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol
from xml.sax.saxutils import escape

from pptx.enum.dml import MSO_THEME_COLOR
from pptx.enum.shapes import MSO_SHAPE
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.shapes.autoshape import Shape
from pptx.shapes.group import GroupShape
from pptx.slide import Slide as PptxSlide
from pptx.table import _Cell
from pptx.text.text import TextFrame
from pptx.util import Emu, Pt

from deckgen import story as st
from deckgen.content import Theme
from deckgen.render.deck import compat
from deckgen.render.deck.plan import (
    EMU_PER_IN,
    EMU_PER_PT,
    Box,
    ChartItem,
    Item,
    Para,
    PictureItem,
    QrItem,
    RectItem,
    Run,
    TableItem,
    TextItem,
)
from deckgen.render.deck.template import xml


class ChartPictures(Protocol):
    """What draws the charts as pictures (`--charts picture`): the build's chart cache."""

    def render(self, chart: st.Chart, theme: Theme, *, width_in: float, height_in: float,
               fmt: str = "png", dpi: int = 200, font_pt: float = 16.0) -> bytes:
        """One chart as PNG bytes, exactly width_in x height_in."""
        ...


_SCHEME = {"text": "tx1", "muted": "tx2", "accent": "accent1", "background": "bg1", "rule": "bg2"}
_THEME_COLOUR = {"text": MSO_THEME_COLOR.TEXT_1, "muted": MSO_THEME_COLOR.TEXT_2,
                 "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.BACKGROUND_1,
                 "rule": MSO_THEME_COLOR.BACKGROUND_2}
_PLAIN_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"  # built-in "No Style, No Grid"


def _colour_xml(role: str, brightness: float = 0.0) -> str:
    mods = ""
    if brightness > 0:
        mods = (f'<a:lumMod val="{round((1 - brightness) * 100000)}"/>'
                f'<a:lumOff val="{round(brightness * 100000)}"/>')
    elif brightness < 0:
        mods = f'<a:lumMod val="{round((1 + brightness) * 100000)}"/>'
    return f'<a:solidFill><a:schemeClr val="{_SCHEME[role]}">{mods}</a:schemeClr></a:solidFill>'


def _line_xml(tag: str, role: str | None, width_pt: float) -> str:
    if role is None:
        return f'<a:{tag} w="0"><a:noFill/></a:{tag}>'
    return f'<a:{tag} w="{round(width_pt * EMU_PER_PT)}" cmpd="sng">{_colour_xml(role)}</a:{tag}>'


_ALIGN = {"l": PP_ALIGN.LEFT, "r": PP_ALIGN.RIGHT, "ctr": PP_ALIGN.CENTER}


def write_paras(text_frame: TextFrame, paras: Sequence[Para], sizes: Sequence[float], *,
                placeholder: bool = False, lang: str = "en-US") -> None:
    """Set `paras` into a text frame, replacing what was there.

    The paragraphs' XML is written here in one go, the same elements and attributes in the
    same order as python-pptx's setters would make them; a frame whose first paragraph
    carries properties of its own (which python-pptx's `clear` keeps) goes through
    python-pptx instead."""
    body = text_frame._txBody
    first = body.p_lst[0]
    if len(first.attrib) or any(child.tag not in _CONTENT for child in first):
        _write_paras_slowly(text_frame, paras, sizes, placeholder=placeholder, lang=lang)
        return
    links: dict[str, str] = {}

    def link(url: str) -> str:
        if url not in links:
            links[url] = text_frame.part.relate_to(url, RT.HYPERLINK, is_external=True)
        return links[url]

    markup = "".join(_para_xml(p, size, i, placeholder, link, lang)
                     for i, (p, size) in enumerate(zip(paras, sizes, strict=True)))
    for old in body.p_lst:
        body.remove(old)
    for new in parse_xml(f"<root {nsdecls('a', 'r')}>{markup}</root>"):
        body.append(new)


_CONTENT = {qn("a:r"), qn("a:br"), qn("a:fld")}  # what python-pptx's clear removes
_ALIGN_XML = {"l": "l", "r": "r", "ctr": "ctr"}
_CTRL = re.compile(r"([\x00-\x08\x0B-\x1F])")


def _centipoints(points: float) -> int:
    return int(Pt(points).centipoints)


def _text_xml(text: str) -> str:
    """A run's text as python-pptx stores it (control characters as _xHHHH_), escaped."""
    return escape(_CTRL.sub(lambda m: "_x%04X_" % ord(m.group(1)), text))


def _para_xml(p: Para, size: float, i: int, placeholder: bool,
              link: Callable[[str], str], lang: str = "en-US") -> str:
    """One paragraph's `a:p`, as `_write_paras_slowly` makes it."""
    attrs = ""
    if p.align or not placeholder:  # shapes centre their text unless told otherwise
        attrs += f' algn="{_ALIGN_XML[p.align or "l"]}"'
    if placeholder:  # a template's body style may bring bullets and indents
        attrs += ' marL="0" indent="0"'
    spacing = (f'<a:lnSpc><a:spcPts val="{_centipoints(size * p.line)}"/></a:lnSpc>'
               f'<a:spcBef><a:spcPts val="{_centipoints(p.before if i else 0)}"/></a:spcBef>'
               '<a:spcAft><a:spcPts val="0"/></a:spcAft>')
    if placeholder:
        spacing += "<a:buNone/>"
    runs = []
    for run_spec in p.runs or (Run(p.text),):
        bold = p.bold if run_spec.bold is None else run_spec.bold
        r_attrs = f' sz="{_centipoints(size)}" b="{"1" if bold else "0"}" lang="{escape(lang)}"'
        if p.caps:
            r_attrs += ' cap="all"'
        if p.tracking:
            r_attrs += f' spc="{round(p.tracking * 100)}"'
        colour = run_spec.colour or p.colour
        inner = f'<a:solidFill><a:schemeClr val="{_SCHEME[colour]}"/></a:solidFill>' \
            if colour else ""
        if p.heading:
            inner += '<a:latin typeface="+mj-lt"/>'
        url = run_spec.link or p.link
        if url:
            inner += f'<a:hlinkClick r:id="{link(url)}"/>'
        runs.append(f"<a:r><a:rPr{r_attrs}>{inner}</a:rPr><a:t>{_text_xml(run_spec.text)}</a:t>"
                    "</a:r>")
    return f"<a:p><a:pPr{attrs}>{spacing}</a:pPr>{''.join(runs)}</a:p>"


def _write_paras_slowly(text_frame: TextFrame, paras: Sequence[Para], sizes: Sequence[float],
                        *, placeholder: bool = False, lang: str = "en-US") -> None:
    """`write_paras` through python-pptx's own setters."""
    text_frame.clear()  # type: ignore[no-untyped-call]
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        paragraph = (text_frame.paragraphs[0] if i == 0
                     else text_frame.add_paragraph())  # type: ignore[no-untyped-call]
        if p.align or not placeholder:  # shapes centre their text unless told otherwise
            paragraph.alignment = _ALIGN[p.align or "l"]
        paragraph.line_spacing = Pt(size * p.line)
        paragraph.space_before = Pt(p.before if i else 0)
        paragraph.space_after = Pt(0)
        if placeholder:  # a template's body style may bring bullets and indents
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "0")
            p_pr.set("indent", "0")
            p_pr.insert_element_before(xml("<a:buNone/>")[0], "a:tabLst", "a:defRPr", "a:extLst")
        for run_spec in p.runs or (Run(p.text),):
            run = paragraph.add_run()
            run.text = run_spec.text
            font = run.font
            font.size = Pt(size)
            font.bold = p.bold if run_spec.bold is None else run_spec.bold
            colour = run_spec.colour or p.colour
            if colour:
                font.color.theme_color = _THEME_COLOUR[colour]
            if p.heading:
                font.name = "+mj-lt"
            r_pr = run._r.get_or_add_rPr()
            r_pr.set("lang", lang)
            if p.caps:
                r_pr.set("cap", "all")
            if p.tracking:
                r_pr.set("spc", str(round(p.tracking * 100)))
            if run_spec.link or p.link:
                run.hyperlink.address = run_spec.link or p.link


def frame_setup(text_frame: TextFrame, inset: tuple[int, int, int, int],
                anchor: str | None) -> None:
    text_frame.word_wrap = True
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    text_frame.margin_left, text_frame.margin_top = Emu(inset[0]), Emu(inset[1])
    text_frame.margin_right, text_frame.margin_bottom = Emu(inset[2]), Emu(inset[3])
    if anchor:  # None keeps a template's own
        text_frame.vertical_anchor = {"t": MSO_ANCHOR.TOP, "ctr": MSO_ANCHOR.MIDDLE,
                                      "b": MSO_ANCHOR.BOTTOM}[anchor]


def unstyled(shape: Shape) -> None:
    """Without python-pptx's default style for a new shape, which would bring an accent fill
    and a shadow."""
    style = shape._element.find(qn("p:style"))
    if style is not None:
        shape._element.remove(style)


def _plain_shape(slide: PptxSlide | GroupShape, box: Box, fill: tuple[str, float] | None,
                 outline: tuple[str, float] | None, name: str) -> Shape:
    shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(box.x), Emu(box.y), Emu(box.w),
                                   Emu(box.h))
    shape.name = name
    unstyled(shape)
    if fill:
        shape.fill.solid()
        shape.fill.fore_color.theme_color = _THEME_COLOUR[fill[0]]
        if fill[1]:
            shape.fill.fore_color.brightness = fill[1]
    else:
        shape.fill.background()
    if outline:
        shape.line.fill.solid()
        shape.line.fill.fore_color.theme_color = _THEME_COLOUR[outline[0]]
        shape.line.width = Pt(outline[1])
    else:
        shape.line.fill.background()
    return shape


def _on_ground(fill: tuple[str, float] | None, dark: bool) -> tuple[str, float] | None:
    """A tint (a colour lightened) as a shade (darkened as much) on a dark background, so the
    light text on it keeps its contrast."""
    return (fill[0], -fill[1]) if fill and dark and fill[1] > 0 else fill


def _is_dark(colour: str) -> bool:
    h = colour.lstrip("#")
    if len(h) != 6:
        return False
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100


def draw_items(slide: PptxSlide, items: Sequence[Item], theme: Theme, charts: str = "native",
               created: datetime | None = None, cache: ChartPictures | None = None,
               lang: str = "en-US") -> None:
    """Draw `items` on `slide`; charts as native chart parts whose workbooks record `created`
    or, with `charts="picture"`, as PNG pictures from `cache`; every run of text tagged with
    the language `lang` ('de-DE')."""
    dark = _is_dark(theme.background)
    for item in items:
        if isinstance(item, TextItem):
            if item.fill or item.outline:
                shape = _plain_shape(slide, item.box, _on_ground(item.fill, dark), item.outline,
                                     item.name)
            else:
                shape = slide.shapes.add_textbox(Emu(item.box.x), Emu(item.box.y),
                                                 Emu(item.box.w), Emu(item.box.h))
                shape.name = item.name
            frame_setup(shape.text_frame, item.inset, item.anchor)
            write_paras(shape.text_frame, item.paras, item.sizes, lang=lang)
        elif isinstance(item, RectItem):
            _plain_shape(slide, item.box, _on_ground(item.fill, dark), item.outline, item.name)
        elif isinstance(item, ChartItem):
            place_chart(slide, item.chart, item.box, theme, item.name, charts=charts,
                        size=item.size, created=created, font_pt=item.text_pt, cache=cache)
        elif isinstance(item, QrItem):
            _draw_qr(slide, item)
        elif isinstance(item, PictureItem):
            _draw_picture(slide, item)
        else:
            _draw_table(slide, item, dark, lang)


def place_chart(slide: PptxSlide, chart: st.Chart, box: Box, theme: Theme,
                name: str = "Chart", *, charts: str = "native", size: float = 14.0,
                created: datetime | None = None, font_pt: float = 16.0,
                cache: ChartPictures | None = None) -> None:
    """Draw `chart` into `box` on `slide`, with the chart's alt text and title: a native chart
    part (labels at `size` points, its workbook dated `created`), or with `charts="picture"`
    a picture at the box's size, 200 dpi, its text at `font_pt`, from `cache` (a build's
    chart cache; without one, drawn here)."""
    if charts == "native":
        from deckgen.render.deck import charts as native

        native.add_chart(slide, chart, box.x, box.y, box.w, box.h, name=name, font_pt=size,
                         created=created or native.CREATED)
        return
    if cache is None:
        from deckgen import charts as pictures

        cache = pictures
    png = cache.render(chart, theme, width_in=box.w / EMU_PER_IN, height_in=box.h / EMU_PER_IN,
                       fmt="png", dpi=200, font_pt=font_pt)
    picture = slide.shapes.add_picture(io.BytesIO(png), Emu(box.x), Emu(box.y), Emu(box.w),
                                       Emu(box.h))
    picture.name = name
    c_nv_pr = picture._element.nvPicPr.cNvPr  # type: ignore[union-attr]
    c_nv_pr.set("descr", chart.alt_text)
    c_nv_pr.set("title", chart.title)


def _draw_picture(slide: PptxSlide, item: PictureItem) -> None:
    """A presenter's picture in its box (its aspect kept by the plan), cropped as planned,
    with its alt text as the picture's description."""
    picture = slide.shapes.add_picture(io.BytesIO(item.picture.data), Emu(item.box.x),
                                       Emu(item.box.y), Emu(item.box.w), Emu(item.box.h))
    picture.name = item.name
    left, top, right, bottom = item.crop
    if any(item.crop):
        picture.crop_left, picture.crop_top = left, top
        picture.crop_right, picture.crop_bottom = right, bottom
    c_nv_pr = picture._element.nvPicPr.cNvPr  # type: ignore[union-attr]
    c_nv_pr.set("descr", item.alt)


def _draw_qr(slide: PptxSlide, item: QrItem) -> None:
    """A QR code as a group of a background square and one shape in the text colour whose
    path holds every run of dark modules, so it scales and prints sharp."""
    from deckgen.render.deck.qr import modules

    group = slide.shapes.add_group_shape()
    group.name = item.name
    _plain_shape(group, item.box, ("background", 0.0), None, "QR background")
    dark = compat.qr_shape(group.shapes, qr_runs(modules(item.url), item.box))
    dark.name = "QR modules"
    unstyled(dark)
    dark.fill.solid()
    dark.fill.fore_color.theme_color = _THEME_COLOUR["text"]
    dark.line.fill.background()
    group._element.nvGrpSpPr.cNvPr.set(  # type: ignore[union-attr]
        "descr", f"QR code for {item.url}")


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


def _draw_table(slide: PptxSlide, item: TableItem, dark: bool = False,
                lang: str = "en-US") -> None:
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
            fill = _on_ground(("accent", 0.78), dark) if ours else None
            _cell_look(cell, top, bottom, fill)


def _cell_look(cell: _Cell, top: tuple[str, float] | None, bottom: tuple[str, float] | None,
               fill: tuple[str, float] | None) -> None:
    tc_pr = cell._tc.get_or_add_tcPr()
    for child in list(tc_pr):
        tc_pr.remove(child)
    parts = [_line_xml("lnL", None, 0), _line_xml("lnR", None, 0),
             _line_xml("lnT", top[0] if top else None, top[1] if top else 0),
             _line_xml("lnB", bottom[0] if bottom else None, bottom[1] if bottom else 0),
             _colour_xml(*fill) if fill else "<a:noFill/>"]
    for child in list(xml("".join(parts))):
        tc_pr.append(child)




