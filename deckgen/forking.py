"""Run one piece of a build in a forked process while this process does another.

A build forks before it lays the slides out: the child draws the handout and the page, which
need no slide layout, while this process lays the slides out; this process then hands the
child the slides as placed (plain data) and draws the deck while the child draws the slides
PDF and the notes book (`aside`). The child only computes: it returns its bytes (or its
problems) through a pipe, and this process alone writes files, so the nothing-lost rules hold
unchanged. The same functions run either way, so the bytes are the same as a serial build's.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Generic, NoReturn, Protocol, TypeVar, cast

from deckgen.errors import DeckgenError, Problem, RenderError

T = TypeVar("T")
V = TypeVar("V")
T_co = TypeVar("T_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)


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


class Aside(Protocol[T_co, V_contra]):
    """Work done beside this process's own: `send` hands it the value it asks for (once),
    `result` waits for what it returns."""

    def send(self, value: V_contra) -> None: ...

    def result(self) -> T_co: ...


class _Here(Generic[T, V]):
    """Work without a fork: it runs, in this process, when its result is asked for."""

    def __init__(self, work: Callable[[Callable[[], V]], T]) -> None:
        self.work = work
        self.sent: list[V] = []

    def send(self, value: V) -> None:
        self.sent.append(value)

    def result(self) -> T:
        return self.work(lambda: self.sent[0])


@contextlib.contextmanager
def aside(work: Callable[[Callable[[], V]], T], what: str, fork: bool
          ) -> Iterator[Aside[T, V]]:
    """`work(receive)` started in a forked process when `fork` (and forking is available),
    while this process goes on inside the `with` block; `receive()` returns, in the child,
    the value this process `send`s. Without a fork, the work runs when its result is asked
    for, in this process."""
    if not (fork and available()):
        yield _Here(work)
        return
    with Child(work, what) as child:
        yield child


_STOPS = {signal.SIGINT, signal.SIGTERM}


class Child(Generic[T, V]):
    """`work(receive)` running in a forked process; `send(value)` hands it what `receive()`
    returns there, `result()` waits for what it returns.

    The result comes back as it would have in this process: a value, or the same
    DeckgenError with the same problems. Leaving the `with` block before the result was
    taken (an error of this process's own, Ctrl-C) ends the child, which cleans up after
    itself.
    """

    def __init__(self, work: Callable[[Callable[[], V]], T], what: str) -> None:
        self.what = what
        self.done = False
        reader, writer = os.pipe()
        inbound, outbound = os.pipe()
        # Ctrl-C or a polite kill waits until both sides know who they are: one arriving
        # inside fork()'s own hooks could not be raised there, only printed and lost.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        self.pid = os.fork()
        if self.pid == 0:
            os.close(outbound)
            _child(lambda: work(lambda: cast(V, _received(inbound))), reader, writer, held)
        os.close(writer)
        os.close(inbound)
        self.reader: int | None = reader  # until result() takes it
        self.outbound: int | None = outbound  # until the value is sent
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is raised here
        except BaseException:
            self.stop()
            raise

    def send(self, value: V) -> None:
        assert self.outbound is not None, "a child is sent one value"
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        # Where the system lets a pipe hold it all (Linux), this process goes on at once,
        # not when the child, still busy, starts reading.
        grow = getattr(fcntl, "F_SETPIPE_SZ", None)
        if grow is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(self.outbound, grow, len(data))
        outbound, self.outbound = self.outbound, None
        # A child that ended first (it crashed, or was stopped) says why in its result.
        with contextlib.suppress(BrokenPipeError), os.fdopen(outbound, "wb") as pipe:
            pipe.write(data)

    def _unsent(self) -> None:
        """Nothing more will be sent: a child waiting for a value finds the pipe closed."""
        if self.outbound is not None:
            os.close(self.outbound)
            self.outbound = None

    def __enter__(self) -> Child[T, V]:
        return self

    def __exit__(self, *_: object) -> None:
        if not self.done:
            self.stop()

    def result(self) -> T:
        self._unsent()
        reader, self.reader = self.reader, None
        assert reader is not None, "a child's result is taken once"
        with os.fdopen(reader, "rb") as pipe:
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
        self._unsent()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        if self.reader is not None:  # not yet taken by result(), which closes it
            os.close(self.reader)
            self.reader = None
        with contextlib.suppress(ChildProcessError):  # result() may have waited for it
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


def _received(inbound: int) -> object:
    """In the child: the value the parent sends, once it has sent it."""
    with os.fdopen(inbound, "rb") as pipe:
        return pickle.load(pipe)


def _exit_cleanly(_signum: int, _frame: object) -> None:
    """In the child, asked to stop: unwind (temporary files get removed), then go."""
    sys.exit(1)
