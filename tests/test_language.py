"""The talk in the presenter's language: the fixed words from a catalogue per language (the
content's `labels:` over them), every figure spelled as CLDR writes it for meta.language,
durations read back in that language, and the language tagged on every output; a Japanese
talk's lines broken where Japanese allows."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import DEFAULT_CONTENT, ROOT, only_file, run_in, shared_folder

import deckgen.story
from deckgen import quantities, source, words
from deckgen.errors import InputError
from deckgen.paint.page import render as page

GERMAN = ROOT / "content.de.yaml"
NNBSP, NBSP = "\u202f", "\u00a0"


def _english_talk_in(language: str) -> Any:
    english = source.read(DEFAULT_CONTENT)[0]
    return replace(english, meta=replace(english.meta, language=language))


# ---- the catalogues ----

@pytest.mark.parametrize("language", ["de", "fr", "ja"])
def test_every_catalogue_has_every_word_with_the_same_slots(language: str) -> None:
    english, other = words.english(), words.catalogue(language)
    assert set(other) == set(english)
    for name, text in english.items():
        assert words.slots(other[name]) == words.slots(text), name
        assert other[name], name


def test_the_catalogues_are_the_languages_deckgen_has() -> None:
    assert {"en", "de", "fr", "ja"} <= set(words.languages())


# ---- figures and words in the story ----

def test_the_german_story_spells_figures_and_words_in_german() -> None:
    story = deckgen.story.compose(source.read(GERMAN)[0])
    b = story.bottleneck
    assert b.end_to_end_speedup == "132,57\u00d7" and b.ceiling == "134,33\u00d7"
    assert story.dial.speed == "1.000.000 Tokens/s"
    assert b.check_share == f"98,7{NBSP}%"
    assert story.labels.still_scarce == "Bleibt knapp"
    assert story.workload_table.header[:2] == ("Aufgabe", "Ausgabe-Tokens")
    assert story.presets_table.rows[0][0] == "Keine"
    assert [r[3] for r in story.presets_table.rows] == ["10.000\u00d7", "132,57\u00d7",
                                                       "9,88\u00d7", "1,09\u00d7"]
    assert story.dial.at_speed == f"Bei 1.000.000{NBSP}Tokens/s"
    # The placeholder that joins two speeds uses the language's own conjunction.
    from deckgen.figures import figures
    assert figures(source.read(GERMAN)[0])["dial.both_speeds"].text == \
        "100 und 1.000.000 Tokens/s"


def test_french_formats_on_the_english_talk() -> None:
    story = deckgen.story.compose(_english_talk_in("fr"))
    assert story.dial.speed == f"1{NNBSP}000{NNBSP}000 jetons/s"
    assert story.bottleneck.end_to_end_speedup == "132,57\u00d7"
    assert story.bottleneck.check_share == f"98,7{NBSP}%"
    assert story.workload_table.rows[0][2] == f"2{NNBSP}h 46{NBSP}min 40{NNBSP}s"  # parts may part
    assert story.dial.figure == f"1{NBSP}seconde"  # CLDR's plural: one for 0 <= n < 2
    assert story.labels.ceiling == "Plafond"


def test_a_language_without_a_catalogue_keeps_english_words_and_its_own_numbers(
        tmp_path: Path) -> None:
    path = tmp_path / "content.yaml"
    path.write_text(DEFAULT_CONTENT.read_text(encoding="utf-8").replace(
        "  language: en", "  language: nl", 1), encoding="utf-8")
    content, warnings = source.read(path)
    story = deckgen.story.compose(content)
    assert story.bottleneck.end_to_end_speedup == "132,57\u00d7"
    assert story.labels.still_scarce == "Still scarce"
    said = [str(w) for w in warnings if "language" in str(w)]
    assert len(said) == 1 and "'nl'" in said[0] and "stay English" in said[0]
    run = run_in("check", str(path))
    assert run.returncode == 0
    assert len([line for line in run.stderr.splitlines() if "no words for 'nl'" in line]) == 1
    assert "no words" not in run_in("check", str(GERMAN)).stderr


# ---- labels ----

def _with_labels(tmp_path: Path, labels: str) -> Path:
    path = tmp_path / "content.yaml"
    path.write_text(GERMAN.read_text(encoding="utf-8") + "\nlabels:\n" + labels,
                    encoding="utf-8")
    return path


def test_labels_override_the_catalogue(tmp_path: Path) -> None:
    path = _with_labels(tmp_path, "  still_scarce: Noch immer knapp\n"
                                  "  at_speed: \"Mit {speed}\"\n")
    story = deckgen.story.compose(source.read(path)[0])
    assert story.labels.still_scarce == "Noch immer knapp"
    assert story.dial.at_speed == f"Mit 1.000.000{NBSP}Tokens/s"
    # The notes' generated sentence takes the label too.
    assert sum("Noch immer knapp: " in s.notes for s in story.slides) == 4


def test_labels_reach_the_notes_book(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from deckgen import build, pipeline

    path = _with_labels(tmp_path, '  notes_slide: "Seite {number}/{count} \u2013 {title}"\n')
    files, _ = pipeline.files(source.read(path)[0], build.Options(only="notes"))
    first = PdfReader(io.BytesIO(files["notes"])).pages[0].extract_text()
    assert "Seite 1/16 \u2013 Eine Million Tokens pro Sekunde" in first


def test_an_unknown_label_is_a_located_error_with_a_guess(tmp_path: Path) -> None:
    path = _with_labels(tmp_path, "  stil_scarce: Knapp\n  at_speed: \"Mit {tempo}\"\n")
    with pytest.raises(InputError) as err:
        source.read(path)
    lines = [str(p) for p in err.value.problems]
    assert len(lines) == 2
    assert "labels.stil_scarce" in lines[0] and "did you mean 'still_scarce'?" in lines[0]
    assert re.search(r":\d+", lines[0])
    assert "{tempo}" in lines[1] and "{speed}" in lines[1]


# ---- reading numbers and durations in the talk's language ----

@pytest.mark.parametrize(("text", "seconds"), [
    ("1 Std. 30 Min.", 5400), ("1,5 h", 5400), ("90 Sekunden", 90), ("1 Sekunde", 1),
    ("keine", 0), ("Keine", 0), ("2 Std. 46 Min. 40 Sek.", 10_000), ("15 min", 900),
])
def test_german_durations_read_back(text: str, seconds: int) -> None:
    assert quantities.parse_duration(text, "de") == seconds


@pytest.mark.parametrize(("language", "text", "seconds"), [
    ("fr", f"1{NNBSP}h 30{NBSP}min", 5400), ("fr", "1,5 h", 5400), ("fr", "aucune", 0),
    ("ja", "1 時間 30 分", 5400), ("ja", "1時間30分", 5400), ("ja", "なし", 0),
])
def test_durations_read_back_in_other_languages(language: str, text: str, seconds: int) -> None:
    assert quantities.parse_duration(text, language) == seconds


@pytest.mark.parametrize(("text", "speed"), [
    ("1,5K", 1500), ("1.000.000", 1_000_000), ("2,5", F(5, 2)), ("1M", 1_000_000),
    ("1.000.000 Tokens/s", 1_000_000),
])
def test_german_speeds_read_back(text: str, speed: F | int) -> None:
    assert quantities.parse_speed(text, "de") == speed


def test_every_duration_the_german_talk_prints_reads_back() -> None:
    from deckgen import fmt, locale

    lang = locale.numbers("de")
    for seconds in (F(1, 2), F(3, 2), 1, 59, 60, F(608, 10), 100, 3600, 5400, 10_000, 86_401):
        assert quantities.parse_duration(fmt.duration(seconds, lang), "de") == \
            F(fmt.round_half_up(F(seconds), 0 if seconds >= 100 else 1))


@pytest.mark.parametrize(("old", "new"), [("  speed: 1M", "  speed: 5.000"),
                                          ("    tokens_each: 1000", "    tokens_each: 2.000")])
def test_a_number_that_reads_two_ways_in_the_german_talk_is_refused(
        tmp_path: Path, old: str, new: str) -> None:
    text = GERMAN.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "content.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        source.read(path)
    (line,) = [str(p) for p in err.value.problems]
    assert "reads two ways" in line and ("5000" in line or "2000" in line)


def test_a_german_talk_reads_its_own_spelling_in_the_content(tmp_path: Path) -> None:
    text = GERMAN.read_text(encoding="utf-8")
    path = tmp_path / "content.yaml"
    path.write_text(text.replace("  speed: 1M", "  speed: \"1,5K\"", 1).replace(
        "  fixed_check: 60 s", "  fixed_check: 1 Std. 30 Min.", 1), encoding="utf-8")
    content = source.read(path)[0]
    assert content.dial.speed == 1500 and content.dial.fixed_check == 5400


# ---- the built German talk ----

@pytest.fixture(scope="session")
def german_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(out: Path) -> None:
        run = run_in("build", str(GERMAN), "--out", str(out))
        assert run.returncode == 0, run.stderr
    return shared_folder(tmp_path_factory, "german-build", make)


def _deck_texts(deck: Path) -> tuple[str, str, list[str]]:
    """Every slide's text, the notes' text, and each run's language tag."""
    slides, notes, langs = [], [], []
    with zipfile.ZipFile(deck) as z:
        for name in sorted(z.namelist()):
            if not name.endswith(".xml"):
                continue
            xml = z.read(name).decode("utf-8")
            text = " ".join(re.findall(r"<a:t>([^<]*)</a:t>", xml))
            if name.startswith("ppt/slides/slide"):
                slides.append(text)
                langs += re.findall(r"<a:rPr[^>]*?\blang=\"([^\"]+)\"", xml)
                langs += ["(none)" for r in re.findall(r"<a:r>\s*<a:rPr(?![^>]*\blang=)", xml)]
            elif name.startswith("ppt/notesSlides/"):
                notes.append(text)
            elif name.startswith("ppt/charts/chart"):
                slides.append(" ".join(re.findall(r"<c:v>([^<]*)</c:v>", xml)) + " " + text)
    return "\n".join(slides), "\n".join(notes), langs


