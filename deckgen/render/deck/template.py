"""The template: python-pptx's blank presentation made deckgen's, or the presenter's own.

python-pptx only. Opens the template (or makes the default one, sized to the aspect, with the
content's theme colours and fonts), picks the cover and content layouts by the kinds of
placeholder they hold, and reads the geometry the slide plans need (`geometry`), so the plans
themselves never touch the file format.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import SlideLayout
from pptx.util import Emu

from deckgen import fmt
from deckgen import story as st
from deckgen.content import Theme
from deckgen.errors import InputError, Problem
from deckgen.layout.fit import TypeScale
from deckgen.render.deck.plan import EMU_PER_IN, LOOSE, TIGHT, Box, emu, inch
from deckgen.render.deck.slides import (
    SLIDE_HEIGHT,
    SLIDE_WIDTHS,
    Geometry,
    content_room,
    default_geometry,
    scale_height,
)

# The slide kinds deckgen puts on the content layout, by their ids in content.yaml.
CONTENT_KINDS = ("meanings", "dial", "workloads", "experiments", "bottleneck", "presets",
                 "ceiling", "precious", "checklist", "sources", "closing")
FOOTER_TYPES = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)
TITLE_TYPES = (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE)


def xml(snippet: str):  # noqa: ANN201
    """DrawingML elements from a snippet, under a throwaway root that declares `a:`."""
    return parse_xml(f"<root {nsdecls('a')}>{snippet}</root>")


def _in(inches: float) -> int:
    return inch(inches)


def _inches(emu: int | None) -> Fraction:
    """A template's length, exactly, for the layouts listing."""
    return Fraction(int(emu or 0), EMU_PER_IN)


def open_deck(told: st.Story, template: bytes | None) -> tuple[PresentationObject, bool]:
    if template is None:
        return _default_presentation(told.meta.aspect, told.theme), True
    try:
        prs = Presentation(io.BytesIO(template))
    except Exception as err:  # python-pptx raises many kinds for a file that is not a deck
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({_why(err)}); save the "
                                 "template as .pptx and try again", path="--template")) from None
    _drop_slides(prs)
    return prs, False


def _why(err: Exception) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return text[:120]


def _drop_slides(prs: PresentationObject) -> None:
    """Remove a template's own slides; their parts are then unreachable and not saved."""
    id_list = prs.slides._sldIdLst
    for sld_id in list(id_list):
        prs.part.drop_rel(sld_id.rId)
        id_list.remove(sld_id)


def _default_presentation(aspect: str, theme: Theme) -> PresentationObject:
    """python-pptx's blank presentation, resized to `aspect`, with the content's theme and a
    master laid out for a talk: kicker and title at the top left, footer along the bottom."""
    prs = Presentation()
    width = SLIDE_WIDTHS[aspect]
    ratio = width / prs.slide_width
    prs.slide_width, prs.slide_height = Emu(width), Emu(SLIDE_HEIGHT)
    sld_sz = prs.part._element.find(qn("p:sldSz"))
    sld_sz.attrib.pop("type", None)
    _set_theme(prs, theme)

    own = default_geometry(aspect)
    margin = own.title.x
    inner = width - 2 * margin
    master = prs.slide_master
    places = {
        PP_PLACEHOLDER.TITLE: own.title,
        PP_PLACEHOLDER.BODY: Box(margin, _in(2.3), inner, _in(4.5)),
        PP_PLACEHOLDER.DATE: Box(margin + inner - _in(4.2), _in(7.04), _in(2.2), _in(0.3)),
        PP_PLACEHOLDER.FOOTER: Box(margin, _in(7.04), round(inner * 0.7), _in(0.3)),
        PP_PLACEHOLDER.SLIDE_NUMBER: Box(margin + inner - _in(1.5), _in(7.04), _in(1.5), _in(0.3)),
    }
    for ph in master.placeholders:
        box = places.get(ph.placeholder_format.type)
        if box:
            ph.left, ph.top, ph.width, ph.height = Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h)
        body_pr = ph._element.txBody.find(qn("a:bodyPr"))
        for key in ("lIns", "rIns"):
            body_pr.set(key, "0")
        if ph.placeholder_format.type == PP_PLACEHOLDER.TITLE:
            body_pr.set("anchor", "t")
            body_pr.set("tIns", "0")
            body_pr.set("bIns", "0")
            for child in list(body_pr):
                body_pr.remove(child)
            body_pr.append(xml("<a:noAutofit/>")[0])
        if ph.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
            for lvl in ph._element.txBody.iter(qn("a:lvl1pPr")):
                lvl.set("algn", "l")
    title_style = master._element.find(qn("p:txStyles")).find(qn("p:titleStyle"))
    lvl1 = title_style.find(qn("a:lvl1pPr"))
    lvl1.set("algn", "l")
    lvl1.find(qn("a:defRPr")).set("b", "1")
    lvl1.find(qn("a:defRPr")).set("sz", "4000")

    for layout in prs.slide_layouts:
        for ph in layout.placeholders:
            kind = ph.placeholder_format.type
            xfrm = ph._element.spPr.find(qn("a:xfrm"))
            if xfrm is None:
                continue
            if kind in (PP_PLACEHOLDER.TITLE, *FOOTER_TYPES):
                ph._element.spPr.remove(xfrm)  # follow the master
            elif kind == PP_PLACEHOLDER.CENTER_TITLE:
                box = own.cover_title
                _place(ph, box)
                body_pr = ph._element.txBody.find(qn("a:bodyPr"))
                body_pr.set("anchor", "b")
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
            elif kind == PP_PLACEHOLDER.SUBTITLE:
                assert own.cover_second is not None
                box = own.cover_second[0]
                _place(ph, box)
                body_pr = ph._element.txBody.find(qn("a:bodyPr"))
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
                for lvl in ph._element.txBody.find(qn("a:lstStyle")):
                    lvl.set("algn", "l")
            else:
                off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
                off.set("x", str(round(int(off.get("x")) * ratio)))
                ext.set("cx", str(round(int(ext.get("cx")) * ratio)))
    return prs


