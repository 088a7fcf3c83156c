"""The live page in a real browser (headless Chromium): every figure it shows at 200+ dials is
the core's, to the character; the fragment, the keyboard, the phone width, JavaScript off, no
network request, and hostile content.

Skipped only when no `chromium` is on PATH. One browser serves the whole module; the dial
comparison drives one page by its fragment, so it stays quick.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT

import deckgen.story
from deckgen import report, source
from deckgen.figures import with_overrides
from deckgen.paint.page import render as page

CHROMIUM = shutil.which("chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium on PATH"),
]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
NBSP = "\u00a0"

# Everything the page marks: named figures, the story's composed texts, highlighted rows.
COLLECT = """() => {
  const figs = [...document.querySelectorAll("[data-fig]")]
    .map(e => [e.dataset.fig, e.textContent]);
  const texts = {};
  for (const e of document.querySelectorAll("[data-story]")) texts[e.dataset.story] = e.textContent;
  const rows = {};
  for (const e of document.querySelectorAll("tr[data-row]"))
    if (e.classList.contains("ours")) rows[e.dataset.table] = +e.dataset.row;
  return {figs, texts, rows, hash: location.hash,
          speed: document.getElementById("speed").getAttribute("aria-valuetext"),
          check: document.getElementById("check").getAttribute("aria-valuetext")};
}"""

# A new fragment, as a link or the address bar gives it, and what the page then shows.
GO = """(hash) => {
  history.replaceState(null, "", hash);
  dispatchEvent(new HashChangeEvent("hashchange"));
  return (%s)();
}""" % COLLECT

# GO for each of many fragments in turn, in one call into the page (one round trip, not 200),
# answered as one JSON text (the browser's own JSON.stringify, not a value handed over item
# by item through the driver).
GO_EACH = "(hashes) => JSON.stringify(hashes.map((hash) => (%s)(hash)))" % GO

# The same through the browser's own navigation.
NAVIGATE = """async (hash) => {
  const changed = new Promise(r => addEventListener("hashchange", r, {once: true}));
  location.hash = hash;
  await changed;
  return (%s)();
}""" % COLLECT


@pytest.fixture(scope="module")
def content() -> Any:
    return source.read(DEFAULT_CONTENT)[0]


@pytest.fixture(scope="module")
def page_file(content: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("page") / "million-tokens-1M.html"
    path.write_bytes(page.render(deckgen.story.compose(content)))
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        _SPARE.clear()
        chromium.close()


# Tabs with JavaScript on that are no longer in use: each test that opens one again gets a
# new document in a tab already running (a new tab costs its own renderer process, three
# times the CPU of the page itself), set to the width and the motion it asks for, as a new
# tab with those options would be. Other tabs (JavaScript off) are closed.
_SPARE: list[Any] = []
_LENT: list[Any] = []
PLAIN = {"width": 1280, "height": 900}


@pytest.fixture(autouse=True)
def _tabs_closed_after_each_test(browser: Any) -> Iterator[None]:
    """Each test's tabs closed when it ends (one with JavaScript on left on a blank page, 1280
    px wide, nothing emulated, for the next test): the next test shares the browser, not its
    work."""
    yield
    for tab in _LENT:
        tab.goto("about:blank")
        tab.set_viewport_size(PLAIN)
        tab.emulate_media(media="null", reduced_motion="null")
    _SPARE.extend(_LENT)
    _LENT.clear()
    spare = {tab.context for tab in _SPARE}
    for context in browser.contexts:
        if context not in spare:
            context.close()


def _open(browser: Any, path: Path, fragment: str = "", width: int = 1280,
          java_script_enabled: bool = True, reduced_motion: str | None = None) -> Any:
    """A new document of the page at `path` + `fragment`, in a tab `width` px wide (with
    JavaScript off, or a motion preference, when asked)."""
    if java_script_enabled and _SPARE:
        tab = _SPARE.pop()
    else:
        tab = browser.new_context(viewport=PLAIN, java_script_enabled=java_script_enabled
                                  ).new_page()
        tab.on("dialog", lambda d: pytest.fail(f"the page opened a dialog: {d.message}"))
    if java_script_enabled:
        _LENT.append(tab)
    if width != PLAIN["width"]:
        tab.set_viewport_size({**PLAIN, "width": width})
    if reduced_motion:
        tab.emulate_media(reduced_motion=reduced_motion)
    tab.goto(path.as_uri() + fragment)
    if java_script_enabled:
        tab.wait_for_function("() => window.deckgenReady !== undefined")
    return tab


def _expected(content: Any, speed: str | None, check: str | None,
              workload: str | None) -> tuple[dict[str, Any], dict[str, str], Any]:
    dialed = with_overrides(content, speed, check, workload)
    story = deckgen.story.compose(dialed)
    return report.as_json(dialed), page.story_texts(story), story


def _settings(content: Any) -> list[tuple[str, str, str]]:
    """The explainer's published dials, then random ones in the forms the command line takes."""
    ids = [w.id for w in content.workloads]
    out = []
    for speed in ("100", "1K", "10K", "100K", "1M"):
        for check in ("none", "60 s", "15 min", "24 h"):
            out.append((speed, check, "apps"))
    for w in ids:
        out += [("1M", "60s", w), ("100", "60s", w)]
    # Below the slow speed (a slowdown, "0.37×"), with and without a check, and checks that
    # are not presets (a row of their own in the check table).
    out += [("37", "60 s", "apps"), ("50", "none", "apps"), ("40K", "1 h", "apps"),
            ("3.3M", "0", "apps"), ("2.5K", "90 s", "endings")]
    rng = random.Random(12)
    speed_forms = [
        lambda: str(rng.randint(100, 1_000_000)),
        lambda: f"{rng.randint(100, 999)}K",
        lambda: f"{rng.randint(1, 99)}.{rng.randint(1, 9)}K",
        lambda: f"{rng.randint(1000, 99_999)}.{rng.randint(0, 999):03d}",
        lambda: f"{rng.randint(1, 9)}e{rng.randint(2, 5)}",
        lambda: f"{rng.randint(100, 999_999)} tokens/sec",
        lambda: f"{rng.randint(1_000_000, 9_999_999):,}",
    ]
    check_forms = [
        lambda: f"{rng.randint(1, 600)}s",
        lambda: f"{rng.randint(1, 90)} min",
        lambda: f"{rng.randint(1, 30)}h",
        lambda: f"{rng.randint(1, 999)}.{rng.randint(0, 9)} s",
        lambda: f"{rng.randint(1, 9)}.{rng.randint(1, 9)} h",
        lambda: "0",
        lambda: "1 day",
        lambda: str(rng.randint(0, 100_000)),
    ]
    while len(out) < 230:
        out.append((rng.choice(speed_forms)(), rng.choice(check_forms)(), rng.choice(ids)))
    return out


