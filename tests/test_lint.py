"""The code stays clean: ruff (style, likely bugs, and each heavy library fenced into its one
module) and mypy --strict on the core, both with their settings from pyproject.toml."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from conftest import ROOT


def _run(tool: str, *args: str, given: str | None = None) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed (pip install '.[test]')")
    return subprocess.run([sys.executable, "-m", tool, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, input=given)


def test_ruff_finds_nothing() -> None:
    run = _run("ruff", "check", "--no-cache", "--output-format", "concise",
               "deckgen", "tests", "bench")
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_finds_nothing() -> None:
    run = _run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("module", "library"), [
    ("deckgen/story/parts.py", "matplotlib"),
    ("deckgen/cli.py", "pptx"),
    ("deckgen/cli.py", "typer"),
    ("deckgen/build.py", "reportlab"),
    ("deckgen/report.py", "PIL"),
    ("deckgen/plan/place.py", "pptx"),  # the plan draws nothing
    ("deckgen/plan/charts/lines.py", "matplotlib"),
    ("deckgen/plan/placed.py", "reportlab"),
    ("deckgen/template/reader.py", "pptx"),  # the template is read without python-pptx
])
def test_ruff_fences_each_heavy_library(module: str, library: str) -> None:
    """The fence is live: a heavy import anywhere but its own module is reported."""
    run = _run("ruff", "check", "--no-cache", "--stdin-filename", module, "-",
               given=f"import {library}\n\nprint({library})\n")
    assert run.returncode == 1
    assert "TID251" in run.stdout and f"`{library}` is banned" in run.stdout, run.stdout
