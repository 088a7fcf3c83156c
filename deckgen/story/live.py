"""The live dial: the content's exact dial and its prose with every figure named, for a
renderer that turns the dial itself (the web page computes every figure again in the browser
as the reader moves its slider)."""

from __future__ import annotations

from fractions import Fraction

from deckgen import fmt
from deckgen.figures import prose_fields, split
from deckgen.story.parts import Live, LiveWorkload, Piece, Tick
from deckgen.story.talk import Talk, keep

CHECK_MARKS = (Fraction(0), Fraction(60), Fraction(3600), Fraction(86400))  # none to 1 day


def tell(talk: Talk) -> Live:
    """The dial's exact values, the workloads' counts, and the prose in pieces."""
    content = talk.content
    d = content.dial
    aggregate = next(((m.streams, m.stream_speed) for m in content.meanings
                      if m.streams is not None and m.stream_speed is not None), None)
    return Live(
        speed=d.speed,
        slow=d.slow_speed,
        workload=d.workload,
        check=d.fixed_check,
        presets=tuple(d.check_presets),
        speed_marks=tuple(Tick(m, fmt.speed_mark(m, talk.lang)) for m in d.speed_marks),
        check_marks=tuple(Tick(m, talk.check(m)) for m in CHECK_MARKS),
        workloads=tuple(LiveWorkload(w.id, w.noun, w.count, w.tokens_each, as_written(w.title))
                        for w in content.workloads),
        bottleneck=content.bottleneck.workload,
        aggregate=aggregate,
        ceiling=as_written(content.bottleneck.ceiling),
        no_ceiling=as_written(content.bottleneck.no_ceiling),
        prose={path: pieces(talk, text) for path, text in prose_fields(content)},
    )


def as_written(text: str) -> tuple[Piece, ...]:
    """Prose as written: literal words, and each placeholder with the figure it names."""
    return tuple(Piece(words, name) for words, name in split(text))


def pieces(talk: Talk, text: str) -> tuple[Piece, ...]:
    """Prose at the dial: literal words, and each figure's text (kept on one line) with its
    name."""
    return tuple(Piece(words, None) if name is None else Piece(keep(talk.figure(name)), name)
                 for words, name in split(text))
