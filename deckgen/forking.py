"""Run one piece of a build in a forked process while this process does another.

A build renders the deck, and the handout with the page, from the same story; on two cores
they can be drawn at once (`beside`). The child only computes: it returns its bytes (or its
problems) through a pipe, and this process alone writes files, so the nothing-lost rules
hold unchanged. The same functions run either way, so the bytes are the same as a serial
build's.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, NoReturn, TypeVar

from deckgen.errors import DeckgenError, Problem, RenderError

T = TypeVar("T")
U = TypeVar("U")


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def available() -> bool:
    """Forking is safe and useful here: POSIX, more than one core, no other thread running."""
    return (
        hasattr(os, "fork")
        and cores() > 1
        and threading.active_count() == 1
        and threading.current_thread() is threading.main_thread()
    )


def beside(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """`here()` in this process and `there()` in a forked one, at the same time."""
    with Child(there, "handout") as child:
        ours = here()
        return ours, child.result()


_STOPS = {signal.SIGINT, signal.SIGTERM}


class Child(Generic[T]):
    """`work()` running in a forked process; `result()` waits for it.

    The result comes back as it would have in this process: a value, or the same
    DeckgenError with the same problems. Leaving the `with` block before the result was
    taken (an error of this process's own, Ctrl-C) ends the child, which cleans up after
    itself.
    """

    def __init__(self, work: Callable[[], T], what: str) -> None:
        self.what = what
        self.done = False
        reader, writer = os.pipe()
        # Ctrl-C or a polite kill waits until both sides know who they are: one arriving
        # inside fork()'s own hooks could not be raised there, only printed and lost.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        self.pid = os.fork()
        if self.pid == 0:
            _child(work, reader, writer, held)
        os.close(writer)
        self.reader = reader
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is raised here
        except BaseException:
            self.stop()
            raise

    def __enter__(self) -> Child[T]:
        return self

    def __exit__(self, *_: object) -> None:
        if not self.done:
            self.stop()

    def result(self) -> T:
        with os.fdopen(self.reader, "rb") as pipe:
            data = pipe.read()
        os.waitpid(self.pid, 0)
        self.done = True
        if not data:
            raise RenderError(
                Problem(f"the process drawing the {self.what} ended without a result")
            )
        kind, value = pickle.loads(data)
        if kind == "value":
            return value  # type: ignore[no-any-return]
        if kind == "problems":
            error_type, problems = value
            raise error_type(problems)
        raise RenderError(Problem(f"cannot draw the {self.what}: {value}"))

    def stop(self) -> None:
        self.done = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        with contextlib.suppress(OSError):
            os.close(self.reader)
        os.waitpid(self.pid, 0)


def _child(work: Callable[[], object], reader: int, writer: int,
           held: set[int | signal.Signals]) -> NoReturn:
    try:
        os.close(reader)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        signal.signal(signal.SIGTERM, _exit_cleanly)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        result: tuple[str, object]
        try:
            result = ("value", work())
        except DeckgenError as err:
            result = ("problems", (type(err), err.problems))
        except BaseException as err:  # reported by the parent
            result = ("crash", f"{type(err).__name__}: {err}")
        with os.fdopen(writer, "wb") as pipe:
            pickle.dump(result, pipe, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)


def _exit_cleanly(_signum: int, _frame: object) -> None:
    """In the child, asked to stop: unwind (temporary files get removed), then go."""
    sys.exit(1)
