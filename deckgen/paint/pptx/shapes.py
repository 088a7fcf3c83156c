"""The placed deck's shapes drawn on a python-pptx slide: text boxes, rectangles, pictures, QR
codes, charts and native tables (tables.py); their text is written by text.py.

python-pptx only. Every box, colour and line is the placed deck's; colours are theme
references where it names a role, so a template's theme colours carry through. Charts are
native chart parts (charts/) by default, or matplotlib pictures with `charts="picture"`.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import Protocol

from pptx.enum.shapes import MSO_SHAPE
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.shapes.group import GroupShape
from pptx.slide import Slide as PptxSlide
from pptx.util import Emu, Pt

from deckgen.box import Box
from deckgen.paint.pptx import compat, text
from deckgen.paint.pptx.colours import THEME_COLOUR
from deckgen.paint.pptx.tables import draw_table
from deckgen.plan.placed import Chart, Colour, Image, Qr, Rect, TableBox, TextBox
from deckgen.plan.placed import Shape as Placed


class PictureSource(Protocol):
    """What draws the charts as pictures (`--charts picture`): the build's chart cache."""

    def render(self, chart: Chart, *, dpi: int = 200) -> bytes:
        """One placed chart as PNG bytes, exactly its box's size."""
        ...


class Drawer:
    """Draws placed shapes on slides: charts as native chart parts whose workbooks record
    `created` or, with `charts="picture"`, as PNG pictures from `cache` (the build's chart
    pictures); every run of text tagged with the language `lang`."""

    def __init__(self, charts: str, created: datetime, cache: PictureSource | None,
                 lang: str) -> None:
        self.charts = charts
        self.created = created
        self.cache = cache
        self.lang = lang

    def draw(self, slide: PptxSlide, shape: Placed) -> BaseShape:
        if isinstance(shape, TextBox):
            return self.text_box(slide, shape)
        if isinstance(shape, Rect):
            return plain_shape(slide, shape.box, shape.fill, shape.outline, shape.name)
        if isinstance(shape, Chart):
            return self.chart(slide, shape)
        if isinstance(shape, Qr):
            return qr(slide, shape)
        if isinstance(shape, Image):
            return picture(slide, shape)
        assert isinstance(shape, TableBox)
        return draw_table(slide, shape, self.lang)

    def text_box(self, slide: PptxSlide, box: TextBox) -> BaseShape:
        """A text box of the deck's own (a rectangle when it is filled or outlined)."""
        if box.fill is not None or box.outline is not None:
            shape: BaseShape = plain_shape(slide, box.box, box.fill, box.outline, box.name)
        else:
            b = box.box
            shape = slide.shapes.add_textbox(Emu(b.x), Emu(b.y), Emu(b.w), Emu(b.h))
            shape.name = box.name
        text.frame(shape.text_frame, box)  # type: ignore[attr-defined]
        text.write(shape.text_frame, box.paragraphs, self.lang)  # type: ignore[attr-defined]
        return shape

    def chart(self, slide: PptxSlide, placed: Chart) -> BaseShape:
        """A chart in its box, with the chart's alt text and title: a native chart part, or
        a picture at the box's size, 200 dpi."""
        chart, box = placed.chart, placed.box
        if self.charts == "native":
            from deckgen.paint.pptx import charts as native

            frame: BaseShape = native.add_chart(slide, placed, self.created)
            return frame
        if self.cache is not None:
            draw = self.cache.render
        else:
            from deckgen.paint import pictures

            draw = pictures.render
        png = draw(placed, dpi=200)
        box = placed.box
        found = slide.shapes.add_picture(io.BytesIO(png), Emu(box.x), Emu(box.y), Emu(box.w),
                                         Emu(box.h))
        found.name = placed.name
        compat.describe(found, chart.alt_text, chart.title)
        return found


def plain_shape(slide: PptxSlide | GroupShape, box: Box, fill: Colour | None,
                outline: tuple[Colour, float] | None, name: str) -> Shape:
    """A rectangle in its box, filled and outlined in the theme's colours (or neither)."""
    shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(box.x), Emu(box.y), Emu(box.w),
                                   Emu(box.h))
    shape.name = name
    compat.unstyled(shape)
    if fill is not None:
        shape.fill.solid()
        shape.fill.fore_color.theme_color = THEME_COLOUR[fill.role]
        if fill.brightness:
            shape.fill.fore_color.brightness = fill.brightness
    else:
        shape.fill.background()
    if outline is not None:
        shape.line.fill.solid()
        shape.line.fill.fore_color.theme_color = THEME_COLOUR[outline[0].role]
        shape.line.width = Pt(outline[1])
    else:
        shape.line.fill.background()
    return shape


def picture(slide: PptxSlide, image: Image) -> BaseShape:
    """A presenter's picture in its box, cropped as placed, with its alt text as the
    picture's description."""
    b = image.box
    found = slide.shapes.add_picture(io.BytesIO(image.picture.data), Emu(b.x), Emu(b.y),
                                     Emu(b.w), Emu(b.h))
    found.name = image.name
    left, top, right, bottom = image.crop
    if any(image.crop):
        found.crop_left, found.crop_top = left, top
        found.crop_right, found.crop_bottom = right, bottom
    compat.describe(found, image.alt)
    return found


def qr(slide: PptxSlide, code: Qr) -> BaseShape:
    """A QR code as a group of a background square and one shape in the text colour whose
    path holds every run of dark modules, so it scales and prints sharp."""
    group = slide.shapes.add_group_shape()
    group.name = code.name
    plain_shape(group, code.box, code.light, None, "QR background")
    dark = compat.qr_shape(group.shapes, code.runs)
    dark.name = "QR modules"
    compat.unstyled(dark)
    dark.fill.solid()
    dark.fill.fore_color.theme_color = THEME_COLOUR[code.dark.role]
    dark.line.fill.background()
    compat.describe(group, f"QR code for {code.url}")
    return group