def _set_theme(prs: PresentationObject, theme: Theme) -> None:
    """Write the content's colours and fonts into the theme every slide refers to."""
    part = prs.slide_master.part.part_related_by(RT.THEME)
    xml = part.blob.decode("utf-8")
    colours = {"dk1": theme.text, "lt1": theme.background, "dk2": theme.muted, "lt2": theme.rule,
               "accent1": theme.accent, "accent2": theme.muted, "accent3": theme.rule,
               "hlink": theme.accent, "folHlink": theme.muted}
    for slot, value in colours.items():
        xml = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                     f'<a:{slot}><a:srgbClr val="{value.lstrip("#").upper()}"/></a:{slot}>', xml,
                     count=1, flags=re.S)
    for kind, family in (("majorFont", theme.heading_font), ("minorFont", theme.body_font)):
        xml = re.sub(rf'(<a:{kind}><a:latin typeface=")[^"]*(")', rf"\g<1>{_xml_attr(family)}\g<2>",
                     xml, count=1)
    xml = re.sub(r'(<a:theme [^>]*name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    xml = re.sub(r'(<a:clrScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    xml = re.sub(r'(<a:fontScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    part._blob = xml.encode("utf-8")


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attr(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def theme_of(prs: PresentationObject, fallback: Theme) -> Theme:
    """The colours and fonts of a deck's theme, for drawing its charts."""
    xml = prs.slide_master.part.part_related_by(RT.THEME).blob.decode("utf-8", "replace")

    def colour(slot: str, default: str) -> str:
        found = re.search(rf"<a:{slot}>\s*<a:(?:srgbClr val|sysClr [^>]*lastClr)="
                          rf"\"([0-9A-Fa-f]{{6}})\"", xml)
        return f"#{found.group(1).upper()}" if found else default

    def family(kind: str, default: str) -> str:
        found = re.search(rf'<a:{kind}>\s*<a:latin typeface="([^"]+)"', xml)
        return found.group(1) if found else default

    return replace(fallback, text=colour("dk1", fallback.text),
                   background=colour("lt1", fallback.background),
                   muted=colour("dk2", fallback.muted), rule=colour("lt2", fallback.rule),
                   accent=colour("accent1", fallback.accent),
                   heading_font=family("majorFont", fallback.heading_font),
                   body_font=family("minorFont", fallback.body_font))


def _layouts(prs: PresentationObject) -> Iterator[tuple[int, int, SlideLayout]]:
    for m, master in enumerate(prs.slide_masters):
        for i, layout in enumerate(master.slide_layouts):
            yield m, i, layout


def _types(layout: SlideLayout) -> list[PP_PLACEHOLDER]:
    return [ph.placeholder_format.type for ph in layout.placeholders]


def pick_layouts(prs: PresentationObject) -> tuple[SlideLayout, SlideLayout]:
    """The title slide's layout and the content slides' layout, chosen by the kinds of
    placeholder they hold, never by name."""
    layouts = [layout for _, _, layout in _layouts(prs)]
    kinds_of = {lay.part: _types(lay) for lay in layouts}  # each layout's placeholders, once

    def types_of(layout: SlideLayout) -> list[PP_PLACEHOLDER]:
        return kinds_of[layout.part]

    titled = [lay for lay in layouts if any(t in TITLE_TYPES for t in types_of(lay))]
    if not titled:
        raise InputError(Problem("no slide layout in the template has a title placeholder",
                                 path="--template"))

    def extras(layout: SlideLayout) -> int:
        return sum(1 for t in types_of(layout) if t not in (*TITLE_TYPES, *FOOTER_TYPES))

    content_pool = [lay for lay in titled if PP_PLACEHOLDER.TITLE in types_of(lay)] or titled
    content = min(content_pool, key=extras)  # "Title Only" when there is one
    # A layout with a title and one body ("Title and Content") puts the content where its
    # body is; the one with the largest body wins, unless the master's body is larger.
    single = [lay for lay in content_pool
              if sum(1 for t in types_of(lay) if t in BODY_TYPES) == extras(lay) == 1]
    best = usable_area(prs, content)
    for lay in single:
        area = usable_area(prs, lay)
        if area > best:
            content, best = lay, area

    def cover_rank(layout: SlideLayout) -> tuple[int, int]:
        kinds = types_of(layout)
        has_sub = PP_PLACEHOLDER.SUBTITLE in kinds
        if PP_PLACEHOLDER.CENTER_TITLE in kinds and has_sub:
            return (0, extras(layout))
        if has_sub:
            return (1, extras(layout))
        if PP_PLACEHOLDER.BODY in kinds:
            return (2, extras(layout))
        return (3, extras(layout))

    cover = min(titled, key=cover_rank)
    return cover, content



def places(owner: Any) -> list[tuple[PP_PLACEHOLDER, Any]]:  # noqa: ANN401
    """A layout's or master's placeholders with their kinds."""
    return [(ph.placeholder_format.type, ph) for ph in owner.placeholders]


def insets(ph: Any, layout: SlideLayout | None = None) -> tuple[int, int, int, int]:  # noqa: ANN401
    """A placeholder's text insets: its own, else its layout's (when `ph` is on a slide), else
    its master's, else the format's defaults."""
    kind = ph.placeholder_format.type
    chain = [ph._element]
    if layout is not None:
        match = next((lph for lkind, lph in places(layout) if lkind == kind), None)
        if match is not None:
            chain.append(match._element)
    master = layout.slide_master if layout is not None else ph.part.slide_master
    family = {PP_PLACEHOLDER.CENTER_TITLE: PP_PLACEHOLDER.TITLE,
              PP_PLACEHOLDER.SUBTITLE: PP_PLACEHOLDER.BODY}.get(kind, kind)
    chain += [mph._element for mkind, mph in places(master) if mkind in (kind, family)][:1]
    values = []
    for key, default in (("lIns", 91440), ("tIns", 45720), ("rIns", 91440), ("bIns", 45720)):
        for element in chain:
            body_pr = element.find(qn("p:txBody") + "/" + qn("a:bodyPr"))
            if body_pr is not None and body_pr.get(key) is not None:
                values.append(int(body_pr.get(key)))
                break
        else:
            values.append(default)
    return values[0], values[1], values[2], values[3]


# A placeholder's family: the master placeholder a layout's inherits from when it has no
# position of its own, the way PowerPoint resolves it (by type, not by idx or name).
FAMILY = {PP_PLACEHOLDER.CENTER_TITLE: PP_PLACEHOLDER.TITLE,
          PP_PLACEHOLDER.SUBTITLE: PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT: PP_PLACEHOLDER.BODY}
BODY_TYPES = (PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT)


def _box(ph: Any) -> Box:  # noqa: ANN401
    return Box(int(ph.left or 0), int(ph.top or 0), int(ph.width or 0), int(ph.height or 0))


def resolved_box(ph: Any, master: Any = None) -> Box | None:  # noqa: ANN401
    """A layout placeholder's box: its own position, else its master placeholder's of the
    same family; None when neither has one."""
    if ph.left is not None and ph.width is not None and ph.top is not None \
            and ph.height is not None:
        return _box(ph)
    if master is not None:
        kind = FAMILY.get(ph.placeholder_format.type, ph.placeholder_format.type)
        base = next((mph for mkind, mph in places(master) if mkind == kind), None)
        if base is not None and base.width is not None:
            return _box(base)
    return None


def counterpart(layout: SlideLayout, ph: Any) -> Any:  # noqa: ANN401
    """The layout placeholder a slide placeholder inherits from, as PowerPoint finds it: the
    one of the same idx and type, else the first of the same type, else of the same family.
    (python-pptx looks by idx alone, and placeholders without an idx all have idx 0, so a
    subtitle without one would take the title's box.)"""
    kind, idx = ph.placeholder_format.type, ph.placeholder_format.idx
    found = places(layout)
    for test in (lambda k, p: k == kind and p.placeholder_format.idx == idx,
                 lambda k, p: k == kind,
                 lambda k, p: FAMILY.get(k, k) == FAMILY.get(kind, kind)):
        match = next((lph for k, lph in found if test(k, lph)), None)
        if match is not None:
            return match
    return None


def pin(slide_ph: Any, layout: SlideLayout) -> None:  # noqa: ANN401
    """Give a slide's placeholder the box of its true layout counterpart, so every reader
    (PowerPoint, LibreOffice, python-pptx) puts it in the same place."""
    match = counterpart(layout, slide_ph)
    if match is None:
        return
    box = resolved_box(match, layout.slide_master)
    if box is not None:
        _place(slide_ph, box)


def usable_area(prs: PresentationObject, layout: SlideLayout,
                title: Box | None = None, body: Box | None = None) -> int:
    """The area (EMU squared) a layout leaves for content: its body area (or `body`) under its
    title (or `title`), on the slide and above its footer."""
    body = body or body_area(layout)
    if body is None:
        return 0
    master = layout.slide_master
    height = int(prs.slide_height or 0)
    top, bottom = body.y, min(body.bottom, height - _in(0.3))
    for kind, ph in places(layout):
        box = resolved_box(ph, master)
        if box is None:
            continue
        if kind in TITLE_TYPES:  # content goes under the title, as the plans put it
            top = max(top, (title or box).bottom + _in(0.15))
        if kind in FOOTER_TYPES and box.y > height // 2:
            bottom = min(bottom, box.y - _in(0.1))
    return max(0, body.w) * max(0, bottom - top)


def content_frame(prs: PresentationObject, layout: SlideLayout) -> tuple[Box, Box | None]:
    """The title box and the body area of content slides on `layout`: the layout's own, or
    the master's when the layout leaves less room (LibreOffice exports every layout with its
    title slide's boxes, while its master keeps the content slides' ones)."""
    master = layout.slide_master
    title = next(_box(ph) for kind, ph in places(layout) if kind in TITLE_TYPES)
    body = body_area(layout)
    m_title = next((_box(ph) for kind, ph in places(master) if kind == PP_PLACEHOLDER.TITLE
                    and ph.width is not None), None)
    m_body = next((_box(ph) for kind, ph in places(master) if kind == PP_PLACEHOLDER.BODY
                   and ph.width is not None), None)
    if m_title is not None and m_body is not None and m_body.y >= m_title.bottom and \
            usable_area(prs, layout, m_title, m_body) > usable_area(prs, layout) * 1.2:
        return m_title, m_body
    return title, body


def body_area(layout: SlideLayout) -> Box | None:
    """Where a layout puts its body: the largest body or content placeholder it holds, else
    its master's body placeholder."""
    master = layout.slide_master
    boxes = [resolved_box(ph, master) for kind, ph in places(layout) if kind in BODY_TYPES]
    found = [b for b in boxes if b is not None and b.w > 0 and b.h > 0]
    if found:
        return max(found, key=lambda b: b.w * b.h)
    for kind, mph in places(master):
        if kind == PP_PLACEHOLDER.BODY and mph.width is not None:
            return _box(mph)
    return None


def kind_of(slide_id: str) -> str:
    """The slide kind a content.yaml slide id names ('experiments' -> 'experiment')."""
    return "experiment" if slide_id == "experiments" else slide_id


def chosen_layouts(prs: PresentationObject, told: st.Story, name: str
                   ) -> dict[str, SlideLayout]:
    """The layouts content.yaml chose by name (`slides.<id>.layout`), by slide kind; a name
    the template does not have, or a layout without a title, is a located problem with the
    nearest names. Names are compared as plain strings, never as patterns."""
    import difflib

    layouts = [layout for _, _, layout in _layouts(prs)]
    names = [layout.name for layout in layouts]
    found: dict[str, SlideLayout] = {}
    problems = []
    for sid, wanted in told.layouts:
        origin = f"slides.{sid}.layout"
        where = told.where(origin)
        line, col = (where[0], where[1]) if where else (None, None)
        match = next((lay for lay in layouts if lay.name == wanted), None)
        if match is None:
            close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}? " if close else ""
            shown = ", ".join(repr(n) for n in names[:12]) + (", ..." if len(names) > 12 else "")
            problems.append(Problem(f"{wanted!r} is not a layout of --template {name}; {hint}"
                                    f"its layouts are {shown}", told.file, line, col, origin))
        elif not any(k in TITLE_TYPES for k in _types(match)):
            problems.append(Problem(f"layout {wanted!r} of --template {name} has no title "
                                    "placeholder; choose one with a title", told.file, line,
                                    col, origin))
        else:
            found[kind_of(sid)] = match
    if problems:
        raise InputError(problems)
    return found


def geometry(prs: PresentationObject, own: bool, layout: SlideLayout | None = None,
             cover_layout: SlideLayout | None = None) -> Geometry:
    """What the slide plans need of the template: sizes, the title's box and insets, where the
    footer starts, and the cover's placeholders (of `layout` and `cover_layout` when given,
    else of the layouts deckgen picks)."""
    cover, content = pick_layouts(prs)
    content = layout or content
    cover = cover_layout or cover
    width, height = int(prs.slide_width), int(prs.slide_height)
    title = next(ph for kind, ph in places(content) if kind in TITLE_TYPES)
    title_box, body = content_frame(prs, content)
    bottom = height - _in(0.6)
    for kind, lph in places(content):
        if kind in FOOTER_TYPES and int(lph.top) > height // 2:
            bottom = min(bottom, int(lph.top) - _in(0.1))
    cover_places = places(cover)
    cover_title = next(ph for kind, ph in cover_places if kind in TITLE_TYPES)
    kinds = [kind for kind, _ in cover_places]
    second_kind = PP_PLACEHOLDER.SUBTITLE if PP_PLACEHOLDER.SUBTITLE in kinds else \
        PP_PLACEHOLDER.BODY
    second = next((ph for kind, ph in cover_places if kind == second_kind), None)
    if own:
        title_box, body = _box(title), None
    if body is not None:
        bottom = min(bottom, body.bottom)
    return Geometry(
        width=width, height=height, own=own, title=title_box, title_inset=insets(title),
        body=body,
        bottom=bottom, cover_title=_box(cover_title), cover_title_inset=insets(cover_title),
        cover_centred=cover_title.placeholder_format.type == PP_PLACEHOLDER.CENTER_TITLE,
        cover_second=(_box(second), insets(second)) if second is not None else None)


def _tenths_up(emu_: int) -> Fraction:
    return Fraction(math.ceil(emu_ * 10 / EMU_PER_IN), 10)


def _tenths_down(emu_: int) -> Fraction:
    return Fraction(math.floor(emu_ * 10 / EMU_PER_IN), 10)


def template_problems(prs: PresentationObject, g: Geometry, name: str) -> list[Problem]:
    """What a presenter's template cannot hold, whatever the content: one problem per layout
    placeholder too small for the least deckgen sets in it, naming the template, the layout
    and the placeholder."""
    if g.own:
        return []
    cover, content = pick_layouts(prs)
    t = TypeScale.for_height(scale_height(g))
    where = f"--template {name}"
    found: list[Problem] = []

    def short(layout: SlideLayout, what: str, have: int, need: int, how: str = "tall") -> None:
        if have < need:
            found.append(Problem(
                f"layout {layout.name!r}: the {what} placeholder is "
                f"{fmt.measure(_tenths_down(have), 'in', 1)} {how}; it needs at least "
                f"{fmt.measure(_tenths_up(need), 'in', 1)}", path=where))

    inset = g.cover_title_inset
    short(cover, "title", g.cover_title.h, emu(t.title * TIGHT) + inset[1] + inset[3])
    if g.cover_second is not None:
        box, inset = g.cover_second
        kind = "subtitle" if any(k == PP_PLACEHOLDER.SUBTITLE for k, _ in places(cover)) \
            else "body"
        least = emu(t.table * LOOSE + 24 + t.table * 1.2 + 4 + t.table * 1.2)
        short(cover, kind, box.h, least + inset[1] + inset[3])
    inset = g.title_inset
    short(content, "title", g.title.h, emu(t.body * TIGHT) + inset[1] + inset[3])
    have, need = content_room(g)
    whose = "the" if any(k in BODY_TYPES for k, _ in places(content)) else "the master's"
    if have < need:
        found.append(Problem(
            f"layout {content.name!r}: {whose} body placeholder leaves "
            f"{fmt.measure(_tenths_down(have), 'in', 1)} under the title and above the "
            f"footer; it needs at least {fmt.measure(_tenths_up(need), 'in', 1)}", path=where))
    return found


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
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({_why(err)})",
                                 str(path))) from None
    width, height = int(prs.slide_width or 0), int(prs.slide_height or 0)
    theme = theme_of(prs, Theme("", "", "", "", "", "", ""))
    lines = [f"{path}: {fmt.dimensions(_inches(width), _inches(height), 'in')}",
             f"theme: text {theme.text or '?'}, accent {theme.accent or '?'}, "
             f"muted {theme.muted or '?'}, "
             f"background {theme.background or '?'}; fonts {theme.heading_font or '?'} (headings), "
             f"{theme.body_font or '?'} (body)"]
    try:
        cover, content = pick_layouts(prs)
    except InputError:
        cover = content = None
    for m, i, layout in _layouts(prs):
        use = []
        if layout is cover:
            use.append("title slide (title)")
        if layout is content:
            use.append(f"content slides ({', '.join(CONTENT_KINDS)})")
        note = f"  <- deckgen: {', '.join(use)}" if use else ""
        lines.append(f"master {m + 1}, layout {i + 1}: {layout.name!r}{note}")
        for ph in layout.placeholders:
            pf = ph.placeholder_format
            kind = pf.type.name.lower() if pf.type is not None else "?"
            lines.append(f"    idx {pf.idx:>3}  {kind:<14} {ph.name!r} at "
                         f"{fmt.number(_inches(ph.left))}, {fmt.measure(_inches(ph.top), 'in')}, "
                         f"{fmt.dimensions(_inches(ph.width), _inches(ph.height), 'in')}")
    if cover is None:
        lines.append("deckgen cannot use this template: no layout has a title placeholder")
    return "\n".join(lines) + "\n"


def _place(shape: Any, box: Box) -> None:  # noqa: ANN401
    shape.left, shape.top, shape.width, shape.height = (Emu(box.x), Emu(box.y), Emu(box.w),
                                                        Emu(box.h))


# ---------------------------------------------------------------------------------------------
# Colours: the template's theme, checked against each layout's own background

TEXT_CONTRAST = 4.5  # WCAG AA for text
_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two '#RRGGBB' colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _scheme(prs: PresentationObject) -> dict[str, str]:
    """The theme's colour slots as '#RRGGBB' (dk1, lt1, dk2, lt2, accent1...)."""
    part = prs.slide_master.part.part_related_by(RT.THEME)
    root = parse_xml(part.blob)
    found: dict[str, str] = {}
    scheme = root.find(f"{qn('a:themeElements')}/{qn('a:clrScheme')}")
    for slot in scheme if scheme is not None else []:
        name = slot.tag.rsplit("}", 1)[-1]
        for child in slot:
            value = child.get("val") if child.tag == qn("a:srgbClr") else child.get("lastClr")
            if value and _HEX.match(value):
                found[name] = f"#{value.upper()}"
    return found


_MAP_DEFAULT = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}


