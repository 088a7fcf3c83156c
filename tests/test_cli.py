"""The command line as a user runs it: version, help, `table` (text and JSON), `check`, the
default content file, and option overrides computed by hand. Most commands run in this process
(deckgen.cli.run); the version, the help listing, an exit status, the bundled default and the
--debug traceback are checked in real processes too."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import DEFAULT_CONTENT, run_cli, run_in

from deckgen import __version__

X = "\u00d7"


def _commands() -> list[str]:
    run = run_in("--help")
    assert run.returncode == 0, run.stderr
    listing = run.stdout.split("Commands:", 1)[1]
    return re.findall(r"^  (\w[\w-]*)\s", listing, flags=re.MULTILINE)


def _cells(text: str, first: str) -> list[str]:
    """The cells of the row whose first cell is `first` (cells are 2 or more spaces apart)."""
    for line in text.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in:\n{text}")


def test_version() -> None:
    run = run_cli("--version")
    assert run.returncode == 0
    assert run.stdout == f"deckgen {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_help_lists_the_commands() -> None:
    commands = _commands()
    assert {"table", "check", "build"} <= set(commands)
    process = run_cli("--help")
    assert process.returncode == 0 and process.stderr == ""
    assert process.stdout.split("Commands:", 1)[1] == run_in("--help").stdout.split(
        "Commands:", 1)[1]


@pytest.mark.parametrize("command", ["table", "check", "build", "layouts"])
def test_help_on_each_command(command: str) -> None:
    assert command in _commands()
    run = run_in(command, "--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Usage: ")
    assert f" {command} " in run.stdout.splitlines()[0]
    assert "--help" in run.stdout


def test_help_on_every_listed_command() -> None:
    """Commands added later get their --help checked too."""
    for command in _commands():
        run = run_in(command, "--help")
        assert run.returncode == 0, (command, run.stderr)
        assert run.stdout.startswith("Usage: ") and "Traceback" not in run.stderr


def test_table_options_are_documented() -> None:
    text = run_in("table", "--help").stdout
    for option in ("--speed", "--check", "--workload", "--json"):
        assert option in text


def test_table_default() -> None:
    run = run_in("table", str(DEFAULT_CONTENT))
    assert run.returncode == 0, run.stderr
    assert run.stderr == f"{DEFAULT_CONTENT}:10:14: {STARTER}\n"  # as `check` warns
    out = run.stdout
    assert "100 tokens/sec" in out and "1,000,000 tokens/sec" in out
    # All four workloads at both ends of the dial.
    assert _cells(out, f"1,000 story endings {X} 1,000") == [
        f"1,000 story endings {X} 1,000", "1,000,000", "2 h 46 min 40 s", "1 second"]
    assert _cells(out, f"40 app drafts {X} 20,000") == [
        f"40 app drafts {X} 20,000", "800,000", "2 h 13 min 20 s", "0.8 seconds"]
    assert _cells(out, f"10,000 critiqued candidates {X} 300") == [
        f"10,000 critiqued candidates {X} 300", "3,000,000", "8 h 20 min", "3 seconds"]
    assert _cells(out, f"10,000 rehearsals {X} 1,000") == [
        f"10,000 rehearsals {X} 1,000", "10,000,000", "27 h 46 min 40 s", "10 seconds"]
    # The 800,000-token batch with each preset check.
    assert _cells(out, "None")[:4] == ["None", "2 h 13 min 20 s", "0.8 seconds", f"10,000{X}"]
    assert _cells(out, "60 seconds") == ["60 seconds", "2 h 14 min 20 s", "60.8 seconds",
                                         f"132.57{X}", f"134.33{X}"]
    assert _cells(out, "15 min") == ["15 min", "2 h 28 min 20 s", "15 min 1 s", f"9.88{X}",
                                     f"9.89{X}"]
    assert _cells(out, "24 h") == ["24 h", "26 h 13 min 20 s", "24 h 1 s", f"1.09{X}", f"1.09{X}"]
    # The chosen dial's summary.
    assert _cells(out, "Writing speedup") == ["Writing speedup", f"10,000{X}"]
    assert _cells(out, "End-to-end speedup") == ["End-to-end speedup", f"132.57{X}"]
    assert _cells(out, "Ceiling") == ["Ceiling", f"134.33{X}"]
    writing, check = _cells(out, "Writing share")[1], _cells(out, "Check share")[1]
    assert "99.3% at 100 tokens/sec, 1.3% at 1,000,000 tokens/sec" in writing
    assert "0.7% at 100 tokens/sec, 98.7% at 1,000,000 tokens/sec" in check
    assert ("2 h 14 min 20 s at 100 tokens/sec, 60.8 seconds at 1,000,000 tokens/sec"
            in _cells(out, "Total")[1])
    assert "e+" not in out and "Fraction" not in out


def _json(*args: str) -> dict[str, Any]:
    run = run_in("table", *args, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def _pair(value: str | None, text: str) -> dict[str, str | None]:
    return {"value": value, "text": text}


def test_table_json_default() -> None:
    data = _json(str(DEFAULT_CONTENT))
    assert data["dial"] == {
        "speed": _pair("1000000", "1,000,000 tokens/sec"),
        "slow_speed": _pair("100", "100 tokens/sec"),
        "workload": "endings",
        "fixed_check": _pair("60", "60 seconds"),
    }
    rows = {r["id"]: r for r in data["workloads"]}
    assert list(rows) == ["endings", "apps", "candidates", "rehearsals"]
    assert rows["endings"] == {
        "id": "endings", "label": f"1,000 story endings {X} 1,000",
        "output_tokens": _pair("1000000", "1,000,000"),
        "slow_writing_time": _pair("10000", "2 h 46 min 40 s"),
        "writing_time": _pair("1", "1 second")}
    assert rows["apps"]["output_tokens"] == _pair("800000", "800,000")
    assert rows["apps"]["slow_writing_time"] == _pair("8000", "2 h 13 min 20 s")
    assert rows["apps"]["writing_time"] == _pair("4/5", "0.8 seconds")
    assert rows["candidates"]["output_tokens"] == _pair("3000000", "3,000,000")
    assert rows["candidates"]["slow_writing_time"] == _pair("30000", "8 h 20 min")
    assert rows["candidates"]["writing_time"] == _pair("3", "3 seconds")
    assert rows["rehearsals"]["output_tokens"] == _pair("10000000", "10,000,000")
    assert rows["rehearsals"]["slow_writing_time"] == _pair("100000", "27 h 46 min 40 s")
    assert rows["rehearsals"]["writing_time"] == _pair("10", "10 seconds")

    assert data["presets"] == [
        {"fixed_check": _pair("0", "None"), "slow_total": _pair("8000", "2 h 13 min 20 s"),
         "total": _pair("4/5", "0.8 seconds"), "end_to_end_speedup": _pair("10000", f"10,000{X}"),
         "ceiling": _pair(None, "none")},
        {"fixed_check": _pair("60", "60 seconds"), "slow_total": _pair("8060", "2 h 14 min 20 s"),
         "total": _pair("304/5", "60.8 seconds"),
         "end_to_end_speedup": _pair("10075/76", f"132.57{X}"),
         "ceiling": _pair("403/3", f"134.33{X}")},
        {"fixed_check": _pair("900", "15 min"), "slow_total": _pair("8900", "2 h 28 min 20 s"),
         "total": _pair("4504/5", "15 min 1 s"),
         "end_to_end_speedup": _pair("11125/1126", f"9.88{X}"),
         "ceiling": _pair("89/9", f"9.89{X}")},
        {"fixed_check": _pair("86400", "24 h"), "slow_total": _pair("94400", "26 h 13 min 20 s"),
         "total": _pair("432004/5", "24 h 1 s"),
         "end_to_end_speedup": _pair("118000/108001", f"1.09{X}"),
         "ceiling": _pair("59/54", f"1.09{X}")},
    ]
    s = data["summary"]
    assert s["dial.speed"] == _pair("1000000", "1,000,000 tokens/sec")
    assert s["dial.slow_speed"] == _pair("100", "100 tokens/sec")
    assert s["bottleneck.fixed_check"] == _pair("60", "60 seconds")
    assert s["bottleneck.output_tokens"] == _pair("800000", "800,000")
    assert s["bottleneck.slow_total"] == _pair("8060", "2 h 14 min 20 s")
    assert s["bottleneck.total"] == _pair("304/5", "60.8 seconds")
    assert s["bottleneck.writing_speedup"] == _pair("10000", f"10,000{X}")
    assert s["bottleneck.end_to_end_speedup"] == _pair("10075/76", f"132.57{X}")
    assert s["bottleneck.slow_writing_share"] == _pair("400/403", "99.3%")
    assert s["bottleneck.slow_check_share"] == _pair("3/403", "0.7%")
    assert s["bottleneck.writing_share"] == _pair("1/76", "1.3%")
    assert s["bottleneck.check_share"] == _pair("75/76", "98.7%")
    assert s["bottleneck.ceiling"] == _pair("403/3", f"134.33{X}")


def test_json_values_match_their_texts() -> None:
    """Every figure's exact value is a plain integer or fraction, and its text agrees with it."""
    from fractions import Fraction

    from deckgen import fmt

    data = _json(str(DEFAULT_CONTENT))
    assert data["figures"], "no figures"
    for name, figure in data["figures"].items():
        assert set(figure) == {"value", "text"}, name
        assert isinstance(figure["text"], str) and figure["text"], name
        if figure["value"] is None:
            continue
        assert re.fullmatch(r"-?\d+(/\d+)?", figure["value"]), (name, figure)
        value = Fraction(figure["value"])
        if name == "aggregate.total":
            assert figure["text"] == fmt.speed(value), name
        elif name.endswith(("_speedup", "ceiling")):
            assert figure["text"] == fmt.speedup(value), name
        elif name.endswith("share"):
            assert figure["text"] == fmt.share(value), name
        elif name.endswith(("_time", "total", "fixed_check")):
            assert figure["text"] == fmt.duration(value), name
        elif name.endswith("speed"):
            assert figure["text"] == fmt.speed(value), name
        elif name.endswith(("tokens", "tokens_each", "count", "streams")):
            assert figure["text"] == fmt.tokens(int(value)), name
    f = data["figures"]
    assert f["aggregate.total"] == _pair("1000000", "1,000,000 tokens/sec")
    assert f["aggregate.streams"] == _pair("10000", "10,000")
    assert f["aggregate.stream_speed"] == _pair("100", "100 tokens/sec")
    assert f["dial.writing_time"] == _pair("1", "1 second")
    assert f["dial.slow_writing_time"] == _pair("10000", "2 h 46 min 40 s")
    assert f["dial.speed_mark"]["text"] == "1M"


