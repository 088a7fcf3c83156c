"""One deck, handout and page per speed (and per check), built side by side over several processes.

The whole list is checked before anything is built: one bad value and nothing is written.
Worker processes then draw the decks, and the handouts with their pages (`build.render`,
the same code as a single build, so the bytes do not depend on which process made them);
this process writes each combination's files together once all are drawn, so they are
replaced together or not at all. Only a few pieces are under way at once, and each is
written and let go as soon as its partners are drawn, so a sweep's memory does not grow
with its length.
"""

from __future__ import annotations

import importlib
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import deckgen.story
from deckgen import build, buildcache, environment, fmt, forking, output, quantities, source
from deckgen.content import Content
from deckgen.errors import DeckgenError, InputError, Problem, RenderError

# Loaded once by the process that forks the workers, so no worker imports them again.
_HEAVY = [
    "deckgen.build",
    "deckgen.buildcache",
    "deckgen.render.deck.write",
    "deckgen.render.handout.write",
    "deckgen.page.render",
]


@dataclass(frozen=True)
class Job:
    """One combination: prepared content, its build options and the file name both share."""

    content: Content
    options: build.Options
    name: str
    epoch: int | None = None  # SOURCE_DATE_EPOCH's seconds: the date the files carry
    keep: bool = True  # whether its slides and charts are kept in the output folder's cache


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


def plan(
    content_path: Path | None, options: build.Options, speeds: str | None, checks: str | None
) -> tuple[list[Job], list[Problem]]:
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
    # Any positive speed: one below the slow speed is a slowdown ('0.5×'), as in a build.
    if options.template is not None:
        try:
            build._read_template(options.template)
        except InputError as err:
            problems += err.problems
    if problems:
        raise InputError(problems)
    jobs: list[Job] = []
    for speed, _ in speed_values:
        for check in check_values:
            dial = replace(
                base.dial,
                speed=speed,
                fixed_check=base.dial.fixed_check if check is None else check[0],
            )
            one = replace(options, speed=None, check=None)
            content = build.apply(replace(base, dial=dial), one)
            # A check given on the command line is part of the name, as with `build --check`.
            one = replace(one, check=None if check is None else check[1])
            jobs.append(Job(content, one, build.stem(content, check is not None), epoch,
                            keep=len(jobs) < KEPT_COMBINATIONS))
    return jobs, warnings


def run(
    jobs: list[Job],
    workers: int,
    finished: Callable[[Path], None],
    warnings: list[Problem] | None = None,
    context: multiprocessing.context.BaseContext | None = None,
) -> list[Path]:
    """Build every job, `workers` processes at a time; `finished` hears of each file as it lands.

    The deck is one piece and the handout with the page another, so the processes stay
    evenly busy; this process writes each combination's files together once all are drawn. A
    failing combination does not stop the others: its problems are raised together at the
    end, and its earlier files are left as they were. The renderers' warnings are added to
    `warnings` once each. At most two pieces per process are under way at a time, a deck
    beside its handout, so finished bytes never pile up.
    """
    environment.validate()
    for folder in dict.fromkeys(job.options.out for job in jobs):
        output.guard(folder)
    pieces = [(number, piece) for number, job in enumerate(jobs) for piece in _pieces(job.options)]
    landing = _Landing(jobs, finished, warnings if warnings is not None else [])
    if workers <= 1 or len(pieces) <= 1:
        memory = buildcache.Memory()  # what one piece drew or measured, for the next
        try:
            for number, piece in pieces:
                landing.add(number, piece, _draw(jobs[number], piece, memory))
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
    processes = min(workers, len(pieces))
    waiting = deque(pieces)
    with ProcessPoolExecutor(processes, mp_context=context, initializer=_start) as pool:
        under_way: dict[Future[Drawn], tuple[int, tuple[str, ...]]] = {}
        try:
            while waiting or under_way:
                while waiting and len(under_way) < 2 * processes:
                    number, piece = waiting.popleft()
                    under_way[pool.submit(_draw, jobs[number], piece)] = (number, piece)
                done, _ = wait(under_way, return_when=FIRST_COMPLETED)
                for future in done:
                    number, piece = under_way[future]
                    drawn = future.result()  # under way until it is drawn: a death names it
                    del under_way[future]
                    landing.add(number, piece, drawn)
                    del drawn
                del done, future  # the bytes go with the last reference
        except BrokenProcessPool:
            # A worker was killed (the out-of-memory killer, say); the pool stops the others.
            names = list(dict.fromkeys(jobs[n].name for n, _ in under_way.values()))
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
class Drawn:
    """One piece: its files' bytes by kind, the charts drawn for them and the renderers'
    warnings; or the problems' lines and the exit code."""

    files: dict[str, bytes] = field(default_factory=dict)
    charts: dict[str, bytes] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    code: int = 0


