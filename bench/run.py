"""Time deckgen as a user runs it, whole processes, against pandoc plus one matplotlib chart.

    python bench/run.py [--runs 7] [--json results.json]

Every row is a fresh process, timed from start to exit. Each round runs every row once, in
the same order, after one warm-up round; the table shows medians, and each ratio is taken
pair by pair within a round (so a slower moment of the machine hits both sides), then the
median of those. Peak memory is the largest resident size of one process, from wait4.

The alternative is what a presenter would otherwise do: a Python script that draws one
matplotlib chart (the writing-time chart, from the same numbers), then pandoc turning a
Markdown file with the same slides (generated here from deckgen's story) into a .pptx.
pandoc comes from the pypandoc-binary wheel, installed into bench/.venv on first use;
it is not a dependency of deckgen.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "bench" / ".venv"
sys.path.insert(0, str(ROOT))

import deckgen.story  # noqa: E402  (the checkout, not an installed copy)
from deckgen import source, watch  # noqa: E402

MIB = 1024 * 1024


# --- The alternative: Markdown for pandoc and one chart script -------------------------------


def markdown(story: deckgen.story.Story) -> str:
    """The talk as pandoc Markdown: one '#' slide each, tables as pipe tables, notes as notes."""
    meta = story.meta
    out = [
        f'---\ntitle: "{meta.title}"\nsubtitle: "{meta.subtitle}"\n'
        f'author: "{meta.presenter}"\ndate: "{meta.event}, {meta.date}"\n---\n'
    ]

    def table(t: deckgen.story.Table) -> list[str]:
        rule = ["---:" if a == "r" else ":---" for a in t.align]
        return (
            ["| " + " | ".join(t.header) + " |", "| " + " | ".join(rule) + " |"]
            + ["| " + " | ".join(row) + " |" for row in t.rows]
            + ["", f"*{t.caption}*"]
        )

    for slide in story.slides[1:]:
        body: list[str] = [f"# {slide.headline.text}", ""]
        if slide.kind == "meanings":
            body += [f"- **{c.label}** ({c.question}) {c.text.text}" for c in story.cards]
        elif slide.kind == "dial" and slide.dial:
            d = slide.dial
            body += [
                f"## {d.figure}",
                "",
                d.sentence,
                "",
                d.arithmetic,
                "",
                f"At {d.slow_speed}: {d.slow_figure}",
            ]
        elif slide.kind == "experiment" and slide.experiment:
            e = slide.experiment
            body += [
                f"- {e.arithmetic}",
                f"- {e.writing}",
                f"- {e.story.text}",
                f"- Still scarce: {e.scarce.text}",
            ]
        elif slide.kind == "bottleneck":
            b = story.bottleneck
            body += [
                f"- Writing speedup: {b.writing_speedup} ({b.writing_speedup_how})",
                f"- End to end: {b.end_to_end_speedup} ({b.end_to_end_how})",
                f"- The check's share: {b.check_share}",
                "",
                b.lesson.text,
            ]
        elif slide.kind == "ceiling":
            body += [story.bottleneck.ceiling_sentence.text]
        elif slide.kind == "precious":
            body += [f"- **{name}**: {text.text}" for name, text in story.precious]
        elif slide.kind == "checklist":
            body += [
                f"- [ ] **{step}** {detail.text} ({label} ______)"
                for step, detail, label in story.checklist
            ]
        elif slide.kind == "sources":
            body += [
                f"- {s.title}, {s.publisher}: {s.supports} <{s.url}>"
                if s.url
                else f"- {s.title}, {s.publisher}: {s.supports}"
                for s in story.sources
            ]
        if slide.table:
            body += [""] + table(slide.table)
        if slide.chart is not None and slide.chart.key == "writing_time":
            body += ["", f"![{slide.chart.title}](chart.png)"]
        if slide.notes:
            body += ["", "::: notes", slide.notes.replace("\u00a0", " "), ":::"]
        out.append("\n".join(body) + "\n")
    return "\n".join(out)


def chart_script(story: deckgen.story.Story) -> str:
    """A plain pyplot script drawing the writing-time chart, its numbers typed in."""
    chart = story.chart("writing_time")
    assert isinstance(chart, deckgen.story.LineChart)
    lines = [
        (line.label, [float(x) for x, _ in line.points], [float(y) for _, y in line.points])
        for line in chart.lines
    ]
    return f"""import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

