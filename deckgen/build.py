"""What a build is asked for (`Options`), the file name it writes under (`stem`), and the
content with the command line's overrides in place (`apply`).

The build itself reads top to bottom in `deckgen.pipeline`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from deckgen import fmt, quantities, source
from deckgen.content import Content
from deckgen.errors import Problem
from deckgen.figures import with_overrides

KINDS = ("deck", "handout", "html", "slides", "notes")  # what `--only` may name: the one list


@dataclass(frozen=True)
class Options:
    """What the command line asked for, beyond the content file."""

    out: Path = Path("output")
    speed: str | None = None
    check: str | None = None
    workload: str | None = None
    # The kinds to build, in KINDS's order (one name is taken as a tuple of it); None: all.
    only: tuple[str, ...] | None = None
    aspect: str | None = None
    paper: str | None = None
    template: Path | None = None
    walk: bool = False
    pages_auto: bool = False
    charts: str = "native"  # the deck's charts: "native" chart parts or "picture" PNGs
    name: str | None = None  # the files' name for this build, in place of the slug's

    def __post_init__(self) -> None:
        if self.only is not None:
            given = (self.only,) if isinstance(self.only, str) else tuple(self.only)
            ordered = tuple(k for k in KINDS if k in given)
            object.__setattr__(self, "only", ordered + tuple(dict.fromkeys(
                k for k in given if k not in KINDS)))

    def wants(self, kind: str) -> bool:
        """Whether this build makes `kind` (one of KINDS)."""
        return self.only is None or kind in self.only


MAX_STEM = 120  # characters of a file name before its tail becomes a digest


def stem(content: Content, with_check: bool, name: str | None = None) -> str:
    """The file name shared by deck, handout and page: the talk's slug (meta.slug, by default
    its title's) and the dial, 'million-tokens-1M', '...-1M-check-15min'; or `name` as given
    (`--name`, checked by `content.valid_slug`), which names one build's files whatever
    the dial.

    Names are exact, so different dials never share a file: a speed or check whose short
    form rounds ('1.23K' for 1,234) is written out in full ('1234', '60.04s'), from the
    dial's exact values. A name longer than MAX_STEM keeps its start and ends in a short
    digest of the exact values instead ('million-tokens-1000.00000...-3f2a9c1b0d4e').
    """
    if name is not None:
        return name
    name = f"{content.meta.slug}-{_speed_name(content.dial.speed)}"
    if with_check:
        name += "-check-" + _check_name(content.dial.fixed_check)
    values = [content.dial.speed] + ([content.dial.fixed_check] if with_check else [])
    if len(name) <= MAX_STEM and all(_finite(v) for v in values):
        return name
    exact = f"{content.dial.speed}|{content.dial.fixed_check if with_check else ''}"
    digest = hashlib.sha256(exact.encode("ascii")).hexdigest()[:12]
    return f"{name[:MAX_STEM - 13]}-{digest}"


def _finite(value: Fraction) -> bool:
    rest = value.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    return rest == 1


def _speed_name(speed: Fraction) -> str:
    mark = fmt.speed_mark(speed)
    return mark if quantities.parse_speed(mark) == speed else _decimal(speed)


def _check_name(seconds: Fraction) -> str:
    """'none', '60s', '0.5s', '15min', '2h46min40s': whole seconds from 100 on as hours,
    minutes and seconds (as the tables show them), any other value as exact seconds."""
    if seconds == 0:
        return "none"
    if seconds.denominator != 1 or seconds < 100:
        return _decimal(seconds) + "s"
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return "".join(f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "min"), (secs, "s"))
                   if n)


def _decimal(value: Fraction) -> str:
    """An exact decimal with no separators: '1234', '60.04' (parsed values always end)."""
    twos = fives = 0
    rest = value.denominator
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    places = max(twos, fives) if rest == 1 else 40  # no finite decimal: 40 places, then
    # `stem` gives the name a digest of the exact value
    digits = str(value.numerator * 10**places // value.denominator).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    # '1.001' reads as 1001 where the point separates thousands: '1.0010' reads one way.
    return text + "0" if places == 3 and len(digits) <= 6 and digits[0] != "0" else text


def prepare(content_path: Path | None, options: Options) -> tuple[Content, list[Problem]]:
    """Read, validate and apply the command line's overrides."""
    content, warnings = source.read(content_path)
    return apply(content, options), warnings


def apply(content: Content, options: Options) -> Content:
    """Valid content with the command line's dial, aspect and paper in place of the file's."""
    content = with_overrides(content, options.speed, options.check, options.workload)
    meta = content.meta
    if options.aspect:
        meta = replace(meta, aspect=options.aspect)
    if options.paper:
        meta = replace(meta, paper=options.paper)
    return replace(content, meta=meta)
