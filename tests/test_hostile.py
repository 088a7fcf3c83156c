"""Attacks from the other sides: the file system, the template, the process, the environment.

Each gets one line (exact), its exit status, earlier output byte-identical and no temporary
file left; bombs are refused within bounded memory, parsers within a bounded time.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import zipfile
import zlib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT, VALID, python_prints, run_in, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import (
    build,
    environment,
    fmt,
    quantities,
    source,
    sweep,
    watch,
)
from deckgen import (
    template as template_file,
)
from deckgen.errors import InputError

LONG = "a" * 256  # one name longer than any Linux file system allows


def refused(here: Path, *args: str, code: int = 2, env: dict[str, str] | None = None) -> str:
    """Run deckgen ARGS in `here` (in this process, 60 s at most: a read that waits on a FIFO
    fails the test instead of hanging it): it fails with `code`, one line, nothing written."""
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"deckgen {' '.join(args)} still runs after 60 s")

    before = snapshot(here)
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    try:
        run = run_in(*args, cwd=here, env=env)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert run.returncode == code, run.stderr
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert snapshot(here) == before
    return run.stderr.rstrip("\n")


# --- Not a regular file: a FIFO, a device, a folder ------------------------------------------


def test_a_fifo_or_a_device_as_the_content_file_is_one_line(here: Path) -> None:
    os.mkfifo(here / "pipe.yaml")
    assert refused(here, "check", "pipe.yaml") == (
        "pipe.yaml: is a named pipe (FIFO), not a content file; name a regular file")
    assert refused(here, "build", "/dev/zero", "--out", "out") == (
        "/dev/zero: is a device, not a content file; name a regular file")


def test_a_fifo_or_a_device_as_the_template_is_one_line(here: Path) -> None:
    os.mkfifo(here / "pipe.pptx")
    assert refused(here, "build", "talk.yaml", "--template", "pipe.pptx", "--out", "out") == (
        "pipe.pptx: --template: is a named pipe (FIFO), not a .pptx template; name a regular "
        "file")
    assert refused(here, "build", "talk.yaml", "--template", "/dev/zero", "--out", "out") == (
        "/dev/zero: --template: is a device, not a .pptx template; name a regular file")
    assert refused(here, "layouts", "/dev/zero") == (
        "/dev/zero: is a device, not a .pptx template; name a regular file")


def test_the_content_file_read_never_waits(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with pytest.raises(InputError) as caught:
        source.read(tmp_path / "pipe.yaml")  # a plain open would block here forever
    assert "named pipe (FIFO)" in caught.value.lines()[0]


# --- Paths longer than the file system allows ------------------------------------------------


def test_over_long_paths_are_one_line(here: Path) -> None:
    assert refused(here, "check", f"{LONG}.yaml") == (
        f"{LONG}.yaml: cannot be read: the name is longer than the file system allows "
        "(255 bytes)")
    assert refused(here, "build", "talk.yaml", "--out", LONG) == (
        f"{LONG}: --out: the path is longer than the file system allows (255 bytes a name); "
        "choose a shorter one")
    assert refused(here, "build", "talk.yaml", "--template", f"{LONG}.pptx", "--out", "out") == (
        f"{LONG}.pptx: --template: cannot be read: the name is longer than the file system "
        "allows (255 bytes)")
    assert refused(here, "init", f"{LONG}.yaml") == (
        f"{LONG}.yaml: the name is longer than the file system allows (255 bytes); choose a "
        "shorter one")


def test_a_dangling_out_link_is_named_before_any_drawing(here: Path) -> None:
    (here / "gone").symlink_to(here / "nowhere")
    assert refused(here, "build", "talk.yaml", "--out", "gone") == (
        f"gone: --out: is a symbolic link to '{here / 'nowhere'}', which does not exist; make "
        "that folder or choose another")


# --- SOURCE_DATE_EPOCH ----------------------------------------------------------------------

RULE = ("SOURCE_DATE_EPOCH: must be a whole number of seconds since 1970 from 315532800 "
        "(1980-01-01) to 4354819199 (2107-12-31), the dates a .pptx and a .pdf can carry, got ")


@pytest.mark.parametrize("value", ["soon", "-1", "1e9", "315532799", "4354819200",
                                   "99999999999999999999", "12.5"])
def test_source_date_epoch_outside_what_zip_and_pdf_carry(here: Path, value: str) -> None:
    os.environ.pop("SOURCE_DATE_EPOCH", None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", value)
        with pytest.raises(InputError) as caught:
            environment.validate()
    assert caught.value.lines() == [f"{RULE}{value!r}"]


def test_source_date_epoch_is_refused_up_front(here: Path) -> None:
    env = {"SOURCE_DATE_EPOCH": "-1"}
    assert refused(here, "build", "talk.yaml", "--out", "out", env=env) == f"{RULE}'-1'"
    assert refused(here, "sweep", "talk.yaml", "--speeds", "1K", "--out", "out",
                   env=env) == f"{RULE}'-1'"


@pytest.mark.parametrize("value, seconds", [("315532800", 315532800), (" 4354819199 ", 4354819199),
                                            ("", None)])
def test_source_date_epoch_in_range(monkeypatch: pytest.MonkeyPatch, value: str,
                                    seconds: int | None) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert environment.source_date_epoch() == seconds


@pytest.mark.slow
def test_the_last_date_zip_carries_builds(tmp_path: Path) -> None:
    run = run_in("build", str(VALID), "--out", str(tmp_path),
                 env={"SOURCE_DATE_EPOCH": "4354819199"})
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(tmp_path / "million-tokens-1M.pptx") as deck:
        assert {info.date_time for info in deck.infolist()} == {(2107, 12, 31, 23, 59, 58)}
    assert b"/CreationDate (D:21071231235959" in (tmp_path / "million-tokens-1M.pdf").read_bytes()


# --- matplotlib's own folder ----------------------------------------------------------------


# --- Watch follows the file it started with ---------------------------------------------------


def test_watch_without_a_path_never_switches_to_the_bundled_talk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckgen import commands, pipeline

    shutil.copyfile(VALID, tmp_path / "content.yaml")
    monkeypatch.chdir(tmp_path)
    built: list[object] = []
    seen: dict[str, object] = {}

    def keep_watching(paths, once):  # type: ignore[no-untyped-def]
        seen["paths"] = paths
        (tmp_path / "content.yaml").unlink()  # the file goes away while watched
        with pytest.raises(InputError) as caught:
            once()
        seen["lines"] = caught.value.lines()
        (tmp_path / "content.yaml").mkdir()  # and comes back as a folder
        with pytest.raises(InputError) as caught:
            once()
        seen["lines"] += caught.value.lines()

    monkeypatch.setattr(watch, "watch", keep_watching)
    monkeypatch.setattr(pipeline, "render", lambda *args, **kwargs: built.append(args) or {})
    commands.build(content=None, watch=True, out=tmp_path / "out", pages="2")
    assert seen["paths"] == [Path("content.yaml")]
    assert seen["lines"] == ["content.yaml: no such content file",
                             "content.yaml: is a folder, not a content file"]
    assert built == []  # nothing was built, least of all the bundled talk


def test_watch_says_it_waits_for_a_file_that_went_away(tmp_path: Path) -> None:
    path = tmp_path / "content.yaml"
    path.write_text("first\n", encoding="utf-8")
    said: list[str] = []
    steps = {"n": 0}

    def sleep(_seconds: float) -> None:
        steps["n"] += 1
        if steps["n"] == 2:
            path.unlink()

    def rebuild() -> list[Path]:
        if not path.exists():
            raise InputError(source.Problem("no such content file", str(path)))
        return []

    watch.watch([path], rebuild, sleep=sleep, max_builds=2, say=said.append,
                complain=said.append)
    assert said[-3:] == [f"{path}: no such content file",
                         "build failed; the last good files stay in place",
                         f"{path}: is not there as a file; waiting for it to come back"]


# --- Template bombs, under a memory limit ---------------------------------------------------


def _deflated_zeros(blocks: int) -> bytes:
    """A raw deflate stream of `blocks` x 64 MiB of zeros, about 64 KB a block, made cheaply:
    one block compressed once (flushed so it stands alone), repeated, then a final empty one."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = squeeze.compress(bytes(64 * 2**20)) + squeeze.flush(zlib.Z_FULL_FLUSH)
    return block * blocks + b"\x03\x00"


