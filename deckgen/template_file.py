"""The template's gatekeeper: a `--template` is read with bounds, then validated as a package.

Before python-pptx sees a template, it must be a regular file (not a FIFO, a device or a
folder) of at most MAX_BYTES, a zip of at most MAX_PARTS parts, each of which inflates to
at most MAX_PART_BYTES and all together to at most MAX_TOTAL_BYTES. Sizes are counted
while inflating, in small chunks, so a zip bomb is refused within a few megabytes of
memory whatever its headers claim. Then the package must be a PowerPoint presentation
(not a Word or Excel file renamed), with a theme and a slide size PowerPoint can show.
Every refusal is one line naming `--template`. No rendering library is imported here.
"""

from __future__ import annotations

import errno
import io
import os
import posixpath
import re
import stat
import struct
import zipfile
import zlib
from pathlib import Path
from xml.etree import ElementTree
from xml.parsers import expat

from deckgen import fmt
from deckgen.errors import InputError, Problem

MAX_BYTES = 64 * 2**20  # the template file
MAX_PARTS = 2_000
MAX_PART_BYTES = 64 * 2**20  # one part, inflated
MAX_TOTAL_BYTES = 160 * 2**20  # every part, inflated
MIN_SIDE, MAX_SIDE = 914_400, 51_206_400  # PowerPoint's slide sides: 1 to 56 inches (EMU)
_CHUNK = 1 << 16
MAX_XML_BYTES = 8 * 2**20  # one XML part (python-pptx's parser refuses a 10 MB text node)
MAX_XML_DEPTH = 200  # elements within elements (python-pptx's parser stops at 256)
MAX_PIXELS = 40_000_000  # one picture: sampled for its colours, decoded within bounds

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
_SAVE = "save the template as .pptx and try again"


def _refuse(_path: Path, message: str) -> InputError:
    """A package problem: named by the option, as python-pptx's own refusals are."""
    return InputError(Problem(message, path="--template"))


class NotRegular(Exception):
    """The path names something other than a regular file (its kind in words)."""


class TooLarge(Exception):
    """The file is larger than the limit it is read with."""


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them. A FIFO, a device
    or a folder is refused (NotRegular) before anything is read and without waiting;
    the operating system's refusals are raised as they come (OSError)."""
    with open(path, "rb", opener=_no_wait) as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(kind_of(info.st_mode))
        if info.st_size > limit:
            raise TooLarge
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge
    return data


def _no_wait(path: str, flags: int) -> int:
    """Open without waiting (a FIFO with no writer would block a plain open)."""
    return os.open(path, flags | os.O_NONBLOCK)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def os_reason(err: OSError) -> str:
    """The operating system's refusal to read a path, in words."""
    if err.errno == errno.ENAMETOOLONG:
        return "cannot be read: the name is longer than the file system allows (255 bytes)"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "cannot be read (permission denied)"
    if err.errno == errno.ELOOP:
        return "cannot be read: its symbolic links go round in a loop"
    if err.errno == errno.ENOTDIR:
        return "cannot be read: a part of its path is a file"
    return f"cannot be read: {err.strerror or err}"


def read(path: Path) -> bytes:
    """A template's bytes once they are known to be a PowerPoint package deckgen can use."""

    def refuse(message: str) -> InputError:
        return InputError(Problem(message, str(path), path="--template"))

    try:
        data = read_bounded(path, MAX_BYTES)
    except IsADirectoryError:
        raise refuse("is a folder, not a .pptx template") from None
    except NotRegular as err:
        raise refuse(f"is {err}, not a .pptx template; name a regular file") from None
    except TooLarge:
        raise refuse(f"is larger than {fmt.count(MAX_BYTES)} bytes, the limit for a "
                     "template") from None
    except FileNotFoundError as err:
        raise refuse(f"cannot be read: {err.strerror}") from None
    except OSError as err:
        raise refuse(os_reason(err)) from None
    return examine(data, path)


