"""Attacks on what deckgen writes: its journal (planted, linked, nested, damaged), a swap that
fails and whose roll-back fails too, and `init --force` over what is not a regular file."""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import VALID, files, run_in, snapshot
from test_transaction import leftovers, on_disk, which_build

from deckgen import output
from deckgen.errors import InputError, OutputError
from deckgen.output import journal

ROOT_USER = os.geteuid() == 0


DAMAGED = "a damaged journal of an interrupted write is in the way; remove it (the files beside " \
          "it are each whole)"


@pytest.mark.parametrize("damaged", [
    b"[" * 100_000 + b"]" * 100_000,  # a RecursionError on every later build before
    b'{"files": ' + b"[" * 50 + b"]" * 50 + b"}",
    b"{" * 10,
    b"x" * 2_000_000,
    b'{"files": [{"target": "../x", "new": ".deckgen-a.tmp", "old": null}]}',
    b'{"files": 7}',
])
def test_a_damaged_journal_is_one_line_and_touches_nothing(earlier: Path,
                                                           damaged: bytes) -> None:
    (earlier / journal.JOURNAL).write_bytes(damaged)
    before = on_disk(earlier)
    with pytest.raises(InputError) as caught:
        output.write_all(files(earlier, "B"))
    assert caught.value.lines() == [f"{earlier / journal.JOURNAL}: {DAMAGED}"]
    assert on_disk(earlier) == before


