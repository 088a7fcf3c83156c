"""The template: python-pptx's blank presentation made deckgen's, or the presenter's own.

python-pptx only. Opens the presenter's template (its own slides dropped) or makes the default
one, sized to the aspect, with the content's theme colours and fonts, and reads a theme's
colours and fonts. Which layouts carry the slides is layouts.py's; placeholders are resolved
in placeholders.py, colours checked in colours.py.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.presentation import Presentation as PresentationObject
from pptx.util import Emu

from deckgen import fonts
from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.content import Theme
from deckgen.errors import InputError, Problem
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.placeholders import FOOTER_TYPES, place
from deckgen.plan.geometry import SLIDE_HEIGHT, SLIDE_WIDTHS, default_geometry


def xml(snippet: str) -> Any:  # noqa: ANN401 (an lxml element)
    """DrawingML elements from a snippet, under a throwaway root that declares `a:`."""
    return parse_xml(f"<root {nsdecls('a')}>{snippet}</root>")


def _in(inches: float) -> int:
    return inch(inches)


def open_deck(story: st.Story, template: bytes | None) -> tuple[PresentationObject, bool]:
    if template is None:
        return _default_presentation(story.meta.aspect, story.theme), True
    try:
        prs = Presentation(io.BytesIO(template))
    except Exception as err:  # python-pptx raises many kinds for a file that is not a deck
        raise InputError(Problem(f"is not a PowerPoint .pptx file ({why(err)}); save the "
                                 "template as .pptx and try again", path="--template")) from None
    compat.drop_slides(prs)
    if story.theme.fonts_named:
        _set_fonts(prs, story.theme)
    return prs, False


def carrying_fonts(story: st.Story, prs: PresentationObject) -> st.Story:
    """The story with the theme fonts its deck carries, which draw every title and text: a
    template's major and minor fonts, or the content's `theme.fonts` written into it."""
    theme = theme_of(prs, story.theme)
    if (theme.heading_font, theme.body_font) == (story.theme.heading_font,
                                                 story.theme.body_font):
        return story
    return replace(story, theme=replace(story.theme, heading_font=theme.heading_font,
                                        body_font=theme.body_font))


def unknown_fonts(theme: Theme) -> Problem | None:
    """One warning line for theme fonts with no known metric twin: they are measured with a
    wider stand-in, so text may wrap where the real face would not have."""
    unknown = list(dict.fromkeys(f for f in (theme.heading_font, theme.body_font)
                                 if not fonts.known(f)))
    if not unknown:
        return None
    names = " and ".join(repr(f) for f in unknown)
    return Problem(f"the theme font {names} has no known metric twin: its text is measured "
                   f"with {fonts.STAND_IN} and {round((fonts.STAND_IN_SLACK - 1) * 100)}% "
                   "slack, so it may break earlier than it needs to; name a face deckgen "
                   f"measures exactly ({', '.join(fonts.MEASURED)}) in theme.fonts "
                   "(heading, body) to set it", path="theme.fonts")


def why(err: Exception) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return text[:120]


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
        for ph in iter(layout.placeholders):
            kind = ph.placeholder_format.type
            xfrm = ph._element.spPr.find(qn("a:xfrm"))
            if xfrm is None:
                continue
            if kind in (PP_PLACEHOLDER.TITLE, *FOOTER_TYPES):
                ph._element.spPr.remove(xfrm)  # follow the master
            elif kind == PP_PLACEHOLDER.CENTER_TITLE:
                box = own.cover_title
                place(ph, box)
                body_pr = ph._element.find(f"{qn('p:txBody')}/{qn('a:bodyPr')}")
                body_pr.set("anchor", "b")
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
            elif kind == PP_PLACEHOLDER.SUBTITLE:
                assert own.cover_second is not None
                box = own.cover_second[0]
                place(ph, box)
                body_pr = ph._element.find(f"{qn('p:txBody')}/{qn('a:bodyPr')}")
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
                for lvl in ph._element.find(f"{qn('p:txBody')}/{qn('a:lstStyle')}"):
                    lvl.set("algn", "l")
            else:
                off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
                off.set("x", str(round(int(off.get("x")) * ratio)))
                ext.set("cx", str(round(int(ext.get("cx")) * ratio)))
    return prs


def _set_theme(prs: PresentationObject, theme: Theme) -> None:
    """Write the content's colours and fonts into the theme every slide refers to."""
    compat.edit_theme(prs.slide_master, lambda xml: _themed(xml, theme))


def _themed(xml: str, theme: Theme) -> str:
    colours = {"dk1": theme.text, "lt1": theme.background, "dk2": theme.muted, "lt2": theme.rule,
               "accent1": theme.accent, "accent2": theme.muted, "accent3": theme.rule,
               "hlink": theme.accent, "folHlink": theme.muted}
    for slot, value in colours.items():
        xml = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                     f'<a:{slot}><a:srgbClr val="{value.lstrip("#").upper()}"/></a:{slot}>', xml,
                     count=1, flags=re.S)
    xml = _with_fonts(xml, theme)
    xml = re.sub(r'(<a:theme [^>]*name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    xml = re.sub(r'(<a:clrScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)
    return re.sub(r'(<a:fontScheme name=")[^"]*(")', r"\g<1>deckgen\g<2>", xml, count=1)


def _set_fonts(prs: PresentationObject, theme: Theme) -> None:
    """Write the content's fonts into a template's theme (the content named them)."""
    for master in prs.slide_masters:
        compat.edit_theme(master, lambda xml: _with_fonts(xml, theme))


def _with_fonts(xml: str, theme: Theme) -> str:
    """A theme's XML with `theme`'s heading (major) and body (minor) Latin fonts."""
    for kind, family in (("majorFont", theme.heading_font), ("minorFont", theme.body_font)):
        name = _xml_attr(family).replace("\\", "\\\\")  # a backslash is kept as it is
        xml = re.sub(rf'(<a:{kind}>\s*<a:latin typeface=")[^"]*(")', rf"\g<1>{name}\g<2>", xml,
                     count=1)
    return xml


def xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attr(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def theme_of(prs: PresentationObject, fallback: Theme) -> Theme:
    """The colours and fonts of a deck's theme, for drawing its charts."""
    xml = compat.theme_xml(prs.slide_master)

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


