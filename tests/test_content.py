"""Bad content files: every problem located as `file:line:col: key.path: message`, exit 2,
no traceback, nothing written. Each bad file is the default content with one small edit, and
the expected place is computed from the text written, so an edit to the default content does
not break these tests. The commands run in this process (deckgen.cli.run); the bad-input corpus
proves that a real `deckgen` process answers the same."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, run_in

from deckgen import quantities, source
from deckgen.errors import InputError

SPEED = quantities.SPEED_RULE
DURATION = quantities.DURATION_RULE
COUNT = "must be a whole number from 1 to 1,000,000,000"
IDS = "endings, apps, candidates, rehearsals"


def edit(text: str, old: str, new: str) -> str:
    """`text` with the one occurrence of `old` replaced by `new`."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in the default content"
    return text.replace(old, new)


def place(text: str, needle: str, at: str = "", nth: int = 1) -> tuple[int, int]:
    """Line and column (both from 1) of `at` inside the `nth` occurrence of `needle`."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    index += needle.index(at) if at else 0
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


@dataclass(frozen=True)
class Case:
    id: str
    old: str  # a unique piece of the default content
    new: str  # what replaces it
    needle: str  # a piece of the new text that holds the problem's place
    at: str  # the place inside `needle` ("" for its start)
    path: str  # the key path the message names ("" for none)
    message: str  # how the message starts
    nth: int = 1  # which occurrence of `needle` holds the place


CASES = [
    # Speeds that are not positive finite numbers.
    Case("speed-word", "\n  speed: 1M\n", "\n  speed: fast\n", "  speed: fast", "fast",
         "dial.speed", f"{SPEED}, got 'fast'"),
    Case("speed-zero", "\n  speed: 1M\n", "\n  speed: 0\n", "  speed: 0", "0", "dial.speed",
         f"{SPEED}, got 0"),
    Case("speed-negative", "\n  speed: 1M\n", "\n  speed: -1\n", "  speed: -1", "-1", "dial.speed",
         f"{SPEED}, got -1"),
    Case("speed-nan", "\n  speed: 1M\n", "\n  speed: .nan\n", "  speed: .nan", ".nan", "dial.speed",
         f"{SPEED}, got nan"),
    Case("speed-inf", "\n  speed: 1M\n", "\n  speed: .inf\n", "  speed: .inf", ".inf", "dial.speed",
         f"{SPEED}, got inf"),
    Case("slow-speed-list", "slow_speed: 100", "slow_speed: [100]", "slow_speed: [100]", "[",
         "dial.slow_speed", f"{SPEED}, got a list"),
    Case("speed-mark", "speed_marks: [100, 1K,", "speed_marks: [100, 1Q,", "1Q", "",
         "dial.speed_marks[1]", f"{SPEED}, got '1Q'"),
    # A speed below the slow speed is no longer refused: it is a slowdown ("0.37×"), see
    # test_a_speed_below_the_slow_speed_is_a_slowdown in tests/test_cli.py.
    Case("marks-not-rising", "speed_marks: [100, 1K, 10K, 100K, 1M]",
         "speed_marks: [1M, 100K, 10K, 1K, 100]", "speed_marks: [1M", "[", "dial.speed_marks",
         "must be distinct speeds in rising order"),
    # Durations that do not parse.
    Case("check-word", "fixed_check: 60 s", "fixed_check: soon", "fixed_check: soon", "soon",
         "dial.fixed_check", f"{DURATION}, got 'soon'"),
    Case("check-negative", "fixed_check: 60 s", "fixed_check: -60", "fixed_check: -60", "-60",
         "dial.fixed_check", f"{DURATION}, got -60"),
    Case("check-bool", "fixed_check: 60 s", "fixed_check: yes", "fixed_check: yes", "yes",
         "dial.fixed_check", f"{DURATION}, got true"),
    Case("preset-unit", "check_presets: [none, 60 s, 15 min, 24 h]",
         "check_presets: [none, 60 s, 15 fortnights, 24 h]", "15 fortnights", "",
         "dial.check_presets[2]", f"{DURATION}, got '15 fortnights'"),
    # Counts below 1, and other counts that are not whole numbers.
    Case("count-zero", "    count: 1000\n", "    count: 0\n", "    count: 0", "0",
         "workloads[0].count", f"{COUNT}, got 0"),
    Case("count-fraction", "    count: 40\n", "    count: 2.5\n", "    count: 2.5", "2.5",
         "workloads[1].count", f"{COUNT}, got 2.5"),
    Case("tokens-each-word", "    tokens_each: 300\n", "    tokens_each: lots\n",
         "    tokens_each: lots", "lots", "workloads[2].tokens_each", f"{COUNT}, got 'lots'"),
    Case("streams-zero", "    streams: 10000\n", "    streams: 0\n", "    streams: 0", "0",
         "meanings[2].streams", f"{COUNT}, got 0"),
    # Unknown workload ids.
    Case("dial-workload", "  workload: endings\n", "  workload: sonnets\n", "  workload: sonnets",
         "sonnets", "dial.workload", f"must be one of the workload ids {IDS}, got 'sonnets'"),
    Case("bottleneck-workload", "  workload: apps\n", "  workload: appz\n", "  workload: appz",
         "appz", "bottleneck.workload", f"must be one of the workload ids {IDS}, got 'appz'"),
    Case("workload-id-shape", "  - id: rehearsals\n", "  - id: Rehearsals!\n",
         "  - id: Rehearsals!", "Rehearsals!", "workloads[3].id",
         "must be a short name of lower-case letters, digits, - or _, got 'Rehearsals!'"),
    # Duplicate keys, at several depths.
    Case("duplicate-top", "\ntheme:\n", "\nslides: {}\ntheme:\n", "\nslides: {}", "slides",
         "slides", "duplicate key 'slides' (first at line "),
    Case("duplicate-dial", "\n  speed: 1M\n", "\n  speed: 1M\n  speed: 10K\n", "  speed: 10K",
         "speed", "dial.speed", "duplicate key 'speed' (first at line "),
    Case("duplicate-workload", "    count: 40\n", "    count: 40\n    count: 41\n", "    count: 41",
         "count", "workloads[1].count", "duplicate key 'count' (first at line "),
    Case("duplicate-deep", "    accent: \"#7A2800\"\n",
         "    accent: \"#7A2800\"\n    accent: \"#000000\"\n", "    accent: \"#000000\"", "accent",
         "theme.colours.accent", "duplicate key 'accent' (first at line "),
    # Unknown keys, with a suggestion.
    Case("unknown-dial-key", "  fixed_check: 60 s\n", "  fixed_chek: 60 s\n", "  fixed_chek",
         "fixed", "dial.fixed_chek",
         "unknown key 'fixed_chek'; did you mean 'fixed_check'? allowed: speed, "),
    Case("unknown-top-key", "\ntheme:\n", "\nthem:\n", "\nthem:", "them", "them",
         "unknown key 'them'; did you mean 'theme'? allowed: meta, "),
    Case("unknown-workload-key", "    noun: app drafts\n",
         "    noun: app drafts\n    titel: Apps\n", "    titel", "titel", "workloads[1].titel",
         "unknown key 'titel'; did you mean 'title'? "),
    # Wrong types.
    Case("title-list", "  title: A million tokens a second\n", "  title: [A, million]\n",
         "  title: [A", "[", "meta.title", "must be text, got a list"),
    Case("presets-not-a-list", "check_presets: [none, 60 s, 15 min, 24 h]", "check_presets: 60 s",
         "check_presets: 60 s", "60 s", "dial.check_presets",
         "must be a list of 1 to 6 entries, got '60 s'"),
    Case("label-mapping", "    label: Context capacity\n", "    label: {short: Capacity}\n",
         "    label: {short", "{", "meanings[0].label", "must be text, got a mapping"),
    Case("ours-word", "    ours: true\n", "    ours: certainly\n", "    ours: certainly",
         "certainly", "meanings[3].ours", "must be true or false, got 'certainly'"),
    Case("paper-size", "  paper: a4\n", "  paper: a3\n", "  paper: a3", "a3", "meta.paper",
         "must be one of a4, letter, got 'a3'"),
    Case("colour", "    accent: \"#7A2800\"\n", "    accent: orange\n", "    accent: orange",
         "orange", "theme.colours.accent", "must be a colour like '#1A1D21', got 'orange'"),
    Case("url", "  url: https://echohive.ai\n", "  url: echohive.ai\n", "  url: echohive.ai",
         "echohive", "meta.url", "must be a web address starting with https:// or http://"),
    # Missing required fields: reported at the mapping that lacks them.
    Case("missing-presenter", "  presenter: Your name here\n", "", "\nmeta:", "meta",
         "meta.presenter", "required field is missing"),
    Case("missing-scarce",
         "    scarce: \"A clear spec, and tests that say what working means.\"\n", "",
         "  - id: apps", "id", "workloads[1].scarce", "required field is missing"),
    Case("missing-headline", "    headline: The same batch under each fixed check\n", "",
         "  presets:\n", "presets", "slides.presets.headline", "required field is missing"),
    # Python object tags are never constructed.
    Case("python-tag", "  title: A million tokens a second\n",
         "  title: !!python/object/apply:os.system [\"echo hacked\"]\n", "  title: !!python", "!!",
         "meta.title", "tag !!python/object/apply:os.system is not allowed"),
]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "content.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _assert_refused(path: Path, tmp_path: Path, every_command: bool = True) -> list[str]:
    """Run check, table and build (or check alone) on `path`: exit 2, the same lines, no
    traceback, no file."""
    out = tmp_path / "out"
    runs = [run_in("check", str(path), cwd=tmp_path)]
    if every_command:
        runs += [run_in("table", str(path), cwd=tmp_path),
                 run_in("build", str(path), "--out", str(out), cwd=tmp_path)]
    for run in runs:
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr
        assert run.stdout == ""
        assert run.stderr == runs[0].stderr
    # Nothing written: the folder holds the content file alone, no output folder, no temp file.
    assert list(tmp_path.iterdir()) == [path]
    return runs[0].stderr.splitlines()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_content(case: Case, default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, case.old, case.new)
    path = _write(tmp_path, text)
    line, col = place(text, case.needle, case.at, case.nth)
    key = f"{case.path}: " if case.path else ""
    lines = _assert_refused(path, tmp_path, every_command=False)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{line}:{col}: {key}{case.message}"), lines[0]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table_and_build_refuse_bad_content_as_check_does(case: Case, default_text: str,
                                                          tmp_path: Path) -> None:
    """Each case's file, given to table and to build: the same exit and lines as check, and
    nothing written (slow: three commands a case; test_bad_content runs check alone)."""
    _assert_refused(_write(tmp_path, edit(default_text, case.old, case.new)), tmp_path)


def test_duplicate_names_the_first_line(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "\n  speed: 1M\n", "\n  speed: 1M\n  speed: 10K\n")
    path = _write(tmp_path, text)
    first, _ = place(text, "\n  speed: 1M", "speed")
    second, _ = place(text, "  speed: 10K")
    err = run_in("check", str(path)).stderr
    assert err == f"{path}:{second}:3: dial.speed: duplicate key 'speed' (first at line {first})\n"


def test_unknown_placeholder(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "{bottleneck.ceiling} faster end to end",
                "{dial.ceiling} faster end to end")
    path = _write(tmp_path, text)
    line, col = place(text, "  ceiling: >-", ">")
    lines = _assert_refused(path, tmp_path)
    assert lines == [f"{path}:{line}:{col}: bottleneck.ceiling: placeholder {{dial.ceiling}} "
                     "names no computed figure; did you mean {bottleneck.ceiling}? "
                     "(`deckgen check --figures` lists them)"]


def test_unknown_placeholder_without_a_near_name(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "not a measurement of any model. The times count",
                "not a measurement of any model, {dial.writing_tme}. The times count")
    path = _write(tmp_path, text)
    line, col = place(text, "  dial:\n    kicker: Try it / The imagined dial\n"
                            "    headline: Turn the dial\n    notes: >-", ">-")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1
    assert lines[0].startswith(f"{path}:{line}:{col}: slides.dial.notes: "
                               "placeholder {dial.writing_tme} names no computed figure")


def test_empty_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1 and lines[0].startswith(f"{path}:1:1: file is empty")


def test_comments_only_is_empty(tmp_path: Path) -> None:
    path = _write(tmp_path, "# nothing here yet\n")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1 and lines[0].startswith(f"{path}:1:1: file is empty")


def test_yaml_syntax_error(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "  title: A million tokens a second\n",
                "  title: A million: tokens\n")
    path = _write(tmp_path, text)
    line, col = place(text, "  title: A million: tokens", ": tokens")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{line}:{col}: YAML syntax error: "), lines


def test_unclosed_quote(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, '    rule: "#9AA3AD"', '    rule: "#9AA3AD')
    path = _write(tmp_path, text)
    line, col = place(text, '    rule: "#9AA3AD', '"')
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{line}:{col}: YAML syntax error: "), lines


def test_two_documents(default_text: str, tmp_path: Path) -> None:
    path = _write(tmp_path, default_text + "---\nmeta: {}\n")
    line = default_text.count("\n") + 1
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1 and lines[0].startswith(f"{path}:{line}:1: YAML syntax error: "), lines


def test_not_utf8(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "  presenter: Your name here\n", "  presenter: Jos\u00e9\n")
    path = tmp_path / "content.yaml"
    path.write_bytes(text.encode("latin-1"))
    line, col = place(text, "Jos\u00e9", "\u00e9")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{line}:{col}: file is not UTF-8 text"), lines


def test_top_level_not_a_mapping(tmp_path: Path) -> None:
    path = _write(tmp_path, "- just\n- a list\n")
    lines = _assert_refused(path, tmp_path)
    assert len(lines) == 1 and lines[0].startswith(f"{path}:1:1: "), lines
    assert "must be a mapping" in lines[0] and lines[0].endswith("got a list")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    run = run_in("check", str(path))
    assert run.returncode == 2
    assert run.stderr == f"{path}: no such content file\n"


def test_folder_is_not_a_file(tmp_path: Path) -> None:
    run = run_in("check", str(tmp_path))
    assert run.returncode == 2
    assert run.stderr == f"{tmp_path}: is a folder, not a content file\n"


def test_every_problem_at_once(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "\n  speed: 1M\n", "\n  speed: fast\n")
    text = edit(text, "    count: 40\n", "    count: 0\n")
    text = edit(text, "  - name: Taste\n", "  - nam: Taste\n")
    path = _write(tmp_path, text)
    lines = _assert_refused(path, tmp_path)
    speed, count, name = (place(text, "  speed: fast", "fast"), place(text, "    count: 0", "0"),
                          place(text, "  - nam: Taste", "nam"))
    expected = [
        f"{path}:{speed[0]}:{speed[1]}: dial.speed: {SPEED}, got 'fast'",
        f"{path}:{count[0]}:{count[1]}: workloads[1].count: {COUNT}, got 0",
        f"{path}:{name[0]}:{name[1]}: precious[0].nam: unknown key 'nam'; did you mean 'name'?",
    ]
    assert len(lines) >= 3
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines)
    # The missing 'name' that the misspelling causes may be its own line; nothing else is.
    assert all(line.startswith(f"{path}:") for line in lines)
    assert len(lines) <= 4


def test_three_problems_three_lines(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "\n  speed: 1M\n", "\n  speed: fast\n")
    text = edit(text, "fixed_check: 60 s", "fixed_check: soon")
    text = edit(text, "  paper: a4\n", "  paper: a3\n")
    path = _write(tmp_path, text)
    lines = _assert_refused(path, tmp_path)
    paper, speed, check = (place(text, "  paper: a3", "a3"), place(text, "  speed: fast", "fast"),
                           place(text, "fixed_check: soon", "soon"))
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"{path}:{paper[0]}:{paper[1]}", "meta.paper"],
        [f"{path}:{speed[0]}:{speed[1]}", "dial.speed"],
        [f"{path}:{check[0]}:{check[1]}", "dial.fixed_check"],
    ]


def test_typed_number_is_a_warning(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "Past a point, more speed buys almost nothing.",
                "Past a point, more speed buys almost nothing: 132.57 times at best here.")
    text = edit(text, "  presenter: Your name here\n", "  presenter: Ada Lovelace\n")
    path = _write(tmp_path, text)
    line, col = place(text, "  ceiling:\n    kicker: 03 / The serial bottleneck\n"
                            "    headline: Every fixed check sets a ceiling\n    notes: >-", ">-")
    run = run_in("check", str(path))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        f"{path}:{line}:{col}: slides.ceiling.notes: warning: the number 132.57 is typed by "
        "hand but the math computes it; use a {placeholder} so it follows the dial"]
    assert run.stdout == f"{path}: ok (4 workloads, 1 warning)\n"
    table = run_in("table", str(path))
    assert table.returncode == 0 and table.stderr == run.stderr


def test_default_content_is_clean() -> None:
    content, warnings = source.read(DEFAULT_CONTENT)
    assert warnings == []
    assert [w.id for w in content.workloads] == ["endings", "apps", "candidates", "rehearsals"]
    assert content.dial.speed == 1_000_000 and content.dial.slow_speed == 100
    assert content.dial.fixed_check == 60 and content.dial.workload == "endings"
    assert content.dial.check_presets == (0, 60, 900, 86400)
    assert content.dial.speed_marks == (100, 1000, 10_000, 100_000, 1_000_000)
    assert content.bottleneck.workload == "apps"


def test_dial_defaults(default_text: str) -> None:
    """Without a dial section the explainer's own dial applies."""
    start = default_text.index("\ndial:\n")
    end = default_text.index("\nmeanings:\n")
    content, _ = source.parse(default_text[:start] + default_text[end:], "content.yaml")
    assert content.dial.speed == 1_000_000 and content.dial.slow_speed == 100
    assert content.dial.fixed_check == 60 and content.dial.workload == "endings"
    assert content.dial.check_presets == (0, 60, 900, 86400)


