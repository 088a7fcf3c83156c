"""The writer: slide plans drawn into a python-pptx presentation, saved as stable bytes.

python-pptx only. Every text is set in a real text box, placeholder or native table at the
size its plan chose; colours are theme references (text, muted = tx2, accent = accent1), so
a `--template`'s theme colours and fonts carry through. Charts are placed by one function,
`place_chart(slide, chart, box)`.

The same story gives the same bytes: fixed timestamps in docProps/core.xml and in the zip
(SOURCE_DATE_EPOCH when set, else 2000-01-01T00:00:00Z), parts in a stable order.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Sequence
from datetime import datetime, timezone

from pptx.enum.dml import MSO_THEME_COLOR
from pptx.enum.shapes import MSO_SHAPE, PP_PLACEHOLDER
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml.ns import qn
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import Slide as PptxSlide
from pptx.slide import SlideLayout
from pptx.util import Emu, Pt

from deckgen import chartcache
from deckgen import story as st
from deckgen.content import Theme
from deckgen.errors import InputError, Problem
from deckgen.render.deck import template as tp
from deckgen.render.deck.plan import (
    EMU_PER_IN,
    EMU_PER_PT,
    Box,
    ChartItem,
    Item,
    Para,
    QrItem,
    RectItem,
    Run,
    SlidePlan,
    TableItem,
    TextItem,
    inch,
)
from deckgen.render.deck.slides import Planner

DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z, when SOURCE_DATE_EPOCH is not set
ZIP_EPOCH = 315532800  # 1980-01-01, the earliest time a zip entry can carry
FOOTER = 12.0  # points: the footer and the slide number, the only text outside the type scale

_SCHEME = {"text": "tx1", "muted": "tx2", "accent": "accent1", "background": "bg1", "rule": "bg2"}
_THEME_COLOUR = {"text": MSO_THEME_COLOR.TEXT_1, "muted": MSO_THEME_COLOR.TEXT_2,
                 "accent": MSO_THEME_COLOR.ACCENT_1, "background": MSO_THEME_COLOR.BACKGROUND_1,
                 "rule": MSO_THEME_COLOR.BACKGROUND_2}
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006"
_PLAIN_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"  # built-in "No Style, No Grid"
_SLIDE_NUMBER_FIELD = "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}"


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


def _write(text_frame, paras: Sequence[Para], sizes: Sequence[float], *,  # noqa: ANN001
           placeholder: bool = False) -> None:
    """Set `paras` into a text frame, replacing what was there."""
    text_frame.clear()
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        paragraph = text_frame.paragraphs[0] if i == 0 else text_frame.add_paragraph()
        if p.align or not placeholder:  # shapes centre their text unless told otherwise
            paragraph.alignment = _ALIGN[p.align or "l"]
        paragraph.line_spacing = Pt(size * p.line)
        paragraph.space_before = Pt(p.before if i else 0)
        paragraph.space_after = Pt(0)
        if placeholder:  # a template's body style may bring bullets and indents
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "0")
            p_pr.set("indent", "0")
            p_pr.insert_element_before(tp.xml("<a:buNone/>")[0], "a:tabLst", "a:defRPr", "a:extLst")
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
            r_pr.set("lang", "en-US")
            if p.caps:
                r_pr.set("cap", "all")
            if p.tracking:
                r_pr.set("spc", str(round(p.tracking * 100)))
            if run_spec.link or p.link:
                run.hyperlink.address = run_spec.link or p.link


def _body(text_frame, inset: tuple[int, int, int, int], anchor: str | None) -> None:  # noqa: ANN001
    text_frame.word_wrap = True
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    text_frame.margin_left, text_frame.margin_top = Emu(inset[0]), Emu(inset[1])
    text_frame.margin_right, text_frame.margin_bottom = Emu(inset[2]), Emu(inset[3])
    if anchor:  # None keeps a template's own
        text_frame.vertical_anchor = {"t": MSO_ANCHOR.TOP, "ctr": MSO_ANCHOR.MIDDLE,
                                      "b": MSO_ANCHOR.BOTTOM}[anchor]


def _plain_shape(slide: PptxSlide, box: Box, fill: tuple[str, float] | None,
                 outline: tuple[str, float] | None, name: str):  # noqa: ANN202
    shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(box.x), Emu(box.y), Emu(box.w),
                                   Emu(box.h))
    shape.name = name
    style = shape._element.find(qn("p:style"))
    if style is not None:  # the default style would bring an accent fill and a shadow
        shape._element.remove(style)
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


def _draw(slide: PptxSlide, items: Sequence[Item], theme: Theme) -> None:
    for item in items:
        if isinstance(item, TextItem):
            if item.fill or item.outline:
                shape = _plain_shape(slide, item.box, item.fill, item.outline, item.name)
            else:
                shape = slide.shapes.add_textbox(Emu(item.box.x), Emu(item.box.y),
                                                 Emu(item.box.w), Emu(item.box.h))
                shape.name = item.name
            _body(shape.text_frame, item.inset, item.anchor)
            _write(shape.text_frame, item.paras, item.sizes)
        elif isinstance(item, RectItem):
            _plain_shape(slide, item.box, item.fill, item.outline, item.name)
        elif isinstance(item, ChartItem):
            place_chart(slide, item.chart, item.box, theme, item.name)
        elif isinstance(item, QrItem):
            _draw_qr(slide, item)
        else:
            _draw_table(slide, item)


def place_chart(slide: PptxSlide, chart: st.Chart, box: Box, theme: Theme,
                name: str = "Chart") -> None:
    """Draw `chart` into `box` on `slide`: today a picture at the box's size, 200 dpi, with the
    chart's alt text and title."""
    png = chartcache.render(chart, theme, width_in=box.w / EMU_PER_IN, height_in=box.h / EMU_PER_IN,
                            fmt="png", dpi=200, font_pt=16.0)
    picture = slide.shapes.add_picture(io.BytesIO(png), Emu(box.x), Emu(box.y), Emu(box.w),
                                       Emu(box.h))
    picture.name = name
    c_nv_pr = picture._element.nvPicPr.cNvPr
    c_nv_pr.set("descr", chart.alt_text)
    c_nv_pr.set("title", chart.title)