def _zip(parts: list[tuple[str, bytes, int, int]]) -> bytes:
    """A zip from raw deflate streams: (name, stream, crc, size the header claims)."""
    out = io.BytesIO()
    central = []
    for name, stream, crc, size in parts:
        offset = out.tell()
        encoded = name.encode()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(stream),
                              size, len(encoded), 0) + encoded + stream)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc,
                                   len(stream), size, len(encoded), 0, 0, 0, 0, 0, offset)
                       + encoded)
    start = out.tell()
    for record in central:
        out.write(record)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central),
                          out.tell() - start, start, 0))
    return out.getvalue()


def _a_real_template_plus(extra: list[tuple[str, bytes, int, int]]) -> bytes:
    from pptx import Presentation

    raw = io.BytesIO()
    Presentation().save(raw)
    parts = []
    with zipfile.ZipFile(raw) as deck:
        for info in deck.infolist():
            data = deck.read(info)
            squeeze = zlib.compressobj(6, zlib.DEFLATED, -15)
            parts.append((info.filename, squeeze.compress(data) + squeeze.flush(),
                          zlib.crc32(data), len(data)))
    return _zip(parts + extra)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bombs")
    huge = _deflated_zeros(62)  # 3.9 GiB of zeros in about 4 MB
    one = _deflated_zeros(1)
    crc = zlib.crc32(bytes(64 * 2**20))
    bombs = {
        "declared_4gib.pptx": [("ppt/media/image1.png", huge, 0, 62 * 64 * 2**20)],
        "lying_header.pptx": [("ppt/media/image1.png", huge, 0, 1_000_000)],
        "many_big_parts.pptx": [(f"ppt/media/image{n}.png", one, crc, 64 * 2**20)
                                for n in range(4)],
        "many_parts.pptx": [(f"ppt/media/x{n}.bin", b"\x03\x00", 0, 0) for n in range(2500)],
    }
    for name, extra in bombs.items():
        (folder / name).write_bytes(_a_real_template_plus(extra))
    return folder


