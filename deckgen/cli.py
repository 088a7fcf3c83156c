"""The command line. Each command imports the heavy parts it needs only when it runs."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from deckgen import __version__
from deckgen.errors import DeckgenError, Problem

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Build a meetup deck and a printable handout from one YAML file.")

Content = Annotated[Optional[Path], typer.Argument(
    help="Content file (default: ./content.yaml, else the bundled explainer).", show_default=False)]
Speed = Annotated[Optional[str], typer.Option(
    "--speed", help="Writing speed, e.g. 2500, 10K, 1M (overrides dial.speed).")]
Check = Annotated[Optional[str], typer.Option(
    "--check", help="Fixed check after writing, e.g. 0, 60s, 15min, 24h "
    "(overrides dial.fixed_check).")]
Workload = Annotated[Optional[str], typer.Option(
    "--workload", help="Id of the workload the dial features (overrides dial.workload).")]


def _bounded(speed: str | None, check: str | None) -> None:
    """Refuse an over-long --speed or --check at once, quoting only its start."""
    from deckgen import quantities
    from deckgen.errors import InputError

    problems = []
    for option, value, rule in (("--speed", speed, quantities.SPEED_RULE),
                                ("--check", check, quantities.DURATION_RULE)):
        if value is not None and len(value) > quantities.MAX_TEXT:
            problems.append(Problem(f"{rule}, got {value[:37] + '...'!r}", path=option))
    if problems:
        raise InputError(problems)


def _warn(warnings: list[Problem]) -> None:
    for w in warnings:
        print(w, file=sys.stderr)


def _version(value: bool) -> None:
    if value:
        print(f"deckgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    debug: Annotated[bool, typer.Option(
        "--debug", help="Show the traceback of a failure.")] = False,
) -> None:
    """Build a meetup deck and a printable handout from one YAML file."""
    # --debug is read from the arguments by `_run` (`_debug_asked`), which reports failures.


@app.command(short_help="Print the workload and check tables and the dial's summary.")
def table(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print every figure as JSON: its exact value and its text.")] = False,
) -> None:
    """Print the workload table, the preset-check table and the chosen dial's summary."""
    from deckgen import report, source
    from deckgen.figures import with_overrides

    _bounded(speed, check)
    parsed, warnings = source.read(content)
    parsed = with_overrides(parsed, speed, check, workload)
    _warn(warnings)
    if as_json:
        print(json.dumps(report.as_json(parsed), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.as_text(parsed))


@app.command("check", short_help="Validate a content file; exit 0 when clean, 2 when not.")
def validate_content(
    content: Content = None,
    list_figures: Annotated[bool, typer.Option(
        "--figures", help="Also list every {figure} the prose may name, with its text.")] = False,
) -> None:
    """Validate a content file: every problem on its own line; exit 0 when clean, 2 when not."""
    from deckgen import source
    from deckgen.content import reminders
    from deckgen.figures import figures

    parsed, warnings = source.read(content)
    warnings = warnings + reminders(parsed)
    _warn(warnings)
    if list_figures:
        for name, figure in figures(parsed).items():
            print(f"{{{name}}}  {figure.text}")
    count = len(warnings)
    print(f"{parsed.file}: ok ({len(parsed.workloads)} workloads, "
          f"{count} warning{'' if count == 1 else 's'})")


Out = Annotated[Path, typer.Option("--out", help="Folder for the deck, the handout and the page.")]
SweepOut = Annotated[Path, typer.Option("--out", help="Folder for the decks and the handouts.")]
Aspect = Annotated[Optional[str], typer.Option(
    "--aspect", metavar="16:9|4:3", help="The slides' shape (overrides meta.aspect).")]
Paper = Annotated[Optional[str], typer.Option(
    "--paper", metavar="a4|letter", help="The handout's paper size (overrides meta.paper).")]
Template = Annotated[Optional[Path], typer.Option(
    "--template", help="A .pptx whose masters, layouts, colours and fonts the deck uses.")]
Walk = Annotated[bool, typer.Option("--walk", help="Add one 'turn the dial' slide per speed mark.")]
Only = Annotated[Optional[str], typer.Option(
    "--only", metavar="deck|handout|html", help="Build only the deck, the handout or the web "
    "page (default: all three).")]
SweepOnly = Annotated[Optional[str], typer.Option(
    "--only", metavar="deck|handout|html", help="Build only the decks, the handouts or the web "
    "pages (default: all three).")]
Pages = Annotated[str, typer.Option(
    "--pages", metavar="2|auto", help="The handout's length: 2 pages (one sheet) or auto "
    "(as many pages as it needs).")]
Charts = Annotated[str, typer.Option(
    "--charts", metavar="native|picture", help="The deck's charts: native (editable PowerPoint "
    "charts) or picture (PNG images, for clients that import charts poorly).")]


def _options(**given: object) -> object:
    """build.Options from the command line, every unknown choice reported at once."""
    from deckgen.build import Options
    from deckgen.errors import InputError

    problems = []
    for name, allowed in (("aspect", ("16:9", "4:3")), ("paper", ("a4", "letter")),
                          ("only", ("deck", "handout", "html")), ("pages", ("2", "auto")),
                          ("charts", ("native", "picture"))):
        value = given.get(name)
        if value is not None and value not in allowed:
            problems.append(Problem(f"must be one of {', '.join(allowed)}, got {value!r}",
                                    path=f"--{name}"))
    if problems:
        raise InputError(problems)
    pages = given.pop("pages")
    return Options(**given, pages_auto=pages == "auto")  # type: ignore[arg-type]


@app.command(short_help="Build the deck (.pptx), the handout (.pdf) and the page (.html).")
def build(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Out = Path("output"), aspect: Aspect = None, paper: Paper = None,
    template: Template = None, walk: Walk = False, only: Only = None, pages: Pages = "2",
    charts: Charts = "native",
    watch: Annotated[bool, typer.Option(
        "--watch", help="Build again whenever the content file or the template changes "
        "(Ctrl-C to stop).")] = False,
) -> None:
    """Build the deck (.pptx), the handout (.pdf) and the live page (.html) into the output
    folder."""
    from deckgen import pipeline

    _bounded(speed, check)
    options = _options(out=out, speed=speed, check=check, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages,
                       charts=charts)
    if watch:
        import deckgen.watch
        from deckgen import chartcache, source

        started = content or source.default_path()  # followed even when it goes away
        memory = chartcache.Memory()  # the charts drawn, from one build to the next
        warm = [False]  # a build has run in this process alone

        def once() -> list[Path]:
            # Until one build succeeds, builds run in this process alone, which leaves it warm
            # (renderers loaded, fonts registered and measured); later ones fork from it.
            written, warnings = pipeline.build(started, options, memory,  # type: ignore[arg-type]
                                               parallel=warm[0])
            warm[0] = True
            _warn(warnings)
            return written

        watched = [started] + ([template] if template else [])
        deckgen.watch.watch(watched, once)
        return
    written, warnings = pipeline.build(content, options)  # type: ignore[arg-type]
    _warn(warnings)
    for path in written:
        print(path)


@app.command(short_help="Build a deck and a handout per speed (and per check).")
def sweep(
    content: Content = None,
    speeds: Annotated[Optional[str], typer.Option(
        "--speeds", help="Comma-separated speeds, e.g. 100,1K,10K,100K,1M (default: the content's "
        "speed marks).")] = None,
    checks: Annotated[Optional[str], typer.Option(
        "--checks", help="Comma-separated fixed checks, e.g. 0,60s,15min (default: the content's "
        "fixed check).")] = None,
    workload: Workload = None, out: SweepOut = Path("output"),
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", help="Builds drawn at once (default: the number of cores).")] = None,
    aspect: Aspect = None, paper: Paper = None, template: Template = None, walk: Walk = False,
    only: SweepOnly = None, pages: Pages = "2",
) -> None:
    """Build one deck and one handout per speed (and per check), named by their values."""
    import deckgen.sweep
    from deckgen.build import KINDS
    from deckgen.errors import InputError

    if jobs is not None and jobs < 1:
        raise InputError(Problem(f"must be at least 1, got {jobs}", path="--jobs"))
    options = _options(out=out, speed=None, check=None, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages)
    plan, warnings = deckgen.sweep.plan(content, options, speeds, checks)  # type: ignore[arg-type]
    _warn(warnings)
    workers = jobs or deckgen.sweep.default_workers()
    heard: list[Problem] = []  # the renderers' warnings, once each, after the progress
    try:
        if not sys.stdout.isatty():
            deckgen.sweep.run(plan, workers, print, heard)
            return
        from rich.progress import Progress

        files = len(plan) * (1 if only else len(KINDS))
        with Progress(transient=False) as progress:
            task = progress.add_task("sweep", total=files)

            def finished(path: Path) -> None:
                progress.console.print(str(path), highlight=False)
                progress.advance(task)

            deckgen.sweep.run(plan, workers, finished, heard)
    finally:
        _warn(heard)


@app.command()
def init(
    path: Annotated[Optional[Path], typer.Argument(
        help="Where to write it (default: ./content.yaml; a folder gets content.yaml inside).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a starter content file (the bundled explainer) to edit."""
    from deckgen import starter

    written = starter.write(path, force)
    print(f"wrote {written}; edit it, then run: deckgen build {written}")


@app.command()
def layouts(template: Annotated[Path, typer.Argument(help="A .pptx file.")]) -> None:
    """List a template's slide layouts and their placeholders."""
    from deckgen import template_file
    from deckgen.errors import InputError
    from deckgen.render import deck

    if template.is_file():  # a zip bomb is refused first, each problem named by the file
        try:
            template_file.read(template)
        except InputError as err:
            raise InputError([replace(p, file=str(template), path=None)
                              for p in err.problems]) from None
    elif template.exists() and not template.is_dir():  # a FIFO or a device: never read
        try:
            template_file.read(template)
        except InputError as err:
            raise InputError([replace(p, path=None) for p in err.problems]) from None
    sys.stdout.write(deck.describe_layouts(template))


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
    quick = _quick(sys.argv[1:] if argv is None else argv)
    try:
        if quick is not None:
            command, arguments = quick
            command(**arguments)
            return 0
        code = app(args=argv, prog_name="deckgen", standalone_mode=False)
    except typer.TyperException as err:  # a usage error: one line, like every other problem
        if type(err).__name__ == "NoArgsIsHelpError":  # plain `deckgen`: the help
            print(err.format_message())
            return 0
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx else "deckgen"
        message = err.format_message()
        print(f"{where}: {message} (see '{where} --help')", file=sys.stderr)
        return int(getattr(err, "exit_code", 2))
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


# The quick commands' options, and whether each takes a value.
_QUICK: dict[str, dict[str, bool]] = {
    "table": {"--speed": True, "--check": True, "--workload": True, "--json": False},
    "check": {"--figures": False},
    "build": {"--speed": True, "--check": True, "--workload": True, "--out": True,
              "--aspect": True, "--paper": True, "--template": True, "--walk": False,
              "--only": True, "--pages": True, "--charts": True, "--watch": False},
    "sweep": {"--speeds": True, "--checks": True, "--workload": True, "--out": True,
              "--jobs": True, "--aspect": True, "--paper": True, "--template": True,
              "--walk": False, "--only": True, "--pages": True},
}
_NAMES = {"--json": "as_json", "--figures": "list_figures"}
_PATHS = {"out", "template"}  # options whose value is a file or folder


def _quick(argv: list[str]) -> tuple[Callable[..., None], dict[str, Any]] | None:
    """`table`, `check`, `build` or `sweep` with plainly written arguments, read here: the
    command line library spends longer converting them (it loads pydantic to) than `table`
    needs to run, and a third of a rebuild's time. Anything else (help, a value
    that starts with '-', an option written twice or as --name=value, a mistake) gets None and
    goes to the library, which answers it as it always has; so does --debug, whose traceback
    shows the library's frames. The same functions run either way.
    """
    name, *rest = argv or [""]
    if name not in _QUICK:
        return None
    options = _QUICK[name]
    arguments: dict[str, Any] = {}
    tokens = iter(rest)
    for token in tokens:
        if token in options:
            key = _NAMES.get(token, token[2:])
            value = next(tokens, "") if options[token] else "yes"
            if key in arguments or value[:1] in ("", "-"):
                return None
            if key == "jobs" and not (value.isascii() and value.isdigit() and len(value) < 10):
                return None  # the library says what a number of jobs must be
            arguments[key] = ((Path(value) if key in _PATHS else int(value) if key == "jobs"
                               else value) if options[token] else True)
        elif token[:1] in ("", "-") or "content" in arguments:
            return None
        else:
            arguments["content"] = Path(token)
    commands: dict[str, Callable[..., None]] = {"table": table, "check": validate_content,
                                                "build": build, "sweep": sweep}
    return commands[name], arguments


def _terminate(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _interrupted(error: BaseException | None) -> int:
    from deckgen.output import Interrupted

    if isinstance(error, Interrupted):  # it came while files were swapped: they all landed
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
