"""The one place that writes files: the output folder as a transaction.

A write takes a lock on its output folder (a second build into the same folder waits for
the first). Each file is written to a temporary file beside its target and flushed to disk.
Before the first rename, a small journal (`.deckgen-journal`) records what is about to be
swapped; then each old file is kept under a second name, each new file is renamed over its
target, and the journal is removed. A build killed midway (power cut, SIGKILL) leaves the
journal behind, and the next write into that folder (or `recover`) finishes the swap first:
the files on disk always come from one build. A failure deckgen sees (a full disk, a
read-only folder, an interrupt) puts every earlier file back at once.

Only deckgen's own files are ever removed: temporary and backup files whose names start
with `.deckgen-` and end in `.tmp` or `.old`, and the journal.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import signal
import stat
import struct
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from deckgen.errors import InputError, OutputError, Problem

PREFIX = ".deckgen-"  # every temporary, backup or journal file starts with it
JOURNAL = ".deckgen-journal"
LOCK_WAIT = 60.0  # seconds a build waits for another one writing into the same folder
_OURS = re.compile(r"^\.deckgen-[^/]*\.(tmp|old)$|^\.deckgen-journal\.part$")

_WHY = {
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EISDIR: "a folder is in the way",
    errno.ENAMETOOLONG: "the name is longer than the file system allows",
}

# Linux inode flags (FS_IOC_GETFLAGS): a folder or file that may only grow, or not change.
_GETFLAGS = 0x80086601
_IMMUTABLE, _APPEND_ONLY = 0x10, 0x20


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


def refuse(path: Path, err: OSError) -> OutputError:
    """The one-line error for an operating-system refusal to write `path`."""
    why = _WHY.get(err.errno or 0, err.strerror or str(err))
    return OutputError(
        Problem(f"cannot write: {why}; earlier files were left as they were", str(path))
    )


def _out_problem(folder: Path, message: str) -> InputError:
    return InputError(Problem(message, str(folder), path="--out"))


def guard(folder: Path) -> None:
    """Refuse, before any work, an output folder that cannot be one; create nothing yet,
    but finish a swap an interrupted build left in it."""
    try:
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            os.stat(folder)  # a loop of links raises ELOOP here (exists() says only False)
        if folder.is_symlink() and not folder.exists():
            raise _out_problem(folder, f"is a symbolic link to {os.readlink(folder)!r}, which "
                                       "does not exist; make that folder or choose another")
        if folder.exists() and not folder.is_dir():
            raise _out_problem(folder, "the output folder is a file, not a folder")
        for above in folder.parents:
            if above.exists():
                if not above.is_dir():
                    raise _out_problem(folder, "a part of the output folder's path is a file")
                break
    except OSError as err:
        raise _path_error(folder, err) from None
    if folder.is_dir() and _exists(folder / JOURNAL):  # a link too: refused, not followed
        recover(folder)


def _path_error(folder: Path, err: OSError) -> DeckgenErrorType:
    if err.errno == errno.ENAMETOOLONG:
        return _out_problem(folder, "the path is longer than the file system allows "
                                    "(255 bytes a name); choose a shorter one")
    if err.errno == errno.ELOOP:
        return _out_problem(folder, "the path's symbolic links go round in a loop")
    return refuse(folder, err)


DeckgenErrorType = InputError | OutputError


def prepare(folder: Path) -> None:
    """Make sure `folder` can hold output: it is a folder (created if missing)."""
    guard(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a parent is a file
        raise _out_problem(folder, "a part of the output folder's path is a file") from None
    except OSError as err:
        raise _path_error(folder, err) from None


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
        _finish(folder)
        first = next(iter(files))
        _refuse_frozen(folder, first)
        for target in files:
            if target.is_dir():
                raise InputError(Problem("is a folder; cannot write a file there", str(target)))
            _refuse_frozen(target, target)
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
        _finish(folder)


# -- the lock ---------------------------------------------------------------------------------

_held: dict[Path, tuple[int, int]] = {}  # folder -> (descriptor, depth), in this process


@contextlib.contextmanager
def locked(folder: Path, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold `folder`'s lock (flock on the folder itself, so no lock file is left behind).
    Another process writing into it is waited for, up to `wait` seconds."""
    key = folder.resolve()
    if key in _held:
        fd, depth = _held[key]
        _held[key] = (fd, depth + 1)
        try:
            yield
        finally:
            fd, depth = _held[key]
            _held[key] = (fd, depth - 1)
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as err:
        raise _path_error(folder, err) from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputError(Problem(
                        f"another deckgen has been writing into this folder for {wait:.0f} s; "
                        "try again when it is done", str(folder))) from None
                time.sleep(0.01)
        _held[key] = (fd, 1)
        try:
            yield
        finally:
            del _held[key]
    finally:
        os.close(fd)  # closing releases the lock


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
    plan = [(temp, target, _backup_name(target) if _exists(target) else None)
            for temp, target in staged]
    try:
        _write_journal(folder, plan)
    except BaseException as err:
        _discard(staged)
        with contextlib.suppress(OSError):
            (folder / f"{JOURNAL}.part").unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise refuse(staged[0][1], err) from None
        raise
    done: list[tuple[Path, Path | None]] = []  # (target, its old file's backup or None)
    failed = staged[0][1]
    ids = [(_identity(temp), None) for temp, _, _ in plan]
    try:
        for temp, target, backup in plan:
            failed = target
            if backup is not None:
                _keep(target, backup)
            done.append((target, backup))
            os.replace(temp, target)
        _sync_folder(folder)
    except BaseException as err:
        try:
            _roll_back(folder, plan, ids)
        except OSError:
            # The journal stays: the next build into this folder finishes the swap.
            raise OutputError(Problem(
                "cannot write, nor put the earlier files back; the next deckgen build into "
                "this folder sets them right", str(failed))) from None
        if isinstance(err, OSError):
            raise refuse(failed, err) from None
        raise
    _end(folder, plan)


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _keep(target: Path, backup: Path) -> None:
    """A second name for the file at `target`, so it can come back."""
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # No hard links on this file system: keep the old file under the backup name.
        os.replace(target, backup)


