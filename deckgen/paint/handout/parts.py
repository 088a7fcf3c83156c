"""Helpers of the builder: table widths, links, balanced columns, glyph checks."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.platypus import Flowable, Spacer

from deckgen.errors import Problem
from deckgen.paint.handout.fonts import (
    BOLD,
    REGULAR,
    coverage,
    face_of,
    text_width,
)
from deckgen.paint.handout.sheet import (
    Band,
    Section,
    Side,
    flowable_texts,
)
from deckgen.paint.handout.style import (
    BODY_PT,
    TABLE_PT,
    escaped,
)
from deckgen.story import Story
from deckgen.story import Table as StoryTable
from deckgen.typeset.columns import WRAPS, Needs, search
from deckgen.typeset.text import break_lines, words


def table_widths(t: StoryTable, width: float, pad: float,
                  bold_row: int | None) -> tuple[list[float], bool]:
    """Column widths from the layout layer's one column search, and whether they keep every
    body cell on one line: none of the cells wrapped when the table fits so, else only the
    headers (at their spaces), else any cell, in the widths that make the table shortest.
    reportlab breaks lines at spaces only, so a word here is what lies between spaces."""
    def measure(text: str, bold: bool) -> float:
        return text_width(text, BOLD if bold else REGULAR, TABLE_PT) + 2 * pad + 0.5

    def word(text: str, bold: bool) -> float:
        return max((measure(w, bold) for w in words(text, soft=False)), default=0.0)

    columns = range(len(t.header))
    rows = [(r, i == bold_row) for i, r in enumerate(t.rows)]
    body = [max((measure(row[c], bold) for row, bold in rows), default=0.0) for c in columns]
    least = [max(word(t.header[c], True), *(word(row[c], bold) for row, bold in rows))
             for c in columns]
    natural = [max(b, measure(h, True)) for b, h in zip(body, t.header, strict=True)]
    needs = Needs(least, natural, [max(b, lo) for b, lo in zip(body, least, strict=True)],
                  [a == "r" for a in t.align])
    cells = [(t.header, True), *rows]

    def height(widths: list[float]) -> float:
        total = 0.0
        for row, bold in cells:
            face = face_of(BOLD if bold else REGULAR)
            lines = [break_lines(text, face, TABLE_PT, w - 2 * pad - 0.5, soft=False)
                     for text, w in zip(row, widths, strict=True)]
            total += max(len(n) if isinstance(n, tuple) else 99 for n in lines)
        return total

    for wrap in WRAPS:
        found = search(needs, width, wrap, height)
        if found is not None:
            return found, wrap != "any"
    total = sum(natural)
    return [width * n / total for n in natural], False


TIGHT: list[tuple[Any, ...]] = [
    ("FONT", (0, 0), (-1, -1), REGULAR, BODY_PT),  # else reportlab sets Helvetica for each cell
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
]


def link_markup(url: str, text: str, colour: colors.Color) -> str:
    """Paragraph markup for a clickable link (a URI annotation in the PDF)."""
    return (f'<a href="{escape(url, {chr(34): "&quot;"})}" color="{colour.hexval()}">'
            f"<u>{escaped(text)}</u></a>")


def balance(sections: list[Section], width: float, cuttable: bool = False) -> Band:
    """Sections flowing down the left column and on into the right, the two columns as even
    as whole items allow; a `cuttable` band may be cut where the page turns (`cut_band`)."""
    items = [(s, f) for s in sections for f in s.flowables]
    heights = [f.wrap(width, 10**6)[1] for _, f in items]
    k, _ = _even(items, heights)
    seen: set[int] = set()
    left = _regroup(items[:k], seen)
    return Band((left, _regroup(items[k:], seen)), flowing=list(sections) if cuttable else None)


def cut_band(band: Band, width: float, room: float, least: int = 2) -> tuple[Band, Band] | None:
    """A cuttable band cut where the page turns: the most of its items, in order, that two
    columns `room` tall hold, balanced, and the rest, balanced and cuttable again; None when
    fewer than `least` items (spaces not counted) would stay before the turn."""
    assert band.flowing is not None
    items = [(s, f) for s in band.flowing for f in s.flowables]
    heights = [f.wrap(width, 10**6)[1] for _, f in items]
    for j in range(len(items), 0, -1):
        if sum(not isinstance(f, Spacer) for _, f in items[:j]) < least:
            return None
        if _even(items[:j], heights[:j])[1] <= room + 0.01:
            seen: set[int] = set()
            front = _regroup(items[:j], seen)
            back = _regroup(items[j:], seen)
            return (balance(front, width), balance(back, width, cuttable=True))
    return None


def _even(items: list[tuple[Section, Flowable]], heights: list[float]) -> tuple[int, float]:
    """Where to end the left column so the taller column is as short as it can be, and its
    height; spaces at a column's top or foot do not count. Of even choices, the one with the
    most in the left column (a lone item stands on the left)."""
    def trimmed(run: range) -> list[int]:
        kept = list(run)
        while kept and isinstance(items[kept[0]][1], Spacer):
            kept = kept[1:]
        while kept and isinstance(items[kept[-1]][1], Spacer):
            kept = kept[:-1]
        return kept

    best: tuple[float, int] | None = None
    for k in range(len(items), -1, -1):
        left, right = trimmed(range(k)), trimmed(range(k, len(items)))
        tallest = max(sum(heights[i] for i in left), sum(heights[i] for i in right))
        if best is None or tallest < best[0] - 0.01:
            best = (tallest, k)
    assert best is not None
    return best[1], best[0]


def _regroup(items: list[tuple[Section, Flowable]], seen: set[int]) -> list[Section]:
    """Items back into sections, spaces at either end dropped; a section's outline entry
    goes with the first part of it (`seen` holds the sections already placed)."""
    while items and isinstance(items[0][1], Spacer):
        items = items[1:]
    while items and isinstance(items[-1][1], Spacer):
        items = items[:-1]
    result: list[Section] = []
    for section, f in items:
        if not result or result[-1].name != section.name:
            outline = section.outline if id(section) not in seen else None
            seen.add(id(section))
            result.append(Section(section.name, outline=outline))
        result[-1].flowables.append(f)
    return result


def short_link(url: str, keep_path: bool = False) -> str:
    """A link as printed: no scheme or 'www.', and a long path cut to its last part."""
    text = url.split("://", 1)[-1]
    if text.startswith("www."):
        text = text[4:]
    text = text.rstrip("/")
    host, _, path = text.partition("/")
    parts = [p for p in path.split("/") if p]
    if keep_path or len(parts) <= 2:
        return text
    return f"{host}/\u2026/{parts[-1]}"


@functools.lru_cache(maxsize=4096)
def _lacking(font: str, text: str) -> frozenset[str]:
    """The characters of `text` that `font` has no glyph for (kept: the same texts come back
    in every handout of a sweep)."""
    cover = coverage(font)
    return frozenset(ch for ch in text if ch >= " " and ord(ch) not in cover)


def missing_glyphs(sides: Sequence[Side], story: Story) -> list[Problem]:
    """A warning for each content key whose text has a character no installed font draws
    (it prints as an empty box, and stays in the PDF's text)."""
    missing: dict[str, set[str]] = {}
    for side in sides:
        for band in side.bands:
            for section in (s for column in band.columns for s in column):
                for f in section.flowables:
                    for font, text, origin in flowable_texts(f):
                        lacking = _lacking(font, text)
                        if lacking:
                            missing.setdefault(origin, set()).update(lacking)
    # Text with no key of its own (a table row, say) repeats text that has one: warn only of
    # characters no keyed text already warns of.
    keyed = set().union(*(chars for origin, chars in missing.items() if origin))
    if missing.get("", set()) <= keyed:
        missing.pop("", None)
    problems = []
    for origin, chars in missing.items():
        place = story.where(origin) if origin else None
        line, col = place if place else (None, None)
        listed = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in sorted(chars))
        problems.append(Problem(
            f"warning: the handout has no font for {listed}; install a font that covers it "
            f"(e.g. Debian's fonts-symbola)", story.file, line, col, origin or None))
    return problems