def _draw_qr(slide: PptxSlide, item: QrItem) -> None:
    """A QR code as one group of dark squares in the text colour, so it scales and prints
    sharp."""
    from deckgen.render.deck.qr import modules

    grid = modules(item.url)
    n = len(grid) + 8  # a quiet zone of four modules on each side
    cell = item.box.w / n
    group = slide.shapes.add_group_shape()
    group.name = item.name
    back = _plain_shape(group, item.box, ("background", 0.0), None, "QR background")  # type: ignore[arg-type]
    del back
    for r, row in enumerate(grid):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            x = item.box.x + round((start + 4) * cell)
            y = item.box.y + round((r + 4) * cell)
            w = item.box.x + round((c + 4) * cell) - x
            h = item.box.y + round((r + 5) * cell) - y
            _plain_shape(group, Box(x, y, w, h), ("text", 0.0), None, "QR module")  # type: ignore[arg-type]
    c_nv_pr = group._element.nvGrpSpPr.cNvPr
    c_nv_pr.set("descr", f"QR code for {item.url}")


def _draw_table(slide: PptxSlide, item: TableItem) -> None:
    rows, columns = len(item.cells), len(item.cells[0])
    frame = slide.shapes.add_table(rows, columns, Emu(item.box.x), Emu(item.box.y),
                                   Emu(item.box.w), Emu(item.box.h))
    frame.name = item.name
    table = frame.table
    tbl_pr = table._tbl.tblPr
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
            _write(cell.text_frame, item.cells[r][c], item.sizes[r][c])
            top = ("text", 1.5) if r == 0 else None
            strong = r == rows - 1 or (r == 0 and item.header)
            bottom = ("text", 1.0) if strong else ("rule", 0.75)
            ours = item.highlight is not None and body == item.highlight
            fill = ("accent", 0.78) if ours else None
            _cell_look(cell, top, bottom, fill)


def _cell_look(cell, top: tuple[str, float] | None, bottom: tuple[str, float] | None,  # noqa: ANN001
               fill: tuple[str, float] | None) -> None:
    tc_pr = cell._tc.get_or_add_tcPr()
    for child in list(tc_pr):
        tc_pr.remove(child)
    parts = [_line_xml("lnL", None, 0), _line_xml("lnR", None, 0),
             _line_xml("lnT", top[0] if top else None, top[1] if top else 0),
             _line_xml("lnB", bottom[0] if bottom else None, bottom[1] if bottom else 0),
             _colour_xml(*fill) if fill else "<a:noFill/>"]
    for child in list(tp.xml("".join(parts))):
        tc_pr.append(child)




