"""The bad-input corpus: each broken file gets its exact message and exit status, nothing written.

Each case in tests/bad_inputs/ is a `NAME.expected` file, most beside a `NAME.yaml` that breaks one
thing in a copy of the small valid file `_valid.yaml`:

    $ deckgen check NAME.yaml          the command, run in a copy of the folder
    exit 2                             its exit status
    NAME.yaml:9:10: dial.speed: ...    stderr, line for line (nothing more, nothing less)

Builds write to `out/`, which starts with an earlier deck and handout that must stay as they were.
A line ending in " ..." matches any line that starts with the rest: it is kept for the renderers'
measurements (how many lines a text needs, how many mm a page runs over), which follow the layout.
`pytest tests/test_bad_inputs.py --regen` (or DECKGEN_REGEN=1) rewrites the stderr lines of every
case from what deckgen prints now; read the diff before committing it.

The cases run through the command line's in-process entry point (deckgen.cli.run), which does
what the `deckgen` process does minus the exit; a handful of them also run as real processes,
which must answer byte for byte the same (exit status, stdout, stderr).
"""

from __future__ import annotations

import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT, regen, run_cli, run_in

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
EARLIER = {"million-tokens-1M.pptx": b"an earlier deck",
           "million-tokens-1M.pdf": b"an earlier handout"}

# `file:line:col: key.path: message`, `file: message` or `--option: message`: never a bare sentence
LINE = re.compile(r"^(\S[^:]*(:\d+:\d+)?: )?(\S+: )?\S.*$")


@dataclass
class Case:
    name: str
    args: list[str]
    exit: int
    stderr: list[str]
    source: Path

    @classmethod
    def read(cls, path: Path) -> Case:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("$ deckgen "), f"{path.name}: line 1 must be '$ deckgen ...'"
        assert re.fullmatch(r"exit \d+", lines[1]), f"{path.name}: line 2 must be 'exit N'"
        return cls(path.stem, shlex.split(lines[0])[2:], int(lines[1].split()[1]), lines[2:], path)

    def matches(self, stderr: list[str]) -> bool:
        return len(stderr) == len(self.stderr) and all(
            got.startswith(want[:-3]) if want.endswith(" ...") else got == want
            for got, want in zip(stderr, self.stderr, strict=False))

    def write(self, stderr: list[str]) -> None:
        if self.matches(stderr):
            return
        command = "$ deckgen " + shlex.join(self.args)
        lines = [command, f"exit {self.exit}", *stderr]
        self.source.write_text("\n".join(lines) + "\n", encoding="utf-8")


CASES = sorted(CORPUS.glob("*.expected"))
# Their builds draw a deck or a handout before the problem shows: slow (`pytest -m "not slow"`).
DRAWN = ("template_", "paths_template_", "text_")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file and folder under `folder` (folders as empty bytes), the chart cache included."""
    return {str(p.relative_to(folder)): b"" if p.is_dir() else p.read_bytes()
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the corpus with an output folder holding an earlier build."""
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder, ignore=shutil.ignore_patterns("*.expected"))
    return _with_earlier_build(folder)


def _with_earlier_build(folder: Path) -> Path:
    (folder / "out").mkdir()
    for name, data in EARLIER.items():
        (folder / "out" / name).write_bytes(data)
    return folder


