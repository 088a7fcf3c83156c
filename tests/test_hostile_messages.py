"""Every message says what happened: link loops, encodings, tabs, huge integers, broken pipes,
Ctrl-C (counting what was written), and a sweep whose worker was killed."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, VALID, run_in, snapshot
from test_hostile import refused

from deckgen import build, output, sweep
from deckgen.cli import _terminate
from deckgen.errors import RenderError


@pytest.fixture
def here(tmp_path: Path) -> Path:
    shutil.copyfile(VALID, tmp_path / "talk.yaml")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "million-tokens-1M.pptx").write_bytes(b"an earlier deck")
    return tmp_path


def test_an_out_link_loop_is_called_a_loop(here: Path) -> None:
    """It was called "a symbolic link ... which does not exist"."""
    (here / "a").symlink_to("b")
    (here / "b").symlink_to("a")
    assert refused(here, "build", "talk.yaml", "--out", "a") == (
        "a: --out: the path's symbolic links go round in a loop")


def test_utf32_is_called_utf32(here: Path) -> None:
    """It was called UTF-16 text."""
    (here / "wide.yaml").write_bytes(VALID.read_text(encoding="utf-8").encode("utf-32"))
    (here / "wide-be.yaml").write_bytes(b"\x00\x00\xfe\xff"
                                        + VALID.read_text(encoding="utf-8").encode("utf-32-be"))
    assert refused(here, "check", "wide.yaml") == "wide.yaml: file is UTF-32 text; save it as UTF-8"
    assert refused(here, "check", "wide-be.yaml") == (
        "wide-be.yaml: file is UTF-32 text; save it as UTF-8")
    (here / "half.yaml").write_bytes(VALID.read_text(encoding="utf-8").encode("utf-16"))
    assert refused(here, "check", "half.yaml") == "half.yaml: file is UTF-16 text; save it as UTF-8"


def test_a_tab_inside_a_value_is_not_called_indentation(here: Path) -> None:
    text = VALID.read_text(encoding="utf-8")
    (here / "inside.yaml").write_text(text.replace("presenter: Ada", "presenter: Ada\tLovelace"),
                                      encoding="utf-8")
    line = refused(here, "check", "inside.yaml")
    assert line.endswith("YAML syntax error: a tab inside a value cannot be read here; use "
                         "spaces, or put the value in quotes"), line
    (here / "indent.yaml").write_text(text.replace("  presenter: Ada", "\tpresenter: Ada"),
                                      encoding="utf-8")
    assert refused(here, "check", "indent.yaml").endswith(
        "YAML syntax error: a tab cannot indent YAML; use spaces")


def test_a_5000_digit_count_is_refused_by_its_own_rule(here: Path) -> None:
    """Python's own advice came out before: "use sys.set_int_max_str_digits()"."""
    text = VALID.read_text(encoding="utf-8").replace("count: 1000", "count: " + "9" * 5000, 1)
    (here / "huge.yaml").write_text(text, encoding="utf-8")
    line = refused(here, "check", "huge.yaml")
    assert line.startswith("huge.yaml:24:12: workloads[0].count: must be a whole number from 1 "
                           "to 1,000,000,000, got '999"), line
    assert "set_int_max_str_digits" not in line and len(line) < 300


# --- A closed or full stdout ---------------------------------------------------------------


