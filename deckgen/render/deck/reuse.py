"""A saved deck's slides taken apart and put back together, so a rebuild draws only the slides
that changed and takes the others as the last build drew them.

A slide is its XML, its relationships and the parts only it uses: its notes, its native
charts and their workbooks (`SlideParts`). `assemble` writes the package python-pptx saved,
with the kept slides put in place of the stubs the writer added for them, and names every
slide's parts the way a build drawing every slide names them: the n-th notes, chart and
workbook in slide order are notesSlide<n>, chart<n> and Microsoft_Excel_Sheet<n>. A deck
with kept slides is therefore byte for byte the deck drawn whole.

No python-pptx here: the package is entries (name -> bytes), its small relationship and
content-type files read as text, written by `archive`.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from datetime import datetime
from xml.etree import ElementTree

from deckgen.render.deck import archive

_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
# The parts a slide owns, by the relationship that reaches them.
OWNED = {_R + "notesSlide", _R + "chart", _R + "package"}
# What a slide or its parts point to and share with the rest of the deck.
SHARED = {_R + "slideLayout", _R + "notesMaster", _R + "slide", _R + "hyperlink"}
TYPES = "[Content_Types].xml"

_RELATIONSHIP = re.compile(r"<Relationship ([^>]*?)/>")
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
_SLIDE_ID = re.compile(r'<p:sldId [^>]*?r:id="([^"]+)"')
_NUMBERED = re.compile(r"^(.*?)(\d+)(\.[^./]+)$")

Part = tuple[str, str, bool, bytes]  # name, content type, the type is an override, bytes

_CT = "application/vnd.openxmlformats-"
_RELS = (_CT + "package.relationships+xml", False)
# Every part a kept slide may hold: its name, and its content type (with whether the package
# names that type for the part alone, an Override, rather than for its file extension).
KINDS = [
    (re.compile(r"ppt/slides/slide[1-9]\d{0,4}\.xml"),
     (_CT + "officedocument.presentationml.slide+xml", True)),
    (re.compile(r"ppt/slides/_rels/slide[1-9]\d{0,4}\.xml\.rels"), _RELS),
    (re.compile(r"ppt/notesSlides/notesSlide[1-9]\d{0,4}\.xml"),
     (_CT + "officedocument.presentationml.notesSlide+xml", True)),
    (re.compile(r"ppt/notesSlides/_rels/notesSlide[1-9]\d{0,4}\.xml\.rels"), _RELS),
    (re.compile(r"ppt/charts/chart[1-9]\d{0,4}\.xml"),
     (_CT + "officedocument.drawingml.chart+xml", True)),
    (re.compile(r"ppt/charts/_rels/chart[1-9]\d{0,4}\.xml\.rels"), _RELS),
    (re.compile(r"ppt/embeddings/Microsoft_Excel_Sheet[1-9]\d{0,4}\.xlsx"),
     (_CT + "officedocument.spreadsheetml.sheet", False)),
]
MAX_SLIDE_BYTES = 16 * 2**20  # a kept slide's parts together, unpacked
_HEAD = "deckgen slide "


def _kind(name: str) -> tuple[str, bool] | None:
    """The content type a part of a kept slide has, by its name; None: no such part."""
    return next((kind for pattern, kind in KINDS if pattern.fullmatch(name)), None)


@dataclass(frozen=True)
class SlideParts:
    """One slide as its package holds it: `parts` are the slide's XML first, then its
    relationships, then every part only this slide uses, each as (name in the package, its
    content type, whether that type is an Override for the part alone rather than the
    Default for its file extension, its bytes)."""

    parts: tuple[Part, ...]
    reusable: bool = True  # nothing shared with other slides (a picture, say) and every part
    # of a kind a kept slide may hold: the only slides the cache keeps

    def to_bytes(self, key: str) -> bytes:
        """The slide as one zip (an entry of the build cache), bound to its `key`."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
            manifest = _HEAD + key + "\n" + "".join(f"{name}\n" for name, *_ in self.parts)
            package.writestr(_entry("manifest"), manifest, compresslevel=1)
            for name, _, _, data in self.parts:
                package.writestr(_entry(name), data, compresslevel=1)
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, key: str) -> SlideParts | None:
        """The slide `to_bytes(key)` wrote, or None when `data` is not one: another key's,
        a part no kept slide has, XML that does not parse, relationships without their part,
        or more than MAX_SLIDE_BYTES unpacked. (An entry's checksum only says it is whole.)"""
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as package:
                if sum(info.file_size for info in package.infolist()) > MAX_SLIDE_BYTES:
                    return None
                head, *names = package.read("manifest").decode("utf-8").splitlines()
                if head != _HEAD + key or len(set(names)) != len(names) or len(names) < 2:
                    return None
                parts = []
                for name in names:
                    kind = _kind(name)
                    if kind is None:
                        return None
                    part = package.read(name)
                    if name.endswith((".xml", ".rels")):
                        ElementTree.fromstring(part)
                    parts.append((name, *kind, part))
        except (zipfile.BadZipFile, KeyError, ValueError, UnicodeDecodeError, OSError,
                ElementTree.ParseError, EOFError):
            return None
        found = cls(tuple(parts))
        owners = {rels_name(name) for name, *_ in parts}
        if not names[0].startswith("ppt/slides/slide") or names[1] != rels_name(names[0]) \
                or any("/_rels/" in name and name not in owners for name in names):
            return None
        return found


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def rels_name(name: str) -> str:
    """The relationships file of part `name`: ppt/slides/slide1.xml ->
    ppt/slides/_rels/slide1.xml.rels."""
    folder, _, file = name.rpartition("/")
    return f"{folder}/_rels/{file}.rels" if folder else f"_rels/{file}.rels"


