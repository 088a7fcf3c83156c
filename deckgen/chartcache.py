"""Rendered charts, kept by the hash of everything that shapes them, so a rebuild draws none.

`render(...)` takes the same arguments as `charts.render` and returns the same bytes. A
chart is drawn once per process for a given input (the deck and the handout share it),
and kept on disk in the output folder's cache (`.deckgen-cache/`) while `use(folder)` is
active, so a rebuild after a change of prose only reads the charts back and never imports
matplotlib. The key covers the chart spec, the theme, size, format, resolution and font
size, deckgen's version, the chart code itself and matplotlib's version. Each entry
carries a checksum of its bytes; a damaged entry is drawn again. The cache never fails a
build: when it cannot be read or written, the chart is simply drawn.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from deckgen import __version__, output
from deckgen.content import Theme
from deckgen.story import Chart

FOLDER = ".deckgen-cache"
MAX_ENTRIES = 240  # on disk; a sweep of 5 speeds x 4 checks with 3 charts in 2 formats needs 120
_IN_MEMORY = 48

_folder: Path | None = None
_memory: OrderedDict[str, bytes] = OrderedDict()
stats = {"drawn": 0, "from_memory": 0, "from_disk": 0}


@contextlib.contextmanager
def use(folder: Path | None) -> Iterator[None]:
    """Keep charts in `folder` (created on first store) while the block runs."""
    global _folder
    before, _folder = _folder, folder
    try:
        yield
    finally:
        _folder = before
        if folder is not None:
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
        return data
    data = _load(key, fmt)
    if data is not None:
        stats["from_disk"] += 1
    else:
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
def _code() -> tuple[str, str]:
    """The chart code's own hash and matplotlib's version: a changed drawing is a new key."""
    try:
        source = (Path(__file__).parent / "charts.py").read_bytes()
    except OSError:  # pragma: no cover - an install without sources
        source = __version__.encode()
    try:
        from importlib.metadata import version

        drawing = version("matplotlib")
    except Exception:  # pragma: no cover - a matplotlib without metadata
        drawing = "unknown"
    return hashlib.sha256(source).hexdigest(), drawing


def _entry(key: str, fmt: str) -> Path | None:
    return None if _folder is None else _folder / FOLDER / f"{key[:40]}.{fmt}"


def _load(key: str, fmt: str) -> bytes | None:
    path = _entry(key, fmt)
    if path is None:
        return None
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    digest, data = blob[:64], blob[64:]
    if digest != hashlib.sha256(data).hexdigest().encode("ascii"):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last
    return data


def _store(key: str, fmt: str, data: bytes) -> None:
    path = _entry(key, fmt)
    if path is None:
        return
    blob = hashlib.sha256(data).hexdigest().encode("ascii") + data
    with contextlib.suppress(OSError):
        path.parent.mkdir(exist_ok=True)
        output.put(path, blob, sync=False)


def _prune(folder: Path) -> None:
    """Keep the most recently used entries only."""
    with contextlib.suppress(OSError):
        entries = [p for p in (folder / FOLDER).iterdir() if not p.name.startswith(output.PREFIX)]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in entries[MAX_ENTRIES:]:
            old.unlink(missing_ok=True)


def clear_memory() -> None:
    """Forget the charts drawn in this process (tests use it to see the disk cache at work)."""
    _memory.clear()