def _fill_colours(fill: Any, scheme: dict[str, str]) -> list[str]:  # noqa: ANN401
    """The colours of a solid or gradient fill ('#RRGGBB'), theme slots resolved."""
    out = []
    for el in fill.iter(qn("a:srgbClr"), qn("a:schemeClr"), qn("a:sysClr")):
        if el.tag == qn("a:srgbClr"):
            value = el.get("val") or ""
            if _HEX.match(value):
                out.append(f"#{value.upper()}")
        elif el.tag == qn("a:sysClr"):
            value = el.get("lastClr") or ""
            if _HEX.match(value):
                out.append(f"#{value.upper()}")
        else:
            slot = el.get("val") or ""
            slot = _MAP_DEFAULT.get(slot, slot)
            if slot in scheme:
                out.append(scheme[slot])
    return out


def background(layout: SlideLayout, scheme: dict[str, str]) -> tuple[list[str], str]:
    """A layout's own background, as PowerPoint finds it (the layout's, else its master's,
    else the theme's lt1): its colours and its kind ('solid', 'gradient', 'picture')."""
    for owner in (layout, layout.slide_master):
        bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
        if bg is None:
            continue
        if bg.find(f".//{qn('a:blipFill')}") is not None:
            return [scheme.get("lt1", "#FFFFFF")], "picture"
        colours = _fill_colours(bg, scheme)
        if colours:
            kind = "gradient" if bg.find(f".//{qn('a:gradFill')}") is not None else "solid"
            return colours, kind
    return [scheme.get("lt1", "#FFFFFF")], "solid"


