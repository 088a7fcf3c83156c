"""The one place that writes files: all finished, all moved into place, or none.

Each file is written to a temporary file in its target folder, flushed to disk, and only
then renamed over the target. The old files are kept under a hard link until every new
file is in place, so a failure midway puts every earlier file back, and a reader never
finds a target missing or half written. No temporary file is left behind, whatever fails:
a full disk, a read-only folder, an interrupt.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from deckgen.errors import InputError, OutputError, Problem

PREFIX = ".deckgen-"  # every temporary or backup file starts with it

_WHY = {
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EISDIR: "a folder is in the way",
}


def refuse(path: Path, err: OSError) -> OutputError:
    """The one-line error for an operating-system refusal to write `path`."""
    why = _WHY.get(err.errno or 0, err.strerror or str(err))
    return OutputError(
        Problem(f"cannot write: {why}; earlier files were left as they were", str(path))
    )


def check(folder: Path) -> None:
    """Refuse, before any work, an output folder that cannot be one; create nothing yet."""
    if folder.exists() and not folder.is_dir():
        raise InputError(
            Problem("the output folder is a file, not a folder", str(folder), path="--out")
        )
    for above in folder.parents:
        if above.exists():
            if not above.is_dir():
                raise InputError(
                    Problem(
                        "a part of the output folder's path is a file", str(folder), path="--out"
                    )
                )
            return


def prepare(folder: Path) -> None:
    """Make sure `folder` can hold output: it is a folder (created if missing)."""
    if folder.exists() and not folder.is_dir():
        raise InputError(
            Problem("the output folder is a file, not a folder", str(folder), path="--out")
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a parent is a file
        raise InputError(
            Problem("a part of the output folder's path is a file", str(folder), path="--out")
        ) from None
    except NotADirectoryError:
        raise InputError(
            Problem("a part of the output folder's path is a file", str(folder), path="--out")
        ) from None
    except OSError as err:
        raise refuse(folder, err) from None


def write_all(files: Mapping[Path, bytes]) -> list[Path]:
    """Write every file or none; returns the paths written."""
    staged: list[tuple[Path, Path]] = []
    target = next(iter(files), Path("."))
    try:
        for target, data in files.items():
            prepare(target.parent)
            if target.is_dir():
                raise InputError(Problem("is a folder; cannot write a file there", str(target)))
            staged.append((_stage(target, data), target))
    except OSError as err:
        _discard(staged)
        raise refuse(target, err) from None
    except BaseException:
        _discard(staged)
        raise
    with _no_interrupt():
        _swap(staged)
    _sync_folders({t.parent for _, t in staged})
    return [target for _, target in staged]


def put(target: Path, data: bytes, *, sync: bool = True) -> None:
    """Write one file atomically (a cache entry, say: `sync=False` skips flushing to disk)."""
    temp = _stage(target, data, sync=sync)
    try:
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _stage(target: Path, data: bytes, *, sync: bool = True) -> Path:
    """A finished, flushed temporary copy of `data` beside `target`."""
    handle, name = tempfile.mkstemp(prefix=PREFIX, suffix=".tmp", dir=target.parent)
    temp = Path(name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if sync:
                os.fsync(stream.fileno())
        os.chmod(temp, 0o644)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for temp, _ in staged:
        temp.unlink(missing_ok=True)


def _swap(staged: list[tuple[Path, Path]]) -> None:
    """Rename every temp over its target; if one rename fails, put the old files back."""
    kept: list[tuple[Path, Path | None]] = []  # (target, its old file's backup or None)
    try:
        for temp, target in staged:
            kept.append((target, _keep(target)))
            os.replace(temp, target)
    except BaseException as err:
        failed = target
        for done, backup in reversed(kept):
            if backup is not None:
                os.replace(backup, done)
                backup.unlink(missing_ok=True)  # still there when both names were one file
            else:
                done.unlink(missing_ok=True)
        _discard(staged)
        if isinstance(err, OSError):
            raise refuse(failed, err) from None
        raise
    for _, backup in kept:
        if backup is not None:
            backup.unlink(missing_ok=True)


def _keep(target: Path) -> Path | None:
    """A second name for the file at `target` (None when there is none), so it can come back."""
    if not target.exists():
        return None
    while True:
        backup = target.with_name(f"{PREFIX}{target.name}.{secrets.token_hex(4)}.old")
        try:
            os.link(target, backup)
            return backup
        except FileExistsError:
            continue
        except OSError as err:
            if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            # No hard links on this file system: keep the old file under the backup name.
            os.replace(target, backup)
            return backup


def _sync_folders(folders: set[Path]) -> None:
    """Flush the renames themselves, so a power cut cannot undo them (best effort)."""
    for folder in sorted(folders):
        with contextlib.suppress(OSError):
            handle = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(handle)
            finally:
                os.close(handle)


@contextlib.contextmanager
def _no_interrupt() -> Iterator[None]:
    """Hold Ctrl-C and termination back while files are swapped; deliver them afterwards.

    Python runs signal handlers in the main thread only, so this works there; elsewhere
    the swap's own rollback still puts the old files back.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = [s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None)) if s is not None]
    before = {s: signal.getsignal(s) for s in held}
    restorable = [s for s in held if before[s] is not None]
    for s in restorable:
        signal.signal(s, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        for s in restorable:
            signal.signal(s, before[s])
        if caught:
            signal.raise_signal(caught[0])
