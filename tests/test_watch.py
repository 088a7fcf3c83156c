"""`deckgen build --watch`: a change rebuilds; a bad edit is reported and the watch goes on."""

from __future__ import annotations

import hashlib
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT

from deckgen import watch
from deckgen.errors import InputError, Problem


class Script:
    """A fake clock for `watch`: each sleep may run the next scripted edit."""

    def __init__(self, edits: dict[int, object]) -> None:
        self.edits = edits
        self.sleeps = 0

    def sleep(self, _seconds: float) -> None:
        self.sleeps += 1
        edit = self.edits.get(self.sleeps)
        if callable(edit):
            edit()


def watched(tmp_path: Path, name: str = "content.yaml") -> Path:
    path = tmp_path / name
    path.write_text("first\n", encoding="utf-8")
    return path


def test_a_change_triggers_one_rebuild(tmp_path: Path) -> None:
    path = watched(tmp_path)
    builds: list[str] = []
    said: list[str] = []
    script = Script({3: lambda: path.write_text("second, longer\n", encoding="utf-8")})

    def rebuild() -> list[Path]:
        builds.append(path.read_text(encoding="utf-8"))
        return [tmp_path / "out.pdf"]

    count = watch.watch(
        [path],
        rebuild,
        sleep=script.sleep,
        stop=lambda: script.sleeps >= 12,
        say=said.append,
        complain=said.append,
    )
    assert count == 2
    assert builds == ["first\n", "second, longer\n"]
    assert said[0] == str(tmp_path / "out.pdf")
    assert f"{path} changed: building" in said
    assert said.count(str(tmp_path / "out.pdf")) == 2


def test_no_change_no_rebuild(tmp_path: Path) -> None:
    path = watched(tmp_path)
    script = Script({})
    count = watch.watch(
        [path], lambda: [], sleep=script.sleep, stop=lambda: script.sleeps >= 20, say=lambda _: None
    )
    assert count == 1
    assert script.sleeps == 20


def test_same_size_rewrite_and_replacement_by_rename_count_as_changes(tmp_path: Path) -> None:
    path = watched(tmp_path)
    other = tmp_path / "saved-by-editor.tmp"

    def same_size() -> None:
        path.write_text("FIRST\n", encoding="utf-8")
        os.utime(path, ns=(1, 1))  # even with an old timestamp: the change time still moves

    def rename() -> None:
        other.write_text("third\n", encoding="utf-8")
        os.replace(other, path)

    script = Script({2: same_size, 8: rename})
    builds: list[str] = []
    watch.watch(
        [path],
        lambda: builds.append(path.read_text(encoding="utf-8")) or [],
        sleep=script.sleep,
        max_builds=3,
        say=lambda _: None,
    )
    assert builds == ["first\n", "FIRST\n", "third\n"]


def test_a_template_change_triggers_a_rebuild(tmp_path: Path) -> None:
    content = watched(tmp_path)
    template = watched(tmp_path, "brand.pptx")
    said: list[str] = []
    script = Script({2: lambda: template.write_bytes(b"new template")})
    count = watch.watch(
        [content, template], lambda: [], sleep=script.sleep, max_builds=2, say=said.append
    )
    assert count == 2
    assert f"{template} changed: building" in said


def test_waits_until_an_edit_stands_still(tmp_path: Path) -> None:
    """An editor writing in three steps gives one build, of the finished file."""
    path = watched(tmp_path)
    script = Script(
        {
            2: lambda: path.write_text("par", encoding="utf-8"),
            3: lambda: path.write_text("partly", encoding="utf-8"),
            4: lambda: path.write_text("partly done\n", encoding="utf-8"),
        }
    )
    builds: list[str] = []
    count = watch.watch(
        [path],
        lambda: builds.append(path.read_text(encoding="utf-8")) or [],
        sleep=script.sleep,
        stop=lambda: script.sleeps >= 15,
        say=lambda _: None,
    )
    assert count == 2
    assert builds == ["first\n", "partly done\n"]


def test_a_failed_build_is_reported_and_the_watch_goes_on(tmp_path: Path) -> None:
    path = watched(tmp_path)
    said: list[str] = []
    complaints: list[str] = []
    calls = {"n": 0}

    def rebuild() -> list[Path]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise InputError(
                [Problem("must be a speed, got 'fast'", str(path), 3, 10, "dial.speed")]
            )
        if calls["n"] == 3:
            raise RuntimeError("a renderer bug")
        return [tmp_path / "deck.pptx"]

    script = Script(
        {
            2: lambda: path.write_text("bad\n", encoding="utf-8"),
            6: lambda: path.write_text("also bad\n", encoding="utf-8"),
            10: lambda: path.write_text("good again\n", encoding="utf-8"),
        }
    )
    count = watch.watch(
        [path],
        rebuild,
        sleep=script.sleep,
        max_builds=4,
        say=said.append,
        complain=complaints.append,
    )
    assert count == 4
    assert complaints == [
        f"{path}:3:10: dial.speed: must be a speed, got 'fast'",
        "build failed; the last good files stay in place",
        "build failed: RuntimeError: a renderer bug; the last good files stay in place",
    ]
    assert said.count(str(tmp_path / "deck.pptx")) == 2


