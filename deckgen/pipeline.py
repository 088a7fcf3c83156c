"""The build in one screen: load, validate, compute, compose, render, write.

    content.yaml -> load + validate the content       source.read
                 -> validate every option at once     settle
                 -> compute the dial                  (in settle: the content with its dial)
                 -> compose the story once            story.compose   (in build.render)
                 -> render each output (bytes)        build.render
                 -> write them as one transaction     output.write_all (in build.write)

Every problem with the options (the dial's overrides, the output folder, the template's
format, SOURCE_DATE_EPOCH) is found before any drawing and reported together.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from deckgen import build as steps
from deckgen import buildcache, environment, output, source, template_file
from deckgen.content import Content
from deckgen.errors import InputError, Problem

T = TypeVar("T")


def build(content_path: Path | None, options: steps.Options,
          memory: buildcache.Memory | None = None,
          parallel: bool = True) -> tuple[list[Path], list[Problem]]:
    """The whole build; returns the files written and the content's and renderers' warnings.
    `memory` keeps the charts drawn from one build to the next in this process (a watch);
    `parallel` draws the handout in a forked process."""
    content, warnings = source.read(content_path)  # load, and validate the content
    content = settle(content, options)  # validate every option; the content with its dial
    epoch = environment.source_date_epoch()  # the date the files carry (checked in settle)
    heard: list[Problem] = []
    written = steps.write(content, options, parallel=parallel, warnings=heard, memory=memory,
                          epoch=epoch)  # compose, render and write every file as one transaction
    return written, [*warnings, *heard]


def settle(content: Content, options: steps.Options) -> Content:
    """The content with the command line's dial in place, once every option is known to be
    usable: the dial's overrides, the output folder, the template and the environment. All
    their problems are raised together, as one InputError."""
    problems: list[Problem] = []
    applied = _collect(problems, lambda: steps.apply(content, options))
    _collect(problems, environment.validate)
    _collect(problems, lambda: output.guard(options.out))
    if options.template is not None and options.wants("deck"):
        _collect(problems, lambda: template_file.read(options.template))  # type: ignore[arg-type]
    if problems:
        raise InputError(problems)
    assert applied is not None
    return applied


def _collect(problems: list[Problem], step: Callable[[], T]) -> T | None:
    """`step()`'s value; its problems go to `problems` instead of being raised."""
    try:
        return step()
    except InputError as err:
        problems.extend(err.problems)
        return None