def _fragment(speed: str, check: str, workload: str) -> str:
    from urllib.parse import quote

    return f"#speed={quote(speed)}&check={quote(check)}&workload={workload}"


def _compare(seen: dict[str, Any], figures: dict[str, Any], texts: dict[str, str],
             story: Any, where: str) -> int:
    def n(text: str) -> str:  # a figure's no-break spaces as spaces, on both sides
        return text.replace(NBSP, " ")

    compared = 0
    for name, text in seen["figs"]:
        assert text.replace(NBSP, " ") == n(figures["figures"][name]["text"]), (where, name)
        compared += 1
    for key, text in seen["texts"].items():
        assert text == texts[key], (where, key)
        compared += 1
    for i, row in enumerate(figures["workloads"]):
        assert n(seen["texts"][f"wt.r.{i}.2"]) == n(row["slow_writing_time"]["text"])
        assert n(seen["texts"][f"wt.r.{i}.3"]) == n(row["writing_time"]["text"])
    # The check table: every preset, and the chosen check in its place when it is not one.
    rows = len(story.presets_table.rows)
    shown = [seen["texts"][f"pt.r.{i}.0"].replace(NBSP, " ") for i in range(rows)]
    assert f"pt.r.{rows}.0" not in seen["texts"], where
    presets = [n(row["fixed_check"]["text"]) for row in figures["presets"]]
    assert [c for c in shown if c in presets] == presets, where
    for row in figures["presets"]:
        i = shown.index(n(row["fixed_check"]["text"]))
        assert n(seen["texts"][f"pt.r.{i}.2"]) == n(row["total"]["text"])
        assert n(seen["texts"][f"pt.r.{i}.3"]) == n(row["end_to_end_speedup"]["text"])
    assert seen["rows"].get("wt") == story.workload_table.highlight, where
    assert seen["rows"].get("pt") == story.presets_table.highlight, where
    return compared


