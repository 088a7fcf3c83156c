"""The story: the whole talk as renderer-neutral parts, every figure already text.

`compose(content)` turns valid content into a `Story`: slides in order with their notes,
tables, chart specifications with alt text, and the handout's parts. The deck and the
handout read only this, so they cannot disagree, and neither computes nor formats a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from deckgen import dial, fmt, report
from deckgen.content import Content, Dial, Meta, Source, Step, Theme, Workload
from deckgen.figures import Figure, batch, division, figures, fill


@dataclass(frozen=True)
class Text:
    """Prose ready to show, and the content key it came from ('' when generated)."""

    text: str
    origin: str = ""


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[str, ...]  # "l" or "r" per column
    highlight: int | None  # the row that is "our dial", if any
    caption: str


@dataclass(frozen=True)
class Tick:
    at: Fraction
    label: str


@dataclass(frozen=True)
class Line:
    """One series: exact (x, y) points; `emphasis` marks the dial's own series."""

    label: str
    points: tuple[tuple[Fraction, Fraction], ...]
    emphasis: bool
    asymptote: Fraction | None = None
    asymptote_label: str = ""


@dataclass(frozen=True)
class Mark:
    """A point the chart marks with its value: the dial's own point on the dial's series."""

    line: int  # index into the chart's lines
    at: Fraction  # x
    value: Fraction  # y
    label: str  # "132.57×", the same text as the figure on the slide
    name: str = ""  # "Check 60 seconds at 1M": the point's own series name where it needs one


@dataclass(frozen=True)
class LineChart:
    """A line chart across the dial; both axes logarithmic unless a scale says otherwise.

    `x_range` and `y_range` are the axes' ends (whole decades on a log axis, one tick per
    decade); `x_unit` and `y_unit` name what a tick counts ("speed", "seconds", "times") so
    a renderer that labels ticks itself (a native chart) can match the story's tick texts.
    """

    key: str
    title: str
    x_label: str
    y_label: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    lines: tuple[Line, ...]
    marker: Fraction  # the chosen speed
    marker_label: str
    alt_text: str
    marks: tuple[Mark, ...] = ()
    x_range: tuple[Fraction, Fraction] = (Fraction(1), Fraction(10))
    y_range: tuple[Fraction, Fraction] = (Fraction(1), Fraction(10))
    x_scale: str = "log"
    y_scale: str = "log"
    x_unit: str = "speed"
    y_unit: str = "seconds"
    kind: str = "line"

    @property
    def dial_line(self) -> int | None:
        """The index of the dial's own series, if any."""
        return next((i for i, line in enumerate(self.lines) if line.emphasis), None)


@dataclass(frozen=True)
class Segment:
    name: str
    share: Fraction
    label: str


@dataclass(frozen=True)
class Bar:
    label: str
    segments: tuple[Segment, ...]
    emphasis: bool


@dataclass(frozen=True)
class BarChart:
    """Horizontal bars, each to 100% of its own total."""

    key: str
    title: str
    bars: tuple[Bar, ...]
    alt_text: str
    kind: str = "bar"


Chart = LineChart | BarChart


@dataclass(frozen=True)
class Card:
    label: str
    question: str
    text: Text
    ours: bool


@dataclass(frozen=True)
class DialView:
    """One workload at one speed: the dial's big figure and its sentence."""

    speed: str
    speed_mark: str
    title: str
    arithmetic: str  # "1,000 story endings × 1,000 tokens = 1,000,000 output tokens"
    figure: str  # "1 second"
    sentence: str
    slow_speed: str
    slow_figure: str
    at_speed: str = ""  # "At 1,000,000 tokens/sec": the kicker over the big figure
    at_slow_speed: str = ""  # "At 100 tokens/sec"
    slow_note: str = ""  # "the same batch, at the slow end of the dial"
    writing_at: str = ""  # "of writing at 1,000,000 tokens/sec"


@dataclass(frozen=True)
class Experiment:
    id: str
    title: str
    arithmetic: str  # "1,000 × 1,000 = 1,000,000 tokens"
    writing: str  # "1 second of writing at 1,000,000 tokens/sec"
    story: Text
    scarce: Text
    featured: bool
    figure: str = ""  # "1 second": the writing time alone, for a big figure
    writing_at: str = ""  # "of writing at 1,000,000 tokens/sec", under the big figure
    featured_label: str = ""  # "Featured on the dial" for the dial's workload, else ""


