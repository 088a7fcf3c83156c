"""Golden slide plans: every slide's boxes, paragraphs and sizes as text, compared for equality.

A plan is what the deck's writers draw, worked out without python-pptx, so its dump shows in one
diff every box and size a change of the planner moves: at deckgen's own master in both aspects,
at several dials (a short and a long writing time, a check that caps the speedup, no check), a
walk of the dial, and on the geometry two common templates give (python-pptx's default
template, 4:3, and pandoc's reference.pptx, 16:9 at 10 in). `pytest --regen` (or DECKGEN_REGEN=1)
rewrites the files under tests/golden/plans/ from what deckgen plans now; read the diff first.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from conftest import ROOT, faces_of, regen
from test_golden import compare_golden

import deckgen.story
from deckgen import build
from deckgen.box import Box
from deckgen.plan.geometry import Geometry, default_geometry
from deckgen.plan.items import ArrangedSlide, ChartItem, Para, QrItem, RectItem, TableItem, TextItem
from deckgen.plan.kinds import arrange_slides

GOLDEN = ROOT / "tests" / "golden" / "plans"
INSET = (91440, 45720, 91440, 45720)  # 0.1 in across, 0.05 in down: PowerPoint's default

# The geometry deckgen reads from python-pptx's default template (10 x 7.5 in) and from
# pandoc's reference.pptx (10 x 5.625 in), written out so the plans need no template file.
TEMPLATES = {
    "python-pptx": Geometry(
        width=9144000, height=6858000, own=False, title=Box(457200, 274638, 8229600, 1143000),
        title_inset=INSET, bottom=6126163, cover_title=Box(685800, 2130425, 7772400, 1470025),
        cover_title_inset=INSET, cover_centred=True,
        cover_second=(Box(1371600, 3886200, 6400800, 1752600), INSET),
        body=Box(457200, 1600200, 8229600, 4525963)),
    "pandoc": Geometry(
        width=9144000, height=5143500, own=False, title=Box(457200, 205979, 8229600, 857250),
        title_inset=INSET, bottom=4594623, cover_title=Box(685800, 1597819, 7772400, 1102519),
        cover_title_inset=INSET, cover_centred=True,
        cover_second=(Box(1371600, 2914650, 6400800, 1314450), INSET),
        body=Box(457200, 1200151, 8229600, 3394472)),
}

Options = build.Options
CASES: dict[str, tuple[build.Options, str]] = {  # name: dial and aspect, and the geometry
    "default": (Options(), "16:9"),
    "4x3": (Options(aspect="4:3"), "4:3"),
    "100": (Options(speed="100"), "16:9"),
    "40K-check-1h": (Options(speed="40K", check="1 h"), "16:9"),
    "250K-check-2h30min-4x3": (Options(speed="250K", check="2h30min", aspect="4:3"), "4:3"),
    "3.3M-no-check": (Options(speed="3.3M", check="0"), "16:9"),
    "walk-2.5K-check-15min-candidates-4x3": (
        Options(speed="2500", check="15 min", workload="candidates", walk=True, aspect="4:3"),
        "4:3"),
    "python-pptx-template": (Options(aspect="4:3"), "python-pptx"),
    "pandoc-template-walk-100": (Options(speed="100", walk=True), "pandoc"),
}


def plans_of(options: build.Options, where: str) -> list[ArrangedSlide]:
    content, _ = build.prepare(None, options)
    story = deckgen.story.compose(content)
    slides = list(story.slides)
    if options.walk:
        at = next(i for i, s in enumerate(slides) if s.kind == "dial") + 1
        slides[at:at] = deckgen.story.walk(content)
    geometry = TEMPLATES[where] if where in TEMPLATES else default_geometry(where)
    return arrange_slides(story, geometry, {}, slides, faces_of(story))


def box(b: Box) -> str:
    return f"{b.x},{b.y} {b.w}x{b.h}"


def para(p: Para, size: float | None = None) -> str:
    """A paragraph's size (as set, else its choices), its look where not the default, and its
    text; each of its runs on a line of its own."""
    look = [f"{f.name}={getattr(p, f.name)!r}" for f in fields(Para)
            if f.name not in ("text", "size", "field", "origin", "runs")
            and getattr(p, f.name) != f.default]
    sized = f"{size:g}" if size is not None else "/".join(f"{s:g}" for s in p.size)
    text = p.text.replace("\n", "\\n")
    out = f"{sized} {' '.join(look)}: {text}" if look else f"{sized}: {text}"
    for r in p.runs:
        out += f"\n      run colour={r.colour} bold={r.bold} link={r.link}: {r.text}"
    return out


def item(i: Any) -> list[str]:  # noqa: ANN401 (any of the items)
    if isinstance(i, TextItem):
        head = (f"text {i.name!r} {box(i.box)} anchor={i.anchor} inset={i.inset} "
                f"fill={i.fill} outline={i.outline}")
        return [head] + [f"    {para(p, s)}" for p, s in zip(i.paras, i.sizes, strict=True)]
    if isinstance(i, TableItem):
        out = [f"table {i.name!r} {box(i.box)} widths={i.widths} heights={i.heights} "
               f"highlight={i.highlight} margin={i.margin} header={i.header}"]
        for r, (row, sizes) in enumerate(zip(i.cells, i.sizes, strict=True)):
            for c, (cell, cell_sizes) in enumerate(zip(row, sizes, strict=True)):
                out += [f"    [{r},{c}] {para(p, s)}"
                        for p, s in zip(cell, cell_sizes, strict=True)]
        return out
    if isinstance(i, ChartItem):
        return [f"chart {i.name!r} {box(i.box)} size={i.size:g} "
                f"key={i.chart.key}"]
    if isinstance(i, RectItem):
        return [f"rect {i.name!r} {box(i.box)} fill={i.fill} outline={i.outline}"]
    assert isinstance(i, QrItem)
    return [f"qr {i.name!r} {box(i.box)} {i.url}"]


def plan_text(plans: list[ArrangedSlide]) -> str:
    out: list[str] = []
    for number, plan in enumerate(plans, 1):
        out.append(f"== slide {number}: {plan.kind}{' (cover)' if plan.cover else ''}")
        out += [f"  title {para(p, s)}" for p, s in zip(plan.title, plan.title_sizes, strict=True)]
        for key, value in sorted(plan.extra.items()):
            if key == "second":
                paras, sizes = value  # type: ignore[misc]
                out += [f"  second {para(p, s)}" for p, s in zip(paras, sizes, strict=True)]
            else:
                out.append(f"  {key}={value!r}")
        for i in plan.items:
            out += ["  " + line for line in item(i)]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", list(CASES))
def test_plans_are_as_golden(name: str, request: pytest.FixtureRequest) -> None:
    options, where = CASES[name]
    compare_golden(GOLDEN / f"{name}.txt", plan_text(plans_of(options, where)),
                   regen(request.config))


def test_the_dump_shows_each_box_size_and_text() -> None:
    """The dump loses nothing that moves a slide: the sixteen slides of the default deck, the
    dial's figure at the figure size, a table's widths."""
    plans = plans_of(*CASES["default"])
    text = plan_text(plans)
    assert text.count("== slide ") == len(plans) == 16
    dial = text.split("== slide 3: dial\n")[1].split("== slide 4")[0]
    assert "text 'Chosen speed' " in dial
    assert "      96 bold=True colour='accent' heading=True before=4 line=1.17 one_line=True: " \
        "1\u00a0second\n" in dial
    assert "\n  table 'Workload table' 548640," in text and " widths=[" in text


def _figure_sizes(plans: list[ArrangedSlide], kind: str) -> set[float]:
    return {size for plan in plans if plan.kind == kind for i in plan.items
            if isinstance(i, TextItem)
            for p, size in zip(i.paras, i.sizes, strict=True) if p.one_line}


def test_a_figure_short_of_room_for_display_size_takes_the_step_between_not_the_titles() -> None:
    """On python-pptx's default template (10 x 7.5 in: the scale's title 35.5 pt, display
    59.5 pt) the experiments' writing times do not fit at display size under a two-line
    title, but they do a step lower: (59.5 + 35.5) / 2 = 47.5 pt, not the title's 35.5. At
    100 tokens/sec the bottleneck's three figures ("1×", "1×", "0.7%") take that step too on
    pandoc's reference.pptx (10 x 5.625 in: title 26.5 pt, display 44.5 pt): 35.5 pt."""
    small = plans_of(Options(aspect="4:3"), "python-pptx")
    assert _figure_sizes(small, "experiment") == {47.5}
    pandoc = plans_of(Options(speed="100", walk=True), "pandoc")
    assert _figure_sizes(pandoc, "bottleneck") == {35.5}
