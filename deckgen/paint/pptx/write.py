"""The writer: slide plans drawn into a python-pptx presentation, saved as stable bytes.

python-pptx only. Every text is set in a real text box, placeholder or native table at the
size its plan chose (the items are drawn by draw.py); a `--template`'s theme colours and fonts
carry through.

The same story gives the same bytes: python-pptx saves the package, with fixed timestamps in
docProps/core.xml and in the zip (the `epoch` the build passes in, SOURCE_DATE_EPOCH's, else
2000-01-01T00:00:00Z) and its entries in a stable order (package.save).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.enum.text import PP_ALIGN
from pptx.oxml.ns import qn
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.shapes.placeholder import LayoutPlaceholder
from pptx.slide import Slide as PptxSlide
from pptx.slide import SlideLayout
from pptx.text.text import TextFrame
from pptx.util import Emu

from deckgen import fonts, locale
from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.errors import InputError, Problem
from deckgen.paint.pptx.draw import ChartPictures, draw_items
from deckgen.paint.pptx.layouts import Layouts
from deckgen.paint.pptx.legibility import Legibility
from deckgen.paint.pptx.package import finish, moment, save
from deckgen.paint.pptx.paragraphs import frame_setup, write_paras
from deckgen.paint.pptx.placeholders import (
    BODY_TYPES,
    TITLE_TYPES,
    place,
    shape_box,
    union,
)
from deckgen.paint.pptx.template import (
    carrying_fonts,
    open_deck,
    theme_of,
    unknown_fonts,
    xml,
    xml_text,
)
from deckgen.plan.items import WIDTH_SAFETY, Para, SlidePlan
from deckgen.plan.kinds import plan_slides

FOOTER = 12.0  # points: the footer and the slide number, the only text outside the type scale
FOOTER_LEAST = 9.0  # points: the least a template's footer is shrunk to, to keep it on its box

_SLIDE_NUMBER_FIELD = "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}"


class Writer(Legibility):
    """Adds planned slides to a presentation: each on its layout, its title, items, footer and
    notes; legibility.py keeps its text readable on a template's artwork."""

    def __init__(self, layouts: Layouts, story: st.Story, name: str = "template.pptx",
                 by_kind: dict[str, SlideLayout] | None = None) -> None:
        self.prs = prs = layouts.prs
        self.layouts = layouts
        self.ph = layouts.ph
        self.colours = layouts.colours
        self.cache: ChartPictures | None = None  # the build's chart cache, for picture charts
        self.when = moment(None)  # recorded in the package and the charts' workbooks
        self.charts = "native"  # "native" chart parts, or "picture" (matplotlib PNGs)
        self.story = story
        self.lang = locale.office_tag(story.meta.language)  # on every run: 'de-DE'
        self.own = own = layouts.own
        self.cover, self.content = layouts.cover, layouts.content
        self.warnings: list[Problem] = []
        self.by_kind = by_kind or {}  # layouts chosen by name, by slide kind
        if own:
            self.theme = story.theme
        else:
            cover = self.by_kind.get("title", self.cover)
            g = layouts.geometry(cover_layout=cover)
            text_area = g.cover_title if g.cover_second is None else \
                union(g.cover_title, g.cover_second[0])
            used = [self.content, *(lay for kind, lay in self.by_kind.items() if kind != "title")]
            unique = list({lay.part: lay for lay in used}.values())
            # The theme's colours are judged on the ground of the slides that use them: the
            # content slides' layouts; the cover's only when its text is drawn in text boxes
            # in the theme's colours (no subtitle or body placeholder: each placeholder's
            # text is given a colour that reads on its own ground, `readable`).
            boxed = not any(k in (PP_PLACEHOLDER.SUBTITLE, *BODY_TYPES)
                            for k in self.ph.kinds(cover))
            self.theme, self.warnings = self.colours.checked(
                [*([(cover, text_area)] if boxed else []), *((lay, None) for lay in unique)],
                theme_of(prs, story.theme), name)
        self.width, self.height = self.ph.width, self.ph.height
        self.footers = [(kind, ph) for kind, ph in self.ph.places(self.content)
                        if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)]
        title = self.ph.title(self.content)
        self.title_box = shape_box(title) if own and title is not None else \
            layouts.geometry().title
        self.title_inset = layouts.geometry().title_inset

    def new_slide(self, layout: SlideLayout, cover: bool = False) -> PptxSlide:
        """A slide on `layout` with only its title (and, on the cover, one subtitle or body
        placeholder) left of the placeholders the layout brings."""
        slide: PptxSlide = self.prs.slides.add_slide(layout)
        second: tuple[PP_PLACEHOLDER, ...] | None = None
        if cover:
            kinds = [ph.placeholder_format.type for ph in slide.placeholders]
            second = ((PP_PLACEHOLDER.SUBTITLE,) if PP_PLACEHOLDER.SUBTITLE in kinds
                      else BODY_TYPES)
        for ph in list(slide.placeholders):
            kind = ph.placeholder_format.type
            if kind in TITLE_TYPES:
                self.ph.pin(ph, layout)
                continue
            if second is not None and kind in second:
                second = None  # keep the first one only
                self.ph.pin(ph, layout)
                continue
            ph._element.getparent().remove(ph._element)
        return slide

    def draw_with(self, charts: str, cache: ChartPictures | None, when: datetime) -> None:
        """How the slides are drawn: charts "native" or "picture" (from `cache`, the build's
        chart pictures), the package and the charts' workbooks dated `when`."""
        self.charts, self.cache, self.when = charts, cache, when

    def layout_of(self, plan: SlidePlan) -> SlideLayout:
        """The layout a planned slide goes on."""
        if plan.cover:
            return self.by_kind.get("title", self.cover)
        return self.by_kind.get(plan.kind, self.content)

    def add(self, number: int, plan: SlidePlan) -> None:
        if plan.cover:
            self.add_cover(plan)
            return
        layout = self.layout_of(plan)
        slide = self.new_slide(layout)
        g = self.layouts.geometry(layout=layout)
        title = slide.shapes.title or title_box(slide, g.title)
        if not self.own:  # the master's, when the layout's leaves no room
            place(title, g.title)
        anchor = plan.extra.get("title_anchor")
        frame_setup(title.text_frame, g.title_inset, anchor if isinstance(anchor, str) else
                    "t" if not title.is_placeholder else None)
        write_paras(title.text_frame, plan.title, plan.title_sizes,
                    placeholder=title.is_placeholder, lang=self.lang)
        self.readable(title, layout, TITLE_TYPES)
        self.backdrop(slide, layout, plan)
        draw_items(slide, plan.items, self.theme, self.charts, self.when, self.cache, self.lang)
        self.kicker_on_title(slide, layout)
        self.footer(slide, number, layout)
        self.notes(slide, plan.notes)

    def add_cover(self, plan: SlidePlan) -> None:
        cover = self.layout_of(plan)
        slide = self.new_slide(cover, cover=True)
        title = slide.shapes.title
        if title is None:
            title = title_box(slide, self.layouts.geometry(cover_layout=cover).cover_title)
            frame_setup(title.text_frame, (0, 0, 0, 0), "b")
        else:
            frame_setup(title.text_frame, self.ph.insets(title, cover),
                        "b" if self.own else None)
        write_paras(title.text_frame, plan.title, plan.title_sizes,
                    placeholder=title.is_placeholder, lang=self.lang)
        self.readable(title, cover, TITLE_TYPES)
        second = plan.extra.get("second")
        subtitle = next((ph for ph in slide.placeholders
                         if ph.placeholder_format.type not in TITLE_TYPES), None)
        if second is not None and subtitle is not None:
            paras, sizes = cast(tuple[list[Para], list[float]], second)
            frame_setup(subtitle.text_frame, self.ph.insets(subtitle, cover),
                        "t" if self.own else None)
            write_paras(subtitle.text_frame, paras, sizes, placeholder=True, lang=self.lang)
            self.readable(subtitle, cover, (PP_PLACEHOLDER.SUBTITLE, *BODY_TYPES))
        draw_items(slide, plan.items, self.theme, self.charts, self.when, self.cache, self.lang)
        self.notes(slide, plan.notes)

    def footer(self, slide: PptxSlide, number: int, layout: SlideLayout | None = None) -> None:
        """The event and date in the footer placeholder, the number in the slide-number one."""
        words = self.story.event_line
        placed = set()
        footers = self.footers if layout is None or layout is self.content else \
            [(kind, ph) for kind, ph in self.ph.places(layout)
             if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)]
        if not self.own and self.numbers_itself(layout or self.content):
            placed.add(PP_PLACEHOLDER.SLIDE_NUMBER)  # the template's artwork shows it
            footers = [(kind, ph) for kind, ph in footers if kind != PP_PLACEHOLDER.SLIDE_NUMBER]
        for kind, lph in footers:
            slide.shapes.clone_placeholder(cast(LayoutPlaceholder, lph))
            ph = slide.placeholders[lph.placeholder_format.idx]
            size = None
            if not self.own:
                ph.text_frame.word_wrap = False  # a narrow footer must not break the date
                if kind == PP_PLACEHOLDER.FOOTER:
                    size = self.footer_size(lph, layout or self.content, words)
            self._footer_text(ph.text_frame, kind, words, number, size=size)
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
            frame_setup(shape.text_frame, (0, 0, 0, 0), "ctr")
            self._footer_text(shape.text_frame, kind, words, number, box=True)

    def numbers_itself(self, layout: SlideLayout) -> bool:
        """Whether the layout's or its master's artwork (not a placeholder) shows the slide
        number itself, in a slide-number field (Midnightblue's circle)."""
        return any(el.find(f".//{qn('a:fld')}[@type='slidenum']") is not None
                   for owner in (layout, layout.slide_master)
                   for el, _ in self.ph.artwork(owner))

    def footer_size(self, lph: BaseShape, layout: SlideLayout, words: str) -> float | None:
        """The size (points) to set a template's footer at so `words` fit its box on one
        line: None when they fit at the template's own size, else the largest half point
        that fits (never under FOOTER_LEAST)."""
        box = self.ph.box(lph, layout.slide_master)
        if box is None:
            return None
        own, bold = self.ph.text_size(lph, layout)
        inset = self.ph.insets(lph)
        room = (box.w - inset[0] - inset[2]) / 12700
        face = fonts.face(self.theme.body_font, bold)
        wide = face.width(words, own) / WIDTH_SAFETY
        if wide <= room:
            return None
        return max(FOOTER_LEAST, math.floor(own * room / wide * 2) / 2)

    def _footer_text(self, text_frame: TextFrame, kind: PP_PLACEHOLDER, words: str,
                     number: int, box: bool = False, size: float | None = None) -> None:
        paragraph = text_frame.paragraphs[0]
        styled = box or self.own  # a template keeps its own footer look, but the body font
        paragraph.alignment = PP_ALIGN.LEFT if kind == PP_PLACEHOLDER.FOOTER else PP_ALIGN.RIGHT
        size = FOOTER if styled else size
        sz = f' sz="{round(size * 100)}"' if size is not None else ""
        fill = '<a:solidFill><a:schemeClr val="tx2"/></a:solidFill>' if styled else ""
        look = f'<a:rPr lang="{self.lang}"{sz}>{fill}<a:latin typeface="+mn-lt"/></a:rPr>'
        if kind == PP_PLACEHOLDER.FOOTER:
            paragraph._p.append(xml(f"<a:r>{look}<a:t>{xml_text(words)}</a:t></a:r>")[0])
        else:
            paragraph._p.append(xml(f'<a:fld id="{_SLIDE_NUMBER_FIELD}" type="slidenum">'
                                       f"{look}<a:t>{number}</a:t></a:fld>")[0])

    def notes(self, slide: PptxSlide, text: str) -> None:
        """The speaker notes, on the notes page python-pptx makes for `slide` (none without
        notes)."""
        if text:
            frame = slide.notes_slide.notes_text_frame
            assert frame is not None  # python-pptx's notes page has its body placeholder
            frame.text = text
            for paragraph in frame.paragraphs:  # the speaker's spell checker reads them too
                for run in paragraph.runs:
                    run._r.get_or_add_rPr().set("lang", self.lang)