def examine(data: bytes, path: Path) -> bytes:
    """The template's bytes once they are a bounded, usable PowerPoint package: the parts
    checked are the parts python-pptx opens (the presentation through the package's
    relationship, each master through the presentation's list, each theme through its
    master's relationship). An XML part written in UTF-16 or with a DOCTYPE (no internal
    subset) is rewritten as plain UTF-8, which is what the deck code reads; otherwise the
    bytes are returned as they are."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as err:
        why = str(err).strip().splitlines()[0][:100] if str(err).strip() else "not a zip"
        raise _refuse(path, f"is not a PowerPoint .pptx file ({why}); {_SAVE}") from None
    with archive:
        package = _Package(archive, path)
        package.bound()
        rewritten = package.walk()
        if not rewritten:
            return data
        return package.rewrite(rewritten)


class _Package:
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

    def refuse(self, message: str) -> InputError:
        return _refuse(self.path, message)

    def bound(self) -> None:
        """Every part within the bounds, inflated in small steps and counted; a picture's
        pixel count read from its header."""
        if len(self.infos) > MAX_PARTS:
            raise self.refuse(f"has {fmt.count(len(self.infos))} parts, more than the "
                              f"{fmt.count(MAX_PARTS)} a template may have")
        for info in self.infos:
            if info.file_size > MAX_PART_BYTES:
                raise _too_big(self.path, info.filename)
            if info.flag_bits & 0x1:
                raise self.refuse(f"part {info.filename!r} is encrypted; {_SAVE}")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                method = _METHODS.get(info.compress_type, f"method {info.compress_type}")
                raise self.refuse(f"part {info.filename!r} is compressed with {method}, which "
                                  "cannot be inflated in bounded steps (a .pptx uses deflate); "
                                  f"{_SAVE}")
        if "[Content_Types].xml" not in self.names:
            raise self.refuse("is not a PowerPoint .pptx file (a zip without "
                              f"[Content_Types].xml); {_SAVE}")
        total = 0
        for info in self.infos:
            head = _inflate(self.archive, info, self.path, keep=False,
                            room=MAX_TOTAL_BYTES - total)
            total += info.file_size
            _pixels(self, info, head)

    def blob(self, name: str) -> bytes:
        info = self.names[name]
        if info.file_size > MAX_XML_BYTES:
            raise self.refuse(f"part {name!r} is larger than {fmt.count(MAX_XML_BYTES)} bytes, "
                              "the limit for an XML part of a template")
        return _inflate(self.archive, info, self.path)

    def content_type(self, partname: str) -> str | None:
        if partname.lower() in self.overrides:
            return self.overrides[partname.lower()]
        ext = posixpath.splitext(partname)[1][1:]
        return self.defaults.get(ext.lower())

    def walk(self) -> dict[str, bytes]:
        """Every part python-pptx loads, each XML part parsed once with the hardened parser;
        the checks python-pptx's opening and deckgen's theme code rely on. The XML parts
        rewritten as plain UTF-8, by member name."""
        rewritten: dict[str, bytes] = {}

        def parse(name: str) -> ElementTree.Element:
            root, plain = xml_part(self.blob(name), self.path, name)
            if plain is not None:
                rewritten[name] = plain
            return root

        types = parse("[Content_Types].xml")
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
        rels: dict[str, list[tuple[str, str, str]]] = {}  # partname: (id, type, target)
        roots: dict[str, ElementTree.Element] = {}
        pending = ["/"]
        while pending:  # python-pptx's walk: every internal target, depth first
            partname = pending.pop()
            if partname in rels:
                continue
            found: list[tuple[str, str, str]] = []
            rels_name = _rels_name(partname)
            if rels_name in self.names:
                for rel in parse(rels_name).iter(f"{_R}Relationship"):
                    if rel.get("TargetMode") == "External":
                        continue
                    target = posixpath.abspath(posixpath.join(posixpath.split(partname)[0],
                                                              rel.get("Target", "")))
                    found.append((rel.get("Id", ""), rel.get("Type", ""), target))
                    pending.append(target)
            rels[partname] = found
        parts = [p for p in rels if p != "/" and p[1:] in self.names]
        for partname in parts:
            ctype = self.content_type(partname)
            if ctype is None:
                raise self.refuse(f"part {partname[1:]!r} has no content type in "
                                  f"[Content_Types].xml; {_SAVE}")
            if ctype.endswith("xml"):
                roots[partname] = parse(partname[1:])

        def valid(source: str) -> list[tuple[str, str, str]]:
            return [r for r in rels.get(source, []) if r[2] in roots or r[2] in parts]

        def one(source: str, reltype: str, none: str, many: str) -> str:
            targets = [r[2] for r in valid(source) if r[1] == reltype]
            if len(targets) != 1:
                raise self.refuse(f"{many if targets else none}; {_SAVE}")
            return targets[0]

        presentation = one("/", _RT + "officeDocument",
                           "is not a PowerPoint .pptx file (it holds no presentation: _rels/.rels "
                           "names no presentation part it holds)",
                           "has more than one presentation part (_rels/.rels names "
                           f"{len([r for r in valid('/') if r[1] == _RT + 'officeDocument'])})")
        kind = self.content_type(presentation) or ""
        if not _PRESENTATION.match(kind):
            raise self.refuse(f"part {presentation[1:]!r}, its presentation, is not a "
                              f"presentation part (content type {kind[:80]!r}); {_SAVE}")
        _slide_size(roots[presentation], self.path)
        by_id = {r[0]: r[2] for r in valid(presentation)}
        masters = [by_id.get(m.get(_RID, ""), "")
                   for m in roots[presentation].iter(f"{_P}sldMasterId")]
        if not masters:
            raise self.refuse("has no slide master (an empty <p:sldMasterIdLst> in "
                              f"{presentation[1:]}); {_SAVE}")
        for master in masters:
            if master not in roots or not (self.content_type(master) or "") \
                    .endswith("slideMaster+xml"):
                raise self.refuse(f"names a slide master in {presentation[1:]} that it does "
                                  f"not hold; {_SAVE}")
            theme = one(master, _RT + "theme",
                        f"slide master {master[1:]!r} has no theme (no theme relationship to "
                        "a part it holds)",
                        f"slide master {master[1:]!r} has more than one theme")
            if theme not in roots:
                raise self.refuse(f"theme {theme[1:]!r} of slide master {master[1:]!r} is not "
                                  f"an XML part; {_SAVE}")
            if roots[theme].tag != f"{_A}theme":
                raise self.refuse(f"part {theme[1:]!r}, the theme of slide master "
                                  f"{master[1:]!r}, holds no <a:theme>; {_SAVE}")
            layouts = {r[0]: r[2] for r in valid(master)}
            for entry in roots[master].iter(f"{_P}sldLayoutId"):
                if layouts.get(entry.get(_RID, "")) not in roots:
                    raise self.refuse(f"slide master {master[1:]!r} names a layout it does "
                                      f"not hold; {_SAVE}")
        return rewritten

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
                                or _inflate(self.archive, info, self.path))
        return out.getvalue()


_METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA", 9: "deflate64"}
_R = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_RID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _rels_name(partname: str) -> str:
    """The member holding a part's relationships ('_rels/.rels' for the package)."""
    folder, name = posixpath.split(partname)
    return posixpath.join(folder, "_rels", f"{name}.rels").lstrip("/")


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path, *,
             keep: bool = True, room: int = MAX_TOTAL_BYTES) -> bytes:
    """One part inflated in small chunks and counted, whatever its header says (the bytes
    are kept only when `keep`, else its first chunk); a part past the bounds is refused
    mid-way."""
    name = info.filename
    size = 0
    pieces: list[bytes] = []
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                size += len(chunk)
                if size > MAX_PART_BYTES:
                    raise _too_big(path, name)
                if size > room:
                    raise _refuse(path, f"inflates to more than {fmt.count(MAX_TOTAL_BYTES)} "
                                        "bytes, the limit for a template")
                if keep or not pieces:
                    pieces.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError,
            OSError) as err:
        why = str(err).strip().splitlines()[0][:100] if str(err).strip() else "damaged"
        raise _refuse(path, f"part {name!r} cannot be read ({why}); {_SAVE}") from None
    if size != info.file_size:  # pragma: no cover - zipfile verifies this itself
        raise _refuse(path, f"part {name!r} is damaged; {_SAVE}")
    return b"".join(pieces)


