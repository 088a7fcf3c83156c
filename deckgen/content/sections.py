"""Each section of the content file but the slides, read and checked: meta, the dial, the
meanings, the workloads, the bottleneck, the precious things, the checklist, the sources, the
labels and the theme."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Any

from deckgen import quantities, words
from deckgen.content import (
    SLUG_RULE,
    Bottleneck,
    Dial,
    Meaning,
    Meta,
    Source,
    Theme,
    Workload,
    slug_of,
    valid_slug,
)
from deckgen.content.validator import T, Validator, describe

_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def read_meta(c: Validator, value: Any) -> Meta | None:
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


def read_dial(c: Validator, value: Any, ids: tuple[str, ...]) -> Dial | None:
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
                                       f"got {describe(workload)}")
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


def read_meanings(c: Validator, value: Any) -> tuple[Meaning, ...]:
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


def read_workloads(c: Validator, value: Any) -> tuple[list[Workload | None], tuple[str, ...]]:
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
                                        f"- or _, got {describe(wid)}")
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


def read_bottleneck(c: Validator, value: Any, ids: tuple[str, ...]) -> Bottleneck | None:
    keys = ("workload", "setup", "model", "lesson", "ceiling", "no_ceiling")
    b = c.mapping("bottleneck", value, keys)
    if b is None:
        return None
    wid = b.get("workload")
    if "workload" in b and (not isinstance(wid, str) or wid not in ids) and ids:
        c.problem("bottleneck.workload", f"must be one of the workload ids {', '.join(ids)}, "
                                         f"got {describe(wid)}")
    texts = [c.text(f"bottleneck.{k}", b.get(k)) if k in b else None for k in keys[1:]]
    if None in texts or not isinstance(wid, str):
        return None
    return Bottleneck(wid, *texts)  # type: ignore[arg-type]


def read_records(c: Validator, name: str, value: Any, least: int, most: int,
                 required: tuple[str, ...], optional: tuple[str, ...],
                 kind: Callable[..., T]) -> list[T]:
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


def read_sources(c: Validator, value: Any) -> list[Source]:
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


def read_labels(c: Validator, value: Any) -> dict[str, str]:
    """The content's own fixed words, by the names of deckgen's catalogue."""
    known = words.english()
    out: dict[str, str] = {}
    if not isinstance(value, dict):
        c.problem("labels", "must be a mapping of word names to words (the names in "
                            f"deckgen/words/en.yaml), got {describe(value)}")
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


def read_theme(c: Validator, value: Any) -> Theme | None:
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
                      f"must be a colour like '#1A1D21', got {describe(colour)}")
            colour = default
        picked[key] = colour.upper()
    fonts = c.mapping("theme.fonts", t.get("fonts", {}), (), ("heading", "body")) or {}
    heading = c.text("theme.fonts.heading", fonts.get("heading", "Arial"), 100) or "Arial"
    body = c.text("theme.fonts.body", fonts.get("body", "Arial"), 100) or "Arial"
    return Theme(**picked, heading_font=heading, body_font=body, fonts_named=bool(fonts))
