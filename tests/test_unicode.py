"""Text in any script is accepted, and shows in both the deck and the handout.

Each script goes into a presenter, a workload title and a workload's "still scarce" line of a
small valid content file; the deck's text (python-pptx) and the handout's text (pypdf) must
then hold all three. PDF text of right-to-left scripts comes out in visual order, so the
handout check also accepts the sample reversed.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from conftest import run_cli, run_in

from deckgen import build, fonts, pipeline, source
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
# Liberation Sans, shipped with the package, draws no CJK and few emoji: the handout sets
# them in a system fallback font (deckgen.fonts.FALLBACKS), here the Debian package's file.
FALLBACK_FOR = {"chinese": "fonts-droid-fallback", "japanese": "fonts-droid-fallback",
                "korean": "fonts-nanum", "emoji": "fonts-symbola"}
# Characters Liberation Sans lacks but DejaVu Sans (which every install has) draws.
BUILT_IN_FALLBACK = {"arabic"}
FALLBACK_FONT = {"fonts-droid-fallback": "DroidSansFallback", "fonts-nanum": "NanumGothic",
                 "fonts-symbola": "Symbola"}


def _installed(package: str) -> bool:
    return any(file.is_file() for file, name in fonts.FALLBACKS if name == package)


def _needs_font(script: str) -> list[pytest.MarkDecorator]:
    package = FALLBACK_FOR.get(script)
    if package is None or _installed(package):
        return []
    return [pytest.mark.skip(reason=f"the fallback font for {script} ({package}) is not installed")]


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
    text = deck_text(pipeline.files(content, build.Options(only="deck"))[0]["deck"])
    for expected in _expected(unicodedata.normalize("NFC", SAMPLES[script])):
        assert expected in text


def embedded_fonts(data: bytes) -> set[str]:
    """The base names of the fonts a PDF embeds, subset prefixes dropped."""
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
            names.add(str(font["/BaseFont"]).split("+")[-1])
    return names


@pytest.mark.parametrize("script", [pytest.param(s, marks=_needs_font(s)) for s in SAMPLES])
def test_the_handout_shows_the_text(script: str) -> None:
    _, content = _content(SAMPLES[script])
    files, warnings = pipeline.files(content, build.Options(only="handout"))
    pdf = files["handout"]
    assert warnings == []
    text = handout_text(pdf)
    for expected in _expected(unicodedata.normalize("NFC", SAMPLES[script])):
        head, sample = expected.split(" ", 1)
        assert expected in text or f"{head} {sample[::-1]}" in text, (expected, text[:400])
    embedded = embedded_fonts(pdf)
    assert {"LiberationSans", "LiberationSans-Bold"} <= embedded
    if script in FALLBACK_FOR:
        assert FALLBACK_FONT[FALLBACK_FOR[script]] in embedded, embedded
    elif script in BUILT_IN_FALLBACK:
        assert "DejaVuSans" in embedded, embedded
    else:  # a fallback is embedded only when a character needs it
        assert embedded <= {"LiberationSans", "LiberationSans-Bold", "LiberationSans-Italic",
                            "LiberationSans-BoldItalic"}, embedded


@pytest.mark.skipif(not _installed("fonts-droid-fallback"), reason="no fonts-droid-fallback")
def test_pdffonts_lists_the_fallback_font_as_embedded(tmp_path: Path) -> None:
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    _, content = _content(SAMPLES["chinese"])
    pdf = tmp_path / "cjk.pdf"
    pdf.write_bytes(pipeline.files(content, build.Options(only="handout"))[0]["handout"])
    listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                             check=True).stdout.splitlines()
    fallback = [row.split() for row in listing if "+DroidSansFallback " in row]
    assert fallback and fallback[0][1:4] == ["TrueType", "WinAnsi", "yes"], listing


def test_with_no_fallback_font_the_handout_builds_and_warns_once_per_key(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No font draws the character: the build succeeds, the text around it prints, and one
    warning per content key names the character and its content line."""
    monkeypatch.setattr(fonts, "FALLBACKS", ())
    sample = "一千个结局 \U00013000"
    text, content = _content(sample)
    files, warnings = pipeline.files(content, build.Options(only="handout"))
    pdf = files["handout"]
    assert embedded_fonts(pdf) <= {"LiberationSans", "LiberationSans-Bold", "LiberationSans-Italic",
                                   "LiberationSans-BoldItalic"}
    assert "Ada" in handout_text(pdf)
    line = text.splitlines().index(f'    scarce: "Taste {sample}"') + 1
    scarce = [w for w in warnings if w.path == "workloads[0].scarce"]
    assert len(scarce) == 1 and (scarce[0].file, scarce[0].line) == ("unicode.yaml", line)
    assert str(scarce[0]).startswith(f"unicode.yaml:{line}:")
    assert scarce[0].message == (
        "warning: the handout has no font for '一' (U+4E00), '个' (U+4E2A), '千' (U+5343), "
        "'局' (U+5C40), '结' (U+7ED3), '\U00013000' (U+13000); install a font that covers it "
        "(e.g. Debian's fonts-symbola)")
    assert {w.path for w in warnings} == {"meta.presenter", "workloads[0].title",
                                          "workloads[0].scarce"}


def test_a_character_no_font_draws_is_a_warning_on_the_command_line(tmp_path: Path) -> None:
    """Egyptian hieroglyphs (in no font here): exit 0, both files, one located warning line."""
    text, _ = _content("\U00013000")
    path = tmp_path / "unicode.yaml"
    path.write_text(text, encoding="utf-8")
    run = run_in("build", str(path), "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    assert sorted(p.suffix for p in (tmp_path / "out").iterdir() if p.is_file()) == [
        ".html", ".pdf", ".pdf", ".pdf", ".pptx"]  # the handout, slides and notes
    line = text.splitlines().index('    scarce: "Taste \U00013000"') + 1
    warned = [row for row in run.stderr.splitlines() if "has no font for" in row]
    assert len(warned) == 3, run.stderr
    assert f"{path}:{line}:13: workloads[0].scarce: warning: the handout has no font for " \
        "'\U00013000' (U+13000); install a font that covers it (e.g. Debian's fonts-symbola)" \
        in warned, run.stderr


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


def test_a_cjk_title_too_long_for_its_slide_is_refused() -> None:
    """99 full-width characters at 36 pt need five lines of the title's three: never silent."""
    title = "結末を千通り一千个结局" * 9
    text = BASE.replace("  title: A million tokens a second", f"  title: {title}")
    content = source.parse(text, "unicode.yaml")[0]
    with pytest.raises(InputError) as caught:
        pipeline.files(content, build.Options(only="deck"))
    assert [p.path for p in caught.value.problems] == ["meta.title"]
