"""The command line as typer reads it: every command's options and their help. Each command
runs deckgen.commands, the same function the quick reader in deckgen.cli calls for plainly
written arguments; typer is imported only for what that reader leaves to it (help, --version,
--name=value, mistakes and the rarer commands).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from deckgen import __version__, commands

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
    "--only", metavar="deck|handout|html|slides|notes", help="Build only the deck, the handout, "
    "the web page, the slides PDF or the notes book (default: all five).")]
SweepOnly = Annotated[Optional[str], typer.Option(
    "--only", metavar="deck|handout|html|slides|notes", help="Build only the decks, the "
    "handouts, the web pages, the slides PDFs or the notes books (default: all five).")]
Pages = Annotated[str, typer.Option(
    "--pages", metavar="2|auto", help="The handout's length: 2 pages (one sheet) or auto "
    "(as many pages as it needs).")]
Charts = Annotated[str, typer.Option(
    "--charts", metavar="native|picture", help="The deck's charts: native (editable PowerPoint "
    "charts) or picture (PNG images, for clients that import charts poorly).")]


@app.command(short_help="Print the workload and check tables and the dial's summary.",
             help=commands.table.__doc__)
def table(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print every figure as JSON: its exact value and its text.")] = False,
) -> None:
    commands.table(content, speed, check, workload, as_json)


@app.command("check", short_help="Validate a content file; exit 0 when clean, 2 when not.",
             help=commands.validate_content.__doc__)
def validate_content(
    content: Content = None,
    list_figures: Annotated[bool, typer.Option(
        "--figures", help="Also list every {figure} the prose may name, with its text.")] = False,
) -> None:
    commands.validate_content(content, list_figures)


@app.command(short_help="Build the deck (.pptx), the handout (.pdf) and the page (.html).",
             help=commands.build.__doc__)
def build(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Out = Path("output"), aspect: Aspect = None, paper: Paper = None,
    template: Template = None, walk: Walk = False, only: Only = None, pages: Pages = "2",
    charts: Charts = "native",
    watch: Annotated[bool, typer.Option(
        "--watch", help="Build again whenever the content file or the template changes "
        "(Ctrl-C to stop).")] = False,
) -> None:
    commands.build(content, speed, check, workload, out, aspect, paper, template, walk,
                   only, pages, charts, watch)


@app.command(short_help="Build a deck and a handout per speed (and per check).",
             help=commands.sweep.__doc__)
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
    commands.sweep(content, speeds, checks, workload, out, jobs, aspect, paper, template,
                   walk, only, pages)


@app.command(help=commands.init.__doc__)
def init(
    path: Annotated[Optional[Path], typer.Argument(
        help="Where to write it (default: ./content.yaml; a folder gets content.yaml inside).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    commands.init(path, force)


@app.command(help=commands.layouts.__doc__)
def layouts(template: Annotated[Path, typer.Argument(help="A .pptx file.")]) -> None:
    commands.layouts(template)


def run(argv: list[str] | None) -> Any:
    """The command line read by typer (None: the process's arguments); a usage error is one
    line, like every other problem."""
    try:
        return app(args=argv, prog_name="deckgen", standalone_mode=False)
    except typer.TyperException as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # plain `deckgen`: the help
            print(err.format_message())
            return 0
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx else "deckgen"
        message = err.format_message()
        print(f"{where}: {message} (see '{where} --help')", file=sys.stderr)
        return int(getattr(err, "exit_code", 2))
