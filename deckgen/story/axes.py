"""The axes of the charts across the dial: whole decades, exactly, and the speeds a curve is
drawn through."""

from __future__ import annotations

from fractions import Fraction

from deckgen.content import Dial


def decade_below(value: Fraction) -> Fraction:
    """The power of ten at or below `value` (> 0), exactly."""
    power = Fraction(1)
    while power > value:
        power /= 10
    while power * 10 <= value:
        power *= 10
    return power


def decade_above(value: Fraction) -> Fraction:
    """The power of ten at or above `value` (> 0), exactly."""
    below = decade_below(value)
    return below if below == value else below * 10


def decades(low: Fraction, high: Fraction) -> tuple[Fraction, ...]:
    """Every power of ten from `low` to `high` (both powers of ten)."""
    out, value = [], low
    while value <= high:
        out.append(value)
        value *= 10
    return tuple(out)


def span(values: list[Fraction]) -> tuple[Fraction, Fraction]:
    """Whole decades around `values`, with room above the highest for its label."""
    return decade_below(min(values)), decade_below(max(values)) * 10


def speed_span(d: Dial) -> tuple[Fraction, Fraction]:
    """The speeds a chart across the dial covers: every mark, the slow end and the dial."""
    low = decade_below(min(d.speed_marks[0], d.slow_speed, d.speed))
    top = max(d.speed_marks[-1], d.slow_speed, d.speed)
    high = decade_below(top)
    return low, high if high == top else high * 10


def speeds_across(low: Fraction, high: Fraction, per_decade: int = 8) -> tuple[Fraction, ...]:
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
