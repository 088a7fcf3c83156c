"""The output folder as a transaction: a lock, a journal, and a swap that the next write
finishes whatever killed the last one, so the files on disk always come from one build."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, NAMES, files, pair, run_in

import deckgen.story
from deckgen import build, output, pipeline
from deckgen.errors import InputError, OutputError
from deckgen.output import journal, lock


def on_disk(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def which_build(folder: Path) -> str:
    """The one build every file on disk came from (fails when they come from several)."""
    found = on_disk(folder)
    tags = {data.split(b" ", 1)[0].decode() for data in found.values()}
    assert len(tags) == 1, f"files from several builds: {sorted(tags)}"
    [tag] = tags
    assert found == pair(tag), "a file is missing, extra or damaged"
    return tag


HOOKED = ("open", "fdopen", "fsync", "link", "replace", "rename", "unlink", "chmod")


def _in_child(work: Callable[[], None], kill_at: int | None) -> tuple[int, bool]:
    """Run `work` in a forked child that SIGKILLs itself at its `kill_at`-th call of a file
    operation (open, write's flush, link, rename, unlink...); returns (calls made, killed)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(reader)
        count = [0]

        def hook(real: Callable[..., object]) -> Callable[..., object]:
            def counted(*args: object, **kwargs: object) -> object:
                count[0] += 1
                if count[0] == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(*args, **kwargs)
            return counted

        for name in HOOKED:
            setattr(os, name, hook(getattr(os, name)))
        try:
            work()
        finally:
            os.write(writer, str(count[0]).encode())
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        said = pipe.read()
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return (int(said) if said else -1), killed


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(journal.PREFIX))


def test_a_write_leaves_the_new_files_and_nothing_else(earlier: Path) -> None:
    output.write_all(files(earlier, "B"))
    assert which_build(earlier) == "B"
    assert leftovers(earlier) == []