def _pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def _page_text(html: Path) -> str:
    import html as markup

    text = html.read_text(encoding="utf-8")
    model = re.search(r'<script type="application/json" id="model">(.*?)</script>', text, re.S)
    assert model
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", text, flags=re.S)
    attributes = " ".join(re.findall(r'aria-label="([^"]*)"', text))
    return markup.unescape(re.sub(r"<[^>]+>", " ", text) + " " + attributes)


# English words deckgen itself writes (German content has none of these words of its own).
ENGLISH = ["Still scarce", "Featured on the dial", "tokens/sec", "of writing at", "Our dial",
           "Workload", "Output tokens", "Fixed check", "End to end", "Writing speedup",
           "End-to-end speedup", "Check share", "Ceiling", "Imagined comparisons",
           "On the slide", "seconds", "None", "no ceiling", "log scale", "Writing time",
           "Where each total goes", "checked 20", "the same batch", "Skip to the dial",
           "Imagined speed", "Arrow keys", "Each bar", "Line chart", "horizontal bars", " and ",
           "Slide 1 of", "no notes"]


def _no_english(text: str, where: str) -> None:
    for word in ENGLISH:
        assert word.lower() not in text.lower(), (where, word)
    assert "1,000,000" not in text and "132.57\u00d7" not in text, where


