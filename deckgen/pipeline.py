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
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import deckgen.story
from deckgen import environment, forking, output, source, template
from deckgen.build import KINDS, Options, apply, stem
from deckgen.chart_pictures import ChartPictures
from deckgen.content import Content
from deckgen.errors import InputError, Problem
from deckgen.template.model import Template

if TYPE_CHECKING:
    from deckgen.plan.placed import Deck, NotesBook

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
    template: Template | None = None  # the presenter's template, when the deck is drawn on one
    epoch: int | None = None  # SOURCE_DATE_EPOCH's seconds: the date the files carry

    def drawn_on(self) -> Template:
        """The template the slides go on: the presenter's, else deckgen's own master."""
        return self.template or template.own(self.content.meta.aspect)


def settle(content: Content, options: Options) -> Settled:
    """The content with the command line's dial in place, the template read and the date
    the files carry, once every option is known to be usable: the dial's overrides, the
    output folder, the template and the environment. All their problems are raised
    together, as one InputError."""
    problems: list[Problem] = []
    applied = _collect(problems, lambda: apply(content, options))
    epoch = _collect(problems, environment.source_date_epoch)
    _collect(problems, lambda: output.guard(options.out))
    found = None
    if options.template is not None and set(wanted(options)) & {"deck", "slides", "notes"}:
        path = options.template
        found = _collect(problems, lambda: template.read(path))
    if problems:
        raise InputError(problems)
    assert applied is not None
    name = stem(applied, options.check is not None, options.name)
    return Settled(applied, options, name, found, epoch)


def wanted(options: Options) -> tuple[str, ...]:
    """The kinds of file the options ask for, in KINDS's order."""
    return tuple(kind for kind in KINDS if options.wants(kind))


def render(story: deckgen.story.Story, settled: Settled, pictures: ChartPictures | None = None,
           parallel: bool = False, kinds: Sequence[str] | None = None
           ) -> tuple[dict[str, bytes], list[Problem]]:
    """Each file the options ask for (or `kinds` of file), drawn from the story: bytes by
    kind, and the renderers' warnings. Every renderer's problems are raised together.

    With `parallel` on a machine with more than one core, a forked process draws the
    handout and the page while this one lays the slides out, then the slides PDF and the
    notes book from the slides as placed (handed over as plain data) while this one draws
    the deck: the same code, the same bytes, in about half the time."""
    kinds = wanted(settled.options) if kinds is None else kinds
    here = [k for k in kinds if k == "deck"]
    there = [k for k in kinds if k != "deck"]
    with forking.aside(partial(_there, story, settled, there), "handout",
                       parallel and bool(here and there)) as beside:
        kit = _lay_out(story, settled, kinds)  # the deck, its PDF and the notes: one plan
        if set(there) & {"slides", "notes"}:
            beside.send(kit)  # the slides as placed, for the PDF and the notes book
        results = {"deck": _deck(story, settled, kit, pictures)} if here else {}
        results |= beside.result()
    # In the order of KINDS, each once: the deck and the kit meet the same misfits.
    problems = list(dict.fromkeys(p for kind in kinds for p in results[kind].problems))
    if problems:
        raise InputError(problems)
    files = {kind: results[kind].data for kind in kinds}
    return files, [w for kind in kinds for w in results[kind].warnings]


def _there(story: deckgen.story.Story, settled: Settled, kinds: Sequence[str],
           receive: Callable[[], _Kit]) -> dict[str, Drawn]:
    """The handout and the page, then (once the slides are laid out and `receive` returns
    them as placed) the slides PDF and the notes book, of `kinds`."""
    paper: dict[str, Callable[[], Drawn]] = {
        "handout": lambda: _handout(story, settled),
        "html": lambda: _page(story, settled),
    }
    results = _each(paper, [k for k in kinds if k in paper])
    on_slides = [k for k in kinds if k not in paper]
    if on_slides:
        kit = receive()
        results |= _each({"slides": lambda: _slides_pdf(story, settled, kit),
                          "notes": lambda: _notes(story, settled, kit)}, on_slides)
    return results


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


