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
from deckgen.plan.grounds import Grounds, Owner
from deckgen.plan.items import LOOSE, TIGHT
from deckgen.template.model import (
    BODY_KINDS,
    FOOTER_KINDS,
    TITLE_KINDS,
    Layout,
    Master,
    Placeholder,
    Template,
    family,
)
from deckgen.typeset.fit import TypeScale

# The slide kinds deckgen puts on the content layout, by their ids in content.yaml.
CONTENT_KINDS = ("meanings", "dial", "workloads", "experiments", "bottleneck", "presets",
                 "ceiling", "precious", "checklist", "sources", "closing")
BETTER = 1.05  # how much more room (off the artwork) another layout must leave to be chosen
DEFAULT_INSETS = (91440, 45720, 91440, 45720)  # DrawingML's: 0.1 in left and right, 0.05 in
Insets = tuple[int, int, int, int]


def kind_of(slide_id: str) -> str:
    """The slide kind a content.yaml slide id names ('experiments' -> 'experiment')."""
    return "experiment" if slide_id == "experiments" else slide_id


def tenths_up(length: int) -> Fraction:
    return Fraction(math.ceil(length * 10 / EMU_PER_IN), 10)


def tenths_down(length: int) -> Fraction:
    return Fraction(math.floor(length * 10 / EMU_PER_IN), 10)