def test_table_overrides() -> None:
    """2,500 tokens/sec, a 15 min check, featuring the critiqued candidates, all by hand:
    candidates: 3,000,000 tokens / 2,500 = 1,200 s = 20 min (8 h 20 min at 100);
    app drafts: 800,000 / 2,500 = 320 s, + 900 s = 1,220 s = 20 min 20 s;
    slow 8,000 + 900 = 8,900 s;
    end to end 8,900 / 1,220 = 7.295... = 7.30x; writing 25x;
    ceiling 8,900 / 900 = 9.888... = 9.89x;
    shares at 2,500: 320 / 1,220 = 26.2%, 900 / 1,220 = 73.8%;
    at 100: 8,000 / 8,900 = 89.9%, 900 / 8,900 = 10.1%."""
    args = (str(DEFAULT_CONTENT), "--speed", "2500", "--check", "15 min",
            "--workload", "candidates")
    data = _json(*args)
    assert data["dial"] == {"speed": _pair("2500", "2,500 tokens/sec"),
                            "slow_speed": _pair("100", "100 tokens/sec"), "workload": "candidates",
                            "fixed_check": _pair("900", "15 min")}
    rows = {r["id"]: r for r in data["workloads"]}
    assert rows["candidates"]["writing_time"] == _pair("1200", "20 min")
    assert rows["candidates"]["slow_writing_time"] == _pair("30000", "8 h 20 min")
    assert rows["endings"]["writing_time"] == _pair("400", "6 min 40 s")
    s = data["summary"]
    assert s["bottleneck.total"] == _pair("1220", "20 min 20 s")
    assert s["bottleneck.slow_total"] == _pair("8900", "2 h 28 min 20 s")
    assert s["bottleneck.end_to_end_speedup"] == _pair("445/61", f"7.30{X}")
    assert s["bottleneck.writing_speedup"] == _pair("25", f"25{X}")
    assert s["bottleneck.ceiling"] == _pair("89/9", f"9.89{X}")
    assert s["bottleneck.writing_share"] == _pair("16/61", "26.2%")
    assert s["bottleneck.check_share"] == _pair("45/61", "73.8%")
    assert s["bottleneck.slow_writing_share"] == _pair("80/89", "89.9%")
    assert s["bottleneck.slow_check_share"] == _pair("9/89", "10.1%")
    assert data["figures"]["dial.writing_time"] == _pair("1200", "20 min")
    title = "A handful of real experiments from 10,000 ideas"
    assert data["figures"]["dial.title"]["text"] == title

    text = run_in("table", *args)
    assert text.returncode == 0, text.stderr
    assert "featured: 10,000 critiqued candidates; fixed check: 15 min" in text.stdout
    assert _cells(text.stdout, "End-to-end speedup") == ["End-to-end speedup", f"7.30{X}"]
    assert _cells(text.stdout, "15 min") == ["15 min", "2 h 28 min 20 s", "20 min 20 s", f"7.30{X}",
                                             f"9.89{X}"]


