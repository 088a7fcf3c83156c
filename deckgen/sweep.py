"""One deck and one handout per speed (and per check), built side by side over several processes.

The whole list is checked before anything is built: one bad value and nothing is written.
Each combination is then an ordinary build (`build.write`), so its two files are replaced
together or not at all, and its bytes do not depend on which process made them.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from deckgen import build, fmt, parallel, quantities, source
from deckgen.content import Content
from deckgen.errors import DeckgenError, InputError, Problem, RenderError

# Loaded once by the process that forks the workers, so no worker imports them again.
_HEAVY = ["deckgen.build", "deckgen.chartcache", "deckgen.charts", "deckgen.deck", "deckgen.handout"]


@dataclass(frozen=True)
class Job:
    """One combination: prepared content, its build options and the file name both share."""

    content: Content
    options: build.Options
    name: str


def parse_list(text: str, option: str,
               parse: Callable[[str], Fraction]) -> tuple[list[tuple[Fraction, str]], list[Problem]]:
    """Comma-separated values, each parsed exactly, with its text; every bad item is one problem."""
    values: list[tuple[Fraction, str]] = []
    problems: list[Problem] = []
    items = [item.strip() for item in text.split(",")]
    seen: dict[Fraction, str] = {}
    for number, item in enumerate(items, 1):
        where = f"item {number} of {len(items)}"
        if not item:
            problems.append(Problem(f"{where} is empty; separate values with single commas", path=option))
            continue
        try:
            value = parse(item)
        except ValueError as err:
            hint = ("; write big numbers as 1M or 1000000, since commas separate the list"
                    if number > 1 and item.isdigit() and len(item) == 3 else "")
            problems.append(Problem(f"{where} {err}, got {item!r}{hint}", path=option))
            continue
        if value in seen:
            problems.append(Problem(f"{where} ({item!r}) repeats {seen[value]!r}", path=option))
            continue
        seen[value] = item
        values.append((value, item))
    return values, problems


def plan(content_path: Path | None, options: build.Options, speeds: str | None,
         checks: str | None) -> tuple[list[Job], list[Problem]]:
    """Every combination, checked and named, or an InputError listing every problem.

    Without `speeds`, the content's own speed marks; without `checks`, its fixed check
    (and names without a check).
    """
    base, warnings = source.read(content_path)
    if speeds is None:
        speed_values = [(mark, fmt.speed_mark(mark)) for mark in dict.fromkeys(base.dial.speed_marks)]
        problems: list[Problem] = []
    else:
        speed_values, problems = parse_list(speeds, "--speeds", quantities.parse_speed)
    check_values: list[tuple[Fraction, str] | None] = [None]
    if checks is not None:
        parsed, check_problems = parse_list(checks, "--checks", quantities.parse_duration)
        problems += check_problems
        check_values = list(parsed)
    slow = base.dial.slow_speed
    for value, _ in speed_values:
        if value < slow:
            problems.append(Problem(f"{fmt.speed(value)} is below the slow speed ({fmt.speed(slow)}); "
                                    "every speed must be at least that", path="--speeds"))
    if options.template is not None:
        try:
            build._read_template(options.template)
        except InputError as err:
            problems += err.problems
    if problems:
        raise InputError(problems)
    jobs = []
    for speed, _ in speed_values:
        for check in check_values:
            dial = replace(base.dial, speed=speed,
                           fixed_check=base.dial.fixed_check if check is None else check[0])
            one = replace(options, speed=None, check=None)
            content = build.apply(replace(base, dial=dial), one)
            # A check given on the command line is part of the name, as with `build --check`.
            one = replace(one, check=None if check is None else check[1])
            jobs.append(Job(content, one, build.stem(content, check is not None)))
    return jobs, warnings


def run(jobs: list[Job], workers: int, finished: Callable[[Path], None]) -> list[Path]:
    """Build every job, `workers` at a time; `finished` hears of each file as it lands.

    A failing combination does not stop the others; its problems are raised together at
    the end (the failed ones leave their earlier files as they were).
    """
    results: Iterable[tuple[list[str], list[str], int]]
    if workers <= 1 or len(jobs) <= 1:
        results = (_work(job) for job in jobs)
        return _collect(results, finished)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_HEAVY)
    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=context, initializer=_quiet) as pool:
        futures = [pool.submit(_work, job) for job in jobs]
        try:
            return _collect((f.result() for f in as_completed(futures)), finished)
        except BrokenProcessPool:
            raise RenderError("a build process died (out of memory?); files already finished "
                              "are complete, the others were left as they were") from None
        except KeyboardInterrupt:
            # The builds under way finish (each replaces its files whole); the rest never start.
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def default_workers() -> int:
    return parallel.cores()


def _collect(results: Iterable[tuple[list[str], list[str], int]],
             finished: Callable[[Path], None]) -> list[Path]:
    written: list[Path] = []
    failed: list[str] = []
    code = 0
    for paths, problems, exit_code in results:
        for path in paths:
            written.append(Path(path))
            finished(Path(path))
        failed += problems
        code = max(code, exit_code if problems else 0)
    if failed:
        error = RenderError if code == 1 else InputError
        raise error([Problem(line) for line in failed])
    return written


def _quiet() -> None:
    """In a worker: Ctrl-C is for the parent, which lets running builds finish whole."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work(job: Job) -> tuple[list[str], list[str], int]:
    """One combination, in whichever process: the files written, or the problems' lines."""
    try:
        return [str(p) for p in build.write(job.content, job.options)], [], 0
    except DeckgenError as err:
        return [], err.lines(), err.exit_code
    except Exception as err:  # a bug must not take the other combinations down
        return [], [f"{job.name}: cannot build: {type(err).__name__}: {err}"], 1
