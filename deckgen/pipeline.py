"""The build, top to bottom: read the content, settle the options, compose the story, render
each output from it, write every file as one transaction.

Every problem with the options (the dial's overrides, the output folder, the template,
SOURCE_DATE_EPOCH) is found before any drawing and reported together; a renderer's
problems are reported together with the other renderers'. Nothing is written unless every
output was drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import deckgen.story
from deckgen import environment, forking, output, source, template_file
from deckgen.build import KINDS, Options, apply, stem
from deckgen.chart_pictures import ChartPictures
from deckgen.content import Content
from deckgen.errors import InputError, Problem

T = TypeVar("T")
SUFFIX = {"deck": ".pptx", "handout": ".pdf", "html": ".html", "slides": "-slides.pdf",
          "notes": "-notes.pdf"}


def build(content_path: Path | None, options: Options, pictures: ChartPictures | None = None,
          parallel: bool = True) -> tuple[list[Path], list[Problem]]:
    """The whole build: the files written, and the content's and the renderers' warnings.
    `pictures`: the chart pictures kept from earlier builds in this process (a watch's);
    `parallel`: the handout and the presenter kit may be drawn in a forked process."""
    content, warnings = source.read(content_path)  # read and validate the content
    settled = settle(content, options)  # every option checked; the template read, once
    story = deckgen.story.compose(settled.content)  # the figures computed, the story told
    pictures = pictures or ChartPictures(options.out)  # --charts picture: drawn once, kept
    files, heard = render(story, settled, pictures, parallel)  # each output, from the story
    written = output.write_all({options.out / f"{settled.name}{SUFFIX[kind]}": data
                                for kind, data in files.items()}, record=True)  # all, or none
    pictures.save()  # the pictures drawn anew, for the next build, now that the files are in
    return written, [*warnings, *heard]


@dataclass(frozen=True)
class Settled:
    """One build's input once every option is known to be usable."""

    content: Content  # with the command line's dial, aspect and paper in place
    options: Options
    name: str  # the file name deck, handout and page share, without the suffix
    template: bytes | None = None  # the template's bytes, when the deck is drawn on one
    epoch: int | None = None  # SOURCE_DATE_EPOCH's seconds: the date the files carry


def settle(content: Content, options: Options) -> Settled:
    """The content with the command line's dial in place, the template read and the date
    the files carry, once every option is known to be usable: the dial's overrides, the
    output folder, the template and the environment. All their problems are raised
    together, as one InputError."""
    problems: list[Problem] = []
    applied = _collect(problems, lambda: apply(content, options))
    epoch = _collect(problems, environment.source_date_epoch)
    _collect(problems, lambda: output.guard(options.out))
    template = None
    if options.template is not None and set(wanted(options)) & {"deck", "slides", "notes"}:
        template = _collect(problems, lambda: template_file.read(options.template))  # type: ignore[arg-type]
    if problems:
        raise InputError(problems)
    assert applied is not None
    name = stem(applied, options.check is not None, options.name)
    return Settled(applied, options, name, template, epoch)


def wanted(options: Options) -> tuple[str, ...]:
    """The kinds of file the options ask for, in KINDS's order."""
    return tuple(kind for kind in KINDS if options.wants(kind))


def render(story: deckgen.story.Story, settled: Settled, pictures: ChartPictures | None = None,
           parallel: bool = False, kinds: Sequence[str] | None = None
           ) -> tuple[dict[str, bytes], list[Problem]]:
    """Each file the options ask for (or `kinds` of file), drawn from the story: bytes by
    kind, and the renderers' warnings. Every renderer's problems are raised together.

    With `parallel` on a machine with more than one core, the handout and the presenter kit
    are drawn in a forked process while this one draws the deck and the page: the same code,
    the same bytes, in about half the time."""
    kit = _Kit(story, settled)  # the slides PDF and the notes book share one plan
    draw: dict[str, Callable[[], Drawn]] = {
        "deck": lambda: _deck(story, settled, pictures),
        "handout": lambda: _handout(story, settled),
        "html": lambda: _page(story, settled),
        "slides": kit.slides,
        "notes": kit.notes,
    }
    kinds = wanted(settled.options) if kinds is None else kinds
    # Two about equal halves: the deck and the page here; the handout and the kit there.
    here = [k for k in kinds if k in ("deck", "html")]
    there = [k for k in kinds if k not in here]
    if parallel and here and there and forking.available():
        ours, theirs = forking.beside(lambda: _each(draw, here), lambda: _each(draw, there))
        results = {**ours, **theirs}
    else:
        results = _each(draw, kinds)
    # In the order of KINDS, each once: the deck and the kit meet the same misfits.
    problems = list(dict.fromkeys(p for kind in kinds for p in results[kind].problems))
    if problems:
        raise InputError(problems)
    files = {kind: results[kind].data for kind in kinds}
    return files, [w for kind in kinds for w in results[kind].warnings]


@dataclass(frozen=True)
class Drawn:
    """One file's bytes and its renderer's warnings; or the input's problems it met."""

    data: bytes = b""
    warnings: tuple[Problem, ...] = ()
    problems: tuple[Problem, ...] = ()


def _each(draw: dict[str, Callable[[], Drawn]], kinds: Sequence[str]) -> dict[str, Drawn]:
    """Each kind drawn; the input's problems one renderer meets do not stop the next."""
    results = {}
    for kind in kinds:
        try:
            results[kind] = draw[kind]()
        except InputError as err:
            results[kind] = Drawn(problems=tuple(err.problems))
    return results


def _deck(story: deckgen.story.Story, settled: Settled,
          pictures: ChartPictures | None) -> Drawn:
    from deckgen.render import deck

    options = settled.options
    heard: list[Problem] = []
    walk = deckgen.story.walk(settled.content) if options.walk else ()
    name = str(options.template) if options.template is not None else "template.pptx"
    cache = pictures if options.charts == "picture" else None  # only pictures are kept
    data = deck.render(story, template=settled.template, walk=walk, charts=options.charts,
                       template_name=name, warn=heard.append, cache=cache, epoch=settled.epoch)
    return Drawn(data, tuple(heard))


def _handout(story: deckgen.story.Story, settled: Settled) -> Drawn:
    from deckgen.render import handout

    heard: list[Problem] = []
    data = handout.render(story, pages_auto=settled.options.pages_auto, warn=heard.append,
                          epoch=settled.epoch)
    return Drawn(data, tuple(heard))


def _page(story: deckgen.story.Story, settled: Settled) -> Drawn:
    from deckgen.page import render as page

    return Drawn(page.render(story))


class _Kit:
    """The presenter kit: the slides as a PDF and the speaker's notes book, drawn from the
    deck's own slide plans (deckgen.render.deck.planned), planned once for both."""

    def __init__(self, story: deckgen.story.Story, settled: Settled) -> None:
        self.story, self.settled = story, settled
        self.name = (str(settled.options.template) if settled.options.template is not None
                     else "template.pptx")
        self._found: object = None

    def _planned(self) -> object:
        if self._found is None:
            from deckgen.render.deck.planned import planned

            walk = deckgen.story.walk(self.settled.content) if self.settled.options.walk else ()
            self._found = planned(self.story, self.settled.template, walk, self.name)
        return self._found

    def slides(self) -> Drawn:
        """The slides PDF; what of a template it cannot show is one warning (and the deck's
        colour warnings when the deck is not built beside it)."""
        from deckgen.render import pdf
        from deckgen.render.deck.planned import Planned, undrawn_warning

        found = self._planned()
        assert isinstance(found, Planned)
        heard = [] if self.settled.options.wants("deck") else list(found.warnings)
        undrawn = undrawn_warning(found, self.name)
        heard += [undrawn] if undrawn is not None else []
        data = pdf.slides(found, self.story.meta, self.settled.epoch)
        return Drawn(data, tuple(heard))

    def notes(self) -> Drawn:
        """The speaker's notes book."""
        from deckgen.render import pdf
        from deckgen.render.deck.planned import Planned

        found = self._planned()
        assert isinstance(found, Planned)
        wants = self.settled.options.wants
        heard = [] if wants("deck") or wants("slides") else list(found.warnings)
        data = pdf.notes(found, self.story.meta, self.settled.epoch, self.story.words)
        return Drawn(data, tuple(heard))


def files(content: Content, options: Options) -> tuple[dict[str, bytes], list[Problem]]:
    """Every file a build of `content` (read and validated) would write, drawn in this
    process and written nowhere, by kind, with the renderers' warnings."""
    settled = settle(content, options)
    return render(deckgen.story.compose(settled.content), settled)


def _collect(problems: list[Problem], step: Callable[[], T]) -> T | None:
    """`step()`'s value; its problems go to `problems` instead of being raised."""
    try:
        return step()
    except InputError as err:
        problems.extend(err.problems)
        return None
