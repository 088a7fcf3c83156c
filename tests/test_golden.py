"""Golden files: the whole story as JSON and the whole deck as text, compared for equality.

The story is what every renderer reads, so its JSON shows in one diff every word and figure a
change of code or content moves. The deck's text dump (each slide's layout, every text and table
cell in shape order, the speaker notes) shows what python-pptx really wrote. Both come from the
bundled talk at its own dial and at 2,500 tokens/sec with a 15 min check featuring the critiqued
candidates. `pytest --regen` rewrites the files under tests/golden/ from what deckgen makes now;
read the diff before committing it.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT, ROOT, only_file, regen

import deckgen.story
from deckgen import source
from deckgen.figures import with_overrides

GOLDEN = ROOT / "tests" / "golden"
OTHER = ("2500", "15 min", "candidates")  # the dial of the `other_build` fixture

Compare = Callable[[str, str], None]


def compare_golden(path: Path, text: str, rewrite: bool) -> None:
    """`text` must equal the golden file at `path`; with `rewrite`, the file becomes `text`."""
    if rewrite and (not path.exists() or path.read_text(encoding="utf-8") != text):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; `pytest --regen` writes it"
    want = path.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                        f"golden/{path.name}", "now", n=2))
    assert text == want, f"{path.name} differs (`pytest --regen` rewrites it):\n{diff[:6000]}"


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Compare:
    rewrite = regen(request.config)
    return lambda name, text: compare_golden(GOLDEN / name, text, rewrite)


def plain(value: Any) -> Any:
    """A story part as JSON values: dataclasses as objects (with their type; the fields that
    make them equal, so not a language's plural rule), exact numbers as 'n/d' text, tuples as
    lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.compare}
        return {"_": type(value).__name__, **fields}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    assert value is None or isinstance(value, str | int | float | bool), type(value)
    return value


def story_json(*overrides: str) -> str:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    content, _ = source.parse(text, "content.yaml")
    story = deckgen.story.compose(with_overrides(content, *overrides))
    text = json.dumps(plain(story), ensure_ascii=False, indent=1)
    # A list of plain values on one line (a place, a point, a table row): JSON text never holds
    # a raw line break, so only the layout's own breaks are joined.
    flat = re.sub(r"\[\n\s+([^\[\]{}]*?)\n\s*\]",
                  lambda m: "[" + re.sub(r",\n\s+", ", ", m.group(1)) + "]", text)
    return flat + "\n"


def test_story_default(golden: Compare) -> None:
    golden("story-1M.json", story_json())


def test_story_other_dial(golden: Compare) -> None:
    golden("story-2.5K-check-15min-candidates.json", story_json(*OTHER))


def test_story_json_is_exact_and_complete() -> None:
    """The dump loses nothing a renderer reads: exact values and every slide, by hand."""
    data = json.loads(story_json())
    assert data["_"] == "Story" and data["file"] == "content.yaml"
    assert [s["kind"] for s in data["slides"]][:2] == ["title", "meanings"]
    assert len(data["slides"]) == 16  # the closing slide is the sixteenth, after the writing-time
    # chart's own slide
    assert data["bottleneck"]["end_to_end_speedup"] == "132.57\u00d7"
    assert data["bottleneck"]["ceiling"] == "134.33\u00d7"
    writing = next(c for c in data["charts"] if c["key"] == "writing_time")
    assert writing["marker"] == "1000000"
    other = json.loads(story_json(*OTHER))
    nbsp = "\u00a0"  # figures keep their number and unit together
    assert other["dial"]["figure"] == f"20{nbsp}min"
    assert other["speed"].replace(nbsp, " ") == "2,500 tokens/sec"


def test_a_changed_story_fails_and_regen_rewrites(tmp_path: Path) -> None:
    path = tmp_path / "deckgen.story.json"
    with pytest.raises(AssertionError, match="no golden file"):
        compare_golden(path, "one\n", rewrite=False)
    compare_golden(path, "one\ntwo\n", rewrite=True)
    compare_golden(path, "one\ntwo\n", rewrite=False)
    with pytest.raises(AssertionError, match=r"(?s)deckgen.story.json differs.*-two.*\+three"):
        compare_golden(path, "one\nthree\n", rewrite=False)
    assert path.read_text(encoding="utf-8") == "one\ntwo\n"


def deck_text(folder: Path) -> str:
    """Every slide's layout, texts (text frames and table rows, in shape order) and notes."""
    from pptx import Presentation

    prs = Presentation(str(only_file(folder, ".pptx")))
    out = [f"slide size {prs.slide_width} x {prs.slide_height} EMU"]
    for number, slide in enumerate(prs.slides, 1):
        out.append(f"\n== slide {number}: {slide.slide_layout.name}")
        for shape in slide.shapes:
            kind = "picture" if shape.shape_type == 13 else shape.shape_type
            if shape.has_text_frame:
                paragraphs = [p.text for p in shape.text_frame.paragraphs if p.text]
                if paragraphs:
                    out.append(f"[{shape.name}]")
                    out += [f"  {p}" for p in paragraphs]
            elif getattr(shape, "has_table", False) and shape.has_table:
                out.append(f"[{shape.name}] table")
                out += ["  " + " | ".join(c.text for c in row.cells) for row in shape.table.rows]
            elif getattr(shape, "has_chart", False) and shape.has_chart:
                out.append(f"[{shape.name}] chart")
            else:
                out.append(f"[{shape.name}] {kind}")
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame.text:
            out.append("notes:")
            out += [f"  {line}" for line in slide.notes_slide.notes_text_frame.text.split("\n")]
    return "\n".join(out).replace("\u00a0", "\u2423") + "\n"  # a visible no-break space


@pytest.mark.slow
def test_deck_text_default(default_build: Path, golden: Compare) -> None:
    golden("deck-1M.txt", deck_text(default_build))


@pytest.mark.slow
def test_deck_text_other_dial(other_build: Path, golden: Compare) -> None:
    golden("deck-2.5K-check-15min-candidates.txt", deck_text(other_build))


@pytest.mark.slow
def test_deck_text_shows_the_figures(default_build: Path) -> None:
    text = deck_text(default_build)
    assert text.count("\n== slide ") == 16
    assert "132.57\u00d7" in text and "notes:" in text
    assert "slide size 12192000 x 6858000 EMU" in text  # 16:9 by default