def test_the_german_talk_has_no_english_fixed_word_and_german_figures(german_build: Path) -> None:
    slides, notes, _ = _deck_texts(only_file(german_build, ".pptx"))
    handout = _pdf_text(only_file(german_build, ".pdf"))
    page_text = _page_text(only_file(german_build, ".html"))
    # The sources' titles are the sources' own (English) names: left out of the search.
    titles = [s["title"] for s in yaml.safe_load(GERMAN.read_text(encoding="utf-8"))["sources"]]
    kit = [(kind, _pdf_text(path)) for kind in ("slides", "notes")
           for path in german_build.glob(f"*-{kind}.pdf")]  # the slides PDF, the notes book
    assert [kind for kind, _ in kit] == ["slides", "notes"]
    for name, text in (("deck", slides), ("speaker notes", notes), ("handout", handout),
                       ("page", page_text), *kit):
        for title in titles:
            text = text.replace(title, "")
        text = " ".join(text.split())
        _no_english(re.sub(r"\s*\n\s*", " ", text), name)
        assert "1.000.000" in text, name
        assert "132,57\u00d7" in text or "notes" in name, name


def test_a_capitalised_sharp_s_is_drawn_whole_in_the_slides_pdf(german_build: Path) -> None:
    """'Kontextgröße' in capitals is 'KONTEXTGRÖSSE', one letter longer: the slides PDF drew
    it cut short ('KONTEXTGRÖSS') where it measured the runs by their lower-case length."""
    slides = _pdf_text(next(german_build.glob("*-slides.pdf")))
    assert "KONTEXTGRÖSSE" in slides


def test_the_german_talk_is_tagged_german(german_build: Path) -> None:
    _, _, langs = _deck_texts(only_file(german_build, ".pptx"))
    assert langs and set(langs) == {"de-DE"}, sorted(set(langs))
    pdf = only_file(german_build, ".pdf").read_bytes()
    assert re.search(rb"/Lang \(de", pdf)
    html = only_file(german_build, ".html").read_text(encoding="utf-8")
    assert '<html lang="de"' in html


# ---- Japanese: lines broken as Japanese breaks them ----

JA_TITLES = {"endings": "ありうる結末の地図", "apps": "近所の工具図書館のアプリ",
             "candidates": "批評つきの候補", "rehearsals": "本番前のリハーサル"}