def test_a_damaged_journal_is_said_alongside_every_other_problem(tmp_path: Path) -> None:
    """It hid the other input errors before (exit 1, one problem)."""
    shutil.copyfile(VALID, tmp_path / "talk.yaml")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / journal.JOURNAL).write_bytes(b"[" * 100_000)
    before = snapshot(tmp_path)
    run = run_in("build", "talk.yaml", "--out", "out", "--speed", "fast", "--template",
                 "missing.pptx", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 3, run.stderr
    assert lines[0].startswith("--speed: ")
    assert f"out/{journal.JOURNAL}: {DAMAGED}" in lines
    assert lines[2].startswith("missing.pptx: --template: cannot be read")
    assert snapshot(tmp_path) == before


def test_a_journal_that_is_a_link_is_not_followed(earlier: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(json.dumps({"deckgen-journal": 1, "files": []}).encode())
    (earlier / journal.JOURNAL).symlink_to(elsewhere)
    before = on_disk(earlier)
    with pytest.raises(InputError) as caught:
        output.write_all(files(earlier, "B"))
    assert caught.value.lines() == [f"{earlier / journal.JOURNAL}: {DAMAGED}"]
    assert on_disk(earlier) == before
    assert elsewhere.read_bytes() == json.dumps({"deckgen-journal": 1, "files": []}).encode()


@pytest.mark.skipif(not ROOT_USER, reason="planting a file as another user needs root")
def test_a_journal_planted_by_another_user_in_a_sticky_folder_is_refused(
        tmp_path: Path) -> None:
    """Before, deckgen (as the victim) deleted a file the planter could not delete and
    replaced another with the planter's file, even on a build that ended with exit 2."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # /tmp-like: anyone writes, only owners delete
    victim = shared / "talk.pdf"
    victim.write_bytes(b"the victim's handout")
    planted = shared / ".deckgen-evil.tmp"
    planted.write_bytes(b"the planter's file")
    (shared / journal.JOURNAL).write_text(json.dumps({"deckgen-journal": 1, "files": [
        {"target": "talk.pdf", "new": planted.name, "old": None},
        {"target": "notes.txt", "new": ".deckgen-gone.tmp", "old": None}]}), encoding="utf-8")
    (shared / "notes.txt").write_bytes(b"the victim's notes")
    for path in (planted, shared / journal.JOURNAL):
        os.chown(path, 4242, 4242)
    before = snapshot(shared)
    with pytest.raises(InputError) as caught:
        output.write_all({shared / "talk.pptx": b"a deck"})
    assert caught.value.lines() == [
        f"{shared / journal.JOURNAL}: a journal another user left (user id 4242) is in the way; "
        "deckgen acts only on its own: remove it or choose another --out folder"]
    assert snapshot(shared) == before


@pytest.mark.skipif(not ROOT_USER, reason="a folder of another user needs root")
def test_no_journal_is_written_in_a_folder_another_user_owns(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    os.chown(shared, 4242, 4242)
    seen = []
    real = os.replace

    def replace_(src: str, dst: str, **kwargs: int) -> None:
        seen.append(os.path.lexists(shared / journal.JOURNAL))
        real(src, dst, **kwargs)

    os.replace = replace_  # type: ignore[assignment]
    try:
        output.write_all(files(shared, "B"))
    finally:
        os.replace = real
    assert seen and not any(seen)
    assert which_build(shared) == "B"


def _failing(real: Callable[..., None], plan: dict[int, int]) -> Callable[..., None]:
    """os.replace that fails with EIO at the calls numbered in `plan` (1 = the first)."""
    count = [0]

    def replace_(src: str, dst: str, **kwargs: int) -> None:
        count[0] += 1
        if count[0] in plan:
            raise OSError(plan[count[0]], os.strerror(plan[count[0]]))
        real(src, dst, **kwargs)
    return replace_


def test_an_io_error_mid_swap_and_a_failed_roll_back_never_leave_a_mixed_set(
        earlier: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the next run rolled forward over a half roll-back (new deck, old handout) and
    deleted the old deck's only backup."""
    real = os.replace
    # calls: the first new file (1), the second new file (2: fails), then the roll-back: the
    # second old file back (3), the first old file back (4: fails too)
    monkeypatch.setattr(output.os, "replace", _failing(real, {2: errno.EIO, 4: errno.EIO}))
    with pytest.raises(OutputError) as caught:
        output.write_all(files(earlier, "B"))
    assert caught.value.lines() == [
        f"{earlier / 'talk.pdf'}: cannot write, nor put the earlier files back; the next "
        "deckgen build into this folder sets them right"]
    monkeypatch.setattr(output.os, "replace", real)
    assert (earlier / journal.JOURNAL).exists()
    output.recover(earlier)
    assert which_build(earlier) == "A"
    assert leftovers(earlier) == []


def test_a_roll_forward_cut_short_by_an_io_error_is_finished_by_the_next_run(
        earlier: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace
    count = [0]

    def killed(src: str, dst: str, **kwargs: int) -> None:  # a kill after the first rename
        real(src, dst, **kwargs)
        if str(src).endswith(".tmp"):
            count[0] += 1
            if count[0] == 1:
                raise SystemExit("killed")

    monkeypatch.setattr(output.os, "replace", killed)
    monkeypatch.setattr(output, "_no_interrupt", _nothing_held)
    monkeypatch.setattr(journal, "roll_back", lambda *args: None)  # as if the process died
    with pytest.raises(SystemExit):
        output.write_all(files(earlier, "B"))
    assert len({data.split(b" ")[0] for name, data in on_disk(earlier).items()
                if not name.startswith(".")}) == 2  # mixed, until it is set right
    # the roll-forward itself fails after one rename
    monkeypatch.setattr(output.os, "replace", _failing(real, {2: errno.EIO}))
    with pytest.raises(OutputError):
        output.recover(earlier)
    monkeypatch.setattr(output.os, "replace", real)
    output.recover(earlier)
    assert which_build(earlier) == "B"
    assert leftovers(earlier) == []


class _nothing_held:  # noqa: N801 - stands in for the context manager
    def __init__(self, written: list[Path]) -> None:
        pass

    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


# --- init --force replaces regular files only ------------------------------------------------


def test_init_force_over_a_fifo_or_a_device_is_one_line(tmp_path: Path) -> None:
    """As root, `init /dev/null --force` replaced the system's /dev/null with a file."""
    os.mkfifo(tmp_path / "pipe.yaml")
    before = snapshot(tmp_path)
    run = run_in("init", "pipe.yaml", "--force", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == ("pipe.yaml: is a named pipe (FIFO), not a file; init writes a new "
                          "file or, with --force, replaces a regular file only\n")
    assert snapshot(tmp_path) == before
    null = os.stat("/dev/null")
    run = run_in("init", "/dev/null", "--force", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, "/dev/null: is a device, not a file; init writes "
                                               "a new file or, with --force, replaces a "
                                               "regular file only\n")
    assert os.stat("/dev/null").st_ino == null.st_ino
    assert snapshot(tmp_path) == before
