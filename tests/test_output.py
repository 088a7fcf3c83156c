"""Nothing lost: a write replaces every file or none, and leaves no temporary file behind."""

from __future__ import annotations

import errno
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT, run_in

from deckgen import output
from deckgen.errors import InputError, OutputError, Problem, RenderError
from deckgen.output import journal

OLD = {"talk.pptx": b"old deck " * 1000, "talk.pdf": b"old handout " * 1000}
NEW = {"talk.pptx": b"new deck " * 3000, "talk.pdf": b"new handout " * 3000}


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (the chart cache aside) with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".deckgen-cache" not in p.parts
    }


def leftovers(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob(f"{journal.PREFIX}*") if p.is_file()]


@pytest.fixture
def earlier(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    for name, data in OLD.items():
        (folder / name).write_bytes(data)
    return folder


def targets(folder: Path, files: dict[str, bytes] = NEW) -> dict[Path, bytes]:
    return {folder / name: data for name, data in files.items()}


class Failing(io.RawIOBase):
    """A file that accepts `room` bytes and then raises `error` (a disk filling up midway)."""

    def __init__(self, fd: int, room: int, error: BaseException) -> None:
        self.fd, self.room, self.error = fd, room, error

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
        if len(data) > self.room:
            os.write(self.fd, bytes(data[: self.room]))
            self.room = 0
            raise self.error
        self.room -= len(data)
        return os.write(self.fd, bytes(data))

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def fail_on_file(monkeypatch: pytest.MonkeyPatch, number: int, error: BaseException) -> None:
    """Make the writer's `number`-th file (1-based) fail halfway through its bytes."""
    opened = {"count": 0}
    real = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args, **kwargs):  # type: ignore[no-untyped-def]
        opened["count"] += 1
        if opened["count"] == number:
            return Failing(fd, 5000, error)
        return real(fd, mode, *args, **kwargs)

    monkeypatch.setattr(output.os, "fdopen", fdopen)


def test_writes_every_file_and_no_temporary(tmp_path: Path) -> None:
    written = output.write_all(targets(tmp_path / "new" / "folder"))
    assert [p.name for p in written] == list(NEW)
    assert snapshot(tmp_path / "new" / "folder") == NEW
    assert leftovers(tmp_path) == []
    assert all((p.stat().st_mode & 0o777) == 0o644 for p in written)


def test_replaces_earlier_files(earlier: Path) -> None:
    output.write_all(targets(earlier))
    assert snapshot(earlier) == NEW
    assert leftovers(earlier) == []


