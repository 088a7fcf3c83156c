"""The command line. Each command imports the heavy parts it needs only when it runs."""

from __future__ import annotations

import json
import signal
import sys
import traceback
from pathlib import Path
from typing import Annotated, Optional

import typer

from deckgen import __version__
from deckgen.errors import DeckgenError, Problem

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Build a meetup deck and a printable handout from one YAML file.")

_debug = False

Content = Annotated[Optional[Path], typer.Argument(
    help="Content file (default: ./content.yaml, else the bundled explainer).", show_default=False)]
Speed = Annotated[Optional[str], typer.Option(
    "--speed", help="Writing speed, e.g. 2500, 10K, 1M (overrides dial.speed).")]
Check = Annotated[Optional[str], typer.Option(
    "--check", help="Fixed check after writing, e.g. 0, 60s, 15min, 24h "
    "(overrides dial.fixed_check).")]
Workload = Annotated[Optional[str], typer.Option(
    "--workload", help="Id of the workload the dial features (overrides dial.workload).")]


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
    global _debug
    _debug = debug


@app.command(short_help="Print the workload and check tables and the dial's summary.")
def table(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print every figure as JSON: its exact value and its text.")] = False,
) -> None:
    """Print the workload table, the preset-check table and the chosen dial's summary."""
    from deckgen import report, source
    from deckgen.figures import with_overrides

    parsed, warnings = source.read(content)
    parsed = with_overrides(parsed, speed, check, workload)
    _warn(warnings)
    if as_json:
        print(json.dumps(report.as_json(parsed), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.as_text(parsed))


@app.command(short_help="Validate a content file; exit 0 when clean, 2 when not.")
def check(
    content: Content = None,
    list_figures: Annotated[bool, typer.Option(
        "--figures", help="Also list every {figure} the prose may name, with its text.")] = False,
) -> None:
    """Validate a content file: every problem on its own line; exit 0 when clean, 2 when not."""
    from deckgen import source
    from deckgen.figures import figures

    parsed, warnings = source.read(content)
    _warn(warnings)
    if list_figures:
        for name, figure in figures(parsed).items():
            print(f"{{{name}}}  {figure.text}")
    count = len(warnings)
    print(f"{parsed.file}: ok ({len(parsed.workloads)} workloads, "
          f"{count} warning{'' if count == 1 else 's'})")


Out = Annotated[Path, typer.Option("--out", help="Folder for the deck and the handout.")]
SweepOut = Annotated[Path, typer.Option("--out", help="Folder for the decks and the handouts.")]
Aspect = Annotated[Optional[str], typer.Option(
    "--aspect", metavar="16:9|4:3", help="The slides' shape (overrides meta.aspect).")]
Paper = Annotated[Optional[str], typer.Option(
    "--paper", metavar="a4|letter", help="The handout's paper size (overrides meta.paper).")]
Template = Annotated[Optional[Path], typer.Option(
    "--template", help="A .pptx whose masters, layouts, colours and fonts the deck uses.")]
Walk = Annotated[bool, typer.Option("--walk", help="Add one 'turn the dial' slide per speed mark.")]
Only = Annotated[Optional[str], typer.Option(
    "--only", metavar="deck|handout", help="Build only the deck or only the handout "
    "(default: both).")]
SweepOnly = Annotated[Optional[str], typer.Option(
    "--only", metavar="deck|handout", help="Build only the decks or only the handouts "
    "(default: both).")]
Pages = Annotated[str, typer.Option(
    "--pages", metavar="2|auto", help="The handout's length: 2 pages (one sheet) or auto "
    "(as many pages as it needs).")]
Charts = Annotated[str, typer.Option(
    "--charts", metavar="native|picture", help="The deck's charts: native (editable PowerPoint "
    "charts) or picture (PNG images, for clients that import charts poorly).")]


def _options(**given: object) -> object:
    """build.Options from the command line, every unknown choice reported at once."""
    from deckgen import build as pipeline
    from deckgen.errors import InputError

    problems = []
    for name, allowed in (("aspect", ("16:9", "4:3")), ("paper", ("a4", "letter")),
                          ("only", ("deck", "handout")), ("pages", ("2", "auto")),
                          ("charts", ("native", "picture"))):
        value = given.get(name)
        if value is not None and value not in allowed:
            problems.append(Problem(f"must be one of {', '.join(allowed)}, got {value!r}",
                                    path=f"--{name}"))
    if problems:
        raise InputError(problems)
    pages = given.pop("pages")
    return pipeline.Options(**given, pages_auto=pages == "auto")  # type: ignore[arg-type]


@app.command(short_help="Build the deck (.pptx) and the handout (.pdf).")
def build(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Out = Path("output"), aspect: Aspect = None, paper: Paper = None,
    template: Template = None, walk: Walk = False, only: Only = None, pages: Pages = "2",
    charts: Charts = "native",
    watch: Annotated[bool, typer.Option(
        "--watch", help="Build again whenever the content file or the template changes "
        "(Ctrl-C to stop).")] = False,
) -> None:
    """Build the deck (.pptx) and the handout (.pdf) into the output folder."""
    from deckgen import build as pipeline

    options = _options(out=out, speed=speed, check=check, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages,
                       charts=charts)
    if watch:
        from deckgen import source
        from deckgen.watch import watch as keep_watching

        def once() -> list[Path]:
            written, warnings = pipeline.build(content, options)  # type: ignore[arg-type]
            _warn(warnings)
            return written

        watched = [content or source.default_path()] + ([template] if template else [])
        keep_watching(watched, once)
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
    from deckgen import sweep as sweeping
    from deckgen.errors import InputError

    if jobs is not None and jobs < 1:
        raise InputError(Problem(f"must be at least 1, got {jobs}", path="--jobs"))
    options = _options(out=out, speed=None, check=None, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages)
    plan, warnings = sweeping.plan(content, options, speeds, checks)  # type: ignore[arg-type]
    _warn(warnings)
    workers = jobs or sweeping.default_workers()
    heard: list[Problem] = []  # the renderers' warnings, once each, after the progress
    try:
        if not sys.stdout.isatty():
            sweeping.run(plan, workers, print, heard)
            return
        from rich.progress import Progress

        files = len(plan) * (1 if only else 2)
        with Progress(transient=False) as progress:
            task = progress.add_task("sweep", total=files)

            def finished(path: Path) -> None:
                progress.console.print(str(path), highlight=False)
                progress.advance(task)

            sweeping.run(plan, workers, finished, heard)
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
    from deckgen import deck

    sys.stdout.write(deck.describe_layouts(template))


def main() -> None:
    """Run the app; an expected failure prints one line per problem and exits with its code."""
    # A console that cannot show a character gets \u escapes.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    signal.signal(signal.SIGTERM, _terminate)  # a polite kill cleans up like Ctrl-C
    try:
        code = app(prog_name="deckgen", standalone_mode=False)
    except typer.TyperException as err:  # a usage error: one line, like every other problem
        if type(err).__name__ == "NoArgsIsHelpError":  # plain `deckgen`: the help
            print(err.format_message())  # type: ignore[attr-defined]
            sys.exit(0)
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx else "deckgen"
        message = err.format_message()  # type: ignore[attr-defined]
        print(f"{where}: {message} (see '{where} --help')", file=sys.stderr)
        sys.exit(getattr(err, "exit_code", 2))
    except DeckgenError as err:
        if _debug:
            traceback.print_exc()
        for line in err.lines():
            print(line, file=sys.stderr)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as done:
        if done.code == 130 and _caused_by_ctrl_c(done):  # typer turns Ctrl-C into a silent exit
            _interrupted()
        raise
    if code == 130:  # the command line parser's answer to Ctrl-C
        _interrupted()
    sys.exit(code if isinstance(code, int) else 0)


def _terminate(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _interrupted() -> None:
    print("interrupted; earlier files were left as they were", file=sys.stderr)
    sys.exit(130)


def _caused_by_ctrl_c(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