def _write_journal(folder: Path, plan: list[tuple[Path, Path, Path | None]]) -> None:
    """The journal, written through the folder's descriptor without following a link, in a
    folder the user running deckgen owns only: in a folder another user owns (a shared
    /tmp), whoever can write there could plant one, so no journal is trusted or written
    there (a failure deckgen sees is still undone; a kill is not)."""
    fd = _folder_fd(folder)
    if os.fstat(fd).st_uid != os.geteuid():
        return
    record = {"deckgen-journal": 2, "files": [
        {"target": target.name, "new": temp.name, "old": backup.name if backup else None,
         "new-id": _identity(temp), "old-id": _identity(target) if backup else None}
        for temp, target, backup in plan]}
    part = f"{JOURNAL}.part"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(part, dir_fd=fd)
    handle = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=fd)
    with os.fdopen(handle, "wb") as stream:
        stream.write(json.dumps(record).encode("utf-8"))
        stream.flush()
        os.fsync(stream.fileno())
    os.rename(part, JOURNAL, src_dir_fd=fd, dst_dir_fd=fd)  # replaces an old one (POSIX)
    _sync_folder(folder)


def _identity(path: Path) -> list[int]:
    """Which file a name stands for (device and inode): a roll-back or roll-forward that was
    itself cut short is finished by what each name holds, not by which names exist."""
    info = os.lstat(path)
    return [info.st_dev, info.st_ino]


def _holds(path: Path, identity: object) -> bool:
    try:
        return isinstance(identity, list) and _identity(path) == identity
    except FileNotFoundError:
        return False


def _folder_fd(folder: Path) -> int:
    """The descriptor of `folder` its lock holds (the journal is always handled under it)."""
    return _held[folder.resolve()][0]


MAX_JOURNAL_BYTES = 64 * 1024
MAX_JOURNAL_DEPTH = 8
Plan = list[tuple[Path, Path, Path | None]]


def _read_journal(folder: Path) -> tuple[Plan, list[tuple[object, object]]]:
    """The swap a journal records, and each file's (new, old) identity. Opened through the
    folder's descriptor without following a link, read with a size bound and checked for
    depth before it is parsed; one written by another user is not acted on."""
    path = folder / JOURNAL
    damaged = InputError(Problem(
        "a damaged journal of an interrupted write is in the way; remove it (the files "
        "beside it are each whole)", str(path)))
    try:
        handle = os.open(JOURNAL, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=_folder_fd(folder))
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise damaged from None
        raise
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if info.st_uid != os.geteuid() or info.st_nlink != 1:
            raise InputError(Problem(
                f"a journal another user left (user id {info.st_uid}) is in the way; deckgen "
                "acts only on its own: remove it or choose another --out folder",
                str(path))) from None
        if not stat.S_ISREG(info.st_mode):
            raise damaged
        raw = stream.read(MAX_JOURNAL_BYTES + 1)
    try:
        if len(raw) > MAX_JOURNAL_BYTES or _depth(raw) > MAX_JOURNAL_DEPTH:
            raise ValueError
        record = json.loads(raw)
        plan: Plan = []
        ids: list[tuple[object, object]] = []
        for entry in record["files"]:
            target, new, old = entry["target"], entry["new"], entry["old"]
            names = [target, new] + ([old] if old is not None else [])
            if not all(isinstance(n, str) and n and "/" not in n and n not in (".", "..")
                       for n in names) or not _OURS.match(new) or (old and not _OURS.match(old)):
                raise ValueError
            plan.append((folder / new, folder / target, folder / old if old else None))
            ids.append((entry.get("new-id"), entry.get("old-id")))
        return plan, ids
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError,
            RecursionError):
        raise damaged from None