@pytest.mark.parametrize(("speed", "value"), [
    ("100", 100), ("1K", 1000), ("10K", 10_000), ("1M", 1_000_000), ("1e6", 1_000_000),
    ("1.0e+6", 1_000_000), ("'1,000,000'", 1_000_000), ("1000000", 1_000_000),
])
def test_speeds_in_the_file(speed: str, value: int, default_text: str) -> None:
    text = edit(default_text, "\n  speed: 1M\n", f"\n  speed: {speed}\n")
    content, _ = source.parse(text, "c.yaml")
    assert content.dial.speed == value


@pytest.mark.parametrize(("check", "value"), [
    ("0", 0), ("none", 0), ("null", 0), ("60", 60), ("60 s", 60), ("15 min", 900), ("1 h", 3600),
    ("24 h", 86400), ("1 day", 86400),
])
def test_checks_in_the_file(check: str, value: int, default_text: str) -> None:
    text = edit(default_text, "fixed_check: 60 s", f"fixed_check: {check}")
    content, _ = source.parse(text, "c.yaml")
    assert content.dial.fixed_check == value


def test_in_process_errors_carry_places(default_text: str) -> None:
    text = edit(default_text, "\n  speed: 1M\n", "\n  speed: fast\n")
    with pytest.raises(InputError) as err:
        source.parse(text, "mine.yaml")
    (problem,) = err.value.problems
    assert (problem.file, problem.path) == ("mine.yaml", "dial.speed")
    assert (problem.line, problem.col) == place(text, "  speed: fast", "fast")


def test_duplicate_key_does_not_hide_other_problems(default_text: str, tmp_path: Path) -> None:
    text = edit(default_text, "\n  speed: 1M\n", "\n  speed: 1M\n  speed: 10K\n")
    text = edit(text, "fixed_check: 60 s", "fixed_check: soon")
    path = _write(tmp_path, text)
    lines = _assert_refused(path, tmp_path)
    second, _ = place(text, "  speed: 10K")
    check = place(text, "fixed_check: soon", "soon")
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"{path}:{second}:3", "dial.speed"],
        [f"{path}:{check[0]}:{check[1]}", "dial.fixed_check"],
    ]

