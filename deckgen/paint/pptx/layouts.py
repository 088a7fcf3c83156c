"""Which of a template's layouts carry the slides, and what the slide plans need of them.

python-pptx only. The cover and the content slides' layouts are chosen by the kinds of
placeholder they hold and by the room they leave for content off the template's artwork
(never by name), unless content.yaml names one (`slides.<id>.layout`). Their geometry is read
once per build (`Layouts.geometry`), so the plans never touch the file format, and a template
that cannot hold a slide is refused with one line per placeholder.
"""

from __future__ import annotations

import difflib
import io
import math
from fractions import Fraction
from pathlib import Path

from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import SlideLayout

from deckgen import fmt
from deckgen import story as st
from deckgen.box import EMU_PER_IN, Box, emu, inch
from deckgen.content import Theme
from deckgen.errors import InputError, Problem
from deckgen.paint.pptx.colours import Colours
from deckgen.paint.pptx.placeholders import (
    BODY_TYPES,
    FOOTER_TYPES,
    TITLE_TYPES,
    Placeholders,
    all_layouts,
    overlap,
    shape_box,
)
from deckgen.paint.pptx.template import theme_of, why
from deckgen.plan.geometry import Geometry, content_room, scale_height
from deckgen.plan.items import LOOSE, TIGHT
from deckgen.typeset.fit import TypeScale

# The slide kinds deckgen puts on the content layout, by their ids in content.yaml.
CONTENT_KINDS = ("meanings", "dial", "workloads", "experiments", "bottleneck", "presets",
                 "ceiling", "precious", "checklist", "sources", "closing")
BETTER = 1.05  # how much more room (off the artwork) another layout must leave to be chosen


def kind_of(slide_id: str) -> str:
    """The slide kind a content.yaml slide id names ('experiments' -> 'experiment')."""
    return "experiment" if slide_id == "experiments" else slide_id


def tenths_up(length: int) -> Fraction:
    return Fraction(math.ceil(length * 10 / EMU_PER_IN), 10)


def tenths_down(length: int) -> Fraction:
    return Fraction(math.floor(length * 10 / EMU_PER_IN), 10)