@pytest.mark.parametrize(("option", "value", "exact", "end_to_end"), [
    ("--speed", "1M", "1000000", f"132.57{X}"),
    ("--speed", "1e6", "1000000", f"132.57{X}"),
    ("--speed", "1,000,000", "1000000", f"132.57{X}"),
    # 800,000 / 10,000 = 80 s of writing, + 60 s = 140 s; 8,060 / 140 = 57.571... = 57.57x
    ("--speed", "10K", "10000", f"57.57{X}"),
    ("--check", "0", "0", f"10,000{X}"),
    ("--check", "none", "0", f"10,000{X}"),
    ("--check", "24 h", "86400", f"1.09{X}"),
    ("--check", "1 day", "86400", f"1.09{X}"),
])
def test_single_overrides(option: str, value: str, exact: str, end_to_end: str) -> None:
    data = _json(str(DEFAULT_CONTENT), option, value)
    key = "speed" if option == "--speed" else "fixed_check"
    assert data["dial"][key]["value"] == exact
    assert data["summary"]["bottleneck.end_to_end_speedup"]["text"] == end_to_end


def test_no_check_has_no_ceiling() -> None:
    data = _json(str(DEFAULT_CONTENT), "--check", "0")
    assert data["summary"]["bottleneck.ceiling"] == _pair(None, "no ceiling")
    assert data["summary"]["bottleneck.check_share"] == _pair("0", "0.0%")
    assert data["summary"]["bottleneck.writing_share"] == _pair("1", "100.0%")