# deckgen, reporting its own peak resident memory (VmHWM, in KB) at exit to the file named first.
PEAK = """
import atexit, re, runpy, sys
where = sys.argv.pop(1)


def report():
    status = open("/proc/self/status").read()
    open(where, "w").write(re.search(r"VmHWM:\\s+(\\d+)", status).group(1))


atexit.register(report)
sys.argv[0] = "deckgen"
runpy.run_module("deckgen", run_name="__main__")
"""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


@pytest.mark.parametrize("name, line", [
    ("declared_4gib.pptx", "--template: part 'ppt/media/image1.png' inflates to more than "
                           "67,108,864 bytes, the limit for one part of a template"),
    ("lying_header.pptx", "--template: part 'ppt/media/image1.png' cannot be read (Bad CRC-32 "
                          "for file 'ppt/media/image1.png'); save the template as .pptx and try "
                          "again"),
    ("many_big_parts.pptx", "--template: inflates to more than 167,772,160 bytes, the limit for "
                            "a template"),
    ("many_parts.pptx", "--template: has 2,536 parts, more than the 2,000 a template may have"),
])
def test_template_bombs_are_refused_within_100_mb(bombs: Path, tmp_path: Path, name: str,
                                                  line: str) -> None:
    assert (bombs / name).stat().st_size < 5 * 2**20
    peak = tmp_path / "peak"
    run = subprocess.run(
        [sys.executable, "-c", PEAK, str(peak), "build", str(VALID), "--template",
         str(bombs / name), "--out", str(tmp_path / "out")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120, preexec_fn=_limited)
    assert run.returncode == 2, run.stderr
    assert run.stderr == line + "\n"
    kb = int(peak.read_text())
    assert kb < 100 * 1024, f"peak {kb} KB"
    assert not (tmp_path / "out").exists()


def test_the_gatekeeper_imports_no_rendering_library() -> None:
    code = ("import sys; import deckgen.template; "
            "print(sorted(m for m in ('pptx', 'reportlab', 'matplotlib') if m in sys.modules))")
    assert python_prints(code) == "[]"


def test_a_real_template_passes_the_gatekeeper(tmp_path: Path) -> None:
    from pptx import Presentation

    Presentation().save(tmp_path / "t.pptx")
    assert template_file.read(tmp_path / "t.pptx").data == (tmp_path / "t.pptx").read_bytes()


# --- Parsers are linear: a 1 MB value is refused at once ------------------------------------

GUARD = """
import sys
from deckgen import quantities
for shape in ("1" + "e" * 1_000_000 + "!", "1" + " " * 1_000_000 + "x", "1" * 1_000_000,
              "1," * 500_000, "1 h " * 250_000, "1" + "0" * 999_999 + " tokens/sec"):
    for parse in (quantities.parse_speed, quantities.parse_duration, quantities.parse_count):
        try:
            parse(shape)
        except ValueError:
            pass
        else:
            sys.exit("accepted")
print("refused")
"""


def test_a_1_mb_speed_or_check_is_refused_within_seconds() -> None:
    """Minutes to hours before (quadratic patterns); a generous bound that never flakes."""
    run = subprocess.run([sys.executable, "-c", GUARD], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=30,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (20, 20)))
    assert run.stdout == "refused\n", run.stderr


