"""The fonts deckgen measures and draws with, resolved once: a theme font becomes the font file
whose widths measure its text and which every PDF embeds, so the face that measured a line is
the face that draws it.

The deck and the handout are set in Arial by default, a face PowerPoint, Keynote, Google
Slides and every Office or macOS install already has. It is measured with, and the PDFs embed,
Liberation Sans, Arial's metric-compatible free twin (the same advance width for every
character): its files ship inside the package (`deckgen/typefaces/`, under the SIL Open Font
License in `OFL.txt`), so a plain install has them.

A template or the content may name another theme font. It is measured with, and drawn in, the
file of its metric twin when the machine has it (Calibri as Carlito, Cambria as Caladea, Times
New Roman as Liberation Serif, Courier New as Liberation Mono, Arial Narrow as Liberation Sans
Narrow: `TWINS`), else the face's own file (Windows and macOS with Office have them), else
Liberation Sans, and the build says so in one warning line naming the face and what it is
drawn with. A family with no known twin (Aptos, Segoe UI, a brand face) is measured as Arial
with 5% more room (`STAND_IN_SLACK`) and drawn in Liberation Sans, and the deck says so. A big
figure on one line gets the room of a face wider still (`FIGURE_SLACK`), so no client breaks it
inside a word.

For the characters a face lacks, text is set in the first of its fallbacks that has them:
DejaVu Sans (it ships inside matplotlib's wheel: Arabic, Hebrew, many symbols), then the
system's fonts for Chinese and Japanese, Korean, emoji and symbols (`FALLBACKS`); each
character is measured in the face that draws it. Only TrueType outlines are taken: the PDFs
embed them. This module finds the files without importing matplotlib, and reads no file twice.
"""

from __future__ import annotations

import importlib.util
import os
import struct
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from deckgen.errors import Problem, RenderError
from deckgen.typeset.text import Face

FAMILY = "DejaVu Sans"  # the first fallback for characters a face lacks
TEXT_FAMILY = "Arial"  # what the deck's theme names and the handout is set in
TWIN_FAMILY = "Liberation Sans"  # Arial's metric-compatible twin, shipped with the package
CHART_FAMILY = TWIN_FAMILY  # what the chart pictures are drawn and measured in
TYPEFACES = Path(__file__).parent / "typefaces"
_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
          "italic": "DejaVuSans-Oblique.ttf", "bolditalic": "DejaVuSans-BoldOblique.ttf"}
_TWIN_FILES = {"regular": "LiberationSans-Regular.ttf", "bold": "LiberationSans-Bold.ttf",
               "italic": "LiberationSans-Italic.ttf",
               "bolditalic": "LiberationSans-BoldItalic.ttf"}
# Theme fonts and the metric-compatible twin each is measured with (lower-case names).
TWINS = {
    **dict.fromkeys(("arial", "liberation sans", "arimo", "helvetica", "helvetica neue"),
                    TWIN_FAMILY),
    **dict.fromkeys(("arial narrow", "liberation sans narrow"), "Liberation Sans Narrow"),
    **dict.fromkeys(("calibri", "carlito"), "Carlito"),
    **dict.fromkeys(("cambria", "caladea"), "Caladea"),
    **dict.fromkeys(("times new roman", "times", "tinos", "liberation serif"),
                    "Liberation Serif"),
    **dict.fromkeys(("courier new", "courier", "cousine", "liberation mono"),
                    "Liberation Mono"),
    FAMILY.lower(): FAMILY,
}
# The files that draw a twin, regular and bold, in the order tried: the twin's own (Debian
# installs them: fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-liberation), then
# the face it stands for, as Windows and macOS name its files.
TWIN_FILES = {
    "Carlito": (("Carlito-Regular.ttf", "calibri.ttf"), ("Carlito-Bold.ttf", "calibrib.ttf")),
    "Caladea": (("Caladea-Regular.ttf", "cambria.ttf"), ("Caladea-Bold.ttf", "cambriab.ttf")),
    "Liberation Serif": (("LiberationSerif-Regular.ttf", "times.ttf", "Times New Roman.ttf"),
                         ("LiberationSerif-Bold.ttf", "timesbd.ttf",
                          "Times New Roman Bold.ttf")),
    "Liberation Mono": (("LiberationMono-Regular.ttf", "cour.ttf", "Courier New.ttf"),
                        ("LiberationMono-Bold.ttf", "courbd.ttf", "Courier New Bold.ttf")),
    "Liberation Sans Narrow": (("LiberationSansNarrow-Regular.ttf", "arialn.ttf",
                                "Arial Narrow.ttf"),
                               ("LiberationSansNarrow-Bold.ttf", "arialnb.ttf",
                                "Arial Narrow Bold.ttf")),
}
# Where each twin comes from, for the warning when the machine has none of its files.
TWIN_PACKAGES = {"Carlito": "fonts-crosextra-carlito", "Caladea": "fonts-crosextra-caladea",
                 "Liberation Serif": "fonts-liberation", "Liberation Mono": "fonts-liberation",
                 "Liberation Sans Narrow": "fonts-liberation"}
