"""Build, then build again whenever a watched file changes, until Ctrl-C.

The files are polled (modification time, size and identity), which needs no extra
dependency and works on every file system. A failed build prints its problems and the
watch goes on; since every build writes its files whole or not at all, the last good
deck and handout stay in place until a build succeeds. The watch follows the files it
started with: when one disappears or stops being a file, the watch says so and waits for
it to come back; it never builds anything else in its place.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from deckgen.errors import DeckgenError

INTERVAL = 0.2  # seconds between looks
SETTLE = 0.05  # seconds an edit must stand still before the build starts

Stamp = tuple[int, int, int, int] | None


def stamp(path: Path) -> Stamp:
    """What changes when a file is edited, saved anew or replaced; None when it is missing."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _say(line: str) -> None:
    print(line, flush=True)


def _complain(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def watch(
    paths: Sequence[Path],
    rebuild: Callable[[], Sequence[Path]],
    *,
    interval: float = INTERVAL,
    settle: float = SETTLE,
    stop: Callable[[], bool] = lambda: False,
    max_builds: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] = _say,
    complain: Callable[[str], None] = _complain,
) -> int:
    """Build now and after each change to `paths`; returns how many builds ran.

    Ends when `stop()` is true or after `max_builds` builds (tests use these), returning; or
    on Ctrl-C, with SystemExit(130).
    """
    names = ", ".join(str(p) for p in paths)
    builds = 0
    try:
        seen = [stamp(p) for p in paths]
        _attempt(rebuild, say, complain)
        builds += 1
        say(f"watching {names} (Ctrl-C to stop)")
        while not stop() and (max_builds is None or builds < max_builds):
            sleep(interval)
            now = [stamp(p) for p in paths]
            if now == seen:
                continue
            while True:  # an editor may write in several steps: wait until it stands still
                sleep(settle)
                again = [stamp(p) for p in paths]
                if again == now:
                    break
                now = again
            changed = ", ".join(str(p) for p, a, b in zip(paths, seen, now, strict=True) if a != b)
            seen = now
            say(f"{changed} changed: building")
            if not _attempt(rebuild, say, complain):
                for path in paths:
                    if not _is_file(path):
                        complain(f"{path}: is not there as a file; waiting for it to come back")
            builds += 1
    except KeyboardInterrupt:
        say("stopped watching")
    else:
        return builds
    # Ctrl-C ends the watch with its own status (130), raised outside the handler so that
    # nothing more is said: every build it ran was reported as it ended.
    raise SystemExit(130)


def _attempt(
    rebuild: Callable[[], Sequence[Path]],
    say: Callable[[str], None],
    complain: Callable[[str], None],
) -> bool:
    """One build; its problems are printed, never raised, so the watch goes on."""
    started = time.perf_counter()
    try:
        written = rebuild()
    except DeckgenError as err:
        for line in err.lines():
            complain(line)
        complain("build failed; the last good files stay in place")
        return False
    except Exception as err:  # a bug in one build must not end the watch
        complain(f"build failed: {type(err).__name__}: {err}; the last good files stay in place")
        return False
    for path in written:
        say(str(path))
    say(f"built in {time.perf_counter() - started:.2f} s")
    return True
