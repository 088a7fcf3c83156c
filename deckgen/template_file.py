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
import zipfile
import zlib
from pathlib import Path
from xml.etree import ElementTree

from deckgen import fmt
from deckgen.errors import InputError, Problem

MAX_BYTES = 64 * 2**20  # the template file
MAX_PARTS = 2_000
MAX_PART_BYTES = 64 * 2**20  # one part, inflated
MAX_TOTAL_BYTES = 160 * 2**20  # every part, inflated
MIN_SIDE, MAX_SIDE = 914_400, 51_206_400  # PowerPoint's slide sides: 1 to 56 inches (EMU)
_CHUNK = 1 << 16

_PRESENTATION = re.compile(
    r"^application/vnd\.(openxmlformats-officedocument\.presentationml|ms-powerpoint)"
    r"\.(presentation|template|slideshow)(\.macroEnabled)?\.main\+xml$", re.IGNORECASE)
_OTHER = {
    "wordprocessingml": "a Word document (.docx)",
    "ms-word": "a Word document (.docm)",
    "spreadsheetml": "an Excel workbook (.xlsx)",
    "ms-excel": "an Excel workbook (.xlsm)",
}
_THEME = "application/vnd.openxmlformats-officedocument.theme+xml"
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
    examine(data, path)
    return data


def examine(data: bytes, path: Path) -> None:
    """Refuse a template that is not a bounded, usable PowerPoint package."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as err:
        why = str(err).strip().splitlines()[0][:100] if str(err).strip() else "not a zip"
        raise _refuse(path, f"is not a PowerPoint .pptx file ({why}); {_SAVE}") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_PARTS:
            raise _refuse(path, f"has {fmt.count(len(infos))} parts, more than the "
                                f"{fmt.count(MAX_PARTS)} a template may have")
        for info in infos:
            if info.file_size > MAX_PART_BYTES:
                raise _too_big(path, info.filename)
            if info.flag_bits & 0x1:
                raise _refuse(path, f"part {info.filename!r} is encrypted; {_SAVE}")
        names = {info.filename: info for info in infos}
        if "[Content_Types].xml" not in names:
            raise _refuse(path, "is not a PowerPoint .pptx file (a zip without "
                                f"[Content_Types].xml); {_SAVE}")
        overrides = _content_types(_inflate(archive, names["[Content_Types].xml"], path),
                                   path)
        main = [name for name, kind in overrides.items() if _PRESENTATION.match(kind)]
        if not main:
            for kind in overrides.values():
                for marker, what in _OTHER.items():
                    if marker in kind.lower():
                        raise _refuse(path, f"is {what}, not a PowerPoint .pptx file; "
                                            "name a .pptx template")
            raise _refuse(path, "is not a PowerPoint .pptx file (it holds no presentation); "
                                f"{_SAVE}")
        if main[0] not in names:
            raise _refuse(path, f"names a presentation part ({main[0]}) it does not hold; "
                                f"{_SAVE}")
        if not any(kind == _THEME and name in names for name, kind in overrides.items()):
            raise _refuse(path, "has no theme part, which a PowerPoint template needs; "
                                f"{_SAVE}")
        total = 0
        presentation = b""
        for info in infos:  # every part inflates within the bounds, counted as it inflates
            kept = _inflate(archive, info, path, keep=info.filename == main[0],
                            room=MAX_TOTAL_BYTES - total)
            total += info.file_size
            if info.filename == main[0]:
                presentation = kept
    _slide_size(presentation, path)


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path, *,
             keep: bool = True, room: int = MAX_TOTAL_BYTES) -> bytes:
    """One part inflated in small chunks and counted, whatever its header says (the bytes
    are kept only when `keep`); a part past the bounds is refused mid-way."""
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
                if keep:
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


def _xml(data: bytes, path: Path, part: str) -> ElementTree.Element:
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise _refuse(path, f"part {part!r} declares a DOCTYPE, which a .pptx never does; "
                            f"{_SAVE}")
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        raise _refuse(path, f"part {part!r} is not well-formed XML ({err}); {_SAVE}") from None


def _content_types(data: bytes, path: Path) -> dict[str, str]:
    """Every part's content type by its name in the zip ('ppt/presentation.xml')."""
    root = _xml(data, path, "[Content_Types].xml")
    found = {}
    for override in root.iter(f"{_CT}Override"):
        name = posixpath.normpath(override.get("PartName", "")).lstrip("/")
        found[name] = override.get("ContentType", "")
    return found


def _slide_size(data: bytes, path: Path) -> None:
    root = _xml(data, path, "ppt/presentation.xml")
    size = root.find(f"{_P}sldSz")
    if size is None:
        raise _refuse(path, f"sets no slide size (no <p:sldSz> in its presentation); {_SAVE}")
    try:
        width, height = int(size.get("cx", "")), int(size.get("cy", ""))
    except ValueError:
        raise _refuse(path, "has a slide size that is not a whole number of EMU; "
                            f"{_SAVE}") from None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise _refuse(path, f"has a slide size of {fmt.count(width)} x {fmt.count(height)} EMU; "
                            f"PowerPoint allows {fmt.count(MIN_SIDE)} to {fmt.count(MAX_SIDE)} "
                            "(1 to 56 inches) a side")
