"""The output folder's lock: one write into a folder at a time, across processes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from deckgen.errors import OutputError, Problem
from deckgen.output.filesystem import path_error

LOCK_WAIT = 60.0  # seconds a build waits for another one writing into the same folder

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
        raise path_error(folder, err) from None
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


def folder_fd(folder: Path) -> int:
    """The descriptor of `folder` its lock holds (the journal is always handled under it)."""
    return _held[folder.resolve()][0]