# ---------------------------------------------------------------------------------------------
# Slides


class Writer:
    """Adds planned slides to a presentation."""

    def __init__(self, prs: PresentationObject, told: st.Story, own: bool) -> None:
        self.prs = prs
        self.told = told
        self.own = own
        self.cover, self.content = tp.pick_layouts(prs)
        self.theme = told.theme if own else tp.theme_of(prs, told.theme)
        self.width, self.height = int(prs.slide_width), int(prs.slide_height)
        self.footers = [(kind, ph) for kind, ph in tp.places(self.content)
                        if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)]
        title = next(ph for kind, ph in tp.places(self.content) if kind in tp.TITLE_TYPES)
        self.title_box = Box(int(title.left), int(title.top), int(title.width), int(title.height))
        self.title_inset = tp.insets(title)

    def new_slide(self, layout: SlideLayout) -> PptxSlide:
        """A slide on `layout` with only its title (and, on the cover, one subtitle or body
        placeholder) left of the placeholders the layout brings."""
        slide = self.prs.slides.add_slide(layout)
        second = None
        if layout is self.cover:
            kinds = [ph.placeholder_format.type for ph in slide.placeholders]
            second = (PP_PLACEHOLDER.SUBTITLE if PP_PLACEHOLDER.SUBTITLE in kinds
                      else PP_PLACEHOLDER.BODY)
        for ph in list(slide.placeholders):
            kind = ph.placeholder_format.type
            if kind in tp.TITLE_TYPES:
                continue
            if kind == second:
                second = None  # keep the first one only
                continue
            ph._element.getparent().remove(ph._element)
        return slide

    def add(self, number: int, plan: SlidePlan) -> None:
        if plan.cover:
            self.add_cover(plan)
            return
        slide = self.new_slide(self.content)
        title = slide.shapes.title
        anchor = plan.extra.get("title_anchor")
        _body(title.text_frame, self.title_inset, anchor if isinstance(anchor, str) else None)
        _write(title.text_frame, plan.title, plan.title_sizes, placeholder=True)
        _draw(slide, plan.items, self.theme)
        self.footer(slide, number)
        self.notes(slide, plan.notes)

    def add_cover(self, plan: SlidePlan) -> None:
        slide = self.new_slide(self.cover)
        title = slide.shapes.title
        _body(title.text_frame, tp.insets(title, self.cover), "b" if self.own else None)
        _write(title.text_frame, plan.title, plan.title_sizes, placeholder=True)
        second = plan.extra.get("second")
        subtitle = next((ph for ph in slide.placeholders
                         if ph.placeholder_format.type not in tp.TITLE_TYPES), None)
        if second is not None and subtitle is not None:
            paras, sizes = second  # type: ignore[misc]
            _body(subtitle.text_frame, tp.insets(subtitle, self.cover), "t" if self.own else None)
            _write(subtitle.text_frame, paras, sizes, placeholder=True)
        _draw(slide, plan.items, self.theme)
        self.notes(slide, plan.notes)

    def footer(self, slide: PptxSlide, number: int) -> None:
        """The event and date in the footer placeholder, the number in the slide-number one."""
        words = self.told.event_line
        placed = set()
        for kind, lph in self.footers:
            slide.shapes.clone_placeholder(lph)
            ph = slide.placeholders[lph.placeholder_format.idx]
            self._footer_text(ph.text_frame, kind, words, number)
            placed.add(kind)
        title = self.title_box
        band = Box(title.x, self.height - inch(0.5), title.w, inch(0.34))
        for kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER):
            if kind in placed:
                continue
            box = (band if kind == PP_PLACEHOLDER.FOOTER
                   else Box(band.right - inch(1.2), band.y, inch(1.2), band.h))
            shape = slide.shapes.add_textbox(Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h))
            shape.name = "Footer" if kind == PP_PLACEHOLDER.FOOTER else "Slide number"
            _body(shape.text_frame, (0, 0, 0, 0), "ctr")
            self._footer_text(shape.text_frame, kind, words, number, box=True)

    def _footer_text(self, text_frame, kind: PP_PLACEHOLDER, words: str, number: int,  # noqa: ANN001
                     box: bool = False) -> None:
        paragraph = text_frame.paragraphs[0]
        styled = box or self.own  # a template keeps its own footer look, but the body font
        paragraph.alignment = PP_ALIGN.LEFT if kind == PP_PLACEHOLDER.FOOTER else PP_ALIGN.RIGHT
        size = f' sz="{round(FOOTER * 100)}"' if styled else ""
        fill = '<a:solidFill><a:schemeClr val="tx2"/></a:solidFill>' if styled else ""
        look = f'<a:rPr lang="en-US"{size}>{fill}<a:latin typeface="+mn-lt"/></a:rPr>'
        if kind == PP_PLACEHOLDER.FOOTER:
            paragraph._p.append(tp.xml(f"<a:r>{look}<a:t>{tp._xml_text(words)}</a:t></a:r>")[0])
        else:
            paragraph._p.append(tp.xml(f'<a:fld id="{_SLIDE_NUMBER_FIELD}" type="slidenum">'
                                       f"{look}<a:t>{number}</a:t></a:fld>")[0])

    def notes(self, slide: PptxSlide, text: str) -> None:
        if text:
            slide.notes_slide.notes_text_frame.text = text

    # -- the package

    def finish(self) -> None:
        meta = self.told.meta
        when = moment()
        props = self.prs.core_properties
        props.title = meta.title
        props.subject = meta.subtitle
        props.author = meta.presenter
        props.last_modified_by = meta.presenter
        props.keywords = meta.event
        props.comments = ""
        props.category = ""
        props.language = meta.language
        props.revision = 1
        props.created = when
        props.modified = when
        props.last_printed = when
        package = self.prs.part.package
        for r_id, rel in list(package._rels.items()):
            if rel.reltype == RT.THUMBNAIL:  # a picture of the template, not of this deck
                package.drop_rel(r_id)
            elif rel.reltype == RT.EXTENDED_PROPERTIES:
                rel.target_part._blob = self._app_xml()

    def _app_xml(self) -> bytes:
        slides = len(self.prs.slides)
        notes = sum(1 for slide in self.prs.slides if slide.has_notes_slide)
        four_three = abs(self.width / self.height - 4 / 3) < 0.01
        shape = "16:9" if self.width / self.height > 1.5 else "4:3" if four_three else "custom"
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Properties xmlns="{_OFFICE}/extended-properties" '
            f'xmlns:vt="{_OFFICE}/docPropsVTypes">'
            f"<Application>deckgen</Application><PresentationFormat>On-screen Show ({shape})"
            f"</PresentationFormat><Slides>{slides}</Slides><Notes>{notes}</Notes>"
            "<HiddenSlides>0</HiddenSlides></Properties>").encode("utf-8")


