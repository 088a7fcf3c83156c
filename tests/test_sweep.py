"""`deckgen sweep`: names, counts, the whole list checked first, parallel = serial bytes."""

from __future__ import annotations

import functools
import os
import pty
import select
import subprocess
import sys
import time
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT, run_cli, run_in

from deckgen import build, pipeline, source, sweep
from deckgen.content import Content
from deckgen.errors import InputError, RenderError


@functools.cache
def _default() -> Content:
    return source.read(DEFAULT_CONTENT)[0]


def named(speed: F, check: F | None) -> str:
    content = _default()
    dial = replace(content.dial, speed=speed, fixed_check=check if check is not None else 0)
    return build.stem(replace(content, dial=dial), check is not None)


@pytest.mark.parametrize(
    ("speed", "check", "name"),
    [
        (F(10**6), None, "million-tokens-1M"),
        (F(100), F(0), "million-tokens-100-check-none"),
        (F(2500), F(900), "million-tokens-2.5K-check-15min"),
        (F(10**5), F(60), "million-tokens-100K-check-60s"),
        (F(10**3), F(86400), "million-tokens-1K-check-24h"),
        (F(10**4), F(10000), "million-tokens-10K-check-2h46min40s"),
        (F(10**4), F(3, 2), "million-tokens-10K-check-1.5s"),
        # Short forms that round are written out, so two dials never share a file.
        (F(1234), None, "million-tokens-1234"),
        (F(1230), None, "million-tokens-1.23K"),
        (F(999_999), None, "million-tokens-999999"),
        (F(1500), F(6004, 100), "million-tokens-1.5K-check-60.04s"),
        (F(1, 1000), F(1, 1000), "million-tokens-0.001-check-0.001s"),
    ],
)
def test_names_carry_exact_values(speed: F, check: F | None, name: str) -> None:
    assert named(speed, check) == name


def test_every_combination_has_its_own_safe_name() -> None:
    speeds = [F(100), F(1000), F(1001), F(1234), F(1230), F(2500), F(999_999), F(10**6), F(10**12)]
    checks = [F(0), F(1), F(3, 2), F(15), F(60), F(6004, 100), F(900), F(3600), F(10000), F(86400)]
    names = [named(s, c) for s in speeds for c in checks]
    assert len(set(names)) == len(names)
    assert all(
        set(n) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        for n in names
    )


def test_plan_defaults_to_the_content_speed_marks() -> None:
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(), None, None)
    assert [j.name for j in jobs] == [
        "million-tokens-100",
        "million-tokens-1K",
        "million-tokens-10K",
        "million-tokens-100K",
        "million-tokens-1M",
    ]
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(), "1K, 1M", "0,60s,15min")
    assert [j.name for j in jobs] == [
        "million-tokens-1K-check-none",
        "million-tokens-1K-check-60s",
        "million-tokens-1K-check-15min",
        "million-tokens-1M-check-none",
        "million-tokens-1M-check-60s",
        "million-tokens-1M-check-15min",
    ]
    assert [(j.content.dial.speed, j.content.dial.fixed_check) for j in list(jobs)[:3]] == [
        (1000, 0),
        (1000, 60),
        (1000, 900),
    ]


def problems(speeds: str, checks: str | None = None) -> list[str]:
    with pytest.raises(InputError) as caught:
        sweep.plan(DEFAULT_CONTENT, build.Options(), speeds, checks)
    return caught.value.lines()


def test_every_bad_item_is_one_line() -> None:
    lines = problems("100,fast,,1K,1000", "0,a week")
    assert len(lines) == 4
    assert lines[0].startswith(
        "--speeds: item 2 of 5 must be a positive number of tokens per second"
    )
    assert lines[0].endswith("got 'fast'")
    assert lines[1] == "--speeds: item 3 of 5 is empty; separate values with single commas"
    assert lines[2] == "--speeds: item 5 of 5 ('1000') repeats '1K'"
    assert lines[3].startswith("--checks: item 2 of 2 must be a duration") and lines[3].endswith(
        "got 'a week'"
    )