def test_every_figure_matches_the_core_at_200_dials(browser: Any, page_file: Path,
                                                    content: Any) -> None:
    tab = _open(browser, page_file)
    settings = _settings(content)
    assert len(settings) >= 200
    compared = 0
    everything = json.loads(tab.evaluate(GO_EACH, [_fragment(*s) for s in settings]))
    for (speed, check, workload), seen in zip(settings, everything, strict=True):
        figures, texts, story = _expected(content, speed, check, workload)
        compared += _compare(seen, figures, texts, story, f"{speed!r} {check!r} {workload}")
        # The sliders announce the value and what it buys.
        assert seen["speed"] == story.dial.sentence.replace(NBSP, " ")
        assert figures["figures"]["bottleneck.end_to_end_speedup"]["text"] in seen["check"]
    # Every setting compared some eighty figures and texts.
    assert compared > len(settings) * 80


def test_published_figures_on_the_live_page(browser: Any, page_file: Path) -> None:
    """The explainer's own numbers, typed from its tables, not from the core."""
    tab = _open(browser, page_file)
    seen = tab.evaluate(GO, "#speed=1M&check=60s&workload=apps")
    t = {k: v.replace(NBSP, " ") for k, v in seen["texts"].items()}
    assert t["b.end_to_end_speedup"] == "132.57\u00d7"
    assert t["b.writing_speedup"] == "10,000\u00d7"
    assert t["bar.0.label"] == "100 tokens/sec: 2 h 14 min 20 s"
    assert t["bar.1.label"] == "1,000,000 tokens/sec: 60.8 seconds"
    assert t["b.ceiling"] == "134.33\u00d7"
    assert t["bar.0.seg.0"] == "99.3%" and t["bar.1.seg.1"] == "98.7%"
    assert t["b.end_to_end_how"] == "8,060 \u00f7 60.8 seconds"
    assert [t[f"pt.r.{i}.3"] for i in range(4)] == ["10,000\u00d7", "132.57\u00d7", "9.88\u00d7",
                                                   "1.09\u00d7"]
    assert [t[f"wt.r.{i}.2"] for i in range(4)] == ["2 h 46 min 40 s", "2 h 13 min 20 s",
                                                   "8 h 20 min", "27 h 46 min 40 s"]
    assert t["dial.figure"] == "0.8 seconds"
    seen = tab.evaluate(GO, "#speed=100&check=24h&workload=rehearsals")
    assert seen["texts"]["dial.figure"].replace(NBSP, " ") == "27 h 46 min 40 s"
    assert seen["texts"]["pt.r.3.1"].replace(NBSP, " ") == "26 h 13 min 20 s"


