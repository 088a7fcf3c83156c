"""What each command does, with plain arguments. typer (deckgen.app, which describes every
option and its help) reads the command line and calls these functions; they import the heavy
parts they need only when they run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
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


def _which(content: Path | None) -> Path:
    """The content file to use; when none was named, which one was found, said in one line on
    stderr (the bundled explainer says so)."""
    if content is not None:
        return content
    from deckgen import source

    found, how = source.find()
    if how == "bundled":
        print(f"content: the bundled explainer ({found}); no content.yaml in this folder or "
              "above it; 'deckgen init' writes one to edit", file=sys.stderr)
    elif how == "above":
        print(f"content: {found} (found above this folder)", file=sys.stderr)
    else:
        print(f"content: {found}", file=sys.stderr)
    return found


def _content_warnings(content: Path) -> list[Problem]:
    """The content's warnings, as `check` gives them: the validator's (a typed number) and the
    reminders (starter text left in). Raises the content's problems."""
    from deckgen import source
    from deckgen.content.validation import reminders

    parsed, warnings = source.read(content)
    return warnings + reminders(parsed)


def _refuse_warnings(content: Path, strict: bool) -> list[Problem]:
    """The content's warnings, to print after a build (as `check` prints them before its
    verdict); with --strict, printed and refused at once, before anything is drawn."""
    ahead = _content_warnings(content)
    if strict and ahead:
        _warn(ahead)
        _strict(ahead, strict)
    return ahead


def _strict(warnings: list[Problem], strict: bool) -> None:
    """With --strict, warnings fail the command (exit 2), after they were printed."""
    if strict and warnings:
        from deckgen.errors import InputError

        count = len(warnings)
        raise InputError(Problem(f"{count} warning{'' if count == 1 else 's'}, and --strict "
                                 "makes a warning fail", path="--strict"))


def only_kinds(values: list[str] | None) -> tuple[str, ...] | None:
    """--only's values (repeated, or comma-separated: --only deck,handout) as kinds; every
    unknown or empty one is a problem naming the allowed values (build.KINDS)."""
    if not values:
        return None
    from deckgen.build import KINDS
    from deckgen.errors import InputError

    kinds: list[str] = []
    problems = []
    for value in values:
        for item in value.split(","):
            kind = item.strip()
            if kind not in KINDS:
                problems.append(Problem(
                    f"must be one or more of {', '.join(KINDS)} (several: --only "
                    f"{KINDS[0]},{KINDS[1]}), got {kind!r}", path="--only"))
            elif kind not in kinds:
                kinds.append(kind)
    if problems:
        raise InputError(problems[:1])
    return tuple(kinds)


def _options(**given: object) -> object:
    """build.Options from the command line, every unknown choice reported at once."""
    from deckgen.build import Options
    from deckgen.content import SLUG_RULE, valid_slug
    from deckgen.errors import InputError

    problems = []
    for name, allowed in (("aspect", ("16:9", "4:3")), ("paper", ("a4", "letter")),
                          ("only", None), ("pages", ("2", "auto")),
                          ("charts", ("native", "picture"))):
        value = given.get(name)
        if allowed is None:  # --only: several kinds
            try:
                given["only"] = only_kinds(value)  # type: ignore[arg-type]
            except InputError as err:
                problems.extend(err.problems)
        elif value is not None and value not in allowed:
            problems.append(Problem(f"must be one of {', '.join(allowed)}, got {value!r}",
                                    path=f"--{name}"))
    named = given.get("name")
    if named is not None and not valid_slug(str(named)):
        problems.append(Problem(f"{SLUG_RULE}, got {named!r}", path="--name"))
    if problems:
        raise InputError(problems)
    pages = given.pop("pages")
    return Options(**given, pages_auto=pages == "auto")  # type: ignore[arg-type]


