"""The one place that writes files: all finished, all moved into place, or none.

Each file is written to a temporary file in its target folder, flushed to disk, and only
then renamed over the target. When anything fails midway, earlier files are restored and
no temporary file is left behind.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from deckgen.errors import InputError, OutputError, Problem

_PREFIX = ".deckgen-"


def _refuse(path: Path, err: OSError) -> OutputError:
    why = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
           errno.EACCES: "permission denied", errno.EPERM: "permission denied",
           errno.EDQUOT: "the disk quota is exceeded"}.get(err.errno or 0, err.strerror or str(err))
    return OutputError(Problem(f"cannot write: {why}; earlier files were left as they were", str(path)))


def prepare(folder: Path) -> None:
    """Make sure `folder` can hold output: it is a folder (created if missing)."""
    if folder.exists() and not folder.is_dir():
        raise InputError(Problem("the output folder is a file, not a folder", str(folder), path="--out"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _refuse(folder, err) from None


def write_all(files: Mapping[Path, bytes]) -> list[Path]:
    """Write every file or none; returns the paths written."""
    staged: list[tuple[Path, Path]] = []
    try:
        for target, data in files.items():
            prepare(target.parent)
            handle, temp = tempfile.mkstemp(prefix=_PREFIX, suffix=".tmp", dir=target.parent)
            staged.append((Path(temp), target))
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temp, 0o644)
    except OSError as err:
        _discard(staged)
        raise _refuse(staged[-1][1] if staged else next(iter(files)), err) from None
    except BaseException:
        _discard(staged)
        raise
    _swap(staged)
    return [target for _, target in staged]


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for temp, _ in staged:
        temp.unlink(missing_ok=True)


def _swap(staged: list[tuple[Path, Path]]) -> None:
    """Rename every temp over its target; if one rename fails, put the old files back."""
    backups: list[tuple[Path, Path | None]] = []
    try:
        for temp, target in staged:
            backup = None
            if target.exists():
                backup = target.with_name(f"{_PREFIX}{target.name}.old")
                os.replace(target, backup)
            backups.append((target, backup))
            os.replace(temp, target)
    except BaseException as err:
        for target, backup in reversed(backups):
            if backup is not None and backup.exists():
                os.replace(backup, target)
            elif backup is None:
                target.unlink(missing_ok=True)
        _discard(staged)
        if isinstance(err, OSError):
            raise _refuse(staged[0][1], err) from None
        raise
    for _, backup in backups:
        if backup is not None:
            backup.unlink(missing_ok=True)