def test_fragment_is_read_written_and_bad_values_fall_back(browser: Any, page_file: Path,
                                                           content: Any) -> None:
    tab = _open(browser, page_file, "#speed=40K&check=15%20min&workload=apps")
    seen = tab.evaluate(COLLECT)
    assert seen["texts"]["dial.speed"] == "40,000 tokens/sec"
    assert seen["texts"]["b.check"].replace(NBSP, " ") == "15 min"
    assert seen["rows"]["wt"] == 1
    # Moving a control writes the fragment; opening that link gives the same page.
    tab.focus("#speed")
    tab.keyboard.press("PageUp")
    tab.wait_for_function("() => location.hash.indexOf('speed=100K') >= 0")
    assert tab.evaluate("location.hash") == "#speed=100K&check=15min&workload=apps"
    again = _open(browser, page_file, "#speed=100K&check=15min&workload=apps")
    assert again.evaluate(COLLECT)["texts"] == tab.evaluate(COLLECT)["texts"]
    seen = tab.evaluate(NAVIGATE, "#speed=25K&check=2h&workload=rehearsals")
    assert seen["texts"]["dial.speed"] == "25,000 tokens/sec"
    assert seen["texts"]["dial.figure"].replace(NBSP, " ") == "6 min 40 s"  # 10,000,000 / 25,000
    assert seen["texts"]["b.check"].replace(NBSP, " ") == "2 h"
    # The command line's forms.
    for fragment, speed, check in (("#speed=40000&check=90s", "40,000 tokens/sec", "90 seconds"),
                                   ("#speed=2.5K&check=1h", "2,500 tokens/sec", "1 h"),
                                   ("#speed=1e6&check=none", "1,000,000 tokens/sec", "None")):
        seen = tab.evaluate(GO, fragment)
        assert seen["texts"]["dial.speed"] == speed
        assert seen["texts"]["b.check"].replace(NBSP, " ") == check
    # Bad values fall back to the content's dial, each on its own, without a dialog.
    home = _expected(content, None, None, None)[1]
    # (A speed below the slow speed is no longer refused: "#speed=50" is a slowdown, 0.5×.)
    for fragment in ("#speed=fast&check=forever&workload=nope", "#speed=0", "#speed=-1K",
                     "#check=400%20days", "#check=1%20fortnight", "#workload=%3Cscript%3E",
                     "#speed=1,00", "#%%%", "#speed=&check=&workload="):
        seen = tab.evaluate(GO, fragment)
        for key in ("dial.speed", "b.check", "dial.title", "b.end_to_end_speedup"):
            assert seen["texts"][key] == home[key], (fragment, key)
    seen = tab.evaluate(GO, "#speed=nonsense&check=24h")
    assert seen["texts"]["dial.speed"] == home["dial.speed"]
    assert seen["texts"]["b.check"].replace(NBSP, " ") == "24 h"


SPEEDS = ["1,000", "5.000", "1.500K", "\u0665.\u0660\u0660\u0660", "1,000,000",
          "1,00", "1_000", "1e3", "1E3", ".5K", "2.5k", "1 M", "1M tokens/sec",
          "1000 tokens per second", "  40K ", "+1K", "-1K", "1e", "1.2.3", "0x10", "1e10000",
          "1e9999", "1.", "1k tokens/s", "\uff11\uff10\uff10\uff10",
          "\u0661\u0660\u0660\u0660", "99.99",
          "100.001", "1T", "2B", "1e12", "1e13", "12,345.678", "1,2345", "K", "", "nan", "inf",
          "0.1K", "1_0_0"]
CHECKS = ["90s", "1h", "1,000 h", "1.000 h", "15 min", "1.5 h", "1e3s", "1 day", "none", "no",
          "0", "-0", "0 s",
          "1,000 s", "0.0001s", "0.001s", "400 days", "366 days", "1 fortnight", "60 S", " 1 h ",
          "1hr", "2mins", "5e-1 min", "1e", "h", "-5s", "\uff19\uff10s", "3 hours", "2.5 d",
          "1,5 min", "1e-3 s"]


def test_the_fragment_reads_values_as_the_command_line_does(browser: Any, page_file: Path,
                                                            content: Any) -> None:
    """Each speed and check the command line takes shows as the core formats it; each one it
    refuses leaves the content's dial; any positive speed it takes, even below the slow end,
    shows (a slowdown)."""
    from urllib.parse import quote

    from deckgen import fmt, quantities

    tab = _open(browser, page_file)
    home = _expected(content, None, None, None)[1]
    for text in SPEEDS:
        try:
            speed = quantities.parse_speed(text)
            want = fmt.speed(speed)
        except ValueError:
            want = home["dial.speed"]
        seen = tab.evaluate(GO, f"#speed={quote(text)}&check=1h")
        assert seen["texts"]["dial.speed"] == want, repr(text)
    for text in CHECKS:
        try:
            want = fmt.keep_together(fmt.check(quantities.parse_duration(text)))
        except ValueError:
            want = home["b.check"]
        seen = tab.evaluate(GO, f"#check={quote(text)}&speed=2K")
        assert seen["texts"]["b.check"] == want, repr(text)