def test_a_comma_inside_a_number_gets_a_hint() -> None:
    [line] = problems("100,1,000,000")[:1]
    assert line.endswith(
        "got '000'; write big numbers as 1M or 1000000, since commas separate the list"
    )


def test_speeds_below_the_slow_speed_are_slowdowns() -> None:
    """As in a build, a speed below the slow speed is swept: its speedups read as a slowdown."""
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(), "50,1K", None)
    assert [job.name for job in jobs] == ["million-tokens-50", "million-tokens-1K"]
    assert [job.content.dial.speed for job in jobs] == [50, 1000]


def test_a_bad_speed_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_in(
        "sweep", str(DEFAULT_CONTENT), "--speeds", "100,1K,ludicrous,1M", "--out", str(out)
    )
    assert run.returncode == 2
    [line] = run.stderr.splitlines()
    assert line.startswith("--speeds: item 3 of 4 must be a positive number") and line.endswith(
        "got 'ludicrous'"
    )
    assert run.stdout == ""
    assert not out.exists()


def test_bad_choices_are_reported_before_anything_is_read(tmp_path: Path) -> None:
    run = run_in(
        "sweep",
        str(DEFAULT_CONTENT),
        "--speeds",
        "1K",
        "--paper",
        "a5",
        "--out",
        str(tmp_path / "o"),
    )
    assert run.returncode == 2
    assert run.stderr == "--paper: must be one of a4, letter, got 'a5'\n"


# --- Running the builds (fast: renderers replaced by stand-ins) ----------------------------


def stand_in(story, job, *_args, kinds, **_kwargs):  # type: ignore[no-untyped-def]
    speed = job.content.dial.speed
    if speed == 1000 and "handout" in kinds:  # the deck of this combination draws fine
        raise RenderError("the handout could not be drawn at 1K")
    return {kind: f"{kind} at {speed}".encode() for kind in kinds}, []


def test_one_failing_combination_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "render", stand_in)
    (tmp_path / "million-tokens-1K.pptx").write_bytes(b"the last good deck")
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(out=tmp_path), "100,1K,1M", None)
    heard: list[Path] = []
    with pytest.raises(RenderError) as caught:
        sweep.run(jobs, 1, heard.append)
    assert caught.value.lines() == ["the handout could not be drawn at 1K"]
    assert [p.name for p in heard] == [
        "million-tokens-100.pptx",
        "million-tokens-100.pdf",
        "million-tokens-100.html",
        "million-tokens-100-slides.pdf",
        "million-tokens-100-notes.pdf",
        "million-tokens-1M.pptx",
        "million-tokens-1M.pdf",
        "million-tokens-1M.html",
        "million-tokens-1M-slides.pdf",
        "million-tokens-1M-notes.pdf",
    ]
    assert (tmp_path / "million-tokens-1M.pdf").read_bytes() == b"handout at 1000000"
    # Its deck was drawn, but a combination's files land together or not at all.
    assert (tmp_path / "million-tokens-1K.pptx").read_bytes() == b"the last good deck"
    assert not (tmp_path / "million-tokens-1K.pdf").exists()
    assert not (tmp_path / "million-tokens-1K.html").exists()


def test_a_plan_makes_each_combination_as_it_is_reached() -> None:
    """A sweep's plan holds the values, not the combinations: its size does not grow with
    their number, and each combination is made when the sweep comes to it."""
    speeds = ",".join(str(100 + n) for n in range(400))
    checks = ",".join(f"{n}s" for n in range(1, 51))
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(), speeds, checks)
    assert len(jobs) == 20_000
    first = next(iter(jobs))
    assert (first.name, first.content.dial.speed) == ("million-tokens-100-check-1s", 100)
    assert first.content is not next(iter(jobs)).content  # made anew, not kept