def table(content: Path | None = None, speed: str | None = None, check: str | None = None,
          workload: str | None = None, as_json: bool = False) -> None:
    """Print the workload table, the preset-check table and the chosen dial's summary."""
    from deckgen import report, source
    from deckgen.content.validation import reminders
    from deckgen.figures import with_overrides

    _bounded(speed, check)
    content = _which(content)
    parsed, warnings = source.read(content)
    parsed = with_overrides(parsed, speed, check, workload)
    _warn(warnings + reminders(parsed))
    from deckgen import stdout

    try:
        if as_json:
            stdout.product(json.dumps(report.as_json(parsed), ensure_ascii=False, indent=2)
                           + "\n")
        else:
            stdout.product(report.as_text(parsed))
    except stdout.ReaderGone:
        return  # `table | head -1`: the reader has what it wanted


def validate_content(content: Path | None = None, list_figures: bool = False,
                     strict: bool = False) -> None:
    """Validate a content file: every problem on its own line; exit 0 when clean, 2 when not
    (with --strict, 2 when it has warnings too)."""
    from deckgen import source
    from deckgen.content.validation import reminders
    from deckgen.figures import figures

    content = _which(content)
    parsed, warnings = source.read(content)
    warnings = warnings + reminders(parsed)
    _warn(warnings)
    if list_figures:
        for name, figure in figures(parsed).items():
            print(f"{{{name}}}  {figure.text}")
    count = len(warnings)
    print(f"{parsed.file}: ok ({len(parsed.workloads)} workloads, "
          f"{count} warning{'' if count == 1 else 's'})")
    _strict(warnings, strict)


def rebuilder(content: Path, options: object, strict: bool = False
              ) -> Callable[[], list[Path]]:
    """One build after another of `content` in this process (a watch's, a preview's), each
    printing its warnings; the charts drawn are kept from one build to the next."""
    import gc

    from deckgen import pipeline
    from deckgen.chart_pictures import ChartPictures

    pictures = ChartPictures(options.out)  # type: ignore[attr-defined]  # kept between builds
    warm = [False]  # a build has run in this process alone

    def once() -> list[Path]:
        # Until one build succeeds, builds run in this process alone, which leaves it warm
        # (renderers loaded, fonts registered and measured); later ones fork from it.
        ahead = _refuse_warnings(content, strict)
        written, warnings = pipeline.build(content, options,  # type: ignore[arg-type]
                                           pictures, parallel=warm[0])
        warm[0] = True
        # A deck's python-pptx parts hold each other (and their XML) in cycles, which the
        # collector would reach only after many more builds: let them go now.
        gc.collect()
        _warn(ahead + [w for w in warnings if w not in ahead])
        return written

    return once


def build(content: Path | None = None, speed: str | None = None, check: str | None = None,
          workload: str | None = None, out: Path = Path("output"), aspect: str | None = None,
          paper: str | None = None, template: Path | None = None, walk: bool = False,
          only: list[str] | None = None, pages: str = "2", charts: str = "native",
          watch: bool = False, name: str | None = None, strict: bool = False) -> None:
    """Build the deck (.pptx), the handout (.pdf) and the live page (.html) into the output
    folder."""
    from deckgen import pipeline

    _bounded(speed, check)
    options = _options(out=out, speed=speed, check=check, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages,
                       charts=charts, name=name)
    content = _which(content)
    if watch:
        import deckgen.watch

        watched = [content] + ([template] if template else [])
        deckgen.watch.watch(watched, rebuilder(content, options, strict))
        return
    ahead = _refuse_warnings(content, strict)
    written, warnings = pipeline.build(content, options)  # type: ignore[arg-type]
    heard = [w for w in warnings if w not in ahead]  # the renderers'
    _warn(ahead + heard)
    from deckgen import stdout

    for path in written:
        stdout.listing(path)  # a closed or full stdout is not the build's failure
    _strict(heard, strict)


