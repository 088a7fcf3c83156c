"""Which of a template's layouts carry the slides, and the geometry the slide kinds are
planned on: placeholders resolved as PowerPoint resolves them, the room each layout leaves off
the artwork, the content frame, and what a template cannot hold.

Pure: the template's values (deckgen.template.model). The cover and the content slides'
layouts are chosen by the kinds of placeholder they hold and by the room they leave for
content off the template's artwork (never by name), unless content.yaml names one
(`slides.<id>.layout`); a template that cannot hold a slide is refused with one line per
placeholder.
"""

from __future__ import annotations

import difflib
import math
from fractions import Fraction

from deckgen import fmt
from deckgen import story as st
from deckgen.box import EMU_PER_IN, Box, emu, inch, overlap
from deckgen.errors import InputError, Problem
from deckgen.plan.geometry import Geometry, content_room, scale_height
from deckgen.plan.grounds import Grounds
from deckgen.plan.items import LOOSE, TIGHT
from deckgen.plan.placeholders import Placeholders
from deckgen.template.model import (
    BODY_KINDS,
    FOOTER_KINDS,
    TITLE_KINDS,
    Layout,
    Placeholder,
    Template,
)
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
    """The layouts of one template deckgen uses, and their geometry."""

    def __init__(self, template: Template, grounds: Grounds) -> None:
        self.template = template
        self.own = template.own
        self.ph = Placeholders(template)
        self.grounds = grounds
        self.cover, self.content = self._pick()
        self._geometry: dict[tuple[int, int], Geometry] = {}

    def number(self, layout: Layout) -> int:
        return self.template.layouts.index(layout)

    def extras(self, layout: Layout) -> int:
        """How many placeholders a layout holds besides its title and footers."""
        return sum(1 for t in layout.kinds() if t not in (*TITLE_KINDS, *FOOTER_KINDS))

    def room(self, layout: Layout) -> float:
        """The content area a layout leaves (EMU squared), less three times the share of it
        the template's artwork (or the drawing in its background picture) covers; halved
        when its title box lies across the edge of a piece of artwork."""
        title, body = self.ph.content_frame(layout)
        if body is None:
            return 0.0
        area = self.ph.usable_area(layout, title, body)
        covered = max(self.ph.artwork_share(layout, body), self.grounds.busy(layout, body))
        # content fills its area, so artwork anywhere in it costs more than its own size
        return area * max(0.0, 1 - 3 * covered) * (0.5 if self.across_band(layout, title)
                                                   else 1.0)

    def across_band(self, layout: Layout, title: Box) -> bool:
        """Whether a title box lies across the edge of a band (a piece of artwork as wide as
        it that covers some of it but not most): a title there reads badly."""
        if title.w <= 0 or title.h <= 0:
            return False
        for piece in self.ph.artwork(layout):
            share = overlap(piece, title) / (title.w * title.h)
            if piece.w * 5 >= title.w * 4 and 0.15 < share < 0.85:
                return True
        return False

    def _pick(self) -> tuple[Layout, Layout]:
        """The title slide's layout and the content slides' layout, chosen by the kinds of
        placeholder they hold, never by name: for content, "Title Only" (the fewest
        placeholders) unless a layout with a title and one body, of any master, leaves
        clearly more room off the artwork; for the cover, a centred title with a subtitle,
        the one whose subtitle sits least on artwork."""
        layouts = list(self.template.layouts)
        titled = [lay for lay in layouts if any(t in TITLE_KINDS for t in lay.kinds())]
        if not titled:  # each title is drawn in a text box where the master puts it
            titled = layouts
        pool = [lay for lay in titled if "title" in lay.kinds()] or titled
        content = min(pool, key=self.extras)  # "Title Only" when there is one
        if not self.own:
            best = self.room(content)
            for lay in pool:
                bodies = sum(1 for t in lay.kinds() if t in BODY_KINDS)
                if self.extras(lay) > 1 or bodies != self.extras(lay):
                    continue
                room = self.room(lay)
                if room > best * BETTER:
                    content, best = lay, room

        def cover_rank(layout: Layout) -> tuple[int, int, float]:
            kinds = layout.kinds()
            has_sub = "subTitle" in kinds
            rank = 0 if "ctrTitle" in kinds and has_sub else \
                1 if has_sub else 2 if "body" in kinds else 3
            on_art = 0.0
            if not self.own:
                second = next((ph for ph in layout.placeholders
                               if ph.kind in ("subTitle", "body")), None)
                box = self.ph.box(second, self.ph.master(layout)) if second is not None \
                    else None
                on_art = round(self.ph.artwork_share(layout, box), 1) if box else 0.0
            return rank, self.extras(layout), on_art

        cover = min(titled, key=cover_rank)
        return cover, content

    def second(self, layout: Layout) -> Placeholder | None:
        """The cover's placeholder for the subtitle, presenter and event: its subtitle, else
        its first body placeholder."""
        return next((p for p in layout.placeholders if p.kind == "subTitle"), None) or \
            next((p for p in layout.placeholders if p.kind in BODY_KINDS), None)

    def geometry(self, layout: Layout | None = None,
                 cover_layout: Layout | None = None) -> Geometry:
        """What the slide plans need of the template: sizes, the title's box and insets,
        where the footer starts, and the cover's placeholders (of `layout` and `cover_layout`
        when given, else of the layouts chosen)."""
        content = layout or self.content
        cover = cover_layout or self.cover
        key = (self.number(content), self.number(cover))
        if key in self._geometry:
            return self._geometry[key]
        ph = self.ph
        title = ph.title(content)  # None: the title goes in a text box in the title band
        title_box, body = ph.content_frame(content)
        bottom = min(ph.height - inch(0.6), ph.footer_top(content) - inch(0.1))
        cover_title = ph.title(cover)
        second = self.second(cover)
        c_master, master = ph.master(cover), ph.master(content)
        if self.own and title is not None:
            title_box, body = ph.box(title, master) or title_box, None
        else:  # titles and content kept off the drawing in a background picture
            title_box = self.grounds.calm(content, title_box)
            body = self.grounds.calm(content, body) if body is not None else None
        if body is not None:
            bottom = min(bottom, body.bottom)
        no_inset = (0, 0, 0, 0)  # a title's text box is drawn without insets
        cover_box = ph.box(cover_title, c_master) if cover_title is not None else None
        found = Geometry(
            width=ph.width, height=ph.height, own=self.own, title=title_box,
            title_inset=ph.insets(title, master) if title is not None else no_inset, body=body,
            bottom=bottom,
            cover_title=cover_box or (ph.content_frame(cover)[0] if cover_title is None
                                      else Box(0, 0, 0, 0)),
            cover_title_inset=ph.insets(cover_title, c_master) if cover_title is not None
            else no_inset,
            cover_centred=cover_title is not None and cover_title.kind == "ctrTitle",
            cover_second=(ph.box(second, c_master) or Box(0, 0, 0, 0),
                          ph.insets(second, c_master)) if second is not None else None)
        self._geometry[key] = found
        return found

    def problems(self, name: str, chosen: dict[str, Layout] | None = None) -> list[Problem]:
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

    def _problems(self, cover: Layout, content: Layout, name: str) -> list[Problem]:
        g = self.geometry(layout=content, cover_layout=cover)
        t = TypeScale.for_height(scale_height(g))
        where = f"--template {name}"
        found: list[Problem] = []

        def short(layout: Layout, what: str, have: int, need: int) -> None:
            if have < need:
                found.append(Problem(
                    f"layout {layout.name!r}: the {what} placeholder is "
                    f"{fmt.measure(tenths_down(have), 'in', 1)} tall; it needs at least "
                    f"{fmt.measure(tenths_up(need), 'in', 1)}", path=where))

        inset = g.cover_title_inset
        short(cover, "title", g.cover_title.h, emu(t.title * TIGHT) + inset[1] + inset[3])
        if g.cover_second is not None:
            box, inset = g.cover_second
            kind = "subtitle" if "subTitle" in cover.kinds() else "body"
            least = emu(t.table * LOOSE + 24 + t.table * 1.2 + 4 + t.table * 1.2)
            short(cover, kind, box.h, least + inset[1] + inset[3])
        inset = g.title_inset
        short(content, "title", g.title.h, emu(t.body * TIGHT) + inset[1] + inset[3])
        have, need = content_room(g)
        whose = "the" if any(k in BODY_KINDS for k in content.kinds()) else "the master's"
        if have < need:
            found.append(Problem(
                f"layout {content.name!r}: {whose} body placeholder leaves "
                f"{fmt.measure(tenths_down(have), 'in', 1)} under the title and above the "
                f"footer; it needs at least {fmt.measure(tenths_up(need), 'in', 1)}",
                path=where))
        return found

    def chosen(self, story: st.Story, name: str) -> dict[str, Layout]:
        """The layouts content.yaml chose by name (`slides.<id>.layout`), by slide kind; a
        name the template does not have is a located problem with the nearest names. Names
        are compared as plain strings, never as patterns."""
        layouts = list(self.template.layouts)
        names = [layout.name for layout in layouts]
        found: dict[str, Layout] = {}
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


