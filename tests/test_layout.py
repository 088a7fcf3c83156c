"""The layout layer: the measurer, the line breaker, the type scale, the ordered search, and the
deck's slide plans, all without python-pptx."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REVIEW_DIALS, faces_of, python_prints

import deckgen.story
from deckgen import build, fonts
from deckgen.typeset.columns import share
from deckgen.typeset.fit import Misfit, TypeScale, first_fit, first_fit_all
from deckgen.typeset.text import Overlong, break_lines, pieces, words

# --- measuring --------------------------------------------------------------------------------


def test_the_twin_is_shipped_with_its_licence() -> None:
    for style in ("regular", "bold", "italic", "bolditalic"):
        assert fonts.text_path(style).is_file()
    assert "SIL Open Font License" in (fonts.TYPEFACES / "OFL.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("text", "bold", "ems"), [
    # Liberation Sans advance widths (units per em 2048): H 1479, e 1139, l 455, o 1139;
    # bold H 1479, e 1139, l 569, o 1251; the digits are 1139 in both.
    ("Hello", False, (1479 + 1139 + 455 + 455 + 1139) / 2048),
    ("Hello", True, (1479 + 1139 + 569 + 569 + 1251) / 2048),
    ("1,000", False, (4 * 1139 + 569) / 2048),
])
def test_widths_are_the_fonts_own(text: str, bold: bool, ems: float) -> None:
    assert fonts.face(bold=bold).em(text) == pytest.approx(ems)


def test_theme_fonts_are_measured_with_their_metric_twin() -> None:
    assert fonts.twin("Arial") == fonts.twin("helvetica") == "Liberation Sans"
    assert fonts.twin("Calibri") == "Carlito"
    assert fonts.twin("Cambria") == "Caladea"
    assert fonts.twin("Times  New Roman") == "Liberation Serif"
    assert fonts.twin("Courier New") == "Liberation Mono"
    assert fonts.twin("Arial Narrow") == "Liberation Sans Narrow"
    assert fonts.twin("Aptos") is None and not fonts.known("Aptos")


TWIN_FILES = {  # the Debian font files (fonts-liberation, fonts-crosextra-*) of each twin
    "Calibri": "crosextra/Carlito", "Cambria": "crosextra/Caladea",
    "Times New Roman": "liberation/LiberationSerif", "Courier New": "liberation/LiberationMono",
    "Arial Narrow": "liberation/LiberationSansNarrow",
}


@pytest.mark.parametrize("family", sorted(TWIN_FILES))
@pytest.mark.parametrize("bold", [False, True])
def test_a_theme_font_is_measured_with_the_file_that_draws_it(family: str, bold: bool) -> None:
    """A theme font resolves to its twin's font file, the file the PDFs embed; its widths
    are that file's own, read by fontTools."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    style = "Bold" if bold else "Regular"
    file = Path(f"/usr/share/fonts/truetype/{TWIN_FILES[family]}-{style}.ttf")
    if not file.is_file():
        pytest.skip(f"{file} is not installed")
    resolved = fonts.resolve(family, bold)
    assert Path(resolved.face.file) == file and not resolved.warning
    font = ttlib.TTFont(str(file))
    units, cmap, hmtx = font["head"].unitsPerEm, font.getBestCmap(), font["hmtx"]
    text = "Hello, 1,000,000 tokens/sec éß–×"
    expected = sum(hmtx[cmap[ord(ch)]][0] for ch in text) / units
    assert resolved.face.em(text) == pytest.approx(expected)


