"""The quick commands stay quick: `deckgen --help`, `table` and `check` never import the
renderers' libraries (matplotlib, python-pptx, reportlab, svglib, Pillow, Jinja2). Each is proven
twice, from the modules loaded when the command ends and from Python's own `-X importtime` log."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import DEFAULT_CONTENT, ROOT, python_prints

HEAVY = ("matplotlib", "pptx", "reportlab", "svglib", "PIL", "jinja2", "markupsafe")

# Runs deckgen's command line in this process, then reports which heavy modules got loaded.
PROBE = """
import json, runpy, sys
sys.argv = ["deckgen", *json.loads(sys.argv[1])]
code = 0
try:
    runpy.run_module("deckgen", run_name="__main__")
except SystemExit as done:
    code = done.code or 0
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {heavy})
print(json.dumps({{"code": code, "loaded": loaded}}), file=sys.stderr)
"""

QUICK = [
    ("--help",),
    ("--version",),
    ("table", "--help"),
    ("check", "--help"),
    ("build", "--help"),
    ("table", str(DEFAULT_CONTENT)),
    ("table", str(DEFAULT_CONTENT), "--json"),
    ("table", str(DEFAULT_CONTENT), "--speed", "2500", "--check", "15 min",
     "--workload", "candidates"),
    ("check", str(DEFAULT_CONTENT)),
    ("check", str(DEFAULT_CONTENT), "--figures"),
    ("table",),  # the default content
]


def _probe(args: tuple[str, ...], preload: str = "",
           heavy: tuple[str, ...] = HEAVY) -> dict[str, object]:
    probe = PROBE.format(heavy=set(heavy))
    run = subprocess.run([sys.executable, "-c", preload + probe, json.dumps(list(args))],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    report = json.loads(run.stderr.strip().splitlines()[-1])
    return report  # type: ignore[no-any-return]


@pytest.mark.parametrize("args", QUICK, ids=[" ".join(a[:1] + a[2:]) or a[0] for a in QUICK])
def test_quick_commands_load_no_renderer(args: tuple[str, ...]) -> None:
    report = _probe(args)
    assert report["code"] == 0
    assert report["loaded"] == []


@pytest.mark.parametrize("args", [("table", "--json"), ("check", str(DEFAULT_CONTENT)),
                                  ("table", "-h"), ("build", "--only", "deck,pdf")],
                         ids=" ".join)
def test_the_command_line_library_brings_no_pydantic(args: tuple[str, ...]) -> None:
    """typer reads every command line; the release pinned converts values without pydantic,
    which would take longer to load than `table` takes to run."""
    loaded = _probe(args, heavy=("typer", "pydantic"))["loaded"]
    assert "typer" in loaded  # type: ignore[operator]
    assert [m for m in loaded if m.startswith("pydantic")] == []  # type: ignore[attr-defined]


def test_typer_is_imported_only_once_the_command_line_is_read() -> None:
    code = ("import sys\nimport deckgen.cli, deckgen.commands\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in {'typer', 'click'}))")
    assert python_prints(code) == "[]"


def test_the_probe_can_see_an_import() -> None:
    """The probe itself works: a heavy import made before the command shows up."""
    report = _probe(("--version",), preload="import matplotlib\n")
    assert "matplotlib" in report["loaded"]  # type: ignore[operator]


def _imported(args: tuple[str, ...]) -> set[str]:
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckgen", *args],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    names = set()
    for line in run.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "deckgen.cli" in names, "no import log"
    return names


@pytest.mark.parametrize("args", [("--help",), ("table", str(DEFAULT_CONTENT)),
                                  ("check", str(DEFAULT_CONTENT))])
def test_importtime_log_has_no_renderer(args: tuple[str, ...]) -> None:
    names = _imported(args)
    heavy = sorted(n for n in names if n.split(".")[0] in HEAVY)
    assert heavy == []
    # The core did load: the log is real.
    if args[0] != "--help":
        assert {"deckgen.fmt", "deckgen.dial", "deckgen.content"} <= names


def test_core_modules_import_nothing_heavy() -> None:
    """Importing the core and the story (everything but the renderers) loads no renderer library."""
    code = ("import sys\n"
            "import deckgen.story, deckgen.report, deckgen.source, deckgen.build, deckgen.fonts\n"
            "import deckgen.plan.charts.handout_bars\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {set(HEAVY)!r}))")
    assert python_prints(code) == "[]"


def test_the_slides_pdf_and_the_notes_book_are_drawn_without_python_pptx() -> None:
    """The kit is drawn from the slides as placed, plain data: its renderer and that data
    load no python-pptx (a build hands them to the process drawing the kit)."""
    code = ("import sys\n"
            "import deckgen.paint.pdf, deckgen.plan, deckgen.plan.placed\n"
            "print('pptx' in sys.modules, 'reportlab' in sys.modules)")
    assert python_prints(code).split() == ["False", "True"]


@pytest.mark.slow
@pytest.mark.parametrize("only", [("--only", "handout"), ()], ids=["handout", "all"])
def test_a_default_build_draws_its_charts_without_matplotlib(
    tmp_path, only: tuple[str, ...]  # type: ignore[no-untyped-def]  # noqa: ANN001
) -> None:
    """The deck's charts are native chart parts and the handout's is drawn with reportlab's
    shapes: a default build, or the handout alone, never imports matplotlib nor svglib (the
    import log covers a forked process's imports too)."""
    names = _imported(("build", str(DEFAULT_CONTENT), "--out", str(tmp_path), *only))
    assert "reportlab.graphics.shapes" in names  # the handout's chart was drawn
    assert "deckgen.paint.handout.chart" in names
    assert sorted(n for n in names if n.split(".")[0] in {"matplotlib", "svglib"}) == []
    assert (tmp_path / "million-tokens-1M.pdf").stat().st_size > 10_000
