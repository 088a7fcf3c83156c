"""Sharing a table's width between its columns: one search, for the deck and the handout.

Each column has the least width it can take (its longest unbreakable word) and its natural
width (its longest line unbroken). `search` is the one search both renderers use, for each
degree of wrapping (nothing, the headers, any cell). `share` gives every column its natural
width when they fit, spreading what is left in proportion; else it moves each column from its
least toward its natural width by the same fraction, so no column is cut below a word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product


def share(least: Sequence[float], natural: Sequence[float], room: float,
          stretch: bool = True) -> list[float] | None:
    """Widths for columns that need at least `least` and at most `natural`, in `room`; None
    when even the least widths do not fit."""
    if sum(least) > room + 1e-9:
        return None
    total = sum(natural)
    if total <= room:
        spare = room - total if stretch else 0.0
        return [n + spare * n / total for n in natural] if total else list(natural)
    k = (room - sum(least)) / (total - sum(least))
    return [lo + k * (n - lo) for lo, n in zip(least, natural, strict=True)]


def fixed_and_shared(least: Sequence[float], natural: Sequence[float], fixed: Sequence[bool],
                     room: float) -> list[float] | None:
    """Widths with the `fixed` columns (numbers) at their natural width and the others sharing
    what is left as `share` does; None when that leaves the others too little."""
    kept = sum(n for n, f in zip(natural, fixed, strict=True) if f)
    free = [i for i, f in enumerate(fixed) if not f]
    if not free:
        return None
    shared = share([least[i] for i in free], [natural[i] for i in free], room - kept, False)
    if shared is None:
        return None
    out = [n if f else 0.0 for n, f in zip(natural, fixed, strict=True)]
    for i, w in zip(free, shared, strict=True):
        out[i] = w
    out[free[-1]] += room - sum(out)
    return out


def greedy(least: Sequence[float], natural: Sequence[float], room: float,
           height: Callable[[list[float]], float], steps: int = 24) -> list[float] | None:
    """Widths that make a table short: from the least widths, each step gives a slice of what
    is left to the column whose widening saves the most height (the widest-needing on a tie);
    what is left at the end goes to the columns in proportion. None when the least widths do
    not fit."""
    if sum(least) > room + 1e-9:
        return None
    widths = list(least)
    piece = (room - sum(least)) / steps
    for _ in range(steps):
        now = height(widths)
        best, saved = -1, 0.0
        for c in range(len(widths)):
            if widths[c] >= natural[c] - 1e-9:
                continue
            trial = list(widths)
            trial[c] = min(natural[c], trial[c] + piece)
            gain = now - height(trial)
            if gain > saved + 1e-9:
                best, saved = c, gain
        if best < 0:
            break
        widths[best] = min(natural[best], widths[best] + piece)
    spare = room - sum(widths)
    total = sum(widths)
    return [w + spare * w / total for w in widths]


@dataclass(frozen=True)
class Needs:
    """What a table's columns need, in points, each with its padding: `least`, the widest
    unbreakable word; `natural`, the widest cell on one line, header included; `body`, the
    widest body cell on one line or the header's widest word (what a column needs when only
    its header wraps); `numeric`, whether the column holds figures."""

    least: list[float]
    natural: list[float]
    body: list[float]
    numeric: list[bool]


WRAPS = ("none", "headers", "any")  # what may wrap, from the tidiest table to the loosest
WHOLE_MOST = 8  # columns up to which every choice of whole headers is tried (2 ** 8 of them)


def search(needs: Needs, room: float, wrap: str,
           height: Callable[[list[float]], float], stretch: bool = True) -> list[float] | None:
    """The table's column widths in `room` when cells may wrap as `wrap` says ("none": every
    cell on one line; "headers": only the header's cells wrap; "any": any cell wraps), or None
    when the columns cannot fit so. Columns that fit unbroken take their natural widths (and,
    with `stretch`, share what is left); when only headers wrap, every column gets its body's
    width, some their whole header's, and the rest goes in proportion (or all of it to one
    column); when cells must wrap, the candidates are every column moved alike from least to
    natural, the figures kept whole with the text sharing the rest, and the greedy widths that
    save the most height. The one that makes the table shortest by `height` wins (the first
    on a tie)."""
    least, natural, body = needs.least, needs.natural, needs.body
    if sum(least) > room or (wrap == "none" and sum(natural) > room) or (
            wrap == "headers" and sum(body) > room):
        return None
    if sum(natural) <= room:
        return share(natural, natural, room, stretch) or list(natural)
    if wrap == "headers":  # every body cell whole; whole headers where the width allows
        choices = [share(body, body, room) or list(body)]
        subsets = product((False, True), repeat=len(body)) if len(body) <= WHOLE_MOST else ()
        for whole in subsets:
            widths = [n if w else b for b, n, w in zip(body, natural, whole, strict=True)]
            if any(whole) and sum(widths) <= room:
                choices.append(share(widths, widths, room) or widths)
        for c in range(len(body)):  # or all the spare width to one column's header
            choices.append([b + (room - sum(body) if i == c else 0.0) for i, b in enumerate(body)])
        return min(choices, key=height)
    choices = [share(least, natural, room) or list(least)]
    kept = fixed_and_shared(least, body, needs.numeric, room)
    if kept is not None and all(w >= lo - 1e-6 for w, lo in zip(kept, least, strict=True)):
        choices.append(kept)
    short = greedy(least, natural, room, height)
    if short is not None:
        choices.append(short)
    return min(choices, key=height)