def test_a_twin_not_installed_is_measured_and_drawn_as_liberation_sans_with_a_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no file of a theme font's twin (nor of the face itself) is installed, the
    face that measures it is the one that draws it, Liberation Sans, and one warning names
    the face, what it is drawn as and where its twin comes from."""
    monkeypatch.setattr(fonts, "installed", lambda name: None)
    fonts.resolve.cache_clear()
    try:
        resolved = fonts.resolve("Calibri")
        assert Path(resolved.face.file) == fonts.text_path("regular")
        assert resolved.face.em("Hello") == fonts.face("Arial").em("Hello")
        found = fonts.typefaces("Calibri", "Calibri")
        assert [str(w) for w in found.warnings] == [
            "theme.fonts: the theme font 'Calibri' is measured and drawn as Liberation Sans: "
            "its metric twin Carlito is not installed (Debian: fonts-crosextra-carlito), nor "
            "Calibri itself"]
    finally:
        fonts.resolve.cache_clear()
        fonts.typeface.cache_clear()


def test_calibri_is_narrower_than_arial_and_an_unknown_face_wider() -> None:
    text = "Turn the dial: 1,000,000 tokens/sec"
    arial, calibri, aptos = (fonts.face(f).em(text) for f in ("Arial", "Calibri", "Aptos"))
    assert calibri < arial < aptos
    # The stand-in is Arial (Liberation Sans's widths) with 5% slack.
    assert aptos == pytest.approx(arial * 1.05)


def test_a_wide_character_the_face_lacks_counts_one_em() -> None:
    assert fonts.face().em("\u5343\u5343") == pytest.approx(2.0)


# --- breaking lines ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("one two", ["one ", "two"]),
    ("well-known", ["well-", "known"]),
    ("reading/writing", ["reading/", "writing"]),
    ("tokens/sec", ["tokens/sec"]),  # a unit holds
    ("2026-10-02", ["2026-10-02"]),  # a date holds
    ("2\u00a0h\u00a046\u00a0min", ["2\u00a0h\u00a046\u00a0min"]),  # no-break spaces hold
    ("1,000,000 tokens/sec", ["1,000,000 ", "tokens/sec"]),
])
def test_break_opportunities(text: str, expected: list[str]) -> None:
    assert pieces(text) == expected


def test_lines_break_at_spaces_and_never_inside_a_word() -> None:
    face = fonts.face()
    text = "A well-known test of 1,000,000 tokens/sec on 2026-10-02 at 2\u00a0h\u00a046\u00a0min"
    for width in (130.0, 200.0, 400.0):
        lines = break_lines(text, face, 20.0, width)
        assert isinstance(lines, tuple)
        assert all(face.width(line, 20.0) <= width + 1e-3 for line in lines)
        # Joining the lines gives the words back: no word was cut.
        assert words(" ".join(lines).replace("- ", "-")) == words(text)


def test_a_word_wider_than_the_line_is_reported_not_cut() -> None:
    found = break_lines("a 2\u00a0h\u00a046\u00a0min\u00a040\u00a0s b", fonts.face(), 40.0, 100.0)
    assert isinstance(found, Overlong)
    assert found.word == "2\u00a0h\u00a046\u00a0min\u00a040\u00a0s"
    assert found.width > 100.0


def test_hard_breaks_are_kept() -> None:
    assert break_lines("one\ntwo", fonts.face(), 20.0, 500.0) == ("one", "two")


def test_runs_in_two_weights_are_measured_each_in_its_own() -> None:
    """A bold title then regular words: measured all in bold the line is too long, measured
    run by run it fits. "Hello" bold is H 1479 + e 1139 + l 569 + l 569 + o 1251 = 5007
    2048ths of an em, the space 569; "world" regular is w 1479 + o 1139 + r 682 + l 455 +
    d 1139 = 4894."""
    from deckgen.typeset.text import break_runs

    regular, bold = fonts.face(), fonts.face(bold=True)
    mixed = (5007 + 569 + 4894) / 2048 * 20.0
    assert bold.width("Hello ", 20.0) + regular.width("world", 20.0) == pytest.approx(mixed)
    assert bold.width("Hello world", 20.0) > mixed + 1.0
    runs = [("Hello ", bold), ("world", regular)]
    assert break_runs(runs, 20.0, mixed + 0.01) == ("Hello world",)
    assert break_lines("Hello world", bold, 20.0, mixed + 0.01) == ("Hello", "world")
    # One face throughout: the same lines as break_lines, hard breaks kept.
    text = "A well-known test of 1,000,000 tokens/sec\non 2026-10-02 at 2\u00a0h\u00a046\u00a0min"
    for width in (130.0, 200.0, 400.0):
        assert break_runs([(text[:9], regular), (text[9:], regular)], 20.0, width) == \
            break_lines(text, regular, 20.0, width)
    assert isinstance(break_runs([("a ", bold), ("2\u00a0h\u00a046\u00a0min", regular)], 40.0,
                                 50.0), Overlong)


# --- the type scale and the search ------------------------------------------------------------


def test_the_type_scale_on_a_7_5_inch_slide() -> None:
    scale = TypeScale.for_height(540.0)
    assert scale.sizes == (14.0, 20.0, 24.0, 36.0, 60.0, 96.0)
    assert scale.table >= 18 and scale.body >= 20 and min(scale.sizes) >= 14


@pytest.mark.parametrize(("height", "sizes"), [
    (405.0, (10.5, 15.0, 18.0, 27.0, 45.0, 72.0)),  # a 5.625 in slide: three quarters
    (810.0, (21.0, 30.0, 36.0, 54.0, 90.0, 144.0)),  # an 11.25 in slide: one and a half
])
def test_the_type_scale_follows_the_slide_height(height: float,
                                                 sizes: tuple[float, ...]) -> None:
    assert TypeScale.for_height(height).sizes == sizes


def _misfit(name: str) -> Misfit:
    return Misfit(name, "", name, "room for about 0 characters at 20 pt")


def test_first_fit_takes_the_first_that_fits_else_the_last_misfit() -> None:
    assert first_fit([lambda: _misfit("a"), lambda: "b", lambda: "c"]) == "b"
    assert first_fit([lambda: _misfit("a"), lambda: _misfit("b")]) == _misfit("b")


def test_siblings_take_the_first_arrangement_that_fits_all() -> None:
    one = [lambda: "1a", lambda: "1b", lambda: "1c"]
    two = [lambda: _misfit("2a"), lambda: "2b", lambda: "2c"]
    assert first_fit_all([one, two]) == (1, ["1b", "2b"])
    assert first_fit_all([one, [lambda: _misfit("x")] * 3]) == _misfit("x")


@pytest.mark.parametrize(("least", "natural", "room", "expected"), [
    ([10, 10], [20, 40], 90, [30, 60]),  # all fit: the spare shared in proportion
    ([10, 10], [20, 40], 40, [15, 25]),  # each moves from least toward natural alike
    ([30, 30], [40, 40], 50, None),  # not even the least widths
])
def test_column_widths(least: list[float], natural: list[float], room: float,
                       expected: list[float] | None) -> None:
    assert share(least, natural, room) == expected


def _header_lines(natural: list[float]):  # noqa: ANN202
    """A table's height as its headers' lines: a header `natural` wide takes
    ceil(natural / width) lines (its body cells take one each, whatever the width)."""
    import math

    return lambda widths: sum(math.ceil(n / w - 1e-9) for n, w in zip(natural, widths,
                                                                        strict=True))


def test_the_column_search_by_what_may_wrap() -> None:
    """Three columns whose bodies need 100, 100 and 20 points and whose headers need 100, 100
    and 80 (the last a short figure under "End to end"), in 240: nothing fits unbroken (280),
    so "none" fails; with headers wrapping, sharing the 20 spare points in proportion leaves
    the last header 21.8 wide (4 lines), but all of it to the last column makes it 40 (2
    lines), the shortest table; with any cell wrapping, the same."""
    from deckgen.typeset.columns import Needs, search

    natural = [100.0, 100.0, 80.0]
    needs = Needs([60.0, 60.0, 20.0], natural, [100.0, 100.0, 20.0], [False, True, True])
    height = _header_lines(natural)
    assert search(needs, 240, "none", height) is None
    assert search(needs, 240, "headers", height) == [100.0, 100.0, 40.0]
    assert search(needs, 300, "none", height) == pytest.approx([300 * n / 280 for n in natural])
    assert search(needs, 200, "headers", height) is None  # the bodies alone need 220
    found = search(needs, 200, "any", height)
    assert found is not None and sum(found) == pytest.approx(200)
    assert all(w >= lo for w, lo in zip(found, needs.least, strict=True))


# --- slide plans without python-pptx ----------------------------------------------------------

DIALS = REVIEW_DIALS


@functools.cache
def plans_at(dial: str, aspect: str):  # noqa: ANN201
    """The plans at a review dial and aspect, planned once for this module's tests (they only
    read them)."""
    from dataclasses import replace

    from deckgen.plan.geometry import default_geometry
    from deckgen.plan.kinds import arrange_slides

    options = replace(DIALS[dial], aspect=aspect)
    content, _ = build.prepare(None, options)
    story = deckgen.story.compose(content)
    slides = list(story.slides)
    if options.walk:
        at = next(i for i, s in enumerate(slides) if s.kind == "dial") + 1
        slides[at:at] = deckgen.story.walk(content)
    return arrange_slides(story, default_geometry(aspect), {}, slides, faces_of(story))


def _sizes(plan) -> set[float]:  # noqa: ANN001
    from deckgen.plan.items import TableItem, TextItem

    found = set(plan.title_sizes)
    for item in plan.items:
        if isinstance(item, TextItem):
            found |= set(item.sizes)
        elif isinstance(item, TableItem):
            found |= {s for row in item.sizes for cell in row for s in cell}
    return found


@pytest.mark.parametrize("aspect", ["16:9", "4:3"])
@pytest.mark.parametrize("dial", list(DIALS))
def test_plans_use_the_type_scale_only(dial: str, aspect: str) -> None:
    scale = TypeScale.for_height(540.0).every_size
    plans = plans_at(dial, aspect)
    used = set().union(*(_sizes(p) for p in plans))
    assert used <= scale, used - scale


def _look(plan) -> list[tuple[str, int, int, tuple[float, ...]]]:  # noqa: ANN001
    """Each item's name, place and sizes: what siblings must share (a box's width follows its
    figure's text)."""
    from deckgen.plan.items import TextItem

    return [(i.name, i.box.x, i.box.y,
             tuple(i.sizes) if isinstance(i, TextItem) else ()) for i in plan.items
            if i.name in ("Writing time", "Chosen speed", "Slow speed", "Divider", "Kicker")]