@dataclass(frozen=True)
class BigFigure:
    """One big figure of the bottleneck slide, its label and the sum that gives it."""

    key: str  # "writing_speedup", "end_to_end_speedup" or "check_share"
    label: str
    value: str
    how: str
    role: str  # the colour it takes: "accent" for the dial's figure, else "muted" or "text"


@dataclass(frozen=True)
class Bottleneck:
    setup: Text
    model: Text
    lesson: Text
    check: str
    writing_speedup: str
    writing_speedup_how: str  # "1,000,000 ÷ 100 tokens/sec"
    end_to_end_speedup: str
    end_to_end_how: str  # "8,060 ÷ 60.8 seconds"
    slow_total: str
    total: str
    check_share: str
    ceiling: str  # "134.33×", or "no ceiling" when there is no check
    ceiling_sentence: Text
    summary: str
    has_ceiling: bool = True
    check_share_how: str = ""  # "of the 60.8 seconds total"
    # The big figures to show, in order: with no check, the writing speedup alone (the
    # end-to-end speedup is the same figure and the check's share is nothing).
    figures: tuple[BigFigure, ...] = ()
    has_check: bool = True


@dataclass(frozen=True)
class Labels:
    """The fixed words the renderers print beside the figures, kept in one place."""

    still_scarce: str = "Still scarce"
    writing_speedup: str = "Writing speedup"
    end_to_end_speedup: str = "End-to-end speedup"
    check_share: str = "Check share"
    ceiling: str = "Ceiling"
    our_dial: str = "Our dial"
    source: str = "Source"  # the sources table's header
    supports: str = "What it supports"


@dataclass(frozen=True)
class Cited(Source):
    """A source as the reader sees it, with its byline:
    "Anthropic \u00b7 Official documentation \u00b7 checked 2026-10-02"."""

    byline: str = ""


@dataclass(frozen=True)
class Slide:
    """One slide: which layout it needs, its words, its notes and what it shows."""

    kind: str
    kicker: str
    headline: Text
    notes: str
    table: Table | None = None
    chart: Chart | None = None
    dial: DialView | None = None
    experiment: Experiment | None = None
    footnote: Text = Text("")  # one line set apart at the foot ("Amdahl's law: ...")
    closing: Closing | None = None


@dataclass(frozen=True)
class Closing:
    """The closing slide's words: the takeaway, the pointer to the checklist, the page's
    address for its QR code."""

    takeaway: Text
    pointer: Text
    url: str | None


@dataclass(frozen=True)
class Story:
    meta: Meta
    theme: Theme
    file: str
    marks: Mapping[str, tuple[int, int]]
    speed: str
    speed_mark: str
    slow_speed: str
    cards: tuple[Card, ...]
    dial: DialView
    workload_table: Table
    experiments: tuple[Experiment, ...]
    bottleneck: Bottleneck
    presets_table: Table
    precious: tuple[tuple[str, Text], ...]
    checklist: tuple[tuple[str, Text, str], ...]  # step, detail, write-in label
    sources: tuple[Cited, ...]
    charts: tuple[Chart, ...]  # each distinct chart once: writing_time, bottleneck, ceiling
    slides: tuple[Slide, ...]
    experiments_headline: Text = Text("")  # the headline over the thought experiments

    our_dial: str = ""  # "Our dial: 1,000,000 tokens/sec"
    labels: Labels = Labels()
    event_line: str = ""  # "AI Builders Meetup \u00b7 2026-12-03": the deck's footer
    layouts: tuple[tuple[str, str], ...] = ()  # (slide id, a template layout's name) chosen

    def chart(self, key: str) -> Chart:
        return next(c for c in self.charts if c.key == key)

    def headline(self, kind: str) -> str:
        """The headline of the first slide of `kind`, e.g. for an outline entry."""
        return next(s.headline.text for s in self.slides if s.kind == kind)

    def where(self, origin: str) -> tuple[int, int] | None:
        return self.marks.get(origin)


