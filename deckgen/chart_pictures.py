"""The deck's chart pictures (`--charts picture`), each drawn once and kept for the next build.

Drawing them takes matplotlib's import and about a tenth of a second a chart, most of a
picture build's time; a rebuild takes them back as they were. A `ChartPictures` keeps the
pictures it drew or read for its own life (a watch hands one from build to build), and in
`<out>/.deckgen-cache/` (`save()`, once the build's files are written), keyed by a hash of
everything that shapes a picture: the chart as placed (its fonts by their files' contents),
its resolution, the chart code and the versions of what draws and encodes it.

The folder is used only when it is safe: it is made (mode 0700) only inside an output folder
the user owns, and read only when it is a real folder owned by the user that nobody else may
write to. Entries are opened by name inside it (no link is followed), read up to a bound,
and taken only when their checksum fits and they are PNG; a damaged entry is drawn again and
overwritten. Earlier versions of deckgen kept slides there too (`.slide`, `.svg`): the next
build removes those, and never any file deckgen did not name. Deleting the folder is always
safe.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import secrets
import stat
import time
from pathlib import Path

from deckgen import __version__
from deckgen.plan.placed import Chart, Label

FOLDER = ".deckgen-cache"
KEPT = 64  # pictures in the folder: a dozen decks' charts; past it the oldest go
MAX_BYTES = 16 * 2**20  # an entry larger than this is not read (a picture is about 100 KB)
PNG = b"\x89PNG\r\n\x1a\n"
_OURS = re.compile(r"^[0-9a-f]{40}\.png$")
_EARLIER = re.compile(r"^[0-9a-f]{40}\.(svg|slide)$")  # what earlier versions kept there
_UNFINISHED = re.compile(r"^\.deckgen-[0-9a-f]{16}\.tmp$")  # a save cut short
STALE_NS = 600 * 10**9  # an unfinished entry this old is left over, not being written


class ChartPictures:
    """Chart pictures drawn once: `render(chart)` returns the placed chart's picture
    (deckgen.paint.pictures.render's bytes), from this object's own, from `folder`'s cache
    (None: no folder), or drawn."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.kept: dict[str, bytes] = {}  # key -> picture, for this object's life
        self.new: dict[str, bytes] = {}  # drawn since the last save(), for the folder
        self._code: tuple[str, ...] | None = None

    def render(self, chart: Chart, *, dpi: int = 200) -> bytes:
        """The placed chart's picture at `dpi`, drawn only when no earlier build drew it."""
        if self._code is None:
            self._code = _code()
        text = repr((chart, dpi, __version__) + self._code)
        for file in sorted(_font_files(chart), key=len, reverse=True):
            # a font by what it is, not where it is (an installed copy and a checkout of
            # deckgen name their own shipped fonts by other paths)
            text = text.replace(repr(file), _font_digest(file))
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]
        data = self.kept.get(key)
        if data is None and self.folder is not None:
            data = _read(self.folder, key)
        if data is None:
            from deckgen.paint import pictures  # settles matplotlib's folder first

            data = pictures.render(chart, dpi=dpi)
            self.new[key] = data
        self.kept.pop(key, None)
        self.kept[key] = data  # the most recently used last
        while len(self.kept) > KEPT:
            del self.kept[next(iter(self.kept))]
        return data

    def save(self) -> None:
        """Keep the pictures drawn since the last save in the folder (best effort: a folder
        that cannot be used is left alone, and the pictures are drawn again next time). An
        existing folder is pruned even when nothing new was drawn, so what earlier versions
        kept there goes with the next build."""
        if self.folder is None:
            return
        with contextlib.suppress(OSError):
            _save(self.folder, self.new)
        self.new = {}


def _open_folder(out: Path, make: bool) -> int | None:
    """A descriptor of `out`'s cache folder when it is safe to use: a real folder (not a
    link) owned by this user that nobody else may write to; made when `make` and `out`
    is this user's. None otherwise."""
    me = os.geteuid()
    try:
        parent = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if make and os.fstat(parent).st_uid == me:
            with contextlib.suppress(FileExistsError):
                os.mkdir(FOLDER, 0o700, dir_fd=parent)
        try:
            folder = os.open(FOLDER, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                             dir_fd=parent)
        except OSError:
            return None
    finally:
        os.close(parent)
    info = os.fstat(folder)
    if info.st_uid != me or info.st_mode & 0o022:
        os.close(folder)
        return None
    return folder


def _read(out: Path, key: str) -> bytes | None:
    """The picture kept under `key`, when its entry is whole; None otherwise."""
    folder = _open_folder(out, make=False)
    if folder is None:
        return None
    try:
        handle = os.open(f"{key}.png", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=folder)
        with os.fdopen(handle, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES + 64:
                return None
            blob = stream.read(MAX_BYTES + 65)
        os.utime(f"{key}.png", dir_fd=folder, follow_symlinks=False)  # used: pruned last
    except OSError:
        return None
    finally:
        os.close(folder)
    digest, data = blob[:64], blob[64:]
    if digest != _checksum(key, data) or not data.startswith(PNG):
        return None
    return data


def _save(out: Path, pictures: dict[str, bytes]) -> None:
    folder = _open_folder(out, make=bool(pictures))
    if folder is None:
        return
    try:
        for key, data in pictures.items():
            temporary = f".deckgen-{secrets.token_hex(8)}.tmp"
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                             | os.O_CLOEXEC, 0o600, dir_fd=folder)
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(_checksum(key, data) + data)
                os.replace(temporary, f"{key}.png", src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=folder)
                raise
        _prune(folder)
    finally:
        os.close(folder)


def _prune(folder: int) -> None:
    """Keep the KEPT newest pictures; remove what earlier versions kept and saves cut short
    long ago. Only files named
    as deckgen names its entries, and never through a link, are removed."""
    pictures: list[tuple[int, str]] = []
    now = time.time_ns()
    for name in os.listdir(folder):
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode):
            continue
        if _EARLIER.match(name) or (_UNFINISHED.match(name) and now - info.st_mtime_ns > STALE_NS):
            os.unlink(name, dir_fd=folder)
        elif _OURS.match(name):
            pictures.append((info.st_mtime_ns, name))
    for _, name in sorted(pictures, reverse=True)[KEPT:]:
        os.unlink(name, dir_fd=folder)


def _checksum(key: str, data: bytes) -> bytes:
    return hashlib.sha256(key.encode("ascii") + data).hexdigest().encode("ascii")


def _code() -> tuple[str, ...]:
    """The hash of the code that draws a placed chart (everything it shows, where, and in
    which font file, is in the placed chart itself) and the versions of matplotlib, numpy
    and Pillow, which draw and encode it: a changed drawing is a new key."""
    here = Path(__file__).parent
    try:
        files = sorted((here / "paint" / "pictures").glob("*.py"))
        source = b"".join(file.read_bytes() for file in files)
    except OSError:  # pragma: no cover - an install without sources
        source = __version__.encode()
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for name in ("matplotlib", "numpy", "pillow"):
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:  # pragma: no cover - installed without metadata
            versions.append(f"{name} unknown")
    return (hashlib.sha256(source).hexdigest(), *versions)


def _font_files(chart: Chart) -> set[str]:
    """The font files the chart's text is set in."""
    return {span.font.file for layer in chart.placement.layers if isinstance(layer, Label)
            for line in layer.lines for span in line.spans}


@functools.cache
def _font_digest(file: str) -> str:
    """A font file's contents, as a digest ('font:' and the path where it cannot be read)."""
    try:
        return "font:" + hashlib.sha256(Path(file).read_bytes()).hexdigest()
    except OSError:
        return "font:" + file
