"""Where one build's time goes: each phase timed in one process, in CPU seconds.

    python bench/phases.py [CONTENT]

The phases run in the order a serial build meets them, each import separately, so the
table shows what the command line, each library and each renderer cost; then each output
again in the warm process (what a rebuild inside `--watch` costs).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

rows: list[tuple[str, float]] = []
_last = time.process_time()


def mark(name: str) -> None:
    global _last
    now = time.process_time()
    rows.append((name, now - _last))
    _last = now


def main() -> None:
    global _last
    _last = time.process_time()
    import deckgen.cli  # noqa: F401
    import deckgen.story
    from deckgen import build

    mark("import deckgen's core")
    content_path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "content.yaml"
    content, _ = build.prepare(content_path, build.Options())
    mark("read and validate the content")
    story = deckgen.story.compose(content)
    mark("compose the story")
    import pptx  # noqa: F401

    mark("import python-pptx")
    import matplotlib.figure  # noqa: F401

    mark("import matplotlib")
    import reportlab.pdfgen.canvas  # noqa: F401
    import reportlab.platypus  # noqa: F401

    mark("import reportlab")
    from deckgen.paint import handout
    from deckgen.paint import pictures as charts
    from deckgen.paint import pptx as deck

    mark("import deckgen's renderers")
    deck.render(story)
    mark("render the deck (native charts)")
    handout.render(story)
    mark("render the handout (drawing its chart with reportlab)")
    deck.render(story)
    mark("render the deck again (fonts and template loaded)")
    handout.render(story)
    mark("render the handout again")
    from deckgen.paint.page import render as page

    page.render(story)
    mark("import Jinja2 and render the page")
    page.render(story)
    mark("render the page again")
    for chart in story.charts:
        charts.render(chart, story.theme, width_in=11.0, height_in=4.6, fmt="png")
    mark(f"draw the {len(story.charts)} charts alone as PNG, 11 x 4.6 in, 200 dpi")

    width = max(len(name) for name, _ in rows)
    print(f"| {'phase':<{width}} | CPU s |")
    print(f"|{'-' * (width + 2)}|------:|")
    for name, seconds in rows:
        print(f"| {name:<{width}} | {seconds:.3f} |")
    floor()


def floor(runs: int = 7) -> None:
    """The start-up every command pays before it does anything: whole processes, wall time."""
    import os
    import statistics
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    steps = [("python -c pass", ["-c", "pass"]),
             ("python -c 'import typer' (help and mistakes only)", ["-c", "import typer"]),
             ("import deckgen's command line and core",
              ["-c", "import deckgen.cli, deckgen.pipeline"]),
             ("deckgen --help", ["-m", "deckgen", "--help"]),
             ("deckgen table (the floor of a plain command)", ["-m", "deckgen", "table"])]
    print(f"\n| {'start-up (fresh process)':<50} | median wall s |")
    print(f"|{'-' * 52}|--------------:|")
    for name, args in steps:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, *args], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - started)
        print(f"| {name:<50} | {statistics.median(times):.3f} |")


if __name__ == "__main__":
    main()
