"""The content model: a whole, valid content file as a tree of frozen dataclasses that the math
and the story read; nothing downstream looks at raw YAML again.

`validation.validate` builds it from the loader's tree (deckgen.loader): `validator.py` collects
every problem with its key path and place, `sections.py` reads each section but the slides,
`slides.py` the slides and their order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from deckgen.errors import Problem
from deckgen.pictures import Picture


@dataclass(frozen=True)
class Meta:
    title: str
    subtitle: str
    presenter: str
    event: str
    date: str
    url: str | None
    language: str
    paper: str
    aspect: str
    slug: str  # names the output files: meta.slug, or made from the title (`slug_of`)
    minutes: int | None = None  # the talk's length, for the notes book's time budget


@dataclass(frozen=True)
class Dial:
    speed: Fraction
    slow_speed: Fraction
    workload: str
    fixed_check: Fraction
    check_presets: tuple[Fraction, ...]
    speed_marks: tuple[Fraction, ...]


@dataclass(frozen=True)
class Meaning:
    id: str
    label: str
    question: str
    text: str
    ours: bool
    streams: int | None
    stream_speed: Fraction | None


@dataclass(frozen=True)
class Workload:
    id: str
    title: str
    noun: str
    count: int
    tokens_each: int
    story: str
    scarce: str
    notes: str

    @property
    def output_tokens(self) -> int:
        return self.count * self.tokens_each


@dataclass(frozen=True)
class Bottleneck:
    workload: str
    setup: str
    model: str
    lesson: str
    ceiling: str
    no_ceiling: str


@dataclass(frozen=True)
class Precious:
    name: str
    text: str


@dataclass(frozen=True)
class Step:
    step: str
    detail: str
    write_in: str


@dataclass(frozen=True)
class Source:
    title: str
    publisher: str
    kind: str
    supports: str
    url: str | None
    checked: str


@dataclass(frozen=True)
class SlideText:
    kicker: str
    headline: str
    notes: str
    footnote: str = ""  # one line set apart at the foot (meanings, bottleneck, ceiling)
    takeaway: str = ""  # the closing slide's one sentence
    pointer: str = ""  # the closing slide's pointer to the handout's checklist
    layout: str = ""  # with --template: the name of the template's layout for this slide
    page_text: str = ""  # what the page says for this slide instead of the speaker's notes


CUSTOM_KINDS = ("text", "image", "section")
FITS = ("contain", "cover")
MAX_BULLETS = 6


@dataclass(frozen=True)
class CustomSlide:
    """A slide of the presenter's own (`slides.<new id>` with a `kind`): a text slide (kicker,
    headline, bullets or a paragraph), a picture, or a section divider."""

    id: str
    kind: str  # one of CUSTOM_KINDS
    kicker: str
    headline: str
    notes: str = ""
    bullets: tuple[str, ...] = ()
    paragraph: str = ""
    picture: Picture | None = None  # read safely at validation (deckgen.pictures)
    image: str = ""  # the picture's path as the content names it
    alt: str = ""
    caption: str = ""
    credit: str = ""
    fit: str = "contain"  # "cover": the picture fills its area, cropped evenly
    layout: str = ""
    handout: bool = False
    page_text: str = ""


@dataclass(frozen=True)
class Theme:
    text: str
    accent: str
    muted: str
    background: str
    rule: str
    heading_font: str
    body_font: str
    fonts_named: bool = False  # the content names theme.fonts: they win over a template's


SLIDE_IDS = ("title", "meanings", "dial", "workloads", "experiments", "bottleneck", "presets",
             "ceiling", "precious", "checklist", "sources")
OPTIONAL_SLIDE_IDS = ("closing",)
# The slides that take more than kicker, headline and notes, and what.
SLIDE_EXTRAS = {"meanings": ("footnote",), "bottleneck": ("footnote",), "ceiling": ("footnote",),
                "closing": ("takeaway", "pointer")}


@dataclass(frozen=True)
class Content:
    """A whole, valid content file, and where each of its values stood."""

    meta: Meta
    dial: Dial
    meanings: tuple[Meaning, ...]
    workloads: tuple[Workload, ...]
    bottleneck: Bottleneck
    precious: tuple[Precious, ...]
    checklist: tuple[Step, ...]
    sources: tuple[Source, ...]
    slides: Mapping[str, SlideText]
    theme: Theme
    file: str
    marks: Mapping[str, tuple[int, int]]
    # The content's own fixed words over its language's catalogue ('labels:' in the file).
    labels: Mapping[str, str] = field(default_factory=dict)
    # The slides in the order they are shown (built-in and custom ids; hidden ones left out),
    # the presenter's own slides, and whether the page shows the speaker's notes.
    order: tuple[str, ...] = ()
    custom: Mapping[str, CustomSlide] = field(default_factory=dict)
    page_notes: bool = False

    def shown(self, sid: str) -> bool:
        """Whether slide `sid` (a content id) is in the talk: present and not hidden."""
        return sid in self.order

    def workload(self, workload_id: str) -> Workload:
        return next(w for w in self.workloads if w.id == workload_id)

    def where(self, path: str) -> Problem:
        """An empty located problem for `path`, to fill with a message."""
        line, col = self.marks.get(path, (None, None))
        return Problem("", self.file, line, col, path)


MAX_SLUG = 60  # characters of meta.slug (or --name): the speed and the check follow it
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
SLUG_RULE = (f"must be 1 to {MAX_SLUG} ASCII letters, digits, '-', '_' or '.', starting with a "
             "letter or digit")


def slug_of(title: str) -> str:
    """A file name from a title: ASCII-folded ('Café' -> 'cafe'), lower case, words joined by
    '-', at most MAX_SLUG characters; 'talk' when nothing is left."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", folded.lower())
    slug = ""
    for word in words:
        joined = f"{slug}-{word}" if slug else word
        if len(joined) > MAX_SLUG:
            break
        slug = joined
    return slug or (words[0][:MAX_SLUG] if words else "talk")


def valid_slug(value: str) -> bool:
    """Whether `value` can name output files (meta.slug, --name): see SLUG_RULE."""
    return len(value) <= MAX_SLUG and _SLUG.fullmatch(value) is not None