def _resolve(owner: str, target: str) -> str:
    """A relationship's target, relative to its owner's folder, as a name in the package."""
    parts = owner.split("/")[:-1]
    for piece in target.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


def _relative(owner: str, name: str) -> str:
    """`name` as a target relative to its owner's folder (one level up: '../charts/...')."""
    here, there = owner.split("/")[:-1], name.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:])


def _relationships(xml: bytes) -> list[dict[str, str]]:
    return [dict(_ATTRIBUTE.findall(found)) for found in _RELATIONSHIP.findall(xml.decode())]


class Package:
    """A deck's entries (name -> bytes) and content types, with its slides in their order:
    what python-pptx would save."""

    def __init__(self, entries: dict[str, bytes], defaults: dict[str, str],
                 overrides: dict[str, str]) -> None:
        self.entries = entries
        self.defaults = defaults  # file extension -> content type
        self.overrides = overrides  # part name (no leading '/') -> content type
        rels = {r["Id"]: r for r in
                _relationships(self.entries["ppt/_rels/presentation.xml.rels"])}
        order = _SLIDE_ID.findall(self.entries["ppt/presentation.xml"].decode("utf-8"))
        self.slides = [_resolve("ppt/presentation.xml", rels[r_id]["Target"]) for r_id in order]

    def take(self, slide: str) -> SlideParts:
        """Slide `slide` and the parts only it uses, removed from the package."""
        parts: list[Part] = []
        reusable = True
        todo = [slide]
        while todo:
            name = todo.pop(0)
            parts.append(self._part(name))
            rels = rels_name(name)
            if rels not in self.entries:
                continue
            parts.append(self._part(rels))
            data = parts[-1][3]
            for rel in _relationships(data):
                if rel.get("TargetMode") == "External" or rel["Type"] in SHARED:
                    continue
                if rel["Type"] in OWNED:
                    todo.append(_resolve(name, rel["Target"]))
                else:  # a picture, say: shared by name with the other slides
                    reusable = False
        fits = all(_kind(name) == (kind, override) for name, kind, override, _ in parts)
        return SlideParts(tuple(parts), reusable and fits)

    def _part(self, name: str) -> Part:
        """Part `name`, removed from the package, with its content type."""
        data = self.entries.pop(name)
        if name in self.overrides:
            return name, self.overrides.pop(name), True, data
        return name, self.defaults[name.rpartition(".")[2]], False, data

    def put(self, part: Part) -> None:
        name, kind, override, data = part
        self.entries[name] = data
        if override:
            self.overrides[name] = kind
        else:
            self.defaults.setdefault(name.rpartition(".")[2], kind)