@pytest.mark.parametrize("aspect", ["16:9", "4:3"])
@pytest.mark.parametrize("dial", list(DIALS))
def test_siblings_share_sizes_and_places(dial: str, aspect: str) -> None:
    plans = plans_at(dial, aspect)
    for kind in ("experiment", "dial"):
        group = [p for p in plans if p.kind == kind]
        assert group
        looks = {json.dumps(_look(p)) for p in group}
        assert len(looks) == 1, (kind, looks)
        sizes = {json.dumps(sorted(_sizes(p))) for p in group}
        assert len(sizes) == 1, (kind, sizes)
    cards = [i for p in plans if p.kind == "meanings" for i in p.items
             if i.name.startswith("Card: ")]
    assert len(cards) == 4 and len({tuple(c.sizes) for c in cards}) == 1  # type: ignore[union-attr]


def test_a_misfit_names_what_would_fit() -> None:
    from dataclasses import replace

    from deckgen.errors import InputError
    from deckgen.plan.geometry import default_geometry
    from deckgen.plan.kinds import arrange_slides

    content, _ = build.prepare(None, build.Options())
    story = deckgen.story.compose(content)
    long = deckgen.story.Text("Every fixed check sets a ceiling " * 12, "slides.ceiling.headline")
    slides = [replace(s, headline=long) if s.kind == "ceiling" else s for s in story.slides]
    with pytest.raises(InputError) as err:
        arrange_slides(story, default_geometry("16:9"), {}, slides, faces_of(story))
    message = str(err.value.problems[0].message)
    assert message.startswith("slide 12: the headline does not fit (396 characters; room for "
                              "about "), message
    assert message.endswith(" characters at 36 pt); shorten it"), message


