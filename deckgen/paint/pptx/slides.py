"""The placed deck drawn into a python-pptx presentation and saved as stable bytes.

python-pptx only. The template (deckgen's own master, or the presenter's) is opened with its
own slides dropped, the theme's colours and fonts the plan chose are written into it, and each
placed slide is added on its layout: its placeholders kept where the plan uses them (placed
where it puts them), the footers cloned from the layout, every other shape drawn by
shapes.py, the speaker notes on its notes page. Nothing is decided here.

The same deck gives the same bytes: python-pptx saves the package, with fixed timestamps in
docProps/core.xml and in the zip (the `epoch` the build passes in, SOURCE_DATE_EPOCH's, else
2000-01-01T00:00:00Z) and its entries in a stable order (package.save).
"""

from __future__ import annotations

import io

from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.presentation import Presentation as PresentationObject
from pptx.shapes.base import BaseShape
from pptx.slide import Slide as PptxSlide
from pptx.slide import SlideLayout
from pptx.util import Emu

from deckgen import template as templates
from deckgen.content import Meta
from deckgen.paint.pptx import compat, text
from deckgen.paint.pptx.package import finish, moment, save
from deckgen.paint.pptx.shapes import Drawer, PictureSource
from deckgen.plan.placed import Deck, PlacedSlide, TextBox


def paint(deck: Deck, template: bytes, meta: Meta, *, charts: str = "native",
          cache: PictureSource | None = None, epoch: int | None = None) -> bytes:
    """The deck as .pptx bytes, drawn on `template` (the bytes of the .pptx the deck was
    planned on); charts as native chart parts or, with `charts="picture"`, as PNG pictures
    from `cache`; dated `epoch` (SOURCE_DATE_EPOCH's seconds; None: 2000-01-01)."""
    prs = Presentation(io.BytesIO(template))
    compat.drop_slides(prs)
    _theme(prs, deck)
    when = moment(epoch)
    layouts = [layout for master in prs.slide_masters for layout in master.slide_layouts]
    drawer = Drawer(charts, when, cache, deck.language)
    for placed in deck.slides:
        _slide(prs.slides.add_slide(layouts[placed.layout]), layouts[placed.layout], placed,
               drawer, deck.language)
    finish(prs, meta, when, notes=sum(1 for s in deck.slides if s.notes))
    return save(prs, when)


def _theme(prs: PresentationObject, deck: Deck) -> None:
    """The theme's colour slots and fonts as the plan chose them, in every master's theme
    (deckgen's own master's theme named deckgen's)."""
    slots = dict(deck.theme_slots)
    fonts = deck.theme_fonts
    if not slots and fonts is None:
        return
    heading, body = fonts if fonts is not None else (None, None)
    masters = [prs.slide_master] if deck.theme_named else list(prs.slide_masters)
    for master in masters:
        compat.edit_theme(master, lambda xml: templates.themed(
            xml, slots, heading, body, "deckgen" if deck.theme_named else None))


def _slide(slide: PptxSlide, layout: SlideLayout, placed: PlacedSlide, drawer: Drawer,
           lang: str) -> None:
    """One placed slide: the layout's placeholders it uses kept (the rest removed), every
    shape drawn, stacked bottom first as placed; the notes."""
    every = list(iter(layout.placeholders))
    cloneable = [k for k, ph in enumerate(every) if ph.placeholder_format.type not in _LATENT]
    on_slide = dict(zip(cloneable, list(iter(slide.placeholders)), strict=True))
    used = {s.placeholder for s in placed.shapes
            if isinstance(s, TextBox) and s.placeholder is not None and not s.cloned}
    for index, shape in on_slide.items():
        if index not in used:
            compat.remove(shape)
    order: list[BaseShape] = []
    for shape in placed.shapes:
        if isinstance(shape, TextBox) and shape.placeholder in used and not shape.cloned:
            order.append(_placeholder(on_slide[shape.placeholder], shape, lang))
        elif isinstance(shape, TextBox) and shape.cloned:
            order.append(_cloned(slide, layout, shape, lang))
        else:
            order.append(drawer.draw(slide, shape))
    compat.restack(slide, order)
    if placed.notes:
        frame = slide.notes_slide.notes_text_frame
        assert frame is not None  # python-pptx's notes page has its body placeholder
        frame.text = placed.notes
        compat.run_language(frame, lang)  # the speaker's spell checker reads them too


def _placeholder(shape: BaseShape, box: TextBox, lang: str) -> BaseShape:
    """A placeholder the slide brought, at its placed box, its frame and text as placed."""
    b = box.box
    shape.left, shape.top, shape.width, shape.height = Emu(b.x), Emu(b.y), Emu(b.w), Emu(b.h)
    text.frame(shape.text_frame, box)  # type: ignore[attr-defined]
    text.write(shape.text_frame, box.paragraphs, lang)  # type: ignore[attr-defined]
    return shape


def _cloned(slide: PptxSlide, layout: SlideLayout, box: TextBox, lang: str) -> BaseShape:
    """A footer placeholder of the layout (the slide does not bring it), cloned: its place,
    insets and anchor the layout's; its text as placed."""
    assert box.placeholder is not None
    layout_ph = list(iter(layout.placeholders))[box.placeholder]
    slide.shapes.clone_placeholder(layout_ph)
    shape: BaseShape = slide.placeholders[layout_ph.placeholder_format.idx]
    if box.wrap is False:
        shape.text_frame.word_wrap = False  # type: ignore[attr-defined]
    text.write(shape.text_frame, box.paragraphs, lang)  # type: ignore[attr-defined]
    return shape


# Placeholders a new slide does not bring from its layout (python-pptx's and PowerPoint's rule).
_LATENT = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)