def assemble(package: Package, when: datetime, kept: dict[int, SlideParts],
             deflated: archive.Deflated | None = None
             ) -> tuple[bytes, dict[int, SlideParts], archive.Deflated]:
    """The deck's zip: `package` (what python-pptx would save), with slide n (counted from 1)
    taken from `kept` where it is there (the writer added a stub in its place), every slide's
    own parts named in slide order, and every entry stamped `when`, in a stable order. Also
    returns each slide as it ends up, to keep for the next build, and the entries deflated
    (`deflated`: an earlier build's, not deflated again)."""
    slides: list[SlideParts] = []
    for number, name in enumerate(package.slides, 1):
        drawn = package.take(name)
        slides.append(kept.get(number, drawn))
    taken = set(package.entries)
    counters: dict[str, int] = {}
    final: dict[int, SlideParts] = {}
    for number, (slide, name) in enumerate(zip(slides, package.slides, strict=True), 1):
        renamed = _renamed(slide, name, taken, counters)
        final[number] = renamed
        for part in renamed.parts:
            package.put(part)
    for number in kept:
        _check(final[number], package.entries)
    data, now = _zip(package, when, deflated)
    return data, final, now


def _check(slide: SlideParts, entries: dict[str, bytes]) -> None:
    """A kept slide's relationships reach parts the deck has, and each of its own parts is
    reached; else a ValueError (the build is then drawn again without the cache's slides)."""
    reached = {slide.parts[0][0]}
    for name, _, _, data in slide.parts:
        if "/_rels/" not in name:
            continue
        owner = next(part for part, *_ in slide.parts if rels_name(part) == name)
        for rel in _relationships(data):
            if rel.get("TargetMode") == "External":
                continue
            target = _resolve(owner, rel.get("Target", ""))
            if target not in entries:
                raise ValueError(f"a kept slide points at {target!r}, which the deck lacks")
            reached.add(target)
    unreached = [name for name, *_ in slide.parts if "/_rels/" not in name and name not in reached]
    if unreached:
        raise ValueError(f"a kept slide holds parts nothing reaches: {unreached}")


def _renamed(slide: SlideParts, name: str, taken: set[str],
             counters: dict[str, int]) -> SlideParts:
    """`slide` at `name`, its own parts renamed to the next free numbers of their kinds, and
    its relationships pointing at the new names. python-pptx gives each part it adds the
    first free number of its kind, so a build drawing every slide numbers them in slide
    order; counting the same way here gives the same names, whichever slides were kept."""
    names = {slide.parts[0][0]: name}
    for part, _, _, _ in slide.parts[1:]:
        if "/_rels/" in part:
            continue
        found = _NUMBERED.match(part)
        if found is None:  # pragma: no cover - python-pptx numbers every part it adds
            names[part] = part
            continue
        head, _, tail = found.groups()
        number = counters.get(head, 0)
        while True:
            number += 1
            candidate = f"{head}{number}{tail}"
            if candidate not in taken:
                break
        counters[head] = number
        taken.add(candidate)
        names[part] = candidate
    owners = {rels_name(old): old for old in names}
    parts = []
    for part, kind, override, data in slide.parts:
        if part in owners:
            owner = owners[part]
            parts.append((rels_name(names[owner]), kind, override,
                          _retarget(data, owner, names)))
        else:
            parts.append((names[part], kind, override, data))
    return SlideParts(tuple(parts), slide.reusable)


def _retarget(rels: bytes, owner: str, names: dict[str, str]) -> bytes:
    """Relationships of `owner` pointing at the parts' new names (`names`: old -> new)."""
    text = rels.decode("utf-8")
    new_owner = names[owner]

    def one(found: re.Match[str]) -> str:
        attributes = dict(_ATTRIBUTE.findall(found.group(1)))
        if attributes.get("TargetMode") == "External":
            return found.group(0)
        target = _resolve(owner, attributes["Target"])
        if target not in names:
            return found.group(0)
        new = _relative(new_owner, names[target])
        return found.group(0).replace(f'Target="{attributes["Target"]}"', f'Target="{new}"')

    return _RELATIONSHIP.sub(one, text).encode("utf-8")


def _zip(package: Package, when: datetime, deflated: archive.Deflated | None
         ) -> tuple[bytes, archive.Deflated]:
    """The package's entries, [Content_Types].xml first and the others sorted, each stamped
    `when`; the content types written the way python-pptx writes them."""
    types = ("<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n"
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             + "".join(f'<Default Extension="{ext}" ContentType="{kind}"/>'
                       for ext, kind in sorted(package.defaults.items()))
             + "".join(f'<Override PartName="/{name}" ContentType="{kind}"/>'
                       for name, kind in sorted(package.overrides.items(),
                                                key=lambda item: "/" + item[0]))
             + "</Types>")
    entries = [(TYPES, types.encode("utf-8")), *sorted(package.entries.items())]
    return archive.write(entries, when, deflated)