def _pieces(options: build.Options) -> list[tuple[str, ...]]:
    """What one process draws at a time: the deck alone, the handout with the page (one
    story for both, and the page is quick), or the one kind asked for."""
    if options.only is not None:
        return [(kind,) for kind in options.only]
    return [("deck",), ("handout", "html")]


class _Landing:
    """Collects the drawn pieces; writes a combination's files, all or none, once it is complete."""

    def __init__(
        self, jobs: list[Job], finished: Callable[[Path], None], warnings: list[Problem]
    ) -> None:
        self.jobs = jobs
        self.finished = finished
        self.warnings = warnings
        self.waiting: dict[int, dict[tuple[str, ...], Drawn]] = {}
        self.written: list[Path] = []
        self.problems: list[str] = []
        self.code = 0
        self.combinations = 0  # written, all of each one's files

    def count(self, extra: int = 0) -> str:
        """How many combinations were written, of how many ('1 of 60 combinations')."""
        done = self.combinations + extra
        return f"{fmt.count(done)} of {fmt.count(len(self.jobs))} combinations"

    def interrupted(self, err: KeyboardInterrupt) -> output.Interrupted:
        """Ctrl-C, counted: a swap it arrived in was finished first (one more written)."""
        swapped = isinstance(err, output.Interrupted)
        written = self.written + (err.written if isinstance(err, output.Interrupted) else [])
        return output.Interrupted(
            written, f"{self.count(1 if swapped else 0)} were written before it stopped (each "
                     "whole); the others were left as they were")

    def add(self, number: int, piece: tuple[str, ...], drawn: Drawn) -> None:
        job = self.jobs[number]
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
        charts = {name: entry for p in pieces.values() for name, entry in p.charts.items()}
        buildcache.keep(job.options.out, charts)  # only now that its files are written
        self.combinations += 1
        for path in paths:
            self.written.append(path)
            self.finished(path)

    def _fail(self, lines: list[str], code: int) -> None:
        self.problems = list(dict.fromkeys(self.problems + lines))
        self.code = max(self.code, code)

    def end(self) -> list[Path]:
        if self.problems:
            error = RenderError if self.code == 1 else InputError
            raise error([Problem(line) for line in self.problems])
        return self.written


SUFFIX = {"deck": ".pptx", "handout": ".pdf", "html": ".html"}
# The combinations whose slides and charts a sweep keeps in the output folder's cache: its
# first ones, which hold the slides every speed shares. About twenty entries each: half the
# cache, so a build's own keep their room, and a long sweep does not write entries for the
# cache only to prune them.
KEPT_COMBINATIONS = 12


class _Worker:
    """A worker process's own: the memory its pieces hand on, one to the next (the slides,
    charts and lines drawn or measured so far in this process)."""

    memory: buildcache.Memory | None = None


def _start() -> None:
    """In a new worker: Ctrl-C is for the parent, which lets running pieces finish; the
    parent's SIGTERM handler is not the worker's (the pool stops its workers with SIGTERM
    when one of them is killed: the handler would turn that into an exception the worker
    survives, and the pool would wait for it forever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _Worker.memory = buildcache.Memory()


def _draw(job: Job, piece: tuple[str, ...], memory: buildcache.Memory | None = None) -> Drawn:
    """One piece of one combination (its kinds of file, from one story), in whichever
    process; nothing is written here. The pieces of one process share `memory` (a worker's
    own by default). The input's problems in any of the piece's files are reported together."""
    heard: list[Problem] = []
    try:
        with buildcache.use(job.options.out, save=False, memory=memory or _Worker.memory,
                            store=job.keep) as cache:
            story = deckgen.story.compose(job.content)
            files: dict[str, bytes] = {}
            problems: list[Problem] = []
            for kind in piece:
                options = replace(job.options, only=(kind,))
                before = len(heard)
                try:
                    try:
                        drawn = build.render(job.content, options, warnings=heard, cache=cache,
                                             epoch=job.epoch, story=story)
                    except InputError:
                        raise
                    except Exception:  # perhaps a damaged cache entry: once more, drawing all
                        if not buildcache.has_entries(job.options.out):
                            raise
                        cache.distrust()
                        del heard[before:]
                        drawn = build.render(job.content, options, warnings=heard, cache=cache,
                                             epoch=job.epoch, story=story)
                except InputError as err:
                    problems += err.problems
                    continue
                files[kind] = drawn[SUFFIX[kind]]
                del drawn
            if problems:
                raise InputError(problems)
            charts = cache.drawn()
        if "deck" in piece:
            cache.memory.tidy()
        return Drawn(files, charts, heard)
    except DeckgenError as err:
        return Drawn(problems=err.lines(), code=err.exit_code)
    except Exception as err:  # a bug must not take the other combinations down
        kinds = " and the ".join(piece)
        why = f"{job.name}: cannot draw the {kinds}: {type(err).__name__}: {err}"
        return Drawn(problems=[why], code=1)
