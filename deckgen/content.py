"""The content model, and the validator that builds it from a parsed content file.

Validation collects every problem with its key path and place, then raises them together.
The result is a tree of frozen dataclasses that the math and the story read; nothing
downstream looks at raw YAML again.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from deckgen import pictures, quantities, words
from deckgen.errors import InputError, Problem
from deckgen.loader import Tree
from deckgen.pictures import Picture

T = TypeVar("T")

MAX_TEXT = 20_000  # characters in one prose field


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


STARTER_PRESENTER = "Your name here"  # the bundled talk's meta.presenter, to be replaced


def reminders(content: Content) -> list[Problem]:
    """Warnings for what a presenter still has to fill in before the talk: the starter's
    presenter name. Only `deckgen check` gives them; a build of the bundled talk stays quiet."""
    if content.meta.presenter.strip() != STARTER_PRESENTER:
        return []
    where = content.where("meta.presenter")
    return [replace(where, message=f"warning: still the starter text {STARTER_PRESENTER!r}; "
                                   "put the presenter's name here")]


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = str(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return repr(text) if isinstance(value, str) else text


class Validator:
    """Collects located problems while it reads a Tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        # The loader's problems that left the tree readable (a duplicate key, a refused tag)
        # come first, so one run reports every problem; their paths are not reported again.
        self.problems: list[Problem] = list(tree.problems)
        self.warnings: list[Problem] = []
        self.missing: set[str] = set()  # paths already reported missing: one line each is enough
        self.refused = tuple(p.path for p in tree.problems if p.path)
        self.language = "en"  # meta.language, once read: numbers are read the way it writes them

    def _problem(self, path: str, message: str, key: bool = False,
                 into: list[Problem] | None = None) -> None:
        line, col = self.tree.where(path, key) or (None, None)
        (self.problems if into is None else into).append(
            Problem(message, self.tree.name, line, col, path or None))

    def problem(self, path: str, message: str, key: bool = False) -> None:
        if path not in self.missing and not self._inside_refused(path):
            self._problem(path, message, key)

    def _inside_refused(self, path: str) -> bool:
        """Whether the loader already reported this value, or a value inside it."""
        return any(r == path or (path and r.startswith((path + ".", path + "[")))
                   or path.startswith((r + ".", r + "[")) for r in self.refused)

    def warn(self, path: str, message: str) -> None:
        self._problem(path, "warning: " + message, into=self.warnings)

    def mapping(self, path: str, value: Any, required: tuple[str, ...],
                optional: tuple[str, ...] = ()) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            what = "must be a mapping" if path else "the file must be a mapping of sections"
            self.problem(path, f"{what} with keys {', '.join(required + optional)}, "
                               f"got {_describe(value)}")
            return None
        allowed = required + optional
        for key in value:
            if key not in allowed:
                guess = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f"did you mean '{guess[0]}'? " if guess else ""
                self.problem(_join(path, key), f"unknown key '{key}'; {hint}"
                                               f"allowed: {', '.join(allowed)}", key=True)
        for key in required:
            if key not in value:
                what = "field" if path else "section"
                self.problem(_join(path, key), f"required {what} is missing")
                self.missing.add(_join(path, key))
        return value

    def field(self, path: str, value: Any, parse: Callable[[str, Any], T | None]) -> T | None:
        return parse(path, value)

    def text(self, path: str, value: Any, limit: int = MAX_TEXT) -> str | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.problem(path, f"must be text, got {_describe(value)}")
            return None
        value = " ".join(value.split())
        if not value:
            self.problem(path, "must be text, got an empty string")
            return None
        if len(value) > limit:
            self.problem(path, f"is {len(value):,} characters long; at most {limit:,} are allowed")
            return None
        return str(value)

    def choice(self, path: str, value: Any, allowed: tuple[str, ...]) -> str | None:
        if not isinstance(value, str) or value not in allowed:
            self.problem(path, f"must be one of {', '.join(allowed)}, got {_describe(value)}")
            return None
        return value

    def flag(self, path: str, value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, got {_describe(value)}")
            return None
        return value

    def quantity(self, path: str, value: Any, parse: Callable[[Any, str], T]) -> T | None:
        """A number read by `parse`, as written in the talk's language."""
        try:
            if path in self.tree.written:
                quantities.check_unambiguous(self.tree.written[path])
            return parse(value, self.language)
        except quantities.Ambiguous as err:
            self.problem(path, str(err))
            return None
        except ValueError as err:
            self.problem(path, f"{err}, got {_describe(value)}")
            return None

    def items(self, path: str, value: Any, least: int, most: int) -> list[Any]:
        if not isinstance(value, list):
            self.problem(path, f"must be a list of {least} to {most} entries, "
                               f"got {_describe(value)}")
            return []
        if not least <= len(value) <= most:
            self.problem(path, f"must have {least} to {most} entries, got {len(value)}")
        return value[:most]


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _get(section: dict[str, Any] | None, key: str, default: Any = None) -> Any:
    return section.get(key, default) if section else default


_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def validate(tree: Tree) -> tuple[Content, list[Problem]]:
    """The content model, or an InputError listing every problem; warnings come back too."""
    c = Validator(tree)
    top = c.mapping("", tree.data, ("meta", "meanings", "workloads", "bottleneck", "precious",
                                    "checklist", "sources", "slides"),
                    ("dial", "theme", "page", "labels"))
    if top is None:
        raise InputError(c.problems)

    meta = _meta(c, top.get("meta"))
    workloads, ids = _workloads(c, top.get("workloads"))
    dial = _dial(c, top.get("dial", {}), ids)
    meanings = _meanings(c, top.get("meanings"))
    bottleneck = _bottleneck(c, top.get("bottleneck"), ids)
    precious = tuple(_records(c, "precious", top.get("precious"), 1, 12, ("name", "text"), (),
                              Precious))
    checklist = tuple(_records(c, "checklist", top.get("checklist"), 1, 8, ("step", "detail"),
                               ("write_in",), Step))
    sources = tuple(_sources(c, top.get("sources")))
    slides, custom, order = _slides(c, top.get("slides"), _folder(tree.name))
    theme = _theme(c, top.get("theme", {}))
    labels = _labels(c, top.get("labels", {}))
    page = c.mapping("page", top.get("page", {}), (), ("notes",)) or {}
    page_notes = bool(c.flag("page.notes", page["notes"])) if "notes" in page else False

    if c.problems:  # in the order they stand in the file
        raise InputError(sorted(c.problems, key=lambda p: (p.line or 0, p.col or 0)))
    assert meta and dial and bottleneck and theme and slides is not None
    content = Content(meta, dial, meanings, tuple(w for w in workloads if w), bottleneck, precious,
                      checklist, sources, slides, theme, tree.name, tree.marks, labels, order,
                      custom, page_notes)
    return content, c.warnings


def _meta(c: Validator, value: Any) -> Meta | None:
    m = c.mapping("meta", value, ("title", "presenter", "event", "date"),
                  ("subtitle", "url", "language", "paper", "aspect", "slug", "minutes"))
    if m is None:
        return None
    title = c.text("meta.title", m.get("title"), 400) if "title" in m else None
    subtitle = c.text("meta.subtitle", m["subtitle"], 400) if "subtitle" in m else ""
    presenter = c.text("meta.presenter", m.get("presenter"), 200) if "presenter" in m else None
    event = c.text("meta.event", m.get("event"), 200) if "event" in m else None
    date = c.text("meta.date", m.get("date"), 100) if "date" in m else None
    url = None
    if m.get("url") is not None:
        url = c.text("meta.url", m["url"], 500)
        if url and not re.match(r"^https?://\S+$", url):
            c.problem("meta.url", "must be a web address starting with https:// or http://, "
                                  f"got {url!r}")
    language = c.text("meta.language", m.get("language", "en"), 20) or "en"
    if language != "en" and not re.fullmatch(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*", language):
        c.problem("meta.language", f"must be a language tag such as en, de, fr-CA or ja, "
                                   f"got {language!r}")
        language = "en"
    c.language = language
    if not words.has_catalogue(language):
        from deckgen import locale

        numbers = (f"numbers are written as {language} writes them" if locale.known(language)
                   else f"numbers stay English too, since {language!r} is no language deckgen "
                        "knows")
        c.warn("meta.language", f"deckgen has no words for {language!r} (it has "
                                f"{', '.join(words.languages())}): the fixed words stay "
                                f"English; {numbers}; give your own under labels:")
    paper = c.choice("meta.paper", m.get("paper", "a4"), ("a4", "letter")) or "a4"
    aspect = c.choice("meta.aspect", m.get("aspect", "16:9"), ("16:9", "4:3")) or "16:9"
    slug = None
    if m.get("slug") is not None:
        slug = c.text("meta.slug", m["slug"], 200)
        if slug is not None and not valid_slug(slug):
            c.problem("meta.slug", f"{SLUG_RULE}, got {slug!r}")
    minutes = None
    if m.get("minutes") is not None:
        given = m["minutes"]
        if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= 600:
            c.problem("meta.minutes", "must be the talk's length in whole minutes, 1 to 600, "
                                      f"got {given!r}")
        else:
            minutes = given
    if title is None or presenter is None or event is None or date is None or subtitle is None:
        return None
    return Meta(title, subtitle, presenter, event, date, url, language, paper, aspect,
                slug or slug_of(title), minutes)


def _count(value: Any, language: str) -> int:
    return quantities.parse_count(value, language=language)


DEFAULT_PRESETS = (0, 60, 900, 86400)
DEFAULT_MARKS = (100, 1000, 10_000, 100_000, 1_000_000)


def _dial(c: Validator, value: Any, ids: tuple[str, ...]) -> Dial | None:
    d = c.mapping("dial", value, (), ("speed", "slow_speed", "workload", "fixed_check",
                                      "check_presets", "speed_marks"))
    if d is None:
        return None
    speed = c.quantity("dial.speed", d.get("speed", 1_000_000), quantities.parse_speed)
    slow = c.quantity("dial.slow_speed", d.get("slow_speed", 100), quantities.parse_speed)
    workload = d.get("workload", ids[0] if ids else None)  # the first workload by default
    if not isinstance(workload, str) or workload not in ids:
        if ids:
            c.problem("dial.workload", f"must be one of the workload ids {', '.join(ids)}, "
                                       f"got {_describe(workload)}")
    check = c.quantity("dial.fixed_check", d.get("fixed_check", 60), quantities.parse_duration)
    given_presets = d.get("check_presets", list(DEFAULT_PRESETS))
    presets = tuple(c.quantity(f"dial.check_presets[{i}]", v, quantities.parse_duration)
                    for i, v in enumerate(c.items("dial.check_presets", given_presets, 1, 6)))
    marks = tuple(c.quantity(f"dial.speed_marks[{i}]", v, quantities.parse_speed)
                  for i, v in enumerate(c.items("dial.speed_marks",
                                                d.get("speed_marks", list(DEFAULT_MARKS)), 2, 8)))
    if speed is None or slow is None or check is None or None in presets or None in marks:
        return None
    sure_presets = tuple(p for p in presets if p is not None)
    sure_marks = tuple(m for m in marks if m is not None)
    # A speed below the slow speed is allowed: its speedups read as a slowdown ("0.37×").
    if list(sure_marks) != sorted(set(sure_marks)):
        c.problem("dial.speed_marks", "must be distinct speeds in rising order")
    if not isinstance(workload, str):
        return None  # reported above, or there is no well-formed workload to default to
    return Dial(speed, slow, workload, check, sure_presets, sure_marks)


def _meanings(c: Validator, value: Any) -> tuple[Meaning, ...]:
    result = []
    for i, item in enumerate(c.items("meanings", value, 1, 6)):
        path = f"meanings[{i}]"
        m = c.mapping(path, item, ("id", "label", "question", "text"),
                      ("ours", "streams", "stream_speed"))
        if m is None:
            continue
        fields = [c.text(f"{path}.{k}", m.get(k), 300 if k != "text" else 2000)
                  for k in ("id", "label", "question", "text") if k in m]
        ours = c.flag(f"{path}.ours", m["ours"]) if "ours" in m else False
        streams = (c.quantity(f"{path}.streams", m["streams"], _count)
                   if "streams" in m else None)
        stream_speed = (c.quantity(f"{path}.stream_speed", m["stream_speed"],
                                   quantities.parse_speed)
                        if "stream_speed" in m else None)
        if ("streams" in m) != ("stream_speed" in m):
            c.problem(path, "streams and stream_speed go together: give both or neither")
        if len(fields) == 4 and None not in fields and ours is not None:
            result.append(Meaning(*fields, ours, streams, stream_speed))  # type: ignore[arg-type, call-arg]
    if sum(1 for m in result if m.streams is not None) > 1:
        c.problem("meanings", "only one meaning can carry the aggregate example (streams)")
    return tuple(result)


def _workloads(c: Validator, value: Any) -> tuple[list[Workload | None], tuple[str, ...]]:
    """The workloads, and every well-formed id among them (even of a workload with other faults)."""
    result: list[Workload | None] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(c.items("workloads", value, 1, 8)):
        path = f"workloads[{i}]"
        w = c.mapping(path, item,
                      ("id", "title", "noun", "count", "tokens_each", "story", "scarce"),
                      ("notes",))
        if w is None:
            result.append(None)
            continue
        wid = w.get("id")
        if "id" in w:
            if not isinstance(wid, str) or not re.match(r"^[a-z][a-z0-9_-]{0,39}$", wid):
                c.problem(f"{path}.id", "must be a short name of lower-case letters, digits, "
                                        f"- or _, got {_describe(wid)}")
                wid = None
            elif wid in seen:
                c.problem(f"{path}.id",
                          f"duplicate workload id '{wid}' (also workloads[{seen[wid]}])")
            else:
                seen[wid] = i
        title = c.text(f"{path}.title", w.get("title"), 300) if "title" in w else None
        noun = c.text(f"{path}.noun", w.get("noun"), 100) if "noun" in w else None
        count = (c.quantity(f"{path}.count", w.get("count"), _count)
                 if "count" in w else None)
        each = (c.quantity(f"{path}.tokens_each", w.get("tokens_each"),
                           lambda v, lang: quantities.parse_count(
                               v, quantities.MAX_TOKENS_EACH, lang))
                if "tokens_each" in w else None)
        story = c.text(f"{path}.story", w.get("story")) if "story" in w else None
        scarce = c.text(f"{path}.scarce", w.get("scarce"), 1000) if "scarce" in w else None
        notes = c.text(f"{path}.notes", w["notes"]) if "notes" in w else ""
        parts = (wid, title, noun, count, each, story, scarce, notes)
        result.append(Workload(*parts) if None not in parts else None)  # type: ignore[arg-type]
    return result, tuple(seen)


def _bottleneck(c: Validator, value: Any, ids: tuple[str, ...]) -> Bottleneck | None:
    keys = ("workload", "setup", "model", "lesson", "ceiling", "no_ceiling")
    b = c.mapping("bottleneck", value, keys)
    if b is None:
        return None
    wid = b.get("workload")
    if "workload" in b and (not isinstance(wid, str) or wid not in ids) and ids:
        c.problem("bottleneck.workload", f"must be one of the workload ids {', '.join(ids)}, "
                                         f"got {_describe(wid)}")
    texts = [c.text(f"bottleneck.{k}", b.get(k)) if k in b else None for k in keys[1:]]
    if None in texts or not isinstance(wid, str):
        return None
    return Bottleneck(wid, *texts)  # type: ignore[arg-type]


def _records(c: Validator, name: str, value: Any, least: int, most: int, required: tuple[str, ...],
             optional: tuple[str, ...], kind: Callable[..., T]) -> list[T]:
    result = []
    for i, item in enumerate(c.items(name, value, least, most)):
        path = f"{name}[{i}]"
        r = c.mapping(path, item, required, optional)
        if r is None:
            continue
        fields = [c.text(f"{path}.{k}", r[k], 2000) if k in r else ("" if k in optional else None)
                  for k in required + optional]
        if None not in fields:
            result.append(kind(*fields))
    return result


def _sources(c: Validator, value: Any) -> list[Source]:
    result = []
    for i, item in enumerate(c.items("sources", value, 1, 12)):
        path = f"sources[{i}]"
        s = c.mapping(path, item, ("title", "publisher", "kind", "supports", "checked"), ("url",))
        if s is None:
            continue
        fields = [c.text(f"{path}.{k}", s.get(k), 1000) if k in s else None
                  for k in ("title", "publisher", "kind", "supports")]
        url = c.text(f"{path}.url", s["url"], 500) if s.get("url") is not None else None
        if url and not re.match(r"^https?://\S+$", url):
            c.problem(f"{path}.url", "must be a web address starting with https:// or http://, "
                                     f"got {url!r}")
            url = None
        checked = c.text(f"{path}.checked", s.get("checked"), 100) if "checked" in s else None
        if None not in fields and checked is not None:
            result.append(Source(*fields, url, checked))  # type: ignore[arg-type, call-arg]
    return result


_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
# Slide kinds the story uses inside the talk (a custom slide's id is its kind there).
RESERVED_IDS = ("experiment", "writing_chart", "cover", "page", "custom")
_CUSTOM_KEYS = {
    "text": ("kicker", "bullets", "paragraph", "notes", "layout", "handout", "page_text"),
    "image": ("kicker", "image", "alt", "caption", "credit", "fit", "notes", "layout", "handout",
              "page_text"),
    "section": ("kicker", "notes", "layout", "handout", "page_text"),
}


def _folder(name: str) -> Path:
    """The folder a content file's pictures are named relative to."""
    return Path(name).parent


def _slides(c: Validator, value: Any, folder: Path
            ) -> tuple[dict[str, SlideText] | None, dict[str, CustomSlide], tuple[str, ...]]:
    """The built-in slides' words, the presenter's own slides, and the order of all of them."""
    if not isinstance(value, dict):
        c.mapping("slides", value, SLIDE_IDS, OPTIONAL_SLIDE_IDS)
        return None, {}, ()
    for sid in SLIDE_IDS:
        if sid not in value:
            c.problem(f"slides.{sid}", "required field is missing")
            c.missing.add(f"slides.{sid}")
    result: dict[str, SlideText] = {}
    custom: dict[str, CustomSlide] = {}
    hidden: set[str] = set()
    after: dict[str, str] = {}
    for sid in SLIDE_IDS + OPTIONAL_SLIDE_IDS:
        if sid not in value:
            continue
        path = f"slides.{sid}"
        given = value[sid]
        hide = isinstance(given, dict) and given.get("hidden") is True
        needed: tuple[str, ...] = ("notes",) if sid == "title" else ("kicker", "headline")
        extra: tuple[str, ...] = ("kicker", "headline") if sid == "title" else ("notes",)
        if sid == "closing":
            needed += ("takeaway",)
            extra += ("pointer",)
        else:
            extra += SLIDE_EXTRAS.get(sid, ())
        extra += ("layout", "page_text")
        if sid != "title":
            extra += ("hidden", "after")
        if hide:  # a slide left out needs none of its words
            needed, extra = (), needed + extra
        t = c.mapping(path, given, needed, extra)
        if t is None:
            continue
        if sid == "title" and "hidden" in t:
            c.problem(f"{path}.hidden", "the title slide cannot be hidden; every other slide "
                                        "can", key=True)
        if "hidden" in t and sid != "title" and c.flag(f"{path}.hidden", t["hidden"]):
            hidden.add(sid)
        if "after" in t:
            target = _after(c, f"{path}.after", t["after"])
            if target is not None:
                after[sid] = target
        keys = ("kicker", "headline", "notes", "footnote", "takeaway", "pointer", "layout",
                "page_text")
        fields = [c.text(f"{path}.{k}", t[k], 400 if k not in ("notes", "page_text")
                         else MAX_TEXT) if k in t else "" for k in keys]
        if None not in fields:
            result[sid] = SlideText(*fields)  # type: ignore[arg-type]
    builtin = SLIDE_IDS + OPTIONAL_SLIDE_IDS
    for sid, given in value.items():
        if sid in builtin:
            continue
        made = _custom(c, str(sid), given, folder, after)
        if made is not None:
            custom[made.id] = made
    known = [s for s in builtin if s in value] + [s for s in value if s not in builtin]
    for sid, target in list(after.items()):
        if target not in known:
            guess = difflib.get_close_matches(target, known, n=1)
            hint = f"did you mean '{guess[0]}'? " if guess else ""
            c.problem(f"slides.{sid}.after", f"'{target}' is not a slide of this talk; {hint}"
                                             f"slides: {', '.join(known)}")
            del after[sid]
    order = _order([s for s in builtin if s in value], [s for s in value if s not in builtin],
                   after, c)
    return result, custom, tuple(s for s in order if s not in hidden)


def _after(c: Validator, path: str, value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        c.problem(path, f"must be the id of the slide this one follows, got {_describe(value)}")
        return None
    return value


def _order(builtin: list[str], own: list[str], after: dict[str, str],
           c: Validator) -> list[str]:
    """Every slide in order: the built-in ones in the talk's order, each followed by the
    slides that say they come `after` it (in the order the file lists them); a custom slide
    with no `after` comes at the end. Slides that follow each other in a circle are a
    located problem each."""
    followers: dict[str, list[str]] = {}
    for sid in builtin + own:
        if sid in after:
            followers.setdefault(after[sid], []).append(sid)
    roots = [s for s in builtin if s not in after] + [s for s in own if s not in after]
    order: list[str] = []

    def visit(sid: str) -> None:
        order.append(sid)
        for follower in followers.get(sid, []):
            visit(follower)

    for sid in roots:
        visit(sid)
    for sid in builtin + own:
        if sid not in order and sid in after:
            chain = [sid]
            while after.get(chain[-1]) not in (None, *chain):
                chain.append(after[chain[-1]])
            c.problem(f"slides.{sid}.after", f"'{sid}' follows '{after[sid]}', which comes "
                                             "after it again: the slides "
                                             f"{', '.join(sorted(set(chain)))} follow each "
                                             "other in a circle; let one follow a slide "
                                             "outside it")
    return order


def _custom(c: Validator, sid: str, given: Any, folder: Path,
            after: dict[str, str]) -> CustomSlide | None:
    """One slide of the presenter's own, its picture read (deckgen.pictures) when it has one."""
    path = f"slides.{sid}"
    builtin = SLIDE_IDS + OPTIONAL_SLIDE_IDS
    if not isinstance(given, dict) or "kind" not in given:
        guess = difflib.get_close_matches(sid, builtin, n=1)
        hint = f"did you mean '{guess[0]}'? " if guess else ""
        c.problem(path, f"'{sid}' is not a built-in slide; {hint}a slide of your own needs "
                        f"kind: {', '.join(CUSTOM_KINDS)} (built-in: {', '.join(builtin)})",
                  key=True)
        return None
    if not _ID.match(sid) or sid in RESERVED_IDS:
        c.problem(path, "a slide's id must be a short name of lower-case letters, digits, - "
                        f"or _ (not {', '.join(RESERVED_IDS)}), got {sid!r}", key=True)
        return None
    kind = c.choice(f"{path}.kind", given["kind"], CUSTOM_KINDS)
    if kind is None:
        return None
    needed = ("kind", "headline", "after") + (("image", "alt") if kind == "image" else ())
    optional = tuple(k for k in _CUSTOM_KEYS[kind] if k not in needed)
    t = c.mapping(path, given, needed, optional)
    if t is None:
        return None
    if "after" in t:
        target = _after(c, f"{path}.after", t["after"])
        if target is not None:
            after[sid] = target
    texts = {k: (c.text(f"{path}.{k}", t[k], 400 if k in ("kicker", "headline", "layout")
                        else 1000 if k in ("alt", "caption", "credit") else MAX_TEXT)
                 if k in t else "")
             for k in ("kicker", "headline", "notes", "paragraph", "alt", "caption", "credit",
                       "layout", "page_text")}
    bullets: list[str | None] = []
    if kind == "text":
        if ("bullets" in t) == ("paragraph" in t):
            c.problem(path, "a text slide takes bullets or a paragraph: give one of them")
        if "bullets" in t:
            bullets = [c.text(f"{path}.bullets[{i}]", b, 400)
                       for i, b in enumerate(c.items(f"{path}.bullets", t["bullets"], 1,
                                                     MAX_BULLETS))]
    fit = c.choice(f"{path}.fit", t.get("fit", "contain"), FITS) if kind == "image" else ""
    handout = c.flag(f"{path}.handout", t["handout"]) if "handout" in t else False
    picture = None
    image = ""
    if kind == "image" and "image" in t:
        image = c.text(f"{path}.image", t["image"], 500) or ""
        if image:
            where = c.tree.where(f"{path}.image") or (None, None)
            try:
                picture = pictures.read(folder / image,
                                        Problem("", c.tree.name, where[0], where[1],
                                                f"{path}.image"))
            except InputError as err:
                c.problems.extend(err.problems)
    if None in texts.values() or None in bullets or fit is None or handout is None:
        return None
    if kind == "image" and picture is None:
        return None
    return CustomSlide(sid, kind, texts["kicker"] or "", texts["headline"] or "",
                       texts["notes"] or "", tuple(b for b in bullets if b),
                       texts["paragraph"] or "", picture, image, texts["alt"] or "",
                       texts["caption"] or "", texts["credit"] or "", fit or "contain",
                       texts["layout"] or "", handout, texts["page_text"] or "")


def _labels(c: Validator, value: Any) -> dict[str, str]:
    """The content's own fixed words, by the names of deckgen's catalogue."""
    known = words.english()
    out: dict[str, str] = {}
    if not isinstance(value, dict):
        c.problem("labels", "must be a mapping of word names to words (the names in "
                            f"deckgen/words/en.yaml), got {_describe(value)}")
        return out
    for key, said in value.items():
        path = f"labels.{key}"
        if key not in known:
            guess = difflib.get_close_matches(str(key), list(known), n=1)
            hint = f"did you mean '{guess[0]}'? " if guess else ""
            c.problem(path, f"unknown label '{key}'; {hint}the labels are the names in "
                            "deckgen/words/en.yaml", key=True)
            continue
        text = c.text(path, said, 2000)
        if text is None:
            continue
        allowed = words.slots(known[key])
        extra = sorted(words.slots(text) - allowed)
        if extra:
            may = ", ".join("{" + n + "}" for n in sorted(allowed)) or "no {name} at all"
            c.problem(path, f"names {', '.join('{' + n + '}' for n in extra)}, which this "
                            f"label does not have; it may name {may}")
            continue
        out[str(key)] = text
    return out


def _theme(c: Validator, value: Any) -> Theme | None:
    t = c.mapping("theme", value, (), ("colours", "fonts"))
    if t is None:
        return None
    defaults = {"text": "#1A1D21", "accent": "#7A2800", "muted": "#6E7781",
                "background": "#FFFFFF", "rule": "#9AA3AD"}
    colours = c.mapping("theme.colours", t.get("colours", {}), (), tuple(defaults)) or {}
    picked = {}
    for key, default in defaults.items():
        colour = colours.get(key, default)
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            c.problem(f"theme.colours.{key}",
                      f"must be a colour like '#1A1D21', got {_describe(colour)}")
            colour = default
        picked[key] = colour.upper()
    fonts = c.mapping("theme.fonts", t.get("fonts", {}), (), ("heading", "body")) or {}
    heading = c.text("theme.fonts.heading", fonts.get("heading", "Arial"), 100) or "Arial"
    body = c.text("theme.fonts.body", fonts.get("body", "Arial"), 100) or "Arial"
    return Theme(**picked, heading_font=heading, body_font=body, fonts_named=bool(fonts))
