"""The bottleneck: a fixed check after the writing, and how it caps the end-to-end speedup
however fast the writing gets (Amdahl's law)."""

from __future__ import annotations

from fractions import Fraction

from deckgen import dial, fmt
from deckgen.figures import batch, division
from deckgen.story.parts import Bar, BarChart, BigFigure, BottleneckView, Labels, Segment, Slide
from deckgen.story.talk import Talk, keep


def tell(talk: Talk) -> tuple[BottleneckView, BarChart, Slide]:
    """The bottleneck's figures and sentences, the bars of where each total goes, and the
    slide (which shows the bars only when there is a check)."""
    b = batch(talk.content)
    told, bars = figures(talk, b), bars_chart(talk, b)
    slide = talk.slide("bottleneck", told.summary, chart=bars if told.has_check else None)
    return told, bars, slide


def figures(talk: Talk, b: dial.Batch) -> BottleneckView:
    """The big figures, the sums that give them and the sentences around them."""
    content = talk.content
    cb = content.bottleneck
    d = content.dial

    def bf(name: str) -> str:  # the bottleneck's figures, as the prose names them
        return talk.figure(f"bottleneck.{name}")

    w = talk.words
    speed_num, slow_num = division(d.speed, d.slow_speed, talk.lang)
    writing_how = f"{speed_num} {fmt.DIVIDE} {keep(slow_num + ' ' + w.tokens_per_sec)}"
    end_to_end_how = (  # both totals in seconds, at the precision that gives the figure
        f"{bf('slow_total_seconds')} {fmt.DIVIDE} "
        f"{keep(w.say('seconds', seconds=bf('total_seconds')))}"
    )
    share_how = w.say("share_how", total=keep(bf("total")))
    labels = labels_of(talk)
    big = (
        BigFigure("writing_speedup", labels.writing_speedup, bf("writing_speedup"),
                  writing_how, "muted" if b.fixed_check else "accent"),
        BigFigure("end_to_end_speedup", labels.end_to_end_speedup, bf("end_to_end_speedup"),
                  end_to_end_how, "accent"),
        BigFigure("check_share", labels.check_share, bf("check_share"), share_how, "text"),
    )
    return BottleneckView(
        setup=talk.prose("bottleneck.setup", cb.setup),
        model=talk.prose("bottleneck.model", cb.model),
        lesson=talk.prose("bottleneck.lesson", cb.lesson),
        check=keep(talk.check(b.fixed_check)),
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
    w = talk.words
    ratio = b.end_to_end_speedup
    faster = (w.faster if ratio > 1 else w.no_faster if ratio == 1
              else w.say("slower", slow=slow))
    of_total = w.of_faster_total if ratio > 1 else w.say("of_total_at", speed=speed)
    both = {"slow_total": bf("slow_total"), "slow": slow, "total": bf("total"), "speed": speed,
            "faster": faster}
    if b.fixed_check:
        return w.say("summary_check", check=bf("fixed_check"),
                     speedup=bf("end_to_end_speedup"), share=bf("check_share"),
                     of_total=of_total, **both)
    return w.say("summary_no_check", speedup=bf("writing_speedup"), **both)


def bars_chart(talk: Talk, b: dial.Batch) -> BarChart:
    """Two bars, the slow end and the dial, each split into writing and the fixed check."""
    lang, w = talk.lang, talk.words

    def bar(speed: str, total: str, writing: Fraction, check: Fraction, ours: bool) -> Bar:
        return Bar(f"{speed}: {total}",
                   (Segment(w.writing, writing, fmt.share(writing, lang)),
                    Segment(w.fixed_check, check, fmt.share(check, lang))),
                   ours)

    bars = (
        bar(talk.slow, fmt.duration(b.slow_total, lang), b.slow_writing_share,
            b.slow_check_share, False),
        bar(talk.speed, fmt.duration(b.total, lang), b.writing_share, b.check_share, True),
    )
    check = (w.say("check_of", check=fmt.duration(b.fixed_check, lang)) if b.fixed_check
             else w.no_fixed_check)
    alt = w.say(
        "bars_alt", whole=lang.percent.format(fmt.number(100, 2, lang)), check=check,
        slow=talk.slow,
        slow_total=fmt.duration(b.slow_total, lang),
        slow_writing=fmt.share(b.slow_writing_share, lang),
        slow_checking=fmt.share(b.slow_check_share, lang), speed=talk.speed,
        total=fmt.duration(b.total, lang), writing=fmt.share(b.writing_share, lang),
        checking=fmt.share(b.check_share, lang),
        writing_speedup=fmt.speedup(b.writing_speedup, lang),
        end_to_end=fmt.speedup(b.end_to_end_speedup, lang))
    return BarChart("bottleneck", w.bars_title, bars, alt)


def labels_of(talk: Talk) -> Labels:
    """The labels beside the big figures, in the talk's words."""
    w = talk.words
    return Labels(still_scarce=w.still_scarce, writing_speedup=w.writing_speedup,
                  end_to_end_speedup=w.end_to_end_speedup, check_share=w.check_share,
                  ceiling=w.ceiling, our_dial=w.our_dial, source=w.source, supports=w.supports)
