"""The journal of a swap in progress (`.deckgen-journal`), and how a swap a killed build left
is finished: forward when every new file is whole and waiting or in place, else back, every
old file from its backup. Then deckgen's own leftovers are removed, and only those: temporary
and backup files whose names start with `.deckgen-` and end in `.tmp` or `.old`."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from deckgen.errors import InputError, OutputError, Problem
from deckgen.output.filesystem import WHY, exists, sync_folder
from deckgen.output.lock import folder_fd

PREFIX = ".deckgen-"  # every temporary, backup or journal file starts with it
JOURNAL = ".deckgen-journal"
_OURS = re.compile(r"^\.deckgen-[^/]*\.(tmp|old)$|^\.deckgen-journal\.part$")
MAX_JOURNAL_BYTES = 64 * 1024
MAX_JOURNAL_DEPTH = 8
Plan = list[tuple[Path, Path, Path | None]]


def write(folder: Path, plan: list[tuple[Path, Path, Path | None]]) -> None:
    """The journal, written through the folder's descriptor without following a link, in a
    folder the user running deckgen owns only: in a folder another user owns (a shared
    /tmp), whoever can write there could plant one, so no journal is trusted or written
    there (a failure deckgen sees is still undone; a kill is not)."""
    fd = folder_fd(folder)
    if os.fstat(fd).st_uid != os.geteuid():
        return
    record = {"deckgen-journal": 2, "files": [
        {"target": target.name, "new": temp.name, "old": backup.name if backup else None,
         "new-id": identity(temp), "old-id": identity(target) if backup else None}
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
    sync_folder(folder)


def identity(path: Path) -> list[int]:
    """Which file a name stands for (device and inode): a roll-back or roll-forward that was
    itself cut short is finished by what each name holds, not by which names exist."""
    info = os.lstat(path)
    return [info.st_dev, info.st_ino]


def holds(path: Path, expected: object) -> bool:
    """Whether `path` names the file of identity `expected` (False when nothing is there)."""
    try:
        return isinstance(expected, list) and identity(path) == expected
    except FileNotFoundError:
        return False


def read(folder: Path) -> tuple[Plan, list[tuple[object, object]]]:
    """The swap a journal records, and each file's (new, old) identity. Opened through the
    folder's descriptor without following a link, read with a size bound and checked for
    depth before it is parsed; one written by another user is not acted on."""
    path = folder / JOURNAL
    damaged = InputError(Problem(
        "a damaged journal of an interrupted write is in the way; remove it (the files "
        "beside it are each whole)", str(path)))
    try:
        handle = os.open(JOURNAL, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=folder_fd(folder))
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


def roll_back(folder: Path, plan: Plan,
               ids: Sequence[tuple[object, object]] | None = None) -> None:
    """Every target as it was before the swap; the journal and the temporary files gone.
    Each step can be repeated: a roll-back cut short is finished by the next one."""
    for (temp, target, backup), (new_id, _) in zip(reversed(plan),
                                                   reversed(ids or [(None, None)] * len(plan)),
                                                   strict=True):
        if backup is not None and exists(backup):
            os.replace(backup, target)
        elif backup is None and exists(target) and (
                holds(target, new_id) if new_id is not None else not exists(temp)):
            os.unlink(target)  # a new file where there was none
        if exists(temp):
            os.unlink(temp)
    end(folder, plan)


def roll_forward(folder: Path, plan: Plan) -> None:
    """Every new file in place (each was whole and flushed before the journal was written)."""
    for temp, target, _ in plan:
        if exists(temp):
            os.replace(temp, target)
    sync_folder(folder)
    end(folder, plan)


def end(folder: Path, plan: Plan) -> None:
    """The swap is over: the journal goes, then the backups (never before it)."""
    journal = folder / JOURNAL
    if exists(journal):
        os.unlink(journal)
        sync_folder(folder)
    for _, _, backup in plan:
        if backup is not None and exists(backup):
            os.unlink(backup)


def finish(folder: Path) -> None:
    """Under the lock: finish a swap a killed build left, then remove deckgen's leftovers.
    Forward only when every new file is still waiting or already in place (by identity);
    otherwise back, every old file from its backup."""
    try:
        if exists(folder / JOURNAL):
            plan, ids = read(folder)
            if all(new_id is not None for new_id, _ in ids):
                forward = all(exists(temp) or holds(target, new_id)
                              for (temp, target, _), (new_id, _) in zip(plan, ids, strict=True))
            else:  # a journal of an earlier deckgen, without identities
                forward = all(exists(temp) or exists(target) for temp, target, _ in plan)
            if forward:
                roll_forward(folder, plan)
            else:
                roll_back(folder, plan, ids)
        sweep_leftovers(folder)
    except OSError as err:
        raise OutputError(Problem(
            f"cannot finish the write an interrupted build left: "
            f"{WHY.get(err.errno or 0, err.strerror)}", str(folder / JOURNAL))) from None


def sweep_leftovers(folder: Path) -> None:
    """Remove deckgen's own temporary and backup files from `folder` (call under its lock)."""
    if exists(folder / JOURNAL):
        return
    with os.scandir(folder) as entries:
        ours = [e for e in entries if _OURS.match(e.name) and e.is_file(follow_symlinks=False)
                and e.stat(follow_symlinks=False).st_uid == os.geteuid()]
    for entry in ours:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(entry.path)

