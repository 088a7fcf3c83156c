"""The live page as bytes: self-contained, small, the same bytes every time, a policy that names
exactly its own inline code, the story's text at the content's dial, hostile text kept as text;
and the build writes it beside the deck and the handout."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import replace
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT, run_in

import deckgen.story
from deckgen import source
from deckgen.figures import figures, split, with_overrides
from deckgen.paint.page import render as page
from deckgen.story import Piece

NBSP = "\u00a0"


class Parsed(HTMLParser):
    """Every start tag with its attributes, the inline scripts and styles, and the text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self.text: list[str] = []
        self._in: tuple[str, dict[str, str | None]] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._in = (tag, dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in and self._in[0] == "script":
            self.scripts.append((self._in[1], data))
        elif self._in and self._in[0] == "style":
            self.styles.append(data)
        else:
            self.text.append(data)


@pytest.fixture(scope="module")
def content() -> Any:
    return source.read(DEFAULT_CONTENT)[0]


@pytest.fixture(scope="module")
def html(content: Any) -> str:
    return page.render(deckgen.story.compose(content)).decode("utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_small_and_the_same_bytes_every_time(content: Any, html: str) -> None:
    data = html.encode("utf-8")
    assert len(data) < 150_000
    assert page.render(deckgen.story.compose(content)) == data


def test_self_contained(html: str) -> None:
    parsed = Parsed(html)
    names = {tag for tag, _ in parsed.tags}
    assert not names & {"link", "img", "iframe", "object", "embed", "base", "video", "audio"}
    for tag, attrs in parsed.tags:
        assert "src" not in attrs, tag
        if tag == "a":  # links lead out only when the reader follows one
            href = attrs["href"] or ""
            assert href.startswith(("#", "https://")), href
    for _, code in parsed.scripts:
        assert "http" not in code.replace("http://www.w3.org/2000/svg", "")
    for css in parsed.styles:
        assert "url(" not in css and "@import" not in css


def test_policy_names_exactly_the_inline_code(html: str) -> None:
    parsed = Parsed(html)
    policy = next(a["content"] for t, a in parsed.tags
                  if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert policy is not None
    rules = dict(r.strip().split(" ", 1) for r in policy.split(";"))
    assert rules["default-src"] == "'none'"
    code = [c for a, c in parsed.scripts if a.get("type") != "application/json"]
    assert len(code) == 1
    assert rules["script-src"] == _hash(code[0])
    assert rules["style-src"].split() == [_hash(css) for css in parsed.styles]
    assert "unsafe" not in policy
    # The policy comes before anything it governs.
    assert html.index("Content-Security-Policy") < html.index("<style>")


def test_the_story_at_the_content_dial_is_on_the_page(content: Any, html: str) -> None:
    story = deckgen.story.compose(content)
    texts = page.story_texts(story)
    shown = re.findall(r'data-story="([^"]+)"(?: class="[^"]*")?>([^<]*)<', html)
    assert len(shown) > 60
    for key, text in shown:
        if key != "b.ceiling_sentence":  # prose with figures inside, checked below
            assert unescape(text) == texts[key], key
    assert f'aria-label="{texts["chart.ceiling.alt"]}"' in html
    # Hand-checked figures of the explainer, each in its marked place.
    for key, text in (("b.end_to_end_speedup", "132.57\u00d7"), ("b.ceiling", "134.33\u00d7"),
                      ("dial.figure", "1" + NBSP + "second"),
                      # a table cell keeps each number with its unit; its parts may part
                      ("pt.r.1.1", "2" + NBSP + "h 14" + NBSP + "min 20" + NBSP + "s")):
        assert f'data-story="{key}">{text}<' in html, key
    # Every prose figure shows the text `deckgen table --json` gives.
    table = figures(content)
    for name, text in re.findall(r'data-fig="([^"]+)">([^<]*)<', html):
        assert text.replace(NBSP, " ").replace("&#39;", "'") == table[name].text
    plain = "".join(Parsed(html).text).replace(NBSP, " ")
    for card in story.cards:
        assert card.text.text.replace(NBSP, " ") in plain
    for e in story.experiments:
        assert e.story.text.replace(NBSP, " ") in plain and e.scarce.text in plain
    for step, detail, _ in story.checklist:
        assert step in plain and detail.text.replace(NBSP, " ") in plain
    assert story.bottleneck.summary.replace(NBSP, " ") in plain
    assert story.bottleneck.ceiling_sentence.text.replace(NBSP, " ") in plain
    assert plain.count('type="checkbox"') == 0 and html.count('type="checkbox"') == 4


def test_the_order_is_the_deck_order(html: str) -> None:
    ids = re.findall(r'<section id="([a-z]+)"', html)
    assert ids == ["meanings", "dial", "workloads", "experiments", "bottleneck", "presets",
                   "ceiling", "precious", "checklist", "sources"]


def test_the_script_gets_the_dial_and_the_templates(content: Any, html: str) -> None:
    parsed = Parsed(html)
    data = next(c for a, c in parsed.scripts if a.get("type") == "application/json")
    model = json.loads(data)
    assert model["speed"] == "1000000" and model["slow"] == "100" and model["check"] == "60"
    assert model["presets"] == ["0", "60", "900", "86400"]
    assert [m[1] for m in model["checkMarks"]] == ["None", "60 seconds", "1 h", "24 h"]
    assert model["workloads"][2]["title"] == [["A handful of real experiments from ", None],
                                              ["{workload.candidates.count}",
                                               "workload.candidates.count"], [" ideas", None]]


def test_the_page_shows_what_the_story_says(content: Any) -> None:
    """The page is drawn from the story alone: words the story holds, and no others, reach it."""
    story = deckgen.story.compose(content)
    prose = dict(story.live.prose)
    prose["bottleneck.setup"] = (Piece("A setup the story tells, ", None),
                                 Piece("60.8" + NBSP + "seconds", "bottleneck.total"))
    told = replace(story, live=replace(story.live, prose=prose),
                   bottleneck=replace(story.bottleneck, summary="A summary of the story's own."))
    html = page.render(told).decode()
    assert ('<p>A setup the story tells, <span data-fig="bottleneck.total">60.8' + NBSP
            + "seconds</span></p>") in html
    assert '<p class="summary"><span data-story="b.summary">A summary of the story&#39;s own.<' \
        in html
    assert html.count("A setup the story tells") == 1


def test_an_other_dial_is_static_text_too(content: Any) -> None:
    dialed = with_overrides(content, "2500", "15 min", "candidates")
    html = page.render(deckgen.story.compose(dialed)).decode()
    assert f'data-story="dial.figure">20{NBSP}min<' in html
    assert '"speed": "2500"' in html and '"workload": "candidates"' in html


def test_split_gives_the_text_back() -> None:
    text = "Take the {bottleneck.count} drafts, {bottleneck.output_tokens } tokens."
    pieces = split(text)
    assert pieces == (("Take the ", None), ("{bottleneck.count}", "bottleneck.count"),
                      (" drafts, ", None), ("{bottleneck.output_tokens }",
                                            "bottleneck.output_tokens"), (" tokens.", None))
    assert "".join(p for p, _ in pieces) == text
    assert split("") == ()
    assert split("no figure") == (("no figure", None),)


HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


def _hostile(tmp_path: Path) -> Any:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    text = text.replace("title: A million tokens a second", f"title: '{HOSTILE}'")
    quoted = HOSTILE.replace('"', '\\"')
    text = text.replace('scarce: "Taste.', f'scarce: "{quoted} Taste.')
    text = text.replace("noun: story endings", "noun: '</script><script>alert(3)</script>'")
    path = tmp_path / "content.yaml"
    path.write_text(text, encoding="utf-8")
    return source.read(path)[0]


def test_hostile_text_never_becomes_markup(tmp_path: Path) -> None:
    content = _hostile(tmp_path)
    html = page.render(deckgen.story.compose(content)).decode()
    parsed = Parsed(html)
    assert [t for t, _ in parsed.tags].count("script") == 2
    assert [t for t, _ in parsed.tags].count("img") == 0
    assert not any(k.startswith("on") for _, attrs in parsed.tags for k in attrs)
    assert "<script>alert" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img" in html
    plain = "".join(parsed.text)
    assert HOSTILE in plain  # shown as the text it is
    data = next(c for a, c in parsed.scripts if a.get("type") == "application/json")
    assert "</" not in data and json.loads(data)["workloads"][0]["noun"].startswith("</script>")


def test_a_page_too_big_is_refused_with_one_line(content: Any) -> None:
    from dataclasses import replace

    from deckgen.errors import InputError

    long = replace(content, slides={**content.slides, "dial": replace(
        content.slides["dial"], page_text="All talk and no figures. " * 6000)})
    with pytest.raises(InputError) as caught:
        page.render(deckgen.story.compose(long))
    (line,) = caught.value.lines()
    assert re.fullmatch(r".*content\.yaml: the web page would be \d{3},\d{3} bytes, more than "
                        r"the 150,000 one self-contained page may take; shorten the prose", line)


def test_build_writes_the_page_beside_the_deck_and_handout(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "html", "--speed", "2.5K",
                  "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["million-tokens-2.5K.html"]
    assert run.stdout.strip() == str(tmp_path / "million-tokens-2.5K.html")
    again = tmp_path / "again"
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "html", "--speed", "2.5K",
                  "--out", str(again))
    assert (again / "million-tokens-2.5K.html").read_bytes() == (
        tmp_path / "million-tokens-2.5K.html").read_bytes()


def test_only_takes_html(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "web", "--out", str(tmp_path))
    assert run.returncode == 2
    assert run.stderr.strip() == ("--only: must be one or more of deck, handout, html, "
                                  "slides, notes "
                                  "(several: --only deck,handout), got 'web'")
    assert list(tmp_path.iterdir()) == []


def test_sweep_builds_pages(tmp_path: Path) -> None:
    run = run_in("sweep", str(DEFAULT_CONTENT), "--speeds", "1K,1M", "--checks", "0,15min",
                  "--only", "html", "--jobs", "1", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.glob("million-*")) == [
        "million-tokens-1K-check-15min.html", "million-tokens-1K-check-none.html",
        "million-tokens-1M-check-15min.html", "million-tokens-1M-check-none.html"]
    html = (tmp_path / "million-tokens-1K-check-15min.html").read_text(encoding="utf-8")
    assert '"check": "900"' in html and '"speed": "1000"' in html


@pytest.mark.slow
def test_a_full_build_writes_five_files(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.glob("million-*")) == [
        "million-tokens-1M-notes.pdf", "million-tokens-1M-slides.pdf",
        "million-tokens-1M.html", "million-tokens-1M.pdf", "million-tokens-1M.pptx"]