lines = {lines!r}
fig, ax = plt.subplots(figsize=(10, 5.6))
for (label, xs, ys), style in zip(lines, ["-", "--", ":", "-."]):
    ax.plot(xs, ys, style, label=label, linewidth=2)
ax.set_xscale("log")
ax.set_yscale("log")
ax.axvline({float(chart.marker)!r}, color="grey", linewidth=1)
ax.set_xlabel({chart.x_label!r})
ax.set_ylabel({chart.y_label!r})
ax.set_title({chart.title!r})
ax.legend()
fig.savefig("chart.png", dpi=200)
"""


def pandoc() -> Path:
    """pandoc from the pypandoc-binary wheel, in the benchmark's own virtual environment."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    find = [str(python), "-c", "import pypandoc; print(pypandoc.get_pandoc_path())"]
    found = subprocess.run(find, capture_output=True, text=True)
    if found.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "pypandoc-binary"], check=True)
        found = subprocess.run(find, capture_output=True, text=True, check=True)
    return Path(found.stdout.strip())


# --- Timing ------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    commands: list[list[str]]  # run one after the other; the row's time is their sum
    cwd: Path
    before: object = None  # called before each run, untimed (e.g. to empty the output folder)
    times: list[float] = field(default_factory=list)
    peak: list[int] = field(default_factory=list)  # bytes, the largest process of the row


def run_once(row: Row, env: dict[str, str]) -> None:
    if callable(row.before):
        row.before()
    total, peak = 0.0, 0
    for command in row.commands:
        started = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=row.cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _, status, usage = os.wait4(process.pid, 0)
        total += time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        errors = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        if process.returncode != 0:
            raise SystemExit(
                f"{row.name}: {' '.join(command)} failed ({process.returncode}):\n{errors}"
            )
        peak = max(peak, usage.ru_maxrss * 1024)  # kilobytes on Linux
    row.times.append(total)
    row.peak.append(peak)


