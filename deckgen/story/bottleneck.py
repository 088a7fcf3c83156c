"""The bottleneck: a fixed check after the writing, and how it caps the end-to-end speedup
however fast the writing gets (Amdahl's law)."""

from __future__ import annotations

from fractions import Fraction

from deckgen import dial, fmt
from deckgen.figures import batch, division
from deckgen.story.parts import Bar, BarChart, BigFigure, Bottleneck, Labels, Segment, Slide
from deckgen.story.talk import Talk, keep


def tell(talk: Talk) -> tuple[Bottleneck, BarChart, Slide]:
    """The bottleneck's figures and sentences, the bars of where each total goes, and the
    slide (which shows the bars only when there is a check)."""
    b = batch(talk.content)
    told, bars = figures(talk, b), bars_chart(talk, b)
    slide = talk.slide("bottleneck", told.summary, chart=bars if told.has_check else None)
    return told, bars, slide


def figures(talk: Talk, b: dial.Batch) -> Bottleneck:
    """The big figures, the sums that give them and the sentences around them."""
    content = talk.content
    cb = content.bottleneck
    d = content.dial

    def bf(name: str) -> str:  # the bottleneck's figures, as the prose names them
        return talk.figure(f"bottleneck.{name}")

    speed_num, slow_num = division(d.speed, d.slow_speed)
    writing_how = f"{speed_num} {fmt.DIVIDE} {keep(slow_num + ' tokens/sec')}"
    end_to_end_how = (  # both totals in seconds, at the precision that gives the figure
        f"{bf('slow_total_seconds')} {fmt.DIVIDE} {keep(bf('total_seconds') + ' seconds')}"
    )
    share_how = f"of the {keep(bf('total'))} total"
    labels = Labels()
    big = (
        BigFigure("writing_speedup", labels.writing_speedup, bf("writing_speedup"),
                  writing_how, "muted" if b.fixed_check else "accent"),
        BigFigure("end_to_end_speedup", labels.end_to_end_speedup, bf("end_to_end_speedup"),
                  end_to_end_how, "accent"),
        BigFigure("check_share", labels.check_share, bf("check_share"), share_how, "text"),
    )
    return Bottleneck(
        setup=talk.prose("bottleneck.setup", cb.setup),
        model=talk.prose("bottleneck.model", cb.model),
        lesson=talk.prose("bottleneck.lesson", cb.lesson),
        check=keep(fmt.check(b.fixed_check)),
        writing_speedup=bf("writing_speedup"),
        writing_speedup_how=writing_how,
        end_to_end_speedup=bf("end_to_end_speedup"),
        end_to_end_how=end_to_end_how,
        slow_total=keep(bf("slow_total")),
        total=keep(bf("total")),
        check_share=bf("check_share"),
        ceiling=bf("ceiling"),
        ceiling_sentence=(talk.prose("bottleneck.ceiling", cb.ceiling) if b.ceiling is not None
                          else talk.prose("bottleneck.no_ceiling", cb.no_ceiling)),
        summary=summary(talk, b),
        has_ceiling=b.ceiling is not None,
        check_share_how=share_how,
        figures=big if b.fixed_check else big[:1],
        has_check=bool(b.fixed_check),
    )


def summary(talk: Talk, b: dial.Batch) -> str:
    """The bottleneck in one sentence: both totals, the speedup end to end, the check's share."""

    def bf(name: str) -> str:
        return talk.figure(f"bottleneck.{name}")

    speed, slow = talk.speed, talk.slow
    checking = f"With {bf('fixed_check')} of checking" if b.fixed_check else "With no check"
    ratio = b.end_to_end_speedup
    faster = ("faster end to end" if ratio > 1 else
              "no faster end to end" if ratio == 1 else f"end to end, slower than at {slow}")
    of_total = "of the faster total" if ratio > 1 else f"of the total at {speed}"
    takes = (f"{checking}, the batch takes {bf('slow_total')} at {slow} and {bf('total')} at "
             f"{speed}: ")
    if b.fixed_check:
        return (f"{takes}{bf('end_to_end_speedup')} {faster}, and checking is "
                f"{bf('check_share')} {of_total}.")
    return f"{takes}{bf('writing_speedup')} {faster}, the writing speedup itself."


def bars_chart(talk: Talk, b: dial.Batch) -> BarChart:
    """Two bars, the slow end and the dial, each split into writing and the fixed check."""
    d = talk.content.dial

    def bar(speed: str, total: str, writing: Fraction, check: Fraction, ours: bool) -> Bar:
        return Bar(f"{speed}: {total}",
                   (Segment("Writing", writing, fmt.share(writing)),
                    Segment("Fixed check", check, fmt.share(check))),
                   ours)

    bars = (
        bar(fmt.speed(d.slow_speed), fmt.duration(b.slow_total), b.slow_writing_share,
            b.slow_check_share, False),
        bar(fmt.speed(d.speed), fmt.duration(b.total), b.writing_share, b.check_share, True),
    )
    check = f"a fixed check of {fmt.duration(b.fixed_check)}" if b.fixed_check else "no fixed check"
    alt = (
        f"Two horizontal bars, each 100% of its own total, split into writing and {check}. "
        f"At {fmt.speed(d.slow_speed)} the total is "
        f"{fmt.duration(b.slow_total)}: writing {fmt.share(b.slow_writing_share)}, check "
        f"{fmt.share(b.slow_check_share)}. At {fmt.speed(d.speed)} the total is "
        f"{fmt.duration(b.total)}: writing {fmt.share(b.writing_share)}, check "
        f"{fmt.share(b.check_share)}. Writing speedup {fmt.speedup(b.writing_speedup)}, "
        f"end-to-end speedup {fmt.speedup(b.end_to_end_speedup)}."
    )
    return BarChart("bottleneck", "Where each total goes", bars, alt)