def _depth(raw: bytes) -> int:
    """How deep a JSON text nests (brackets outside strings), read without recursion."""
    deepest = depth = 0
    inside = escaped = False
    for byte in raw:
        if inside:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                inside = False
        elif byte == 0x22:
            inside = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _roll_back(folder: Path, plan: Plan,
               ids: Sequence[tuple[object, object]] | None = None) -> None:
    """Every target as it was before the swap; the journal and the temporary files gone.
    Each step can be repeated: a roll-back cut short is finished by the next one."""
    for (temp, target, backup), (new_id, _) in zip(reversed(plan),
                                                   reversed(ids or [(None, None)] * len(plan)),
                                                   strict=True):
        if backup is not None and _exists(backup):
            os.replace(backup, target)
        elif backup is None and _exists(target) and (
                _holds(target, new_id) if new_id is not None else not _exists(temp)):
            os.unlink(target)  # a new file where there was none
        if _exists(temp):
            os.unlink(temp)
    _end(folder, plan)


def _roll_forward(folder: Path, plan: Plan) -> None:
    """Every new file in place (each was whole and flushed before the journal was written)."""
    for temp, target, _ in plan:
        if _exists(temp):
            os.replace(temp, target)
    _sync_folder(folder)
    _end(folder, plan)


def _end(folder: Path, plan: Plan) -> None:
    """The swap is over: the journal goes, then the backups (never before it)."""
    journal = folder / JOURNAL
    if _exists(journal):
        os.unlink(journal)
        _sync_folder(folder)
    for _, _, backup in plan:
        if backup is not None and _exists(backup):
            os.unlink(backup)


def _finish(folder: Path) -> None:
    """Under the lock: finish a swap a killed build left, then remove deckgen's leftovers.
    Forward only when every new file is still waiting or already in place (by identity);
    otherwise back, every old file from its backup."""
    try:
        if _exists(folder / JOURNAL):
            plan, ids = _read_journal(folder)
            if all(new_id is not None for new_id, _ in ids):
                forward = all(_exists(temp) or _holds(target, new_id)
                              for (temp, target, _), (new_id, _) in zip(plan, ids, strict=True))
            else:  # a journal of an earlier deckgen, without identities
                forward = all(_exists(temp) or _exists(target) for temp, target, _ in plan)
            if forward:
                _roll_forward(folder, plan)
            else:
                _roll_back(folder, plan, ids)
        sweep_leftovers(folder)
    except OSError as err:
        raise OutputError(Problem(
            f"cannot finish the write an interrupted build left: "
            f"{_WHY.get(err.errno or 0, err.strerror)}", str(folder / JOURNAL))) from None


def sweep_leftovers(folder: Path) -> None:
    """Remove deckgen's own temporary and backup files from `folder` (call under its lock)."""
    if _exists(folder / JOURNAL):
        return
    with os.scandir(folder) as entries:
        ours = [e for e in entries if _OURS.match(e.name) and e.is_file(follow_symlinks=False)
                and e.stat(follow_symlinks=False).st_uid == os.geteuid()]
    for entry in ours:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(entry.path)


def frozen(path: Path) -> str | None:
    """Why `path` cannot be replaced although it may be written ('append-only'), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        flags = struct.unpack("i", fcntl.ioctl(fd, _GETFLAGS, bytes(8))[:4])[0]
    except OSError:
        return None
    finally:
        os.close(fd)
    if flags & _IMMUTABLE:
        return "immutable (chattr +i)"
    if flags & _APPEND_ONLY:
        return "append-only (chattr +a)"
    return None


def _refuse_frozen(path: Path, target: Path) -> None:
    why = frozen(path)
    if why:
        what = "the folder" if path.is_dir() else "the file"
        raise OutputError(Problem(
            f"cannot write: {what} is {why}, so its files cannot be replaced; earlier files "
            "were left as they were", str(target)))


def _sync_folder(folder: Path) -> None:
    """Flush the renames themselves, so a power cut cannot undo them (best effort)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


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