def test_a_deleted_content_file_is_a_failed_build_not_the_end(tmp_path: Path) -> None:
    path = watched(tmp_path)
    complaints: list[str] = []

    def rebuild() -> list[Path]:
        if not path.exists():
            raise InputError(Problem("no such content file", str(path)))
        return []

    script = Script({2: path.unlink, 6: lambda: path.write_text("back\n", encoding="utf-8")})
    count = watch.watch(
        [path],
        rebuild,
        sleep=script.sleep,
        max_builds=3,
        say=lambda _: None,
        complain=complaints.append,
    )
    assert count == 3
    assert complaints[0] == f"{path}: no such content file"


def test_ctrl_c_ends_the_watch_cleanly(tmp_path: Path) -> None:
    path = watched(tmp_path)
    said: list[str] = []

    def interrupt() -> None:
        raise KeyboardInterrupt

    script = Script({3: interrupt})
    with pytest.raises(SystemExit) as stopped:
        watch.watch([path], lambda: [], sleep=script.sleep, say=said.append)
    assert stopped.value.code == 130  # Ctrl-C's own status, as for every other command
    assert said[-1] == "stopped watching"


# --- The real command, in its own process -------------------------------------------------


class Running:
    """A command's output lines as they come, read by threads so a wait can time out."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            args,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        self.seen: list[tuple[str, str]] = []
        self.pumps = [
            threading.Thread(target=self._pump, args=(name, stream), daemon=True)
            for name, stream in (("out", self.process.stdout), ("err", self.process.stderr))
        ]
        for pump in self.pumps:
            pump.start()

    def _pump(self, name: str, stream) -> None:  # type: ignore[no-untyped-def]
        with stream:
            for line in stream:
                self.lines.put((name, line.rstrip("\n")))

    def stop(self) -> int:
        """Ctrl-C, then the exit status once every line was read."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=60)
        for pump in self.pumps:
            pump.join(timeout=10)
        return code

    def wait_for(self, name: str, prefix: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                got = self.lines.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(got)
            if got[0] == name and got[1].startswith(prefix):
                return got[1]
        raise AssertionError(f"no {name} line starting {prefix!r}; saw {self.seen}")


def digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


@pytest.mark.slow
def test_the_real_command_rebuilds_survives_a_bad_edit_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    content = tmp_path / "content.yaml"
    shutil.copyfile(DEFAULT_CONTENT, content)
    out = tmp_path / "out"
    running = Running(
        [sys.executable, "-m", "deckgen", "build", str(content), "--out", str(out), "--watch"],
        cwd=Path(DEFAULT_CONTENT).parent,
    )
    try:
        running.wait_for("out", "built in ")
        running.wait_for("out", "watching ")
        first = digest(out)
        assert sorted(first) == ["million-tokens-1M-notes.pdf", "million-tokens-1M-slides.pdf",
                                 "million-tokens-1M.html", "million-tokens-1M.pdf",
                                 "million-tokens-1M.pptx"]

        text = content.read_text(encoding="utf-8")
        assert "presenter: Your name here" in text
        content.write_text(
            text.replace("presenter: Your name here", "presenter: Ada Lovelace"), encoding="utf-8"
        )
        running.wait_for("out", f"{content} changed: building")
        running.wait_for("out", "built in ")
        second = digest(out)
        assert second["million-tokens-1M.pptx"] != first["million-tokens-1M.pptx"]
        assert second["million-tokens-1M.html"] != first["million-tokens-1M.html"]  # its byline

        bad = text.replace("  speed: 1M\n", "  speed: fast\n", 1)
        assert bad != text
        content.write_text(bad, encoding="utf-8")
        at = bad[:bad.index("  speed: fast\n")].count("\n") + 1
        line = running.wait_for("err", f"{content}:{at}:")
        assert "dial.speed:" in line and "'fast'" in line
        running.wait_for("err", "build failed; the last good files stay in place")
        assert digest(out) == second

        content.write_text(text, encoding="utf-8")  # fixed: the watch is still there
        running.wait_for("out", "built in ")
        assert digest(out) == first  # the same input, the same bytes
    finally:
        code = running.stop()
    running.wait_for("out", "stopped watching", timeout=10)
    assert code == 130
    assert not [p for p in out.rglob(".deckgen-*") if p.is_file()]
