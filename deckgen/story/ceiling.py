"""The ceiling: the same batch under each fixed check (the presets), and the end-to-end
speedup flattening toward its ceiling as the dial turns."""

from __future__ import annotations

from fractions import Fraction

from deckgen import dial, fmt, report
from deckgen.story.axes import decades, span, speed_span, speeds_across
from deckgen.story.parts import Bottleneck, Line, LineChart, Mark, Slide, Table, Tick
from deckgen.story.talk import Talk, keep, keep_figures, table_notes


def tell(talk: Talk, told: Bottleneck) -> tuple[Table, LineChart, tuple[Slide, ...]]:
    """The presets table, the ceiling chart, and their slides: the presets, then the ceiling
    with `told`'s sentence about it."""
    presets, chart = presets_table(talk), ceiling_chart(talk)
    slides = (talk.slide("presets", table_notes(presets), table=presets),
              talk.slide("ceiling", told.ceiling_sentence.text, chart=chart))
    return presets, chart, slides


def presets_table(talk: Talk) -> Table:
    """The bottleneck's batch with each preset check (and the chosen one, highlighted)."""
    content = talk.content
    d = content.dial
    work = content.workload(content.bottleneck.workload)
    presets = report.preset_rows(content, with_chosen=True)  # the chosen check among them
    rows = tuple(
        (r.fixed_check.text, r.slow_total.text, r.total.text, r.end_to_end_speedup.text)
        for r in presets
    )
    highlight = next(
        (i for i, r in enumerate(presets) if r.fixed_check.value == d.fixed_check), None
    )
    return Table(
        ("Fixed check", keep(talk.slow), keep(talk.speed), "End to end"),
        keep_figures(rows),
        ("l", "r", "r", "r"),
        highlight,
        f"The same {fmt.tokens(work.output_tokens)} tokens "
        f"({fmt.count(work.count)} {work.noun}) with each fixed check.",
    )


def checks(talk: Talk) -> list[Fraction]:
    """The preset checks in order, with the chosen one among them."""
    d = talk.content.dial
    out = list(d.check_presets)
    if d.fixed_check not in out:  # the chosen check gets its own curve
        at = next((i for i, c in enumerate(out) if c > d.fixed_check), len(out))
        out.insert(at, d.fixed_check)
    return out


def ceiling_chart(talk: Talk) -> LineChart:
    """End-to-end speedup against speed, one line per check, each toward its ceiling."""
    d = talk.content.dial
    output_tokens = talk.content.workload(talk.content.bottleneck.workload).output_tokens
    low, high = speed_span(d)
    speeds = sorted(set(speeds_across(low, high)) | {d.slow_speed, d.speed})
    lines = []
    described = []
    for check in checks(talk):
        points = tuple(
            (s, dial.end_to_end_speedup(output_tokens, s, d.slow_speed, check)) for s in speeds
        )
        cap = dial.ceiling(output_tokens, d.slow_speed, check)
        at_speed = dial.end_to_end_speedup(output_tokens, d.speed, d.slow_speed, check)
        label = f"Check {fmt.check(check).lower()}"
        lines.append(Line(label, points, check == d.fixed_check, cap,
                          f"ceiling {fmt.speedup(cap)}" if cap is not None else ""))
        described.append(
            f"{label}: {fmt.speedup(at_speed)} at {fmt.speed_mark(d.speed)}"
            + (f", ceiling {fmt.speedup(cap)}" if cap is not None else ", no ceiling")
        )
    ours = next(i for i, line in enumerate(lines) if line.emphasis)
    value = dial.end_to_end_speedup(output_tokens, d.speed, d.slow_speed, d.fixed_check)
    cap = dial.ceiling(output_tokens, d.slow_speed, d.fixed_check)
    ys = [p[1] for line in lines for p in line.points]
    ys += [line.asymptote for line in lines if line.asymptote is not None]
    y_low, y_high = span(ys)
    under = f", under its ceiling of {fmt.speedup(cap)}" if cap is not None else ""
    alt = (
        f"Line chart, both axes logarithmic: end-to-end speedup against speed from "
        f"{fmt.speed(low)} to {fmt.speed(high)}, one line per fixed check, each flattening "
        f"toward its ceiling. " + "; ".join(described) + ". The chosen check, "
        f"{fmt.check(d.fixed_check).lower()}, is highlighted and our dial is marked at "
        f"{fmt.speed_mark(d.speed)}: {fmt.speedup(value)}{under}."
    )
    return LineChart(
        "ceiling",
        "End-to-end speedup against speed",
        "Speed (tokens/sec, log scale)",
        "End-to-end speedup (log scale)",
        tuple(Tick(v, fmt.speed_mark(v)) for v in decades(low, high)),
        tuple(Tick(v, fmt.speedup(v)) for v in decades(y_low, y_high)),
        tuple(lines),
        d.speed,
        f"Our dial: {fmt.speed_mark(d.speed)}",
        alt,
        marks=(Mark(ours, d.speed, value, fmt.speedup(value),
                    f"{lines[ours].label} at {fmt.speed_mark(d.speed)}"),),
        x_range=(low, high),
        y_range=(y_low, y_high),
        y_unit="times",
    )