def test_keyboard_moves_the_sliders_and_the_picker(browser: Any, page_file: Path) -> None:
    tab = _open(browser, page_file)
    tab.focus("#speed")
    tab.keyboard.press("Home")
    text = lambda key: tab.evaluate(COLLECT)["texts"][key].replace(NBSP, " ")  # noqa: E731
    tab.wait_for_function("() => location.hash.indexOf('speed=100&') >= 0")
    assert text("dial.speed") == "100 tokens/sec"
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("() => location.hash.indexOf('speed=110&') >= 0")
    assert text("dial.speed") == "110 tokens/sec"
    assert tab.get_attribute("#speed", "aria-valuetext") == (
        "1,000 story endings: 2 h 31 min 31 s of writing at 110 tokens/sec")
    tab.keyboard.press("PageUp")
    tab.wait_for_function("() => location.hash.indexOf('speed=1K&') >= 0")
    assert text("b.writing_speedup") == "10\u00d7"
    tab.keyboard.press("End")
    tab.wait_for_function("() => location.hash.indexOf('speed=1M&') >= 0")
    tab.focus("#check")
    tab.keyboard.press("ArrowRight")  # from 60 seconds to the next step, 2 minutes
    tab.wait_for_function("() => location.hash.indexOf('check=2min') >= 0")
    assert text("b.check") == "2 min"
    assert "Fixed check 2 min" in (tab.get_attribute("#check", "aria-valuetext") or "")
    tab.keyboard.press("Home")
    tab.wait_for_function("() => location.hash.indexOf('check=none') >= 0")
    assert text("b.end_to_end_speedup") == "10,000\u00d7"
    tab.focus("input[name=workload]:checked")
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("() => location.hash.indexOf('workload=apps') >= 0")
    assert text("dial.figure") == "0.8 seconds"


DRAG = """async (position) => {
  const slider = document.getElementById("speed");
  slider.value = position;
  slider.dispatchEvent(new Event("input"));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return document.querySelector("[data-story='dial.speed']").textContent;
}"""


def test_the_speed_slider_is_logarithmic_and_snaps_to_marks(browser: Any, page_file: Path) -> None:
    """1,000 steps over four decades: 1K sits at step 250; near a mark the slider takes the
    mark, elsewhere a speed of two significant figures."""
    tab = _open(browser, page_file)
    assert tab.evaluate(DRAG, 250) == "1,000 tokens/sec"
    assert tab.evaluate(DRAG, 257) == "1,000 tokens/sec"  # snapped
    assert tab.evaluate(DRAG, 262) == "1,100 tokens/sec"  # 100 x 10^(262/250) = 1,116.9...
    assert tab.evaluate(DRAG, 500) == "10,000 tokens/sec"
    assert tab.evaluate(DRAG, 625) == "32,000 tokens/sec"  # 10^4.5 = 31,622.7...
    assert tab.evaluate(DRAG, 0) == "100 tokens/sec"
    assert tab.evaluate(DRAG, 1000) == "1,000,000 tokens/sec"
    assert tab.evaluate("() => location.hash") == "#speed=1M&check=1min&workload=endings"


def test_no_request_leaves_the_file(browser: Any, page_file: Path) -> None:
    ctx = browser.new_context()
    requests: list[str] = []
    ctx.on("request", lambda r: requests.append(r.url))
    tab = ctx.new_page()
    violations: list[str] = []
    tab.on("console", lambda m: violations.append(m.text) if m.type == "error" else None)
    tab.goto(page_file.as_uri() + "#speed=10K")
    tab.wait_for_function("() => window.deckgenReady !== undefined")
    tab.evaluate(GO, "#speed=2.5K&check=1h&workload=candidates")
    assert requests == [page_file.as_uri() + "#speed=10K"] or requests == [page_file.as_uri()]
    assert violations == []  # no script or style refused by the policy, nothing broken


