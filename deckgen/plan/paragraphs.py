"""Paragraphs set into lines: each broken where the plan measured it, each line cut into spans
of one font (the face that draws each character, a fallback where the theme's face lacks it)
and one colour, placed at their baseline and left edge as the box's anchor and the
paragraph's alignment put them.

Pure. Lines are broken by the one line breaker (deckgen.typeset.text) with the faces that
measured the slide when it was fitted, so every line of the placed deck is a line the fitting
counted. Positions are points from the slide's top left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deckgen.box import Box, pt
from deckgen.plan.items import WIDTH_SAFETY, Para
from deckgen.plan.items import Run as ItemRun
from deckgen.plan.kinds.fitting import Faces, para_lines
from deckgen.plan.placed import DESCENT, Colour, Font, Paragraph, Span, TextLine, TextRun
from deckgen.typeset.text import Overlong


@dataclass(frozen=True)
class BoxLook:
    """How a box's paragraphs are coloured and aligned where they say nothing themselves:
    the colour their runs take (`colour`; written by the deck unless kept), the alignment
    (`align_kept`: the template's, not written), and whether they sit in a placeholder."""

    colour: Colour
    align: str = "l"
    align_kept: bool = False
    in_placeholder: bool = False


def colour_of(role: str, roles: Mapping[str, str]) -> Colour:
    return Colour(roles[role], role)


def set_text(paras: Sequence[Para], sizes: Sequence[float], box: Box,
             inset: tuple[int, int, int, int], anchor: str, faces: Faces,
             roles: Mapping[str, str], look: BoxLook) -> tuple[Paragraph, ...]:
    """`paras` at `sizes` set in `box`: their lines, spans and places."""
    width = pt(box.w - inset[0] - inset[2])
    height = pt(box.h - inset[1] - inset[3])
    broken = []
    total = 0.0
    for i, (p, size) in enumerate(zip(paras, sizes, strict=True)):
        # broken at the box's own width, as a client setting it in the same face breaks it
        # (the fitting kept a margin on top: these lines never outnumber the fitted ones)
        found = para_lines(faces, p, size, width)
        if isinstance(found, Overlong):
            found = para_lines(faces, p, size, width / WIDTH_SAFETY)
        lines = (p.shown,) if isinstance(found, Overlong) else found
        before = p.before if i else 0.0
        broken.append((p, size, lines, before))
        total += before + len(lines) * size * p.line
    top = {"t": 0.0, "ctr": (height - total) / 2, "b": height - total}.get(anchor, 0.0)
    left = pt(box.x + inset[0])
    y = pt(box.y + inset[1]) + top
    out: list[Paragraph] = []
    for p, size, lines, before in broken:
        y += before
        pitch = size * p.line
        align = p.align or look.align
        placed = []
        cursor = 0
        for line in lines:
            spans, cursor = _spans(p, size, line, cursor, faces, roles, look.colour)
            wide = sum(s.width for s in spans)
            x = {"r": left + width - wide, "ctr": left + (width - wide) / 2}.get(align, left)
            shifted = []
            for s in spans:
                shifted.append(Span(s.text, s.font, x, s.width, s.colour, s.link))
                x += s.width
            placed.append(TextLine(tuple(shifted), y + pitch - DESCENT * size, size))
            y += pitch
        out.append(Paragraph(tuple(_runs(p, roles)), size, pitch, p.before if out else 0.0,
                             align, align_kept=p.align is None and look.align_kept,
                             caps=p.caps, tracking=p.tracking,
                             in_placeholder=look.in_placeholder, lines=tuple(placed)))
    return tuple(out)


def _runs(p: Para, roles: Mapping[str, str]) -> list[TextRun]:
    """The paragraph's runs as the deck writes them: each in its own colour role or the
    paragraph's (None: the template's own), its weight and link, the heading face when the
    paragraph is a heading."""
    out = []
    for run in p.runs or (ItemRun(p.text),):
        role = run.colour or p.colour
        out.append(TextRun(run.text, colour_of(role, roles) if role else None,
                       p.bold if run.bold is None else run.bold, run.link or p.link,
                       face="heading" if p.heading else ""))
    return out


def _spans(p: Para, size: float, line: str, cursor: int, faces: Faces,
           roles: Mapping[str, str], default: Colour) -> tuple[list[Span], int]:
    """One line of `p` cut into spans (each in its run's colour, weight and link, and in the
    face that draws its characters), from `cursor` in the paragraph's shown text; where the
    next line starts."""
    shown = p.shown
    runs = p.runs or (ItemRun(p.text),)
    at = shown.find(line, cursor) if line else -1
    pieces: list[tuple[str, ItemRun]] = []
    if at < 0 or not line:
        pieces = [(line, runs[0])]
        end = cursor
    else:
        end = at + len(line)
        start = 0
        for run in runs:  # each run's length as shown: 'ß' in capitals is 'SS'
            stop = start + len(run.text.upper() if p.caps else run.text)
            a, b = max(start, at), min(stop, end)
            if a < b:
                pieces.append((shown[a:b], run))
            start = stop
    spans = []
    for text, run in pieces:
        bold = p.bold if run.bold is None else run.bold
        role = run.colour or p.colour
        colour = colour_of(role, roles) if role else default
        typeface = faces.typeface(p.heading, bold)
        for face_text, face in typeface.runs(text):
            width = face.width(face_text, size, p.tracking)
            font = Font(typeface.family if face is typeface.chain[0] else "", face.file, bold,
                        face.index)
            spans.append(Span(face_text, font, 0.0, width, colour, run.link or p.link))
    return spans, end
