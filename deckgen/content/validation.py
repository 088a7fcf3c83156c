"""A content file validated as a whole: every section read (sections.py, slides.py) and every
problem raised together, in the order they stand in the file; and the reminders `deckgen check`
gives for a valid file still holding the starter's words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from deckgen.content import Content, Precious, Step
from deckgen.content.sections import (
    read_bottleneck,
    read_dial,
    read_labels,
    read_meanings,
    read_meta,
    read_records,
    read_sources,
    read_theme,
    read_workloads,
)
from deckgen.content.slides import read_slides
from deckgen.content.validator import Validator
from deckgen.errors import InputError, Problem
from deckgen.loader import Tree


def validate(tree: Tree) -> tuple[Content, list[Problem]]:
    """The content model, or an InputError listing every problem; warnings come back too."""
    c = Validator(tree)
    top = c.mapping("", tree.data, ("meta", "meanings", "workloads", "bottleneck", "precious",
                                    "checklist", "sources", "slides"),
                    ("dial", "theme", "page", "labels"))
    if top is None:
        raise InputError(c.problems)

    meta = read_meta(c, top.get("meta"))
    workloads, ids = read_workloads(c, top.get("workloads"))
    dial = read_dial(c, top.get("dial", {}), ids)
    meanings = read_meanings(c, top.get("meanings"))
    bottleneck = read_bottleneck(c, top.get("bottleneck"), ids)
    precious = tuple(read_records(c, "precious", top.get("precious"), 1, 12, ("name", "text"),
                                  (), Precious))
    checklist = tuple(read_records(c, "checklist", top.get("checklist"), 1, 8,
                                   ("step", "detail"), ("write_in",), Step))
    sources = tuple(read_sources(c, top.get("sources")))
    slides, custom, order = read_slides(c, top.get("slides"), _folder(tree.name))
    theme = read_theme(c, top.get("theme", {}))
    labels = read_labels(c, top.get("labels", {}))
    page = c.mapping("page", top.get("page", {}), (), ("notes",)) or {}
    page_notes = bool(c.flag("page.notes", page["notes"])) if "notes" in page else False

    if c.problems:  # in the order they stand in the file
        raise InputError(sorted(c.problems, key=lambda p: (p.line or 0, p.col or 0)))
    assert meta and dial and bottleneck and theme and slides is not None
    content = Content(meta, dial, meanings, tuple(w for w in workloads if w), bottleneck, precious,
                      checklist, sources, slides, theme, tree.name, tree.marks, labels, order,
                      custom, page_notes)
    return content, c.warnings


def _folder(name: str) -> Path:
    """The folder a content file's pictures are named relative to."""
    return Path(name).parent


STARTER_PRESENTER = "Your name here"  # the bundled talk's meta.presenter, to be replaced


def reminders(content: Content) -> list[Problem]:
    """Warnings for what a presenter still has to fill in before the talk: the starter's
    presenter name. Only `deckgen check` gives them; a build of the bundled talk stays quiet."""
    if content.meta.presenter.strip() != STARTER_PRESENTER:
        return []
    where = content.where("meta.presenter")
    return [replace(where, message=f"warning: still the starter text {STARTER_PRESENTER!r}; "
                                   "put the presenter's name here")]