def _shape_box(el: Any) -> Box | None:  # noqa: ANN401
    xfrm = el.find(f"{qn('p:spPr')}/{qn('a:xfrm')}")
    if xfrm is None:
        return None
    off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
    if off is None or ext is None:
        return None
    try:
        return Box(int(off.get("x", 0)), int(off.get("y", 0)), int(ext.get("cx", 0)),
                   int(ext.get("cy", 0)))
    except ValueError:
        return None


def _overlap(a: Box, b: Box) -> int:
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return max(0, w) * max(0, h)


def ground(layout: SlideLayout, area: Box | None,
           scheme: dict[str, str]) -> tuple[list[str], str]:
    """What text in `area` sits on: the topmost artwork (a shape or picture of the layout or
    its master, not a placeholder) that covers most of it, else the layout's background."""
    if area is not None and area.w > 0 and area.h > 0:
        for owner in (layout, layout.slide_master):  # the layout's artwork is on top
            tree = owner._element.find(f"{qn('p:cSld')}/{qn('p:spTree')}")
            for el in reversed(list(tree) if tree is not None else []):
                if el.tag not in (qn("p:sp"), qn("p:pic")) or \
                        el.find(f".//{qn('p:ph')}") is not None:
                    continue
                box = _shape_box(el)
                if box is None or _overlap(box, area) * 2 < area.w * area.h:
                    continue
                if el.tag == qn("p:pic") or el.find(f"{qn('p:spPr')}/{qn('a:blipFill')}") \
                        is not None:
                    return [scheme.get("lt1", "#FFFFFF")], "picture"
                sp_pr = el.find(qn("p:spPr"))
                fill = next((c for c in sp_pr if c.tag in (qn("a:solidFill"), qn("a:gradFill")))
                            , None) if sp_pr is not None else None
                if fill is not None:
                    colours = _fill_colours(fill, scheme)
                    if colours:
                        return colours, "shape"
    return background(layout, scheme)


