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
    lang = talk.lang
    fast = writing_time(w.output_tokens, speed)
    slow = writing_time(w.output_tokens, d.slow_speed)
    count = fmt.count(w.count, lang)
    at = keep(talk.rate(speed))
    return DialView(
        speed=talk.rate(speed),
        speed_mark=fmt.speed_mark(speed, lang),
        title=talk.fill(w.title),
        arithmetic=talk.say("dial_arithmetic", count=count, noun=w.noun,
                            each=fmt.tokens(w.tokens_each, lang),
                            output=fmt.tokens(w.output_tokens, lang)),
        figure=keep(fmt.duration(fast, lang)),
        sentence=talk.say("dial_sentence", count=count, noun=w.noun,
                          time=keep(fmt.duration(fast, lang)), speed=at),
        slow_speed=keep(talk.rate(d.slow_speed)),
        slow_figure=keep(fmt.duration(slow, lang)),
        at_speed=talk.say("at_speed", speed=at),
        at_slow_speed=talk.say("at_speed", speed=keep(talk.rate(d.slow_speed))),
        # the baseline is the faster end of the dial when the dial is set below it
        slow_note=talk.words.slow_note_faster if speed < d.slow_speed else talk.words.slow_note,
        writing_at=talk.say("writing_at", speed=at),
    )


def tell(talk: Talk) -> tuple[DialView, Slide]:
    """The dial at the content's speed, and its slide."""
    shown = view(talk, talk.content.dial.speed)
    said = talk.say("notes_dial", sentence=shown.sentence, slow=shown.slow_speed,
                    slow_time=shown.slow_figure)
    return shown, talk.slide("dial", said, dial=shown)


def walk(talk: Talk) -> tuple[Slide, ...]:
    """One 'turn the dial' slide per speed mark, each titled with its speed."""
    slides = []
    for mark in talk.content.dial.speed_marks:
        shown = view(talk, mark)
        notes = talk.say("notes_walk", sentence=shown.sentence, slow=shown.slow_speed,
                         slow_time=shown.slow_figure)
        headline = talk.headline("dial")  # each its own title: "Turn the dial to 1K tokens/sec"
        headline = Text(talk.say("walk_headline", headline=headline.text,
                                 speed=keep(talk.rate(mark))), headline.origin)
        slides.append(Slide("dial", talk.kicker("dial"), headline,
                            notes.replace(fmt.NBSP, " "), dial=shown))
    return tuple(slides)