class Layouts:
    """The layouts of one template deckgen uses, and their geometry, read once per build."""

    def __init__(self, prs: PresentationObject, own: bool = False) -> None:
        self.prs = prs
        self.own = own
        self.ph = Placeholders(prs)
        self.colours = Colours(prs, self.ph)
        self.cover, self.content = self._pick()
        self._geometry: dict[tuple[object, object], Geometry] = {}

    def extras(self, layout: SlideLayout) -> int:
        """How many placeholders a layout holds besides its title and footers."""
        return sum(1 for t in self.ph.kinds(layout) if t not in (*TITLE_TYPES, *FOOTER_TYPES))

    def room(self, layout: SlideLayout) -> float:
        """The content area a layout leaves (EMU squared), less three times the share of it
        the template's artwork (or the drawing in its background picture) covers; halved
        when its title box lies across the edge of a piece of artwork."""
        title, body = self.ph.content_frame(layout)
        if body is None:
            return 0.0
        area = self.ph.usable_area(layout, title, body)
        covered = max(self.ph.artwork_share(layout, body), self.colours.busy(layout, body))
        # content fills its area, so artwork anywhere in it costs more than its own size
        return area * max(0.0, 1 - 3 * covered) * (0.5 if self.across_band(layout, title)
                                                   else 1.0)

    def across_band(self, layout: SlideLayout, title: Box) -> bool:
        """Whether a title box lies across the edge of a band (a piece of artwork as wide as
        it that covers some of it but not most): a title there reads badly."""
        if title.w <= 0 or title.h <= 0:
            return False
        for owner in (layout, layout.slide_master):
            for _, piece in self.ph.artwork(owner):
                share = overlap(piece, title) / (title.w * title.h)
                if piece.w * 5 >= title.w * 4 and 0.15 < share < 0.85:
                    return True
        return False

    def _pick(self) -> tuple[SlideLayout, SlideLayout]:
        """The title slide's layout and the content slides' layout, chosen by the kinds of
        placeholder they hold, never by name: for content, "Title Only" (the fewest
        placeholders) unless a layout with a title and one body, of any master, leaves
        clearly more room off the artwork; for the cover, a centred title with a subtitle,
        the one whose subtitle sits least on artwork."""
        layouts = [layout for _, _, layout in all_layouts(self.prs)]
        titled = [lay for lay in layouts if any(t in TITLE_TYPES for t in self.ph.kinds(lay))]
        if not titled:  # each title is drawn in a text box where the master puts it
            titled = layouts
        pool = [lay for lay in titled if PP_PLACEHOLDER.TITLE in self.ph.kinds(lay)] or titled
        content = min(pool, key=self.extras)  # "Title Only" when there is one
        if not self.own:
            best = self.room(content)
            for lay in pool:
                bodies = sum(1 for t in self.ph.kinds(lay) if t in BODY_TYPES)
                if self.extras(lay) > 1 or bodies != self.extras(lay):
                    continue
                room = self.room(lay)
                if room > best * BETTER:
                    content, best = lay, room

        def cover_rank(layout: SlideLayout) -> tuple[int, int, float]:
            kinds = self.ph.kinds(layout)
            has_sub = PP_PLACEHOLDER.SUBTITLE in kinds
            rank = 0 if PP_PLACEHOLDER.CENTER_TITLE in kinds and has_sub else \
                1 if has_sub else 2 if PP_PLACEHOLDER.BODY in kinds else 3
            on_art = 0.0
            if not self.own:
                second = next((ph for k, ph in self.ph.places(layout)
                               if k in (PP_PLACEHOLDER.SUBTITLE, PP_PLACEHOLDER.BODY)), None)
                box = self.ph.box(second, layout.slide_master) if second is not None else None
                on_art = round(self.ph.artwork_share(layout, box), 1) if box else 0.0
            return rank, self.extras(layout), on_art

        cover = min(titled, key=cover_rank)
        return cover, content

    def geometry(self, layout: SlideLayout | None = None,
                 cover_layout: SlideLayout | None = None) -> Geometry:
        """What the slide plans need of the template: sizes, the title's box and insets,
        where the footer starts, and the cover's placeholders (of `layout` and `cover_layout`
        when given, else of the layouts chosen)."""
        content = layout or self.content
        cover = cover_layout or self.cover
        key = (content.part, cover.part)
        if key in self._geometry:
            return self._geometry[key]
        ph = self.ph
        width, height = ph.width, ph.height
        title = ph.title(content)  # None: the title goes in a text box in the title band
        title_box, body = ph.content_frame(content)
        bottom = min(height - inch(0.6), ph.footer_top(content) - inch(0.1))
        cover_places = ph.places(cover)
        cover_title = ph.title(cover)
        second = next((p for kind, p in cover_places if kind == PP_PLACEHOLDER.SUBTITLE),
                      None) or next((p for kind, p in cover_places if kind in BODY_TYPES), None)
        if self.own and title is not None:
            title_box, body = shape_box(title), None
        else:  # titles and content kept off the drawing in a background picture
            title_box = self.colours.calm(content, title_box)
            body = self.colours.calm(content, body) if body is not None else None
        if body is not None:
            bottom = min(bottom, body.bottom)
        no_inset = (0, 0, 0, 0)  # a title's text box is drawn without insets
        found = Geometry(
            width=width, height=height, own=self.own, title=title_box,
            title_inset=ph.insets(title) if title is not None else no_inset, body=body,
            bottom=bottom,
            cover_title=shape_box(cover_title) if cover_title is not None
            else ph.content_frame(cover)[0],
            cover_title_inset=ph.insets(cover_title) if cover_title is not None else no_inset,
            cover_centred=cover_title is not None
            and cover_title.placeholder_format.type == PP_PLACEHOLDER.CENTER_TITLE,
            cover_second=(shape_box(second), ph.insets(second)) if second is not None else None)
        self._geometry[key] = found
        return found

    def problems(self, name: str, chosen: dict[str, SlideLayout] | None = None
                 ) -> list[Problem]:
        """What a presenter's template cannot hold, whatever the content: one problem per
        layout placeholder too small for the least deckgen sets in it, naming the template,
        the layout and the placeholder; the layouts content.yaml chose are checked too."""
        if self.own:
            return []
        found = self._problems(self.cover, self.content, name)
        for kind, layout in (chosen or {}).items():
            cover, content = (layout, self.content) if kind == "title" else (self.cover, layout)
            found += [p for p in self._problems(cover, content, name) if p not in found]
        return found

    def _problems(self, cover: SlideLayout, content: SlideLayout, name: str) -> list[Problem]:
        g = self.geometry(layout=content, cover_layout=cover)
        t = TypeScale.for_height(scale_height(g))
        where = f"--template {name}"
        found: list[Problem] = []

        def short(layout: SlideLayout, what: str, have: int, need: int) -> None:
            if have < need:
                found.append(Problem(
                    f"layout {layout.name!r}: the {what} placeholder is "
                    f"{fmt.measure(tenths_down(have), 'in', 1)} tall; it needs at least "
                    f"{fmt.measure(tenths_up(need), 'in', 1)}", path=where))

        inset = g.cover_title_inset
        short(cover, "title", g.cover_title.h, emu(t.title * TIGHT) + inset[1] + inset[3])
        if g.cover_second is not None:
            box, inset = g.cover_second
            kind = "subtitle" if PP_PLACEHOLDER.SUBTITLE in self.ph.kinds(cover) else "body"
            least = emu(t.table * LOOSE + 24 + t.table * 1.2 + 4 + t.table * 1.2)
            short(cover, kind, box.h, least + inset[1] + inset[3])
        inset = g.title_inset
        short(content, "title", g.title.h, emu(t.body * TIGHT) + inset[1] + inset[3])
        have, need = content_room(g)
        whose = "the" if any(k in BODY_TYPES for k in self.ph.kinds(content)) else "the master's"
        if have < need:
            found.append(Problem(
                f"layout {content.name!r}: {whose} body placeholder leaves "
                f"{fmt.measure(tenths_down(have), 'in', 1)} under the title and above the "
                f"footer; it needs at least {fmt.measure(tenths_up(need), 'in', 1)}",
                path=where))
        return found

    def chosen(self, story: st.Story, name: str) -> dict[str, SlideLayout]:
        """The layouts content.yaml chose by name (`slides.<id>.layout`), by slide kind; a
        name the template does not have is a located problem with the nearest names. Names
        are compared as plain strings, never as patterns."""
        layouts = [layout for _, _, layout in all_layouts(self.prs)]
        names = [layout.name for layout in layouts]
        found: dict[str, SlideLayout] = {}
        problems = []
        for sid, wanted in story.layouts:
            origin = f"slides.{sid}.layout"
            where = story.where(origin)
            line, col = (where[0], where[1]) if where else (None, None)
            match = next((lay for lay in layouts if lay.name == wanted), None)
            if match is None:
                close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.5)
                hint = f"did you mean {close[0]!r}? " if close else ""
                shown = ", ".join(repr(n) for n in names[:12]) + \
                    (", ..." if len(names) > 12 else "")
                problems.append(Problem(f"{wanted!r} is not a layout of --template {name}; "
                                        f"{hint}its layouts are {shown}", story.file, line, col,
                                        origin))
            else:  # a layout without a title placeholder gets its title in a text box
                found[kind_of(sid)] = match
        if problems:
            raise InputError(problems)
        return found


