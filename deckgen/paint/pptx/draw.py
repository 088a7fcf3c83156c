"""Items drawn on a python-pptx slide: text boxes, shapes, pictures, QR codes, charts, and
native tables (tables.py); their paragraphs are set by paragraphs.py.

python-pptx only. Colours are theme references (text, muted = tx2, accent = accent1:
colour_roles.py), so a template's theme colours carry through. Charts are placed by one
function, `place_chart(slide, chart, box, theme)`: native chart parts (charts.py) by default,
or matplotlib pictures with `charts="picture"`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from pptx.enum.shapes import MSO_SHAPE
from pptx.oxml.ns import qn
from pptx.shapes.autoshape import Shape
from pptx.shapes.group import GroupShape
from pptx.slide import Slide as PptxSlide
from pptx.util import Emu, Pt

from deckgen import story as st
from deckgen.box import EMU_PER_IN, Box
from deckgen.content import Theme
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.colour_roles import THEME_COLOUR, is_dark, on_ground
from deckgen.paint.pptx.paragraphs import frame_setup, write_paras
from deckgen.paint.pptx.tables import draw_table
from deckgen.plan.items import ChartItem, Item, PictureItem, QrItem, RectItem, TextItem


class ChartPictures(Protocol):
    """What draws the charts as pictures (`--charts picture`): the build's chart cache."""

    def render(self, chart: st.Chart, theme: Theme, *, width_in: float, height_in: float,
               fmt: str = "png", dpi: int = 200, font_pt: float = 16.0) -> bytes:
        """One chart as PNG bytes, exactly width_in x height_in."""
        ...


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
        shape.fill.fore_color.theme_color = THEME_COLOUR[fill[0]]
        if fill[1]:
            shape.fill.fore_color.brightness = fill[1]
    else:
        shape.fill.background()
    if outline:
        shape.line.fill.solid()
        shape.line.fill.fore_color.theme_color = THEME_COLOUR[outline[0]]
        shape.line.width = Pt(outline[1])
    else:
        shape.line.fill.background()
    return shape


def draw_items(slide: PptxSlide, items: Sequence[Item], theme: Theme, charts: str = "native",
               created: datetime | None = None, cache: ChartPictures | None = None,
               lang: str = "en-US") -> None:
    """Draw `items` on `slide`; charts as native chart parts whose workbooks record `created`
    or, with `charts="picture"`, as PNG pictures from `cache`; every run of text tagged with
    the language `lang` ('de-DE')."""
    dark = is_dark(theme.background)
    for item in items:
        if isinstance(item, TextItem):
            if item.fill or item.outline:
                shape = _plain_shape(slide, item.box, on_ground(item.fill, dark), item.outline,
                                     item.name)
            else:
                shape = slide.shapes.add_textbox(Emu(item.box.x), Emu(item.box.y),
                                                 Emu(item.box.w), Emu(item.box.h))
                shape.name = item.name
            frame_setup(shape.text_frame, item.inset, item.anchor)
            write_paras(shape.text_frame, item.paras, item.sizes, lang=lang)
        elif isinstance(item, RectItem):
            _plain_shape(slide, item.box, on_ground(item.fill, dark), item.outline, item.name)
        elif isinstance(item, ChartItem):
            place_chart(slide, item.chart, item.box, theme, item.name, charts=charts,
                        size=item.size, created=created, font_pt=item.text_pt, cache=cache)
        elif isinstance(item, QrItem):
            _draw_qr(slide, item)
        elif isinstance(item, PictureItem):
            _draw_picture(slide, item)
        else:
            draw_table(slide, item, dark, lang)


def place_chart(slide: PptxSlide, chart: st.Chart, box: Box, theme: Theme,
                name: str = "Chart", *, charts: str = "native", size: float = 14.0,
                created: datetime | None = None, font_pt: float = 16.0,
                cache: ChartPictures | None = None) -> None:
    """Draw `chart` into `box` on `slide`, with the chart's alt text and title: a native chart
    part (labels at `size` points, its workbook dated `created`), or with `charts="picture"`
    a picture at the box's size, 200 dpi, its text at `font_pt`, from `cache` (a build's
    chart cache; without one, drawn here)."""
    if charts == "native":
        from deckgen.paint.pptx import charts as native

        native.add_chart(slide, chart, box.x, box.y, box.w, box.h, name=name, font_pt=size,
                         created=created or native.CREATED)
        return
    if cache is None:
        from deckgen.paint import pictures

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
    from deckgen.plan.qr import modules, qr_runs

    group = slide.shapes.add_group_shape()
    group.name = item.name
    _plain_shape(group, item.box, ("background", 0.0), None, "QR background")
    dark = compat.qr_shape(group.shapes, qr_runs(modules(item.url), item.box))
    dark.name = "QR modules"
    unstyled(dark)
    dark.fill.solid()
    dark.fill.fore_color.theme_color = THEME_COLOUR["text"]
    dark.line.fill.background()
    group._element.nvGrpSpPr.cNvPr.set(  # type: ignore[union-attr]
        "descr", f"QR code for {item.url}")


