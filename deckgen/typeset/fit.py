"""The type scale, misfits as values, and the one ordered search every layout uses.

A `TypeScale` is six sizes, designed for a 7.5 in (540 pt) tall slide and scaled with the
slide's height, so a 4:3 or a 10 in slide keeps the same proportions: footnote (kickers,
labels, notes), table (tables, captions), body, title, display (second-rank figures, the
cover's title) and figure (the big number). Nothing but the footer and slide number is set
outside it.

Layouts never raise to say "does not fit": they return a `Misfit`, which names the text that
failed, where it came from and what would fit. `first_fit` tries arrangements in order of
preference and returns the first that fits, or the misfit of the last one tried (the one that
asks least, so the one to fix); `first_fit_all` does the same for siblings, which must share
one arrangement: the first that fits every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from deckgen import fmt

T = TypeVar("T")

DESIGN_HEIGHT = 540.0  # points: the 7.5 in slide the scale is designed for


@dataclass(frozen=True)
class TypeScale:
    """Six sizes in points, smallest first."""

    footnote: float = 14.0
    table: float = 20.0
    body: float = 24.0
    title: float = 36.0
    display: float = 60.0
    figure: float = 96.0

    @classmethod
    def for_height(cls, height: float) -> TypeScale:
        """The scale for a slide `height` points tall, each size to the half point."""
        k = height / DESIGN_HEIGHT
        base = cls()
        return cls(*(round(size * k * 2) / 2 for size in base.sizes))

    @property
    def sizes(self) -> tuple[float, ...]:
        return (self.footnote, self.table, self.body, self.title, self.display, self.figure)

    @property
    def between(self) -> float:
        """A big figure's step between display and title, to the half point: a figure short
        of room at display size (a 4:3 slide, a small template) uses the room there is
        rather than falling to the title's size."""
        return round(self.display + self.title) / 2

    @property
    def every_size(self) -> frozenset[float]:
        """Every size a slide's text may take: the six sizes and the step between."""
        return frozenset((*self.sizes, self.between))


@dataclass(frozen=True)
class Misfit:
    """Why a text does not fit: its field ("card text"), its key path in content.yaml ('' for a
    computed text), the text, and what was wrong in words ("room for about 60 characters at
    24 pt")."""

    field: str
    origin: str
    text: str
    detail: str


def is_misfit(value: object) -> bool:
    return isinstance(value, Misfit)


def room(characters: int, size: float) -> str:
    """'room for about 60 characters at 24 pt'."""
    return f"room for about {fmt.count(characters)} characters at {fmt.measure(size, 'pt')}"


def first_fit(arrangements: Iterable[Callable[[], T | Misfit]]) -> T | Misfit:
    """The first arrangement that fits, else the misfit of the last one tried."""
    last: Misfit | None = None
    for arrange in arrangements:
        found = arrange()
        if not isinstance(found, Misfit):
            return found
        last = found
    assert last is not None, "no arrangement offered"
    return last


def first_fit_all(arrangements: Sequence[Sequence[Callable[[], T | Misfit]]]
                  ) -> tuple[int, list[T]] | Misfit:
    """For siblings, each offering the same arrangements in the same order (one list per
    sibling): the index of the first arrangement that fits all of them, with each sibling's
    result; else the misfit of the last arrangement tried."""
    last: Misfit | None = None
    for i in range(min(len(a) for a in arrangements)):
        found: list[T] = []
        for sibling in arrangements:
            result = sibling[i]()
            if isinstance(result, Misfit):
                last = result
                break
            found.append(result)
        else:
            return i, found
    assert last is not None, "no arrangement offered"
    return last


def spread(wanted: Sequence[float], heights: Sequence[float], low: float, high: float,
           gap: float) -> list[float]:
    """Centres near `wanted` for boxes of `heights` along one axis, none overlapping and all
    within [low, high] (`gap` apart at least): how chart labels at a line's end keep clear of
    each other. Two passes each way settle any crowding the first pass pushed along."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    pos = list(wanted)
    for _ in range(2):
        previous = None
        for i in order:  # towards `high`: clear the box before, stay past `low`
            floor = low + heights[i] / 2 if previous is None else (
                pos[previous] + (heights[previous] + heights[i]) / 2 + gap)
            pos[i] = max(pos[i], floor)
            previous = i
        following = None
        for i in reversed(order):  # towards `low`: clear the box after, stay short of `high`
            ceiling = high - heights[i] / 2 if following is None else (
                pos[following] - (heights[following] + heights[i]) / 2 - gap)
            pos[i] = min(pos[i], ceiling)
            following = i
    return pos
