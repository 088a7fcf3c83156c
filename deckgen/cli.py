"""The command line: typer (deckgen.app, imported only once the arguments are read) reads them
and runs the command (deckgen.commands); every expected failure becomes one line per
problem and its exit code. Each command imports the heavy parts it needs only when it runs."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
import traceback
from collections.abc import Sequence

from deckgen.errors import DeckgenError


def main() -> None:
    """Run the app; an expected failure prints one line per problem and exits with its code."""
    # A console that cannot show a character gets \u escapes.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    signal.signal(signal.SIGTERM, _terminate)  # a polite kill cleans up like Ctrl-C
    sys.exit(_run(None))


def run(argv: Sequence[str]) -> tuple[int, str, str]:
    """`deckgen ARGV` in this process: its exit code and what it printed on each stream.

    It does what main() does, minus the process: no exit, no signal handler, the streams
    captured. The current folder and the environment are this process's own.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _run(list(argv))
    return code, out.getvalue(), err.getvalue()


def _run(argv: list[str] | None) -> int:
    """The command line's exit code for `argv` (None: the process's own arguments)."""
    from deckgen.output import begin

    begin()  # nothing of this command is written yet (a Ctrl-C line counts what is)
    try:
        return _dispatch(argv, _debug_asked(sys.argv[1:] if argv is None else argv))
    except SystemExit as done:  # what the process would have exited with
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        print(done.code, file=sys.stderr)
        return 1


def _debug_asked(argv: Sequence[str]) -> bool:
    """Whether the root options, before the command's name, include --debug."""
    for token in argv:
        if token == "--debug":
            return True
        if not token.startswith("-"):
            return False
    return False


def _dispatch(argv: list[str] | None, debug: bool) -> int:
    try:
        from deckgen.app import run

        code = run(argv)
    except DeckgenError as err:
        if debug:
            traceback.print_exc()
        for line in err.lines():
            print(line, file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt as err:
        return _interrupted(err)
    except OSError as err:  # the machine refused something no module turned into a line
        if debug:
            traceback.print_exc()
        print(_os_line(err), file=sys.stderr)
        return 2 if err.errno in (errno.ENAMETOOLONG, errno.ELOOP) else 1
    except SystemExit as done:
        if done.code == 130 and _caused_by_ctrl_c(done):  # typer turns Ctrl-C into a silent exit
            return _interrupted(_caused_by_ctrl_c(done))
        raise
    if code == 130:  # the command line parser's answer to Ctrl-C
        return _interrupted(None)
    return code if isinstance(code, int) else 0


def _terminate(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _interrupted(error: BaseException | None) -> int:
    from deckgen.output import Interrupted, landed

    if isinstance(error, Interrupted):  # it came while files were swapped: they all landed
        print(f"interrupted; {error.said}", file=sys.stderr)
    elif landed():  # after the files were written (saving the cache, say)
        print("interrupted; the new files were all written before it stopped", file=sys.stderr)
    else:
        print("interrupted; earlier files were left as they were", file=sys.stderr)
    return 130


def _os_line(err: OSError) -> str:
    """One line for an operating-system refusal: the path, then why."""
    where = f"{os.fsdecode(err.filename)}: " if err.filename is not None else ""
    if err.errno == errno.ENAMETOOLONG:
        return f"{where}the name is longer than the file system allows (255 bytes); " \
               "choose a shorter one"
    return f"{where}cannot be used: {err.strerror or err}"


def _caused_by_ctrl_c(error: BaseException) -> KeyboardInterrupt | None:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None