def _dial_view(content: Content, speed: Fraction, table: Mapping[str, Figure]) -> DialView:
    d = content.dial
    title = fill(content.workload(d.workload).title, table)
    w = content.workload(d.workload)
    fast = dial.writing_time(w.output_tokens, speed)
    slow = dial.writing_time(w.output_tokens, d.slow_speed)
    count = f"{fmt.count(w.count)} {w.noun}"
    return DialView(
        speed=fmt.speed(speed),
        speed_mark=fmt.speed_mark(speed),
        title=title,
        arithmetic=f"{count} {fmt.TIMES} {fmt.tokens(w.tokens_each)} tokens = "
        f"{fmt.tokens(w.output_tokens)} output tokens",
        figure=_k(fmt.duration(fast)),
        sentence=f"{count}: {_k(fmt.duration(fast))} of writing at {_k(fmt.speed(speed))}",
        slow_speed=_k(fmt.speed(d.slow_speed)),
        slow_figure=_k(fmt.duration(slow)),
        at_speed=f"At {_k(fmt.speed(speed))}",
        at_slow_speed=f"At {_k(fmt.speed(d.slow_speed))}",
        slow_note="the same batch, at the slow end of the dial",
        writing_at=f"of writing at {_k(fmt.speed(speed))}",
    )


_k = fmt.keep_together  # a figure never breaks across lines: "2 h 46 min 40 s"


