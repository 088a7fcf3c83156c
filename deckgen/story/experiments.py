"""The thought experiments: each workload imagined at the dial's speed, what it would take to
write, and what stays scarce however fast the writing gets."""

from __future__ import annotations

from deckgen.content import Workload
from deckgen.story.parts import Experiment, Slide, Text
from deckgen.story.talk import Talk, keep


def tell(talk: Talk) -> tuple[Text, tuple[Experiment, ...], tuple[Slide, ...]]:
    """The headline over the experiments, one experiment per workload, and a slide for each."""
    content = talk.content
    told = tuple(experiment(talk, i, w) for i, w in enumerate(content.workloads))
    slides = []
    for i, (w, e) in enumerate(zip(content.workloads, told, strict=True)):
        own = talk.fill(w.notes) if w.notes else ""
        said = talk.say("notes_experiment", arithmetic=e.arithmetic, writing=e.writing,
                        still_scarce=talk.words.still_scarce, scarce=e.scarce.text)
        notes = "\n\n".join(p for p in (own, said) if p)
        slides.append(Slide("experiment", talk.kicker("experiments"),
                            Text(e.title, f"workloads[{i}].title"), notes, experiment=e))
    return talk.headline("experiments"), told, tuple(slides)


def experiment(talk: Talk, i: int, w: Workload) -> Experiment:
    """Workload `w` (the `i`th) at the dial's speed."""

    def figure(name: str) -> str:
        return talk.figure(f"workload.{w.id}.{name}")

    featured = w.id == talk.content.dial.workload
    writing_time = keep(figure("writing_time"))
    return Experiment(
        w.id,
        talk.fill(w.title),
        talk.say("experiment_arithmetic", count=figure("count"), each=figure("tokens_each"),
                 output=figure("output_tokens")),
        talk.say("experiment_writing", time=writing_time, speed=keep(talk.speed)),
        talk.prose(f"workloads[{i}].story", w.story),
        talk.prose(f"workloads[{i}].scarce", w.scarce),
        featured,
        writing_time,
        talk.say("writing_at", speed=keep(talk.speed)),
        talk.words.featured if featured else "",
    )
