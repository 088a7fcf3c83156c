"""Paragraphs set into a python-pptx text frame at the sizes their plan chose, and the frame's
insets and anchor.

python-pptx only. The paragraphs' XML is written directly, the same elements and attributes in
the same order as python-pptx's setters make them (a test compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.text.text import TextFrame
from pptx.util import Emu, Pt

from deckgen.paint.pptx.colour_roles import SCHEME, THEME_COLOUR
from deckgen.paint.pptx.template import xml
from deckgen.plan.items import Para, Run

_ALIGN = {"l": PP_ALIGN.LEFT, "r": PP_ALIGN.RIGHT, "ctr": PP_ALIGN.CENTER}


def write_paras(text_frame: TextFrame, paras: Sequence[Para], sizes: Sequence[float], *,
                placeholder: bool = False, lang: str = "en-US") -> None:
    """Set `paras` into a text frame, replacing what was there.

    The paragraphs' XML is written here in one go, the same elements and attributes in the
    same order as python-pptx's setters would make them; a frame whose first paragraph
    carries properties of its own (which python-pptx's `clear` keeps) goes through
    python-pptx instead."""
    body = text_frame._txBody
    first = body.p_lst[0]
    if len(first.attrib) or any(child.tag not in _CONTENT for child in first):
        _write_paras_slowly(text_frame, paras, sizes, placeholder=placeholder, lang=lang)
        return
    links: dict[str, str] = {}

    def link(url: str) -> str:
        if url not in links:
            links[url] = text_frame.part.relate_to(url, RT.HYPERLINK, is_external=True)
        return links[url]

    markup = "".join(_para_xml(p, size, i, placeholder, link, lang)
                     for i, (p, size) in enumerate(zip(paras, sizes, strict=True)))
    for old in body.p_lst:
        body.remove(old)
    for new in parse_xml(f"<root {nsdecls('a', 'r')}>{markup}</root>"):
        body.append(new)


_CONTENT = {qn("a:r"), qn("a:br"), qn("a:fld")}  # what python-pptx's clear removes
_ALIGN_XML = {"l": "l", "r": "r", "ctr": "ctr"}
_CTRL = re.compile(r"([\x00-\x08\x0B-\x1F])")


def _centipoints(points: float) -> int:
    return int(Pt(points).centipoints)


def _text_xml(text: str) -> str:
    """A run's text as python-pptx stores it (control characters as _xHHHH_), escaped."""
    return escape(_CTRL.sub(lambda m: "_x%04X_" % ord(m.group(1)), text))


def _para_xml(p: Para, size: float, i: int, placeholder: bool,
              link: Callable[[str], str], lang: str = "en-US") -> str:
    """One paragraph's `a:p`, as `_write_paras_slowly` makes it."""
    attrs = ""
    if p.align or not placeholder:  # shapes centre their text unless told otherwise
        attrs += f' algn="{_ALIGN_XML[p.align or "l"]}"'
    if placeholder:  # a template's body style may bring bullets and indents
        attrs += ' marL="0" indent="0"'
    spacing = (f'<a:lnSpc><a:spcPts val="{_centipoints(size * p.line)}"/></a:lnSpc>'
               f'<a:spcBef><a:spcPts val="{_centipoints(p.before if i else 0)}"/></a:spcBef>'
               '<a:spcAft><a:spcPts val="0"/></a:spcAft>')
    if placeholder:
        spacing += "<a:buNone/>"
    runs = []
    for run_spec in p.runs or (Run(p.text),):
        bold = p.bold if run_spec.bold is None else run_spec.bold
        r_attrs = f' sz="{_centipoints(size)}" b="{"1" if bold else "0"}" lang="{escape(lang)}"'
        if p.caps:
            r_attrs += ' cap="all"'
        if p.tracking:
            r_attrs += f' spc="{round(p.tracking * 100)}"'
        colour = run_spec.colour or p.colour
        inner = f'<a:solidFill><a:schemeClr val="{SCHEME[colour]}"/></a:solidFill>' \
            if colour else ""
        if p.heading:
            inner += '<a:latin typeface="+mj-lt"/>'
        url = run_spec.link or p.link
        if url:
            inner += f'<a:hlinkClick r:id="{link(url)}"/>'
        runs.append(f"<a:r><a:rPr{r_attrs}>{inner}</a:rPr><a:t>{_text_xml(run_spec.text)}</a:t>"
                    "</a:r>")
    return f"<a:p><a:pPr{attrs}>{spacing}</a:pPr>{''.join(runs)}</a:p>"


def _write_paras_slowly(text_frame: TextFrame, paras: Sequence[Para], sizes: Sequence[float],
                        *, placeholder: bool = False, lang: str = "en-US") -> None:
    """`write_paras` through python-pptx's own setters."""
    text_frame.clear()  # type: ignore[no-untyped-call]
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        paragraph = (text_frame.paragraphs[0] if i == 0
                     else text_frame.add_paragraph())  # type: ignore[no-untyped-call]
        if p.align or not placeholder:  # shapes centre their text unless told otherwise
            paragraph.alignment = _ALIGN[p.align or "l"]
        paragraph.line_spacing = Pt(size * p.line)
        paragraph.space_before = Pt(p.before if i else 0)
        paragraph.space_after = Pt(0)
        if placeholder:  # a template's body style may bring bullets and indents
            p_pr = paragraph._p.get_or_add_pPr()
            p_pr.set("marL", "0")
            p_pr.set("indent", "0")
            p_pr.insert_element_before(xml("<a:buNone/>")[0], "a:tabLst", "a:defRPr", "a:extLst")
        for run_spec in p.runs or (Run(p.text),):
            run = paragraph.add_run()
            run.text = run_spec.text
            font = run.font
            font.size = Pt(size)
            font.bold = p.bold if run_spec.bold is None else run_spec.bold
            colour = run_spec.colour or p.colour
            if colour:
                font.color.theme_color = THEME_COLOUR[colour]
            if p.heading:
                font.name = "+mj-lt"
            r_pr = run._r.get_or_add_rPr()
            r_pr.set("lang", lang)
            if p.caps:
                r_pr.set("cap", "all")
            if p.tracking:
                r_pr.set("spc", str(round(p.tracking * 100)))
            if run_spec.link or p.link:
                run.hyperlink.address = run_spec.link or p.link


def frame_setup(text_frame: TextFrame, inset: tuple[int, int, int, int],
                anchor: str | None) -> None:
    text_frame.word_wrap = True
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    text_frame.margin_left, text_frame.margin_top = Emu(inset[0]), Emu(inset[1])
    text_frame.margin_right, text_frame.margin_bottom = Emu(inset[2]), Emu(inset[3])
    if anchor:  # None keeps a template's own
        text_frame.vertical_anchor = {"t": MSO_ANCHOR.TOP, "ctr": MSO_ANCHOR.MIDDLE,
                                      "b": MSO_ANCHOR.BOTTOM}[anchor]