def sweep(content: Path | None = None, speeds: str | None = None, checks: str | None = None,
          workload: str | None = None, out: Path = Path("output"), jobs: int | None = None,
          aspect: str | None = None, paper: str | None = None, template: Path | None = None,
          walk: bool = False, only: list[str] | None = None, pages: str = "2") -> None:
    """Build one deck and one handout per speed (and per check), named by their values."""
    import deckgen.sweep
    from deckgen.build import KINDS
    from deckgen.errors import InputError

    if jobs is not None and jobs < 1:
        raise InputError(Problem(f"must be at least 1, got {jobs}", path="--jobs"))
    options = _options(out=out, speed=None, check=None, workload=workload, only=only,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages)
    content = _which(content)
    plan, warnings = deckgen.sweep.plan(content, options, speeds, checks)  # type: ignore[arg-type]
    _warn(warnings)
    workers = jobs or deckgen.sweep.default_workers()
    heard: list[Problem] = []  # the renderers' warnings, once each, after the progress
    try:
        if not sys.stdout.isatty():
            from deckgen import stdout

            deckgen.sweep.run(plan, workers, stdout.listing, heard)
            return
        from rich.progress import Progress

        files = len(plan) * len(options.only or KINDS)  # type: ignore[attr-defined]
        with Progress(transient=False) as progress:
            task = progress.add_task("sweep", total=files)

            def finished(path: Path) -> None:
                progress.console.print(str(path), highlight=False)
                progress.advance(task)

            deckgen.sweep.run(plan, workers, finished, heard)
    finally:
        _warn(heard)


def init(path: str | None = None, force: bool = False, language: str = "en") -> None:
    """Write a starter content file (the bundled explainer) to edit."""
    from deckgen import starter

    written = starter.write(starter.target(path), force, language)
    print(f"wrote {written}; edit it, then run: deckgen build {written}")


def clean(out: Path = Path("output"), dry_run: bool = False) -> None:
    """Remove the files deckgen wrote into the output folder (only those, as its manifest
    lists them; a file changed since is kept)."""
    from deckgen import manifest

    done = manifest.clean(out, dry_run)
    verb = "would remove" if dry_run else "removed"
    for path in done.removed:
        print(f"{verb} {path}")
    for path, why in done.kept:
        print(f"kept {path}: {why}", file=sys.stderr)
    if not done.removed:
        print(f"nothing of deckgen's to remove in {out}")


def preview(content: Path | None = None, speed: str | None = None, check: str | None = None,
            workload: str | None = None, out: Path = Path("output"), aspect: str | None = None,
            paper: str | None = None, template: Path | None = None, walk: bool = False,
            pages: str = "2", charts: str = "native", name: str | None = None,
            port: int = 0) -> None:
    """Build, serve the output folder on this machine (127.0.0.1) with a page that shows the
    live page and links every file, and build again on every change of the content or the
    template; the browser reloads itself. Ctrl-C stops it."""
    from deckgen import preview as server
    from deckgen.errors import InputError

    _bounded(speed, check)
    if not 0 <= port <= 65535:
        raise InputError(Problem(f"must be a port number from 1 to 65535 (0: a free one), "
                                 f"got {port}", path="--port"))
    options = _options(out=out, speed=speed, check=check, workload=workload, only=None,
                       aspect=aspect, paper=paper, template=template, walk=walk, pages=pages,
                       charts=charts, name=name)
    content = _which(content)
    server.run(content, options, template, port, rebuilder(content, options))


def layouts(template: Path) -> None:
    """List a template's slide layouts and their placeholders."""
    from deckgen import template as templates
    from deckgen.errors import InputError
    from deckgen.plan.layouts import describe

    try:  # a zip bomb is refused first, each problem named by the file
        found = templates.read(template)
    except InputError as err:
        raise InputError([replace(p, file=str(template), path=None)
                          for p in err.problems]) from None
    sys.stdout.write(describe(found, str(template)))