JA_STORIES = {
    "endings": "物語の結末を一つ頼むと、棚いっぱいの結末が届きます。希望に満ちたもの、暗いもの、"
               "奇妙なもの。棚を全部読む人はいないので、良い道具は結末を地図のように並べ、気に入った"
               "二つをつなげてくれます。「どれを選ぶか」だけが、あなたの仕事として残ります。",
    "apps": "近所の工具図書館のために貸し出しアプリを説明すると、話し終える前に試作が並びます。"
            "はしごから電動ドリルまで、画面はどれも違います。全部を試す時間はないので、二つか三つを"
            "先に選び、いちばん滑らかなものに流されないようにします（見た目より中身）。",
    "candidates": "一つの質問に何百もの答えの候補が書かれ、それぞれに批評がつきます。ルーブリックで"
                  "点数をつけ、上位だけを人が読みます。書くのはほぼ一瞬ですが、良いルーブリックを"
                  "作るのは今も人の仕事です。ユーザーが本当に求めているものは、速さでは分かりません。",
    "rehearsals": "大事な交渉の前に、相手の反応を何千通りも書き出して練習します。怒る相手、"
                  "黙る相手、条件を変えてくる相手。読む時間は書く時間よりずっと長く、結局は自分の声で答える"
                  "練習が要ります。「次の一言」を決めるのは、いつもあなたです。",
}
# What no line of Japanese may start with (JIS X 4051's line-start prohibitions).
NO_LINE_START = set("、。，．・：；？！ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                    "）」』】〕〉》｝])")


def write_japanese(out: Path) -> Path:
    """The bundled talk with meta.language ja and its workloads told in Japanese, without
    spaces between words."""
    data = yaml.safe_load(DEFAULT_CONTENT.read_text(encoding="utf-8"))
    data["meta"]["language"] = "ja"
    for w in data["workloads"]:
        w["title"], w["story"] = JA_TITLES[w["id"]], JA_STORIES[w["id"]]
        w["scarce"] = "判断。どれが本当に良いかを決めるのは、今もあなたです。"
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def japanese_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(out: Path) -> None:
        content = write_japanese(out.parent / "japanese.yaml")
        run = run_in("build", str(content), "--out", str(out))
        assert run.returncode == 0, run.stderr
    return shared_folder(tmp_path_factory, "japanese-build", make)


def _line_starts(text: str) -> list[str]:
    """Each line's first character, and each column's where a line holds columns (three or more
    spaces apart), from pdftotext's layout."""
    starts = []
    for line in text.splitlines():
        for column in re.split(r" {3,}", line.strip()):
            if column:
                starts.append(column)
    return starts


def test_a_japanese_talk_builds_every_output_and_its_lines_start_well(
        japanese_build: Path) -> None:
    deck = only_file(japanese_build, ".pptx")
    html = only_file(japanese_build, ".html").read_text(encoding="utf-8")
    assert '<html lang="ja"' in html and JA_STORIES["endings"] in html
    handout = _pdf_text(only_file(japanese_build, ".pdf"))
    assert JA_TITLES["endings"] in handout
    assert "今もあなたです" in handout.replace("\n", "").replace(" ", "")
    _, _, langs = _deck_texts(deck)
    assert set(langs) == {"ja-JP"}
    bad = [c for c in _line_starts(handout) if c[0] in NO_LINE_START]
    assert not bad, bad


@pytest.mark.soffice
def test_libreoffice_starts_no_japanese_line_with_a_forbidden_character(
        japanese_build: Path, tmp_path: Path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    from conftest import print_pdf

    deck = only_file(japanese_build, ".pptx")
    run = print_pdf(deck, tmp_path, tmp_path / "profile")
    printed = tmp_path / (deck.stem + ".pdf")
    assert printed.exists(), run.stderr
    text = _pdf_text(printed)
    for story in JA_STORIES.values():  # every story is on its slide, whole
        assert story[:12] in text.replace("\n", "").replace(" ", "")
    starts = _line_starts(text)
    assert len(starts) > 100
    bad = [c for c in starts if c[0] in NO_LINE_START]
    assert not bad, bad


def test_the_page_model_carries_the_languages_spelling() -> None:
    model = page.model(deckgen.story.compose(source.read(GERMAN)[0]))
    n = model["numbers"]
    assert (n["decimal"], n["group"], n["percent"]) == (",", ".", "{}\u00a0%")
    assert n["seconds"] == {"one": "{} Sekunde", "other": "{} Sekunden"}
    assert n["units"]["std."] == 3600 and "keine" in n["nothing"]
    assert model["words"]["featured"] == "Auf dem Regler"


def test_the_page_carries_every_word_its_script_writes() -> None:
    from importlib import resources

    script = resources.files("deckgen.paint.page").joinpath("page.js").read_text(encoding="utf-8")
    used = set(re.findall(r"\bW\.(\w+)", script)) | set(re.findall(r'say\("(\w+)"', script))
    model = page.model(deckgen.story.compose(source.read(GERMAN)[0]))
    assert used == set(model["words"])
