"""Rendered charts, kept by the hash of everything that shapes them, so a rebuild draws none.

`render(...)` takes the same arguments as `charts.render` and returns the same bytes. A
chart is drawn once per process for a given input (the deck and the handout share it).
Inside `use(folder)`, charts are read from the output folder's cache (`.deckgen-cache/`),
and the ones drawn anew are saved there when the block ends without an error, that is,
after the build wrote its files: a failed build writes nothing at all. A rebuild after a
change of prose only reads the charts back and never imports matplotlib.

The key covers the chart spec, the theme, size, format, resolution and font size,
deckgen's version, the chart code itself and the versions of matplotlib, numpy and
Pillow. Each entry carries a checksum of its bytes; a damaged entry is drawn again, and a
build that fails after reading charts from disk is drawn once more without them
(`distrust`), so an entry whose checksum fits garbage cannot break a build. The cache never
fails a build: when it cannot be read or written, the chart is simply drawn.

The cache is a real folder that deckgen made: a symbolic link, a file or a folder that only
grows (chattr +a) in its place is neither read nor written, and pruning removes only
deckgen's own entries (40 hex digits, .png or .svg, a checksum in front).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from deckgen import __version__, output
from deckgen.content import Theme
from deckgen.errors import OutputError
from deckgen.story import Chart

FOLDER = ".deckgen-cache"
MAX_ENTRIES = 240  # on disk; a sweep of 5 speeds x 4 checks with 3 charts in 2 formats needs 120
_IN_MEMORY = 48
MAX_ENTRY_BYTES = 64 * 2**20  # an entry larger than this is not read
_ENTRY = re.compile(r"^[0-9a-f]{40}\.(png|svg)$")

_folder: Path | None = None
_new: dict[str, bytes] = {}  # entries drawn inside the current `use` block: file name -> entry
_memory: OrderedDict[str, bytes] = OrderedDict()
_from_disk: set[str] = set()  # keys read from disk inside the current `use` block
_trusted = True  # the disk may be read in the current `use` block
stats = {"drawn": 0, "from_memory": 0, "from_disk": 0}


@contextlib.contextmanager
def use(folder: Path | None, save: bool = True) -> Iterator[None]:
    """Read charts from `folder`'s cache while the block runs; save the new ones when it ends
    without an error (and `save`; otherwise `drawn()` hands them to the caller)."""
    global _folder, _new, _from_disk, _trusted
    before = _folder, _new, _from_disk, _trusted
    _folder, _new, _from_disk, _trusted = folder, {}, set(), True
    try:
        yield
        if save and folder is not None:
            keep(folder, _new)
    finally:
        _folder, _new, _from_disk, _trusted = before


def read_from_disk() -> bool:
    """Whether the current `use` block took a chart from the disk cache."""
    return bool(_from_disk)


def distrust() -> None:
    """Draw every chart anew for the rest of the current `use` block: the ones read from
    disk are forgotten (a retry after a build failed on what the cache gave)."""
    global _trusted
    _trusted = False
    for key in _from_disk:
        _memory.pop(key, None)
    _from_disk.clear()


def has_entries(folder: Path) -> bool:
    """`folder` has a chart cache that a build may have read from."""
    return usable(folder) and (folder / FOLDER).is_dir()


def usable(folder: Path) -> bool:
    """`folder`'s cache is a real folder deckgen may read and write (or is not made yet)."""
    place = folder / FOLDER
    try:
        mode = os.lstat(place).st_mode
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(mode) and output.frozen(place) is None


def drawn() -> dict[str, bytes]:
    """The entries drawn so far in the current `use` block, to save elsewhere (`keep`) or to
    hand over to it (`adopt`), e.g. from another process."""
    return dict(_new)


def adopt(entries: dict[str, bytes]) -> None:
    """Add entries drawn by another process to the current `use` block's."""
    _new.update(entries)


def keep(folder: Path, entries: dict[str, bytes]) -> None:
    """Save entries in `folder`'s cache (best effort), then prune it."""
    if not entries:
        return
    with contextlib.suppress(OSError, OutputError), output.locked(folder):
        if not usable(folder) or output.frozen(folder) is not None:
            return
        (folder / FOLDER).mkdir(exist_ok=True)
        if not usable(folder):  # made by someone else meanwhile, not a folder
            return
        output.sweep_leftovers(folder / FOLDER)
        for name, entry in entries.items():
            output.put(folder / FOLDER / name, entry, sync=False)
        _prune(folder)


