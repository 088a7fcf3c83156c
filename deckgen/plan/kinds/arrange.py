"""The whole deck planned: each slide's arrangements under its kicker and title, the first that
fits taken; siblings (the thought experiments, the dial slides of a walk) settled together,
one arrangement and one set of sizes for all of them; every slide that does not fit reported
at once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from deckgen import fmt
from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.errors import InputError, Problem
from deckgen.plan.geometry import Geometry, scale_height
from deckgen.plan.items import ArrangedSlide, Item, Para
from deckgen.plan.kinds import (
    bottleneck,
    ceiling,
    checklist,
    closing,
    cover,
    custom,
    dial,
    experiments,
    meanings,
    precious,
    sources,
    workloads,
)
from deckgen.plan.kinds.context import Arrangement, Context, Kind
from deckgen.plan.kinds.fitting import Faces, text_item
from deckgen.plan.kinds.titles import (
    header,
    one_look,
    slide_plan,
    title_lines,
    title_size,
    title_steps,
)
from deckgen.typeset.fit import Misfit, TypeScale, first_fit, first_fit_all

KINDS: dict[str, Kind] = {
    "meanings": meanings.arrangements,
    "dial": dial.arrangements,
    "workloads": workloads.arrangements,
    "writing_chart": workloads.writing_chart,
    "presets": workloads.table_alone,
    "experiment": experiments.arrangements,
    "bottleneck": bottleneck.arrangements,
    "ceiling": ceiling.arrangements,
    "precious": precious.arrangements,
    "checklist": checklist.arrangements,
    "sources": sources.arrangements,
    "closing": closing.arrangements,
}
# Kinds whose slides share one arrangement and their sizes (the sources: when they continue).
SIBLINGS = ("experiment", "dial", "sources")


def arrange_slides(story: st.Story, geometry: Geometry, kinds: dict[str, Geometry] | None,
                slides: Sequence[st.Slide], faces: Faces) -> list[ArrangedSlide]:
    """Every slide's plan on a template of `geometry` (`kinds`: the geometry of a layout
    chosen by name, by slide kind), siblings settled together; every slide that does not
    fit is reported, all at once (an InputError). On a presenter's template the content
    slides share one look (titles.one_look): the title size first, then the body size;
    only when neither fits every slide does each slide take its own."""
    base = Context.of(story, geometry, TypeScale.for_height(scale_height(geometry)), faces)
    kinds = kinds or {}
    slides = continued(base, kinds, geometry, slides)  # the sources on as many as they need
    if not geometry.own:  # one look: a title size and a kicker place for every content slide
        content = [s for s in slides if s.kind != "title"]
        for step in title_steps(base):
            stepped = replace(base, title_step=step)
            look = one_look(stepped, [(replace(stepped, g=kinds.get(s.kind, geometry)), s)
                                      for s in content])
            if look is None:
                continue
            try:
                return planned(look, geometry, kinds, slides)
            except InputError:
                continue
    return planned(base, geometry, kinds, slides)


def planned(base: Context, geometry: Geometry, kinds: dict[str, Geometry],
            slides: Sequence[st.Slide]) -> list[ArrangedSlide]:
    """Every slide planned in `base` (on the layout its kind was given, else `geometry`);
    every slide that does not fit reported at once."""
    plans: list[ArrangedSlide | None] = [None] * len(slides)
    problems: list[Problem] = []
    groups: dict[str, list[int]] = {}
    for i, s in enumerate(slides):
        if s.kind in SIBLINGS:
            groups.setdefault(s.kind, []).append(i)
    for kind, members in groups.items():
        c = replace(base, g=kinds.get(kind, geometry))
        found = siblings(c, [slides[i] for i in members], members)
        if isinstance(found, InputError):
            problems += found.problems
        else:
            for i, made in zip(members, found, strict=True):
                plans[i] = made
    failed = {i for members in groups.values() for i in members if plans[i] is None}
    for i, s in enumerate(slides):
        if plans[i] is None and i not in failed:
            try:
                plans[i] = one(replace(base, g=kinds.get(s.kind, geometry)), i + 1, s)
            except InputError as err:
                problems += err.problems
    if problems:
        raise InputError(problems)
    return [p for p in plans if p is not None]


MOST_PARTS = 4  # the most slides the sources continue over


def continued(base: Context, kinds: dict[str, Geometry], geometry: Geometry,
              slides: Sequence[st.Slide]) -> list[st.Slide]:
    """The slides, with the sources on as many slides as they need to show every source in
    full ("Where the facts come from (2/2)"): nothing is left out to make them fit."""
    out: list[st.Slide] = []
    for i, s in enumerate(slides):
        if s.kind != "sources" or s.part != (1, 1):
            out.append(s)
            continue
        c = replace(base, g=kinds.get(s.kind, geometry))
        parts = [s]
        for n in range(1, min(MOST_PARTS, len(c.story.sources)) + 1):
            parts = [replace(s, part=(k, n), headline=replace(
                s.headline, text=s.headline.text if n == 1 else f"{s.headline.text} ({k}/{n})"))
                for k in range(1, n + 1)]
            if not isinstance(siblings(c, parts, list(range(i, i + n))), InputError):
                break
        out.extend(parts)
    return out


def siblings(c: Context, group: list[st.Slide], members: list[int]
             ) -> list[ArrangedSlide] | InputError:
    """Sibling slides settled together: one arrangement and one set of sizes for all of
    them, the title as large as all of them allow; else the error naming the siblings that
    cannot fit even alone (`members`: their places in the deck, from 0)."""
    for step in title_steps(c):
        c = replace(c, title_step=step)
        lines = max(title_lines(c, s) for s in group)
        found = first_fit_all([arrangements(c, s, lines) for s in group])
        if not isinstance(found, Misfit):
            break
    if isinstance(found, Misfit):  # name the siblings that cannot fit even alone
        alone = [(i, first_fit(arrangements(c, s, lines)))
                 for i, s in zip(members, group, strict=True)]
        lost = [fail(c.story, i + 1, m) for i, m in alone if isinstance(m, Misfit)]
        return InputError([p for err in lost or [fail(c.story, members[0] + 1, found)]
                           for p in err.problems])
    size = min(title_size(c, s) for s in group)
    return [slide_plan(c, s, items, size) for s, items in zip(group, found[1], strict=True)]


def one(c: Context, number: int, s: st.Slide) -> ArrangedSlide:
    """Slide `number`'s plan, its title as large as the slide allows."""
    if s.kind == "title":
        made = cover.plan(c, s)
        if isinstance(made, Misfit):
            raise fail(c.story, number, made)
        return made
    missed: Misfit | None = None
    for step in title_steps(c):
        c = replace(c, title_step=step)
        found = first_fit(arrangements(c, s, title_lines(c, s)))
        if isinstance(found, Misfit):
            missed = found
            continue
        return slide_plan(c, s, found, title_size(c, s))
    assert missed is not None
    raise fail(c.story, number, missed)


