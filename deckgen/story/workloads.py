"""The workloads: every workload at both ends of the dial, as a table and as a chart of
writing time across the dial."""

from __future__ import annotations

from fractions import Fraction

from deckgen import fmt, report
from deckgen.dial import writing_time
from deckgen.story.axes import decade_above, decade_below, decades, speed_span
from deckgen.story.parts import Line, LineChart, Mark, Slide, Table, Text, Tick
from deckgen.story.talk import Talk, keep, keep_figures, table_notes


def tell(talk: Talk) -> tuple[Table, LineChart, tuple[Slide, ...]]:
    """The table, the chart, and their two slides: the chart gets a slide of its own, since
    under the table it has too little height for a label at every decade at a size the back
    of the room can read."""
    table, chart = workload_table(talk), writing_chart(talk)
    slides = (talk.slide("workloads", table_notes(table), table=table),
              Slide("writing_chart", talk.kicker("workloads"), Text(chart.title),
                    chart.alt_text, chart=chart))
    return table, chart, slides


def workload_table(talk: Talk) -> Table:
    """All the workloads at both ends of the dial, the featured one highlighted."""
    content = talk.content
    rows = tuple(
        (r.label, r.output_tokens.text, r.slow_writing_time.text, r.writing_time.text)
        for r in report.workload_rows(content)
    )
    featured_row = [w.id for w in content.workloads].index(content.dial.workload)
    w = talk.words
    return Table(
        (w.workload, w.output_tokens, keep(talk.slow), keep(talk.speed)),
        keep_figures(rows),
        ("l", "r", "r", "r"),
        featured_row,
        w.workloads_caption,
    )


def writing_chart(talk: Talk) -> LineChart:
    """Writing time against speed, one line per workload, the dial marked."""
    content = talk.content
    d = content.dial
    lang, w_ = talk.lang, talk.words
    low, high = speed_span(d)
    xs = sorted({low, d.slow_speed, d.speed, high})
    lines = []
    for w in content.workloads:
        points = tuple((s, writing_time(w.output_tokens, s)) for s in xs)
        lines.append(Line(f"{fmt.count(w.count, lang)} {w.noun}", points, w.id == d.workload))
    times = [t for line in lines for _, t in line.points]
    y_low, y_high = decade_below(min(times)), decade_above(max(times))
    ours = [w.id for w in content.workloads].index(d.workload)
    at_dial = writing_time(content.workload(d.workload).output_tokens, d.speed)
    mark = fmt.dial_mark(d.speed, lang)
    return LineChart(
        "writing_time",
        w_.say("writing_chart_title", low=fmt.speed_mark(low, lang),
               high=fmt.speed_mark(high, lang)),
        w_.speed_axis,
        w_.writing_axis,
        tuple(Tick(v, fmt.speed_mark(v, lang)) for v in decades(low, high)),
        tuple(Tick(v, lang.short_seconds.format(fmt.number(v, 2, lang)))
              for v in decades(y_low, y_high)),
        tuple(lines),
        d.speed,
        w_.say("our_dial_at", speed=mark),
        _writing_alt(talk, lines, low, high),
        marks=(Mark(ours, d.speed, at_dial, fmt.duration(at_dial, lang),
                    w_.say("point_at", line=lines[ours].label, mark=mark)),),
        x_range=(low, high),
        y_range=(y_low, y_high),
        language=talk.content.meta.language,
        seconds_suffix=talk.lang.short_seconds.replace("{}", ""),
        y_unit="seconds",
    )


def _writing_alt(talk: Talk, lines: list[Line], low: Fraction, high: Fraction) -> str:
    """The writing-time chart in words: every workload at both ends of the dial."""
    content = talk.content
    d = content.dial
    featured = content.workload(d.workload)

    def at(speed: Fraction) -> str:
        return "; ".join(
            f"{line.label}: {fmt.duration(writing_time(w.output_tokens, speed), talk.lang)}"
            for line, w in zip(lines, content.workloads, strict=True)
        )

    return talk.say("writing_alt", low=talk.rate(low), high=talk.rate(high),
                    slow=talk.rate(d.slow_speed), at_slow=at(d.slow_speed),
                    speed=talk.rate(d.speed), at_speed=at(d.speed),
                    featured=f"{fmt.count(featured.count, talk.lang)} {featured.noun}")