def _inches(length: int | None) -> Fraction:
    """A template's length, exactly, for the layouts listing."""
    return Fraction(int(length or 0), EMU_PER_IN)


def describe_layouts(path: Path) -> str:
    """A template's slide size, theme, layouts and placeholders, and the two layouts deckgen
    would use."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise InputError(Problem(f"cannot be read: {err.strerror}", str(path))) from None
    try:
        prs = Presentation(io.BytesIO(data))
    except Exception as err:  # python-pptx raises many kinds for a file that is not a deck
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({why(err)})",
                                 str(path))) from None
    width, height = int(prs.slide_width or 0), int(prs.slide_height or 0)
    theme = theme_of(prs, Theme("", "", "", "", "", "", ""))
    lines = [f"{path}: {fmt.dimensions(_inches(width), _inches(height), 'in')}",
             f"theme: text {theme.text or '?'}, accent {theme.accent or '?'}, "
             f"muted {theme.muted or '?'}, "
             f"background {theme.background or '?'}; fonts {theme.heading_font or '?'} "
             f"(headings), {theme.body_font or '?'} (body)"]
    try:
        chosen: Layouts | None = Layouts(prs)
    except InputError:
        chosen = None
    for m, i, layout in all_layouts(prs):
        use = []
        if chosen is not None and layout is chosen.cover:
            use.append("title slide (title)")
        if chosen is not None and layout is chosen.content:
            use.append(f"content slides ({', '.join(CONTENT_KINDS)})")
        note = f"  <- deckgen: {', '.join(use)}" if use else ""
        lines.append(f"master {m + 1}, layout {i + 1}: {layout.name!r}{note}")
        for ph in iter(layout.placeholders):
            pf = ph.placeholder_format
            kind = pf.type.name.lower() if pf.type is not None else "?"
            lines.append(f"    idx {pf.idx:>3}  {kind:<14} {ph.name!r} at "
                         f"{fmt.number(_inches(ph.left))}, {fmt.measure(_inches(ph.top), 'in')}, "
                         f"{fmt.dimensions(_inches(ph.width), _inches(ph.height), 'in')}")
    if chosen is not None and chosen.ph.title(chosen.content) is None:
        lines.append("no layout has a title placeholder: deckgen draws each title in a text "
                     "box where the master puts titles")
    return "\n".join(lines) + "\n"