def checked_colours(prs: PresentationObject, layouts: list[SlideLayout], fallback: Theme,
                    name: str) -> tuple[Theme, list[Problem]]:
    """The template's theme colours for text (dk1), muted text (dk2), accent (accent1) and links
    (hlink),
    each checked for TEXT_CONTRAST against every colour of each layout's background (every
    stop of a gradient; a picture's colours cannot be known, so the theme's lt1 stands for
    it). A colour that fails is replaced, in the deck's theme too, by black or white, the one
    that reads best; the warning says so, in one line."""
    scheme = _scheme(prs)
    grounds: list[tuple[str, str, str]] = []  # layout name, colour, kind
    for layout in layouts:
        colours, kind = ground(layout, content_frame(prs, layout)[1] if any(
            k in TITLE_TYPES for k, _ in places(layout)) else None, scheme)
        grounds += [(layout.name, c, kind) for c in colours]
    chosen: dict[str, str] = {}
    changed: list[str] = []
    roles = (("dk1", "text", fallback.text), ("dk2", "muted", fallback.muted),
             ("accent1", "accent", fallback.accent), ("hlink", "link", fallback.accent))
    for slot, role, own in roles:
        colour = scheme.get(slot, own)
        worst = min(grounds, key=lambda g: contrast(colour, g[1]))
        if contrast(colour, worst[1]) >= TEXT_CONTRAST:
            chosen[role] = colour
            continue
        best = _passing(colour if role != "text" else "#808080", [g[1] for g in grounds])
        if role == "text":  # text itself: black or white, whichever reads best
            best = max(("#000000", "#FFFFFF"),
                       key=lambda c: min(contrast(c, g[1]) for g in grounds))
        chosen[role] = best
        changed.append(f"{role} {colour} ({fmt.number(contrast(colour, worst[1]), 1)}:1 on "
                       f"the {worst[2]} {worst[1]} background of layout {worst[0]!r}) -> "
                       f"{best}")
    theme = replace(theme_of(prs, fallback), text=chosen["text"], muted=chosen["muted"],
                    accent=chosen["accent"], background=grounds[0][1])
    warnings = []
    if changed:
        slots = {"dk1": chosen["text"], "dk2": chosen["muted"], "accent1": chosen["accent"],
                 "hlink": chosen["link"]}
        if chosen["text"] == "#FFFFFF":  # light on dark: the light slots become the ground's
            dark = min((g[1] for g in grounds), key=_luminance)
            slots["lt1"] = dark
            slots["lt2"] = _mix(dark, "#FFFFFF", 0.18)
            theme = replace(theme, background=dark, rule=slots["lt2"])
        _set_slots(prs, slots)
        warnings.append(Problem("theme colours below 4.5:1 contrast replaced: "
                                + "; ".join(changed), path=f"--template {name}"))
    return theme, warnings