def test_a_1_mb_value_in_the_content_file_is_refused_within_seconds(tmp_path: Path) -> None:
    text = VALID.read_text(encoding="utf-8")
    room = 1_000_000 - len(text.encode()) - 20
    (tmp_path / "big.yaml").write_text(
        text.replace("speed: 1M", "speed: '1" + "e" * room + "!'"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "deckgen", "check", "big.yaml"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)},
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (20, 20)))
    assert run.returncode == 2
    assert run.stderr == (
        "big.yaml:9:10: dial.speed: must be a positive number of tokens per second from 0.001 "
        "to 1,000,000,000,000 (100, 1K, 1M, 1e6, '1,000,000'), got "
        "'1eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee...'\n")


# --- Every speed and duration deckgen prints reads back as the same value --------------------

_durations = st.fractions(min_value=quantities.MIN_DURATION, max_value=quantities.MAX_DURATION)
_speeds = st.fractions(min_value=quantities.MIN_SPEED, max_value=quantities.MAX_SPEED)


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(_durations)
def test_every_printed_duration_reads_back(seconds: Fraction) -> None:
    for text in (fmt.duration(seconds), fmt.check(seconds)):
        value = quantities.parse_duration(text)
        assert fmt.duration(value) == fmt.duration(seconds), text


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(_speeds)
def test_every_printed_speed_reads_back(speed: Fraction) -> None:
    for text, again in ((fmt.speed(speed), fmt.speed), (fmt.speed_mark(speed), fmt.speed_mark),
                        (fmt.number(speed), fmt.number)):
        value = quantities.parse_speed(text)
        assert again(value) == text, text


@pytest.mark.parametrize("text, seconds", [
    ("2 h 46 min 40 s", 10_000), ("1,000 h 5 min", 3_600_300), ("24 h 1 s", 86_401),
    ("0.8 seconds", Fraction(4, 5)), ("None", 0), ("2h46min40s", 10_000), ("8784h", 8784 * 3600),
])
def test_the_explainers_durations_read_back(text: str, seconds: Fraction) -> None:
    assert quantities.parse_duration(text) == seconds