def _keep_figures(rows: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Table rows with every figure cell (all but the first column) kept on one line."""
    return tuple((row[0], *(_k(cell) for cell in row[1:])) for row in rows)


def _speeds_across(low: Fraction, high: Fraction, per_decade: int = 8) -> tuple[Fraction, ...]:
    """Sample speeds from `low` to `high`, evenly spaced on a log scale, for drawing curves."""
    points = []
    k = 0
    while True:
        value = Fraction(round(float(low) * 10 ** (k / per_decade), 3))
        if value >= high:
            break
        points.append(value)
        k += 1
    return tuple(points) + (high,)


def compose(content: Content) -> Story:
    """The whole talk, from content whose prose has already been validated."""
    table = figures(content)
    d = content.dial
    speed, slow = fmt.speed(d.speed), fmt.speed(d.slow_speed)

    def prose(path: str, text: str) -> Text:
        return Text(fill(text, table, keep_together=True), path)

    cards = tuple(
        Card(
            fill(m.label, table),
            fill(m.question, table),
            prose(f"meanings[{i}].text", m.text),
            m.ours,
        )
        for i, m in enumerate(content.meanings)
    )
    dial_view = _dial_view(content, d.speed, table)

    # All four workloads at both ends of the dial.
    rows = tuple(
        (r.label, r.output_tokens.text, r.slow_writing_time.text, r.writing_time.text)
        for r in report.workload_rows(content)
    )
    featured_row = [w.id for w in content.workloads].index(d.workload)
    workload_table = Table(
        ("Workload", "Output tokens", slow, speed),
        _keep_figures(rows),
        ("l", "r", "r", "r"),
        featured_row,
        "Imagined comparisons, not measurements: generated output only.",
    )

    def experiment(i: int, w: Workload) -> Experiment:
        def figure(name: str) -> str:
            return table[f"workload.{w.id}.{name}"].text

        writing_time = _k(figure("writing_time"))
        return Experiment(
            w.id,
            fill(w.title, table),
            f"{figure('count')} {fmt.TIMES} {figure('tokens_each')} = "
            f"{figure('output_tokens')} tokens",
            f"{writing_time} of writing at {_k(speed)}",
            prose(f"workloads[{i}].story", w.story),
            prose(f"workloads[{i}].scarce", w.scarce),
            w.id == d.workload,
            writing_time,
            f"of writing at {_k(speed)}",
            "Featured on the dial" if w.id == d.workload else "",
        )

    experiments = tuple(experiment(i, w) for i, w in enumerate(content.workloads))

    b = batch(content)
    work = content.workload(content.bottleneck.workload)
    cb = content.bottleneck
    ceiling_sentence = (
        prose("bottleneck.ceiling", cb.ceiling)
        if b.ceiling is not None
        else prose("bottleneck.no_ceiling", cb.no_ceiling)
    )
    def bf(name: str) -> str:  # the bottleneck's figures, as the prose names them
        return table[f"bottleneck.{name}"].text

    checking = f"With {bf('fixed_check')} of checking" if b.fixed_check else "With no check"
    speed_num, slow_num = division(d.speed, d.slow_speed)
    writing_how = f"{speed_num} {fmt.DIVIDE} {_k(slow_num + ' tokens/sec')}"
    end_to_end_how = (  # both totals in seconds, at the precision that gives the figure
        f"{bf('slow_total_seconds')} {fmt.DIVIDE} {_k(bf('total_seconds') + ' seconds')}"
    )
    ratio = b.end_to_end_speedup
    faster = ("faster end to end" if ratio > 1 else
              "no faster end to end" if ratio == 1 else f"end to end, slower than at {slow}")
    of_total = "of the faster total" if ratio > 1 else f"of the total at {speed}"
    if b.fixed_check:
        summary = (
            f"{checking}, the batch takes {bf('slow_total')} at {slow} and {bf('total')} at "
            f"{speed}: {bf('end_to_end_speedup')} {faster}, and checking is "
            f"{bf('check_share')} {of_total}."
        )
    else:
        summary = (
            f"{checking}, the batch takes {bf('slow_total')} at {slow} and {bf('total')} at "
            f"{speed}: {bf('writing_speedup')} {faster}, the writing speedup itself."
        )
    labels = Labels()
    share_how = f"of the {_k(bf('total'))} total"
    big = (
        BigFigure("writing_speedup", labels.writing_speedup, bf("writing_speedup"),
                  writing_how, "muted" if b.fixed_check else "accent"),
        BigFigure("end_to_end_speedup", labels.end_to_end_speedup, bf("end_to_end_speedup"),
                  end_to_end_how, "accent"),
        BigFigure("check_share", labels.check_share, bf("check_share"), share_how, "text"),
    )
    bottleneck = Bottleneck(
        setup=prose("bottleneck.setup", cb.setup),
        model=prose("bottleneck.model", cb.model),
        lesson=prose("bottleneck.lesson", cb.lesson),
        check=_k(fmt.check(b.fixed_check)),
        writing_speedup=bf("writing_speedup"),
        writing_speedup_how=writing_how,
        end_to_end_speedup=bf("end_to_end_speedup"),
        end_to_end_how=end_to_end_how,
        slow_total=_k(bf("slow_total")),
        total=_k(bf("total")),
        check_share=bf("check_share"),
        ceiling=bf("ceiling"),
        ceiling_sentence=ceiling_sentence,
        summary=summary,
        has_ceiling=b.ceiling is not None,
        check_share_how=share_how,
        figures=big if b.fixed_check else big[:1],
        has_check=bool(b.fixed_check),
    )

    presets = report.preset_rows(content, with_chosen=True)  # the chosen check among them
    preset_rows = tuple(
        (r.fixed_check.text, r.slow_total.text, r.total.text, r.end_to_end_speedup.text)
        for r in presets
    )
    highlight = next(
        (i for i, r in enumerate(presets) if r.fixed_check.value == d.fixed_check), None
    )
    presets_table = Table(
        ("Fixed check", slow, speed, "End to end"),
        _keep_figures(preset_rows),
        ("l", "r", "r", "r"),
        highlight,
        f"The same {fmt.tokens(work.output_tokens)} tokens "
        f"({fmt.count(work.count)} {work.noun}) with each fixed check.",
    )

    charts: tuple[Chart, ...] = (  # with no check, no slide nor page shows the bars
        _writing_chart(content),
        _bottleneck_chart(content, b),
        _ceiling_chart(content, work.output_tokens),
    )

    precious = tuple(
        (fill(p.name, table), prose(f"precious[{i}].text", p.text))
        for i, p in enumerate(content.precious)
    )
    checklist = tuple(
        (fill(s.step, table), prose(f"checklist[{i}].detail", s.detail), fill(s.write_in, table))
        for i, s in enumerate(content.checklist)
    )
    sources = tuple(
        Cited(**{**vars(s), "supports": fill(s.supports, table)}, byline=_byline(s))
        for s in content.sources
    )
    meta = replace(
        content.meta,
        title=fill(content.meta.title, table),
        subtitle=fill(content.meta.subtitle, table),
    )

    story = Story(
        meta=meta,
        theme=content.theme,
        file=content.file,
        marks=content.marks,
        speed=speed,
        speed_mark=fmt.speed_mark(d.speed),
        slow_speed=slow,
        cards=cards,
        dial=dial_view,
        workload_table=workload_table,
        experiments=experiments,
        bottleneck=bottleneck,
        presets_table=presets_table,
        precious=precious,
        checklist=checklist,
        sources=sources,
        charts=charts,
        our_dial=f"Our dial: {_k(speed)}",
        event_line=" \u00b7 ".join(x for x in (meta.event, meta.date) if x),
        slides=(),
        experiments_headline=_headline(content, "experiments", table),
        layouts=tuple((sid, text.layout) for sid, text in content.slides.items() if text.layout),
    )
    slides = tuple(
        replace(slide, notes=slide.notes.replace(fmt.NBSP, " "))
        for slide in _slides(content, table, story)
    )
    return replace(story, slides=slides)


def _byline(source: Source) -> str:
    """Who published a source, what kind it is and when it was checked."""
    return " \u00b7 ".join((source.publisher, source.kind, f"checked {source.checked}"))


def _notes(content: Content, sid: str, table: Mapping[str, Figure], *extra: str) -> str:
    base = content.slides[sid].notes
    parts = [fill(base, table)] if base else []
    parts.extend(e for e in extra if e)
    return "\n\n".join(parts)


def _headline(content: Content, sid: str, table: Mapping[str, Figure]) -> Text:
    return Text(fill(content.slides[sid].headline, table), f"slides.{sid}.headline")


def _table_notes(t: Table) -> str:
    lines = [" | ".join(t.header)]
    lines += [" | ".join(row) for row in t.rows]
    return "\n".join(lines)


def _slides(
    content: Content, table: Mapping[str, Figure], story: Story
) -> tuple[Slide, ...]:
    dial_view, b, experiments = story.dial, story.bottleneck, story.experiments
    wt, pt = story.workload_table, story.presets_table
    kick = {sid: fill(content.slides[sid].kicker, table) for sid in content.slides}

    def slide(kind: str, *notes: str, **shows: Any) -> Slide:
        """A slide whose kicker, headline, notes and footnote come from `slides.<kind>` in the
        content."""
        said = content.slides[kind]
        foot = Text(fill(said.footnote, table), f"slides.{kind}.footnote") if said.footnote \
            else Text("")
        return Slide(kind, kick[kind], _headline(content, kind, table),
                     _notes(content, kind, table, *notes), footnote=foot, **shows)

    title = Text(fill(content.meta.title, table), "meta.title")
    on_the_dial = (f"On the slide: {dial_view.sentence}. "
                   f"At {dial_view.slow_speed} the same batch takes {dial_view.slow_figure}.")
    slides = [
        Slide("title", kick["title"], title, _notes(content, "title", table)),
        slide("meanings"),
        slide("dial", on_the_dial, dial=dial_view),
    ]
    # The chart gets a slide of its own: under the table it has too little height for a
    # label at every decade at a size the back of the room can read.
    writing = story.chart("writing_time")
    slides += [slide("workloads", _table_notes(wt), table=wt),
               Slide("writing_chart", kick["workloads"], Text(writing.title),
                     writing.alt_text, chart=writing)]
    for i, (w, e) in enumerate(zip(content.workloads, experiments, strict=True)):
        own = fill(w.notes, table) if w.notes else ""
        said = f"{e.arithmetic}, {e.writing}. {story.labels.still_scarce}: {e.scarce.text}"
        notes = "\n\n".join(p for p in (own, said) if p)
        slides.append(Slide("experiment", kick["experiments"],
                            Text(e.title, f"workloads[{i}].title"), notes, experiment=e))
    slides += [
        slide("bottleneck", b.summary,
              chart=story.chart("bottleneck") if b.has_check else None),
        slide("presets", _table_notes(pt), table=pt),
        slide("ceiling", b.ceiling_sentence.text, chart=story.chart("ceiling")),
        slide("precious"),
        slide("checklist"),
        slide("sources"),
    ]
    if "closing" in content.slides:
        end = content.slides["closing"]
        closing = Closing(Text(fill(end.takeaway, table), "slides.closing.takeaway"),
                          Text(fill(end.pointer, table), "slides.closing.pointer")
                          if end.pointer else Text(""), content.meta.url)
        slides.append(slide("closing", closing=closing))
    return tuple(slides)


def walk(content: Content) -> tuple[Slide, ...]:
    """One 'turn the dial' slide per speed mark, for clicking through the dial live."""
    table = figures(content)
    result = []
    for mark in content.dial.speed_marks:
        view = _dial_view(content, mark, table)
        result.append(
            Slide(
                "dial",
                fill(content.slides["dial"].kicker, table),
                _headline(content, "dial", table),
                f"{view.sentence}. At {view.slow_speed} the same batch takes "
                f"{view.slow_figure}.".replace(fmt.NBSP, " "),
                dial=view,
            )
        )
    return tuple(result)


def _decade_below(value: Fraction) -> Fraction:
    """The power of ten at or below `value` (> 0), exactly."""
    power = Fraction(1)
    while power > value:
        power /= 10
    while power * 10 <= value:
        power *= 10
    return power


def _decade_above(value: Fraction) -> Fraction:
    """The power of ten at or above `value` (> 0), exactly."""
    below = _decade_below(value)
    return below if below == value else below * 10


def _decades(low: Fraction, high: Fraction) -> tuple[Fraction, ...]:
    """Every power of ten from `low` to `high` (both powers of ten)."""
    out, value = [], low
    while value <= high:
        out.append(value)
        value *= 10
    return tuple(out)


def _span(values: list[Fraction]) -> tuple[Fraction, Fraction]:
    """Whole decades around `values`, with room above the highest for its label."""
    return _decade_below(min(values)), _decade_below(max(values)) * 10


def _speed_span(d: Dial) -> tuple[Fraction, Fraction]:
    """The speeds a chart across the dial covers: every mark, the slow end and the dial."""
    low = _decade_below(min(d.speed_marks[0], d.slow_speed, d.speed))
    top = max(d.speed_marks[-1], d.slow_speed, d.speed)
    high = _decade_below(top)
    return low, high if high == top else high * 10


def _writing_chart(content: Content) -> LineChart:
    d = content.dial
    low, high = _speed_span(d)
    xs = sorted({low, d.slow_speed, d.speed, high})
    lines = []
    for w in content.workloads:
        points = tuple((s, dial.writing_time(w.output_tokens, s)) for s in xs)
        lines.append(Line(f"{fmt.count(w.count)} {w.noun}", points, w.id == d.workload))
    times = [t for line in lines for _, t in line.points]
    y_low, y_high = _decade_below(min(times)), _decade_above(max(times))
    featured = content.workload(d.workload)
    ours = [w.id for w in content.workloads].index(d.workload)
    at_dial = dial.writing_time(featured.output_tokens, d.speed)
    at_speed = "; ".join(
        f"{line.label}: {fmt.duration(dial.writing_time(w.output_tokens, d.speed))}"
        for line, w in zip(lines, content.workloads, strict=True)
    )
    at_slow = "; ".join(
        f"{line.label}: {fmt.duration(dial.writing_time(w.output_tokens, d.slow_speed))}"
        for line, w in zip(lines, content.workloads, strict=True)
    )
    alt = (
        f"Line chart, both axes logarithmic: writing time in seconds against speed from "
        f"{fmt.speed(low)} to {fmt.speed(high)}, one line per workload. "
        f"At {fmt.speed(d.slow_speed)}: {at_slow}. At the chosen {fmt.speed(d.speed)}, "
        f"marked on the chart: {at_speed}. The featured workload is "
        f"{fmt.count(featured.count)} {featured.noun}."
    )
    return LineChart(
        "writing_time",
        f"Writing time from {fmt.speed_mark(low)} to {fmt.speed_mark(high)} tokens/sec",
        "Speed (tokens/sec, log scale)",
        "Writing time (seconds, log scale)",
        tuple(Tick(v, fmt.speed_mark(v)) for v in _decades(low, high)),
        tuple(Tick(v, f"{fmt.number(v)} s") for v in _decades(y_low, y_high)),
        tuple(lines),
        d.speed,
        f"Our dial: {fmt.speed_mark(d.speed)}",
        alt,
        marks=(Mark(ours, d.speed, at_dial, fmt.duration(at_dial),
                    f"{lines[ours].label} at {fmt.speed_mark(d.speed)}"),),
        x_range=(low, high),
        y_range=(y_low, y_high),
        y_unit="seconds",
    )


def _bottleneck_chart(content: Content, b: dial.Batch) -> BarChart:
    d = content.dial
    bars = (
        Bar(
            f"{fmt.speed(d.slow_speed)}: {fmt.duration(b.slow_total)}",
            (
                Segment("Writing", b.slow_writing_share, fmt.share(b.slow_writing_share)),
                Segment("Fixed check", b.slow_check_share, fmt.share(b.slow_check_share)),
            ),
            False,
        ),
        Bar(
            f"{fmt.speed(d.speed)}: {fmt.duration(b.total)}",
            (
                Segment("Writing", b.writing_share, fmt.share(b.writing_share)),
                Segment("Fixed check", b.check_share, fmt.share(b.check_share)),
            ),
            True,
        ),
    )
    check = f"a fixed check of {fmt.duration(b.fixed_check)}" if b.fixed_check else "no fixed check"
    alt = (
        f"Two horizontal bars, each 100% of its own total, split into writing and {check}. "
        f"At {fmt.speed(d.slow_speed)} the total is "
        f"{fmt.duration(b.slow_total)}: writing {fmt.share(b.slow_writing_share)}, check "
        f"{fmt.share(b.slow_check_share)}. At {fmt.speed(d.speed)} the total is "
        f"{fmt.duration(b.total)}: writing {fmt.share(b.writing_share)}, check "
        f"{fmt.share(b.check_share)}. Writing speedup {fmt.speedup(b.writing_speedup)}, "
        f"end-to-end speedup {fmt.speedup(b.end_to_end_speedup)}."
    )
    return BarChart("bottleneck", "Where each total goes", bars, alt)


def _ceiling_chart(content: Content, output_tokens: int) -> LineChart:
    d = content.dial
    low, high = _speed_span(d)
    speeds = sorted(set(_speeds_across(low, high)) | {d.slow_speed, d.speed})
    checks = list(d.check_presets)
    if d.fixed_check not in checks:  # the chosen check gets its own curve
        at = next((i for i, c in enumerate(checks) if c > d.fixed_check), len(checks))
        checks.insert(at, d.fixed_check)
    lines = []
    described = []
    for check in checks:
        points = tuple(
            (s, dial.end_to_end_speedup(output_tokens, s, d.slow_speed, check)) for s in speeds
        )
        cap = dial.ceiling(output_tokens, d.slow_speed, check)
        at_speed = dial.end_to_end_speedup(output_tokens, d.speed, d.slow_speed, check)
        label = f"Check {fmt.check(check).lower()}"
        lines.append(
            Line(
                label,
                points,
                check == d.fixed_check,
                cap,
                f"ceiling {fmt.speedup(cap)}" if cap is not None else "",
            )
        )
        described.append(
            f"{label}: {fmt.speedup(at_speed)} at {fmt.speed_mark(d.speed)}"
            + (f", ceiling {fmt.speedup(cap)}" if cap is not None else ", no ceiling")
        )
    ours = checks.index(d.fixed_check)
    value = dial.end_to_end_speedup(output_tokens, d.speed, d.slow_speed, d.fixed_check)
    cap = dial.ceiling(output_tokens, d.slow_speed, d.fixed_check)
    ys = [p[1] for line in lines for p in line.points]
    ys += [line.asymptote for line in lines if line.asymptote is not None]
    y_low, y_high = _span(ys)
    under = f", under its ceiling of {fmt.speedup(cap)}" if cap is not None else ""
    alt = (
        f"Line chart, both axes logarithmic: end-to-end speedup against speed from "
        f"{fmt.speed(low)} to {fmt.speed(high)}, one line per fixed check, each flattening "
        f"toward its ceiling. " + "; ".join(described) + ". The chosen check, "
        f"{fmt.check(d.fixed_check).lower()}, is highlighted and our dial is marked at "
        f"{fmt.speed_mark(d.speed)}: {fmt.speedup(value)}{under}."
    )
    return LineChart(
        "ceiling",
        "End-to-end speedup against speed",
        "Speed (tokens/sec, log scale)",
        "End-to-end speedup (log scale)",
        tuple(Tick(v, fmt.speed_mark(v)) for v in _decades(low, high)),
        tuple(Tick(v, fmt.speedup(v)) for v in _decades(y_low, y_high)),
        tuple(lines),
        d.speed,
        f"Our dial: {fmt.speed_mark(d.speed)}",
        alt,
        marks=(Mark(ours, d.speed, value, fmt.speedup(value),
                    f"{lines[ours].label} at {fmt.speed_mark(d.speed)}"),),
        x_range=(low, high),
        y_range=(y_low, y_high),
        y_unit="times",
    )


__all__ = [
    "Story",
    "Slide",
    "Table",
    "LineChart",
    "BarChart",
    "Mark",
    "BigFigure",
    "Chart",
    "Text",
    "compose",
    "walk",
    "Step",
    "Source",
    "Cited",
]
