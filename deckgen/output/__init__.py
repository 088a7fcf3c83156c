"""The one place that writes files: the output folder as a transaction.

A write takes a lock on its output folder (a second build into the same folder waits for
the first: lock.py). Each file is written to a temporary file beside its target and flushed
to disk. Before the first rename, a small journal (`.deckgen-journal`: journal.py) records
what is about to be swapped; then each old file is kept under a second name, each new file is
renamed over its target, and the journal is removed. A build killed midway (power cut,
SIGKILL) leaves the journal behind, and the next write into that folder (or `recover`)
finishes the swap first: the files on disk always come from one build. A failure deckgen sees
(a full disk, a read-only folder, an interrupt) puts every earlier file back at once; the
file system's refusals are said in one line (filesystem.py).

Only deckgen's own files are ever removed: temporary and backup files whose names start
with `.deckgen-` and end in `.tmp` or `.old`, and the journal.
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
from deckgen.output import journal
from deckgen.output.filesystem import (
    check_folder,
    exists,
    folder_problem,
    path_error,
    refuse,
    refuse_frozen,
    sync_folder,
)
from deckgen.output.journal import JOURNAL, PREFIX
from deckgen.output.lock import locked


class Interrupted(KeyboardInterrupt):
    """Ctrl-C arrived while files were being swapped: the swap was finished first, so the
    new files are all in place. `said` is what the interruption's line says was written."""

    def __init__(self, written: list[Path],
                 said: str = "the new files were all written before it stopped") -> None:
        super().__init__()
        self.written = written
        self.said = said


_landed: list[Path] = []  # every file write_all put in place since the command began


def landed() -> list[Path]:
    """The files written (whole, in place) since the command began (`begin`)."""
    return list(_landed)


def begin() -> None:
    """A command begins: nothing of it has been written yet."""
    _landed.clear()


def guard(folder: Path) -> None:
    """Refuse, before any work, an output folder that cannot be one; create nothing yet,
    but finish a swap an interrupted build left in it."""
    check_folder(folder)
    if folder.is_dir() and exists(folder / JOURNAL):  # a link too: refused, not followed
        recover(folder)


def prepare(folder: Path) -> None:
    """Make sure `folder` can hold output: it is a folder (created if missing)."""
    guard(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a parent is a file
        raise folder_problem(folder, "a part of the output folder's path is a file") from None
    except OSError as err:
        raise path_error(folder, err) from None


def write_all(files: Mapping[Path, bytes], *, record: bool = False) -> list[Path]:
    """Write every file or none (all in one folder); returns the paths written. `record`:
    add them to the folder's manifest (deckgen.manifest), for `deckgen clean`."""
    if not files:
        return []
    folders = {target.parent for target in files}
    if len(folders) != 1:
        raise ValueError("one transaction writes into one folder")
    folder = folders.pop()
    prepare(folder)
    with locked(folder):
        journal.finish(folder)
        first = next(iter(files))
        refuse_frozen(folder, first)
        for target in files:
            if target.is_dir():
                raise InputError(Problem("is a folder; cannot write a file there", str(target)))
            refuse_frozen(target, target)
        staged: list[tuple[Path, Path]] = []
        target = first
        try:
            for target, data in files.items():
                staged.append((_stage(target, data), target))
        except OSError as err:
            _discard(staged)
            raise refuse(target, err) from None
        except BaseException:
            _discard(staged)
            raise
        written = [target for _, target in staged]
        with _no_interrupt(written):
            _swap(folder, staged)
            _landed.extend(written)
        if record:
            from deckgen import manifest

            manifest.record(folder, files)
    return written


def put(target: Path, data: bytes, *, sync: bool = True) -> None:
    """Write one file atomically (a cache entry, say: `sync=False` skips flushing to disk)."""
    temp = _stage(target, data, sync=sync)
    try:
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise


def recover(folder: Path) -> None:
    """Finish (or undo) a swap that a killed build left in `folder`, and remove its
    temporary files; nothing when there is none."""
    with locked(folder):
        journal.finish(folder)


# -- staging and the swap ---------------------------------------------------------------------


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
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise
    return temp


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for temp, _ in staged:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


def _backup_name(target: Path) -> Path:
    return target.with_name(f"{PREFIX}{target.name}.{secrets.token_hex(4)}.old")


def _swap(folder: Path, staged: list[tuple[Path, Path]]) -> None:
    """Journal, then rename every temp over its target; if one rename fails, put the old
    files back."""
    plan = [(temp, target, _backup_name(target) if exists(target) else None)
            for temp, target in staged]
    try:
        journal.write(folder, plan)
    except BaseException as err:
        _discard(staged)
        with contextlib.suppress(OSError):
            (folder / f"{JOURNAL}.part").unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise refuse(staged[0][1], err) from None
        raise
    done: list[tuple[Path, Path | None]] = []  # (target, its old file's backup or None)
    failed = staged[0][1]
    ids = [(journal.identity(temp), None) for temp, _, _ in plan]
    try:
        for temp, target, backup in plan:
            failed = target
            if backup is not None:
                _keep(target, backup)
            done.append((target, backup))
            os.replace(temp, target)
        sync_folder(folder)
    except BaseException as err:
        try:
            journal.roll_back(folder, plan, ids)
        except OSError:
            # The journal stays: the next build into this folder finishes the swap.
            raise OutputError(Problem(
                "cannot write, nor put the earlier files back; the next deckgen build into "
                "this folder sets them right", str(failed))) from None
        if isinstance(err, OSError):
            raise refuse(failed, err) from None
        raise
    journal.end(folder, plan)


def _keep(target: Path, backup: Path) -> None:
    """A second name for the file at `target`, so it can come back."""
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # No hard links on this file system: keep the old file under the backup name.
        os.replace(target, backup)


@contextlib.contextmanager
def _no_interrupt(written: list[Path]) -> Iterator[None]:
    """Hold Ctrl-C and termination back while files are swapped; deliver them afterwards
    (as `Interrupted` when the swap was finished).

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
    finished = False
    try:
        yield
        finished = True
    finally:
        for s in restorable:
            signal.signal(s, before[s])
        if caught:
            if finished:
                raise Interrupted(written)
            signal.raise_signal(caught[0])
