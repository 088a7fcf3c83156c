"""Reading a named file safely: a regular file only (a FIFO, a device or a folder is refused
before anything is read, without waiting), at most a given number of bytes, and the operating
system's refusals in words. The content file and a `--template` are both read so."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegular(Exception):
    """The path names something other than a regular file (its kind in words)."""


class TooLarge(Exception):
    """The file is larger than the limit it is read with."""


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them. A FIFO, a device
    or a folder is refused (NotRegular) before anything is read and without waiting;
    the operating system's refusals are raised as they come (OSError)."""
    with open(path, "rb", opener=_no_wait) as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(kind_of(info.st_mode))
        if info.st_size > limit:
            raise TooLarge
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge
    return data


def _no_wait(path: str, flags: int) -> int:
    """Open without waiting (a FIFO with no writer would block a plain open)."""
    return os.open(path, flags | os.O_NONBLOCK)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def os_reason(err: OSError) -> str:
    """The operating system's refusal to read a path, in words."""
    if err.errno == errno.ENAMETOOLONG:
        return "cannot be read: the name is longer than the file system allows (255 bytes)"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "cannot be read (permission denied)"
    if err.errno == errno.ELOOP:
        return "cannot be read: its symbolic links go round in a loop"
    if err.errno == errno.ENOTDIR:
        return "cannot be read: a part of its path is a file"
    return f"cannot be read: {err.strerror or err}"

