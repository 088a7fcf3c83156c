"""The command line as typer reads it: every command's options and their help. Each command
runs its function in deckgen.commands. deckgen.cli imports this module (and typer) only when
the command line is read, and nothing here imports a renderer.

Paths and numbers are declared as text and converted here: typer from 0.29 on converts typed
values through pydantic, which takes longer to load than `deckgen table` takes to run (and
pyproject keeps typer below 0.29, whose every value goes through it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from deckgen import __version__, commands

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Build a meetup deck and a printable handout from one YAML file.")


def _path(text: str | None) -> Path | None:
    return None if text is None else Path(text)


Content = Annotated[Optional[str], typer.Argument(
    help="Content file (default: content.yaml in this folder or the nearest one above it, up "
    "to the repository's root or the home folder; else the bundled explainer).",
    show_default=False, metavar="CONTENT")]
Speed = Annotated[Optional[str], typer.Option(
    "--speed", metavar="SPEED", help="Writing speed, e.g. 2500, 10K, 1M (overrides dial.speed).")]
Check = Annotated[Optional[str], typer.Option(
    "--check", metavar="CHECK", help="Fixed check after writing, e.g. 0, 60s, 15min, 24h "
    "(overrides dial.fixed_check).")]
Workload = Annotated[Optional[str], typer.Option(
    "--workload", metavar="ID",
    help="Id of the workload the dial features (overrides dial.workload).")]


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


Out = Annotated[str, typer.Option(
    "--out", "-o", metavar="DIR", help="Folder for the deck, the handout and the page.")]
SweepOut = Annotated[str, typer.Option(
    "--out", "-o", metavar="DIR", help="Folder for the decks and the handouts.")]
Aspect = Annotated[Optional[str], typer.Option(
    "--aspect", metavar="16:9|4:3", help="The slides' shape (overrides meta.aspect).")]
Paper = Annotated[Optional[str], typer.Option(
    "--paper", metavar="a4|letter", help="The handout's paper size (overrides meta.paper).")]
Template = Annotated[Optional[str], typer.Option(
    "--template", metavar="FILE.pptx",
    help="A .pptx whose masters, layouts, colours and fonts the deck uses.")]
Walk = Annotated[bool, typer.Option("--walk", help="Add one 'turn the dial' slide per speed mark.")]
Only = Annotated[Optional[list[str]], typer.Option(
    "--only", metavar="KINDS", help="Build only these: deck, handout, html, slides or notes, "
    "several comma-separated or repeated (--only deck,handout; default: all).")]
SweepOnly = Annotated[Optional[list[str]], typer.Option(
    "--only", metavar="KINDS", help="Build only these for each speed: deck, handout, html, "
    "slides or notes, several comma-separated or repeated (default: all).")]
Name = Annotated[Optional[str], typer.Option(
    "--name", metavar="NAME", help="Name this build's files NAME.pptx, NAME.pdf, NAME.html "
    "(default: meta.slug, then the speed and the check).")]
Strict = Annotated[bool, typer.Option(
    "--strict", help="Fail (exit 2) when there are warnings, as a CI check.")]
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
    commands.table(_path(content), speed, check, workload, as_json)


@app.command("check", short_help="Validate a content file; exit 0 when clean, 2 when not.",
             help=commands.validate_content.__doc__)
def validate_content(
    content: Content = None,
    list_figures: Annotated[bool, typer.Option(
        "--figures", help="Also list every {figure} the prose may name, with its text.")] = False,
    strict: Strict = False,
) -> None:
    commands.validate_content(_path(content), list_figures, strict)


@app.command(short_help="Build the deck (.pptx), the handout (.pdf) and the page (.html).",
             help=commands.build.__doc__)
def build(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Out = "output", aspect: Aspect = None, paper: Paper = None,
    template: Template = None, walk: Walk = False, only: Only = None, pages: Pages = "2",
    charts: Charts = "native",
    watch: Annotated[bool, typer.Option(
        "--watch", help="Build again whenever the content file or the template changes "
        "(Ctrl-C to stop).")] = False,
    name: Name = None, strict: Strict = False,
) -> None:
    commands.build(_path(content), speed, check, workload, Path(out), aspect, paper,
                   _path(template), walk, only, pages, charts, watch, name, strict)


@app.command(short_help="Build, serve and rebuild on every change; the browser reloads.",
             help=commands.preview.__doc__)
def preview(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Out = "output", aspect: Aspect = None, paper: Paper = None,
    template: Template = None, walk: Walk = False, pages: Pages = "2",
    charts: Charts = "native", name: Name = None,
    port: Annotated[str, typer.Option(
        "--port", metavar="PORT",
        help="The port to serve on (default: a free one, printed).")] = "0",
) -> None:
    commands.preview(_path(content), speed, check, workload, Path(out), aspect, paper,
                     _path(template), walk, pages, charts, name, _number("--port", port))


@app.command(short_help="Build a deck and a handout per speed (and per check).",
             help=commands.sweep.__doc__)
def sweep(
    content: Content = None,
    speeds: Annotated[Optional[str], typer.Option(
        "--speeds", metavar="LIST", help="Comma-separated speeds, e.g. 100,1K,10K,100K,1M "
        "(default: the content's speed marks).")] = None,
    checks: Annotated[Optional[str], typer.Option(
        "--checks", metavar="LIST", help="Comma-separated fixed checks, e.g. 0,60s,15min "
        "(default: the content's fixed check).")] = None,
    workload: Workload = None, out: SweepOut = "output",
    jobs: Annotated[Optional[str], typer.Option(
        "--jobs", metavar="N", help="Builds drawn at once (default: the number of cores).")] = None,
    aspect: Aspect = None, paper: Paper = None, template: Template = None, walk: Walk = False,
    only: SweepOnly = None, pages: Pages = "2",
) -> None:
    commands.sweep(_path(content), speeds, checks, workload, Path(out),
                   None if jobs is None else _number("--jobs", jobs), aspect, paper,
                   _path(template), walk, only, pages)


@app.command(short_help="Remove the files deckgen wrote into the output folder.",
             help=commands.clean.__doc__)
def clean(
    out: Annotated[str, typer.Option(
        "--out", "-o", metavar="DIR", help="The output folder.")] = "output",
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Only list what would be removed.")] = False,
) -> None:
    commands.clean(Path(out), dry_run)


@app.command(help=commands.init.__doc__)
def init(
    path: Annotated[Optional[str], typer.Argument(
        help="Where to write it (default: ./content.yaml; a folder, or a name ending in '/', "
        "gets content.yaml inside).", show_default=False, metavar="PATH")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite an existing regular file.")] = False,
) -> None:
    commands.init(path, force)


@app.command(help=commands.layouts.__doc__)
def layouts(template: Annotated[str, typer.Argument(help="A .pptx file.",
                                                    metavar="TEMPLATE")]) -> None:
    commands.layouts(Path(template))


def _number(option: str, text: str) -> int:
    """A whole number given as text; otherwise one line, as typer would say it."""
    if text.strip().isascii() and text.strip().lstrip("-").isdigit() and len(text) < 10:
        return int(text)
    raise typer.BadParameter(f"{text!r} is not a valid integer.", param_hint=f"'{option}'")


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