def render(
    chart: Chart,
    theme: Theme,
    *,
    width_in: float,
    height_in: float,
    fmt: str = "png",
    dpi: int = 200,
    font_pt: float = 16.0,
) -> bytes:
    """`charts.render(...)`'s bytes, drawn only when no earlier build drew the same chart."""
    sizes = dict(width_in=width_in, height_in=height_in, fmt=fmt, dpi=dpi, font_pt=font_pt)
    key = _key(chart, theme, sizes)
    data = _memory.get(key)
    if data is not None:
        _memory.move_to_end(key)
        stats["from_memory"] += 1
        if _folder is not None and not (_folder / FOLDER / _name(key, fmt)).exists():
            _store(key, fmt, data)  # drawn for a build that failed: save it with this one
        return data
    data = _load(key, fmt)
    if data is not None:
        stats["from_disk"] += 1
        _from_disk.add(key)
    else:
        if "matplotlib" not in sys.modules:
            settle_matplotlib()
        from deckgen import charts

        data = charts.render(chart, theme, **sizes)  # type: ignore[arg-type]
        stats["drawn"] += 1
        _store(key, fmt, data)
    _memory[key] = data
    while len(_memory) > _IN_MEMORY:
        _memory.popitem(last=False)
    return data


def _key(chart: Chart, theme: Theme, sizes: dict[str, object]) -> str:
    """The hash of every input that shapes the chart's bytes (specs are frozen dataclasses)."""
    text = repr((chart, theme, sorted(sizes.items()), __version__) + _code())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _code() -> tuple[str, ...]:
    """The chart code's own hash and the versions of what draws and encodes a chart
    (matplotlib, numpy, Pillow): a changed drawing is a new key."""
    try:
        source = b"".join(file.read_bytes()
                          for file in sorted((Path(__file__).parent / "charts").glob("*.py")))
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


def _name(key: str, fmt: str) -> str:
    return f"{key[:40]}.{fmt}"


def _load(key: str, fmt: str) -> bytes | None:
    if _folder is None or not _trusted or not usable(_folder):
        return None
    path = _folder / FOLDER / _name(key, fmt)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        with os.fdopen(handle, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES + 64:
                return None
            blob = stream.read(MAX_ENTRY_BYTES + 65)
    except OSError:
        return None
    digest, data = blob[:64], blob[64:]
    if digest != hashlib.sha256(data).hexdigest().encode("ascii"):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last
    return data


def _store(key: str, fmt: str, data: bytes) -> None:
    if _folder is not None:
        _new[_name(key, fmt)] = hashlib.sha256(data).hexdigest().encode("ascii") + data


def _prune(folder: Path) -> None:
    """Keep the most recently used entries only; nothing but deckgen's own entries is
    ever removed."""
    with contextlib.suppress(OSError):
        if not usable(folder):
            return
        with os.scandir(folder / FOLDER) as found:
            entries = [(e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in found
                       if _ENTRY.match(e.name) and e.is_file(follow_symlinks=False)]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(reverse=True)
        for _, old in entries[MAX_ENTRIES:]:
            with contextlib.suppress(OSError):
                if _is_entry(Path(old)):
                    os.unlink(old)


def _is_entry(path: Path) -> bool:
    """The file starts with the checksum deckgen writes in front of each entry."""
    with open(path, "rb") as stream:
        head = stream.read(64)
    return len(head) == 64 and all(c in b"0123456789abcdef" for c in head)


def settle_matplotlib() -> None:
    """Give matplotlib a writable folder for its settings and font cache when its own is
    not one (MPLCONFIGDIR or ~/.config/matplotlib), so it neither warns nor leaves a
    temporary folder per build: deckgen makes one for the run and removes it at exit."""
    if "matplotlib" in sys.modules:
        return
    given = os.environ.get("MPLCONFIGDIR")
    if given:
        place = Path(given)
    else:
        config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        place = Path(config) / "matplotlib"
    try:
        place.mkdir(parents=True, exist_ok=True)
        if place.is_dir() and os.access(place, os.W_OK):
            return
    except (OSError, RuntimeError):
        pass
    own = tempfile.mkdtemp(prefix="deckgen-matplotlib-")
    main = os.getpid()

    def remove() -> None:
        if os.getpid() == main:
            shutil.rmtree(own, ignore_errors=True)

    atexit.register(remove)
    os.environ["MPLCONFIGDIR"] = own


def clear_memory() -> None:
    """Forget the charts drawn in this process (tests use it to see the disk cache at work)."""
    _memory.clear()
