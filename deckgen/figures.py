"""Named figures: every computed number the prose may cite, as exact value and text.

Prose names a figure in braces ("{bottleneck.end_to_end_speedup}"); `fill` puts its text
in place, `validate_prose` finds placeholders that name nothing and numbers typed by hand
that the math also computes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from deckgen import dial, fmt, locale, quantities, words
from deckgen.content import Content, Dial
from deckgen.errors import InputError, Problem
from deckgen.locale import Numbers
from deckgen.words import Words

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_TYPED_NUMBER = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\w])")


def _refusal(err: ValueError, given: str) -> str:
    """Why a value from the command line was refused; an ambiguous one names itself."""
    return str(err) if isinstance(err, quantities.Ambiguous) else f"{err}, got {given!r}"


def numbers_of(content: Content) -> Numbers:
    """How the talk spells numbers: as its language (meta.language) writes them."""
    return locale.numbers(content.meta.language)


def words_of(content: Content) -> Words:
    """The talk's fixed words: its language's catalogue and the content's own labels."""
    return words.of(content.meta.language, content.labels)


@dataclass(frozen=True)
class Figure:
    """One computed figure: the exact value (None for words) and its text."""

    value: Fraction | int | None
    text: str


def with_overrides(
    content: Content,
    speed: str | None = None,
    check: str | None = None,
    workload: str | None = None,
) -> Content:
    """The content with the command line's dial values in place of the file's."""
    problems = []
    new: dict[str, object] = {}
    if speed is not None:
        try:
            new["speed"] = quantities.parse_speed(speed, content.meta.language)
        except ValueError as err:
            problems.append(Problem(_refusal(err, speed), path="--speed"))
    if check is not None:
        try:
            new["fixed_check"] = quantities.parse_duration(check, content.meta.language)
        except ValueError as err:
            problems.append(Problem(_refusal(err, check), path="--check"))
    if workload is not None:
        ids = [w.id for w in content.workloads]
        if workload not in ids:
            problems.append(
                Problem(
                    f"must be one of the workload ids {', '.join(ids)}, got {workload!r}",
                    path="--workload",
                )
            )
        new["workload"] = workload
    if problems:
        raise InputError(problems)
    # Any positive speed: one below the slow speed is a slowdown ("0.37×"), a true answer.
    chosen = replace(content.dial, **new)  # type: ignore[arg-type]
    return replace(content, dial=chosen)


def division(top: Fraction, bottom: Fraction, lang: Numbers = locale.ENGLISH,
             shown: Callable[[Fraction], str] | None = None) -> tuple[str, str]:
    """`top` and `bottom` as plain numbers at the fewest decimals whose quotient, as shown,
    is the quotient's own text: the sum under a figure gives the figure shown ("8,060 ÷ 60.8",
    and at 3.3M "8,060 ÷ 60.242" for 133.79×, where "60.24" would give 133.80×)."""
    if shown is None:
        def shown(ratio: Fraction) -> str:
            return fmt.speedup(ratio, lang)
    want = shown(top / bottom)
    for places in range(0, 40):
        a, b = fmt.round_half_up(top, places), fmt.round_half_up(bottom, places)
        if a and b and shown(Fraction(a) / Fraction(b)) == want:
            return fmt.number(top, places, lang), fmt.number(bottom, places, lang)
    return fmt.number(top, 40, lang), fmt.number(bottom, 40, lang)  # pragma: no cover


def _workload_figures(prefix: str, tokens_each: int, count: int,
                      settings: Dial, lang: Numbers) -> dict[str, Figure]:
    output = count * tokens_each
    fast = dial.writing_time(output, settings.speed)
    slow = dial.writing_time(output, settings.slow_speed)
    return {
        f"{prefix}.count": Figure(count, fmt.count(count, lang)),
        f"{prefix}.tokens_each": Figure(tokens_each, fmt.tokens(tokens_each, lang)),
        f"{prefix}.output_tokens": Figure(output, fmt.tokens(output, lang)),
        f"{prefix}.writing_time": Figure(fast, fmt.duration(fast, lang)),
        f"{prefix}.slow_writing_time": Figure(slow, fmt.duration(slow, lang)),
    }