@dataclass(frozen=True)
class _Kit:
    """The slides as placed, for the slides PDF and the notes book; or the input's problems
    met placing them. Plain data: it is handed to a forked process."""

    deck: Deck | None = None
    book: NotesBook | None = None
    problems: tuple[Problem, ...] = ()


def _lay_out(story: deckgen.story.Story, settled: Settled, kinds: Sequence[str]) -> _Kit:
    """The deck's slides planned and placed once, before anything is drawn, for the deck and
    the presenter kit (the slides PDF and the notes book); or the input's problems."""
    if not set(kinds) & {"deck", "slides", "notes"}:
        return _Kit()
    from deckgen import fonts, plan

    walk = deckgen.story.walk(settled.content) if settled.options.walk else ()
    drawn_on = settled.drawn_on()
    heading, body = plan.fonts_of(story, drawn_on)
    typefaces = fonts.typefaces(heading, body, deckgen.story.characters(story, walk))
    try:
        deck = plan.plan(story, drawn_on, typefaces, walk, _template_name(settled))
    except InputError as err:
        return _Kit(problems=tuple(err.problems))
    return _Kit(deck, plan.notes(deck, story, typefaces) if "notes" in kinds else None)


def _template_name(settled: Settled) -> str:
    """How messages name the template."""
    template = settled.options.template
    return str(template) if template is not None else "template.pptx"


def _deck(story: deckgen.story.Story, settled: Settled, kit: _Kit,
          pictures: ChartPictures | None) -> Drawn:
    from deckgen.paint import pptx

    if kit.problems:
        return Drawn(problems=kit.problems)
    assert kit.deck is not None
    options = settled.options
    cache = pictures if options.charts == "picture" else None  # only pictures are kept
    data = pptx.paint(kit.deck, settled.drawn_on().data or b"", story.meta,
                      charts=options.charts, cache=cache, epoch=settled.epoch)
    return Drawn(data, kit.deck.warnings)


def _handout(story: deckgen.story.Story, settled: Settled) -> Drawn:
    from deckgen.paint import handout

    heard: list[Problem] = []
    data = handout.render(story, pages_auto=settled.options.pages_auto, warn=heard.append,
                          epoch=settled.epoch)
    return Drawn(data, tuple(heard))


def _page(story: deckgen.story.Story, settled: Settled) -> Drawn:
    from deckgen.paint.page import render as page

    return Drawn(page.render(story))


def _slides_pdf(story: deckgen.story.Story, settled: Settled, kit: _Kit) -> Drawn:
    """The slides PDF; what of a template it cannot show is one warning (and the deck's
    warnings when the deck is not built beside it)."""
    from deckgen.paint import pdf

    if kit.problems:
        return Drawn(problems=kit.problems)
    assert kit.deck is not None
    heard = [] if settled.options.wants("deck") else list(kit.deck.warnings)
    if kit.deck.undrawn:
        heard.append(Problem("the slides PDF leaves out what it cannot draw of the template: "
                             f"{'; '.join(kit.deck.undrawn)}", file=_template_name(settled)))
    return Drawn(pdf.slides(kit.deck, story.meta, settled.epoch), tuple(heard))


def _notes(story: deckgen.story.Story, settled: Settled, kit: _Kit) -> Drawn:
    """The speaker's notes book (the deck's warnings when neither the deck nor the slides
    PDF is built beside it)."""
    from deckgen.paint import pdf

    if kit.problems:
        return Drawn(problems=kit.problems)
    assert kit.deck is not None
    wants = settled.options.wants
    heard = [] if wants("deck") or wants("slides") else list(kit.deck.warnings)
    assert kit.book is not None
    return Drawn(pdf.notes(kit.deck, kit.book, story.meta, settled.epoch), tuple(heard))


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
