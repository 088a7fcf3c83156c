"""Shared fixtures: run the real command line, and build the default deck and handout once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONTENT = ROOT / "content.yaml"


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`deckgen ARGS` as a user runs it: a fresh process, text output captured."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


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