def test_planning_needs_no_python_pptx() -> None:
    code = ("import sys; sys.path.insert(0, 'tests'); from test_layout import plans_at; "
            "plans_at('default', '16:9'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pptx', 'PIL')))")
    assert python_prints(code) == "[]"


def test_spread_keeps_labels_apart_and_inside() -> None:
    """Three labels 0.2 tall wanted at 0.5, 0.55 and 0.6 in [0, 1] with a 0.05 gap: centres must
    be 0.25 apart; pushed on they would end at 1.0, past the last room (1 - 0.1 = 0.9), so they
    settle back at 0.9, 0.65 and 0.4."""
    from deckgen.typeset.fit import spread

    assert [round(y, 6) for y in spread([0.5, 0.55, 0.6], [0.2, 0.2, 0.2], 0.0, 1.0, 0.05)] == \
        [0.4, 0.65, 0.9]
    near_top = spread([0.95, 0.97], [0.2, 0.2], 0.0, 1.0, 0.0)
    assert [round(y, 6) for y in near_top] == [0.7, 0.9]  # pushed back inside from the end


def _texts(plan) -> str:  # noqa: ANN001
    from deckgen.plan.items import TableItem, TextItem

    found = []
    for item in plan.items:
        if isinstance(item, TextItem):
            found += [p.text for p in item.paras]
        elif isinstance(item, TableItem):
            found += [p.text for row in item.cells for cell in row for p in cell]
    return "\n".join(found)


