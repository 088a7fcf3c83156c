"""The build's steps after validation: file names, rendering every output, writing them.

The build itself reads top to bottom in `deckgen.pipeline`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import deckgen.story
from deckgen import buildcache, fmt, forking, output, quantities, source, template_file
from deckgen.content import Content
from deckgen.errors import InputError, Problem
from deckgen.figures import with_overrides

KINDS = ("deck", "handout", "html")  # what `--only` may name: the one list of them


@dataclass(frozen=True)
class Options:
    """What the command line asked for, beyond the content file."""

    out: Path = Path("output")
    speed: str | None = None
    check: str | None = None
    workload: str | None = None
    # The kinds to build, in KINDS's order (one name is taken as a tuple of it); None: all.
    only: tuple[str, ...] | None = None
    aspect: str | None = None
    paper: str | None = None
    template: Path | None = None
    walk: bool = False
    pages_auto: bool = False
    charts: str = "native"  # the deck's charts: "native" chart parts or "picture" PNGs
    name: str | None = None  # the files' name for this build, in place of the slug's

    def __post_init__(self) -> None:
        if self.only is not None:
            given = (self.only,) if isinstance(self.only, str) else tuple(self.only)
            ordered = tuple(k for k in KINDS if k in given)
            object.__setattr__(self, "only", ordered + tuple(dict.fromkeys(
                k for k in given if k not in KINDS)))

    def wants(self, kind: str) -> bool:
        """Whether this build makes `kind` (one of KINDS)."""
        return self.only is None or kind in self.only


MAX_STEM = 120  # characters of a file name before its tail becomes a digest


def stem(content: Content, with_check: bool, name: str | None = None) -> str:
    """The file name shared by deck, handout and page: the talk's slug (meta.slug, by default
    its title's) and the dial, 'million-tokens-1M', '...-1M-check-15min'; or `name` as given
    (`--name`, checked by `content.valid_slug`), which names one build's files whatever
    the dial.

    Names are exact, so different dials never share a file: a speed or check whose short
    form rounds ('1.23K' for 1,234) is written out in full ('1234', '60.04s'), from the
    dial's exact values. A name longer than MAX_STEM keeps its start and ends in a short
    digest of the exact values instead ('million-tokens-1000.00000...-3f2a9c1b0d4e').
    """
    if name is not None:
        return name
    name = f"{content.meta.slug}-{_speed_name(content.dial.speed)}"
    if with_check:
        name += "-check-" + _check_name(content.dial.fixed_check)
    values = [content.dial.speed] + ([content.dial.fixed_check] if with_check else [])
    if len(name) <= MAX_STEM and all(_finite(v) for v in values):
        return name
    exact = f"{content.dial.speed}|{content.dial.fixed_check if with_check else ''}"
    digest = hashlib.sha256(exact.encode("ascii")).hexdigest()[:12]
    return f"{name[:MAX_STEM - 13]}-{digest}"


def _finite(value: Fraction) -> bool:
    rest = value.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    return rest == 1


def _speed_name(speed: Fraction) -> str:
    mark = fmt.speed_mark(speed)
    return mark if quantities.parse_speed(mark) == speed else _decimal(speed)


def _check_name(seconds: Fraction) -> str:
    """'none', '60s', '0.5s', '15min', '2h46min40s': whole seconds from 100 on as hours,
    minutes and seconds (as the tables show them), any other value as exact seconds."""
    if seconds == 0:
        return "none"
    if seconds.denominator != 1 or seconds < 100:
        return _decimal(seconds) + "s"
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return "".join(f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "min"), (secs, "s"))
                   if n)


def _decimal(value: Fraction) -> str:
    """An exact decimal with no separators: '1234', '60.04' (parsed values always end)."""
    twos = fives = 0
    rest = value.denominator
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    places = max(twos, fives) if rest == 1 else 40  # no finite decimal: 40 places, then
    # `stem` gives the name a digest of the exact value
    digits = str(value.numerator * 10**places // value.denominator).rjust(places + 1, "0")
    return digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"


def prepare(content_path: Path | None, options: Options) -> tuple[Content, list[Problem]]:
    """Read, validate and apply the command line's overrides."""
    content, warnings = source.read(content_path)
    return apply(content, options), warnings


def apply(content: Content, options: Options) -> Content:
    """Valid content with the command line's dial, aspect and paper in place of the file's."""
    content = with_overrides(content, options.speed, options.check, options.workload)
    meta = content.meta
    if options.aspect:
        meta = replace(meta, aspect=options.aspect)
    if options.paper:
        meta = replace(meta, paper=options.paper)
    return replace(content, meta=meta)