@pytest.mark.parametrize("width", [375, 640])  # a phone, and 1280 px at 200% zoom
def test_no_sideways_scrolling(browser: Any, page_file: Path, width: int) -> None:
    tab = _open(browser, page_file, width=width)
    for fragment in ("#speed=100&check=24h&workload=rehearsals", "#speed=2.5K&check=15min",
                     "#speed=1M&check=none&workload=candidates"):
        tab.evaluate(GO, fragment)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width


def test_without_javascript_the_content_dial_is_static_text(browser: Any, page_file: Path,
                                                            content: Any) -> None:
    tab = _open(browser, page_file, "#speed=100", java_script_enabled=False)
    body = tab.inner_text("body")
    story = deckgen.story.compose(content)
    assert story.our_dial.replace(NBSP, " ") in body.replace(NBSP, " ")
    assert "132.57\u00d7" in body and "134.33\u00d7" in body and "2 h 14 min 20 s" in body.replace(
        NBSP, " ")
    assert not tab.is_visible("#speed")  # the controls need the script, so they stay hidden
    assert tab.is_visible(".static-dial")


def test_hostile_content_stays_text(browser: Any, tmp_path: Path) -> None:
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    text = text.replace("title: A million tokens a second", f"title: '{hostile}'")
    quoted = hostile.replace('"', '\\"')
    text = text.replace('scarce: "Taste.', f'scarce: "{quoted} Taste.')
    path = tmp_path / "content.yaml"
    path.write_text(text, encoding="utf-8")
    content = source.read(path)[0]
    assert content.meta.title == hostile
    out = tmp_path / "page.html"
    out.write_bytes(page.render(deckgen.story.compose(content)))
    tab = _open(browser, out)
    assert tab.title() == hostile
    assert tab.evaluate("document.querySelectorAll('img').length") == 0
    assert tab.evaluate("document.scripts.length") == 2  # the page's data and its own script
    assert hostile in tab.inner_text("article[data-experiment=endings]")


def test_reduced_motion_and_print(browser: Any, page_file: Path) -> None:
    """Bars move only for readers who have not asked for less motion; print drops the controls
    and keeps every figure."""
    duration = ("() => getComputedStyle(document.querySelector('#bar-1 .writing'))"
                ".transitionDuration")
    moving = _open(browser, page_file, reduced_motion="no-preference")
    assert set(moving.evaluate(duration).split(", ")) == {"0.15s"}
    still = _open(browser, page_file, reduced_motion="reduce")
    assert set(still.evaluate(duration).split(", ")) == {"0s"}
    still.emulate_media(media="print")
    assert not still.is_visible("#speed") and not still.is_visible("#check")
    assert still.is_visible("[data-story='b.end_to_end_speedup']")
    assert still.is_visible("#chart-ceiling")


