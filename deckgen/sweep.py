"""One deck, handout and page per speed (and per check), built side by side over several processes.

The whole list is checked before anything is built: one bad value and nothing is written.
Worker processes then draw the decks with their presenter kits, and the handouts with their
pages (`pipeline.render`,
the same code as a single build, so the bytes do not depend on which process made them);
this process writes each combination's files together once all are drawn, so they are
replaced together or not at all. Only a few pieces are under way at once, and each is
written and let go as soon as its partners are drawn, so a sweep's memory does not grow
with its length; nor does the plan's, whose combinations are made one at a time as the
sweep reaches them.
"""

from __future__ import annotations

import gc
import importlib
import itertools
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import deckgen.story
from deckgen import (
    build,
    environment,
    fmt,
    forking,
    output,
    pipeline,
    quantities,
    source,
)
from deckgen import template as templates
from deckgen.content import Content
from deckgen.errors import DeckgenError, InputError, Problem, RenderError
from deckgen.template.model import Template

# Loaded once by the process that forks the workers, so no worker imports them again.
_HEAVY = [
    "deckgen.pipeline",
    "deckgen.plan",
    "deckgen.paint.pptx.slides",
    "deckgen.paint.handout.write",
    "deckgen.paint.page.render",
]


# One combination: its content with the dial in place, its options, the file name its files
# share, the template and the date the files carry; as a single build has them.
Job = pipeline.Settled


def parse_list(
    text: str, option: str, parse: Callable[[str], Fraction]
) -> tuple[list[tuple[Fraction, str]], list[Problem]]:
    """Comma-separated values, each parsed exactly, with its text; every bad item is one problem."""
    values: list[tuple[Fraction, str]] = []
    problems: list[Problem] = []
    items = [item.strip() for item in text.split(",")]
    seen: dict[Fraction, str] = {}
    for number, item in enumerate(items, 1):
        where = f"item {number} of {len(items)}"
        if not item:
            problems.append(
                Problem(f"{where} is empty; separate values with single commas", path=option)
            )
            continue
        try:
            value = parse(item)
        except ValueError as err:
            hint = (
                "; write big numbers as 1M or 1000000, since commas separate the list"
                if number > 1 and item.isdigit() and len(item) == 3
                else ""
            )
            problems.append(Problem(f"{where} {err}, got {_shown(item)}{hint}", path=option))
            continue
        if value in seen:
            problems.append(Problem(f"{where} ({_shown(item)}) repeats {_shown(seen[value])}",
                                    path=option))
            continue
        seen[value] = item
        values.append((value, item))
    return values, problems


def _shown(item: str) -> str:
    """An item as quoted in a message: a long one is cut (its start says enough)."""
    return repr(item if len(item) <= 40 else item[:37] + "...")


@dataclass(frozen=True)
class Plan:
    """Every combination of a sweep, checked: `len()` of them, each made as it is reached."""

    base: Content
    options: build.Options
    speeds: tuple[Fraction, ...]
    checks: tuple[tuple[Fraction, str] | None, ...]  # None: the content's own, not named
    template: Template | None
    epoch: int | None

    def __len__(self) -> int:
        return len(self.speeds) * len(self.checks)

    def __iter__(self) -> Iterator[Job]:
        for speed, check in itertools.product(self.speeds, self.checks):
            dial = replace(self.base.dial, speed=speed,
                           fixed_check=self.base.dial.fixed_check if check is None else check[0])
            one = replace(self.options, speed=None, check=None)
            content = build.apply(replace(self.base, dial=dial), one)
            # A check given on the command line is part of the name, as with `build --check`.
            one = replace(one, check=None if check is None else check[1])
            yield Job(content, one, build.stem(content, check is not None), self.template,
                      self.epoch)


def plan(
    content_path: Path | None, options: build.Options, speeds: str | None, checks: str | None
) -> tuple[Plan, list[Problem]]:
    """Every combination, checked and named, or an InputError listing every problem.

    Without `speeds`, the content's own speed marks; without `checks`, its fixed check
    (and names without a check).
    """
    epoch = environment.source_date_epoch()
    base, warnings = source.read(content_path)
    if speeds is None:
        speed_values = [
            (mark, fmt.speed_mark(mark)) for mark in dict.fromkeys(base.dial.speed_marks)
        ]
        problems: list[Problem] = []
    else:
        speed_values, problems = parse_list(speeds, "--speeds", quantities.parse_speed)
    check_values: list[tuple[Fraction, str] | None] = [None]
    if checks is not None:
        parsed, check_problems = parse_list(checks, "--checks", quantities.parse_duration)
        problems += check_problems
        check_values = list(parsed)
    # Any positive speed: one below the slow speed is a slowdown ('0.50×'), as in a build.
    template = None
    if options.template is not None and "deck" in pipeline.wanted(options):
        try:
            template = templates.read(options.template)
        except InputError as err:
            problems += err.problems
    if problems:
        raise InputError(problems)
    return Plan(base, options, tuple(speed for speed, _ in speed_values), tuple(check_values),
                template, epoch), warnings