def test_the_journal_is_written_before_the_first_rename(
    earlier: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[object] = []
    real = os.replace

    def replace_(src: str, dst: str, **kwargs: int) -> None:
        if Path(src).name.endswith(".tmp"):  # a new file going into place
            record = json.loads((earlier / journal.JOURNAL).read_bytes())
            seen.append(sorted(entry["target"] for entry in record["files"]))
        real(src, dst, **kwargs)

    monkeypatch.setattr(output.os, "replace", replace_)
    output.write_all(files(earlier, "B"))
    assert seen == [sorted(NAMES)] * len(NAMES)
    assert not (earlier / journal.JOURNAL).exists()


def test_a_kill_at_every_step_of_the_swap_is_set_right_by_the_next_write(earlier: Path) -> None:
    """SIGKILL at each file operation of a write, in turn: after each, `recover` leaves one
    build's files (the earlier or the new), and the next write leaves its own, with no
    temporary, backup or journal file left."""
    steps, killed = _in_child(lambda: output.write_all(files(earlier, "B")), None)
    assert not killed and which_build(earlier) == "B"
    assert steps >= 4 * len(NAMES)  # open, flush and rename of each file at least, and more
    outcomes = set()
    for step in range(1, steps + 1):
        shutil.rmtree(earlier)
        earlier.mkdir()
        for path, data in files(earlier, "A").items():
            path.write_bytes(data)
        _, killed = _in_child(lambda: output.write_all(files(earlier, "B")), step)
        assert killed, f"step {step} of {steps} was never reached"
        output.recover(earlier)
        outcomes.add(which_build(earlier))
        assert leftovers(earlier) == [], f"after a kill at step {step}"
        _in_child(lambda: output.write_all(files(earlier, "B")), step)  # killed again
        output.write_all(files(earlier, "C"))  # the next build, without calling recover
        assert which_build(earlier) == "C", f"after a kill at step {step}"
        assert leftovers(earlier) == []
    assert outcomes == {"A", "B"}  # early kills go back, late ones forward


def test_a_kill_between_two_renames_is_finished_by_the_next_deckgen_build(
    earlier: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case that used to leave a new deck beside an old handout: killed after the first
    new file went into place. The next build (whatever it writes) first finishes that swap."""
    renames = {"count": 0}
    real = os.replace

    def work() -> None:
        def replace_(src: str, dst: str, **kwargs: int) -> None:
            real(src, dst, **kwargs)
            if Path(src).name.endswith(".tmp"):
                renames["count"] += 1
                if renames["count"] == 1:
                    os.kill(os.getpid(), signal.SIGKILL)
        os.replace = replace_  # type: ignore[assignment]
        output.write_all(files(earlier, "B"))

    _, killed = _in_child(work, None)
    assert killed
    assert (earlier / journal.JOURNAL).exists()
    assert len({data.split(b" ")[0] for data in on_disk(earlier).values()
                if not data.startswith(b"{")}) == 2  # mixed, until it is set right
    output.guard(earlier)  # what every build does first
    assert which_build(earlier) == "B"
    assert leftovers(earlier) == []


def test_a_damaged_journal_is_one_line_and_nothing_is_touched(earlier: Path) -> None:
    (earlier / journal.JOURNAL).write_text('{"files": [{"target": "../x"}]}', encoding="utf-8")
    before = on_disk(earlier)
    with pytest.raises(InputError) as caught:
        output.write_all(files(earlier, "B"))
    assert caught.value.lines() == [
        f"{earlier / journal.JOURNAL}: a damaged journal of an interrupted write is in the way; "
        "remove it (the files beside it are each whole)"]
    assert on_disk(earlier) == before


def test_nothing_deckgen_did_not_write_is_removed(earlier: Path) -> None:
    keep = {"notes.txt": b"mine", ".deckgen-notes": b"mine too", "x.tmp": b"and this",
            ".deckgen-a.tmp.txt": b"also"}
    for name, data in keep.items():
        (earlier / name).write_bytes(data)
    (earlier / ".deckgen-1a2b3c.tmp").write_bytes(b"a temporary file a killed build left")
    (earlier / ".deckgen-talk.pdf.0011aabb.old").write_bytes(b"a backup a killed build left")
    output.write_all(files(earlier, "B"))
    after = on_disk(earlier)
    assert {name: after[name] for name in keep} == keep
    assert sorted(after) == sorted([*keep, *NAMES])


def test_the_lock_wait_ends_with_one_line(earlier: Path) -> None:
    held_read, held_write = os.pipe()
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child holds the lock until story
        with lock.locked(earlier):
            os.write(held_write, b"held")
            os.read(go_read, 1)
        os._exit(0)
    try:
        assert os.read(held_read, 4) == b"held"
        with pytest.raises(OutputError) as caught, lock.locked(earlier, wait=0.2):
            pass
        assert caught.value.lines() == [
            f"{earlier}: another deckgen has been writing into this folder for 0 s; "
            "try again when it is done"]
    finally:
        os.write(go_write, b"x")
        os.waitpid(pid, 0)
    assert which_build(earlier) == "A"


def _writer(folder: Path, name: str, rounds: int) -> None:
    for number in range(rounds):
        output.write_all(files(folder, f"{name}{number}"))
        time.sleep(0.005)  # between writes, as between builds: the folder's lock is free


def _at_once(works: list[Callable[[], None]], look: Callable[[], None]) -> None:
    """Each of `works` in a forked process of its own, all at once; `look()` runs over and over
    in this process until they are done, and every one of them must end well."""
    children = []
    for work in works:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - a worker
            code = 0
            try:
                work()
            except BaseException:
                code = 1
            os._exit(code)
        children.append(pid)
    running = {pid: -1 for pid in children}
    while any(status == -1 for status in running.values()):
        for pid, status in running.items():
            if status == -1:
                done, code = os.waitpid(pid, os.WNOHANG)
                if done:
                    running[pid] = code
        look()
    assert all(os.WIFEXITED(code) and os.WEXITSTATUS(code) == 0 for code in running.values())


def test_two_writers_into_one_folder_never_mix_their_files(earlier: Path) -> None:
    """Two processes write their files into one folder, many times; a third looks (under the
    lock, as a build does) between writes: every time, all the files come from one write."""
    looks = set()

    def look() -> None:
        with lock.locked(earlier):
            looks.add(which_build(earlier))

    _at_once([lambda name=name: _writer(earlier, name, 40) for name in ("P", "Q")], look)
    assert len(looks) > 1  # the look saw writes of both
    assert which_build(earlier) in {"P39", "Q39"}
    assert leftovers(earlier) == []


def test_two_builds_of_different_content_into_one_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole builds (stub renderers: each file names its content's title), two processes at
    once into one folder, many times: the five files on disk always come from one build."""
    def stub(kind: str, story: deckgen.story.Story) -> pipeline.Drawn:
        return pipeline.Drawn(f"{kind} of {story.meta.title} ".encode() * 500)

    for kind in ("deck", "handout", "page", "slides_pdf", "notes"):
        monkeypatch.setattr(pipeline, f"_{kind}", lambda story, *_, kind=kind: stub(kind, story))
    monkeypatch.setattr(pipeline, "_lay_out", lambda *_: pipeline._Kit())  # no slides planned
    text = DEFAULT_CONTENT.read_text(encoding="utf-8")
    for title in ("First", "Second"):
        (tmp_path / f"{title}.yaml").write_text(
            text.replace("title: A million tokens a second", f"title: {title}"), encoding="utf-8")
    out = tmp_path / "out"
    options = build.Options(out=out)
    seen = set()

    def builds(title: str) -> None:
        for _ in range(25):
            pipeline.build(tmp_path / f"{title}.yaml", options, parallel=False)

    def look() -> None:
        if (out / "million-tokens-1M.pdf").exists():
            with lock.locked(out):
                found = [(out / f"million-tokens-1M{suffix}").read_bytes() for suffix in
                         (".pptx", ".pdf", ".html", "-slides.pdf", "-notes.pdf")]
            titles = {data.split(b" ")[2] for data in found}
            assert len(titles) == 1, [data[:40] for data in found]
            seen.update(titles)

    _at_once([lambda title=title: builds(title) for title in ("First", "Second")], look)
    assert seen <= {b"First", b"Second"} and seen
    assert sorted(p.name for p in out.iterdir()) == [".deckgen",
                                                      "million-tokens-1M-notes.pdf",
                                                      "million-tokens-1M-slides.pdf",
                                                      "million-tokens-1M.html",
                                                      "million-tokens-1M.pdf",
                                                      "million-tokens-1M.pptx"]


def _chattr(flag: str, path: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_an_append_only_folder_is_one_line_and_leaves_nothing(earlier: Path) -> None:
    if not _chattr("+a", earlier):
        pytest.skip("chattr +a is not available here (needs root on ext2/3/4, xfs or btrfs)")
    try:
        before = on_disk(earlier)
        with pytest.raises(OutputError) as caught:
            output.write_all(files(earlier, "B"))
        assert caught.value.lines() == [
            f"{earlier / 'talk.pptx'}: cannot write: the folder is append-only (chattr +a), so "
            "its files cannot be replaced; earlier files were left as they were"]
        assert on_disk(earlier) == before
    finally:
        _chattr("-a", earlier)


@pytest.mark.slow
def test_an_append_only_folder_fails_a_real_build_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "million-tokens-1M.pptx").write_bytes(b"an earlier deck")
    if not _chattr("+a", out):
        pytest.skip("chattr +a is not available here (needs root on ext2/3/4, xfs or btrfs)")
    try:
        run = run_in("build", str(DEFAULT_CONTENT), "--out", str(out), "--only", "deck")
        assert run.returncode == 1
        assert run.stderr == (
            f"{out / 'million-tokens-1M.pptx'}: cannot write: the folder is append-only "
            "(chattr +a), so its files cannot be replaced; earlier files were left as they "
            "were\n")
        assert on_disk(out) == {"million-tokens-1M.pptx": b"an earlier deck"}
    finally:
        _chattr("-a", out)


def test_an_append_only_file_is_refused_before_anything_is_written(earlier: Path) -> None:
    if not _chattr("+a", earlier / "talk.pdf"):
        pytest.skip("chattr +a is not available here (needs root on ext2/3/4, xfs or btrfs)")
    try:
        with pytest.raises(OutputError) as caught:
            output.write_all(files(earlier, "B"))
        assert caught.value.lines() == [
            f"{earlier / 'talk.pdf'}: cannot write: the file is append-only (chattr +a), so "
            "its files cannot be replaced; earlier files were left as they were"]
        assert which_build(earlier) == "A"
    finally:
        _chattr("-a", earlier / "talk.pdf")


def test_ctrl_c_during_the_swap_says_the_new_files_were_written(
    earlier: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.replace
    sent: list[str] = []

    def replace_(src: str, dst: str, **kwargs: int) -> None:
        real(src, dst, **kwargs)
        if not sent and Path(src).name.endswith(".tmp"):
            sent.append(dst)
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(output.os, "replace", replace_)
    with pytest.raises(output.Interrupted) as caught:
        output.write_all(files(earlier, "B"))
    assert caught.value.written == list(files(earlier, "B"))
    assert which_build(earlier) == "B"

    from deckgen import cli

    assert cli._interrupted(caught.value) == 130