def test_the_chosen_check_no_check_and_a_slowdown_on_the_live_page(browser: Any,
                                                                   page_file: Path) -> None:
    """Worked by hand. 40K with a 1 h check: (8,000 + 3,600) / (800,000 / 40,000 + 3,600) =
    11,600 / 3,620 = 3.2044... -> 3.20×, and 1 h is a row of its own between 15 min and 24 h.
    3.3M with no check: 3,300,000 / 100 = 33,000×, the writing speedup alone, no bars.
    37 tokens/sec: 37 / 100 = 0.37×, a slowdown."""
    tab = _open(browser, page_file)
    seen = tab.evaluate(GO, "#speed=40K&check=1h&workload=apps")
    t = {k: v.replace(NBSP, " ") for k, v in seen["texts"].items()}
    assert t["b.end_to_end_speedup"] == "3.20\u00d7"
    assert [t[f"pt.r.{i}.0"] for i in range(5)] == ["None", "60 seconds", "15 min", "1 h", "24 h"]
    assert seen["rows"]["pt"] == 3 and t["pt.r.3.3"] == "3.20\u00d7"
    assert t["b.end_to_end_how"] == "11,600 \u00f7 3,620 seconds"
    assert tab.is_visible("#bars")
    seen = tab.evaluate(GO, "#speed=3.3M&check=0&workload=apps")
    t = {k: v.replace(NBSP, " ") for k, v in seen["texts"].items()}
    assert t["b.writing_speedup"] == "33,000\u00d7"
    assert t["b.writing_speedup_how"] == "3,300,000 \u00f7 100 tokens/sec"
    assert "pt.r.4.0" not in t  # none is a preset: no extra row
    assert not tab.is_visible("#bars")
    assert not tab.is_visible("[data-story='b.check_share']")
    assert not tab.is_visible("[data-story='b.end_to_end_speedup']")
    assert tab.is_visible("[data-story='b.writing_speedup']")
    seen = tab.evaluate(GO, "#speed=37&check=60s&workload=apps")
    t = {k: v.replace(NBSP, " ") for k, v in seen["texts"].items()}
    assert t["dial.speed"] == "37 tokens/sec"
    assert t["b.writing_speedup"] == "0.37\u00d7"
    assert t["b.end_to_end_speedup"] == "0.37\u00d7"  # 8,060 / 21,681.6... = 0.3717...
    assert t["chart.writing_time.title"] == "Writing time from 10 to 1M tokens/sec"  # decades


def _talk_in(language: str) -> Any:
    """The German talk, or the English talk with `meta.language` set to `language`."""
    from dataclasses import replace

    if language == "de":
        return source.read(DEFAULT_CONTENT.parent / "content.de.yaml")[0]
    english = source.read(DEFAULT_CONTENT)[0]
    return replace(english, meta=replace(english.meta, language=language))


@pytest.mark.parametrize("language", ["de", "fr", "ja"])
def test_every_figure_matches_the_core_in_the_talks_language(browser: Any, language: str,
                                                             tmp_path: Path) -> None:
    """Numbers, durations (with their plural forms), percentages and every composed sentence
    the page writes again at a new dial are the story's, to the character, in the talk's
    language; the link reads numbers as that language writes them."""
    talk = _talk_in(language)
    path = tmp_path / "page.html"
    path.write_bytes(page.render(deckgen.story.compose(talk)))
    tab = _open(browser, path)
    # The published dials, every workload, the slowdown and the checks that are no preset,
    # a few random ones, and the plural forms of seconds
    settings = _settings(talk)[:45] + [("1M", "0.5 s", "apps"), ("1M", "1 s", "apps"),
                                       ("1M", "1.5 s", "apps"), ("1M", "2 s", "apps")]
    compared = 0
    everything = json.loads(tab.evaluate(GO_EACH, [_fragment(*s) for s in settings]))
    for (speed, check, workload), seen in zip(settings, everything, strict=True):
        figures, texts, story = _expected(talk, speed, check, workload)
        compared += _compare(seen, figures, texts, story, f"{speed!r} {check!r} {workload}")
        assert seen["speed"] == story.dial.sentence.replace(NBSP, " ")
    assert compared > len(settings) * 80
    if language == "de":  # the language's own spelling in the link: 1,5K and 1.000.000
        for fragment, speed, check in (
                ("#speed=1,5K&check=1,5%20h", "1.500 Tokens/s", "1 Std. 30 Min."),
                ("#speed=1.000.000&check=keine", "1.000.000 Tokens/s", "Keine")):
            seen = tab.evaluate(GO, fragment)
            assert seen["texts"]["dial.speed"] == speed
            assert seen["texts"]["b.check"].replace(NBSP, " ") == check
        seen = tab.evaluate(GO, "#speed=5.000")  # reads two ways: refused, the content's dial
        assert seen["texts"]["dial.speed"] == "1.000.000 Tokens/s"