def _too_big(path: Path, name: str) -> InputError:
    return _refuse(path, f"part {name!r} inflates to more than {fmt.count(MAX_PART_BYTES)} "
                         "bytes, the limit for one part of a template")


# --- One hardened XML parser -----------------------------------------------------------------


class _Refused(Exception):
    """Raised from inside the parser's handlers: the part is refused with this reason."""


def xml_part(data: bytes, path: Path, part: str) -> tuple[ElementTree.Element, bytes | None]:
    """A part parsed by the one parser every template's XML goes through: at most
    MAX_XML_BYTES and MAX_XML_DEPTH deep (python-pptx's parser stops at 256), no DTD of its
    own, no entity declared, nothing fetched. UTF-16 and a DOCTYPE naming an outside DTD are
    legal XML: such a part comes back rewritten as plain UTF-8 (its root onwards), else
    None."""
    if len(data) > MAX_XML_BYTES:
        raise _refuse(path, f"part {part!r} is larger than {fmt.count(MAX_XML_BYTES)} bytes, the "
                            "limit for an XML part of a template")
    if not data.strip():
        raise _refuse(path, f"part {part!r} is empty, not XML; {_SAVE}")
    builder = ElementTree.TreeBuilder()
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    seen: dict[str, object] = {"depth": 0, "doctype": False, "encoding": None, "root": None}

    def tag(name: str) -> str:
        return "{" + name if "}" in name else name

    def start(name: str, attrs: dict[str, str]) -> None:
        depth = int(str(seen["depth"])) + 1
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"is nested more than {MAX_XML_DEPTH} elements deep")
        if seen["root"] is None:
            seen["root"] = parser.CurrentByteIndex
        seen["depth"] = depth
        builder.start(tag(name), {tag(k): v for k, v in attrs.items()})

    def end(name: str) -> None:
        seen["depth"] = int(str(seen["depth"])) - 1
        builder.end(tag(name))

    def doctype(name: str, system: str | None, public: str | None, internal: int) -> None:
        if internal:
            raise _Refused("declares a DTD of its own (a DOCTYPE with an internal subset), "
                           "which a .pptx never does")
        seen["doctype"] = True

    def entity(*_: object) -> None:
        raise _Refused("declares an entity, which a .pptx never does")

    def skipped(name: str, is_parameter: int) -> None:
        raise _Refused(f"refers to an entity ({name[:40]}) it does not declare, which a .pptx "
                       "never does")

    def declaration(version: str, encoding: str | None, standalone: int) -> None:
        seen["encoding"] = encoding

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.XmlDeclHandler = declaration
    parser.SkippedEntityHandler = skipped
    parser.ExternalEntityRefHandler = lambda *_: 0  # never fetched: an error if referenced
    try:
        parser.Parse(data, True)
        root = builder.close()
    except _Refused as err:
        raise _refuse(path, f"part {part!r} {err}; {_SAVE}") from None
    except (expat.ExpatError, ValueError) as err:
        raise _refuse(path, f"part {part!r} is not well-formed XML ({err}); {_SAVE}") from None
    codec = _codec(data, seen["encoding"])
    if codec == "utf-8" and not seen["doctype"]:
        return root, None
    start_at = seen["root"]
    assert isinstance(start_at, int)
    try:
        text = data[start_at:].decode(codec)
    except (LookupError, UnicodeDecodeError) as err:  # pragma: no cover - expat read it
        raise _refuse(path, f"part {part!r} cannot be decoded ({err}); {_SAVE}") from None
    plain = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text.encode()
    # The rewritten part must stand on its own (an entity its outside DTD would have
    # declared is refused here): it is what python-pptx and the deck code will read.
    root, again = xml_part(plain, path, part)
    assert again is None
    return root, plain