class Placeholders:
    """The placeholders of one template, resolved as PowerPoint resolves them."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self.width, self.height = template.width, template.height

    def master(self, layout: Layout) -> Master:
        return self.template.master_of(layout)

    def box(self, ph: Placeholder, master: Master) -> Box | None:
        """A layout placeholder's box: its own position, else its master placeholder's of the
        same family; None when neither has one."""
        if ph.box is not None:
            return ph.box
        kind = family(ph.kind)
        base = next((m for m in master.placeholders if m.kind == kind), None)
        return base.box if base is not None else None

    def master_box(self, master: Master, kind: str) -> Box | None:
        """The box of the master's placeholder of `kind`, when it has one."""
        return next((p.box for p in master.placeholders if p.kind == kind and p.box is not None),
                    None)

    def insets(self, ph: Placeholder, master: Master) -> Insets:
        """A layout placeholder's text insets: its own, else its master's (of its kind or
        family), else the format's defaults."""
        chain = [ph, *[m for m in master.placeholders if m.kind in (ph.kind, family(ph.kind))][:1]]
        values: list[int] = []
        for k, default in enumerate(DEFAULT_INSETS):
            found = next((p.insets[k] for p in chain if p.insets[k] is not None), None)
            values.append(default if found is None else found)
        return values[0], values[1], values[2], values[3]

    def text_size(self, ph: Placeholder, master: Master) -> tuple[float, bool]:
        """The size (points) and boldness a layout placeholder sets its first level of text
        at: its own list style's (or prompt text's), else its master placeholder's, else 18
        pt regular."""
        kind = family(ph.kind)
        chain = [ph, *[m for m in master.placeholders if family(m.kind) == kind][:1]]
        size: float | None = None
        bold: bool | None = None
        for p in chain:
            for look in (p.listed, p.run):
                size = look.size if size is None else size
                bold = look.bold if bold is None else bold
        return size or 18.0, bool(bold)

    def anchor(self, layout: Layout, kinds: tuple[str, ...], default: str) -> str:
        """The vertical anchor a template gives its placeholder of `kinds`: the layout's, else
        the master's."""
        for owner in (layout, self.master(layout)):
            for ph in owner.placeholders:
                if ph.kind in kinds and ph.anchor is not None:
                    return ph.anchor
        return default

    def align(self, layout: Layout, kinds: tuple[str, ...], title: bool) -> str:
        """The alignment a template gives the first level of its placeholder of `kinds` (the
        layout's, else the master's: a block centred in its box, or its list style's; else
        the master's text style)."""
        for owner in (layout, self.master(layout)):
            for ph in owner.placeholders:
                if ph.kind in kinds:
                    if ph.centred:
                        return "ctr"  # the text's block centred in its box
                    if ph.listed.align is not None:
                        return ph.listed.align
        master = self.master(layout)
        style = master.title_style if title else master.body_style
        return style.align or "l"

    def title(self, layout: Layout) -> Placeholder | None:
        """The layout's title placeholder (a centred title counts)."""
        return next((ph for ph in layout.placeholders if ph.kind in TITLE_KINDS), None)

    def title_band(self, master: Master) -> Box:
        """Where a title goes on a layout without a title placeholder: the master's title
        box, else a band across the top of the slide (a text box is drawn there)."""
        found = self.master_box(master, "title") or self.master_box(master, "ctrTitle")
        if found is not None and found.w > 0 and found.h > 0:
            return found
        return Box(round(self.width * 0.06), round(self.height * 0.05),
                   round(self.width * 0.88), round(self.height * 0.16))

    def body_area(self, layout: Layout) -> Box | None:
        """Where a layout puts its body: the largest body or content placeholder it holds,
        else its master's body placeholder."""
        master = self.master(layout)
        boxes = [self.box(ph, master) for ph in layout.placeholders if ph.kind in BODY_KINDS]
        found = [b for b in boxes if b is not None and b.w > 0 and b.h > 0]
        if found:
            return max(found, key=lambda b: b.w * b.h)
        return self.master_box(master, "body")

    def footer_top(self, layout: Layout) -> int:
        """Where the layout's lowest band of footers starts (the slide's height without)."""
        top = self.height
        for ph in layout.placeholders:
            box = self.box(ph, self.master(layout))
            if ph.kind in FOOTER_KINDS and box is not None and box.y > self.height // 2:
                top = min(top, box.y)
        return top

    def usable_area(self, layout: Layout, title: Box | None = None,
                    body: Box | None = None) -> int:
        """The area (EMU squared) a layout leaves for content: its body area (or `body`) under
        its title (or `title`), on the slide and above its footer."""
        body = body or self.body_area(layout)
        if body is None:
            return 0
        top, bottom = body.y, min(body.bottom, self.height - inch(0.3))
        own_title = self.title(layout)
        if own_title is not None:  # content goes under the title, as the plans put it
            box = title or self.box(own_title, self.master(layout))
            if box is not None:
                top = max(top, box.bottom + inch(0.15))
        bottom = min(bottom, self.footer_top(layout) - inch(0.1))
        return max(0, body.w) * max(0, bottom - top)

    def content_frame(self, layout: Layout) -> tuple[Box, Box | None]:
        """The title box and the body area of content slides on `layout`: the layout's own,
        or the master's when the layout leaves less room (LibreOffice exports every layout
        with its title slide's boxes, while its master keeps the content slides' ones). A
        title reaching above the slide is moved down onto it."""
        master = self.master(layout)
        own_title = self.title(layout)
        title = (self.box(own_title, master) if own_title is not None else None) or \
            self.title_band(master)
        body = self.body_area(layout)
        m_title = self.master_box(master, "title")
        m_body = self.master_box(master, "body")
        if m_title is not None and m_body is not None and m_body.y >= m_title.bottom and \
                self.usable_area(layout, m_title, m_body) > self.usable_area(layout) * 1.2:
            title, body = m_title, m_body
        if title.y < 0:
            title = Box(title.x, 0, title.w, min(title.h, max(0, title.bottom) + inch(0.5)))
        if body is not None:
            body = self.off_bands(layout, body)
        return title, body

    def artwork(self, owner: Owner) -> list[Box]:
        return [piece.box for piece in owner.art]

    def covers_slide(self, box: Box) -> bool:
        slide = Box(0, 0, self.width, self.height)
        return overlap(box, slide) >= 0.95 * self.width * self.height

    def off_bands(self, layout: Layout, body: Box) -> Box:
        """`body` shortened (or narrowed) to stay off the artwork that runs into its foot,
        head or sides (a row of notes, a wave, a corner wedge): pieces in its lowest or
        highest third, or its left or right third; never by more than a fifth of it."""
        left, top, right, bottom = body.x, body.y, body.right, body.bottom
        gap = inch(0.1)
        for owner in (layout, self.master(layout)):
            for piece in self.artwork(owner):
                if overlap(piece, body) == 0 or self.covers_slide(piece):
                    continue
                if piece.y >= body.y + body.h * 2 // 3:
                    bottom = min(bottom, piece.y - gap)
                elif piece.bottom <= body.y + body.h // 3:
                    top = max(top, piece.bottom + gap)
                elif piece.x >= body.x + body.w * 2 // 3:
                    right = min(right, piece.x - gap)
                elif piece.right <= body.x + body.w // 3:
                    left = max(left, piece.right + gap)
        left, right = (left, right) if (right - left) * 5 >= body.w * 4 else (body.x, body.right)
        top, bottom = (top, bottom) if (bottom - top) * 5 >= body.h * 4 else (body.y, body.bottom)
        return Box(left, top, right - left, bottom - top)

    def artwork_share(self, layout: Layout, area: Box) -> float:
        """How much of `area` the layout's and its master's artwork covers, 0 to 1 (overlaps
        between pieces counted twice, capped)."""
        if area.w <= 0 or area.h <= 0:
            return 0.0
        covered = sum(overlap(box, area) for owner in (layout, self.master(layout))
                      for box in self.artwork(owner) if not self.covers_slide(box))
        return min(1.0, covered / (area.w * area.h))

    def numbers_itself(self, layout: Layout) -> bool:
        """Whether the layout's or its master's artwork (not a placeholder) shows the slide
        number itself, in a slide-number field (Midnightblue's circle)."""
        return any(piece.numbers for owner in (layout, self.master(layout)) for piece in owner.art)


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
        for owner in (layout, self.ph.master(layout)):
            for piece in self.ph.artwork(owner):
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
             f"theme: text {slots.get('dk1', '?')}, accent {slots.get('accent1', '?')}, "
             f"muted {slots.get('dk2', '?')}, "
             f"background {slots.get('lt1', '?')}; fonts {template.heading_font or '?'} "
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
