"""What deckgen prints on standard output, where a reader that went away is not a failure.

A build's or a sweep's list of written files is a courtesy: with stdout a closed pipe or a
full device (`/dev/full`), the files are still written and the build still succeeds, and a
sweep goes on to its last combination. A table read by `head -1` stops quietly once its
reader has what it wants. Either way, the rest of the process's output goes to the null
device, so the interpreter's last flush cannot fail either.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from pathlib import Path

_GONE = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG)


class ReaderGone(Exception):
    """The command's reader closed the pipe: the command ends quietly, exit 0."""


def listing(path: Path | str) -> None:
    """One written file's path, on a line of its own; a stdout that cannot take it is let go."""
    try:
        print(path, flush=True)
    except OSError as err:
        if err.errno not in _GONE:
            raise
        _let_go()


def product(text: str) -> None:
    """The command's own output (a table): a reader that went away ends the command quietly
    (ReaderGone); a full device is an error, as it always was."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _let_go()
        raise ReaderGone from None


def _let_go() -> None:
    """Point stdout at the null device, so what is still buffered and all later output go
    there (in-process, with stdout captured, there is nothing to do)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
