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
    ("deckgen/plan/charts/line_chart.py", "matplotlib"),
    ("deckgen/plan/placed.py", "reportlab"),
    ("deckgen/template/reader.py", "pptx"),  # the template is read without python-pptx
])
def test_ruff_fences_each_heavy_library(module: str, library: str) -> None:
    """The fence is live: a heavy import anywhere but its own module is reported."""
    run = _run("ruff", "check", "--no-cache", "--stdin-filename", module, "-",
               given=f"import {library}\n\nprint({library})\n")
    assert run.returncode == 1
    assert "TID251" in run.stdout and f"`{library}` is banned" in run.stdout, run.stdout


# Each outside library and the one module or sub-package that may import it.
HOMES = {
    "PIL": ("deckgen/pictures.py",),
    "babel": ("deckgen/locale.py",),
    "jinja2": ("deckgen/paint/page/render.py",),
    "markupsafe": ("deckgen/paint/page/render.py",),
    "matplotlib": ("deckgen/paint/pictures/",),
    "pptx": ("deckgen/paint/pptx/",),
    "xlsxwriter": ("deckgen/paint/pptx/compat.py",),
    "reportlab": ("deckgen/paint/handout/", "deckgen/paint/pdf/"),
    "rich": ("deckgen/commands.py",),
    "segno": ("deckgen/plan/qr.py",),
    "typer": ("deckgen/app.py",),
    "uniseg": ("deckgen/typeset/text.py",),
    "yaml": ("deckgen/loader.py",),
}


def _outside_imports() -> dict[str, set[str]]:
    """Every library outside the standard library that a deckgen module imports, with the
    modules that import it (read from the code, imports inside functions included)."""
    import ast

    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "deckgen").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                if top not in sys.stdlib_module_names and top not in ("deckgen", "__future__"):
                    found.setdefault(top, set()).add(name)
    return found


def test_each_outside_library_is_imported_in_its_one_home() -> None:
    """ruff's fence lifts every ban in a folder it exempts; this reads every import and holds
    each library to its own module or sub-package (the reportlab pair: the handout's and the
    PDFs')."""
    found = _outside_imports()
    assert "pptx" in found and "reportlab" in found  # the scan sees imports
    strays = {library: sorted(m for m in modules
                              if not m.startswith(HOMES.get(library, ("(no home)",))))
              for library, modules in found.items()}
    assert {library: m for library, m in strays.items() if m} == {}