def title_box(slide: PptxSlide, box: Box) -> Shape:
    """A text box for the title of a slide whose layout has no title placeholder, in the
    layout's (or its master's) title band."""
    shape = slide.shapes.add_textbox(Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h))
    shape.name = "Title"
    return shape


def plan_deck(story: st.Story, template: bytes | None = None,
              walk: tuple[st.Slide, ...] = (), template_name: str = "template.pptx"
              ) -> tuple[list[SlidePlan], Layouts, dict[str, SlideLayout]]:
    """The slide plans for the story on its template (with `walk` after the dial slide), the
    template's layouts and those content.yaml chose by slide kind. A template too small to
    hold a slide is refused first, one line per placeholder."""
    prs, own = open_deck(story, template)
    story = carrying_fonts(story, prs)  # measured with the faces that will draw it
    layouts = Layouts(prs, own)
    slides = list(story.slides)
    at = next((i for i, s in enumerate(slides) if s.kind == "dial"), len(slides)) + 1
    slides[at:at] = walk
    geometry = layouts.geometry()
    chosen = {} if own else layouts.chosen(story, template_name)
    problems = layouts.problems(template_name, chosen)
    if problems:
        raise InputError(problems)
    kinds = {kind: layouts.geometry(cover_layout=layout) if kind == "title"
             else layouts.geometry(layout=layout) for kind, layout in chosen.items()}
    return plan_slides(story, geometry, kinds, slides), layouts, chosen


