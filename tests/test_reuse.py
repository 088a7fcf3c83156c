"""A rebuild takes the slides an earlier build drew and draws only the ones that changed; the
deck it writes is byte for byte the deck drawn whole."""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT
from pptx import Presentation

import deckgen.story
from deckgen import build, buildcache, pipeline, source
from deckgen.content import Content
from deckgen.render import deck
from deckgen.render.deck import reuse
from deckgen.render.deck.write import plan_deck


@pytest.fixture(scope="module")
def content() -> Content:
    found, _ = source.read(DEFAULT_CONTENT)
    return found


def story_of(content: Content, **dial: Fraction) -> deckgen.story.Story:
    return deckgen.story.compose(replace(content, dial=replace(content.dial, **dial)))


def renamed(content: Content, presenter: str) -> deckgen.story.Story:
    return deckgen.story.compose(replace(content, meta=replace(content.meta, presenter=presenter)))


def same_plans(a: deckgen.story.Story, b: deckgen.story.Story,
               template: bytes | None = None) -> list[int]:
    """The slides (from 1) whose plans the two stories share, found by planning both."""
    first, second = plan_deck(a, template)[0], plan_deck(b, template)[0]
    return [n for n, (x, y) in enumerate(zip(first, second, strict=True), 1) if x == y]


def test_a_change_of_presenter_draws_the_cover_alone_and_gives_the_whole_decks_bytes(
        content: Content) -> None:
    memory = buildcache.Memory()
    deck.render(renamed(content, "Ada Lovelace"), cache=buildcache.Cache(memory=memory))
    cache = buildcache.Cache(memory=memory)
    kept = deck.render(renamed(content, "Grace Hopper"), cache=cache)
    whole = deck.render(renamed(content, "Grace Hopper"))
    assert kept == whole
    assert cache.slide_stats == {"from_memory": 15, "from_disk": 0, "refused": 0,
                                 "kept": 1}  # the cover
    cover = Presentation(io.BytesIO(kept)).slides[0]
    assert "Grace Hopper" in " ".join(s.text_frame.text for s in cover.shapes if s.has_text_frame)


@pytest.mark.parametrize("speed", [
    Fraction(100), pytest.param(Fraction(40_000), marks=pytest.mark.slow)])
def test_another_speed_keeps_the_slides_it_does_not_change_and_renames_their_parts(
        content: Content, speed: Fraction) -> None:
    memory = buildcache.Memory()
    first = story_of(content)
    deck.render(first, cache=buildcache.Cache(memory=memory))
    second = story_of(content, speed=speed)
    cache = buildcache.Cache(memory=memory)
    kept = deck.render(second, cache=cache)
    assert kept == deck.render(second)
    shared = same_plans(first, second)
    assert cache.slide_stats["from_memory"] == len(shared)
    assert cache.slide_stats["kept"] == 16 - len(shared)
    # a kept slide before a drawn one: python-pptx numbered the drawn one's notes from 1, and
    # the package names them after the slide, as the whole deck does
    assert any(n + 1 not in shared for n in shared)
    with zipfile.ZipFile(io.BytesIO(kept)) as package:
        rels = package.read("ppt/notesSlides/_rels/notesSlide16.xml.rels").decode()
    assert 'Target="../slides/slide16.xml"' in rels


@pytest.mark.slow
def test_a_slide_kept_at_one_place_is_not_taken_at_another(content: Content) -> None:
    memory = buildcache.Memory()
    story = story_of(content)
    deck.render(story, cache=buildcache.Cache(memory=memory))
    walk = deckgen.story.walk(content)
    cache = buildcache.Cache(memory=memory)
    kept = deck.render(story, walk=walk, cache=cache)
    assert kept == deck.render(story, walk=walk)
    # the slides up to the dial's are where they were; those after the walk moved
    dial = next(n for n, s in enumerate(story.slides, 1) if s.kind == "dial")
    assert cache.slide_stats["from_memory"] == dial
    assert len(Presentation(io.BytesIO(kept)).slides) == 16 + len(walk)


@pytest.mark.slow
def test_picture_charts_are_drawn_every_time_and_the_rest_kept(content: Content) -> None:
    memory = buildcache.Memory()
    story = story_of(content)
    deck.render(story, charts="picture", cache=buildcache.Cache(memory=memory))
    cache = buildcache.Cache(memory=memory)
    kept = deck.render(story, charts="picture", cache=cache)
    assert kept == deck.render(story, charts="picture", cache=buildcache.Cache(memory=memory))
    pictures = sum(1 for s in story.slides if s.chart is not None)
    assert cache.slide_stats == {"from_memory": 16 - pictures, "from_disk": 0, "refused": 0,
                                 "kept": 0}