def describe(template: Template, path: str) -> str:
    """A template's slide size, theme, layouts and placeholders, and the two layouts deckgen
    would use."""
    slots = template.colours
    lines = [f"{path}: {fmt.dimensions(_inches(template.width), _inches(template.height), 'in')}",
             f"theme: text {slots.get('tx1', '?')}, accent {slots.get('accent1', '?')}, "
             f"muted {slots.get('tx2', '?')}, "
             f"background {slots.get('bg1', '?')}; fonts {template.heading_font or '?'} "
             f"(headings), {template.body_font or '?'} (body)"]
    try:
        chosen: Layouts | None = Layouts(template, Grounds.of(template))
    except InputError:
        chosen = None
    for layout in template.layouts:
        use = []
        if chosen is not None and layout is chosen.cover:
            use.append("title slide (title)")
        if chosen is not None and layout is chosen.content:
            use.append(f"content slides ({', '.join(CONTENT_KINDS)})")
        note = f"  <- deckgen: {', '.join(use)}" if use else ""
        lines.append(f"master {layout.master + 1}, layout {layout.index + 1}: "
                     f"{layout.name!r}{note}")
        master = template.master_of(layout)
        ph = Placeholders(template)
        for p in layout.placeholders:
            box = ph.box(p, master) or Box(0, 0, 0, 0)
            lines.append(f"    idx {p.idx:>3}  {_KIND_NAMES.get(p.kind, p.kind):<14} "
                         f"{p.name!r} at {fmt.number(_inches(box.x))}, "
                         f"{fmt.measure(_inches(box.y), 'in')}, "
                         f"{fmt.dimensions(_inches(box.w), _inches(box.h), 'in')}")
    if chosen is not None and chosen.ph.title(chosen.content) is None:
        lines.append("no layout has a title placeholder: deckgen draws each title in a text "
                     "box where the master puts titles")
    return "\n".join(lines) + "\n"


# How the layouts listing names each kind of placeholder (python-pptx's names, in lower case).
_KIND_NAMES = {"title": "title", "ctrTitle": "center_title", "subTitle": "subtitle",
               "body": "body", "obj": "object", "dt": "date", "ftr": "footer",
               "sldNum": "slide_number", "pic": "picture", "chart": "chart", "tbl": "table",
               "clipArt": "clip_art", "dgm": "org_chart", "media": "media_clip",
               "sldImg": "slide_image", "hdr": "header", "vertTitle": "vertical_title",
               "vertBody": "vertical_body", "vertObj": "vertical_object"}
