"""The build, read top to bottom: load, validate, compute, compose, render, write."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from deckgen import chartcache, fmt, output, quantities, source, story
from deckgen import parallel as forking
from deckgen.content import Content
from deckgen.errors import InputError, Problem
from deckgen.figures import with_overrides

KINDS = ("deck", "handout")


@dataclass(frozen=True)
class Options:
    """What the command line asked for, beyond the content file."""

    out: Path = Path("output")
    speed: str | None = None
    check: str | None = None
    workload: str | None = None
    only: str | None = None  # "deck", "handout" or None for both
    aspect: str | None = None
    paper: str | None = None
    template: Path | None = None
    walk: bool = False
    pages_auto: bool = False
    charts: str = "native"  # the deck's charts: "native" chart parts or "picture" PNGs


def stem(content: Content, with_check: bool) -> str:
    """The file name shared by deck and handout: 'million-tokens-1M', '...-1M-check-15min'.

    Names are exact, so different dials never share a file: a speed or check whose short
    form rounds ('1.23K' for 1,234) is written out in full ('1234', '60.04s').
    """
    name = f"million-tokens-{_speed_name(content.dial.speed)}"
    if with_check:
        name += "-check-" + _check_name(content.dial.fixed_check)
    return name


def _speed_name(speed: Fraction) -> str:
    mark = fmt.speed_mark(speed)
    return mark if quantities.parse_speed(mark) == speed else _decimal(speed)


def _check_name(seconds: Fraction) -> str:
    if seconds == 0:
        return "none"
    parts = re.findall(r"([\d.,]+) ([a-z]+)", fmt.check(seconds))  # '2 h 46 min 40 s', '60 seconds'
    if sum(quantities.parse_duration(f"{n} {unit}") for n, unit in parts) != seconds:
        return _decimal(seconds) + "s"
    return "".join(n.replace(",", "") + ("s" if unit.startswith("second") else unit)
                   for n, unit in parts)


def _decimal(value: Fraction) -> str:
    """An exact decimal with no separators: '1234', '60.04' (parsed values always end)."""
    places = 0
    while (value * 10**places).denominator != 1 and places < 40:
        places += 1
    digits = str(round(value * 10**places)).rjust(places + 1, "0")
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
           warnings: list[Problem] | None = None) -> dict[str, bytes]:
    """Every file of one build, as bytes keyed by file suffix; nothing is written. The
    renderers' warnings (a character no font draws) are added to `warnings` when given.

    With `parallel` on a machine with more than one core, the handout is drawn in a forked
    process while this one draws the deck: the same code and the same bytes, in about half
    the time.
    """
    told = story.compose(content)
    heard: list[Problem] = []
    deck, handout = options.only in (None, "deck"), options.only in (None, "handout")
    if parallel and deck and handout and forking.available():
        work = lambda: (_handout(told, options, heard), chartcache.drawn(), heard)  # noqa: E731
        with forking.Child(work, "handout") as child:
            pptx, (pdf, charts, heard) = _every(lambda: _deck(content, told, options), child.result)
        chartcache.adopt(charts)  # the charts the handout's process drew, to keep with ours
        if warnings is not None:
            warnings.extend(heard)
        return {".pptx": pptx, ".pdf": pdf}
    steps = {".pptx": lambda: _deck(content, told, options),
             ".pdf": lambda: _handout(told, options, heard)}
    wanted = [suffix for suffix, on in ((".pptx", deck), (".pdf", handout)) if on]
    files = dict(zip(wanted, _every(*(steps[suffix] for suffix in wanted)), strict=True))
    if warnings is not None:
        warnings.extend(heard)
    return files


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


def _deck(content: Content, told: story.Story, options: Options) -> bytes:
    from deckgen import deck

    template = _read_template(options.template)
    walk = story.walk(content) if options.walk else ()
    return deck.render(told, template=template, walk=walk, charts=options.charts)


def _handout(told: story.Story, options: Options, warnings: list[Problem]) -> bytes:
    from deckgen import handout

    return handout.render(told, pages_auto=options.pages_auto, warn=warnings.append)


def build(content_path: Path | None, options: Options) -> tuple[list[Path], list[Problem]]:
    """The whole pipeline; returns the files written and the content's and renderers'
    warnings."""
    content, warnings = prepare(content_path, options)
    warnings = list(warnings)
    return write(content, options, parallel=True, warnings=warnings), warnings


def write(content: Content, options: Options, parallel: bool = False,
          warnings: list[Problem] | None = None) -> list[Path]:
    """Render prepared content and write its files, all of them or none; charts come from
    the output folder's cache when an earlier build drew them. The renderers' warnings are
    added to `warnings` when given."""
    output.check(options.out)  # the folder itself is made only when the files are written
    name = stem(content, options.check is not None)
    with chartcache.use(options.out):  # new charts are kept only once the files are written
        files = render(content, options, parallel, warnings)
        return output.write_all({options.out / f"{name}{suffix}": data
                                 for suffix, data in files.items()})


def _read_template(path: Path | None) -> bytes | None:
    if path is None:
        return None
    if path.is_dir():
        raise InputError(Problem("is a folder, not a .pptx template", str(path), path="--template"))
    try:
        return path.read_bytes()
    except OSError as err:
        raise InputError(Problem(f"cannot be read: {err.strerror}", str(path),
                                 path="--template")) from None
