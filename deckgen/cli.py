"""The command line. Each command imports the heavy parts it needs only when it runs."""

from __future__ import annotations

import json
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
    "--check", help="Fixed check after writing, e.g. 0, 60s, '15 min', '24 h' (overrides dial.fixed_check).")]
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
    debug: Annotated[bool, typer.Option("--debug", help="Show the traceback of a failure.")] = False,
) -> None:
    """Build a meetup deck and a printable handout from one YAML file."""
    global _debug
    _debug = debug


@app.command()
def table(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every figure as exact value and text.")] = False,
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


@app.command()
def check(
    content: Content = None,
    list_figures: Annotated[bool, typer.Option("--figures", help="List every figure prose may name.")] = False,
) -> None:
    """Validate a content file: every problem on its own line; exit 0 when clean, 2 when not."""
    from deckgen import source
    from deckgen.figures import figures

    parsed, warnings = source.read(content)
    _warn(warnings)
    if list_figures:
        for name, figure in figures(parsed).items():
            print(f"{{{name}}}  {figure.text}")
    print(f"{parsed.file}: ok ({len(parsed.workloads)} workloads, {len(warnings)} warnings)")


@app.command()
def build(
    content: Content = None, speed: Speed = None, check: Check = None, workload: Workload = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for the deck and the handout.")] = Path("output"),
    aspect: Annotated[Optional[str], typer.Option("--aspect", help="16:9 or 4:3 (overrides meta.aspect).")] = None,
    paper: Annotated[Optional[str], typer.Option("--paper", help="a4 or letter (overrides meta.paper).")] = None,
    template: Annotated[Optional[Path], typer.Option("--template", help="A .pptx whose masters, layouts, colours and fonts the deck uses.")] = None,
    walk: Annotated[bool, typer.Option("--walk", help="Add one 'turn the dial' slide per speed mark.")] = False,
    only: Annotated[Optional[str], typer.Option("--only", help="Build only the deck or only the handout.")] = None,
    pages: Annotated[str, typer.Option("--pages", help="'2' (one sheet, the default) or 'auto' (as many as needed).")] = "2",
) -> None:
    """Build the deck (.pptx) and the handout (.pdf) into the output folder."""
    from deckgen import build as pipeline
    from deckgen.errors import InputError

    problems = []
    for name, value, allowed in (("--aspect", aspect, ("16:9", "4:3")), ("--paper", paper, ("a4", "letter")),
                                 ("--only", only, ("deck", "handout")), ("--pages", pages, ("2", "auto"))):
        if value is not None and value not in allowed:
            problems.append(Problem(f"must be one of {', '.join(allowed)}, got {value!r}", path=name))
    if problems:
        raise InputError(problems)
    options = pipeline.Options(out=out, speed=speed, check=check, workload=workload, only=only,
                               aspect=aspect, paper=paper, template=template, walk=walk,
                               pages_auto=pages == "auto")
    written, warnings = pipeline.build(content, options)
    _warn(warnings)
    for path in written:
        print(path)


@app.command()
def layouts(template: Annotated[Path, typer.Argument(help="A .pptx file.")]) -> None:
    """List a template's slide layouts and their placeholders."""
    from deckgen import deck

    sys.stdout.write(deck.describe_layouts(template))


def main() -> None:
    """Run the app; an expected failure prints one line per problem and exits with its code."""
    try:
        app()
    except DeckgenError as err:
        if _debug:
            traceback.print_exc()
        for line in err.lines():
            print(line, file=sys.stderr)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        print("interrupted; earlier files were left as they were", file=sys.stderr)
        sys.exit(130)
