"""Charts are drawn once per input: from memory, then from the output folder's cache."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT

import deckgen
import deckgen.story
from deckgen import buildcache, source


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, object]]]:
    """Stand in for the chart code: every draw is recorded and gives bytes naming its input."""
    calls: list[tuple[str, dict[str, object]]] = []

    def render(chart, theme, **sizes):  # type: ignore[no-untyped-def]
        calls.append((chart.key, sizes))
        return f"{chart.key} {sorted(sizes.items())}".encode()

    fake = types.ModuleType("deckgen.charts")
    fake.render = render  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "deckgen.charts", fake)
    monkeypatch.setattr(deckgen, "charts", fake, raising=False)
    yield calls


@pytest.fixture(scope="module")
def story() -> deckgen.story.Story:
    content, _ = source.read(DEFAULT_CONTENT)
    return deckgen.story.compose(content)


def draw(cache: buildcache.Cache, story: deckgen.story.Story, key: str = "ceiling",
         **sizes: object) -> bytes:
    size = {"width_in": 10.0, "height_in": 4.5, "fmt": "png", **sizes}
    return cache.render(story.chart(key), story.theme, **size)  # type: ignore[arg-type]


def test_drawn_once_then_from_memory(drawn, story) -> None:  # type: ignore[no-untyped-def]
    cache = buildcache.Cache()
    first = draw(cache, story)
    assert draw(cache, story) == first
    assert len(drawn) == 1
    draw(cache, story, width_in=8.0)
    draw(cache, story, fmt="svg")
    draw(cache, story, "bottleneck")
    assert [key for key, _ in drawn] == ["ceiling", "ceiling", "ceiling", "bottleneck"]
    assert cache.stats == {"drawn": 4, "from_memory": 1, "from_disk": 0}


def test_each_build_has_its_own_cache_unless_it_is_handed_a_memory(drawn, story) -> None:  # type: ignore[no-untyped-def]
    draw(buildcache.Cache(), story)
    draw(buildcache.Cache(), story)  # no state in the module: a new build draws again
    assert len(drawn) == 2
    memory = buildcache.Memory()
    draw(buildcache.Cache(memory=memory), story)
    again = buildcache.Cache(memory=memory)  # a watch's next build
    draw(again, story)
    assert len(drawn) == 3
    assert again.stats == {"drawn": 0, "from_memory": 1, "from_disk": 0}


def test_memory_keeps_the_most_recently_used(drawn, story) -> None:  # type: ignore[no-untyped-def]
    cache = buildcache.Cache(memory=buildcache.Memory(size=2))
    for width in (1.0, 2.0, 3.0):
        draw(cache, story, width_in=width)
    draw(cache, story, width_in=3.0)
    draw(cache, story, width_in=2.0)
    assert len(drawn) == 3
    draw(cache, story, width_in=1.0)  # forgotten: the oldest of three
    assert len(drawn) == 4


def test_kept_on_disk_for_the_next_build(drawn, story, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with buildcache.use(tmp_path) as cache:
        first = draw(cache, story)
    entries = list((tmp_path / buildcache.FOLDER).iterdir())
    assert len(entries) == 1 and entries[0].suffix == ".png"
    with buildcache.use(tmp_path) as cache:
        assert draw(cache, story) == first
    assert len(drawn) == 1


def test_a_damaged_entry_is_drawn_again(drawn, story, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with buildcache.use(tmp_path) as cache:
        first = draw(cache, story)
    [entry] = (tmp_path / buildcache.FOLDER).iterdir()
    entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    with buildcache.use(tmp_path) as cache:
        assert draw(cache, story) == first
    assert len(drawn) == 2


def test_another_dial_is_another_chart(drawn, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from deckgen.figures import with_overrides

    content, _ = source.read(DEFAULT_CONTENT)
    one = deckgen.story.compose(content)
    other = deckgen.story.compose(with_overrides(content, speed="10K"))
    with buildcache.use(tmp_path) as cache:
        draw(cache, one)
        draw(cache, other)
    assert len(drawn) == 2


def test_no_usable_folder_never_fails_a_build(drawn, story, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "out"
    blocker.mkdir()
    (blocker / buildcache.FOLDER).write_text("a file where the cache folder goes", encoding="utf-8")
    with buildcache.use(blocker) as cache:
        assert draw(cache, story).startswith(b"ceiling")
    assert (blocker / buildcache.FOLDER).read_text(encoding="utf-8").startswith("a file")


def test_pruned_to_the_most_recently_used(
    drawn,
    story,
    tmp_path: Path,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(buildcache, "MAX_ENTRIES", 4)
    with buildcache.use(tmp_path) as cache:
        for width in range(1, 5):
            draw(cache, story, width_in=float(width))
    assert len(list((tmp_path / buildcache.FOLDER).iterdir())) == 4  # up to the limit: kept
    with buildcache.use(tmp_path) as cache:
        for width in range(5, 7):
            draw(cache, story, width_in=float(width))
    # past it: three quarters of the limit are kept, the ones used last among them
    kept = {entry.name for entry in (tmp_path / buildcache.FOLDER).iterdir()}
    assert len(kept) == 3
    assert {buildcache._name(key, "png") for key in cache.memory.entries} < kept


# --- A rebuild after a change of prose draws no chart and never loads matplotlib ------------

PROBE = """
import runpy, sys, json
sys.argv = ["deckgen", *sys.argv[1:]]
from deckgen import buildcache
stats = {"drawn": 0, "from_memory": 0, "from_disk": 0}
rendered = buildcache.Cache.render
def counted(self, *args, **kwargs):
    before = dict(self.stats)
    data = rendered(self, *args, **kwargs)
    for key in stats:
        stats[key] += self.stats[key] - before[key]
    return data