def render(content: Content, options: Options, parallel: bool = False,
           warnings: list[Problem] | None = None, cache: buildcache.Cache | None = None,
           epoch: int | None = None, story: deckgen.story.Story | None = None
           ) -> dict[str, bytes]:
    """Every file of one build, as bytes keyed by file suffix; nothing is written. The
    renderers' warnings (a character no font draws, a template's colours) are added to
    `warnings` when given; charts come from `cache` (a build's chart cache; without one,
    drawn here); the files are dated `epoch` (SOURCE_DATE_EPOCH's seconds; None: the fixed
    date). `story`: the content's story when it is composed already (a sweep draws two
    files from one).

    With `parallel` on a machine with more than one core, the handout is drawn in a forked
    process while this one draws the deck, and the page by whichever of the two is done
    first: the same code and the same bytes, in about half the time.
    """
    story = story or deckgen.story.compose(content)
    charts = cache if cache is not None else buildcache.Cache()
    deck_warnings: list[Problem] = []  # the deck's warnings, heard in this process
    heard: list[Problem] = []  # the handout's
    deck, handout, html = options.wants("deck"), options.wants("handout"), options.wants("html")
    steps = {".pptx": lambda: _deck(content, story, options, deck_warnings, charts, epoch),
             ".pdf": lambda: _handout(story, options, heard, epoch),
             ".html": lambda: _page(content, story)}
    if parallel and deck and handout and html and forking.available():
        turn = forking.Turn()  # the page's: taken by the process that is free first

        def page_if_free() -> tuple[Any, list[Problem]] | None:
            return _attempt(steps[".html"]) if turn.take() else None

        def work() -> tuple[tuple[Any, list[Problem]], tuple[Any, list[Problem]] | None,
                            dict[str, bytes], list[Problem]]:
            return _attempt(steps[".pdf"]), page_if_free(), charts.drawn(), heard

        try:
            with forking.Child(work, "handout") as child:
                pptx, deck_problems = _attempt(steps[".pptx"])
                ours = page_if_free()
                (pdf, handout_problems), theirs, drawn, heard = child.result()
        finally:
            turn.close()
        page, page_problems = ours or theirs or (None, [])
        if deck_problems or handout_problems or page_problems:  # in the order a serial build
            raise InputError(deck_problems + handout_problems + page_problems)  # meets them
        charts.adopt(drawn)  # the charts the handout's process drew, to keep with ours
        if warnings is not None:
            warnings.extend(deck_warnings + heard)
        return {".pptx": pptx, ".pdf": pdf, ".html": page}
    wanted = [suffix for suffix, on in ((".pptx", deck), (".pdf", handout), (".html", html))
              if on]
    files = dict(zip(wanted, _every(*(steps[suffix] for suffix in wanted)), strict=True))
    if warnings is not None:
        warnings.extend(deck_warnings + heard)
    return files


def _attempt(step: Callable[[], Any]) -> tuple[Any, list[Problem]]:
    """The step's result and no problems, or None and the problems it raised."""
    try:
        return step(), []
    except InputError as err:
        return None, list(err.problems)


def _every(*steps: Callable[[], Any]) -> list[Any]:
    """Each step's result; when the input fails in several, every one's problems at once."""
    results, problems = [], []
    for step in steps:
        try:
            results.append(step())
        except InputError as err:
            problems.extend(err.problems)
    if problems:
        raise InputError(problems)
    return results


def _deck(content: Content, story: deckgen.story.Story, options: Options, warnings: list[Problem],
          cache: buildcache.Cache, epoch: int | None) -> bytes:
    from deckgen.render import deck

    template = _read_template(options.template)
    walk = deckgen.story.walk(content) if options.walk else ()
    name = str(options.template) if options.template is not None else "template.pptx"
    return deck.render(story, template=template, walk=walk, charts=options.charts,
                       template_name=name, warn=warnings.append, cache=cache, epoch=epoch)


def _handout(story: deckgen.story.Story, options: Options, warnings: list[Problem],
             epoch: int | None) -> bytes:
    from deckgen.render import handout

    return handout.render(story, pages_auto=options.pages_auto, warn=warnings.append,
                          epoch=epoch)


def _page(content: Content, story: deckgen.story.Story) -> bytes:
    from deckgen.page import render as page

    return page.render(story)


def write(content: Content, options: Options, parallel: bool = False,
          warnings: list[Problem] | None = None, memory: buildcache.Memory | None = None,
          epoch: int | None = None) -> list[Path]:
    """Render prepared content and write its files, all of them or none; charts come from
    `memory` (charts an earlier build in this process drew: a watch's) or from the output
    folder's cache when an earlier build drew them. The renderers' warnings are added to
    `warnings` when given; the files are dated `epoch` (SOURCE_DATE_EPOCH's seconds).

    The options were validated first (`pipeline.settle`). A build that fails after taking
    charts from the disk cache is drawn once more without them: a damaged entry costs time,
    never the build."""
    name = stem(content, options.check is not None, options.name)
    # New charts are kept only once the files are written.
    with buildcache.use(options.out, memory=memory) as cache:
        heard: list[Problem] = []
        try:
            files = render(content, options, parallel, heard, cache, epoch)
        except InputError:
            raise
        except Exception:
            if not cache.read_from_disk() and not buildcache.has_entries(options.out):
                raise
            cache.distrust()
            heard = []
            files = render(content, options, parallel, heard, cache, epoch)
        if warnings is not None:
            warnings.extend(heard)
        return output.write_all({options.out / f"{name}{suffix}": data
                                 for suffix, data in files.items()}, record=True)


def _read_template(path: Path | None) -> bytes | None:
    if path is None:
        return None
    return template_file.read(path)