def _tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    found, todo = [], [pid]
    while todo:
        one = todo.pop()
        found.append(one)
        try:
            for task in Path(f"/proc/{one}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _pss(pid: int) -> int:
    """Proportional set size in bytes: shared pages split between the processes sharing them."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def peak_together(command: list[str], cwd: Path, env: dict[str, str]) -> int:
    """The largest memory of a command's processes all together (PSS, sampled every 5 ms)."""
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    peak = 0
    while process.poll() is None:
        peak = max(peak, sum(_pss(p) for p in _tree(process.pid)))
        time.sleep(0.005)
    return peak


def watch_rebuilds(
    py: list[str], content: Path, work: Path, env: dict[str, str], runs: int
) -> tuple[list[float], list[float]]:
    """`build --watch` after prose-only edits: its own build time, and edit-to-files latency."""
    text = content.read_text(encoding="utf-8")
    watched = work / "watched.yaml"
    watched.write_text(text, encoding="utf-8")
    process = subprocess.Popen(
        py + ["build", str(watched), "--out", str(work / "watched-out"), "--watch"],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None

    def built() -> float:
        for line in process.stdout:  # type: ignore[union-attr]
            if line.startswith("built in "):
                return float(line.split()[2])
        raise SystemExit("build --watch ended early")

    inside, latency = [], []
    try:
        built()
        for number in range(runs + 1):
            started = time.perf_counter()
            watched.write_text(
                text.replace("Your name here", f"Speaker {number}"), encoding="utf-8"
            )
            inside.append(built())
            latency.append(time.perf_counter() - started)
    finally:
        # SIGTERM, which deckgen handles as Ctrl-C: a benchmark started in the background of
        # a shell that is not interactive has SIGINT ignored, and so would the watch.
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        process.stdout.close()
    return inside[1:], latency[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=7, help="timed rounds after the warm-up (at least 5)"
    )
    parser.add_argument("--json", type=Path, help="also write every measurement here")
    parser.add_argument("--no-pandoc", action="store_true", help="skip the pandoc comparison")
    parser.add_argument(
        "--sweep-runs", type=int, default=1, help="timed sweeps of 100 speeds (default 1)"
    )
    args = parser.parse_args()
    runs = max(args.runs, 5)

    work = Path(tempfile.mkdtemp(prefix="deckgen-bench-"))
    try:
        measure(args, runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args: argparse.Namespace, runs: int, work: Path) -> None:
    content = work / "content.yaml"
    shutil.copyfile(ROOT / "content.yaml", content)
    parsed, _ = source.read(content)
    story = deckgen.story.compose(parsed)
    # As an installed package runs: with compiled bytecode (an install writes it; allow it here).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    py = [sys.executable, "-m", "deckgen"]

    def fresh(folder: Path):  # type: ignore[no-untyped-def]
        return lambda: shutil.rmtree(folder, ignore_errors=True)

    rows: dict[str, Row] = {}

    def add(row: Row) -> None:
        rows[row.name] = row

    if not args.no_pandoc:
        alt = work / "alternative"
        alt.mkdir()
        (alt / "talk.md").write_text(markdown(story), encoding="utf-8")
        (alt / "chart.py").write_text(chart_script(story), encoding="utf-8")
        binary = str(pandoc())
        add(
            Row(
                "alternative: chart script + pandoc",
                [[sys.executable, "chart.py"], [binary, "talk.md", "-o", "talk.pptx"]],
                alt,
            )
        )
        add(Row("  chart script alone", [[sys.executable, "chart.py"]], alt))
        add(Row("  pandoc alone", [[binary, "talk.md", "-o", "talk.pptx"]], alt))

    cold = work / "cold"
    add(
        Row(
            "cold build (every file)",
            [py + ["build", str(content), "--out", str(cold)]],
            work,
            fresh(cold),
        )
    )
    add(
        Row(
            "cold build, handout alone",
            [py + ["build", str(content), "--out", str(work / "h"), "--only", "handout"]],
            work,
            fresh(work / "h"),
        )
    )
    add(
        Row(
            "cold build, deck alone",
            [py + ["build", str(content), "--out", str(work / "d"), "--only", "deck"]],
            work,
            fresh(work / "d"),
        )
    )

    warm = work / "warm"
    prose = work / "prose.yaml"
    shutil.copyfile(content, prose)
    names = iter(["Ada Lovelace", "Grace Hopper"] * 1000)

    def edit_prose() -> None:
        text = content.read_text(encoding="utf-8")
        prose.write_text(text.replace("Your name here", next(names)), encoding="utf-8")

    subprocess.run(
        py + ["build", str(prose), "--out", str(warm)], env=env, check=True, capture_output=True
    )
    add(
        Row(
            "rebuild after a prose-only change",
            [py + ["build", str(prose), "--out", str(warm)]],
            work,
            edit_prose,
        )
    )
    pictures = work / "pictures"
    add(
        Row(
            "cold build, --charts picture",
            [py + ["build", str(content), "--out", str(pictures), "--charts", "picture"]],
            work,
            fresh(pictures),
        )
    )
    kept = work / "kept"
    subprocess.run(
        py + ["build", str(prose), "--out", str(kept), "--charts", "picture"],
        env=env, check=True, capture_output=True,
    )
    add(
        Row(
            "rebuild, --charts picture (pictures kept)",
            [py + ["build", str(prose), "--out", str(kept), "--charts", "picture"]],
            work,
            edit_prose,
        )
    )
    add(
        Row(
            "sweep of 5 speeds",
            [
                py
                + [
                    "sweep",
                    str(content),
                    "--speeds",
                    "100,1K,10K,100K,1M",
                    "--out",
                    str(work / "s"),
                ]
            ],
            work,
            fresh(work / "s"),
        )
    )
    add(Row("deckgen table", [py + ["table", str(content)]], work))
    add(Row("deckgen check", [py + ["check", str(content)]], work))
    add(Row("deckgen --help", [py + ["--help"]], work))

    print(f"{len(rows)} rows, 1 warm-up round + {runs} rounds, in {work}", file=sys.stderr)
    for round_number in range(runs + 1):
        for row in rows.values():
            run_once(row, env)
            if round_number == 0:  # the warm-up does not count
                row.times.clear()
                row.peak.clear()
        print(f"round {round_number} done", file=sys.stderr)

    together = []
    if Path("/proc/self/smaps_rollup").exists():
        for _ in range(3):
            shutil.rmtree(cold, ignore_errors=True)
            together.append(
                peak_together(rows["cold build (every file)"].commands[0], work, env)
            )
    inside, latency = watch_rebuilds(py, content, work, env, runs)
    print("build --watch done", file=sys.stderr)
    big = sweep_100(py, content, work, env, args.sweep_runs, fresh)
    report(rows, runs, max(together, default=0), inside, big)
    print(
        f"\nbuild --watch, prose-only edits ({runs}): the rebuild itself "
        f"{statistics.median(inside):.3f} s "
        f"(median; min {min(inside):.3f}), from saving the file to new files "
        f"{statistics.median(latency):.3f} s (includes polling every {watch.INTERVAL} s "
        f"and {watch.SETTLE} s to settle)"
    )
    if args.json:
        measured = {name: {"times": r.times, "peak": r.peak} for name, r in rows.items()}
        measured["build --watch, the rebuild itself"] = {"times": inside, "peak": []}
        measured.update({name: {"times": r.times, "peak": r.peak} for name, r in big.items()})
        args.json.write_text(json.dumps(measured, indent=2))


HUNDRED = ",".join(str(round(100 * 10 ** (4 * i / 99))) for i in range(100))


def sweep_100(
    py: list[str], content: Path, work: Path, env: dict[str, str], runs: int, fresh: Any
) -> dict[str, Row]:
    """A sweep of 100 speeds (100 to 1,000,000 tokens/sec, evenly on the log scale), each run
    paired with a cold build just before it; and the largest memory of the sweep's processes
    together beside that of a sweep of 5."""
    pair = {
        "cold build (paired with the sweep of 100)": Row(
            "cold build (paired with the sweep of 100)",
            [py + ["build", str(content), "--out", str(work / "c100")]],
            work,
            fresh(work / "c100"),
        ),
        "sweep of 100 speeds": Row(
            "sweep of 100 speeds",
            [py + ["sweep", str(content), "--speeds", HUNDRED, "--out", str(work / "s100")]],
            work,
            fresh(work / "s100"),
        ),
    }
    for _ in range(runs):
        for row in pair.values():
            run_once(row, env)
        print("sweep of 100 done", file=sys.stderr)
    five = py + ["sweep", str(content), "--speeds", "100,1K,10K,100K,1M", "--out"]
    hundred = pair["sweep of 100 speeds"].commands[0]
    for name, command, out in [
        ("sweep of 5, processes together", five + [str(work / "m5")], work / "m5"),
        ("sweep of 100, processes together", hundred, work / "s100"),
    ]:
        shutil.rmtree(out, ignore_errors=True)
        row = Row(name, [command], work)
        row.peak.append(peak_together(command, work, env))
        pair[name] = row
    return pair


def ratio(rows: dict[str, Row], top: str, bottom: str) -> float | None:
    if top not in rows or bottom not in rows:
        return None
    pairs = zip(rows[top].times, rows[bottom].times, strict=True)
    return statistics.median(a / b for a, b in pairs)


def report(
    rows: dict[str, Row], runs: int, together: int, inside: list[float], big: dict[str, Row]
) -> None:
    import matplotlib
    import pptx
    import reportlab

    print(
        f"\ndeckgen benchmark: {runs} rounds, medians; {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, matplotlib {matplotlib.__version__}, "
        f"python-pptx {pptx.__version__}, reportlab {reportlab.Version}\n"
    )
    alternative = "alternative: chart script + pandoc"
    cold = "cold build (every file)"
    paired = "cold build (paired with the sweep of 100)"
    five, hundred = "sweep of 5, processes together", "sweep of 100, processes together"
    # Each row's target: (what is compared, its value, the limit, the unit).
    Target = tuple[str, float | None, float, str]
    targets: dict[str, Target] = {
        cold: ("x the alternative", ratio(rows, cold, alternative), 0.8, "x"),
        # in a fresh process, no slower than a cold build
        "rebuild after a prose-only change": (
            "x a cold build", ratio(rows, "rebuild after a prose-only change", cold), 1.0, "x"),
        "deckgen table": ("s", None, 0.25, "s"),
        "deckgen check": ("s", None, 0.25, "s"),
        "deckgen --help": ("s", None, 0.15, "s"),
        "sweep of 100 speeds": (
            "x one build", ratio(big, "sweep of 100 speeds", paired), 30.0, "x"),
    }
    print(f"| {'what':<42} | {'median s':>8} | {'min s':>6} | {'max s':>6} | {'peak MiB':>8} "
          f"| {'reached':>8} | {'target':>8} | ok |")
    print(f"|{'-' * 44}|{'-' * 9}:|{'-' * 7}:|{'-' * 7}:|{'-' * 9}:|{'-' * 9}:|{'-' * 9}:|----|")

    def line(name: str, times: list[float], peak: list[int]) -> None:
        median = statistics.median(times) if times else None
        cells = [f"{median:.3f}" if median is not None else "-",
                 f"{min(times):.3f}" if times else "-", f"{max(times):.3f}" if times else "-",
                 f"{max(peak) / MIB:.1f}" if peak else "-"]
        reached, target, ok = "-", "-", "-"
        if name in targets:
            _, value, limit, unit = targets[name]
            value = median if value is None else value
            if value is not None:
                reached, target = f"{value:.2f} {unit}", f"{limit:g} {unit}"
                ok = "yes" if value <= limit else "NO"
        print(f"| {name:<42} | {cells[0]:>8} | {cells[1]:>6} | {cells[2]:>6} | {cells[3]:>8} "
              f"| {reached:>8} | {target:>8} | {ok:<2} |")

    for name, row in rows.items():
        line(name, row.times, row.peak)
    targets["build --watch, the rebuild itself"] = ("s", None, 0.4, "s")
    line("build --watch, the rebuild itself", inside, [])
    for name, row in big.items():
        line(name, row.times, row.peak)

    peak = max(rows[cold].peak) / MIB
    flat = big[hundred].peak[0] / max(big[five].peak[0], 1)
    checks = [
        ("peak memory of one build", peak, 200.0, "MiB"),
        ("  its processes together", together / MIB, 200.0, "MiB"),
        ("sweep of 100 / sweep of 5, peak memory", flat, 1.25, "x"),
        ("picture rebuild / picture cold build",
         ratio(rows, "rebuild, --charts picture (pictures kept)",
               "cold build, --charts picture"), None, "x"),
        ("handout alone / alternative",
         ratio(rows, "cold build, handout alone", alternative), None, "x"),
        ("deck alone / alternative", ratio(rows, "cold build, deck alone", alternative), None, "x"),
    ]
    print(
        "\nPeak memory: the largest single process (wait4); 'processes together' adds the\n"
        "proportional memory (PSS) of a command's processes, sampled every 5 ms while they run.\n"
        "'Flat' memory for a sweep: 100 speeds take at most 1.25x the memory of 5."
    )
    print(f"\n| {'target':<40} | {'reached':>10} | {'at most':>8} | ok |")
    print(f"|{'-' * 42}|{'-' * 11}:|{'-' * 9}:|----|")
    for name, value, limit, unit in checks:
        if value is None or (unit == "MiB" and not value):
            continue
        shown = f"{value:.2f} {unit}"
        bound = f"{limit:g} {unit}" if limit is not None else "-"
        ok = "-" if limit is None else ("yes" if value <= limit else "NO")
        print(f"| {name:<40} | {shown:>10} | {bound:>8} | {ok:<2} |")


if __name__ == "__main__":
    main()