buildcache.Cache.render = counted
code = 0
try:
    runpy.run_module("deckgen", run_name="__main__")
except SystemExit as done:
    code = done.code or 0
print(json.dumps({"code": code, "matplotlib": "matplotlib" in sys.modules, **stats}),
      file=sys.stderr)
"""


def probe(*args: str) -> dict[str, object]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    return json.loads(run.stderr.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize("only", ["deck", "handout"])
def test_a_prose_only_rebuild_reads_every_chart_back(
    default_build: Path, tmp_path: Path, only: str
) -> None:
    out = tmp_path / "out"
    shutil.copytree(default_build, out)
    content = tmp_path / "content.yaml"
    content.write_text(
        DEFAULT_CONTENT.read_text(encoding="utf-8").replace(
            "presenter: Your name here", "presenter: Ada Lovelace"
        ),
        encoding="utf-8",
    )
    report = probe("build", str(content), "--out", str(out), "--only", only)
    assert report["code"] == 0
    assert report["drawn"] == 0
    # Neither uses the cache by default: the deck's charts are native chart parts and the
    # handout draws its chart with reportlab's shapes, both from the story's data, so there is
    # nothing to read back and matplotlib is never imported.
    assert report["from_disk"] == 0
    assert report["matplotlib"] is False


def test_a_failed_build_keeps_no_chart(drawn, story, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    memory = buildcache.Memory()  # a watch's, from one build to the next
    with pytest.raises(RuntimeError), buildcache.use(tmp_path, memory=memory) as cache:
        draw(cache, story)
        raise RuntimeError("the deck did not fit")
    assert not (tmp_path / buildcache.FOLDER).exists()
    # The next good build keeps it, though drawn before.
    with buildcache.use(tmp_path, memory=memory) as cache:
        draw(cache, story)
    assert len(drawn) == 1
    assert len(list((tmp_path / buildcache.FOLDER).iterdir())) == 1


def test_charts_from_another_process_are_kept_with_ours(drawn, story, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with buildcache.use(tmp_path / "elsewhere", save=False) as cache:
        draw(cache, story, "bottleneck")
        handed = cache.drawn()
    assert len(handed) == 1
    assert not (tmp_path / "elsewhere").exists()  # save=False: the caller keeps them
    with buildcache.use(tmp_path) as cache:
        draw(cache, story)
        cache.adopt(handed)
    names = {p.name for p in (tmp_path / buildcache.FOLDER).iterdir()}
    assert len(names) == 2 and set(handed) <= names


@pytest.mark.slow
def test_a_long_lived_process_collects_each_decks_garbage() -> None:
    """A deck leaves reference cycles holding libxml2 documents (native memory the collector
    does not count); a watch or a sweep's worker collects them after each build, and freezes
    what survives (the lines and measures kept for the next deck), so no collection looks
    at more than one build's objects."""
    import gc
    from dataclasses import replace
    from fractions import Fraction

    from deckgen.render import deck

    content, _ = source.read(DEFAULT_CONTENT)
    stories = [deckgen.story.compose(replace(content, dial=replace(content.dial,
                                                                   speed=Fraction(speed))))
               for speed in (100, 1_000, 10_000, 100_000)]
    memory = buildcache.Memory()
    try:
        deck.render(stories[0], cache=buildcache.Cache(memory=memory))
        memory.tidy()
        deck.render(stories[1], cache=buildcache.Cache(memory=memory))
        assert gc.collect() > 100  # a deck leaves that much behind
        memory.tidy()
        frozen = gc.get_freeze_count()
        deck.render(stories[2], cache=buildcache.Cache(memory=memory))
        deck.render(stories[3], cache=buildcache.Cache(memory=memory))
        memory.tidy()
        assert gc.collect() == 0  # and tidy took it all
        # What the later builds left (kept for the next) is frozen with the rest: the next
        # collection has next to nothing else to look at.
        assert gc.get_freeze_count() > frozen
        assert len(gc.get_objects()) < 1_000
    finally:
        gc.unfreeze()


def test_a_frozen_cycle_let_go_later_is_collected_within_a_few_builds() -> None:
    """tidy() freezes what survives; reference cycles kept somewhere at that moment and let
    go later (a cache dropping what it held) are freed only by a collection that looks at
    the frozen objects too, every FULL_EVERY builds."""
    import gc
    import weakref

    class Node:
        pass

    memory = buildcache.Memory()
    held = [Node()]
    held[0].itself = held[0]  # type: ignore[attr-defined]  # a cycle
    try:
        cycle = weakref.ref(held[0])
        memory.tidy()  # frozen with the rest
        held.clear()  # let go
        memory.tidy()
        assert cycle() is not None  # frozen, and a cycle: not freed yet
        for _ in range(buildcache.FULL_EVERY):
            memory.tidy()
        assert cycle() is None
    finally:
        gc.unfreeze()
