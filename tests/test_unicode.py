"""Text in any script is accepted, and shows in both the deck and the handout.

Each script goes into a presenter, a workload title and a workload's "still scarce" line of a
small valid content file; the deck's text (python-pptx) and the handout's text (pypdf) must
then hold all three. PDF text of right-to-left scripts comes out in visual order, so the
handout check also accepts the sample reversed.
"""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest
from conftest import run_cli

from deckgen import build, source
from deckgen.content import Content
from deckgen.errors import InputError

BASE = (Path(__file__).resolve().parent / "bad_inputs" / "_valid.yaml").read_text(encoding="utf-8")

SAMPLES = {
    "emoji": "🚀 ✨ 👍🏽 👩‍💻",
    "chinese": "一千个结局",
    "japanese": "結末を千通り",
    "korean": "천 개의 결말",
    "arabic": "ألف نهاية",
    "hebrew": "אלף סיומים",
    "combining": "Cafe\u0301 Zoe\u0308 man\u0303ana",
    "greek-cyrillic": "Ελληνικά Кириллица Ångström",
}
# DejaVu Sans, the one font every install has, draws no CJK and no emoji: the handout refuses
# them today with a located line rather than print empty boxes. A fallback font lifts this.
NO_HANDOUT_GLYPHS = {"emoji", "chinese", "japanese", "korean"}


def _content(sample: str) -> tuple[str, Content]:
    text = (BASE.replace("  presenter: Ada", f'  presenter: "Ada {sample}"')
                .replace("    title: A map of possible endings", f'    title: "Endings {sample}"')
                .replace("    scarce: Taste.", f'    scarce: "Taste {sample}"'))
    assert text.count(sample) == 3
    return text, source.parse(text, "unicode.yaml")[0]


def _expected(sample: str) -> list[str]:
    return [f"Ada {sample}", f"Endings {sample}", f"Taste {sample}"]


def deck_text(data: bytes) -> str:
    from pptx import Presentation

    parts = []
    for slide in Presentation(io.BytesIO(data)).slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                parts.append(shape.text_frame.text)
            if shape.has_table:
                parts.extend(cell.text for row in shape.table.rows for cell in row.cells)
        if slide.has_notes_slide:
            parts.append(slide.notes_slide.notes_text_frame.text)
    return unicodedata.normalize("NFC", "\n".join(parts))


def handout_text(data: bytes) -> str:
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return unicodedata.normalize("NFKC", text)  # Arabic presentation forms back to letters


@pytest.mark.parametrize("script", SAMPLES)
def test_the_validator_keeps_the_text_as_written(script: str) -> None:
    _, content = _content(SAMPLES[script])
    assert content.meta.presenter == f"Ada {SAMPLES[script]}"
    assert content.workloads[0].scarce == f"Taste {SAMPLES[script]}"


@pytest.mark.parametrize("script", SAMPLES)
def test_the_deck_shows_the_text(script: str) -> None:
    _, content = _content(SAMPLES[script])
    text = deck_text(build.render(content, build.Options(only="deck"))[".pptx"])
    for expected in _expected(unicodedata.normalize("NFC", SAMPLES[script])):
        assert expected in text


@pytest.mark.parametrize("script", [
    pytest.param(s, marks=pytest.mark.xfail(
        raises=InputError, strict=True, reason="no font with CJK or emoji glyphs is bundled yet"))
    if s in NO_HANDOUT_GLYPHS else s for s in SAMPLES])
def test_the_handout_shows_the_text(script: str) -> None:
    _, content = _content(SAMPLES[script])
    text = handout_text(build.render(content, build.Options(only="handout"))[".pdf"])
    for expected in _expected(unicodedata.normalize("NFC", SAMPLES[script])):
        head, sample = expected.split(" ", 1)
        assert expected in text or f"{head} {sample[::-1]}" in text, (expected, text[:400])


def test_a_character_no_font_draws_is_refused_at_its_line() -> None:
    """Egyptian hieroglyphs: the handout names the character, the place and the content line."""
    text, content = _content("\U00013000")
    with pytest.raises(InputError) as caught:
        build.render(content, build.Options(only="handout"))
    line = text.splitlines().index('    scarce: "Taste \U00013000"') + 1
    assert any(p.path == "workloads[0].scarce" and p.line == line and "U+13000" in p.message
               for p in caught.value.problems), caught.value.lines()


def test_a_console_that_cannot_show_the_text_gets_escapes(tmp_path: Path) -> None:
    text, _ = _content(SAMPLES["japanese"])
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(text.replace("    noun: story endings", "    noun: 結末"), encoding="utf-8")
    bad.write_text(text.replace("  speed: 1M", "  speed: 速い"), encoding="utf-8")
    ascii_only = {"PYTHONIOENCODING": "ascii"}
    table = run_cli("table", str(good), env=ascii_only)
    assert table.returncode == 0, table.stderr
    assert "1,000 \\u7d50\\u672b \\xd7 1,000" in table.stdout
    check = run_cli("check", str(bad), env=ascii_only)
    assert check.returncode == 2 and "Traceback" not in check.stderr
    assert check.stderr.endswith("got '\\u901f\\u3044'\n")


@pytest.mark.xfail(raises=pytest.fail.Exception, strict=True,
                   reason="the deck measures glyphs DejaVu Sans lacks as narrower than the "
                          "full-width CJK glyphs a viewer draws")
def test_a_cjk_title_too_long_for_its_slide_is_refused() -> None:
    """99 full-width characters at 36 pt need five lines of the title's three: never silent."""
    title = "結末を千通り一千个结局" * 9
    text = BASE.replace("  title: A million tokens a second", f"  title: {title}")
    content = source.parse(text, "unicode.yaml")[0]
    with pytest.raises(InputError) as caught:
        build.render(content, build.Options(only="deck"))
    assert [p.path for p in caught.value.problems] == ["meta.title"]
