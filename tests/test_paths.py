"""Paths: bad templates, an output folder the machine refuses, and names that stay in their folder.

The corpus (test_bad_inputs.py) covers a template that is a folder, missing, not a zip, a
corrupt zip or a zip without a presentation, and an output folder that is a file. Here: the
same templates through `deckgen layouts`, a read-only output folder in a real process (as
root, permission bits stop nothing, so the process is made to meet the real OSError), file
names that never leave the output folder, and links that are replaced, never written through.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli, run_in
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import build, source
from deckgen.errors import InputError, OutputError

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
VALID = CORPUS / "_valid.yaml"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("template, message", [
    (".", "is a folder, not a .pptx template"),
    ("no_such.pptx", "cannot be read: No such file or directory"),
    ("template_not_pptx.pptx", "is not a PowerPoint .pptx file (File is not a zip file)"),
    ("template_corrupt.pptx", "is not a PowerPoint .pptx file (File is not a zip file)"),
    ("template_plain_zip.pptx", "is not a PowerPoint .pptx file"),
])
def test_layouts_refuses_a_bad_template_in_one_line(template: str, message: str) -> None:
    run = run_in("layouts", template, cwd=CORPUS)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith(f"{template}: {message}") and run.stderr.count("\n") == 1


# A process whose output folder refuses every new file, as a read-only mount would.
_READ_ONLY = '''
import errno, os, tempfile
_real = tempfile.mkstemp
def _refuse(*args, dir=None, **kwargs):
    if dir is not None and os.path.realpath(dir).startswith(os.environ["DECKGEN_TEST_READ_ONLY"]):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), dir)
    return _real(*args, dir=dir, **kwargs)
tempfile.mkstemp = _refuse
'''


def test_a_read_only_output_folder_exits_1_and_keeps_earlier_files(tmp_path: Path) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_READ_ONLY, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "million-tokens-1M.pptx").write_bytes(b"an earlier deck")
    (out / "million-tokens-1M.pdf").write_bytes(b"an earlier handout")
    before = snapshot(out)
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])),
           "DECKGEN_TEST_READ_ONLY": str(out.resolve())}
    run = run_cli("build", str(VALID), "--out", str(out), "--only", "deck,handout", env=env)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.splitlines()[-1].endswith(
        "cannot write: the file system is read-only; earlier files were left as they were")
    assert snapshot(out) == before


def test_an_unreadable_content_file_is_a_clean_error(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "content.yaml"
    path.write_text(VALID.read_text(encoding="utf-8"), encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr("builtins.open", refuse)
    with pytest.raises(InputError) as caught:
        source.read(path)
    assert caught.value.lines() == [f"{path}: the content file cannot be read (permission denied)"]


def test_a_content_file_on_a_failing_disk_is_an_environment_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "content.yaml"
    path.write_text("meta: {}\n", encoding="utf-8")

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, "Input/output error", str(path))

    monkeypatch.setattr("builtins.open", fail)
    with pytest.raises(OutputError) as caught:
        source.read(path)
    assert caught.value.exit_code == 1
    assert caught.value.lines() == [f"{path}: cannot read: Input/output error"]


_CONTENT, _ = source.parse(VALID.read_text(encoding="utf-8"), "_valid.yaml")
_speeds = st.fractions(min_value=Fraction(1, 1000), max_value=10**12, max_denominator=1000)
_checks = st.one_of(st.just(Fraction(0)), st.fractions(min_value=Fraction(1, 1000),
                                                       max_value=366 * 86400, max_denominator=1000))


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(_speeds, _checks, st.booleans())
def test_output_names_never_leave_the_output_folder(speed: Fraction, check: Fraction,
                                                   with_check: bool) -> None:
    dial = replace(_CONTENT.dial, speed=speed, slow_speed=Fraction(1, 1000), fixed_check=check)
    content = replace(_CONTENT, dial=dial)
    name = build.stem(content, with_check)
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]*", name) and ".." not in name, name
    out = Path("/some/out")
    assert (out / f"{name}.pptx").parent == out


def test_a_link_in_the_output_folder_is_replaced_not_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "keep.txt"
    victim.write_bytes(b"not deckgen's file")
    out = tmp_path / "out"
    out.mkdir()
    (out / "million-tokens-1M.pdf").symlink_to(victim)
    run = run_in("build", str(VALID), "--out", str(out), "--only", "handout")
    assert run.returncode == 0, run.stderr
    assert victim.read_bytes() == b"not deckgen's file"
    written = out / "million-tokens-1M.pdf"
    assert not written.is_symlink() and written.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