_CONTENT, _ = source.parse(VALID.read_text(encoding="utf-8"), "_valid.yaml")


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=10**12, max_denominator=10**6)
       .map(lambda f: Fraction(round(f * 1000), 1000) or Fraction(1, 1000)),
       st.fractions(min_value=Fraction(1, 1000), max_value=366 * 86400, max_denominator=10**6)
       .map(lambda f: Fraction(round(f * 1000), 1000) or Fraction(1, 1000)))
def test_every_file_name_reads_back_as_its_dial(speed: Fraction, check: Fraction) -> None:
    content = replace(_CONTENT, dial=replace(_CONTENT.dial, speed=speed, fixed_check=check))
    name = build.stem(content, True).removeprefix("million-tokens-")
    speed_part, check_part = name.split("-check-")
    assert quantities.parse_speed(speed_part) == speed
    assert quantities.parse_duration(check_part) == check


# --- Sweep names are exact; a sweep's memory is flat ----------------------------------------


def test_two_dials_a_hair_apart_never_share_a_file() -> None:
    speeds = ("1000.00000000000000000000000000000000000000001,"
              "1000.00000000000000000000000000000000000000002")
    jobs, _ = sweep.plan(VALID, build.Options(), speeds, None)
    names = [job.name for job in jobs]
    assert names == ["million-tokens-1000.00000000000000000000000000000000000000001",
                     "million-tokens-1000.00000000000000000000000000000000000000002"]


def test_a_name_too_long_ends_in_a_digest_of_the_exact_dial() -> None:
    base = "1000." + "0" * 150
    jobs, _ = sweep.plan(VALID, build.Options(), f"{base}1,{base}2", "60.5s")
    names = [job.name for job in jobs]
    assert len(set(names)) == 2 and all(len(n) == build.MAX_STEM for n in names)
    assert names[0][:-12] == names[1][:-12] == "million-tokens-1000." + "0" * 87 + "-"
    exact = f"{Fraction(base + '1')}|{Fraction(121, 2)}"
    assert names[0].endswith(hashlib.sha256(exact.encode()).hexdigest()[:12])


SWEEP = """
import multiprocessing, os, re, sys
from pathlib import Path
from deckgen import build, output, sweep


def stub(job, piece):  # files of 300 KB, drawn at once in a forked worker
    return sweep.DrawnPiece({kind: bytes([len(job.name) % 256]) * 300_000 for kind in piece})


sweep._draw = stub
output.os.fsync = lambda fd: None  # the disk's speed is not the point
speeds = ",".join(str(1000 + n) for n in range(int(sys.argv[2])))
jobs, _ = sweep.plan(Path(sys.argv[3]), build.Options(out=Path(sys.argv[1])), speeds, None)
written = sweep.run(jobs, 2, lambda path: None, context=multiprocessing.get_context("fork"))
assert len(written) == len(build.KINDS) * len(jobs)
print(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
"""


def _peak_of_a_sweep(out: Path, speeds: int) -> int:
    """The sweeping process's own peak resident memory (VmHWM), in KB; its workers apart."""
    run = subprocess.run([sys.executable, "-c", SWEEP, str(out), str(speeds), str(VALID)],
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert len([p for p in out.iterdir() if p.is_file()]) == len(build.KINDS) * speeds
    return int(run.stdout)


def test_a_sweep_of_100_speeds_peaks_within_20_percent_of_5(tmp_path: Path) -> None:
    """Before, every finished piece stayed in memory: 100 x 5 files x 300 KB = 150 MB more,
    on a sweeping process that peaks near 30 MB."""
    small = _peak_of_a_sweep(tmp_path / "five", 5)
    large = _peak_of_a_sweep(tmp_path / "many", 100)
    assert large <= small * 1.2, (small, large)
