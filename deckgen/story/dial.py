"""The dial: one workload's writing time at the chosen speed, against the slow end; and the
walk, the same figure at every speed mark for clicking through the dial live."""

from __future__ import annotations

from fractions import Fraction

from deckgen import fmt
from deckgen.dial import writing_time
from deckgen.story.parts import DialView, Slide, Text
from deckgen.story.talk import Talk, keep


def view(talk: Talk, speed: Fraction) -> DialView:
    """The featured workload at `speed`: its big figure, its sum and its sentence."""
    d = talk.content.dial
    w = talk.content.workload(d.workload)
    fast = writing_time(w.output_tokens, speed)
    slow = writing_time(w.output_tokens, d.slow_speed)
    count = f"{fmt.count(w.count)} {w.noun}"
    return DialView(
        speed=fmt.speed(speed),
        speed_mark=fmt.speed_mark(speed),
        title=talk.fill(w.title),
        arithmetic=f"{count} {fmt.TIMES} {fmt.tokens(w.tokens_each)} tokens = "
        f"{fmt.tokens(w.output_tokens)} output tokens",
        figure=keep(fmt.duration(fast)),
        sentence=f"{count}: {keep(fmt.duration(fast))} of writing at {keep(fmt.speed(speed))}",
        slow_speed=keep(fmt.speed(d.slow_speed)),
        slow_figure=keep(fmt.duration(slow)),
        at_speed=f"At {keep(fmt.speed(speed))}",
        at_slow_speed=f"At {keep(fmt.speed(d.slow_speed))}",
        # the baseline is the faster end of the dial when the dial is set below it
        slow_note="the same batch, at the " + ("faster" if speed < d.slow_speed else "slow")
        + " end of the dial",
        writing_at=f"of writing at {keep(fmt.speed(speed))}",
    )


def tell(talk: Talk) -> tuple[DialView, Slide]:
    """The dial at the content's speed, and its slide."""
    shown = view(talk, talk.content.dial.speed)
    said = (f"On the slide: {shown.sentence}. "
            f"At {shown.slow_speed} the same batch takes {shown.slow_figure}.")
    return shown, talk.slide("dial", said, dial=shown)


def walk(talk: Talk) -> tuple[Slide, ...]:
    """One 'turn the dial' slide per speed mark, each titled with its speed."""
    slides = []
    for mark in talk.content.dial.speed_marks:
        shown = view(talk, mark)
        notes = (f"{shown.sentence}. At {shown.slow_speed} the same batch takes "
                 f"{shown.slow_figure}.")
        headline = talk.headline("dial")  # each its own title: "Turn the dial to 1K tokens/sec"
        headline = Text(f"{headline.text} to {keep(fmt.speed(mark))}", headline.origin)
        slides.append(Slide("dial", talk.kicker("dial"), headline,
                            notes.replace(fmt.NBSP, " "), dial=shown))
    return tuple(slides)
