"""A template's package as python-pptx opens it: every part within the bounds, its content
types, the parts its relationships reach, and the presentation, slide masters, themes and
layouts the deck code relies on, each checked before python-pptx sees them."""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from deckgen import fmt
from deckgen.errors import InputError
from deckgen.template.bounds import (
    MAX_PART_BYTES,
    MAX_PARTS,
    MAX_SIDE,
    MAX_TOTAL_BYTES,
    MAX_XML_BYTES,
    MIN_SIDE,
    SAVE,
    inflate,
    refuse,
    too_big,
)
from deckgen.template.picture_sizes import check_pixels
from deckgen.template.xml_parts import xml_part

_PRESENTATION = re.compile(
    r"^application/vnd\.(openxmlformats-officedocument\.presentationml|ms-powerpoint)"
    r"\.(presentation|template|slideshow)(\.macroEnabled)?\.main\+xml$", re.IGNORECASE)
_OTHER = {
    "wordprocessingml": "a Word document (.docx)",
    "ms-word": "a Word document (.docm)",
    "spreadsheetml": "an Excel workbook (.xlsx)",
    "ms-excel": "an Excel workbook (.xlsm)",
}
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA", 9: "deflate64"}
_R = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_RID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


class Package:
    """A zip seen as python-pptx sees it: a part is the member of exactly that name, its
    content type the override named by it or the default for its extension, both compared
    in lower case (as OPC asks and python-pptx does)."""

    def __init__(self, archive: zipfile.ZipFile, path: Path) -> None:
        self.archive = archive
        self.path = path
        self.infos = archive.infolist()
        self.names = {info.filename: info for info in self.infos}
        self.overrides: dict[str, str] = {}
        self.defaults: dict[str, str] = {}
        self.rels: dict[str, list[tuple[str, str, str]]] = {}  # partname: (id, type, target)
        self.parts: list[str] = []  # the parts the walk reaches that the package holds
        self.roots: dict[str, ElementTree.Element] = {}  # each XML part among them, parsed
        self.rewritten: dict[str, bytes] = {}  # the XML parts rewritten as plain UTF-8

    def refuse(self, message: str) -> InputError:
        return refuse(self.path, message)

    def bound(self) -> None:
        """Every part within the bounds, inflated in small steps and counted; a picture's
        pixel count read from its header."""
        if len(self.infos) > MAX_PARTS:
            raise self.refuse(f"has {fmt.count(len(self.infos))} parts, more than the "
                              f"{fmt.count(MAX_PARTS)} a template may have")
        for info in self.infos:
            if info.file_size > MAX_PART_BYTES:
                raise too_big(self.path, info.filename)
            if info.flag_bits & 0x1:
                raise self.refuse(f"part {info.filename!r} is encrypted; {SAVE}")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                method = _METHODS.get(info.compress_type, f"method {info.compress_type}")
                raise self.refuse(f"part {info.filename!r} is compressed with {method}, which "
                                  "cannot be inflated in bounded steps (a .pptx uses deflate); "
                                  f"{SAVE}")
        if "[Content_Types].xml" not in self.names:
            raise self.refuse("is not a PowerPoint .pptx file (a zip without "
                              f"[Content_Types].xml); {SAVE}")
        total = 0
        for info in self.infos:
            head = inflate(self.archive, info, self.path, keep=False,
                           room=MAX_TOTAL_BYTES - total)
            total += info.file_size
            check_pixels(self.archive, info, head, self.path)

    def blob(self, name: str) -> bytes:
        info = self.names[name]
        if info.file_size > MAX_XML_BYTES:
            raise self.refuse(f"part {name!r} is larger than {fmt.count(MAX_XML_BYTES)} bytes, "
                              "the limit for an XML part of a template")
        return inflate(self.archive, info, self.path)

    def data(self, partname: str) -> bytes:
        """A part's bytes, inflated within the bounds."""
        return inflate(self.archive, self.names[partname[1:]], self.path)

    def content_type(self, partname: str) -> str | None:
        if partname.lower() in self.overrides:
            return self.overrides[partname.lower()]
        ext = posixpath.splitext(partname)[1][1:]
        return self.defaults.get(ext.lower())

    def walk(self) -> dict[str, bytes]:
        """Every part python-pptx loads, each XML part parsed once with the hardened parser;
        the checks python-pptx's opening and deckgen's theme code rely on. The XML parts
        rewritten as plain UTF-8, by member name."""
        self._content_types()
        self._relationships()
        self.parts = [p for p in self.rels if p != "/" and p[1:] in self.names]
        for partname in self.parts:
            ctype = self.content_type(partname)
            if ctype is None:
                raise self.refuse(f"part {partname[1:]!r} has no content type in "
                                  f"[Content_Types].xml; {SAVE}")
            if ctype.endswith("xml"):
                self.roots[partname] = self.parse(partname[1:])
        presentation = self._presentation()
        for master in self._masters(presentation):
            self._check_master(presentation, master)
        return self.rewritten

    def parse(self, name: str) -> ElementTree.Element:
        """One XML part through the hardened parser, kept aside when it had to be rewritten."""
        root, plain = xml_part(self.blob(name), self.path, name)
        if plain is not None:
            self.rewritten[name] = plain
        return root

    def _content_types(self) -> None:
        """[Content_Types].xml read; a Word or Excel file renamed is refused as what it is."""
        types = self.parse("[Content_Types].xml")
        for override in types.iter(f"{_CT}Override"):
            self.overrides[override.get("PartName", "").lower()] = \
                override.get("ContentType", "")
        for default in types.iter(f"{_CT}Default"):
            self.defaults[default.get("Extension", "").lower()] = \
                default.get("ContentType", "")
        main = [kind for kind in self.overrides.values() if _PRESENTATION.match(kind)]
        if not main:
            for kind in self.overrides.values():
                for marker, what in _OTHER.items():
                    if marker in kind.lower():
                        raise self.refuse(f"is {what}, not a PowerPoint .pptx file; "
                                          "name a .pptx template")

    def _relationships(self) -> None:
        """python-pptx's walk: every internal target, depth first, from the package's own
        relationships; each part's relationships recorded."""
        pending = ["/"]
        while pending:
            partname = pending.pop()
            if partname in self.rels:
                continue
            found: list[tuple[str, str, str]] = []
            rels_name = _rels_name(partname)
            if rels_name in self.names:
                for rel in self.parse(rels_name).iter(f"{_R}Relationship"):
                    if rel.get("TargetMode") == "External":
                        continue
                    target = posixpath.abspath(posixpath.join(posixpath.split(partname)[0],
                                                              rel.get("Target", "")))
                    found.append((rel.get("Id", ""), rel.get("Type", ""), target))
                    pending.append(target)
            self.rels[partname] = found

    def _valid(self, source: str) -> list[tuple[str, str, str]]:
        """`source`'s relationships to parts the package holds."""
        return [r for r in self.rels.get(source, []) if r[2] in self.roots or r[2] in self.parts]

    def _one(self, source: str, reltype: str, none: str, many: str) -> str:
        """The one part `source` relates to as `reltype`; refused with `none` or `many`."""
        targets = [r[2] for r in self._valid(source) if r[1] == reltype]
        if len(targets) != 1:
            raise self.refuse(f"{many if targets else none}; {SAVE}")
        return targets[0]

    def _presentation(self) -> str:
        """The presentation part: one, of a presentation's content type, with a slide size
        PowerPoint can show."""
        presentation = self._one(
            "/", _RT + "officeDocument",
            "is not a PowerPoint .pptx file (it holds no presentation: _rels/.rels names no "
            "presentation part it holds)",
            "has more than one presentation part (_rels/.rels names "
            f"{len([r for r in self._valid('/') if r[1] == _RT + 'officeDocument'])})")
        kind = self.content_type(presentation) or ""
        if not _PRESENTATION.match(kind):
            raise self.refuse(f"part {presentation[1:]!r}, its presentation, is not a "
                              f"presentation part (content type {kind[:80]!r}); {SAVE}")
        _slide_size(self.roots[presentation], self.path)
        return presentation

    def _masters(self, presentation: str) -> list[str]:
        """The slide masters the presentation names (at least one)."""
        by_id = {r[0]: r[2] for r in self._valid(presentation)}
        masters = [by_id.get(m.get(_RID, ""), "")
                   for m in self.roots[presentation].iter(f"{_P}sldMasterId")]
        if not masters:
            raise self.refuse("has no slide master (an empty <p:sldMasterIdLst> in "
                              f"{presentation[1:]}); {SAVE}")
        return masters

    def _check_master(self, presentation: str, master: str) -> None:
        """A slide master the package holds, with one theme of its own and every layout it
        names."""
        roots = self.roots
        if master not in roots or not (self.content_type(master) or "") \
                .endswith("slideMaster+xml"):
            raise self.refuse(f"names a slide master in {presentation[1:]} that it does "
                              f"not hold; {SAVE}")
        theme = self._one(master, _RT + "theme",
                          f"slide master {master[1:]!r} has no theme (no theme relationship to "
                          "a part it holds)",
                          f"slide master {master[1:]!r} has more than one theme")
        if theme not in roots:
            raise self.refuse(f"theme {theme[1:]!r} of slide master {master[1:]!r} is not "
                              f"an XML part; {SAVE}")
        if roots[theme].tag != f"{_A}theme":
            raise self.refuse(f"part {theme[1:]!r}, the theme of slide master "
                              f"{master[1:]!r}, holds no <a:theme>; {SAVE}")
        layouts = {r[0]: r[2] for r in self._valid(master)}
        for entry in roots[master].iter(f"{_P}sldLayoutId"):
            if layouts.get(entry.get(_RID, "")) not in roots:
                raise self.refuse(f"slide master {master[1:]!r} names a layout it does "
                                  f"not hold; {SAVE}")

    def rewrite(self, rewritten: dict[str, bytes]) -> bytes:
        """The package again, the parts in `rewritten` replaced, every other part's bytes
        and every member's name, date and order as they were."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as packed:
            for info in self.infos:
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.compress_type = zipfile.ZIP_DEFLATED
                copy.external_attr = info.external_attr
                packed.writestr(copy, rewritten.get(info.filename)
                                or inflate(self.archive, info, self.path))
        return out.getvalue()


def _rels_name(partname: str) -> str:
    """The member holding a part's relationships ('_rels/.rels' for the package)."""
    folder, name = posixpath.split(partname)
    return posixpath.join(folder, "_rels", f"{name}.rels").lstrip("/")


def _slide_size(root: ElementTree.Element, path: Path) -> None:
    size = root.find(f"{_P}sldSz")
    if size is None:
        raise refuse(path, f"sets no slide size (no <p:sldSz> in its presentation); {SAVE}")
    cx, cy = size.get("cx", ""), size.get("cy", "")
    if not (_DIGITS.fullmatch(cx) and _DIGITS.fullmatch(cy)):
        raise refuse(path, "has a slide size that is not a whole number of EMU written in "
                           f"the digits 0-9 ({cx[:20]!r} x {cy[:20]!r}); {SAVE}")
    width, height = int(cx), int(cy)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise refuse(path, f"has a slide size of {fmt.count(width)} x {fmt.count(height)} EMU; "
                           f"PowerPoint allows {fmt.count(MIN_SIDE)} to {fmt.count(MAX_SIDE)} "
                           "(1 to 56 inches) a side")


_DIGITS = re.compile(r"[0-9]{1,12}", re.ASCII)