# --- Real sweeps ---------------------------------------------------------------------------


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.slow
def test_parallel_and_serial_sweeps_give_the_same_files(tmp_path: Path) -> None:
    parallel, serial = tmp_path / "parallel", tmp_path / "serial"
    args = ["sweep", str(DEFAULT_CONTENT), "--speeds", "100,2.5K", "--checks", "15min"]
    run = run_cli(*args, "--out", str(parallel), "--jobs", "2")
    assert run.returncode == 0, run.stderr
    names = [
        "million-tokens-100-check-15min-notes.pdf",
        "million-tokens-100-check-15min-slides.pdf",
        "million-tokens-100-check-15min.html",
        "million-tokens-100-check-15min.pdf",
        "million-tokens-100-check-15min.pptx",
        "million-tokens-2.5K-check-15min-notes.pdf",
        "million-tokens-2.5K-check-15min-slides.pdf",
        "million-tokens-2.5K-check-15min.html",
        "million-tokens-2.5K-check-15min.pdf",
        "million-tokens-2.5K-check-15min.pptx",
    ]
    # Not a terminal: one plain line per finished file, in the order they finished.
    assert sorted(run.stdout.splitlines()) == [str(parallel / n) for n in names]
    assert run.stderr == ""
    assert sorted(files(parallel)) == names

    run = run_in(*args, "--out", str(serial), "--jobs", "1")  # in this process, one at a time
    assert run.returncode == 0, run.stderr
    assert files(serial) == files(parallel)
    assert files(parallel)[names[2]] != files(parallel)[names[7]]  # the speed made a difference
    assert files(parallel)[names[3]] != files(parallel)[names[8]]
    assert files(parallel)[names[1]] != files(parallel)[names[6]]
    assert not [p for p in tmp_path.rglob(".deckgen-*") if p.is_file()]


@pytest.mark.slow
def test_a_terminal_gets_a_progress_bar(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as stderr:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "deckgen",
                "sweep",
                str(DEFAULT_CONTENT),
                "--speeds",
                "1K",
                "--only",
                "handout",
                "--pages",
                "auto",
                "--out",
                str(tmp_path / "out"),
            ],
            cwd=ROOT,
            stdout=follower,
            stderr=stderr,
            env={**os.environ, "COLUMNS": "100"},
        )
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if not select.select([leader], [], [], 1)[0]:
            continue
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert process.wait(timeout=120) == 0, errors.read_text()
    text = shown.decode("utf-8", "replace")
    assert "sweep" in text and "100%" in text
    assert str(tmp_path / "out" / "million-tokens-1K.pdf") in text


def test_jobs_must_be_positive(tmp_path: Path) -> None:
    run = run_in(
        "sweep", str(DEFAULT_CONTENT), "--speeds", "1K", "--jobs", "0", "--out", str(tmp_path / "o")
    )
    assert run.returncode == 2
    assert run.stderr == "--jobs: must be at least 1, got 0\n"
    assert not (tmp_path / "o").exists()


def test_renderer_warnings_are_heard_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckgen.errors import Problem

    box = Problem(
        "warning: the handout has no font for '𓀀' (U+13000)", "c.yaml", 10, 14, "meta.presenter"
    )

    def warns(story, job, *_args, kinds, **_kwargs):  # type: ignore[no-untyped-def]
        return {kind: kind.encode() for kind in kinds}, [box] if "handout" in kinds else []

    monkeypatch.setattr(pipeline, "render", warns)
    jobs, _ = sweep.plan(DEFAULT_CONTENT, build.Options(out=tmp_path), "100,1K,1M", None)
    heard: list[Problem] = []
    written = sweep.run(jobs, 1, lambda _: None, heard)
    assert len(written) == 15  # a deck, a handout, a page, slides and notes per speed
    assert heard == [box]
