"""The sources: each source's title, byline (publisher, kind, when checked) and site (linked to
the page), and what it supports, as a two-column table or a list, one source to a row. The
handout has it all; the slide drops, in turn, the sites, the bylines beyond the publisher and
the bylines, never what a source supports: sources that do not fit one slide continue on the
next."""

from __future__ import annotations

import re
from functools import partial

from deckgen import story as st
from deckgen.box import Box, inch
from deckgen.plan.items import TIGHT, Item, Para, Run
from deckgen.plan.kinds.context import Arrangement, Context
from deckgen.plan.kinds.tables import Cells, table_item
from deckgen.typeset.fit import Misfit

Size = tuple[float, ...]


def arrangements(c: Context, s: st.Slide, frame: Box) -> list[Arrangement]:
    """What each source supports goes before its byline; a source is never named without
    it (the sources continue on another slide instead: arrange.continued). A slide that
    is part k of n shows its share of the sources."""
    shown = share(c.story.sources, s.part)
    size = (c.t.table,)
    one = partial(table, c, frame, size, shown)
    rows = partial(listed, c, frame, size, shown)
    brief = partial(briefly, c, frame, size, shown)
    return [one, rows, lambda: one(False), lambda: rows(False),
            lambda: rows(True, False), lambda: rows(False, False),
            brief, lambda: brief(True, True), lambda: brief(False),
            lambda: brief(False, True)]


Shown = list[tuple[int, st.Cited]]


def share(sources: tuple[st.Cited, ...], part: tuple[int, int]) -> Shown:
    """Part k of n of the sources (with their places in the content), as even as may be."""
    k, n = part
    count = len(sources)
    start, end = (k - 1) * count // n, k * count // n
    return list(enumerate(sources))[start:end]


def who(i: int, src: st.Cited, size: Size, lead: tuple[Run, ...] = (), site: bool = True,
        byline: bool = True) -> Para:
    """The source's byline (or its publisher alone) and its site, after `lead`."""
    runs = lead + (Run(src.byline if byline else src.publisher, "muted", bold=False),)
    if src.url and site:
        runs += (Run(" \u00b7 ", "muted", bold=False),
                 Run(_site(src.url), "accent", src.url, bold=False))
    return Para("".join(r.text for r in runs), size, bold=bool(lead), line=TIGHT,
                runs=runs, field="source publisher", origin=f"sources[{i}].publisher")


def what(i: int, src: st.Cited, size: Size, before: float = 0.0) -> Para:
    return Para(src.supports, size, line=TIGHT, field="what the source supports",
                origin=f"sources[{i}].supports", before=before)


def table(c: Context, frame: Box, size: Size, shown: Shown,
          site: bool = True) -> list[Item] | Misfit:
    """A header row, then each source's title and byline beside what it supports."""
    labels = c.story.labels
    rows: Cells = [[[Para(labels.source, size, bold=True, line=TIGHT)],
                    [Para(labels.supports, size, bold=True, line=TIGHT)]]]
    for i, src in shown:
        rows.append([[Para(src.title, size, bold=True, line=TIGHT, field="source title",
                           origin=f"sources[{i}].title"), who(i, src, size, site=site)],
                     [what(i, src, size)]])
    found = table_item(c.faces, frame, rows, None, name="Sources table")
    return found if isinstance(found, Misfit) else [found]


def listed(c: Context, frame: Box, size: Size, shown: Shown, site: bool = True,
           byline: bool = True, supports: bool = True) -> list[Item] | Misfit:
    """Each source's title leading its byline, what it supports under them."""
    rows: Cells = [[[who(i, src, size, (Run(src.title, "text", bold=True),
                                        Run(" \u2014 ", "muted", bold=False)), site, byline),
                     *([what(i, src, size, before=2)] if supports else [])]]
                   for i, src in shown]
    found = table_item(c.faces, frame, rows, None, name="Sources list", header=False)
    return found if isinstance(found, Misfit) else [found]


def briefly(c: Context, frame: Box, size: Size, shown: Shown, site: bool = True,
            tight: bool = False) -> list[Item] | Misfit:
    """Each source's title, then what it supports in the same paragraph (the byline left to
    the handout), then its site; `tight`, the rows closer together."""
    rows: Cells = []
    for i, src in shown:
        runs: tuple[Run, ...] = (Run(src.title, "text", bold=True),
                                 Run(" \u2014 ", "muted", bold=False),
                                 Run(src.supports, "text", bold=False))
        if src.url and site:
            runs += (Run(" \u00b7 ", "muted", bold=False),
                     Run(_site(src.url), "accent", src.url, bold=False))
        rows.append([[Para("".join(r.text for r in runs), size, bold=True, line=TIGHT,
                           runs=runs, field="what the source supports",
                           origin=f"sources[{i}].supports")]])
    margin = (inch(0.1), inch(0.02 if tight else 0.045))
    found = table_item(c.faces, frame, rows, None, name="Sources list", header=False,
                       margin=margin)
    return found if isinstance(found, Misfit) else [found]


def _site(url: str) -> str:
    """'https://www.example.org/a/b' -> 'example.org'."""
    return re.sub(r"^[a-z]+://(www\.)?", "", url).split("/")[0]