@pytest.mark.slow
def test_on_a_template_its_slides_are_kept_and_the_deck_is_the_whole_one(
        content: Content, tmp_path: Path) -> None:
    path = tmp_path / "default.pptx"
    Presentation().save(str(path))
    template = path.read_bytes()
    memory = buildcache.Memory()
    first = story_of(content)
    deck.render(first, template=template, cache=buildcache.Cache(memory=memory))
    second = story_of(content, fixed_check=Fraction(3600))
    cache = buildcache.Cache(memory=memory)
    kept = deck.render(second, template=template, cache=cache)
    assert kept == deck.render(second, template=template)
    assert cache.slide_stats["from_memory"] == len(same_plans(first, second, template)) > 0
    # and nothing is taken for another template, even with the same plans
    other = tmp_path / "wide.pptx"
    prs = Presentation()
    prs.slide_width = prs.slide_width * 4 // 3
    prs.save(str(other))
    cache = buildcache.Cache(memory=memory)
    deck.render(second, template=other.read_bytes(), cache=cache)
    assert cache.slide_stats["from_memory"] == 0


@pytest.mark.slow
def test_a_rebuild_takes_its_slides_from_the_output_folder(tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    talk = tmp_path / "talk.yaml"
    talk.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    pipeline.build(talk, build.Options(out=out), parallel=False)
    entries = sorted((out / buildcache.FOLDER).glob("*.slide"))
    assert len(entries) == 16
    talk.write_text(text.replace("Your name here", "Ada Lovelace"), encoding="utf-8")
    written, _ = pipeline.build(talk, build.Options(out=out), parallel=False)
    fresh, _ = pipeline.build(talk, build.Options(out=tmp_path / "fresh"), parallel=False)
    assert [p.read_bytes() for p in written] == [p.read_bytes() for p in fresh]
    assert len(list((out / buildcache.FOLDER).glob("*.slide"))) == 17  # the new cover


def test_a_damaged_slide_entry_is_drawn_again(content: Content, tmp_path: Path) -> None:
    story = story_of(content)
    with buildcache.use(tmp_path) as cache:
        whole = deck.render(story, cache=cache)
    for entry in (tmp_path / buildcache.FOLDER).glob("*.slide"):
        data = entry.read_bytes()
        garbage = b"not a slide"
        # the checksum fits: the entry reads, but is no slide
        entry.write_bytes(hashlib.sha256(garbage).hexdigest().encode() + garbage)
        assert data != entry.read_bytes()
    cache = buildcache.Cache(tmp_path)
    assert deck.render(story, cache=cache) == whole
    assert cache.slide_stats["kept"] == 16


def test_slide_parts_survive_their_round_trip_under_their_key_only() -> None:
    parts = reuse.SlideParts((
        ("ppt/slides/slide3.xml", reuse.KINDS[0][1][0], True, b"<slide/>"),
        ("ppt/slides/_rels/slide3.xml.rels", reuse.KINDS[1][1][0], False, b"<rels/>"),
    ))
    assert reuse.SlideParts.from_bytes(parts.to_bytes("abc"), "abc") == parts
    assert reuse.SlideParts.from_bytes(parts.to_bytes("abc"), "abd") is None
    assert reuse.SlideParts.from_bytes(b"PK\x03\x04 not really", "abc") is None
    assert reuse.rels_name("ppt/charts/chart2.xml") == "ppt/charts/_rels/chart2.xml.rels"


@pytest.mark.slow
def test_a_sweep_carries_its_slides_from_speed_to_speed_and_each_deck_is_a_builds(
        tmp_path: Path) -> None:
    from deckgen import sweep

    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(out=tmp_path / "swept"),
                         "100,1K,10K", None)
    written = sweep.run(jobs, 1, lambda _: None)
    decks = sorted(p for p in written if p.suffix == ".pptx")
    assert [p.name for p in decks] == ["million-tokens-100.pptx", "million-tokens-10K.pptx",
                                       "million-tokens-1K.pptx"]
    for speed, deck_path in zip(["100", "10K", "1K"], decks, strict=True):
        alone, _ = pipeline.build(DEFAULT_CONTENT, build.Options(
            out=tmp_path / speed, speed=speed, only="deck"), parallel=False)
        assert deck_path.read_bytes() == alone[0].read_bytes(), speed
    # the slides no speed changes were drawn once and kept once
    kept = list((tmp_path / "swept" / buildcache.FOLDER).glob("*.slide"))
    first, second = (plan_deck(story_of(source.read(DEFAULT_CONTENT)[0], speed=Fraction(s)))[0]
                     for s in (100, 1000))
    shared = sum(1 for a, b in zip(first, second, strict=True) if a == b)
    assert 16 < len(kept) <= 3 * 16 - 2 * shared



def _entry(data: bytes) -> bytes:
    return hashlib.sha256(data).hexdigest().encode("ascii") + data


def _read(path: Path) -> tuple[str, reuse.SlideParts]:
    """An entry's key (its manifest's first line names it whole) and its slide."""
    data = path.read_bytes()[64:]
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        key = package.read("manifest").decode().splitlines()[0].split()[-1]
    parts = reuse.SlideParts.from_bytes(data, key)
    assert parts is not None and key.startswith(path.stem)
    return key, parts


