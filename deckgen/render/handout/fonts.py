"""The handout's fonts: Liberation Sans registered with reportlab, fallback fonts for the
characters it lacks, and runs of text set in each."""

from __future__ import annotations

import functools
import re
import struct
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from deckgen import fonts
from deckgen.errors import RenderError
from deckgen.layout.text import Face

# The four faces of Liberation Sans as reportlab knows them: the whole sheet, chart included,
# is set in this one family.
REGULAR, BOLD, ITALIC, BOLD_ITALIC = "LiberationSans", "LiberationSans-Bold", \
    "LiberationSans-Italic", "LiberationSans-BoldItalic"
_FACES = {REGULAR: "regular", BOLD: "bold", ITALIC: "italic", BOLD_ITALIC: "bolditalic"}


# --------------------------------------------------------------------------------------------
# Fonts, colours and type styles


def _register_fonts() -> None:
    """Register Liberation Sans's four faces with reportlab, from the files shipped with the
    package, as one family.

    reportlab's font registry belongs to the process; this keeps no flag of its own beside it
    but asks the registry, so a second call (the next build in a watch) does nothing."""
    if _family_registered():
        return
    for name, style in _FACES.items():
        path = fonts.text_path(style)
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as err:  # noqa: BLE001 - any unreadable file is the same problem
            raise RenderError(f"cannot load the font file {path}: {err}") from None
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=ITALIC,
                                  boldItalic=BOLD_ITALIC)


def _family_registered() -> bool:
    """reportlab knows Liberation Sans's bold italic as the family's: the last step of the
    registration, done only once the four faces loaded."""
    from reportlab.lib.fonts import ps2tt

    try:
        return bool(ps2tt(BOLD_ITALIC) == (REGULAR.lower(), 1, 1))
    except ValueError:
        return False


# Fallback fonts, each loaded and registered the first time a character needs one, so a
# handout that needs none is built exactly as if they did not exist.
_fallback_names: dict[str, str | None] = {}
_TOKEN = re.compile(r"<[^>]*>|&#?\w+;")  # paragraph markup: tags and entities
_JOINS = {"Mn", "Me", "Cf"}  # combining marks, joiners, variation selectors


def _fallback(path: Path) -> str | None:
    """The reportlab name of a fallback font file; None when it does not load (not TrueType
    outlines, damaged)."""
    key = str(path)
    if key not in _fallback_names:
        name: str | None = "Fallback-" + path.stem
        try:
            pdfmetrics.registerFont(TTFont(name, key))
        except Exception:  # noqa: BLE001 - any unreadable font is simply not a fallback
            name = None
        _fallback_names[key] = name
    return _fallback_names[key]


def _font_for(ch: str, font: str) -> str:
    """`font` when it draws `ch`, else the first installed fallback that does, else `font`."""
    if ch < " " or ord(ch) in _coverage(font):
        return font
    for path in fonts.fallbacks():
        name = _fallback(path)
        if name and ord(ch) in _coverage(name):
            return name
    return font


def _runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut into (font, text) runs: `font` where it has the characters, a fallback where
    it has not. A combining mark, joiner or space stays with the character before it when it
    can, so a fallback's words (a right-to-left phrase) stay one run."""
    cover = _coverage(font)
    if all(ch < " " or ord(ch) in cover for ch in text):
        return [(font, text)] if text else []
    runs: list[tuple[str, str]] = []
    for ch in text:
        name = _font_for(ch, font)
        if runs and name != runs[-1][0] and (unicodedata.category(ch) in _JOINS or ch == " " or
                                               0x1F3FB <= ord(ch) <= 0x1F3FF) \
                and ord(ch) in _coverage(runs[-1][0]):
            name = runs[-1][0]
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + ch)
        else:
            runs.append((name, ch))
    return runs


_measured: dict[str, Face] = {}


def _face(name: str) -> Face:
    """The layout layer's measured face for a reportlab font name: the file it was loaded
    from (Liberation Sans's four faces, or a fallback), read once."""
    if name not in _measured:
        if name in _FACES:
            file = fonts.text_path(_FACES[name])
        else:
            file = Path(next(path for path, known in _fallback_names.items() if known == name))
        try:
            _measured[name] = Face.from_ttf(name, file.read_bytes())
        except (OSError, KeyError, IndexError, ValueError, struct.error) as err:
            raise RenderError(f"cannot read the font {file}: {err}") from None
    return _measured[name]


def _width(text: str, font: str, size: float) -> float:
    """The width of `text` as drawn, each run in its own font, measured by the layout layer
    (deckgen.layout.text) from the same font files the PDF embeds."""
    return sum((_face(name).width(t, size) for name, t in _runs(text, font)), 0.0)


@functools.lru_cache(maxsize=4096)
def _with_fallbacks(markup: str, font: str) -> str:
    """Paragraph markup with each run of characters its font lacks put in a fallback font
    (kept: the installed fonts do not change while a process runs)."""
    out, fonts_in, at = [], [font], 0

    def runs(text: str) -> str:
        return "".join(t if name == fonts_in[-1] else f'<font name="{name}">{t}</font>'
                       for name, t in _runs(text, fonts_in[-1]))

    for token in _TOKEN.finditer(markup):
        out.append(runs(markup[at:token.start()]))
        tag = token.group()
        if tag.startswith("<font"):
            name = re.search(r'name="([^"]+)"', tag)
            fonts_in.append(name.group(1) if name else fonts_in[-1])
        elif tag == "</font>" and len(fonts_in) > 1:
            fonts_in.pop()
        out.append(tag)
        at = token.end()
    out.append(runs(markup[at:]))
    return "".join(out)


