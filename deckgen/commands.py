"""What each command does, with plain arguments. The command line reads the arguments, with
typer (deckgen.app, which describes every option and its help) or, for plainly written ones,
with the quick reader in deckgen.cli; either way these functions run. No typer here: `table`,
`check` and a plain `build` never import it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

from deckgen.errors import Problem


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


def _options(**given: object) -> object:
    """build.Options from the command line, every unknown choice reported at once."""
    from deckgen.build import Options
    from deckgen.errors import InputError

    problems = []
    for name, allowed in (("aspect", ("16:9", "4:3")), ("paper", ("a4", "letter")),
                          ("only", ("deck", "handout", "html", "slides", "notes")),
                          ("pages", ("2", "auto")),
                          ("charts", ("native", "picture"))):
        value = given.get(name)
        if value is not None and value not in allowed:
            problems.append(Problem(f"must be one of {', '.join(allowed)}, got {value!r}",
                                    path=f"--{name}"))
    if problems:
        raise InputError(problems)
    pages = given.pop("pages")
    return Options(**given, pages_auto=pages == "auto")  # type: ignore[arg-type]


def table(content: Path | None = None, speed: str | None = None, check: str | None = None,
          workload: str | None = None, as_json: bool = False) -> None:
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


def validate_content(content: Path | None = None, list_figures: bool = False) -> None:
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


def build(content: Path | None = None, speed: str | None = None, check: str | None = None,
          workload: str | None = None, out: Path = Path("output"), aspect: str | None = None,
          paper: str | None = None, template: Path | None = None, walk: bool = False,
          only: str | None = None, pages: str = "2", charts: str = "native",
          watch: bool = False) -> None:
    """Build the deck (.pptx), the handout (.pdf) and the live page (.html) into the output
    folder."""
    from deckgen import pipeline

    _bounded(speed, check)
    options = _options(out=out, speed=speed, check=check, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages,
                       charts=charts)
    if watch:
        import deckgen.watch
        from deckgen import buildcache, source

        started = content or source.default_path()  # followed even when it goes away
        memory = buildcache.Memory()  # the charts drawn, from one build to the next
        warm = [False]  # a build has run in this process alone

        def once() -> list[Path]:
            # Until one build succeeds, builds run in this process alone, which leaves it warm
            # (renderers loaded, fonts registered and measured); later ones fork from it.
            written, warnings = pipeline.build(started, options, memory,  # type: ignore[arg-type]
                                               parallel=warm[0])
            warm[0] = True
            memory.tidy()
            _warn(warnings)
            return written

        watched = [started] + ([template] if template else [])
        deckgen.watch.watch(watched, once)
        return
    written, warnings = pipeline.build(content, options)  # type: ignore[arg-type]
    _warn(warnings)
    for path in written:
        print(path)


def sweep(content: Path | None = None, speeds: str | None = None, checks: str | None = None,
          workload: str | None = None, out: Path = Path("output"), jobs: int | None = None,
          aspect: str | None = None, paper: str | None = None, template: Path | None = None,
          walk: bool = False, only: str | None = None, pages: str = "2") -> None:
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


def init(path: Path | None = None, force: bool = False) -> None:
    """Write a starter content file (the bundled explainer) to edit."""
    from deckgen import starter

    written = starter.write(path, force)
    print(f"wrote {written}; edit it, then run: deckgen build {written}")


def layouts(template: Path) -> None:
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
