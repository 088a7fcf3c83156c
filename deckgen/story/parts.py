"""The story's parts: every piece of the talk a renderer reads, renderer-neutral, every figure
already text.

A `Story` holds the talk's slides in order with their notes, and the parts the deck, the
handout and the page lay out: the meaning cards, the dial's big figure, the tables, the
chart models (`LineChart`, `BarChart`) with their alt text, the thought experiments, the
bottleneck's figures, and the sources as the reader sees them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from deckgen.content import Meta, Source, Theme
from deckgen.locale import ENGLISH, Numbers
from deckgen.pictures import Picture


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
    # The talk's language (BCP 47) and the words after a number of seconds on a tick (" s",
    # " Sek."), for a renderer that formats the ticks itself to match `y_ticks`.
    language: str = "en"
    seconds_suffix: str = " s"

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
class BottleneckView:
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
    custom: Custom | None = None  # a slide of the presenter's own: what it shows
    part: tuple[int, int] = (1, 1)  # this slide is part k of n (sources that need two slides)


@dataclass(frozen=True)
class Custom:
    """What a slide of the presenter's own shows: `kind` text (bullets or a paragraph), image
    (a picture with its alt text, caption and credit; `cover` fills its area, cropped evenly)
    or section (a divider: kicker and headline alone). `handout`: the handout shows it too,
    when it fits."""

    kind: str
    bullets: tuple[Text, ...] = ()
    paragraph: Text = Text("")
    picture: Picture | None = None
    alt: str = ""
    caption: Text = Text("")
    credit: Text = Text("")
    cover: bool = False
    handout: bool = False


@dataclass(frozen=True)
class Closing:
    """The closing slide's words: the takeaway, the pointer to the checklist, the page's
    address for its QR code."""

    takeaway: Text
    pointer: Text
    url: str | None


class Piece(NamedTuple):
    """A piece of prose: literal words (`figure` None), or a figure and the name it has in the
    prose ("bottleneck.total"), so that a renderer which turns the dial itself can update it."""

    text: str
    figure: str | None


@dataclass(frozen=True)
class LiveWorkload:
    """One workload as exact counts, for computing its figures at any speed."""

    id: str
    noun: str
    count: int
    each: int  # tokens each
    title: tuple[Piece, ...]  # as written: each figure's piece is its placeholder


@dataclass(frozen=True)
class Live:
    """What a renderer that turns the dial itself (the web page's script) needs to compute
    every figure exactly as the story does, and the content's prose with every figure named.

    `prose` holds every text of the content that may name figures, under its path in the
    content ("meta.title", "meanings[0].text", "slides.dial.notes"), as pieces whose figure
    text is the figure at the dial, kept on one line; an empty text has no pieces. The
    templates (`ceiling`, `no_ceiling`, each workload's `title`) are the prose as written,
    each figure's piece its placeholder, for filling in at another speed or check.
    """

    speed: Fraction
    slow: Fraction
    workload: str  # the featured workload's id
    check: Fraction
    presets: tuple[Fraction, ...]
    speed_marks: tuple[Tick, ...]
    check_marks: tuple[Tick, ...]  # the checks a control for the check marks: none to 1 day
    workloads: tuple[LiveWorkload, ...]
    bottleneck: str  # the bottleneck's workload id
    aggregate: tuple[int, Fraction] | None  # streams and the speed of each, if a meaning has them
    ceiling: tuple[Piece, ...]
    no_ceiling: tuple[Piece, ...]
    prose: Mapping[str, tuple[Piece, ...]]


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
    bottleneck: BottleneckView
    presets_table: Table
    precious: tuple[tuple[str, Text], ...]
    checklist: tuple[tuple[str, Text, str], ...]  # step, detail, write-in label
    sources: tuple[Cited, ...]
    charts: tuple[Chart, ...]  # each distinct chart once: writing_time, bottleneck, ceiling
    slides: tuple[Slide, ...]
    live: Live  # the dial and the prose for a renderer that turns the dial itself
    experiments_headline: Text = Text("")  # the headline over the thought experiments

    our_dial: str = ""  # "Our dial: 1,000,000 tokens/sec"
    labels: Labels = Labels()
    event_line: str = ""  # "AI Builders Meetup \u00b7 2026-12-03": the deck's footer
    layouts: tuple[tuple[str, str], ...] = ()  # (slide id, a template layout's name) chosen
    # The talk's fixed words by name, sentences with {slots} (deckgen.words), and how its
    # language spells numbers: for a renderer that writes them again at another dial.
    words: Mapping[str, str] = field(default_factory=dict)
    numbers: Numbers = ENGLISH
    order: tuple[str, ...] = ()  # the content's slide ids in the talk's order, hidden ones out
    page_notes: bool = False  # the page shows the speaker's notes (page: {notes: true})

    def shown(self, sid: str) -> bool:
        """Whether the talk has slide `sid` (a content id): present and not hidden."""
        return sid in self.order

    def slide(self, sid: str) -> Slide | None:
        """The (first) slide of content id `sid`, if the talk shows it."""
        kind = "experiment" if sid == "experiments" else sid
        return next((s for s in self.slides if s.kind == kind), None)

    def chart(self, key: str) -> Chart:
        return next(c for c in self.charts if c.key == key)

    def headline(self, kind: str) -> str:
        """The headline of the first slide of `kind`, e.g. for an outline entry."""
        return next(s.headline.text for s in self.slides if s.kind == kind)

    def where(self, origin: str) -> tuple[int, int] | None:
        return self.marks.get(origin)
