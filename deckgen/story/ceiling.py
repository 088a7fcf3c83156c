"""The ceiling: the same batch under each fixed check (the presets), and the end-to-end
speedup flattening toward its ceiling as the dial turns."""

from __future__ import annotations

from fractions import Fraction

from deckgen import dial, fmt, report
from deckgen.story.axes import decades, span, speed_span, speeds_across
from deckgen.story.parts import BottleneckView, Line, LineChart, Mark, Slide, Table, Tick
from deckgen.story.talk import Talk, keep, keep_figures, table_notes


def tell(talk: Talk, told: BottleneckView) -> tuple[Table, LineChart, tuple[Slide, ...]]:
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
    w = talk.words
    return Table(
        (w.fixed_check, keep(talk.slow), keep(talk.speed), w.end_to_end),
        keep_figures(rows),
        ("l", "r", "r", "r"),
        highlight,
        w.say("presets_caption", tokens=fmt.tokens(work.output_tokens, talk.lang),
              count=fmt.count(work.count, talk.lang), noun=work.noun),
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
    lang, w = talk.lang, talk.words
    mark = fmt.dial_mark(d.speed, lang)
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
        label = w.say("check_line", check=talk.check(check, inline=True))
        lines.append(Line(label, points, check == d.fixed_check, cap,
                          w.say("ceiling_of", ceiling=fmt.speedup(cap, lang))
                          if cap is not None else ""))
        described.append(
            w.say("line_with_ceiling", line=label, speedup=fmt.speedup(at_speed, lang),
                  mark=mark, ceiling=fmt.speedup(cap, lang)) if cap is not None
            else w.say("line_without_ceiling", line=label, speedup=fmt.speedup(at_speed, lang),
                       mark=mark))
    ours = next(i for i, line in enumerate(lines) if line.emphasis)
    value = dial.end_to_end_speedup(output_tokens, d.speed, d.slow_speed, d.fixed_check)
    cap = dial.ceiling(output_tokens, d.slow_speed, d.fixed_check)
    ys = [p[1] for line in lines for p in line.points]
    ys += [line.asymptote for line in lines if line.asymptote is not None]
    y_low, y_high = span(ys)
    under = w.say("under_ceiling", ceiling=fmt.speedup(cap, lang)) if cap is not None else ""
    alt = w.say("ceiling_alt", low=talk.rate(low), high=talk.rate(high),
                lines="; ".join(described), check=talk.check(d.fixed_check, inline=True),
                mark=mark, speedup=fmt.speedup(value, lang), under=under)
    return LineChart(
        "ceiling",
        w.ceiling_title,
        w.speed_axis,
        w.speedup_axis,
        tuple(Tick(v, fmt.speed_mark(v, lang)) for v in decades(low, high)),
        tuple(Tick(v, fmt.speedup(v, lang)) for v in decades(y_low, y_high)),
        tuple(lines),
        d.speed,
        w.say("our_dial_at", speed=mark),
        alt,
        marks=(Mark(ours, d.speed, value, fmt.speedup(value, lang),
                    w.say("point_at", line=lines[ours].label, mark=mark)),),
        x_range=(low, high),
        y_range=(y_low, y_high),
        language=talk.content.meta.language,
        seconds_suffix=talk.lang.short_seconds.replace("{}", ""),
        y_unit="times",
    )
