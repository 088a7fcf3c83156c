"""The story: the whole talk as renderer-neutral parts, every figure already text.

`compose(content)` turns valid content into a `Story`: slides in order with their notes,
tables, chart specifications with alt text, and the handout's and the page's parts. The deck,
the handout and the page read only this, so they cannot disagree, and none of them computes
nor formats a number. Each section of the talk is composed in a module of its own; the parts
they make are in `deckgen.story.parts`.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace

from deckgen import fmt
from deckgen.content import Content, Source, Step
from deckgen.story import (
    bottleneck,
    ceiling,
    checklist,
    closing,
    custom,
    dial,
    experiments,
    live,
    meanings,
    precious,
    sources,
    title,
    workloads,
)
from deckgen.story.parts import (
    Bar,
    BarChart,
    BigFigure,
    BottleneckView,
    Card,
    Chart,
    Cited,
    Closing,
    Custom,
    DialView,
    Experiment,
    Labels,
    Line,
    LineChart,
    Live,
    LiveWorkload,
    Mark,
    Piece,
    Segment,
    Slide,
    Story,
    Table,
    Text,
    Tick,
)
from deckgen.story.talk import Talk, keep


def compose(content: Content) -> Story:
    """The whole talk, section by section, from content whose prose has been validated."""
    talk = Talk(content)
    meta, opening = title.tell(talk)
    cards, on_meanings = meanings.tell(talk)
    shown, on_dial = dial.tell(talk)
    workload_table, writing_chart, on_workloads = workloads.tell(talk)
    headline, told, on_experiments = experiments.tell(talk)
    figures, bars, on_bottleneck = bottleneck.tell(talk)
    presets_table, ceiling_chart, on_ceiling = ceiling.tell(talk, figures)
    things, on_precious = precious.tell(talk)
    steps, on_checklist = checklist.tell(talk)
    cited, on_sources = sources.tell(talk)
    ending = closing.tell(talk)
    presets, on_ceilings = on_ceiling
    slides = custom.arrange(talk, {
        "title": (opening,), "meanings": (on_meanings,), "dial": (on_dial,),
        "workloads": on_workloads, "experiments": on_experiments, "bottleneck": (on_bottleneck,),
        "presets": (presets,), "ceiling": (on_ceilings,), "precious": (on_precious,),
        "checklist": (on_checklist,), "sources": (on_sources,), "closing": ending})
    return Story(
        meta=meta,
        theme=content.theme,
        file=content.file,
        marks=content.marks,
        speed=talk.speed,
        speed_mark=fmt.speed_mark(content.dial.speed, talk.lang),
        slow_speed=talk.slow,
        cards=cards,
        dial=shown,
        workload_table=workload_table,
        experiments=told,
        bottleneck=figures,
        presets_table=presets_table,
        precious=things,
        checklist=steps,
        sources=cited,
        charts=(writing_chart, bars, ceiling_chart),  # with no check, no slide shows the bars
        slides=tuple(spoken(slide) for slide in slides),
        live=live.tell(talk),
        experiments_headline=headline,
        our_dial=talk.say("our_dial_at", speed=keep(talk.speed)),
        labels=bottleneck.labels_of(talk),
        event_line=title.event_line(meta),
        layouts=tuple((sid, layout) for sid, layout in
                      (*((s, t.layout) for s, t in content.slides.items()),
                       *((s, o.layout) for s, o in content.custom.items()))
                      if layout and (sid in content.order or not content.order)),
        order=content.order or tuple(s for s in custom.BUILT_IN_ORDER if s in content.slides),
        page_notes=content.page_notes,
        words=talk.words.table,
        numbers=talk.lang,
    )


def spoken(slide: Slide) -> Slide:
    """The slide with its notes as the speaker reads them: no figure held together by a
    no-break space."""
    return replace(slide, notes=slide.notes.replace(fmt.NBSP, " "))


def walk(content: Content) -> tuple[Slide, ...]:
    """One 'turn the dial' slide per speed mark, for clicking through the dial live."""
    return dial.walk(Talk(content))


def characters(*parts: object) -> frozenset[str]:
    """Every character of every text in `parts` (a story, slides): what its fonts must
    draw."""
    found: set[str] = set()
    pending: list[object] = list(parts)
    while pending:
        part = pending.pop()
        if isinstance(part, str):
            found.update(part)
        elif isinstance(part, (tuple, list)):
            pending.extend(part)
        elif isinstance(part, dict):
            pending.extend(part.values())
        elif is_dataclass(part) and not isinstance(part, type):
            pending.extend(getattr(part, f.name) for f in fields(part))
    return frozenset(found)


__all__ = [
    "Bar",
    "BarChart",
    "BigFigure",
    "BottleneckView",
    "Card",
    "Chart",
    "Cited",
    "Closing",
    "Custom",
    "DialView",
    "Experiment",
    "Labels",
    "Line",
    "LineChart",
    "Live",
    "LiveWorkload",
    "Mark",
    "Piece",
    "Segment",
    "Slide",
    "Source",
    "Step",
    "Story",
    "Table",
    "Text",
    "Tick",
    "characters",
    "compose",
    "walk",
]