def arrangements(c: Context, s: st.Slide, lines: int) -> list[Arrangement]:
    """The slide's arrangements in order, each with its kicker, title and frame; those with
    the footnote first, when it fits under the slide's content."""
    head = header(c, s, lines)
    if isinstance(head, Misfit):
        return [lambda: head]
    kicker, frame = head
    kind = custom.arrangements if s.custom is not None else KINDS[s.kind]

    def with_kicker(arrange: Arrangement, extra: list[Item]) -> Arrangement:
        def run() -> list[Item] | Misfit:
            found = arrange()
            return found if isinstance(found, Misfit) else kicker + extra + found
        return run

    plain = [with_kicker(a, []) for a in kind(c, s, frame)]
    if not s.footnote.text:
        return plain
    # One muted line at the foot, under whatever the slide shows; only when no
    # arrangement leaves room for it does the slide go without it.
    foot = text_item(c.faces, frame, [Para(s.footnote.text, (c.t.footnote,), colour="muted",
                                           field="footnote", origin=s.footnote.origin)],
                     shrink_to_fit=True, name="Footnote")
    if isinstance(foot, Misfit):
        return plain
    foot.box = frame.bottom_part(foot.box.h)
    above = Box(frame.x, frame.y, frame.w, foot.box.y - inch(0.15) - frame.y)
    return [with_kicker(a, [foot]) for a in kind(c, s, above)] + plain


def fail(story: st.Story, number: int, m: Misfit) -> InputError:
    """The error for slide `number`'s text that does not fit, located in content.yaml."""
    where = story.where(m.origin) if m.origin else None
    what = m.field or "text"
    advice = "; shorten it" if m.origin else ""  # a computed figure cannot be shortened
    message = (f"slide {number}: the {what} does not fit ({fmt.count(len(m.text))} "
               f"characters; {m.detail}){advice}")
    return InputError(Problem(message, story.file, where[0] if where else None,
                              where[1] if where else None, m.origin or None))