@pytest.mark.parametrize(("args", "stderr"), [
    (("--speed", "fast"), "--speed: must be a positive number of tokens per second"),
    (("--speed", "0"), "--speed: must be a positive number of tokens per second"),
    (("--check", "soon"), "--check: must be a duration"),
    (("--check", "-1 h"), "--check: must be a duration"),
    (("--workload", "sonnets"),
     "--workload: must be one of the workload ids endings, apps, candidates, rehearsals, "
     "got 'sonnets'"),
])
def test_bad_options(args: tuple[str, ...], stderr: str) -> None:
    for command in ("table", "build"):
        run = run_in(command, str(DEFAULT_CONTENT), *args, "--out", "/nonexistent/never") \
            if command == "build" else run_in(command, str(DEFAULT_CONTENT), *args)
        assert run.returncode == 2, run.stderr
        assert run.stderr.startswith(stderr), run.stderr
        assert len(run.stderr.splitlines()) == 1
        assert run.stdout == "" and "Traceback" not in run.stderr


def test_bad_options_all_at_once() -> None:
    run = run_in("table", str(DEFAULT_CONTENT), "--speed", "fast", "--check", "soon",
                  "--workload", "sonnets")
    assert run.returncode == 2
    options = [line.split(":")[0] for line in run.stderr.splitlines()]
    assert options == ["--speed", "--check", "--workload"]


STARTER = "meta.presenter: warning: still the starter text 'Your name here'; " \
          "put the presenter's name here"


def test_check_clean() -> None:
    """The bundled talk is valid; check reminds the presenter to put in their name."""
    run = run_in("check", str(DEFAULT_CONTENT))
    assert run.returncode == 0, run.stderr
    assert run.stderr == f"{DEFAULT_CONTENT}:10:14: {STARTER}\n"
    assert run.stdout == f"{DEFAULT_CONTENT}: ok (4 workloads, 1 warning)\n"


def test_check_is_quiet_once_the_presenter_is_named(default_text: str, tmp_path: Path) -> None:
    mine = tmp_path / "talk.yaml"
    mine.write_text(default_text.replace("  presenter: Your name here\n",
                                         "  presenter: Ada Lovelace\n"), encoding="utf-8")
    run = run_in("check", str(mine))
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == f"{mine}: ok (4 workloads, 0 warnings)\n"
    table = run_in("table", str(mine))  # every command warns as check does, or is quiet
    assert (table.returncode, table.stderr) == (0, "")