def run(
    jobs: Iterable[Job],
    workers: int,
    finished: Callable[[Path], None],
    warnings: list[Problem] | None = None,
    context: multiprocessing.context.BaseContext | None = None,
) -> list[Path]:
    """Build every job, `workers` processes at a time; `finished` hears of each file as it lands.

    The deck with its slides PDF and notes book is one piece (the slides laid out once for
    the three) and the handout with the page another, so the processes stay busy; this
    process writes each combination's files together once all are drawn. A failing
    combination does not stop the others: its problems are raised together at the
    end, and its earlier files are left as they were. The renderers' warnings are added to
    `warnings` once each. At most two pieces per process are under way at a time, a deck
    beside its handout, so finished bytes never pile up; the jobs are taken from `jobs` as
    they are reached (a `Plan` makes each then; `jobs` is read twice, so not a generator).
    """
    environment.validate()
    for folder in dict.fromkeys(job.options.out for job in jobs):
        output.guard(folder)
    combinations = count = 0
    for job in jobs:
        combinations, count = combinations + 1, count + len(_pieces(job.options))
    pieces = ((number, job, piece) for number, job in enumerate(jobs)
              for piece in _pieces(job.options))
    landing = _Landing(combinations, finished, warnings if warnings is not None else [])
    if workers <= 1 or count <= 1:
        try:
            for number, job, piece in pieces:
                landing.add(number, job, piece, _draw(job, piece))
        except KeyboardInterrupt as err:
            raise landing.interrupted(err) from None
        return landing.end()
    methods = multiprocessing.get_all_start_methods()
    if context is None and "fork" in methods and threading.active_count() == 1:
        # The workers are forked from this process (before the pool starts any thread), with
        # the renderers imported here once: no fresh interpreter imports them again.
        for name in _HEAVY:
            importlib.import_module(name)
        context = multiprocessing.get_context("fork")
    elif context is None and "forkserver" in methods:
        # A thread runs here (a terminal's progress bar): forking could copy a lock it
        # holds, so the workers come from a fresh server process instead.
        context = multiprocessing.get_context("forkserver")
        multiprocessing.set_forkserver_preload(_HEAVY)
    elif context is None:  # pragma: no cover - Windows: each worker imports for itself
        context = multiprocessing.get_context("spawn")
    processes = min(workers, count)
    with ProcessPoolExecutor(processes, mp_context=context, initializer=_start) as pool:
        under_way: dict[Future[DrawnPiece], tuple[int, Job, tuple[str, ...]]] = {}
        try:
            for item in itertools.chain(pieces, [None]):
                if item is not None:
                    under_way[pool.submit(_draw, item[1], item[2])] = item
                while under_way and (item is None or len(under_way) >= 2 * processes):
                    done, _ = wait(under_way, return_when=FIRST_COMPLETED)
                    for future in done:
                        number, job, piece = under_way[future]
                        drawn = future.result()  # under way until it is drawn: a death names it
                        del under_way[future]
                        landing.add(number, job, piece, drawn)
                        del drawn
                    del done, future  # the bytes go with the last reference
        except BrokenProcessPool:
            # A worker was killed (the out-of-memory killer, say); the pool stops the others.
            names = list(dict.fromkeys(job.name for _, job, _ in under_way.values()))
            which = names[0] if len(names) == 1 else f"one of {', '.join(names)}"
            raise RenderError(
                f"a build process died (killed, or out of memory?) while drawing {which}; "
                f"{landing.count()} were written and are complete, the others were left as "
                "they were") from None
        except KeyboardInterrupt as err:
            # Pieces under way finish; none is written unless its partner is done too.
            pool.shutdown(wait=True, cancel_futures=True)
            raise landing.interrupted(err) from None
    return landing.end()


def default_workers() -> int:
    return forking.cores()


@dataclass
class DrawnPiece:
    """One piece: its files' bytes by kind and the renderers' warnings; or the problems'
    lines and the exit code."""

    files: dict[str, bytes] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    code: int = 0


