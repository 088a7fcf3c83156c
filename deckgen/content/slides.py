"""The slides section: the built-in slides' words, the presenter's own slides (their pictures
read safely), and the order of them all (`after`, `hidden`)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from deckgen import pictures
from deckgen.content import (
    CUSTOM_KINDS,
    FITS,
    MAX_BULLETS,
    OPTIONAL_SLIDE_IDS,
    SLIDE_EXTRAS,
    SLIDE_IDS,
    CustomSlide,
    SlideText,
)
from deckgen.content.validator import MAX_TEXT, Validator, describe
from deckgen.errors import InputError, Problem

_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
# Slide kinds the story uses inside the talk (a custom slide's id is its kind there).
RESERVED_IDS = ("experiment", "writing_chart", "cover", "page", "custom")
_CUSTOM_KEYS = {
    "text": ("kicker", "bullets", "paragraph", "notes", "layout", "handout", "page_text"),
    "image": ("kicker", "image", "alt", "caption", "credit", "fit", "notes", "layout", "handout",
              "page_text"),
    "section": ("kicker", "notes", "layout", "handout", "page_text"),
}


def read_slides(c: Validator, value: Any, folder: Path
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
        c.problem(path, f"must be the id of the slide this one follows, got {describe(value)}")
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

