"""The pipeline: every option's problem found before any drawing, all of them at once."""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, run_in

from deckgen import pipeline

CORPUS = Path(__file__).resolve().parent / "bad_inputs"


def test_every_problem_with_the_options_is_reported_together(tmp_path: Path) -> None:
    """A bad speed, a template with no theme and a bad SOURCE_DATE_EPOCH: three lines, one
    run, exit 2, and nothing written (not even the output folder)."""
    out = tmp_path / "out"
    run = run_in("build", str(DEFAULT_CONTENT), "--speed", "fast", "--out", str(out),
                 "--template", str(CORPUS / "template_no_theme.pptx"),
                 env={"SOURCE_DATE_EPOCH": "soon"})
    assert run.returncode == 2, run.stderr
    lines = run.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "--speed", "SOURCE_DATE_EPOCH", "--template"]
    assert lines[0].endswith(", got 'fast'")
    assert lines[1].endswith(", got 'soon'")
    assert "has no theme (no theme relationship" in lines[2]
    assert run.stdout == "" and not out.exists()


def test_a_template_is_not_looked_at_when_only_the_handout_is_built(tmp_path: Path) -> None:
    run = run_in("build", str(DEFAULT_CONTENT), "--only", "handout", "--out", str(tmp_path),
                 "--template", str(CORPUS / "template_no_theme.pptx"), "--speed", "fast")
    assert run.returncode == 2
    assert [line.split(":")[0] for line in run.stderr.splitlines()] == ["--speed"]


def test_the_build_reads_as_its_steps_in_one_screen() -> None:
    """The pipeline's two functions fit one screen and name every step in order."""
    build = inspect.getsource(pipeline.build)
    settle = inspect.getsource(pipeline.settle)
    assert len(build.splitlines()) + len(settle.splitlines()) <= 40
    order = ["source.read", "settle(", "story.compose", "render(", "output.write_all"]
    assert sorted(order, key=build.index) == order
    checks = ["apply(", "environment.source_date_epoch", "output.guard", "template.read"]
    assert sorted(checks, key=settle.index) == checks


@pytest.mark.slow
def test_a_parallel_build_gives_the_serial_build_s_bytes() -> None:
    from deckgen import build, forking, story

    if not forking.available():
        pytest.skip("one core, or threads running: no forking here")
    content, _ = build.prepare(None, build.Options())
    settled = pipeline.settle(content, build.Options())
    told = story.compose(settled.content)
    serial = pipeline.render(told, settled, parallel=False)
    forked = pipeline.render(told, settled, parallel=True)
    assert set(forked[0]) == {"deck", "handout", "html", "slides", "notes"}
    assert forked == serial


def test_a_forked_piece_is_handed_its_value_and_never_waits_for_one_not_sent() -> None:
    """What this process sends reaches the forked piece, however large (the slides as placed
    carry the presenter's pictures); a piece waiting for a value never sent ends and says so,
    it does not hang; without a fork the piece runs here, when its result is asked for."""
    from deckgen import forking
    from deckgen.errors import RenderError

    if not forking.available():
        pytest.skip("one core, or threads running: no forking here")

    def work(receive: Callable[[], bytes]) -> tuple[int, int, bytes]:
        time.sleep(0.05)  # still busy when the value is sent
        value = receive()
        return os.getpid(), len(value), value[-3:]

    large = bytes(3_000_000) + b"end"
    with forking.aside(work, "slides PDF", fork=True) as beside:
        beside.send(large)
        pid, size, tail = beside.result()
    assert pid != os.getpid() and (size, tail) == (len(large), b"end")
    with forking.aside(work, "slides PDF", fork=True) as beside, \
            pytest.raises(RenderError, match="cannot draw the slides PDF: EOFError"):
        beside.result()
    with forking.aside(work, "slides PDF", fork=False) as beside:
        beside.send(b"here")
        assert beside.result() == (os.getpid(), 4, b"ere")


@pytest.mark.slow
def test_the_renderers_date_their_files_by_the_epoch_they_are_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SOURCE_DATE_EPOCH is read once, before any work; the renderers take its seconds as an
    argument and do not look at the environment themselves."""
    import io
    import zipfile
    from dataclasses import replace

    from deckgen import build, story

    content, _ = build.prepare(None, build.Options())
    settled = pipeline.settle(content, build.Options())
    told = story.compose(settled.content)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "946684800")  # not what the renderers are given
    files, _ = pipeline.render(told, replace(settled, epoch=1700000000))
    with zipfile.ZipFile(io.BytesIO(files["deck"])) as deck:
        assert {i.date_time for i in deck.infolist()} == {(2023, 11, 14, 22, 13, 20)}
        assert "2023-11-14T22:13:20Z" in deck.read("docProps/core.xml").decode()
    for kind in ("handout", "slides", "notes"):
        assert b"/CreationDate (D:20231114221320+00'00')" in files[kind], kind
    plain, _ = pipeline.render(told, replace(settled, epoch=None))
    for kind in ("handout", "slides", "notes"):
        assert b"/CreationDate (D:20000101000000+00'00')" in plain[kind], kind
    with zipfile.ZipFile(io.BytesIO(plain["deck"])) as deck:
        assert {i.date_time for i in deck.infolist()} == {(2000, 1, 1, 0, 0, 0)}