def _mix(a: str, b: str, k: float) -> str:
    """`a` mixed with `k` of `b`."""
    ca = [int(a.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    cb = [int(b.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * k):02X}" for x, y in zip(ca, cb, strict=True))


def _passing(colour: str, grounds: list[str]) -> str:
    """`colour` darkened (or lightened) in small steps, keeping its hue, until it has
    TEXT_CONTRAST on every one of `grounds`; black or white, the better, when none does."""
    h = colour.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    for step in range(1, 21):
        k = step / 20
        for mixed in ([round(c * (1 - k)) for c in rgb],
                      [round(c + (255 - c) * k) for c in rgb]):
            candidate = "#" + "".join(f"{c:02X}" for c in mixed)
            if all(contrast(candidate, g) >= TEXT_CONTRAST for g in grounds):
                return candidate
    return max(("#000000", "#FFFFFF"), key=lambda c: min(contrast(c, g) for g in grounds))


def _set_slots(prs: PresentationObject, colours: dict[str, str]) -> None:
    """Write `colours` ('#RRGGBB', computed here) into the theme's slots of every master."""
    for master in prs.slide_masters:
        part = master.part.part_related_by(RT.THEME)
        text = part.blob.decode("utf-8")
        for slot, value in colours.items():
            text = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                          f'<a:{slot}><a:srgbClr val="{value.lstrip("#")}"/></a:{slot}>', text,
                          count=1, flags=re.S)
        part._blob = text.encode("utf-8")


def placeholder_colour(prs: PresentationObject, layout: SlideLayout, kinds: tuple[Any, ...],
                       box: Box) -> str | None:
    """The colour to give the text deckgen sets in a placeholder of `kinds` at `box`, or None
    to keep the template's. LibreOffice writes a placeholder's colour on its prompt text
    (which new text does not inherit), so that colour is taken when it reads on what the box
    sits on; else the theme's text colour when it does; else black or white."""
    scheme = _scheme(prs)
    sample = None
    for owner in (layout, layout.slide_master):
        for kind, ph in places(owner):
            if kind in kinds or FAMILY.get(kind, kind) in kinds:
                fill = ph._element.find(f".//{qn('a:r')}/{qn('a:rPr')}/{qn('a:solidFill')}")
                colours = _fill_colours(fill, scheme) if fill is not None else []
                if colours:
                    sample = colours[0]
                    break
        if sample:
            break
    grounds, _ = ground(layout, box, scheme)
    for colour in (sample, scheme.get("dk1")):
        if colour and all(contrast(colour, g) >= TEXT_CONTRAST for g in grounds):
            return colour if colour == sample else None
    return max(("#000000", "#FFFFFF"), key=lambda c: min(contrast(c, g) for g in grounds))


def artwork_share(layout: SlideLayout, area: Box) -> float:
    """How much of `area` the layout's and its master's artwork (shapes and pictures that
    are not placeholders) covers, 0 to 1 (overlaps between pieces counted twice, capped)."""
    if area.w <= 0 or area.h <= 0:
        return 0.0
    covered = 0
    for owner in (layout, layout.slide_master):
        tree = owner._element.find(f"{qn('p:cSld')}/{qn('p:spTree')}")
        for el in list(tree) if tree is not None else []:
            if el.tag not in (qn("p:sp"), qn("p:pic")) or \
                    el.find(f".//{qn('p:ph')}") is not None:
                continue
            box = _shape_box(el)
            if box is not None:
                covered += _overlap(box, area)
    return min(1.0, covered / (area.w * area.h))
