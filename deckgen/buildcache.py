"""Rendered charts and drawn slides, kept by the hash of everything that shapes them, so a
rebuild draws no chart again and only the slides that changed.

A build makes one `Cache` and hands it to the renderers: `cache.render(...)` takes the same
arguments as `charts.render` and returns the same bytes. A chart is drawn once per build for
a given input, and once per `Memory` when a watch hands the same memory from build to build.
`use(folder)` gives a cache that reads the output folder's entries (`.deckgen-cache/`) and
saves the ones drawn anew when the block ends without an error, that is, after the build
wrote its files: a failed build writes nothing at all. A rebuild after a change of prose
only reads the charts back and never imports matplotlib. No state lives in this module:
each cache is an object.

The key covers the chart spec, the theme, size, format, resolution and font size,
deckgen's version, the chart code itself and the versions of matplotlib, numpy and
Pillow. Each entry carries a checksum of its bytes; a damaged entry is drawn again, and a
build that fails after reading charts from disk is drawn once more without them
(`distrust`), so an entry whose checksum fits garbage cannot break a build. The cache never
fails a build: when it cannot be read or written, the chart is simply drawn.

The deck keeps each slide it drew (`keep_slide`: its XML, notes and native charts, under the
hash of its plan, its place, the template and the drawing code) and takes a slide whose hash
an earlier build kept instead of drawing it (`slide`); see deckgen.render.deck.reuse. A
process keeps the slides it drew or checked as they are (`Kept`): only an entry read from
disk is parsed and checked, and a slide becomes bytes only to be saved.

The cache is a real folder that deckgen made: a symbolic link, a file or a folder that only
grows (chattr +a) in its place is neither read nor written, and pruning removes only
deckgen's own entries (40 hex digits, .png, .svg or .slide, a checksum in front).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

from deckgen import __version__, output
from deckgen.content import Theme
from deckgen.errors import OutputError
from deckgen.story import Chart

FOLDER = ".deckgen-cache"
MAX_ENTRIES = 480  # on disk: about 25 decks' slides (16 each, more with --walk), plus charts
_IN_MEMORY = 96  # charts: a few decks' worth
FULL_EVERY = 64  # builds between collections that look at the frozen objects too (40 ms)
SLIDES_IN_MEMORY = 48  # drawn slides, as parts: two decks' worth (a sweep shares six a deck)
LINES = 5_000  # paragraphs broken into lines (about 1.5 KB each; a deck breaks 2,000), kept
LINE_FONTS = 4  # pairs of fonts whose lines are kept
MAX_ENTRY_BYTES = 64 * 2**20  # an entry larger than this is not read
_ENTRY = re.compile(r"^[0-9a-f]{40}\.(png|svg|slide)$")


class Kept(Protocol):
    """A slide as the deck keeps it: saved as the bytes `to_bytes(key)` gives."""

    def to_bytes(self, key: str) -> bytes: ...


class Memory:
    """What one process keeps from build to build: the charts and slides drawn or read, the
    most recently used last, and the lines the deck's planner broke paragraphs into. A
    build's own, or one a watch (or a sweep's worker) hands from build to build, so a
    rebuild reads nothing from disk."""

    def __init__(self, size: int = _IN_MEMORY) -> None:
        self.size = size
        self.entries: OrderedDict[str, bytes] = OrderedDict()  # charts
        self.slides: OrderedDict[str, Kept] = OrderedDict()  # drawn or checked here
        self._code: tuple[str, ...] | None = None
        self._deck_code: str | None = None
        self._lines: dict[tuple[str, str], dict[Any, Any]] = {}
        self._tidied = 0  # builds tidied after
        # The last deck's zip entries, deflated (deckgen.render.deck.archive.Deflated).
        self.deflated: dict[bytes, tuple[int, bytes]] = {}

    def tidy(self) -> None:
        """After a build in a process that goes on (a watch, a sweep's worker): collect the
        build's garbage now. A deck leaves reference cycles (python-pptx's package and
        parts) holding libxml2 documents, which Python's collector, counting Python objects
        only, leaves for long: a sweep's memory grew by half a megabyte a speed. What
        survives is then frozen (kept out of later collections), so a collection looks at
        one build's objects only: 2 ms, where the kept lines and caches made it 7. Every
        FULL_EVERY builds, the frozen objects are looked at too: reference cycles kept at
        the time of a freeze and let go since (what a process-level cache dropped) are
        collected only then. The caches keep plain values where they can (the default
        template as bytes), so this is a backstop."""
        self._tidied += 1
        if self._tidied % FULL_EVERY == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    def get(self, key: str) -> bytes | None:
        return _recent(self.entries, key)

    def put(self, key: str, data: bytes) -> None:
        _keep_recent(self.entries, key, data, self.size)

    def slide(self, key: str) -> Kept | None:
        return _recent(self.slides, key)

    def put_slide(self, key: str, slide: Kept) -> None:
        _keep_recent(self.slides, key, slide, SLIDES_IN_MEMORY)

    def code(self) -> tuple[str, ...]:
        """The chart code's hash and the drawing libraries' versions, read once."""
        if self._code is None:
            self._code = _code()
        return self._code

    def lines(self, body_font: str, heading_font: str) -> dict[Any, Any]:
        """Where the deck's planner keeps the lines it breaks paragraphs into, for these
        fonts, from build to build. Asked at the start of each build: past LINES entries
        it starts empty again, and only the last LINE_FONTS pairs of fonts are kept."""
        pair = (body_font, heading_font)
        found = self._lines.pop(pair, {})
        if len(found) > LINES:
            found = {}
        self._lines[pair] = found  # the most recently asked last
        while len(self._lines) > LINE_FONTS:
            del self._lines[next(iter(self._lines))]
        return found

    def deck_code(self) -> str:
        """The hash of what turns a slide's plan into its parts (`_deck_code`), read once."""
        if self._deck_code is None:
            self._deck_code = _deck_code()
        return self._deck_code


