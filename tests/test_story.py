"""The story of the bundled explainer: its published figures, its sections in the talk's order,
the walk through the dial, and the prose a live renderer shows agreeing with the story's."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import deckgen.story
from deckgen import source
from deckgen.figures import with_overrides
from deckgen.story import Story, Text

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def content() -> Any:
    return source.read(None)[0]


@pytest.fixture(scope="module")
def story(content: Any) -> Story:
    return deckgen.story.compose(content)


def shown(text: str) -> str:
    """Text as a reader sees it: a no-break space is a space."""
    return text.replace(NBSP, " ")


def test_the_explainers_published_figures(story: Story) -> None:
    """1,000 endings of 1,000 tokens take 2 h 46 min 40 s at 100 tokens/sec and 1 second at
    1,000,000; with a 60 s check the batch is 132.57x faster end to end, under 134.33x."""
    assert shown(story.dial.slow_figure) == "2 h 46 min 40 s"
    assert shown(story.dial.figure) == "1 second"
    assert shown(story.workload_table.rows[0][2]) == "2 h 46 min 40 s"
    assert story.bottleneck.end_to_end_speedup == "132.57\u00d7"
    assert story.bottleneck.ceiling == "134.33\u00d7"
    assert [shown(c) for c in story.presets_table.rows[1]] == [
        "60 seconds", "2 h 14 min 20 s", "60.8 seconds", "132.57\u00d7"]
    ceiling = story.chart("ceiling")
    assert isinstance(ceiling, deckgen.story.LineChart)
    assert [m.label for m in ceiling.marks] == ["132.57\u00d7"]
    dial_notes = next(s.notes for s in story.slides if s.kind == "dial")
    assert dial_notes.endswith("At 100 tokens/sec the same batch takes 2 h 46 min 40 s.")


def test_the_sections_in_the_talks_order(story: Story) -> None:
    assert [s.kind for s in story.slides] == [
        "title", "meanings", "dial", "workloads", "writing_chart", *["experiment"] * 4,
        "bottleneck", "presets", "ceiling", "precious", "checklist", "sources", "closing"]
    assert [c.key for c in story.charts] == ["writing_time", "bottleneck", "ceiling"]
    assert all(NBSP not in s.notes for s in story.slides)  # notes are read, not laid out


def test_the_walk_turns_the_dial_through_every_mark(content: Any) -> None:
    walk = deckgen.story.walk(content)
    assert [s.dial.speed_mark for s in walk if s.dial] == ["100", "1K", "10K", "100K", "1M"]
    assert [shown(s.dial.figure) for s in walk if s.dial] == [
        "2 h 46 min 40 s", "16 min 40 s", "1 min 40 s", "10 seconds", "1 second"]
    assert walk[0].notes == ("1,000 story endings: 2 h 46 min 40 s of writing at 100 "
                             "tokens/sec. At 100 tokens/sec the same batch takes "
                             "2 h 46 min 40 s.")


def _texts(value: Any) -> list[Text]:
    """Every Text in a story part, at any depth."""
    if isinstance(value, Text):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value) for t in _texts(getattr(value, f.name))]
    if isinstance(value, tuple):
        return [t for v in value for t in _texts(v)]
    return []


@pytest.mark.parametrize("dial", [(), ("2500", "15 min", "candidates"), ("3162", "none")])
def test_the_live_prose_is_the_storys_prose(content: Any, dial: tuple[str, ...]) -> None:
    """Each text the story took from the content reads the same from the live renderer's
    pieces, every figure named where the prose names one."""
    story = deckgen.story.compose(with_overrides(content, *dial))
    prose = story.live.prose
    texts = [t for t in _texts(story) if t.origin in prose]
    assert len({t.origin for t in texts}) > 20
    for text in texts:
        joined = "".join(p.text for p in prose[text.origin])
        assert shown(joined) == shown(text.text), text.origin
    summary = prose["bottleneck.lesson"] + prose["bottleneck.ceiling"]
    assert any(p.figure for p in summary)
    assert [m.label for m in story.live.speed_marks] == ["100", "1K", "10K", "100K", "1M"]


def test_walk_slides_each_have_their_own_title(content: Any) -> None:
    titles = [s.headline.text.replace("\u00a0", " ") for s in deckgen.story.walk(content)]
    assert titles[0] == "Turn the dial to 100 tokens/sec"
    assert titles[-1] == "Turn the dial to 1,000,000 tokens/sec"
    assert len(set(titles)) == len(titles)


@pytest.mark.parametrize(("speed", "end"), [(50, "faster"), (100, "slow"), (10_000, "slow")])
def test_the_baseline_is_named_by_its_end_of_the_dial(content: Any, speed: int,
                                                      end: str) -> None:
    from fractions import Fraction

    dialled = dataclasses.replace(content, dial=dataclasses.replace(content.dial,
                                                                    speed=Fraction(speed)))
    dial = next(s for s in deckgen.story.compose(dialled).slides if s.kind == "dial").dial
    assert dial is not None
    assert dial.slow_note == f"the same batch, at the {end} end of the dial"
