"""The same input gives the same bytes: across runs, folders, processes, caches and clocks."""

from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, run_cli, run_in
from pypdf import PdfReader

NAMES = ["million-tokens-1M-notes.pdf", "million-tokens-1M-slides.pdf", "million-tokens-1M.html",
         "million-tokens-1M.pdf", "million-tokens-1M.pptx"]
EPOCH = 1_700_000_000  # 2023-11-14 22:13:20 UTC


def hashes(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


def built(folder: Path, cwd: Path, *options: str, in_process: bool = False,
          **env: str) -> dict[str, str]:
    """The default build into `folder` as a process of its own (or in this process)."""
    run = (run_in if in_process else run_cli)("build", str(DEFAULT_CONTENT), "--out", str(folder),
                                              *options, cwd=cwd, env=env)
    assert run.returncode == 0, run.stderr
    found = hashes(folder)
    assert sorted(found) == NAMES
    return found


@pytest.mark.slow
def test_two_folders_two_processes_two_clocks_same_bytes(
    default_build: Path, tmp_path: Path
) -> None:
    """Another folder, another working folder, another hash seed, time zone and clock, and a
    matplotlib configuration of the user's own that would change every chart it reached."""
    (tmp_path / "elsewhere" / "deeper").mkdir(parents=True)
    config = tmp_path / "mplconfig"
    config.mkdir()
    (config / "matplotlibrc").write_text(
        "lines.linewidth: 6\naxes.facecolor: yellow\nfont.size: 30\n"
        "savefig.dpi: 50\nsvg.fonttype: path\n",
        encoding="utf-8",
    )
    other = built(
        tmp_path / "elsewhere" / "deeper" / "out",
        tmp_path / "elsewhere",
        PYTHONHASHSEED="12345",
        TZ="Pacific/Auckland",
        LC_ALL="C",
        MPLCONFIGDIR=str(config),
    )
    assert other == hashes(default_build)


@pytest.mark.slow
def test_charts_from_the_cache_give_the_same_bytes(tmp_path: Path) -> None:
    """A rebuild that reads every chart back from the output folder's cache changes nothing.
    Only the deck's chart pictures (`--charts picture`) are cached: the deck's native charts
    and the handout's chart are drawn by their renderers. The charts are drawn in this
    process; the rebuild is a process of its own, which has nothing but the folder's cache."""
    first = tmp_path / "first"
    drawn = built(first, tmp_path, "--charts", "picture", in_process=True)
    out = tmp_path / "out"
    shutil.copytree(first, out)
    cache = out / ".deckgen-cache"
    assert cache.is_dir() and any(cache.iterdir())
    for path in out.glob("million-tokens-*"):
        path.unlink()
    assert built(out, tmp_path, "--charts", "picture") == drawn


def core_dates(pptx: Path) -> dict[str, str]:
    with zipfile.ZipFile(pptx) as package:
        core = package.read("docProps/core.xml").decode("utf-8")
        stamps = {info.date_time for info in package.infolist()}
    found = dict(re.findall(r"<dcterms:(created|modified)[^>]*>([^<]*)<", core))
    found["zip entries"] = ",".join(sorted({f"{y:04d}-{m:02d}-{d:02d} {h:02d}:{n:02d}:{s:02d}"
                                            for y, m, d, h, n, s in stamps}))
    return found


def pdf_dates(pdf: Path) -> dict[str, str]:
    info = PdfReader(pdf).metadata
    assert info is not None
    return {"created": str(info.get("/CreationDate")), "modified": str(info.get("/ModDate"))}


@pytest.mark.slow
def test_source_date_epoch_sets_every_embedded_date(tmp_path: Path) -> None:
    first = built(tmp_path / "a", tmp_path, in_process=True, SOURCE_DATE_EPOCH=str(EPOCH))
    second = built(tmp_path / "b", tmp_path, SOURCE_DATE_EPOCH=str(EPOCH), TZ="America/New_York")
    assert first == second

    when = datetime.fromtimestamp(EPOCH, timezone.utc)
    assert when.isoformat() == "2023-11-14T22:13:20+00:00"
    deck = core_dates(tmp_path / "a" / "million-tokens-1M.pptx")
    assert deck["created"] == deck["modified"] == "2023-11-14T22:13:20Z"
    assert deck["zip entries"] == "2023-11-14 22:13:20"
    handout = pdf_dates(tmp_path / "a" / "million-tokens-1M.pdf")
    assert handout["created"].startswith("D:20231114221320")
    assert handout["modified"].startswith("D:20231114221320")
    for name in ("million-tokens-1M.pdf", "million-tokens-1M-slides.pdf",
                 "million-tokens-1M-notes.pdf"):
        raw = (tmp_path / "a" / name).read_bytes()
        assert b"D:20231114221320" in raw, name
        assert not re.search(rb"D:(?!20231114221320)\d{14}", raw), name  # no other date


@pytest.mark.slow
def test_deck_and_handout_built_apart_match_the_parallel_build(
    default_build: Path, tmp_path: Path
) -> None:
    """A build draws the handout in a second process; built one at a time, the same bytes.
    (default_build is made in pytest's process, which has threads, so it draws one at a time
    too: the parallel build is a process of its own, `together`.)"""
    together = built(tmp_path / "together", tmp_path)
    out = tmp_path / "apart"
    written: list[str] = []
    for only, suffix in (("deck", ".pptx"), ("handout", ".pdf"), ("html", ".html"),
                         ("slides", "-slides.pdf"), ("notes", "-notes.pdf")):
        run = run_in("build", str(DEFAULT_CONTENT), "--out", str(out), "--only", only)
        assert run.returncode == 0, run.stderr
        written.append(f"million-tokens-1M{suffix}")
        assert sorted(hashes(out)) == sorted(written), only  # its own file, and no other
    assert hashes(out) == hashes(default_build)
    assert hashes(out) == together
