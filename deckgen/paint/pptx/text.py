"""A placed text box's frame and paragraphs written into a python-pptx text frame.

python-pptx only. The paragraphs' XML is written in one go (compat.set_paragraphs), the same
elements and attributes in the same order as python-pptx's setters make them (a test compares
the two); colours are theme references where the placed deck names a role, so a template's
theme carries through.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.text.text import TextFrame
from pptx.util import Emu

from deckgen.paint.pptx import compat
from deckgen.paint.pptx.colours import colour_xml
from deckgen.plan.placed import Paragraph, TextBox, TextRun

_ALIGN_XML = {"l": "l", "r": "r", "ctr": "ctr"}
_ANCHORS = {"t": MSO_ANCHOR.TOP, "ctr": MSO_ANCHOR.MIDDLE, "b": MSO_ANCHOR.BOTTOM}
_SLIDE_NUMBER_FIELD = "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}"


def frame(text_frame: TextFrame, box: TextBox) -> None:
    """The frame as the placed box sets it: its wrapping (unless the template's is kept), no
    autofit, its insets, its anchor (unless the template's is kept)."""
    if box.wrap is not None:
        text_frame.word_wrap = box.wrap
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    inset = box.inset
    text_frame.margin_left, text_frame.margin_top = Emu(inset[0]), Emu(inset[1])
    text_frame.margin_right, text_frame.margin_bottom = Emu(inset[2]), Emu(inset[3])
    if not box.anchor_kept:
        text_frame.vertical_anchor = _ANCHORS[box.anchor]


def write(text_frame: TextFrame, paragraphs: Sequence[Paragraph], lang: str) -> None:
    """Set `paragraphs` into a text frame, replacing what was there: every run tagged with
    the language `lang` ('de-DE')."""
    links: dict[str, str] = {}

    def link(url: str) -> str:
        if url not in links:
            links[url] = text_frame.part.relate_to(url, RT.HYPERLINK, is_external=True)
        return links[url]

    markup = "".join(_para_xml(p, i, link, lang) for i, p in enumerate(paragraphs))
    compat.set_paragraphs(text_frame, markup)


_CTRL = re.compile(r"([\x00-\x08\x0B-\x1F])")


def _text_xml(text: str) -> str:
    """A run's text as python-pptx stores it (control characters as _xHHHH_), escaped."""
    return escape(_CTRL.sub(lambda m: "_x%04X_" % ord(m.group(1)), text))


def _centipoints(points: float) -> int:
    """Hundredths of a point, as DrawingML writes sizes and spacing: the nearest."""
    return round(points * 100)


def _para_xml(p: Paragraph, i: int, link: Callable[[str], str], lang: str) -> str:
    """One paragraph's `a:p`: its alignment, spacing (none of a template's bullets or
    indents in a placeholder) and runs; a paragraph of the template's own spacing (a
    footer) writes its alignment and runs alone."""
    if not p.pitch:  # the template's own paragraph: a footer or the slide's number
        return (f'<a:p><a:pPr algn="{_ALIGN_XML[p.align]}"/>'
                + "".join(_footer_run(r, p, lang) for r in p.runs) + "</a:p>")
    attrs = f' algn="{_ALIGN_XML[p.align]}"' if not p.align_kept else ""
    if p.in_placeholder:  # a template's body style may bring bullets and indents
        attrs += ' marL="0" indent="0"'
    spacing = (f'<a:lnSpc><a:spcPts val="{_centipoints(p.pitch)}"/></a:lnSpc>'
               f'<a:spcBef><a:spcPts val="{_centipoints(p.before if i else 0)}"/></a:spcBef>'
               '<a:spcAft><a:spcPts val="0"/></a:spcAft>')
    if p.in_placeholder:
        spacing += "<a:buNone/>"
    runs = []
    for run in p.runs:
        r_attrs = f' sz="{_centipoints(p.size)}" b="{"1" if run.bold else "0"}" ' \
                  f'lang="{escape(lang)}"'
        if p.caps:
            r_attrs += ' cap="all"'
        if p.tracking:
            r_attrs += f' spc="{round(p.tracking * 100)}"'
        inner = colour_xml(run.colour) if run.colour is not None else ""
        if run.face == "heading":
            inner += '<a:latin typeface="+mj-lt"/>'
        if run.link:
            inner += f'<a:hlinkClick r:id="{link(run.link)}"/>'
        runs.append(f"<a:r><a:rPr{r_attrs}>{inner}</a:rPr><a:t>{_text_xml(run.text)}"
                    "</a:t></a:r>")
    return f"<a:p><a:pPr{attrs}>{spacing}</a:pPr>{''.join(runs)}</a:p>"


def _footer_run(run: TextRun, p: Paragraph, lang: str) -> str:
    """A footer's run: the event line, or the slide's number in its field."""
    size = "" if p.size_kept else f' sz="{_centipoints(p.size)}"'
    fill = colour_xml(run.colour) if run.colour is not None else ""
    look = f'<a:rPr lang="{escape(lang)}"{size}>{fill}<a:latin typeface="+mn-lt"/></a:rPr>'
    if run.field == "slidenum":
        return (f'<a:fld id="{_SLIDE_NUMBER_FIELD}" type="slidenum">{look}'
                f"<a:t>{escape(run.text)}</a:t></a:fld>")
    return f"<a:r>{look}<a:t>{escape(run.text)}</a:t></a:r>"
