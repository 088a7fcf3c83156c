"""Shared fixtures: run the real command line (as a process, or in this process), build the
default deck and handout once, and the `--regen` switch for golden files."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckgen.cli import run as run_deckgen

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONTENT = ROOT / "content.yaml"


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`deckgen ARGS` as a user runs it: a fresh process, text output captured."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def run_in(*args: str, cwd: Path | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`deckgen ARGS` in this process (deckgen.cli.run), answered like run_cli: the exit code
    and both streams. What a process adds (exit, signals, encodings) is run_cli's to test."""
    with contextlib.chdir(cwd or os.getcwd()), _environment(env or {}):
        code, out, err = run_deckgen(args)
    return subprocess.CompletedProcess(["deckgen", *args], code, out, err)


@contextlib.contextmanager
def _environment(extra: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen", action="store_true",
                     help="rewrite the golden files (tests/golden/, tests/bad_inputs/*.expected) "
                          "from what deckgen makes now; read the diff before committing it")


def regen(config: pytest.Config) -> bool:
    """True when the run was asked to rewrite golden files (`pytest --regen`)."""
    return bool(config.getoption("--regen")) or os.environ.get("DECKGEN_REGEN") == "1"


def only_file(folder: Path, suffix: str) -> Path:
    """The one file with `suffix` in `folder`; a build writes exactly one of each kind."""
    found = sorted(folder.glob(f"*{suffix}"))
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def default_text() -> str:
    return DEFAULT_CONTENT.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def default_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default content built once (deck and handout) into a folder shared by the tests."""
    out = tmp_path_factory.mktemp("default-build")
    run = run_cli("build", str(DEFAULT_CONTENT), "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out


@pytest.fixture(scope="session")
def other_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another dial, computed by hand in the tests: 2,500 tokens/sec, a 15 min check,
    featuring the critiqued candidates."""
    out = tmp_path_factory.mktemp("other-build")
    run = run_cli("build", str(DEFAULT_CONTENT), "--speed", "2500", "--check", "15 min",
                  "--workload", "candidates", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out