@dataclass(frozen=True)
class Laid:
    """The deck laid out, before anything is drawn: every slide's plan, and the writer that
    adds them to the template's presentation (its theme's colours already checked). The
    deck and the presenter kit (planned.py) are drawn from one."""

    plans: list[SlidePlan]
    writer: Writer
    warnings: tuple[Problem, ...]  # the theme's fonts with no twin, the colours replaced


def lay_out(story: st.Story, template: bytes | None = None,
            walk: tuple[st.Slide, ...] = (), template_name: str = "template.pptx") -> Laid:
    """The story's slides planned on its template, with `walk` after the dial slide."""
    plans, layouts, chosen = plan_deck(story, template, walk, template_name)
    writer = Writer(layouts, story, template_name, chosen)
    unknown = unknown_fonts(carrying_fonts(story, layouts.prs).theme)
    return Laid(plans, writer, (*([unknown] if unknown else []), *writer.warnings))


def render(story: st.Story, *, template: bytes | None = None,
           walk: tuple[st.Slide, ...] = (), charts: str = "native",
           template_name: str = "template.pptx",
           warn: Callable[[Problem], None] | None = None,
           cache: ChartPictures | None = None, epoch: int | None = None,
           laid: Laid | None = None) -> bytes:
    """The deck as .pptx bytes: the story's slides, with `walk` after the dial slide (or the
    slides `laid` out already); a template's colours that had to be replaced are passed to
    `warn`; charts as native chart parts or, with `charts="picture"`, as PNG pictures from
    `cache` (the build's chart cache); dated `epoch` (SOURCE_DATE_EPOCH's seconds; None:
    2000-01-01). A laid-out deck is drawn once: its presentation is the one written."""
    laid = laid or lay_out(story, template, walk, template_name)
    when = moment(epoch)
    writer = laid.writer
    writer.draw_with(charts, cache, when)
    for problem in laid.warnings:
        if warn is not None:
            warn(problem)
    for number, plan in enumerate(laid.plans, 1):
        writer.add(number, plan)
    finish(writer.prs, story.meta, when, notes=sum(1 for plan in laid.plans if plan.notes))
    return save(writer.prs, when)