def _para(markup: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of `markup`, with fallback fonts for the characters Liberation Sans lacks.
    The markup is parsed once per process for a look (`_look`): a copy of each fragment
    then makes the paragraph, as reportlab would make it again (most of a sweep's
    paragraphs are the same at every speed, and parsing was a sixth of the handout)."""
    if _CJK.search(markup):
        style = _cjk_style(style)
    text = _with_fallbacks(markup, style.fontName)
    key = (text, _look(style))
    found = _PARSED.get(key)
    if found is None:
        plain = Paragraph(text, style)
        if plain.style is not style or plain.bulletText != getattr(style, "bulletText", None):
            return plain  # markup that restyles the paragraph: not kept
        if len(_PARSED) >= PARSED_KEPT:
            _PARSED.clear()
        found = _PARSED[key] = (plain.text, plain.frags)
    cleaned, frags = found
    made = _Paragraph(cleaned, style, frags=[f.clone() for f in frags])
    made.deckgen_key = key
    return made


# Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul, CJK marks.
_CJK = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")
_CJK_STYLES: dict[int, tuple[ParagraphStyle, ParagraphStyle]] = {}


def _cjk_style(style: ParagraphStyle) -> ParagraphStyle:
    """`style` breaking lines between characters, as reportlab breaks Chinese and Japanese
    (its CJK wrap keeps the characters that may not start a line, 、。ー and closing
    brackets, off a line's start)."""
    found = _CJK_STYLES.get(id(style))
    if found is None or found[0] is not style:
        found = (style, ParagraphStyle(style.name + "-cjk", parent=style, wordWrap="CJK"))
        _CJK_STYLES[id(style)] = found
    return found[1]


class _Paragraph(Paragraph):
    """reportlab's paragraph, measured once per process for its markup, look and width.

    The sheet and its tables wrap a paragraph at every width they try (some 300 wraps a
    handout, a third of its time), and wrapping breaks the lines anew each time. A paragraph
    asked only ever for one width is a fresh paragraph at that width: its size is known
    from the first one measured, and its lines are broken only when something needs them
    (drawing, splitting). Once asked for another width it is wrapped as reportlab wraps it,
    every width in turn (a wrap can leave a long word split for the next), so the PDF is
    the same either way."""

    deckgen_key: tuple[str, str] | None = None  # None: a part split off, measured plainly

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self.deckgen_key is None:
            return super().wrap(availWidth, availHeight)  # type: ignore[no-any-return]
        widths: list[float] = self.__dict__.setdefault("_deckgen_widths", [])
        if widths and (len(widths) > 1 or widths[0] != availWidth):
            self._catch_up()  # another width: from now on reportlab's own way, in turn
            widths.append(availWidth)
            return super().wrap(availWidth, availHeight)  # type: ignore[no-any-return]
        if not widths:
            widths.append(availWidth)
        size = _SIZES.get((self.deckgen_key, availWidth))
        if size is None:
            size = super().wrap(availWidth, availHeight)
            self.__dict__["_deckgen_broken"] = True
            if len(_SIZES) >= SIZES_KEPT:
                _SIZES.clear()
            _SIZES[(self.deckgen_key, availWidth)] = size
            return size  # type: ignore[no-any-return]
        if not self.__dict__.get("_deckgen_broken"):
            self.width, self.height = size  # its lines wait until they are needed
        return size

    def _catch_up(self) -> None:
        """Break the lines at the one width asked so far, if not done yet."""
        if not self.__dict__.get("_deckgen_broken"):
            self.__dict__["_deckgen_broken"] = True
            Paragraph.wrap(self, self.__dict__["_deckgen_widths"][0], 10**6)

    def __getattr__(self, name: str) -> Any:  # asked only for what the paragraph lacks
        if name not in _WRAPPED or not self.__dict__.get("_deckgen_widths") or \
                self.__dict__.get("_deckgen_broken"):
            raise AttributeError(name)
        self._catch_up()  # the lines, at last
        return self.__dict__[name]


# What a wrap leaves on a paragraph for drawing it or splitting it.
_WRAPPED = frozenset(("blPara", "_wrapWidths", "_width_max", "_splitLongWordCount",
                      "_hyphenations"))
_SIZES: dict[tuple[tuple[str, str], float], tuple[float, float]] = {}
SIZES_KEPT = 4096  # paragraphs' sizes at a width, kept per process (a handout needs 300)


_PARSED: dict[tuple[str, str], tuple[str, list[Any]]] = {}
PARSED_KEPT = 1024  # paragraphs' parsed fragments kept per process (a handout makes 130)


def _look(style: ParagraphStyle) -> str:
    """Everything a style gives a paragraph's fragments, as text: two styles that look
    alike parse markup alike. Kept on the style, which is not changed once made."""
    found = style.__dict__.get("_deckgen_look")
    if found is None:
        found = repr([(name, getattr(style, name)) for name in sorted(style.defaults)])
        style.__dict__["_deckgen_look"] = found
    return found  # type: ignore[no-any-return]


def _to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """reportlab's map from a font's codes back to text, with each character beyond U+FFFF
    (most emoji) as the UTF-16 pair PDF readers expect rather than its bare code point, which
    they reject: without this, emoji would not come out of the PDF as text."""
    def pair(match: re.Match[str]) -> str:
        return f"<{chr(int(match.group(1), 16)).encode('utf-16-be').hex().upper()}>"

    return re.sub(r"<([0-9A-F]{5,6})>$", pair, _make_cmap(fontname, subset), flags=re.M)


_make_cmap = ttfonts.makeToUnicodeCMap
ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def _coverage(font: str) -> dict[int, int]:
    return pdfmetrics.getFont(font).face.charToGlyph  # type: ignore[no-any-return]