def batch(content: Content) -> dial.Batch:
    """The bottleneck's batch at the chosen dial."""
    work = content.workload(content.bottleneck.workload)
    d = content.dial
    return dial.Batch(work.output_tokens, d.speed, d.slow_speed, d.fixed_check)


def figures(content: Content) -> dict[str, Figure]:
    """Every figure the prose may name, computed from the content's dial."""
    d = content.dial
    featured = content.workload(d.workload)
    lang, said = numbers_of(content), words_of(content)

    def speed(value: Fraction) -> str:
        return fmt.speed(value, lang, said.tokens_per_sec)

    out: dict[str, Figure] = {
        "dial.speed": Figure(d.speed, speed(d.speed)),
        "dial.speed_mark": Figure(d.speed, fmt.speed_mark(d.speed, lang)),
        "dial.slow_speed": Figure(d.slow_speed, speed(d.slow_speed)),
        "dial.writing_speedup": Figure(
            dial.writing_speedup(d.speed, d.slow_speed),
            fmt.speedup(dial.writing_speedup(d.speed, d.slow_speed), lang),
        ),
        "dial.fixed_check": Figure(d.fixed_check, fmt.duration(d.fixed_check, lang)),
        # "100 and 40,000 tokens/sec": the two speeds a table at both ends shows
        "dial.both_speeds": Figure(None, lang.pair.format(fmt.number(d.slow_speed, 2, lang),
                                                          speed(d.speed))),
        "dial.noun": Figure(None, featured.noun),
        "dial.title": Figure(None, featured.title),
    }
    out.update(_workload_figures("dial", featured.tokens_each, featured.count, d, lang))
    for w in content.workloads:
        out.update(_workload_figures(f"workload.{w.id}", w.tokens_each, w.count, d, lang))
    for m in content.meanings:
        if m.streams is not None and m.stream_speed is not None:
            total = m.streams * m.stream_speed
            out["aggregate.streams"] = Figure(m.streams, fmt.count(m.streams, lang))
            out["aggregate.stream_speed"] = Figure(m.stream_speed, speed(m.stream_speed))
            out["aggregate.total"] = Figure(total, speed(total))
    b = batch(content)
    work = content.workload(content.bottleneck.workload)
    ceiling = b.ceiling
    seconds = division(b.slow_total, b.total, lang)  # the totals as the end-to-end sum shows them
    out.update(
        {
            "bottleneck.count": Figure(work.count, fmt.count(work.count, lang)),
            "bottleneck.noun": Figure(None, work.noun),
            "bottleneck.output_tokens": Figure(b.output_tokens, fmt.tokens(b.output_tokens, lang)),
            "bottleneck.fixed_check": Figure(b.fixed_check, fmt.duration(b.fixed_check, lang)),
            "bottleneck.writing_time": Figure(b.writing_time, fmt.duration(b.writing_time, lang)),
            "bottleneck.slow_writing_time": Figure(
                b.slow_writing_time, fmt.duration(b.slow_writing_time, lang)
            ),
            "bottleneck.total": Figure(b.total, fmt.duration(b.total, lang)),
            "bottleneck.slow_total": Figure(b.slow_total, fmt.duration(b.slow_total, lang)),
            "bottleneck.slow_total_seconds": Figure(b.slow_total, seconds[0]),
            "bottleneck.total_seconds": Figure(b.total, seconds[1]),
            "bottleneck.writing_speedup": Figure(b.writing_speedup,
                                                 fmt.speedup(b.writing_speedup, lang)),
            "bottleneck.end_to_end_speedup": Figure(
                b.end_to_end_speedup, fmt.speedup(b.end_to_end_speedup, lang)
            ),
            "bottleneck.writing_share": Figure(b.writing_share, fmt.share(b.writing_share, lang)),
            "bottleneck.check_share": Figure(b.check_share, fmt.share(b.check_share, lang)),
            "bottleneck.slow_writing_share": Figure(
                b.slow_writing_share, fmt.share(b.slow_writing_share, lang)
            ),
            "bottleneck.slow_check_share": Figure(
                b.slow_check_share, fmt.share(b.slow_check_share, lang)
            ),
            "bottleneck.ceiling": Figure(
                ceiling, fmt.speedup(ceiling, lang) if ceiling is not None else said.no_ceiling
            ),
        }
    )
    # A title may cite figures itself ("... from {workload.candidates.count} ideas").
    out["dial.title"] = Figure(
        None, fill(featured.title, {k: f for k, f in out.items() if k != "dial.title"})
    )
    return out