def corpus_for(case: Case, tmp_path: Path) -> Path:
    """The part of the corpus a case's command names (and the valid file), with an output folder
    holding an earlier build: the command sees what it would in a copy of the whole folder."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in {"_valid.yaml", *case.args}:
        if "/" not in name and len(name) < 256 and (CORPUS / name).is_file():
            shutil.copyfile(CORPUS / name, folder / name)
    return _with_earlier_build(folder)


def test_corpus_is_large_and_every_file_has_a_case() -> None:
    inputs = [p for p in CORPUS.iterdir() if p.suffix != ".expected"]
    named = {arg for case in CASES for arg in Case.read(case).args}
    assert len(inputs) >= 40 and len(CASES) >= 40
    assert [p.name for p in inputs if p.name not in named] == []


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem.startswith(DRAWN) else [])
    for p in CASES])
def test_case(path: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    case = Case.read(path)
    corpus = corpus_for(case, tmp_path)
    before = snapshot(corpus)
    run = run_in(*case.args, cwd=corpus)
    stderr = run.stderr.splitlines()
    assert "Traceback" not in run.stderr
    if regen(request.config):
        case.write(stderr)
    assert run.returncode == case.exit, run.stderr
    assert case.matches(stderr), f"expected:\n{chr(10).join(case.stderr)}\ngot:\n{run.stderr}"
    if case.exit != 0:
        assert snapshot(corpus) == before, "a failed command changed files"
        assert run.stdout == ""
        assert stderr, "a failure must say why"
        if stderr[0].startswith("deckgen"):  # the command line itself is wrong: one line
            assert len(stderr) == 1 and stderr[0].endswith("--help')")
        else:
            assert all(LINE.match(line) for line in stderr)


# The command-line contract, in real processes: one case per kind of answer (a content problem
# from check and from build, an option problem from table, an output folder that is a file, a
# usage error, a file that is not there, one that is not UTF-8) gives the same exit status and
# the same bytes on both streams as the in-process run.
PROCESS_CASES = ["speed_fast", "keys_duplicate_dial", "cli_speed_option", "paths_out_is_file",
                 "cli_unknown_option", "cli_missing_file", "file_latin1"]


@pytest.mark.parametrize("name", PROCESS_CASES)
def test_a_process_answers_like_the_in_process_run(name: str, corpus: Path) -> None:
    case = Case.read(CORPUS / f"{name}.expected")
    before = snapshot(corpus)
    process = run_cli(*case.args, cwd=corpus, timeout=120)
    assert process.returncode == case.exit != 0, process.stderr
    assert case.matches(process.stderr.splitlines()), process.stderr
    assert process.stdout == "" and snapshot(corpus) == before
    inside = run_in(*case.args, cwd=corpus)
    assert (inside.returncode, inside.stdout, inside.stderr) == (
        process.returncode, process.stdout, process.stderr)


def test_the_process_cases_cover_each_command() -> None:
    commands = {Case.read(CORPUS / f"{name}.expected").args[0] for name in PROCESS_CASES}
    assert commands == {"check", "table", "build"}


def test_debug_shows_the_traceback_and_the_same_lines(corpus: Path) -> None:
    plain = run_cli("check", "speed_fast.yaml", cwd=corpus)
    debug = run_cli("--debug", "check", "speed_fast.yaml", cwd=corpus)
    assert plain.returncode == debug.returncode == 2
    assert "Traceback (most recent call last)" in debug.stderr
    assert "deckgen.errors.InputError" in debug.stderr
    assert debug.stderr.splitlines()[-1] == plain.stderr.splitlines()[-1]
    assert plain.stderr.startswith("speed_fast.yaml:9:10: dial.speed: must be a positive number")


def _bounded() -> None:
    """Run the child with 400 MB of address space and 30 s of CPU at most."""
    resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))
    resource.setrlimit(resource.RLIMIT_CPU, (30, 30))


@pytest.mark.parametrize("name, message", [
    ("hostile_billion_laughs.yaml", "too many values: aliases expand past 20,000"),
    ("hostile_deep_nesting.yaml", "YAML syntax error: values are nested more than 32 levels deep"),
    ("hostile_alias_depth.yaml", "values are nested more than 32 levels deep (through aliases)"),
])
def test_bombs_are_refused_with_bounded_memory_and_time(name: str, message: str) -> None:
    run = subprocess.run([sys.executable, "-m", "deckgen", "check", name], cwd=CORPUS,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=60, preexec_fn=_bounded)
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.splitlines()) == 1 and message in run.stderr


@pytest.mark.parametrize("size", [1_000_001, 3 * 2**30])
def test_a_file_above_the_size_limit_is_refused_before_parsing(tmp_path: Path, size: int) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:  # a YAML syntax error first, then (sparse) zeros
        handle.write(b'meta: "never closed\n')
        handle.truncate(size)
    run = run_in("check", str(big))
    assert run.returncode == 2
    limit = "file is larger than 1,000,000 bytes, the limit for a content file"
    assert run.stderr == f"{big}: {limit}\n"


def test_a_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    text = (CORPUS / "_valid.yaml").read_text(encoding="utf-8")
    padded = tmp_path / "padded.yaml"
    padded.write_text(text + "#" * (1_000_000 - len(text.encode()) - 1) + "\n", encoding="utf-8")
    assert padded.stat().st_size == 1_000_000
    run = run_in("check", str(padded))
    assert run.returncode == 0, run.stderr
