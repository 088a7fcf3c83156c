"""The handout's fonts: Liberation Sans registered with reportlab, fallback fonts for the
characters it lacks, and runs of text set in each."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph

from deckgen import fonts
from deckgen.errors import RenderError
from deckgen.paint.pdf.compat import CjkParagraph, TTFont
from deckgen.typeset.text import Face

# The four faces of Liberation Sans as reportlab knows them: the whole sheet, chart included,
# is set in this one family.
REGULAR, BOLD, ITALIC, BOLD_ITALIC = "LiberationSans", "LiberationSans-Bold", \
    "LiberationSans-Italic", "LiberationSans-BoldItalic"
_FACES = {REGULAR: "regular", BOLD: "bold", ITALIC: "italic", BOLD_ITALIC: "bolditalic"}


# --------------------------------------------------------------------------------------------
# Fonts, colours and type styles


def register_fonts() -> None:
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


def font_runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut into (font, text) runs: `font` where it has the characters; elsewhere the
    face deckgen.fonts finds for them (the same fallback, run for run, as the slides set),
    registered as a fallback."""
    cover = coverage(font)
    if all(ch < " " or ord(ch) in cover for ch in text):
        return [(font, text)] if text else []
    typeface = fonts.typeface(fonts.TEXT_FAMILY, font in (BOLD, BOLD_ITALIC), frozenset(text))
    runs: list[tuple[str, str]] = []
    for part, face in typeface.runs(text):
        name = font if face is typeface.chain[0] else _fallback(Path(face.file)) or font
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + part)
        else:
            runs.append((name, part))
    return runs


_measured: dict[str, Face] = {}


def face_of(name: str) -> Face:
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


def text_width(text: str, font: str, size: float) -> float:
    """The width of `text` as drawn, each run in its own font, measured by the layout layer
    (deckgen.typeset.text) from the same font files the PDF embeds."""
    return sum((face_of(name).width(t, size) for name, t in font_runs(text, font)), 0.0)


def _with_fallbacks(markup: str, font: str) -> str:
    """Paragraph markup with each run of characters its font lacks put in a fallback font."""
    out, fonts_in, at = [], [font], 0

    def runs(text: str) -> str:
        return "".join(t if name == fonts_in[-1] else f'<font name="{name}">{t}</font>'
                       for name, t in font_runs(text, fonts_in[-1]))

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


def paragraph(markup: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of `markup`, with fallback fonts for the characters Liberation Sans lacks;
    text in a script written without spaces (Japanese, Chinese) breaks between characters."""
    if _CJK.search(markup):
        return CjkParagraph(_with_fallbacks(markup, style.fontName), _cjk_style(style))
    return Paragraph(_with_fallbacks(markup, style.fontName), style)


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


def coverage(font: str) -> dict[int, int]:
    return pdfmetrics.getFont(font).face.charToGlyph  # type: ignore[no-any-return]