@pytest.mark.parametrize("number", [1, 2])
def test_full_disk_midway_keeps_earlier_files(
    earlier: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    fail_on_file(monkeypatch, number, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(OutputError) as caught:
        output.write_all(targets(earlier))
    assert snapshot(earlier) == OLD
    assert leftovers(earlier) == []
    [line] = caught.value.lines()
    name = list(NEW)[number - 1]
    assert (
        line
        == f"{earlier / name}: cannot write: the disk is full; earlier files were left as they were"
    )


@pytest.mark.parametrize("number", [1, 2])
def test_interrupt_midway_keeps_earlier_files(
    earlier: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    fail_on_file(monkeypatch, number, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        output.write_all(targets(earlier))
    assert snapshot(earlier) == OLD
    assert leftovers(earlier) == []


def test_interrupt_when_nothing_was_there_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_on_file(monkeypatch, 2, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        output.write_all(targets(tmp_path))
    assert snapshot(tmp_path) == {}


@pytest.mark.parametrize("error", [OSError(errno.EIO, "Input/output error"), KeyboardInterrupt()])
def test_failed_rename_puts_the_first_file_back(
    earlier: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    """The second rename fails after the first file was already replaced: the first comes back."""
    real = os.replace
    calls = {"into place": 0}

    def replace(src, dst):  # type: ignore[no-untyped-def]
        if Path(src).name.endswith(".tmp"):
            calls["into place"] += 1
            if calls["into place"] == 2:
                raise error
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", replace)
    with pytest.raises((OutputError, KeyboardInterrupt)):
        output.write_all(targets(earlier))
    assert calls["into place"] == 2
    assert snapshot(earlier) == OLD
    assert leftovers(earlier) == []


def test_failed_rename_removes_a_new_file_that_had_no_predecessor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.replace
    calls = {"into place": 0}

    def replace(src, dst):  # type: ignore[no-untyped-def]
        calls["into place"] += 1
        if calls["into place"] == 2:
            raise OSError(errno.EIO, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", replace)
    with pytest.raises(OutputError):
        output.write_all(targets(tmp_path))
    assert snapshot(tmp_path) == {}


def test_ctrl_c_during_the_swap_waits_until_both_files_are_in_place(
    earlier: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real SIGINT arriving between the two renames: both new files land, then it interrupts."""
    real = os.replace
    sent = []

    def replace(src, dst):  # type: ignore[no-untyped-def]
        result = real(src, dst)
        if not sent and Path(src).name.endswith(".tmp"):
            sent.append(dst)
            signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(output.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        output.write_all(targets(earlier))
    assert sent
    assert snapshot(earlier) == NEW
    assert leftovers(earlier) == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_output_folder_that_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_bytes(b"not a folder")
    with pytest.raises(InputError) as caught:
        output.write_all(targets(blocker))
    assert caught.value.lines() == [f"{blocker}: --out: the output folder is a file, not a folder"]
    assert blocker.read_bytes() == b"not a folder"
    with pytest.raises(InputError):
        output.write_all(targets(blocker / "deeper"))


def test_a_folder_where_a_file_goes(earlier: Path) -> None:
    (earlier / "talk.pdf").unlink()
    (earlier / "talk.pdf").mkdir()
    with pytest.raises(InputError):
        output.write_all(targets(earlier))
    assert (earlier / "talk.pptx").read_bytes() == OLD["talk.pptx"]
    assert leftovers(earlier) == []


# --- A real read-only folder and a real full disk ------------------------------------------


def _can_mount(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        return False
    ok = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)], capture_output=True
        ).returncode
        == 0
    )
    if ok:
        subprocess.run(["umount", str(probe)], capture_output=True)
    return ok


@pytest.fixture(params=["permission bits", "read-only mount", "immutable folder"])
def read_only(request: pytest.FixtureRequest, tmp_path: Path):
    """A function that makes a folder read-only for real, and undoes it after the test.

    Root ignores permission bits, so as root the folder becomes a tmpfs remounted
    read-only, or gets the immutable attribute (chattr +i); each way is skipped where
    this machine does not allow it.
    """
    how: str = request.param
    undo: list[list[str]] = []

    def make(folder: Path) -> str:
        root = os.geteuid() == 0
        if how == "permission bits":
            if root:
                pytest.skip("root ignores permission bits")
            folder.chmod(0o555)
            undo.append(["chmod", "755", str(folder)])
        elif how == "read-only mount":
            if not _can_mount(tmp_path):
                pytest.skip("cannot mount a tmpfs here (needs root and mount)")
            keep = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)], check=True
            )
            undo.append(["umount", str(folder)])
            for name, data in keep.items():
                (folder / name).write_bytes(data)
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            if (
                not root
                or shutil.which("chattr") is None
                or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode
                != 0
            ):
                pytest.skip(
                    "chattr +i is not available here (needs root on ext2/3/4, xfs or btrfs)"
                )
            undo.append(["chattr", "-i", str(folder)])
        return how

    yield make
    for command in reversed(undo):
        subprocess.run(command, capture_output=True)


def test_read_only_folder_keeps_earlier_files(earlier: Path, read_only) -> None:  # type: ignore[no-untyped-def]
    how = read_only(earlier)
    with pytest.raises(OutputError) as caught:
        output.write_all(targets(earlier))
    [line] = caught.value.lines()
    assert line.startswith(f"{earlier / 'talk.pptx'}: cannot write: "), how
    assert line.endswith("; earlier files were left as they were")
    assert snapshot(earlier) == OLD
    assert leftovers(earlier) == []


def test_real_full_disk_keeps_earlier_files(tmp_path: Path) -> None:
    if not _can_mount(tmp_path):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], check=True)
    try:
        for name, data in OLD.items():
            (disk / name).write_bytes(data)
        big = {"talk.pptx": b"d" * 100_000, "talk.pdf": b"h" * 400_000}
        with pytest.raises(OutputError) as caught:
            output.write_all(targets(disk, big))
        assert "the disk is full" in str(caught.value)
        assert snapshot(disk) == OLD
        assert leftovers(disk) == []
    finally:
        subprocess.run(["umount", str(disk)], check=True)


# --- Whole builds: a failed build leaves the earlier deck and handout as they were ----------

BUILT = ["million-tokens-1M.pdf", "million-tokens-1M.pptx"]


@pytest.fixture
def last_good(default_build: Path, tmp_path: Path) -> Path:
    """An output folder holding an earlier build's deck and handout."""
    folder = tmp_path / "out"
    folder.mkdir()
    for name in BUILT:
        shutil.copyfile(default_build / name, folder / name)
    return folder


def assert_untouched(folder: Path, default_build: Path) -> None:
    assert snapshot(folder) == {name: (default_build / name).read_bytes() for name in BUILT}
    assert leftovers(folder) == []


def test_bad_input_keeps_the_last_good_files(
    last_good: Path, default_build: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "content.yaml"
    bad.write_text(
        DEFAULT_CONTENT.read_text(encoding="utf-8").replace("  speed: 1M\n", "  speed: 1Z\n", 1),
        encoding="utf-8",
    )
    run = run_in("build", str(bad), "--out", str(last_good))
    assert run.returncode == 2
    [line] = run.stderr.splitlines()
    assert line.startswith(f"{bad}:") and "dial.speed:" in line and "'1Z'" in line
    assert run.stdout == ""
    assert_untouched(last_good, default_build)


def test_output_folder_that_is_a_file_exits_2_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("notes", encoding="utf-8")
    run = run_in("build", str(DEFAULT_CONTENT), "--out", str(blocker))
    assert run.returncode == 2
    assert run.stderr == f"{blocker}: --out: the output folder is a file, not a folder\n"
    assert blocker.read_text(encoding="utf-8") == "notes"


def test_read_only_folder_exits_1_and_keeps_the_last_good_files(
    last_good: Path, default_build: Path, read_only
) -> None:  # type: ignore[no-untyped-def]
    read_only(last_good)
    run = run_in("build", str(DEFAULT_CONTENT), "--out", str(last_good), "--only", "deck,handout")
    assert run.returncode == 1, run.stderr
    [line] = run.stderr.splitlines()
    assert line.startswith(f"{last_good / 'million-tokens-1M.pptx'}: cannot write: ")
    assert line.endswith("; earlier files were left as they were")
    assert_untouched(last_good, default_build)


def test_full_disk_exits_1_and_keeps_the_last_good_files(
    default_build: Path, tmp_path: Path
) -> None:
    if not _can_mount(tmp_path):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    disk = tmp_path / "disk"
    disk.mkdir()
    room = sum((default_build / n).stat().st_size for n in BUILT) + 64 * 1024
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={room}", "tmpfs", str(disk)], check=True)
    try:
        for name in BUILT:
            shutil.copyfile(default_build / name, disk / name)
        run = run_in("build", str(DEFAULT_CONTENT), "--out", str(disk), "--only", "deck,handout")
        assert run.returncode == 1, run.stderr
        [line] = run.stderr.splitlines()
        assert line.endswith(
            ": cannot write: the disk is full; earlier files were left as they were"
        )
        assert_untouched(disk, default_build)
    finally:
        subprocess.run(["umount", str(disk)], check=True)


@pytest.mark.parametrize("parallel", [True, False])
def test_a_render_error_writes_nothing(
    last_good: Path, default_build: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    """The handout fails (in its own process when parallel) after the deck was drawn."""
    from deckgen import build, pipeline

    def broken(*_args):  # type: ignore[no-untyped-def]
        raise RenderError(Problem("the chart could not be converted for the handout"))

    monkeypatch.setattr(pipeline, "_deck", lambda *_args: pipeline.Drawn(b"a new deck"))
    monkeypatch.setattr(pipeline, "_handout", broken)
    with pytest.raises(RenderError) as caught:
        pipeline.build(DEFAULT_CONTENT, build.Options(out=last_good, only=("deck", "handout")),
                       parallel=parallel)
    assert caught.value.lines() == ["the chart could not be converted for the handout"]
    assert_untouched(last_good, default_build)


def test_an_interrupt_while_the_handout_process_runs(
    last_good: Path, default_build: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl-C in the middle of drawing: the handout's process is ended (its renderer never
    returns), no process is left behind, and nothing is written."""
    from deckgen import build, forking, pipeline

    if not forking.available():
        pytest.skip("needs two cores and fork")
    returned = tmp_path / "slow handout returned"
    ready_read, ready_write = os.pipe()  # the child says its pid once it is drawing
    child: list[int] = []

    def slow_handout(*_args):  # type: ignore[no-untyped-def]
        os.write(ready_write, f"{os.getpid()}\n".encode())
        time.sleep(30)  # ended by the parent long before this
        returned.write_text("the parent waited for the handout")
        return pipeline.Drawn(b"never")

    def interrupted_deck(*_args):  # type: ignore[no-untyped-def]
        os.close(ready_write)  # the child holds its own copy: end of file if it dies first
        with os.fdopen(ready_read, "rb") as ready:
            child.append(int(ready.readline()))
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_deck", interrupted_deck)
    monkeypatch.setattr(pipeline, "_handout", slow_handout)
    with pytest.raises(KeyboardInterrupt):
        pipeline.build(DEFAULT_CONTENT, build.Options(out=last_good), parallel=True)
    assert child and child[0] != os.getpid()  # the slow handout ran, in another process
    assert not returned.exists()  # the child was stopped mid-drawing, not waited for
    with pytest.raises(ProcessLookupError):
        os.kill(child[0], 0)  # the child is gone (and reaped)
    assert_untouched(last_good, default_build)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left behind


def _children(pid: int) -> list[str]:
    try:
        return (Path(f"/proc/{pid}/task/{pid}/children")).read_text().split()
    except OSError:
        return []


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_during_a_real_build(last_good: Path, default_build: Path, signum: int) -> None:
    """Ctrl-C (or a polite kill) once the build has forked: exit 130, one line, the last good
    files, no temporary file and no chart cache entry (nothing of a failed build is kept)."""
    from deckgen import forking

    if not Path("/proc/self/task").is_dir() or forking.cores() < 2:
        pytest.skip("needs /proc and two cores to see the build's handout process start")
    # The real command in a process of its own, with the deck's drawing held for a while so
    # the signal comes while the build draws however fast the machine is (a build takes less
    # than half a second: without the hold it could end before the signal lands).
    held = ("import sys, time\n"
            "from deckgen import cli, pipeline\n"
            "draw = pipeline._deck\n"
            "def held(*args, **kwargs):\n"
            "    time.sleep(30)\n"
            "    return draw(*args, **kwargs)\n"
            "pipeline._deck = held\n"
            "sys.argv[0] = 'deckgen'\n"
            "cli.main()\n")
    process = subprocess.Popen(
        [sys.executable, "-c", held, "build", str(DEFAULT_CONTENT), "--out", str(last_good)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not _children(process.pid):
        time.sleep(0.002)  # the forked process appears as the slides are laid out
    assert _children(process.pid), "the build never started drawing"
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert err == "interrupted; earlier files were left as they were\n"
    assert_untouched(last_good, default_build)
    assert not (last_good / ".deckgen-cache").exists()


def test_a_failed_build_does_not_even_make_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckgen import build, pipeline

    def broken(*_args):  # type: ignore[no-untyped-def]
        raise InputError(Problem("slide 6: the story does not fit"))

    monkeypatch.setattr(pipeline, "_deck", broken)
    out = tmp_path / "talks" / "out"
    with pytest.raises(InputError):
        pipeline.build(DEFAULT_CONTENT, build.Options(out=out, only="deck"), parallel=False)
    assert list(tmp_path.iterdir()) == []


def test_a_file_above_the_output_folder(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("x", encoding="utf-8")
    out = tmp_path / "notes" / "out"
    with pytest.raises(InputError) as caught:
        output.guard(out)
    assert caught.value.lines() == [f"{out}: --out: a part of the output folder's path is a file"]
    output.guard(tmp_path / "new" / "folder")  # missing folders are fine: made when writing
    assert not (tmp_path / "new").exists()