def _with_closed_stdout(here: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    reader, writer = os.pipe()
    os.close(reader)  # whoever read the output has gone
    try:
        return subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=here,
                              stdout=writer, stderr=subprocess.PIPE, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(writer)


def test_a_build_into_a_closed_pipe_succeeds(here: Path) -> None:
    """It wrote its files and then exited 1 ("cannot be used")."""
    run = _with_closed_stdout(here, "build", "talk.yaml", "--out", "built", "--only", "html")
    assert (run.returncode, run.stderr) == (0, b"")
    assert (here / "built" / "million-tokens-1M.html").is_file()


def test_a_build_into_dev_full_succeeds(here: Path) -> None:
    with open("/dev/full", "wb") as full:
        run = subprocess.run([sys.executable, "-m", "deckgen", "build", "talk.yaml", "--out",
                              "built", "--only", "html"], cwd=here, stdout=full,
                             stderr=subprocess.PIPE, timeout=300,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (run.returncode, run.stderr) == (0, b"")
    assert (here / "built" / "million-tokens-1M.html").is_file()


def test_a_sweep_into_a_closed_pipe_writes_every_combination(here: Path) -> None:
    """It stopped after its first combination."""
    run = _with_closed_stdout(here, "sweep", "talk.yaml", "--speeds", "1K,2K,3K", "--out",
                              "swept", "--only", "html", "--jobs", "1")
    assert (run.returncode, run.stderr) == (0, b"")
    assert len(list((here / "swept").glob("*.html"))) == 3


def test_table_json_read_by_head_ends_quietly(here: Path) -> None:
    """`deckgen table --json | head -1` ended with "Broken pipe" and exit 1."""
    run = _with_closed_stdout(here, "table", "talk.yaml", "--json")
    assert (run.returncode, run.stderr) == (0, b"")


# --- Ctrl-C, counted -----------------------------------------------------------------------


def test_ctrl_c_after_the_files_were_written_says_so(here: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the cache was saved said "earlier files were left as they were" after all
    three files were replaced."""
    real = output.write_all

    def then_ctrl_c(files: dict[Path, bytes], **options: object) -> list[Path]:
        real(files, **options)  # type: ignore[arg-type]
        raise KeyboardInterrupt  # as it would arrive while the cache is saved
    monkeypatch.setattr(output, "write_all", then_ctrl_c)
    run = run_in("build", "talk.yaml", "--out", "out", "--only", "html", cwd=here)
    assert (run.returncode, run.stderr) == (
        130, "interrupted; the new files were all written before it stopped\n")
    assert (here / "out" / "million-tokens-1M.html").is_file()


def test_ctrl_c_before_anything_was_written_says_so(here: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def ctrl_c(files: dict[Path, bytes], **options: object) -> list[Path]:
        raise KeyboardInterrupt
    monkeypatch.setattr(output, "write_all", ctrl_c)
    before = snapshot(here)
    run = run_in("build", "talk.yaml", "--out", "out", "--only", "html", cwd=here)
    assert (run.returncode, run.stderr) == (
        130, "interrupted; earlier files were left as they were\n")
    assert snapshot(here) == before


def _drawn(job: sweep.Job, piece: tuple[str, ...],
           memory: object = None) -> sweep.DrawnPiece:
    return sweep.DrawnPiece({kind: job.name.encode() for kind in piece})


def test_ctrl_c_during_one_swap_of_a_sweep_counts_the_combinations(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "the new files were all written" with 1 of 60 combinations written."""
    monkeypatch.setattr(sweep, "_draw", _drawn)
    jobs, _ = sweep.plan(here / "talk.yaml", build.Options(out=here / "swept", only="html"),
                         ",".join(str(1000 + n) for n in range(60)), None)
    real = os.replace
    sent: list[str] = []

    def replace_(src: str, dst: str, **kwargs: int) -> None:
        real(src, dst, **kwargs)
        if not sent and str(src).endswith(".tmp"):
            sent.append(str(dst))
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(output.os, "replace", replace_)
    with pytest.raises(output.Interrupted) as caught:
        sweep.run(jobs, 1, lambda path: None)
    assert caught.value.said == ("1 of 60 combinations were written before it stopped (each "
                                 "whole); the others were left as they were")
    assert len(list((here / "swept").glob("*.html"))) == 1


def _killed_at_1005(job: sweep.Job, piece: tuple[str, ...],
                    memory: object = None) -> sweep.DrawnPiece:
    if job.name.endswith("1005"):
        os.kill(os.getpid(), signal.SIGKILL)  # what the out-of-memory killer does
    time.sleep(0.3)  # the other workers are drawing when the pool stops them
    return sweep.DrawnPiece({kind: job.name.encode() for kind in piece})


def test_a_killed_sweep_worker_ends_the_sweep_naming_the_combination(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep hung forever: the other workers had deckgen's SIGTERM handler, so the pool
    could not stop them."""
    monkeypatch.setattr(sweep, "_draw", _killed_at_1005)
    jobs, _ = sweep.plan(here / "talk.yaml", build.Options(out=here / "swept", only="html"),
                         ",".join(str(1000 + n) for n in range(8)), None)
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("the sweep still runs after 60 s")

    previous = signal.signal(signal.SIGTERM, _terminate)  # deckgen's own, as main() sets it
    alarm = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    try:
        with pytest.raises(RenderError) as caught:
            sweep.run(jobs, 2, lambda path: None, context=multiprocessing.get_context("fork"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, alarm)
        signal.signal(signal.SIGTERM, previous)
    [line] = caught.value.lines()
    assert line.startswith("a build process died (killed, or out of memory?) while drawing ")
    assert "million-tokens-1005" in line, line
    assert line.endswith("were written and are complete, the others were left as they were")