def test_check_lists_figures() -> None:
    run = run_in("check", str(DEFAULT_CONTENT), "--figures")
    assert run.returncode == 0, run.stderr
    assert "{bottleneck.end_to_end_speedup}  132.57\u00d7" in run.stdout
    assert "{dial.writing_time}  1 second" in run.stdout
    assert "{bottleneck.ceiling}  134.33\u00d7" in run.stdout


def test_check_bad_exits_2(default_text: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(default_text.replace("\n  speed: 1M\n", "\n  speed: fast\n"), encoding="utf-8")
    run = run_in("check", str(bad))
    assert run.returncode == 2
    assert run.stdout == ""
    line = default_text[:default_text.index("\n  speed: 1M\n")].count("\n") + 2
    assert run.stderr.startswith(f"{bad}:{line}:10: dial.speed: must be a positive number of "
                                 "tokens per second")


def test_default_content_from_an_empty_folder(tmp_path: Path) -> None:
    """No content.yaml here or above: deckgen falls back to the explainer it carries, and
    every command says so in one line."""
    from deckgen import starter

    carried = starter.bundled()  # the package's copy: this checkout's, or an installed one
    bundled = f"content: the bundled explainer ({carried}); no content.yaml in this " \
              "folder or above it; 'deckgen init' writes one to edit"
    here = run_in("table", cwd=tmp_path)
    assert here.returncode == 0, here.stderr
    assert here.stdout == run_in("table", str(DEFAULT_CONTENT)).stdout
    assert here.stderr.splitlines()[0] == bundled
    check = run_in("check", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert check.stdout.endswith(": ok (4 workloads, 1 warning)\n")  # the starter's name
    assert check.stderr == f"{bundled}\n{carried}:10:14: {STARTER}\n"
    assert list(tmp_path.iterdir()) == []


def test_local_content_wins(default_text: str, tmp_path: Path) -> None:
    """A ./content.yaml is used when no path is given, and named."""
    (tmp_path / "content.yaml").write_text(
        default_text.replace("\n  speed: 1M\n", "\n  speed: 10K\n"), encoding="utf-8")
    run = run_in("table", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["dial"]["speed"] == _pair("10000", "10,000 tokens/sec")
    check = run_in("check", cwd=tmp_path)
    assert check.stdout == "content.yaml: ok (4 workloads, 1 warning)\n"
    assert check.stderr == f"content: content.yaml\ncontent.yaml:10:14: {STARTER}\n"


def test_content_is_found_upward_up_to_the_repository_root(default_text: str,
                                                           tmp_path: Path) -> None:
    """From a subfolder of a talk, the talk's content.yaml is used (as git finds its root);
    the search stops at a folder holding .git, so a content.yaml above the repository is
    never taken."""
    talk = tmp_path / "talk"
    deep = talk / "notes" / "drafts"
    deep.mkdir(parents=True)
    (talk / "content.yaml").write_text(
        default_text.replace("\n  speed: 1M\n", "\n  speed: 10K\n"), encoding="utf-8")
    run = run_in("table", "--json", cwd=deep)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["dial"]["speed"] == _pair("10000", "10,000 tokens/sec")
    assert run.stderr.splitlines()[0] == \
        "content: ../../content.yaml (found above this folder)"
    check = run_in("check", cwd=deep)
    assert check.stdout == "../../content.yaml: ok (4 workloads, 1 warning)\n"

    (talk / "notes" / ".git").mkdir()  # a repository inside: its root ends the search
    inside = run_in("table", "--json", cwd=deep)
    assert json.loads(inside.stdout)["dial"]["speed"] == _pair("1000000",
                                                               "1,000,000 tokens/sec")
    assert inside.stderr.startswith("content: the bundled explainer (")


def test_local_content_errors_name_it(tmp_path: Path) -> None:
    (tmp_path / "content.yaml").write_text("meta: [\n", encoding="utf-8")
    run = run_in("check", cwd=tmp_path)
    assert run.returncode == 2
    first, second, *_ = run.stderr.splitlines()
    assert first == "content: content.yaml"
    assert second.startswith("content.yaml:")


def test_checkout_content_copied_elsewhere(tmp_path: Path) -> None:
    copy = tmp_path / "talk.yaml"
    shutil.copy(DEFAULT_CONTENT, copy)
    run = run_in("table", str(copy))
    assert run.stdout == run_in("table", str(DEFAULT_CONTENT)).stdout


def test_debug_shows_a_traceback_only_when_asked(default_text: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(default_text.replace("\n  speed: 1M\n", "\n  speed: fast\n"), encoding="utf-8")
    plain = run_in("check", str(bad))
    debug = run_in("--debug", "check", str(bad))
    assert "Traceback" not in plain.stderr
    assert debug.returncode == 2 and "Traceback" in debug.stderr
    assert debug.stderr.splitlines()[-1] == plain.stderr.splitlines()[-1]


def test_a_speed_below_the_slow_speed_is_a_slowdown() -> None:
    """37 tokens/sec against 100: the writing takes 100/37 as long, a speedup of 0.37×; with
    the 60 s check, (8,000 + 60) / (800,000 / 37 + 60) = 8,060 / 21,681.6 = 0.3717..."""
    run = run_in("table", str(DEFAULT_CONTENT), "--speed", "37", "--json")
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)["summary"]
    assert s["bottleneck.writing_speedup"] == _pair("37/100", "0.37×")
    assert s["bottleneck.end_to_end_speedup"]["text"] == "0.37×"


def test_table_shows_the_chosen_check_among_the_presets() -> None:
    """40K with a 1 h check, by hand for the 800,000 tokens of the app drafts: 20 s of writing
    + 3,600 s = 1 h 20 s; at 100 tokens/sec 8,000 + 3,600 = 11,600 s = 3 h 13 min 20 s; end to
    end 11,600 / 3,620 = 3.204... = 3.20x; ceiling 11,600 / 3,600 = 3.222... = 3.22x. The row
    sits between 15 min and 24 h."""
    run = run_in("table", str(DEFAULT_CONTENT), "--speed", "40K", "--check", "1 h")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    start = next(i for i, x in enumerate(lines) if x.endswith("with each fixed check")) + 3
    table = lines[start:lines.index("", start)]
    assert [x.split("  ")[0] for x in table] == ["None", "60 seconds", "15 min", "1 h", "24 h"]
    [line] = [x for x in run.stdout.splitlines() if x.startswith("1 h ")]
    assert line.split("  ")[0] == "1 h" and line.split()[-2:] == [f"3.20{X}", f"3.22{X}"]
    assert "3 h 13 min 20 s" in line and "1 h 20 s" in line


@pytest.mark.parametrize("name", ["table", "validate_content", "build", "preview", "sweep",
                                  "clean", "init", "layouts"])
def test_typer_hands_each_command_its_arguments_in_the_order_the_command_takes_them(
        name: str) -> None:
    """deckgen.app's commands pass their parameters on to deckgen.commands by position."""
    import inspect

    from deckgen import app, commands

    described = list(inspect.signature(getattr(app, name)).parameters)
    taken = list(inspect.signature(getattr(commands, name)).parameters)
    assert described == taken
    assert name in getattr(app, name).__code__.co_names  # it calls commands.<name>


# -- the conventions users bring from Marp, Quarto and pandoc ---------------------------------


def test_dash_h_is_help_everywhere() -> None:
    assert run_in("-h").stdout == run_in("--help").stdout
    for command in _commands():
        short, long = run_in(command, "-h"), run_in(command, "--help")
        assert (short.returncode, short.stdout) == (0, long.stdout), command
        assert "-h, --help" in short.stdout


def test_version_is_one_line_in_a_process() -> None:
    run = run_cli("--version")
    assert (run.returncode, run.stdout, run.stderr) == (0, f"deckgen {__version__}\n", "")


def test_shell_completion() -> None:
    """typer's own completion: the script to install, and the answers it asks deckgen for."""
    script = run_cli("--show-completion", "bash")
    assert script.returncode == 0, script.stderr
    assert "_DECKGEN_COMPLETE=complete_bash" in script.stdout
    assert "complete -o default -F _deckgen_completion deckgen" in script.stdout
    assert "--install-completion" in run_in("--help").stdout

    def complete(words: str, index: int) -> list[str]:
        run = run_cli(env={"_DECKGEN_COMPLETE": "complete_bash", "COMP_WORDS": words,
                           "COMP_CWORD": str(index)})
        assert run.returncode == 0, run.stderr
        return run.stdout.split()

    assert complete("deckgen pre", 1) == ["preview"]
    assert complete("deckgen build --on", 2) == ["--only"]


def test_dash_o_names_the_output_folder(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path / "site"), "--only", "html")
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"{tmp_path / 'site' / 'million-tokens-1M.html'}\n"
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == [
        ".deckgen", "million-tokens-1M.html"]
    assert [p.name for p in (tmp_path / "site" / ".deckgen").iterdir()] == ["manifest.json"]


@pytest.mark.parametrize("only", [("--only", "html,html"), ("--only", "html", "--only", "html"),
                                  ("--only", " html ")])
def test_only_takes_several_kinds_comma_separated_or_repeated(only: tuple[str, ...],
                                                              tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path), *only)
    assert run.returncode == 0, run.stderr
    assert [p.suffix for p in tmp_path.glob("million-tokens-*")] == [".html"]


@pytest.mark.parametrize("only", [("--only", "deck,pdf"), ("--only", "deck", "--only", "pdf"),
                                  ("--only", "deck,"), ("--only", "Deck")])
def test_an_unknown_kind_is_one_line_naming_the_allowed_ones(only: tuple[str, ...],
                                                             tmp_path: Path) -> None:
    from deckgen.build import KINDS

    run = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path / "out"), *only)
    assert run.returncode == 2
    wrong = only[-1].split(",")[-1]
    assert run.stderr == (f"--only: must be one or more of {', '.join(KINDS)} (several: "
                          f"--only deck,handout), got {wrong!r}\n")
    assert not (tmp_path / "out").exists()


