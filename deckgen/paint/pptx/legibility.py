"""What keeps a slide's text readable on a template's artwork: a panel behind the items where
the artwork runs under them, a kicker moved off an icon at its start and coloured to read on
the title's ground, a placeholder's text in a colour that reads where it sits.

python-pptx only; a part of the deck's writer (write.Writer), which holds the template's
layouts, placeholders and colours these read.
"""

from __future__ import annotations

from typing import cast

from pptx.dml.color import RGBColor
from pptx.enum.dml import MSO_THEME_COLOR
from pptx.enum.shapes import MSO_SHAPE, PP_PLACEHOLDER
from pptx.oxml.ns import qn
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.slide import Slide as PptxSlide
from pptx.slide import SlideLayout
from pptx.util import Emu

from deckgen.box import Box, inch
from deckgen.colour import TEXT_CONTRAST, contrast, passing
from deckgen.content import Theme
from deckgen.paint.pptx.colours import Colours, fill_colours
from deckgen.paint.pptx.draw import unstyled
from deckgen.paint.pptx.layouts import Layouts
from deckgen.paint.pptx.placeholders import Placeholders, overlap, place, shape_box
from deckgen.plan.items import SlidePlan


class Legibility:
    """The writer's checks of its text against the template's grounds; a template of deckgen's
    own (`own`) needs none of them."""

    own: bool
    layouts: Layouts
    ph: Placeholders
    colours: Colours
    theme: Theme

    def backdrop(self, slide: PptxSlide, layout: SlideLayout, plan: SlidePlan) -> None:
        """On a template whose artwork runs under the content area (more than a tenth of it),
        a panel in the background colour behind the slide's items, so they read."""
        title = self.layouts.geometry(layout=layout).title
        items = [i for i in plan.items if i.box.y >= title.bottom - inch(0.05)]  # not the title's
        if self.own or not items:
            return
        left = min(i.box.x for i in items)
        top = min(i.box.y for i in items)
        right = max(i.box.right for i in items)
        bottom = max(i.box.bottom for i in items)
        area = Box(left, top, right - left, bottom - top)  # the items keep inside their area
        busy = self.colours.busy(layout, area)
        if self.ph.artwork_share(layout, area) <= 0.1 and busy <= 0.1:
            return
        if busy <= 0.1 and self.colours.ground(layout, area)[1] in ("shape", "picture"):
            return  # one piece of artwork under all of it: the colours were checked on it
        shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(area.x), Emu(area.y),
                                       Emu(area.w), Emu(area.h))
        shape.name = "Backdrop"
        unstyled(shape)
        shape.fill.solid()
        shape.fill.fore_color.theme_color = MSO_THEME_COLOR.BACKGROUND_1
        shape.line.fill.background()
        tree = shape._element.getparent()
        tree.remove(shape._element)
        tree.insert(2, shape._element)  # under the title and everything else on the slide

    def kicker_on_title(self, slide: PptxSlide, layout: SlideLayout) -> None:
        """A kicker is kept off small artwork at its start; one set inside a template's title
        box (over the title) sits on the title's ground, not the content's: the accent there
        is made to read on it, in its hue."""
        if self.own:
            return
        title = self.layouts.geometry(layout=layout).title
        for shape in slide.shapes:
            if shape.name != "Kicker" or not shape.has_text_frame:
                continue
            box = self.clear_of_art(shape, layout)
            if box.y >= title.bottom - inch(0.05):
                continue
            grounds, _ = self.colours.ground(layout, box)
            if all(contrast(self.theme.accent, g) >= TEXT_CONTRAST for g in grounds):
                continue
            colour = rgb(passing(self.theme.accent, grounds))
            for paragraph in cast(Shape, shape).text_frame.paragraphs:
                for run in paragraph.runs:
                    run.font.color.rgb = colour

    def kicker_box(self, box: Box, layout: SlideLayout) -> Box:
        """`box` moved right, off the small pieces of the layout's and master's artwork (an
        icon, a mark) that cover its start; `box` itself when no room is left beside them."""
        pieces = [piece for owner in (layout, layout.slide_master)
                  for _, piece in self.ph.artwork(owner)
                  if piece.w < box.w // 3 and not self.ph.covers_slide(piece)]
        start = box
        moved = True
        while moved and box.w * 5 >= start.w * 3:  # an icon is often several pieces in a row
            moved = False
            for piece in pieces:
                if piece.x < box.x + inch(0.15) and piece.right > box.x \
                        and overlap(piece, box) > 0:
                    shift = piece.right + inch(0.08) - box.x
                    box = Box(box.x + shift, box.y, box.w - shift, box.h)
                    moved = True
        return start if box.w * 5 < start.w * 3 else box

    def clear_of_art(self, shape: BaseShape, layout: SlideLayout) -> Box:
        """A kicker's box moved right, off a small piece of artwork (an icon, a mark) that
        covers its start; its box, as it ends up."""
        start = shape_box(shape)
        box = self.kicker_box(start, layout)
        if box != start:
            place(shape, box)
        return box

    def readable(self, ph: Shape, layout: SlideLayout,
                 kinds: tuple[PP_PLACEHOLDER, ...]) -> None:
        """A template's placeholder text in a colour that reads on what the placeholder sits
        on (the template's own look where it does); a run with a colour role of its own
        (muted, accent) keeps it where it reads there too."""
        if self.own:
            return
        box = shape_box(ph)
        colour = self.colours.for_placeholder(layout, kinds, box)
        grounds, _ = self.colours.ground(layout, box)
        for paragraph in ph.text_frame.paragraphs:
            for run in paragraph.runs:
                fill = run._r.find(f"{qn('a:rPr')}/{qn('a:solidFill')}")
                own = fill_colours(fill, self.colours.scheme) if fill is not None else []
                if own and all(contrast(own[0], g) >= TEXT_CONTRAST for g in grounds):
                    continue
                if own:  # a role's colour that does not read here: its hue, made to
                    run.font.color.rgb = rgb(passing(own[0], grounds))
                elif colour is not None:
                    run.font.color.rgb = rgb(colour)


def rgb(colour: str) -> RGBColor:
    """python-pptx's colour for '#RRGGBB'."""
    found: RGBColor = RGBColor.from_string(colour.lstrip("#"))  # type: ignore[no-untyped-call]
    return found