# TrueType (glyf outline) fonts tried in turn, after DejaVu Sans, for a character the faces
# cannot draw, with the Debian package that installs each: Chinese and Japanese, Korean,
# emoji and symbols.
FALLBACKS = (
    (Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"), "fonts-droid-fallback"),
    (Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"), "fonts-nanum"),
    (Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"), "fonts-symbola"),
)
# The same scripts' fonts as macOS and Windows install them, tried after those: by file name.
SYSTEM_FALLBACKS = ("Arial Unicode.ttf", "msgothic.ttc", "malgun.ttf", "seguisym.ttf",
                    "seguiemj.ttf")
# The theme fonts a presenter may name that are measured exactly, as a warning lists them.
MEASURED = ("Arial", "Helvetica", "Calibri", "Cambria", "Times New Roman", "Courier New",
            "Arial Narrow")
# A figure set on one line ("1,000,000", "2 h 46 min 40 s") never wraps: it gets the room of
# a face this much wider than the one measured, beyond the width safety every text keeps
# (hinting, kerning and a substituted face differ by a few percent between clients).
FIGURE_SLACK = 1.03
STAND_IN = "Arial"  # what measures a family with no known twin (by Liberation Sans's widths)
STAND_IN_SLACK = 1.05  # and how much wider than the stand-in such text is taken to be


@cache
def _folder() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
        if (folder / _FILES["regular"]).is_file():
            return folder
    system = Path("/usr/share/fonts/truetype/dejavu")
    if (system / _FILES["regular"]).is_file():
        return system
    raise RenderError("cannot find the DejaVu Sans font files (they come with matplotlib)")


def path(style: str = "regular") -> Path:
    """The TTF file of DejaVu Sans (the first fallback) in `style`: regular, bold, italic or
    bolditalic."""
    return _folder() / _FILES[style]


def text_path(style: str = "regular") -> Path:
    """The TTF file of Liberation Sans, shipped with the package, in `style`."""
    return TYPEFACES / _TWIN_FILES[style]


def twin(family: str) -> str | None:
    """The metric-compatible twin that measures `family`, or None when none is known."""
    return TWINS.get(" ".join(family.split()).lower())


def known(family: str) -> bool:
    """Whether `family` is measured exactly, by its own metric twin."""
    return twin(family) is not None


def _font_folders() -> list[Path]:
    """Where this system keeps its fonts (Linux, macOS, Windows), the user's own last."""
    home = Path.home()
    if sys.platform == "win32":
        windows = Path(os.environ.get("WINDIR", "C:/Windows"))
        local = Path(os.environ.get("LOCALAPPDATA", str(home / "AppData" / "Local")))
        return [windows / "Fonts", local / "Microsoft" / "Windows" / "Fonts"]
    if sys.platform == "darwin":
        return [Path("/System/Library/Fonts"), Path("/System/Library/Fonts/Supplemental"),
                Path("/Library/Fonts"), home / "Library" / "Fonts"]
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"),
            home / ".local" / "share" / "fonts", home / ".fonts"]


@cache
def _installed() -> dict[str, Path]:
    """The font files installed on this system, by lower-case file name (the first found)."""
    found: dict[str, Path] = {}
    for folder in _font_folders():
        for root, _, names in os.walk(folder):
            for name in names:
                if name.lower().endswith((".ttf", ".ttc")):
                    found.setdefault(name.lower(), Path(root) / name)
    return found


def installed(name: str) -> Path | None:
    """An installed font file by its file name, when this system has it."""
    return _installed().get(name.lower())


@cache
def _read(file: Path, name: str, index: int = 0) -> Face | None:
    """The face in `file` when its outlines are TrueType (what a PDF embeds), else None."""
    try:
        data = file.read_bytes()
        face = Face.from_ttf(name, data, str(file), index)
        tables = _tables_of(data, index)
    except (OSError, KeyError, IndexError, ValueError, struct.error):
        return None
    return face if b"glyf" in tables else None


def _tables_of(data: bytes, index: int) -> set[bytes]:
    start = struct.unpack_from(">I", data, 12 + 4 * index)[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack_from(">H", data, start + 4)[0]
    return {struct.unpack_from(">4s", data, start + 12 + 16 * i)[0] for i in range(count)}


def _shipped(family: str, bold: bool) -> Face:
    file = text_path("bold" if bold else "regular")
    found = _read(file, family)
    if found is None:
        raise RenderError(f"cannot read the font {file}")
    return found


@dataclass(frozen=True)
class Resolved:
    """A theme font at one weight as deckgen measures and draws it: the face (read from the
    file that draws it), the name of that face, and the warning when it is not the family
    or its twin."""

    face: Face
    drawn_as: str
    warning: str = ""


@cache
def resolve(family: str, bold: bool = False) -> Resolved:
    """The face that measures and draws `family`: its twin's file, else its own, else
    Liberation Sans (with a warning); a family with no twin as Liberation Sans with slack."""
    name = twin(family)
    if name == TWIN_FAMILY:
        return Resolved(_shipped(family, bold), TWIN_FAMILY)
    if name == FAMILY:
        found = _read(path("bold" if bold else "regular"), family)
        if found is None:
            raise RenderError(f"cannot read the font {path()}")
        return Resolved(found, FAMILY)
    if name is None:
        own = _shipped(family, bold)
        wider = {cp: advance * STAND_IN_SLACK for cp, advance in own.advances.items()}
        return Resolved(Face(family, wider, own.missing * STAND_IN_SLACK, own.ascent,
                             own.descent, own.file), TWIN_FAMILY)
    for file_name in TWIN_FILES[name][1 if bold else 0]:
        file = installed(file_name)
        found = _read(file, family) if file is not None else None
        if found is not None:
            return Resolved(found, name if file_name.lower().startswith(
                name.replace(" ", "").lower()) else family)
    package = TWIN_PACKAGES[name]
    return Resolved(_shipped(family, bold), TWIN_FAMILY,
                    f"the theme font {family!r} is measured and drawn as {TWIN_FAMILY}: its "
                    f"metric twin {name} is not installed (Debian: {package}), nor {family} "
                    "itself")


def face(family: str = TEXT_FAMILY, bold: bool = False) -> Face:
    """The measured face of a theme font (see `resolve`)."""
    return resolve(family, bold).face


def fallbacks() -> list[Path]:
    """The fallback font files, in the order to try them: DejaVu Sans (every install has it:
    Arabic, Hebrew, many symbols), then the system fonts installed here."""
    system = [file for file, _ in FALLBACKS if file.is_file()]
    seen = {file.name.lower() for file in system}
    for name in SYSTEM_FALLBACKS:
        file = installed(name)
        if file is not None and name.lower() not in seen:
            system.append(file)
    return [path("regular"), *system]


@dataclass(frozen=True, eq=False)
class Typeface:
    """A theme font at one weight as deckgen sets it: the faces that draw it (the family's
    own first, then the fallbacks the text needs, in order), and the face its text is
    measured with: each character's width the width of the face that draws it."""

    family: str
    bold: bool
    chain: tuple[Face, ...]
    measure: Face
    drawn_as: str

    def face_of(self, ch: str) -> Face:
        """The face that draws `ch`: the first of the chain that has it, else the first."""
        for found in self.chain:
            if found.has(ch):
                return found
        return self.chain[0]

    def runs(self, text: str) -> list[tuple[str, Face]]:
        """`text` cut where the face that draws it changes: what every output sets in each
        face. A combining mark, joiner, variation selector, skin-tone modifier or space stays
        with the character before it when that face has it (a fallback's phrase stays one
        run)."""
        out: list[tuple[str, Face]] = []
        for ch in text:
            face = self.face_of(ch)
            if out and face is not out[-1][1] and _joins(ch) and out[-1][1].has(ch):
                face = out[-1][1]
            if out and out[-1][1] is face:
                out[-1] = (out[-1][0] + ch, face)
            else:
                out.append((ch, face))
        return out


def _joins(ch: str) -> bool:
    """Whether `ch` belongs with the character before it: a combining mark, joiner or
    variation selector, a skin-tone modifier, or a space."""
    return unicodedata.category(ch) in ("Mn", "Me", "Cf") or ch == " " \
        or 0x1F3FB <= ord(ch) <= 0x1F3FF


@cache
def typeface(family: str, bold: bool, characters: frozenset[str]) -> Typeface:
    """`family` at one weight, with the fallbacks `characters` need (those it lacks)."""
    resolved = resolve(family, bold)
    main = resolved.face
    chain = [main]
    lacking = sorted(ch for ch in characters if not main.has(ch) and ord(ch) >= 0x20)
    if lacking:
        files = fallbacks()
        files[0] = path("bold" if bold else "regular")
        for file in files:
            extra = _read(file, file.stem)
            if extra is not None and any(extra.has(ch) for ch in lacking):
                chain.append(extra)
                lacking = [ch for ch in lacking if not extra.has(ch)]
            if not lacking:
                break
    if len(chain) == 1:
        return Typeface(family, bold, (main,), main, resolved.drawn_as)
    merged = dict(main.advances)
    for extra in chain[1:]:
        for cp, advance in extra.advances.items():
            merged.setdefault(cp, advance)
    measure = Face(main.name, merged, main.missing, main.ascent, main.descent, main.file,
                   main.index)
    return Typeface(family, bold, tuple(chain), measure, resolved.drawn_as)


@dataclass(frozen=True, eq=False)
class Typefaces:
    """The theme's fonts as deckgen sets them: body and heading, regular and bold; and the
    warnings met resolving them (a twin not installed, a character no font draws)."""

    body: Typeface
    body_bold: Typeface
    heading: Typeface
    heading_bold: Typeface
    warnings: tuple[Problem, ...] = ()

    def of_weight(self, heading: bool, bold: bool) -> Typeface:
        if heading:
            return self.heading_bold if bold else self.heading
        return self.body_bold if bold else self.body


def typefaces(heading: str, body: str, characters: Iterable[str] = ()) -> Typefaces:
    """The theme's fonts for text of `characters`, each with the fallbacks it needs; one
    warning per face not drawn in itself or its twin, and one naming characters no
    installed font draws."""
    chars = frozenset(characters)
    found = Typefaces(typeface(body, False, chars), typeface(body, True, chars),
                      typeface(heading, False, chars), typeface(heading, True, chars))
    warnings = []
    for family in dict.fromkeys((heading, body)):
        note = resolve(family).warning
        if note:
            warnings.append(Problem(note, path="theme.fonts"))
    missing = sorted({ch for t in (found.body, found.heading) for ch in chars
                      if ord(ch) >= 0x20 and not any(f.has(ch) for f in t.chain)})
    if missing:
        shown = "".join(missing[:12]) + ("..." if len(missing) > 12 else "")
        warnings.append(Problem(
            f"no installed font draws {shown!r} ({len(missing)} characters): the slides PDF "
            "and the notes book show empty boxes for them; install a font for their script "
            f"({', '.join(package for _, package in FALLBACKS)} on Debian)"))
    return Typefaces(found.body, found.body_bold, found.heading, found.heading_bold,
                     tuple(warnings))