def test_only_deck_and_handout_together(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path), "--only", "handout,deck")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [str(tmp_path / "million-tokens-1M.pptx"),
                                       str(tmp_path / "million-tokens-1M.pdf")]


def test_build_warns_as_check_does_and_strict_fails(tmp_path: Path) -> None:
    """The starter's presenter: `build` says it exactly as `check` does; with --strict the
    warning fails the command (exit 2) before anything is written."""
    check = run_in("check", str(DEFAULT_CONTENT))
    build = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path / "a"), "--only", "html")
    assert build.returncode == 0
    assert build.stderr == check.stderr == f"{DEFAULT_CONTENT}:10:14: {STARTER}\n"
    strict = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path / "b"), "--only", "html",
                    "--strict")
    assert strict.returncode == 2
    assert strict.stderr == (f"{DEFAULT_CONTENT}:10:14: {STARTER}\n"
                             "--strict: 1 warning, and --strict makes a warning fail\n")
    assert strict.stdout == "" and not (tmp_path / "b").exists()
    strict_check = run_in("check", str(DEFAULT_CONTENT), "--strict")
    assert strict_check.returncode == 2
    assert strict_check.stderr.splitlines()[-1] == \
        "--strict: 1 warning, and --strict makes a warning fail"


def test_strict_passes_clean_content(default_text: str, tmp_path: Path) -> None:
    mine = tmp_path / "talk.yaml"
    mine.write_text(default_text.replace("Your name here", "Ada Lovelace"), encoding="utf-8")
    assert run_in("check", str(mine), "--strict").returncode == 0
    run = run_in("build", str(mine), "-o", str(tmp_path / "out"), "--only", "html", "--strict")
    assert (run.returncode, run.stderr) == (0, "")


