"""What deckgen's PDFs need of reportlab that no public API gives: the one place it is done.

Everything else in the handout, the slides PDF and the notes book uses reportlab as its
documentation shows. Each piece here says why no public API serves, and
tests/test_pdf_compat.py compares it with what reportlab itself does, so an upgrade that
fixes or changes the behaviour shows up there.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.platypus import Paragraph

_BEYOND_BMP = re.compile(r"<([0-9A-F]{5,6})>$", flags=re.M)


def utf16_to_unicode_map(cmap: str) -> str:
    """A ToUnicode map with each character beyond U+FFFF written as the UTF-16 pair PDF
    readers expect (`<D83DDE80>`) rather than reportlab's bare code point (`<1F680>`)."""
    def pair(match: re.Match[str]) -> str:
        return f"<{chr(int(match.group(1), 16)).encode('utf-16-be').hex().upper()}>"

    return _BEYOND_BMP.sub(pair, cmap)


class TTFont(ttfonts.TTFont):
    """reportlab's TrueType font, whose map from codes back to text also holds emoji.

    reportlab writes each subset's ToUnicode map with the character of a code beyond U+FFFF
    (most emoji, set in a fallback font) as its bare code point; PDF readers want UTF-16
    there and reject the bare form, so without this an emoji would print but not come out
    of the PDF as text. No public API serves: reportlab makes the map inside `addObjects`
    while the document is saved, with nothing to pass in. This font lets reportlab add its
    objects as it does, then rewrites those entries of the maps now in the document
    (`PDFDocument.idToObject`); every other entry stays as reportlab wrote it."""

    def addObjects(self, doc: Any) -> None:
        super().addObjects(doc)
        for thing in doc.idToObject.values():
            if isinstance(thing, pdfdoc.PDFStream) and isinstance(thing.content, str) \
                    and "begincmap" in thing.content:
                thing.content = utf16_to_unicode_map(thing.content)


class CjkParagraph(Paragraph):
    """A paragraph in a script written without spaces (Japanese, Chinese), that never runs
    past its column.

    reportlab's CJK line breaking, stepping back out of a Latin run (a figure such as
    "1,000,000 トークン") to start the next line with it, forgets the width of the run it
    carries over: that line comes out wider than the column, and drawn it runs its first
    run into the next one. No public API serves (the breaking is inside `wrap`, with no
    width to pass but the column's). This paragraph wraps as reportlab does, and where a
    line overflows, wraps again a little narrower, so every line is measured whole;
    `Paragraph.wrap`'s own results (its lines, `blPara`) are what is checked; the lines are
    then set in the whole column (each line's room, `extraSpace`, counts what was given up),
    so right-aligned and centred text sits where it would."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        width, best = availWidth, (float("inf"), availWidth)
        for _ in range(8):
            found: tuple[float, float] = super().wrap(width, availHeight)
            over = max((-line.extraSpace for line in self.blPara.lines
                        if getattr(line, "extraSpace", 0) < 0), default=0.0)
            if over < best[0]:
                best = (over, width)
            if over <= 0.01 or width - over - 0.5 < availWidth / 2:
                break
            width -= over + 0.5
        if best[1] != width:  # an earlier try overflowed least: set it again
            found = super().wrap(best[1], availHeight)
        # set in the whole column: each line's room counts the width given up
        for line in self.blPara.lines:
            if hasattr(line, "extraSpace"):
                line.extraSpace += availWidth - best[1]
        self.width = availWidth
        return availWidth, found[1]