_V = TypeVar("_V")


def _recent(kept: OrderedDict[str, _V], key: str) -> _V | None:
    """The value kept under `key`, now the most recently used; None when there is none."""
    found = kept.get(key)
    if found is not None:
        kept.move_to_end(key)
    return found


def _keep_recent(kept: OrderedDict[str, _V], key: str, value: _V, most: int) -> None:
    """Keep `value` under `key`, forgetting the least recently used past `most`."""
    kept[key] = value
    while len(kept) > most:
        kept.popitem(last=False)


class Cache:
    """The charts and slides of one build: from memory, from `folder`'s cache, or drawn. The
    ones drawn (or first met) in this build are kept in `new` until `save()`, once the files
    are written.

    `render(...)` takes the same arguments as `charts.render` and returns the same bytes.
    """

    def __init__(self, folder: Path | None = None, memory: Memory | None = None,
                 store: bool = True) -> None:
        self.folder = folder
        self.store = store  # whether new entries are made for `folder` at all
        self.memory = memory if memory is not None else Memory()
        self.new: dict[str, bytes] = {}  # file name -> entry, for `folder`
        self.from_disk: set[str] = set()  # keys read from disk
        self.trusted = True  # the disk may be read
        self.stats = {"drawn": 0, "from_memory": 0, "from_disk": 0}  # charts
        self.slide_stats = {"from_memory": 0, "from_disk": 0, "refused": 0, "kept": 0}

    def read_from_disk(self) -> bool:
        """Whether this build took a chart or a slide from the disk cache."""
        return bool(self.from_disk)

    def distrust(self) -> None:
        """Draw every chart and slide anew from now on: the ones read from disk are
        forgotten (a retry after a build failed on what the cache gave)."""
        self.trusted = False
        for key in self.from_disk:
            self.memory.entries.pop(key, None)
            self.memory.slides.pop(key, None)
        self.from_disk.clear()

    def drawn(self) -> dict[str, bytes]:
        """The entries drawn so far, to save elsewhere (`keep`) or to hand over to another
        build's cache (`adopt`), e.g. from another process."""
        return dict(self.new)

    def adopt(self, entries: dict[str, bytes]) -> None:
        """Add entries drawn by another process to this build's."""
        self.new.update(entries)

    def save(self) -> None:
        """Keep the new entries in `folder`'s cache (best effort)."""
        if self.folder is not None:
            keep(self.folder, self.new)

    def render(
        self,
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
        key = _key(chart, theme, sizes, self.memory.code())
        data = self.memory.get(key)
        if data is not None:
            self.stats["from_memory"] += 1
            if self.folder is not None and not (self.folder / FOLDER / _name(key, fmt)).exists():
                self._store(key, fmt, data)  # drawn for a build that failed: save it with this one
            return data
        data = self._load(key, fmt)
        if data is not None:
            self.stats["from_disk"] += 1
            self.from_disk.add(key)
        else:
            if "matplotlib" not in sys.modules:
                settle_matplotlib()
            from deckgen import charts

            data = charts.render(chart, theme, **sizes)  # type: ignore[arg-type]
            self.stats["drawn"] += 1
            self._store(key, fmt, data)
        self.memory.put(key, data)
        return data

    def slide(self, key: str, parse: Callable[[bytes], Kept | None]) -> Kept | None:
        """A slide an earlier build kept (`keep_slide`): as this process drew or checked it,
        or read from the disk and made a slide by `parse`; None when there is none, or
        when `parse` refuses the entry (another slide's, damaged: it is then forgotten,
        drawn again and its entry overwritten)."""
        found = self.memory.slide(key)
        if found is not None:
            self.slide_stats["from_memory"] += 1
            entry = None if self.folder is None else self.folder / FOLDER / _name(key, "slide")
            if entry is not None and self.store and not entry.exists():
                self._store(key, "slide", found.to_bytes(key))  # kept for a build that failed
            return found
        data = self._load(key, "slide")
        if data is None:
            return None
        found = parse(data)
        if found is None:
            self.slide_stats["refused"] += 1
            return None
        self.slide_stats["from_disk"] += 1
        self.from_disk.add(key)
        self.memory.put_slide(key, found)
        return found

    def keep_slide(self, key: str, slide: Kept) -> None:
        """Keep a slide this build drew, for the next build to take as it is."""
        self.slide_stats["kept"] += 1
        self.memory.put_slide(key, slide)
        if self.folder is not None and self.store:
            self._store(key, "slide", slide.to_bytes(key))

    def _load(self, key: str, fmt: str) -> bytes | None:
        if self.folder is None or not self.trusted or not usable(self.folder):
            return None
        return _read_entry(self.folder / FOLDER / _name(key, fmt))

    def _store(self, key: str, fmt: str, data: bytes) -> None:
        if self.folder is not None and self.store:
            self.new[_name(key, fmt)] = hashlib.sha256(data).hexdigest().encode("ascii") + data


@contextlib.contextmanager
def use(folder: Path | None, save: bool = True, memory: Memory | None = None,
        store: bool = True) -> Iterator[Cache]:
    """A build's cache reading `folder`'s entries; the new ones are saved when the block ends
    without an error (and `save`; otherwise `drawn()` hands them to the caller). Without
    `store`, no new entry is made for `folder` at all (a sweep's later combinations)."""
    cache = Cache(folder, memory, store)
    yield cache
    if save:
        cache.save()


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


def _key(chart: Chart, theme: Theme, sizes: dict[str, object], code: tuple[str, ...]) -> str:
    """The hash of every input that shapes the chart's bytes (specs are frozen dataclasses)."""
    text = repr((chart, theme, sorted(sizes.items()), __version__) + code)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _code() -> tuple[str, ...]:
    """The hash of the code that shapes a chart (the charts, the layout layer that places
    and measures their labels, the fonts) and the versions of what draws and encodes a
    chart (matplotlib, numpy, Pillow): a changed drawing is a new key."""
    here = Path(__file__).parent
    try:
        files = [*sorted((here / "charts").glob("*.py")), *sorted((here / "layout").glob("*.py")),
                 here / "fonts.py"]
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


def _deck_code() -> str:
    """The hash of what turns a slide's plan into its parts: the deck's drawing code (the
    planning is in the plan itself), the colour contrast and font measures it uses, the
    shipped typefaces (by name and size), and the versions of Python, zlib and the
    libraries that write the parts (python-pptx, lxml, and XlsxWriter for the charts'
    workbooks): a changed drawing is a new key. (`_code` covers the chart pictures.) Read
    without importlib.metadata, which costs a cold build more than all the rest."""
    import importlib.util
    import platform
    import zlib

    package = Path(__file__).parent
    here = package / "render" / "deck"
    # each library's own __init__.py, which names its version
    libraries = [importlib.util.find_spec(name) for name in ("pptx", "lxml", "xlsxwriter")]
    try:
        files = [*sorted(here.glob("*.py")), *sorted((here / "charts").glob("*.py")),
                 package / "colour.py", package / "fonts.py",
                 *(Path(spec.origin) for spec in libraries if spec and spec.origin)]
        source = b"".join(file.read_bytes() for file in files)
        source += repr(sorted((f.name, f.stat().st_size)
                              for f in (package / "typefaces").iterdir())).encode()
    except OSError:  # pragma: no cover - an install without sources
        source = __version__.encode()
    versions = (__version__, platform.python_version(), zlib.ZLIB_RUNTIME_VERSION)
    return hashlib.sha256(source + repr(versions).encode()).hexdigest()


def _name(key: str, fmt: str) -> str:
    return f"{key[:40]}.{fmt}"


def _read_entry(path: Path) -> bytes | None:
    """An entry's bytes when its checksum fits them."""
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


def _prune(folder: Path) -> None:
    """Past MAX_ENTRIES, keep the three quarters most recently used; nothing but deckgen's
    own entries is ever removed."""
    with contextlib.suppress(OSError):
        if not usable(folder):
            return
        with os.scandir(folder / FOLDER) as found:
            named = [e for e in found if _ENTRY.match(e.name)]
        if len(named) <= MAX_ENTRIES:  # counted by name alone: most builds stop here
            return
        entries = [(e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in named
                   if e.is_file(follow_symlinks=False)]
        entries.sort(reverse=True)
        for _, old in entries[MAX_ENTRIES * 3 // 4:]:  # room for a few builds before the next
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
