"""The dial's tables as figures (exact value and text), for the story and for `deckgen table`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from deckgen import dial, fmt
from deckgen.content import Content
from deckgen.figures import Figure, batch, figures, numbers_of, words_of


@dataclass(frozen=True)
class WorkloadRow:
    id: str
    label: str  # "1,000 story endings × 1,000"
    output_tokens: Figure
    slow_writing_time: Figure
    writing_time: Figure


@dataclass(frozen=True)
class PresetRow:
    fixed_check: Figure
    slow_total: Figure
    total: Figure
    end_to_end_speedup: Figure
    ceiling: Figure


def workload_rows(content: Content) -> tuple[WorkloadRow, ...]:
    d = content.dial
    lang = numbers_of(content)
    rows = []
    for w in content.workloads:
        slow = dial.writing_time(w.output_tokens, d.slow_speed)
        fast = dial.writing_time(w.output_tokens, d.speed)
        rows.append(WorkloadRow(
            w.id, f"{fmt.count(w.count, lang)} {w.noun} {fmt.TIMES} "
                  f"{fmt.tokens(w.tokens_each, lang)}",
            Figure(w.output_tokens, fmt.tokens(w.output_tokens, lang)),
            Figure(slow, fmt.duration(slow, lang)), Figure(fast, fmt.duration(fast, lang))))
    return tuple(rows)


def preset_rows(content: Content, with_chosen: bool = False) -> tuple[PresetRow, ...]:
    """One row per preset check; `with_chosen` adds the chosen check in its place by length
    when it is not a preset, so the dial's own row is always in the table."""
    d = content.dial
    lang, said = numbers_of(content), words_of(content)
    tokens = batch(content).output_tokens
    checks = list(d.check_presets)
    if with_chosen and d.fixed_check not in checks:
        at = next((i for i, c in enumerate(checks) if c > d.fixed_check), len(checks))
        checks.insert(at, d.fixed_check)
    rows = []
    for check in checks:
        b = dial.Batch(tokens, d.speed, d.slow_speed, check)
        cap = b.ceiling
        rows.append(PresetRow(
            Figure(check, fmt.check(check, lang, said.none)),
            Figure(b.slow_total, fmt.duration(b.slow_total, lang)),
            Figure(b.total, fmt.duration(b.total, lang)),
            Figure(b.end_to_end_speedup, fmt.speedup(b.end_to_end_speedup, lang)),
            Figure(cap, fmt.speedup(cap, lang) if cap is not None else said.no_check)))
    return tuple(rows)


SUMMARY = ("dial.speed", "dial.slow_speed", "bottleneck.fixed_check", "bottleneck.output_tokens",
           "bottleneck.slow_total", "bottleneck.total", "bottleneck.writing_speedup",
           "bottleneck.end_to_end_speedup", "bottleneck.slow_writing_share",
           "bottleneck.slow_check_share", "bottleneck.writing_share", "bottleneck.check_share",
           "bottleneck.ceiling")


def _exact(value: Fraction | int | None) -> str | None:
    if value is None:
        return None
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _pair(f: Figure) -> dict[str, Any]:
    return {"value": _exact(f.value), "text": f.text}


def as_json(content: Content) -> dict[str, Any]:
    """Every figure of `deckgen table`, each with its exact value (a fraction as text) and text."""
    table = figures(content)
    return {
        "dial": {"speed": _pair(table["dial.speed"]),
                 "slow_speed": _pair(table["dial.slow_speed"]),
                 "workload": content.dial.workload,
                 "fixed_check": _pair(table["dial.fixed_check"])},
        "workloads": [{"id": r.id, "label": r.label, "output_tokens": _pair(r.output_tokens),
                       "slow_writing_time": _pair(r.slow_writing_time),
                       "writing_time": _pair(r.writing_time)} for r in workload_rows(content)],
        "presets": [{"fixed_check": _pair(r.fixed_check), "slow_total": _pair(r.slow_total),
                     "total": _pair(r.total), "end_to_end_speedup": _pair(r.end_to_end_speedup),
                     "ceiling": _pair(r.ceiling)} for r in preset_rows(content)],
        "summary": {name: _pair(table[name]) for name in SUMMARY},
        "figures": {name: _pair(f) for name, f in sorted(table.items())},
    }


def _grid(header: tuple[str, ...], rows: list[tuple[str, ...]], align: str) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if a == "l" else c.rjust(w)
                 for c, w, a in zip(row, widths, align, strict=True)]
        lines.append("  ".join(cells).rstrip())
        if row is header:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def as_text(content: Content) -> str:
    """The tables and the summary as plain text for a terminal."""
    t = figures(content)
    slow, fast = t["dial.slow_speed"].text, t["dial.speed"].text
    featured = content.workload(content.dial.workload)
    out = [f"Dial: {fast} (slow end {slow}); "
           f"featured: {fmt.count(featured.count, numbers_of(content))} {featured.noun}; "
           f"fixed check: {t['dial.fixed_check'].text}", "",
           "All workloads at both ends of the dial"]
    out += _grid(("Workload", "Output tokens", slow, fast),
                 [(r.label, r.output_tokens.text, r.slow_writing_time.text, r.writing_time.text)
                  for r in workload_rows(content)], "lrrr")
    out += ["", f"The same {t['bottleneck.output_tokens'].text} tokens "
                f"({t['bottleneck.count'].text} {t['bottleneck.noun'].text}) with each fixed check"]
    out += _grid(("Fixed check", slow, fast, "End to end", "Ceiling"),
                 [(r.fixed_check.text, r.slow_total.text, r.total.text, r.end_to_end_speedup.text,
                   r.ceiling.text) for r in preset_rows(content, with_chosen=True)], "lrrrr")
    out += ["", f"Chosen dial, fixed check {t['bottleneck.fixed_check'].text}"]
    out += _grid(("Figure", "Value"), [
        ("Total",
         f"{t['bottleneck.slow_total'].text} at {slow}, {t['bottleneck.total'].text} at {fast}"),
        ("Writing speedup", t["bottleneck.writing_speedup"].text),
        ("End-to-end speedup", t["bottleneck.end_to_end_speedup"].text),
        ("Writing share", f"{t['bottleneck.slow_writing_share'].text} at {slow}, "
                          f"{t['bottleneck.writing_share'].text} at {fast}"),
        ("Check share", f"{t['bottleneck.slow_check_share'].text} at {slow}, "
                        f"{t['bottleneck.check_share'].text} at {fast}"),
        ("Ceiling", t["bottleneck.ceiling"].text),
    ], "ll")
    return "\n".join(out) + "\n"