@pytest.mark.parametrize("aspect", ["16:9", "4:3"])
@pytest.mark.parametrize("dial", list(DIALS))
def test_the_whole_story_fits_at_every_review_dial(dial: str, aspect: str) -> None:
    """The arrangements chosen keep what the talk needs: Amdahl's law named under the bars and
    under the ceiling, the token footnote and the context-window example on the meanings slide,
    and every source with what it supports (the content's own sentences)."""
    content, _ = build.prepare(None, replace(DIALS[dial], aspect=aspect))
    plans = {p.kind: p for p in plans_at(dial, aspect)}
    for kind in ("bottleneck", "ceiling"):
        assert "Amdahl's law" in _texts(plans[kind]), kind
    meanings = _texts(plans["meanings"])
    assert "A token is a piece of a word." in meanings
    assert "one million tokens for Claude Opus 5.5" in meanings
    sources = _texts(plans["sources"])
    story = deckgen.story.compose(content)
    assert len(story.sources) == 5
    for src in story.sources:
        assert src.title in sources
        assert " ".join(src.supports.split()) in " ".join(sources.split()), src.title


def test_a_table_takes_the_largest_size_that_fits_its_box() -> None:
    """A table at the largest of its sizes that fits: 24 pt in a 6 x 3 in box, its columns
    within the box's width; in a box too short for even its smallest size, a misfit naming
    its longest cell."""
    from deckgen import fonts
    from deckgen.box import Box, inch
    from deckgen.plan.items import TableItem
    from deckgen.plan.kinds.fitting import Faces
    from deckgen.plan.kinds.tables import table_cells, table_item

    faces = Faces.of(fonts.typefaces("Arial", "Arial"))
    table = deckgen.story.Table(("Speed", "Writing"), (("100 tokens/sec", "2 h 13 min 20 s"),
                                                       ("1M tokens/sec", "0.8 s")),
                                ("l", "r"), 1, "caption")
    cells = table_cells(table, (24.0, 20.0, 16.0))
    box = Box(inch(1), inch(2), inch(6), inch(3))
    found = table_item(faces, box, cells, 1)
    assert isinstance(found, TableItem)
    assert found.box.x == box.x and found.box.y == box.y
    assert sum(found.widths) <= box.w and sum(found.heights) <= box.h
    assert found.sizes[1][1][0] == 24.0
    short = table_item(faces, Box(inch(1), inch(2), inch(6), inch(0.5)), cells, 1)
    assert isinstance(short, Misfit)
    assert short.text == "2\u00a0h\u00a013\u00a0min\u00a020\u00a0s"
    assert short.detail.startswith("the table needs more than the 0.5 in of height there is")


# --- scripts written without spaces ------------------------------------------------------------

JAPANESE = ("毎秒百万トークンで書けるなら、答えを待つ時間はほとんど消える。"
            "けれども、人が読んで確かめる「チェック」は一分のまま残り、全体の速さはそこで頭打ちになる。ルールーは変わらない。")
NEVER_FIRST = set("、。，．・：；？！ー）」』】〕〉》ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")


@pytest.mark.parametrize("width", [120.0, 200.0, 333.0, 500.0])
def test_japanese_breaks_between_characters_by_the_east_asian_rules(width: float) -> None:
    face = fonts.face()
    lines = break_lines(JAPANESE, face, 24, width)
    assert not isinstance(lines, Overlong)
    assert "".join(lines) == JAPANESE  # nothing added, nothing lost: no spaces to break at
    assert len(lines) > 1
    for line in lines:
        assert face.width(line, 24) <= width + 1e-3
    assert not [line for line in lines[1:] if line[0] in NEVER_FIRST]
    assert not [line for line in lines[:-1] if line[-1] in "「『（【〔〈《"]


def test_latin_text_beside_japanese_keeps_its_own_rules() -> None:
    text = "1,000,000 tokens/sec で well-known な速さ"
    assert "1,000,000 " in pieces(text) and "tokens/sec " in pieces(text)


def test_the_meanings_cards_labels_read_at_4_5_to_1_on_their_card() -> None:
    """The labels sat in muted grey on the grey cards: 3.7:1."""
    from deckgen.colour import contrast

    theme = build.prepare(None, build.Options())[0].theme
    roles = {"text": theme.text, "accent": theme.accent, "muted": theme.muted}

    def tinted(role: str, k: float) -> str:  # a fill: the role's colour k of the way to white
        rgb = [int(getattr(theme, role).lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
        return "#" + "".join(f"{round(c + (255 - c) * k):02X}" for c in rgb)

    cards = [item for plan in plans_at("default", "16:9") for item in plan.items
             if getattr(item, "name", "").startswith("Card: ")]
    assert len(cards) == 4
    for card in cards:
        label = card.paras[0]
        ratio = contrast(roles[label.colour], tinted(*card.fill))
        assert ratio >= 4.5, (card.name, label.colour, round(ratio, 2))
