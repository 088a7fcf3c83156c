"""The output folder's list of the files deckgen wrote there, for `deckgen clean`.

Each build adds the files it wrote to `.deckgen/manifest.json` in its output folder, with a
digest of each one's bytes (in a folder of deckgen's own, so a listing of the output's files
shows the outputs alone). `clean` removes a file only when the manifest names it and it is
still a regular file with those very bytes: a file the presenter put there, or edited after
the build, is never removed, whatever its name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deckgen import output
from deckgen.output.filesystem import refuse
from deckgen.output.lock import locked

FOLDER = ".deckgen"  # deckgen's own folder inside the output folder
NAME = "manifest.json"


def _real_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read(folder: Path) -> dict[str, str]:
    """File name -> digest of what deckgen wrote there; empty when there is no manifest (or
    it is not one deckgen could have written: then nothing is deleted by it)."""
    path = folder / FOLDER / NAME
    if not _real_folder(folder / FOLDER):  # a link in its place is never followed
        return {}
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return {}
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {name: digest for name, digest in files.items()
            if isinstance(name, str) and isinstance(digest, str) and _plain(name)}


def _plain(name: str) -> bool:
    """A plain file name inside the folder: no folder part, not '.' or '..', no NUL."""
    return name not in ("", ".", "..") and "/" not in name and "\0" not in name


def _write(folder: Path, files: dict[str, str]) -> None:
    """Keep `files` as the manifest; with none left, remove it (and deckgen's folder when
    empty). Written only into a real folder deckgen made: a link or a file in its place is
    left alone, and `clean` then has nothing to remove."""
    own = folder / FOLDER
    path = own / NAME
    if not files:
        if _real_folder(own):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            with contextlib.suppress(OSError):
                own.rmdir()  # only when empty
        return
    try:
        own.mkdir(exist_ok=True)
    except OSError:
        return
    if not _real_folder(own):
        return
    text = json.dumps({"files": dict(sorted(files.items()))}, indent=1) + "\n"
    output.put(path, text.encode("utf-8"))


def record(folder: Path, written: Mapping[Path, bytes]) -> None:
    """Add the files just written into `folder` (under its lock), with their bytes, to its
    manifest."""
    files = read(folder)
    for path, data in written.items():
        files[path.name] = _digest(data)
    _write(folder, files)


@dataclass(frozen=True)
class Cleaned:
    removed: list[Path]  # deckgen's own files (removed, or to be with a dry run)
    kept: list[tuple[Path, str]]  # files the manifest names that were left, and why


def clean(folder: Path, dry_run: bool = False) -> Cleaned:
    """Remove the files deckgen wrote into `folder` (only those; see the module's docstring)."""
    if not folder.is_dir():
        return Cleaned([], [])
    output.guard(folder)  # a swap an interrupted build left is finished first
    with locked(folder):
        files = read(folder)
        removed: list[Path] = []
        kept: list[tuple[Path, str]] = []
        left: dict[str, str] = {}
        for name, digest in sorted(files.items()):
            path = folder / name
            why = _why_kept(path, digest)
            if why == "gone":
                continue
            if why:
                kept.append((path, why))
                continue
            removed.append(path)
            if not dry_run:
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
                except OSError as err:
                    raise refuse(path, err) from None
        if dry_run:
            return Cleaned(removed, kept)
        _write(folder, left)  # the files left are not deckgen's to remove any more
    return Cleaned(removed, kept)


def _why_kept(path: Path, digest: str) -> str | None:
    """None when `path` is still deckgen's file; 'gone', or why it stays."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "gone"
    except OSError as err:
        return f"cannot be read ({err.strerror})"
    if not stat.S_ISREG(mode):
        return "is no longer a regular file deckgen wrote"
    try:
        same = _digest(path.read_bytes()) == digest
    except OSError as err:
        return f"cannot be read ({err.strerror})"
    return None if same else "changed since deckgen wrote it"