def _pieces(options: build.Options) -> list[tuple[str, ...]]:
    """What one process draws at a time: the deck with the slides PDF and the notes book
    (the slides laid out once for the three), the handout with the page (the page is
    quick), or the one kind asked for."""
    if options.only is not None:
        return [(kind,) for kind in options.only]
    return [("deck", "slides", "notes"), ("handout", "html")]


class _Landing:
    """Collects the drawn pieces; writes a combination's files, all or none, once it is complete."""

    def __init__(self, total: int, finished: Callable[[Path], None],
                 warnings: list[Problem]) -> None:
        self.total = total  # combinations in the sweep
        self.combinations = 0  # written, all of each one's files
        self.finished = finished
        self.warnings = warnings
        self.waiting: dict[int, dict[tuple[str, ...], DrawnPiece]] = {}
        self.written: list[Path] = []
        self.problems: list[str] = []
        self.code = 0

    def add(self, number: int, job: Job, piece: tuple[str, ...], drawn: DrawnPiece) -> None:
        pieces = self.waiting.setdefault(number, {})
        pieces[piece] = drawn
        if len(pieces) < len(_pieces(job.options)):
            return
        del self.waiting[number]
        in_order = [pieces[p] for p in _pieces(job.options)]
        for one in in_order:
            self.warnings.extend(w for w in one.warnings if w not in self.warnings)
        failed = [line for one in in_order for line in one.problems]
        if failed:
            self._fail(failed, max(one.code for one in in_order))
            return
        drawn_files = {kind: data for one in in_order for kind, data in one.files.items()}
        files = {
            job.options.out / f"{job.name}{SUFFIX[kind]}": drawn_files[kind]
            for kind in build.KINDS
            if kind in drawn_files
        }
        try:
            paths = output.write_all(files, record=True)
        except DeckgenError as err:
            self._fail(err.lines(), err.exit_code)
            return
        for path in paths:
            self.written.append(path)
            self.finished(path)
        self.combinations += 1

    def count(self, extra: int = 0) -> str:
        """How many combinations were written, of how many ('1 of 60 combinations')."""
        return f"{fmt.count(self.combinations + extra)} of {fmt.count(self.total)} combinations"

    def interrupted(self, err: KeyboardInterrupt) -> output.Interrupted:
        """Ctrl-C, counted: a swap it arrived in was finished first (one more written)."""
        swapped = isinstance(err, output.Interrupted)
        written = self.written + (err.written if isinstance(err, output.Interrupted) else [])
        return output.Interrupted(
            written, f"{self.count(1 if swapped else 0)} were written before it stopped (each "
                     "whole); the others were left as they were")

    def _fail(self, lines: list[str], code: int) -> None:
        self.problems = list(dict.fromkeys(self.problems + lines))
        self.code = max(self.code, code)

    def end(self) -> list[Path]:
        if self.problems:
            error = RenderError if self.code == 1 else InputError
            raise error([Problem(line) for line in self.problems])
        return self.written


SUFFIX = pipeline.SUFFIX


def _start() -> None:
    """In a new worker: Ctrl-C is for the parent, which lets running pieces finish; the
    parent's SIGTERM handler is not the worker's (the pool stops its workers with SIGTERM
    when one of them is killed: the handler would turn that into an exception the worker
    survives, and the pool would wait for it forever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_FULL_AFTER = 3  # middle-generation passes since the last full one


def _draw(job: Job, piece: tuple[str, ...]) -> DrawnPiece:
    """One piece of one combination (its kinds of file, from one story), in whichever
    process; nothing is written here. The input's problems in any of the piece's files are
    reported together."""
    try:
        story = deckgen.story.compose(job.content)
        files, heard = pipeline.render(story, job, kinds=piece)
        if "deck" in piece and gc.get_count()[2] >= _FULL_AFTER:
            # A deck's python-pptx parts hold each other (and their XML) in cycles, which the
            # collector would reach only after many more pieces: let them go, once the
            # collector's middle generation has run a few times since its last full pass
            # (about every third deck; a full pass walks every object of the process, some
            # 40 ms, a tenth of a combination).
            gc.collect()
        return DrawnPiece(files, heard)
    except DeckgenError as err:
        return DrawnPiece(problems=err.lines(), code=err.exit_code)
    except Exception as err:  # a bug must not take the other combinations down
        kinds = " and the ".join(piece)
        why = f"{job.name}: cannot draw the {kinds}: {type(err).__name__}: {err}"
        return DrawnPiece(problems=[why], code=1)
