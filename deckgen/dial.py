"""The dial math: what a writing speed buys a batch of work, exactly.

A batch is `output_tokens` written at `speed` tokens per second, then one `fixed_check`
(seconds, counted once for the whole batch, after writing ends). Everything is a
`Fraction`; nothing here rounds or formats.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

Number = Fraction | int


def writing_time(output_tokens: int, speed: Number) -> Fraction:
    """Seconds to write `output_tokens` at `speed` tokens per second."""
    return Fraction(output_tokens) / Fraction(speed)


def total_time(output_tokens: int, speed: Number, fixed_check: Number) -> Fraction:
    """Writing time plus the one fixed check."""
    return writing_time(output_tokens, speed) + Fraction(fixed_check)


def writing_speedup(speed: Number, slow_speed: Number) -> Fraction:
    """How many times faster the writing alone became."""
    return Fraction(speed) / Fraction(slow_speed)


@functools.lru_cache(maxsize=4096)
def end_to_end_speedup(output_tokens: int, speed: Number, slow_speed: Number,
                       fixed_check: Number) -> Fraction:
    """Total at the slow speed divided by total at the chosen speed (kept: the ceiling chart
    asks for some 300 points, mostly the same from one dial to the next)."""
    return total_time(output_tokens, slow_speed, fixed_check) / total_time(
        output_tokens, speed, fixed_check)


def writing_share(output_tokens: int, speed: Number, fixed_check: Number) -> Fraction:
    """The part of the total spent writing (0..1)."""
    return writing_time(output_tokens, speed) / total_time(output_tokens, speed, fixed_check)


def check_share(output_tokens: int, speed: Number, fixed_check: Number) -> Fraction:
    """The part of the total spent on the fixed check (0..1); with the writing share, exactly 1."""
    return Fraction(fixed_check) / total_time(output_tokens, speed, fixed_check)


def ceiling(output_tokens: int, slow_speed: Number, fixed_check: Number) -> Fraction | None:
    """The end-to-end speedup that no speed can reach; None when there is no check."""
    if Fraction(fixed_check) == 0:
        return None
    return total_time(output_tokens, slow_speed, fixed_check) / Fraction(fixed_check)


def speed_for_speedup(output_tokens: int, slow_speed: Number, fixed_check: Number,
                      target: Number) -> Fraction | None:
    """The speed that gives an end-to-end speedup of `target`; None when unreachable."""
    target = Fraction(target)
    if target <= 0:
        raise ValueError("a target speedup must be positive")
    slow_total = total_time(output_tokens, slow_speed, fixed_check)
    writing_budget = slow_total / target - Fraction(fixed_check)
    if writing_budget <= 0:
        return None
    return Fraction(output_tokens) / writing_budget


@dataclass(frozen=True)
class Batch:
    """One batch at two speeds with one fixed check: every figure the story tells of it."""

    output_tokens: int
    speed: Fraction
    slow_speed: Fraction
    fixed_check: Fraction

    @property
    def writing_time(self) -> Fraction:
        return writing_time(self.output_tokens, self.speed)

    @property
    def slow_writing_time(self) -> Fraction:
        return writing_time(self.output_tokens, self.slow_speed)

    @property
    def total(self) -> Fraction:
        return total_time(self.output_tokens, self.speed, self.fixed_check)

    @property
    def slow_total(self) -> Fraction:
        return total_time(self.output_tokens, self.slow_speed, self.fixed_check)

    @property
    def writing_speedup(self) -> Fraction:
        return writing_speedup(self.speed, self.slow_speed)

    @property
    def end_to_end_speedup(self) -> Fraction:
        return end_to_end_speedup(self.output_tokens, self.speed, self.slow_speed, self.fixed_check)

    @property
    def writing_share(self) -> Fraction:
        return writing_share(self.output_tokens, self.speed, self.fixed_check)

    @property
    def check_share(self) -> Fraction:
        return check_share(self.output_tokens, self.speed, self.fixed_check)

    @property
    def slow_writing_share(self) -> Fraction:
        return writing_share(self.output_tokens, self.slow_speed, self.fixed_check)

    @property
    def slow_check_share(self) -> Fraction:
        return check_share(self.output_tokens, self.slow_speed, self.fixed_check)

    @property
    def ceiling(self) -> Fraction | None:
        return ceiling(self.output_tokens, self.slow_speed, self.fixed_check)