def _codec(data: bytes, declared: object) -> str:
    """The codec of the bytes after the root's start: from the byte order mark or the first
    bytes, else the declaration ('utf-8' only for UTF-8 with no mark)."""
    if data.startswith((b"\xff\xfe", b"<\x00?\x00")):
        return "utf-16-le"
    if data.startswith((b"\xfe\xff", b"\x00<\x00?")):
        return "utf-16-be"
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    name = str(declared or "utf-8").lower().replace("_", "-")
    return "utf-8" if name in ("utf-8", "utf8") else name


# --- Pictures: their size, read from their headers --------------------------------------------


def _pixels(package: _Package, info: zipfile.ZipInfo, head: bytes) -> None:
    """Refuse a PNG, JPEG, GIF or BMP part of more than MAX_PIXELS pixels (read from its
    header, nothing decoded). Other formats are checked where pictures are sampled."""
    size: tuple[int, int] | None = None
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        size = struct.unpack(">II", head[16:24])
    elif head.startswith((b"GIF87a", b"GIF89a")) and len(head) >= 10:
        size = struct.unpack("<HH", head[6:10])
    elif head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        size = (abs(width), abs(height))
    elif head.startswith(b"\xff\xd8\xff"):
        size = _jpeg_size(package.archive, info)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise package.refuse(
            f"picture {info.filename!r} is {fmt.count(size[0])} x {fmt.count(size[1])} pixels, "
            f"more than the {fmt.count(MAX_PIXELS)} a template's picture may have")


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[int, int] | None:
    """A JPEG's width and height from its frame header, its segments skipped as they are
    read (None when it has none: a damaged picture is not sampled)."""
    with archive.open(info) as stream:
        stream.read(2)
        while True:
            byte = stream.read(1)
            if byte != b"\xff":
                return None
            marker = stream.read(1)
            while marker == b"\xff":
                marker = stream.read(1)
            if not marker:
                return None
            code = marker[0]
            if code in (0x01, *range(0xD0, 0xD8)):
                continue
            if code in (0xD9, 0xDA):
                return None
            length = stream.read(2)
            if len(length) < 2:
                return None
            left = struct.unpack(">H", length)[0] - 2
            if code in _SOF:
                frame = stream.read(5)
                if len(frame) < 5:
                    return None
                height, width = struct.unpack(">HH", frame[1:5])
                return width, height
            while left > 0:
                skipped = len(stream.read(min(left, _CHUNK)))
                if not skipped:
                    return None
                left -= skipped


def _slide_size(root: ElementTree.Element, path: Path) -> None:
    size = root.find(f"{_P}sldSz")
    if size is None:
        raise _refuse(path, f"sets no slide size (no <p:sldSz> in its presentation); {_SAVE}")
    cx, cy = size.get("cx", ""), size.get("cy", "")
    if not (_DIGITS.fullmatch(cx) and _DIGITS.fullmatch(cy)):
        raise _refuse(path, "has a slide size that is not a whole number of EMU written in "
                            f"the digits 0-9 ({cx[:20]!r} x {cy[:20]!r}); {_SAVE}")
    width, height = int(cx), int(cy)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise _refuse(path, f"has a slide size of {fmt.count(width)} x {fmt.count(height)} EMU; "
                            f"PowerPoint allows {fmt.count(MIN_SIDE)} to {fmt.count(MAX_SIDE)} "
                            "(1 to 56 inches) a side")


_DIGITS = re.compile(r"[0-9]{1,12}", re.ASCII)
