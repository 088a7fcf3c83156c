"""One text measurer and one line breaker, for every renderer.

A `Face` holds a TrueType font's advance widths, read from the font file's own tables (cmap,
hmtx), so a width measured here is the width PowerPoint, LibreOffice or reportlab lays out
with the same font or its metric-compatible twin. Wide East Asian characters the face lacks
count one em each, the width every CJK font gives them.

`break_lines` breaks where a person would: at spaces, and after a hyphen or a slash between
two words. It never cuts inside a word or a number and never at a no-break space, so a figure
and its unit stay together; a word wider than the line is reported (`Overlong`), not cut.
"""

from __future__ import annotations

import re
import struct
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True, eq=False)
class Face:
    """A font's advance widths in ems, by code point; `missing` for characters it lacks;
    `ascent` and `descent`, the font's own line box above and below the baseline, in ems;
    the file it was read from (and its index in a collection), '' when made otherwise."""

    name: str
    advances: dict[int, float] = field(repr=False)
    missing: float = 0.5
    ascent: float = 0.9
    descent: float = 0.2
    file: str = ""
    index: int = 0

    @classmethod
    def from_ttf(cls, name: str, data: bytes, file: str = "", index: int = 0) -> Face:
        """A face from the bytes of a TrueType or OpenType (glyf or CFF) font file, or of
        face `index` of a font collection (.ttc)."""
        tables = _tables(data, index)
        units = struct.unpack_from(">H", data, tables[b"head"] + 18)[0]
        metrics = struct.unpack_from(">H", data, tables[b"hhea"] + 34)[0]
        hmtx = tables[b"hmtx"]
        widths = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics)]
        glyphs = _cmap(data, tables[b"cmap"])
        advances = {cp: widths[min(g, metrics - 1)] / units for cp, g in glyphs.items() if g}
        ascent, descent = struct.unpack_from(">hh", data, tables[b"hhea"] + 4)
        return cls(name, advances, advances.get(0x20, 0.25) * 2, ascent / units,
                   -descent / units, file, index)

    def has(self, ch: str) -> bool:
        """Whether the face draws `ch` (a space always counts)."""
        return ord(ch) in self.advances or ch in " \u00a0\n"

    def em(self, text: str) -> float:
        """The advance width of `text` in ems."""
        return _em(self, text)

    def width(self, text: str, size: float, tracking: float = 0.0) -> float:
        """The width of one line of `text` in points at `size`, with `tracking` points added
        after each character."""
        return self.em(text) * size + tracking * len(text)

    def height(self, lines: int, size: float) -> float:
        """The height in points of `lines` lines set one under the other at `size`, each the
        font's own line box (ascent plus descent)."""
        return max(lines, 0) * (self.ascent + self.descent) * size


@lru_cache(maxsize=8192)  # remembered: see `_break`
def _em(face: Face, text: str) -> float:
    total = 0.0
    for ch in text:
        advance = face.advances.get(ord(ch))
        if advance is None:
            advance = 1.0 if unicodedata.east_asian_width(ch) in "WF" else face.missing
            if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
                advance = 0.0
        total += advance
    return total


def _tables(data: bytes, index: int = 0) -> dict[bytes, int]:
    """Where each table of the font starts: of face `index` in a collection (.ttc)."""
    start = 0
    if data[:4] == b"ttcf":
        start = struct.unpack_from(">I", data, 12 + 4 * index)[0]
    count = struct.unpack_from(">H", data, start + 4)[0]
    out = {}
    for i in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, start + 12 + 16 * i)
        out[tag] = offset
    return out


def _cmap(data: bytes, at: int) -> dict[int, int]:
    """Code point -> glyph, from the best Unicode subtable (format 12, else format 4)."""
    count = struct.unpack_from(">H", data, at + 2)[0]
    subtables = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, at + 4 + 8 * i)
        kind = struct.unpack_from(">H", data, at + offset)[0]
        subtables[(platform, encoding, kind)] = at + offset
    for key in ((3, 10, 12), (0, 4, 12), (0, 6, 12)):
        if key in subtables:
            return _format12(data, subtables[key])
    for key in ((3, 1, 4), (0, 3, 4), (0, 4, 4)):
        if key in subtables:
            return _format4(data, subtables[key])
    return {}