def moment() -> datetime:
    """The time recorded in the package: SOURCE_DATE_EPOCH when set, else a fixed date."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    epoch = DEFAULT_EPOCH
    if raw:
        try:
            epoch = int(raw)
        except ValueError:
            raise InputError(Problem(f"must be a whole number of seconds, got {raw!r}",
                                     path="SOURCE_DATE_EPOCH")) from None
    return datetime.fromtimestamp(max(epoch, ZIP_EPOCH), tz=timezone.utc).replace(tzinfo=None)


def repack(data: bytes, when: datetime) -> bytes:
    """The package with every entry stamped `when`, in a stable order, with fixed attributes."""
    stamp = (when.year, when.month, when.day, when.hour, when.minute, when.second)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        names = source.namelist()
        ordered = ["[Content_Types].xml"] + sorted(n for n in names if n != "[Content_Types].xml")
        for name in ordered:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            target.writestr(info, source.read(name), compresslevel=6)
    return out.getvalue()


def plan_deck(told: st.Story, template: bytes | None = None,
              walk: tuple[st.Slide, ...] = ()) -> tuple[list[SlidePlan], PresentationObject, bool]:
    """The slide plans for the story on its template (with `walk` after the dial slide)."""
    prs, own = tp.open_deck(told, template)
    slides = list(told.slides)
    at = next((i for i, s in enumerate(slides) if s.kind == "dial"), len(slides)) + 1
    slides[at:at] = walk
    return Planner(told, tp.geometry(prs, own)).plan(slides), prs, own


def render(told: st.Story, *, template: bytes | None = None,
           walk: tuple[st.Slide, ...] = ()) -> bytes:
    """The deck as .pptx bytes: the story's slides, with `walk` after the dial slide."""
    plans, prs, own = plan_deck(told, template, walk)
    writer = Writer(prs, told, own)
    for number, plan in enumerate(plans, 1):
        writer.add(number, plan)
    writer.finish()
    raw = io.BytesIO()
    prs.save(raw)
    return repack(raw.getvalue(), moment())
