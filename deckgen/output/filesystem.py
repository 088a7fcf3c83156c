"""The file system as a write meets it: its refusals said in one line, an output folder that
cannot be one, a file that may not be replaced (chattr +i, +a), and the small steps every
write takes (is a name there, flush a folder's renames)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
from pathlib import Path

from deckgen.errors import InputError, OutputError, Problem

WHY = {
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


def refuse(path: Path, err: OSError) -> OutputError:
    """The one-line error for an operating-system refusal to write `path`."""
    why = WHY.get(err.errno or 0, err.strerror or str(err))
    return OutputError(
        Problem(f"cannot write: {why}; earlier files were left as they were", str(path))
    )


def folder_problem(folder: Path, message: str) -> InputError:
    """A problem with the output folder itself, named by the option (`--out`)."""
    return InputError(Problem(message, str(folder), path="--out"))


def check_folder(folder: Path) -> None:
    """Refuse an output folder that cannot be one (a file, a link to nothing, a path through
    a file, a loop of links, a name too long); create nothing."""
    try:
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            os.stat(folder)  # a loop of links raises ELOOP here (exists() says only False)
        if folder.is_symlink() and not folder.exists():
            raise folder_problem(folder, f"is a symbolic link to {os.readlink(folder)!r}, "
                                         "which does not exist; make that folder or choose "
                                         "another")
        if folder.exists() and not folder.is_dir():
            raise folder_problem(folder, "the output folder is a file, not a folder")
        for above in folder.parents:
            if above.exists():
                if not above.is_dir():
                    raise folder_problem(folder, "a part of the output folder's path is a file")
                break
    except OSError as err:
        raise path_error(folder, err) from None


def path_error(folder: Path, err: OSError) -> InputError | OutputError:
    """The one line for the operating system's refusal of the output folder's path."""
    if err.errno == errno.ENAMETOOLONG:
        return folder_problem(folder, "the path is longer than the file system allows "
                                      "(255 bytes a name); choose a shorter one")
    if err.errno == errno.ELOOP:
        return folder_problem(folder, "the path's symbolic links go round in a loop")
    return refuse(folder, err)


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


def refuse_frozen(path: Path, target: Path) -> None:
    """Refuse to write `target` when `path` (it, or its folder) may not be replaced."""
    why = frozen(path)
    if why:
        what = "the folder" if path.is_dir() else "the file"
        raise OutputError(Problem(
            f"cannot write: {what} is {why}, so its files cannot be replaced; earlier files "
            "were left as they were", str(target)))


def sync_folder(folder: Path) -> None:
    """Flush the renames themselves, so a power cut cannot undo them (best effort)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def exists(path: Path) -> bool:
    """Whether a name is there, a link to nothing included."""
    return os.path.lexists(path)