def _format12(data: bytes, at: int) -> dict[int, int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    out = {}
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        for cp in range(first, last + 1):
            out[cp] = glyph + cp - first
    return out


def _format4(data: bytes, at: int) -> dict[int, int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = at + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    ranges = deltas + 2 * segments
    out = {}
    for i in range(segments):
        end = struct.unpack_from(">H", data, ends + 2 * i)[0]
        start = struct.unpack_from(">H", data, starts + 2 * i)[0]
        delta = struct.unpack_from(">h", data, deltas + 2 * i)[0]
        offset = struct.unpack_from(">H", data, ranges + 2 * i)[0]
        for cp in range(start, min(end, 0xFFFE) + 1):
            if offset == 0:
                glyph = (cp + delta) & 0xFFFF
            else:
                where = ranges + 2 * i + offset + 2 * (cp - start)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            out[cp] = glyph
    return out


# ---------------------------------------------------------------------------------------------
# Breaking lines

# A break after a hyphen or slash between letters ("well-known", "reading/writing"); the part
# after a slash must be a word of four letters or more, so a unit ("tokens/sec") holds.
_SOFT = re.compile(r"(?<=[^\W\d_][-\u2010])(?=[^\W\d_])|(?<=[^\W\d_]/)(?=[^\W\d_]{4})")


@dataclass(frozen=True)
class Overlong:
    """A word that does not fit the line on its own: the word and its width in points."""

    word: str
    width: float


def pieces(text: str, soft: bool = True) -> list[str]:
    """`text` (one paragraph without hard breaks) cut at its break opportunities (at spaces
    only, without `soft`: how reportlab breaks); each piece keeps its trailing space, which
    hangs past the line's end when a line breaks after it.

    Text in a script written without spaces (Chinese, Japanese) breaks where the Unicode line
    breaking algorithm (UAX #14) allows, with the strict East Asian rules: no line starts
    with 、 。 ー, a small kana or a closing bracket, and none ends with an opening one."""
    out = []
    for chunk in re.findall(r"[^ ]+ *| +", text):
        if _unspaced(chunk):
            out.extend(_east_asian(chunk))
        else:
            out.extend(_SOFT.split(chunk) if soft else [chunk])
    return [p for p in out if p]


def _unspaced(chunk: str) -> bool:
    """Whether `chunk` holds a character of a script written without spaces."""
    return any(ord(ch) >= 0x2E80 and unicodedata.east_asian_width(ch) in "WF" for ch in chunk)


def _east_asian(chunk: str) -> list[str]:
    """`chunk` cut at its UAX #14 break opportunities (uniseg resolves the conditional
    Japanese starters, ー and the small kana, as non-starters: the strict rules)."""
    from uniseg.linebreak import line_break_units

    return list(line_break_units(chunk))


def words(text: str, soft: bool = True) -> list[str]:
    """The unbreakable runs of `text`, spaces dropped: what a line break may never cut."""
    return [p.rstrip(" ") for line in text.split("\n") for p in pieces(line, soft)
            if p.strip(" ")]


def break_lines(text: str, face: Face, size: float, width: float,
                tracking: float = 0.0, soft: bool = True) -> tuple[str, ...] | Overlong:
    """`text` broken greedily into lines no wider than `width` points at `size`; hard breaks
    (newlines) kept; after hyphens and slashes too unless not `soft`. An `Overlong` when some
    word cannot fit a line by itself."""
    return _break(text, face, size, round(width, 3), tracking, soft, False)


def fold_lines(text: str, face: Face, size: float, width: float) -> tuple[str, ...]:
    """`break_lines` for text that is printed whatever its words (a speaker's notes): a word
    wider than a line (a long link) is cut between characters, a line's worth at a time."""
    found = _break(text, face, size, round(width, 3), 0.0, True, True)
    assert not isinstance(found, Overlong)
    return found


# The measurer and the line breakers remember what they found (pure functions of their
# arguments): a slide's arrangements and a table's width search break the same paragraph at
# the same width again and again, and the deck and the handout measure the same words.
# Measured on the default content (CPU of a build of all three files): without the line
# breakers' memory, about 50 ms more for a first build and 100 ms (40 %) more for each
# further speed of a sweep; without the measurer's, about 50 ms more for a first build.
@lru_cache(maxsize=4096)
def _break(text: str, face: Face, size: float, width: float,
           tracking: float, soft: bool, cut: bool) -> tuple[str, ...] | Overlong:
    lines: list[str] = []
    for hard in text.split("\n"):
        current = ""
        for piece in pieces(hard, soft):
            candidate = current + piece
            if face.width(candidate.rstrip(" "), size, tracking) <= width + 1e-3:
                current = candidate
                continue
            wide = face.width(piece.rstrip(" "), size, tracking)
            if wide > width + 1e-3 and not cut:
                return Overlong(piece.rstrip(" "), wide)
            if current:
                lines.append(current.rstrip(" "))
            current = piece
            while face.width(current.rstrip(" "), size, tracking) > width + 1e-3:
                k = 1  # the most characters that fit, at least one
                while k < len(current) and \
                        face.width(current[:k + 1], size, tracking) <= width + 1e-3:
                    k += 1
                lines.append(current[:k])
                current = current[k:]
        lines.append(current.rstrip(" "))
    return tuple(lines)


def break_runs(runs: Sequence[tuple[str, Face]], size: float, width: float,
               tracking: float = 0.0) -> tuple[str, ...] | Overlong:
    """`break_lines` for a paragraph whose runs are set in different faces (a bold title,
    then regular words): the same break opportunities in the runs' joined text, each
    character measured in its own run's face."""
    return _break_runs(tuple(runs), size, width, tracking)


@lru_cache(maxsize=1024)  # remembered as `_break` is
def _break_runs(runs: tuple[tuple[str, Face], ...], size: float, width: float,
                tracking: float) -> tuple[str, ...] | Overlong:
    text = "".join(t for t, _ in runs)
    upto = [0.0]
    for part, face in runs:
        for ch in part:
            upto.append(upto[-1] + face.em(ch))

    def wide(start: int, end: int) -> float:  # text[start:end] without its trailing spaces
        while end > start and text[end - 1] == " ":
            end -= 1
        return (upto[end] - upto[start]) * size + tracking * (end - start)

    lines: list[str] = []
    at = 0
    for hard in text.split("\n"):
        begin = end = at
        for piece in pieces(hard):
            if wide(begin, end + len(piece)) <= width + 1e-3:
                end += len(piece)
                continue
            if wide(end, end + len(piece)) > width + 1e-3:
                return Overlong(piece.rstrip(" "), wide(end, end + len(piece)))
            if end > begin:
                lines.append(text[begin:end].rstrip(" "))
            begin, end = end, end + len(piece)
        lines.append(text[begin:end].rstrip(" "))
        at += len(hard) + 1
    return tuple(lines)


def longest_word(text: str, face: Face, size: float, tracking: float = 0.0,
                 soft: bool = True) -> float:
    """The width in points of the widest unbreakable run of `text` at `size`."""
    return max((face.width(w, size, tracking) for w in words(text, soft)), default=0.0)


def widest_line(lines: Sequence[str], face: Face, size: float, tracking: float = 0.0) -> float:
    return max((face.width(line, size, tracking) for line in lines), default=0.0)


def characters_in(width: float, face: Face, size: float) -> int:
    """About how many characters of ordinary text fit `width` points at `size`: the width of
    an average lower-case letter and space of this face."""
    sample = "the quick brown fox jumps over a lazy dog"
    return max(0, int(width / (face.width(sample, size) / len(sample))))