def test_building_the_bundled_talk_says_so(tmp_path: Path) -> None:
    run = run_in("build", "-o", "out", "--only", "html", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0].startswith("content: the bundled explainer (")
    assert (tmp_path / "out" / "million-tokens-1M.html").is_file()


# -- names --------------------------------------------------------------------------------


def _talk(default_text: str, folder: Path, title: str, slug: str | None = None) -> Path:
    text = default_text.replace("  title: A million tokens a second\n",
                                f"  title: {json.dumps(title)}\n")
    line = next(x for x in text.splitlines() if x.startswith("  slug: "))
    text = text.replace(line + "\n", f"  slug: {slug}\n" if slug is not None else "")
    path = folder / "content.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_title_names_the_outputs_ascii_folded(default_text: str, tmp_path: Path) -> None:
    _talk(default_text, tmp_path, "Café Ünïcode: 10× faster — really?")
    run = run_in("build", "--only", "html", "-o", "out", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "out/cafe-unicode-10-faster-really-1M.html\n"


def test_meta_slug_names_the_outputs_and_name_overrides_it(default_text: str,
                                                           tmp_path: Path) -> None:
    _talk(default_text, tmp_path, "Anything", slug="meetup_2026.v2")
    run = run_in("build", "--only", "html", "-o", "out", "--check", "15 min", cwd=tmp_path)
    assert run.stdout == "out/meetup_2026.v2-1M-check-15min.html\n", run.stderr
    named = run_in("build", "--only", "html", "-o", "out", "--name", "talk", cwd=tmp_path)
    assert named.stdout == "out/talk.html\n", named.stderr


@pytest.mark.parametrize("slug", ["../up", ".hidden", "a b", "é", "x" * 61, "-dash"])
def test_a_bad_slug_or_name_is_one_line(slug: str, default_text: str, tmp_path: Path) -> None:
    rule = ("must be 1 to 60 ASCII letters, digits, '-', '_' or '.', starting with a letter or "
            "digit")
    path = _talk(default_text, tmp_path, "Anything", slug=json.dumps(slug))
    check = run_in("check", str(path))
    assert check.returncode == 2
    assert check.stderr == f"{path}:17:9: meta.slug: {rule}, got {slug!r}\n"
    named = run_in("build", str(DEFAULT_CONTENT), "-o", str(tmp_path / "out"), "--name", slug)
    assert named.returncode == 2
    assert named.stderr == f"--name: {rule}, got {slug!r}\n"
    assert not (tmp_path / "out").exists()


# -- clean --------------------------------------------------------------------------------


def test_clean_removes_deckgens_own_outputs_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for speed in ("1M", "10K"):  # a new speed leaves the earlier files; clean removes both
        run = run_in("build", str(DEFAULT_CONTENT), "-o", str(out), "--only", "html",
                     "--speed", speed)
        assert run.returncode == 0, run.stderr
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    (out / "million-tokens-2500.html").write_text("mine too\n", encoding="utf-8")
    ours = [out / "million-tokens-10K.html", out / "million-tokens-1M.html"]

    dry = run_in("clean", "-o", str(out), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout == "".join(f"would remove {p}\n" for p in ours)
    assert all(p.exists() for p in ours)

    (out / "million-tokens-10K.html").write_text("edited by hand\n", encoding="utf-8")
    done = run_in("clean", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"removed {ours[1]}\n"
    assert done.stderr == f"kept {ours[0]}: changed since deckgen wrote it\n"
    assert sorted(p.name for p in out.iterdir()) == [  # deckgen's own folder went too
        "million-tokens-10K.html", "million-tokens-2500.html", "notes.txt"]
    again = run_in("clean", "-o", str(out))
    assert again.stdout == f"nothing of deckgen's to remove in {out}\n"


def test_clean_never_follows_a_link_nor_a_forged_name(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_in("build", str(DEFAULT_CONTENT), "-o", str(out), "--only", "html")
    assert run.returncode == 0, run.stderr
    page = out / "million-tokens-1M.html"
    keep = tmp_path / "elsewhere.html"
    keep.write_bytes(page.read_bytes())
    page.unlink()
    page.symlink_to(keep)  # the same bytes, through a link: not deckgen's file any more
    manifest = json.loads((out / ".deckgen" / "manifest.json").read_text())
    manifest["files"]["../elsewhere.html"] = manifest["files"][page.name]
    (out / ".deckgen" / "manifest.json").write_text(json.dumps(manifest))
    done = run_in("clean", "-o", str(out))
    assert done.returncode == 0
    assert done.stderr == f"kept {page}: is no longer a regular file deckgen wrote\n"
    assert keep.exists() and page.is_symlink()


# -- init ---------------------------------------------------------------------------------


def test_init_into_a_new_folder_named_with_a_slash(tmp_path: Path) -> None:
    run = run_in("init", "talk/", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "talk" / "content.yaml").read_bytes() == DEFAULT_CONTENT.read_bytes()
    assert run.stdout == ("wrote talk/content.yaml; edit it, then run: "
                          "deckgen build talk/content.yaml\n")


@pytest.mark.parametrize("kind", ["symlink", "folder", "fifo"])
def test_init_replaces_only_a_regular_file_even_with_force(kind: str, tmp_path: Path) -> None:
    import os

    target = tmp_path / "content.yaml"
    mine = tmp_path / "mine.yaml"
    mine.write_text("my talk\n", encoding="utf-8")
    if kind == "symlink":
        target.symlink_to(mine)
    elif kind == "folder":
        (target / "content.yaml").mkdir(parents=True)  # `init DIR` would write DIR/content.yaml
        target = target / "content.yaml"
    else:
        os.mkfifo(target)
    what = {"symlink": "a symbolic link", "folder": "a folder",
            "fifo": "a named pipe (FIFO), not a file"}
    run = run_in("init", str(target.parent if kind == "folder" else target), "--force")
    assert run.returncode == 2
    assert run.stderr == (f"{target}: is {what[kind]}; init writes a new file or, with --force, "
                          "replaces a regular file only\n")
    assert mine.read_text(encoding="utf-8") == "my talk\n"