def _swap(entries: list[Path]) -> None:
    first, second = entries[0].read_bytes(), entries[1].read_bytes()
    entries[0].write_bytes(second)
    entries[1].write_bytes(first)


def _with(name: str, data: bytes) -> Callable[[list[Path]], None]:
    def change(entries: list[Path]) -> None:
        key, parts = _read(entries[0])
        hostile = reuse.SlideParts(parts.parts + ((name, "application/xml", True, data),))
        entries[0].write_bytes(_entry(hostile.to_bytes(key)))
    return change


def _cut(entries: list[Path]) -> None:
    key, parts = _read(entries[0])
    (name, kind, override, data), *rest = parts.parts
    cut = reuse.SlideParts(((name, kind, override, data[: len(data) // 2]), *rest))
    entries[0].write_bytes(_entry(cut.to_bytes(key)))


def _dangling(entries: list[Path]) -> None:
    key, parts = _read(entries[0])
    slide, (name, kind, override, rels), *rest = parts.parts
    rels = rels.replace(b"</Relationships>", b'<Relationship Id="rId99" Type="http://'
                        b'schemas.openxmlformats.org/officeDocument/2006/relationships/'
                        b'chart" Target="../charts/chart99.xml"/></Relationships>')
    hostile = reuse.SlideParts((slide, (name, kind, override, rels), *rest))
    entries[0].write_bytes(_entry(hostile.to_bytes(key)))


DAMAGES = {
    "swapped": _swap,  # two entries: each holds the other key's slide
    "presentation": _with("ppt/presentation.xml", b"<p:presentation/>"),
    "content-types": _with("[Content_Types].xml", b"<Types/>"),
    "outside": _with("../../evil.sh", b"echo owned"),
    "huge": _with("ppt/embeddings/Microsoft_Excel_Sheet78.xlsx",  # no XML: only its size
                  b"\0" * (reuse.MAX_SLIDE_BYTES + 1)),  # says it is no slide's; packs small
    "cut": _cut,
}


def _rebuilt(out: Path, damage: Callable[[list[Path]], None]) -> tuple[bytes, bytes]:
    """The deck built into `out`, and built again once `damage` had its way with the
    entries (each damage on entries of its own)."""
    first, _ = pipeline.build(DEFAULT_CONTENT, build.Options(out=out, only="deck"),
                              parallel=False)
    whole = first[0].read_bytes()  # before the second build replaces it
    damage(sorted((out / buildcache.FOLDER).glob("*.slide")))
    again, _ = pipeline.build(DEFAULT_CONTENT, build.Options(out=out, only="deck"),
                              parallel=False)
    assert again == first
    with zipfile.ZipFile(again[0]) as package:
        assert package.testzip() is None
        assert len(package.namelist()) == len(set(package.namelist()))
    return whole, again[0].read_bytes()


def _every_entry_good(out: Path, whole: bytes) -> None:
    cache = buildcache.Cache(out)
    story = deckgen.story.compose(source.read(DEFAULT_CONTENT)[0])
    assert deck.render(story, cache=cache) == whole
    assert cache.slide_stats == {"from_memory": 0, "from_disk": 16, "refused": 0, "kept": 0}


def test_a_slide_entry_that_is_whole_but_wrong_is_drawn_again_and_replaced(
        tmp_path: Path) -> None:
    """An entry's checksum only says it is whole: an entry that holds anything but the slide
    of its key costs a redraw of that slide, never the deck, and is replaced."""
    story = deckgen.story.compose(source.read(DEFAULT_CONTENT)[0])
    with buildcache.use(tmp_path) as cache:
        whole = deck.render(story, cache=cache)
    entries = sorted((tmp_path / buildcache.FOLDER).glob("*.slide"))
    for number, change in enumerate(DAMAGES.values()):
        change(entries[2 * number:])  # each damage on entries of its own
    with buildcache.use(tmp_path) as cache:
        assert deck.render(story, cache=cache) == whole  # no second try: these are refused
    damaged = len(DAMAGES) + 1  # a swap damages two
    assert cache.slide_stats == {"from_memory": 0, "from_disk": 16 - damaged,
                                 "refused": damaged, "kept": damaged}
    _every_entry_good(tmp_path, whole)


@pytest.mark.slow
@pytest.mark.parametrize("damage", [
    _dangling, _with("ppt/charts/chart77.xml", b'<c:chartSpace xmlns:c="http://'
                                               b'schemas.openxmlformats.org/drawingml/2006/'
                                               b'chart"/>')], ids=["dangling", "orphan"])
def test_a_kept_slide_that_does_not_fit_the_deck_fails_the_first_try_only(
        tmp_path: Path, damage: Callable[[list[Path]], None]) -> None:
    """A kept slide pointing at a part the deck lacks, or holding one nothing points at."""
    whole, again = _rebuilt(tmp_path, damage)
    assert again == whole
    _every_entry_good(tmp_path, whole)