def fill(text: str, table: Mapping[str, Figure], keep_together: bool = False) -> str:
    """`text` with each {name} replaced by its figure's text (names are validated beforehand)."""

    def put(match: re.Match[str]) -> str:
        value = table[match.group(1).strip()].text
        return fmt.keep_together(value) if keep_together else value

    return PLACEHOLDER.sub(put, text)


def split(text: str) -> tuple[tuple[str, str | None], ...]:
    """Prose as its pieces in order: (literal text, None) or (placeholder, figure name).

    Joining the first items gives `text` back; a renderer that updates figures live shows each
    named piece as a figure and the literal ones as they are.
    """
    pieces: list[tuple[str, str | None]] = []
    at = 0
    for match in PLACEHOLDER.finditer(text):
        if match.start() > at:
            pieces.append((text[at:match.start()], None))
        pieces.append((match.group(0), match.group(1).strip()))
        at = match.end()
    if at < len(text):
        pieces.append((text[at:], None))
    return tuple(pieces)


def prose_fields(content: Content) -> Iterator[tuple[str, str]]:
    """Every displayed text that may hold placeholders, with its key path."""
    yield "meta.title", content.meta.title
    yield "meta.subtitle", content.meta.subtitle
    for i, m in enumerate(content.meanings):
        for key in ("label", "question", "text"):
            yield f"meanings[{i}].{key}", getattr(m, key)
    for i, w in enumerate(content.workloads):
        for key in ("title", "story", "scarce", "notes"):
            yield f"workloads[{i}].{key}", getattr(w, key)
    for key in ("setup", "model", "lesson", "ceiling", "no_ceiling"):
        yield f"bottleneck.{key}", getattr(content.bottleneck, key)
    for i, p in enumerate(content.precious):
        yield f"precious[{i}].name", p.name
        yield f"precious[{i}].text", p.text
    for i, s in enumerate(content.checklist):
        for key in ("step", "detail", "write_in"):
            yield f"checklist[{i}].{key}", getattr(s, key)
    for i, src in enumerate(content.sources):
        yield f"sources[{i}].supports", src.supports
    for sid, slide in content.slides.items():
        for key in ("kicker", "headline", "notes", "page_text"):
            yield f"slides.{sid}.{key}", getattr(slide, key)
    for sid, own in content.custom.items():
        for key in ("kicker", "headline", "notes", "paragraph", "caption", "credit", "page_text"):
            yield f"slides.{sid}.{key}", getattr(own, key)
        for i, bullet in enumerate(own.bullets):
            yield f"slides.{sid}.bullets[{i}]", bullet


def validate_prose(content: Content) -> tuple[list[Problem], list[Problem]]:
    """Placeholders naming no figure (problems), and typed numbers the math computes (warnings)."""
    table = figures(content)
    computed: set[str] = set()
    for figure in table.values():
        if figure.value is not None:
            # Single digits ("step 1", "3 things") are too common in prose to mean a figure.
            computed.update(n for n in _TYPED_NUMBER.findall(figure.text) if len(n) > 1)
    problems, warnings = [], []
    for path, text in prose_fields(content):
        at = content.where(path)
        for match in PLACEHOLDER.finditer(text):
            name = match.group(1).strip()
            if name not in table:
                near = [n for n in table if n.split(".")[-1] == name.split(".")[-1]][:3]
                hint = f"; did you mean {' or '.join('{' + n + '}' for n in near)}?" if near else ""
                problems.append(
                    replace(
                        at,
                        message=f"placeholder {{{name}}} names no computed figure"
                        f"{hint} (`deckgen check --figures` lists them)",
                    )
                )
        bare = PLACEHOLDER.sub(" ", text)
        for number in _TYPED_NUMBER.findall(bare):
            if number in computed:
                warnings.append(
                    replace(
                        at,
                        message=f"warning: the number {number} is typed by hand but "
                        "the math computes it; use a {placeholder} so it "
                        "follows the dial",
                    )
                )
    return problems, warnings
