"""The deck's chart pictures (`--charts picture`): drawn once, kept in a folder deckgen owns,
read back only when whole, and never through a link."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT, chart_placed

import deckgen.story
from deckgen import chart_pictures, source
from deckgen.chart_pictures import FOLDER, ChartPictures

SMALL = {"width_in": 5.0, "height_in": 3.0, "size": 8.0}  # quick to draw


@pytest.fixture(scope="module")
def story() -> deckgen.story.Story:
    content, _ = source.read(DEFAULT_CONTENT)
    return deckgen.story.compose(content)


def draw(pictures: ChartPictures, story: deckgen.story.Story, key: str = "ceiling",
         **sizes: float) -> bytes:
    found = {**SMALL, **sizes}
    placed = chart_placed(story.chart(key), found["width_in"], found["height_in"],
                          found["size"])
    return pictures.render(placed, dpi=72)  # type: ignore[arg-type]


def entries(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / FOLDER).iterdir())}


@pytest.fixture(scope="module")
def drawn(story: deckgen.story.Story, tmp_path_factory: pytest.TempPathFactory
          ) -> tuple[bytes, Path]:
    """One picture drawn and kept, as a build keeps it: its bytes and the output folder."""
    out = tmp_path_factory.mktemp("drawn")
    first = ChartPictures(out)
    picture = draw(first, story)
    assert draw(first, story) == picture and len(first.new) == 1  # drawn once
    assert not (out / FOLDER).exists()  # kept only once the build's files are written
    first.save()
    return picture, out


@pytest.fixture
def kept(drawn: tuple[bytes, Path], tmp_path: Path) -> Path:
    """An output folder of this test's own with the kept picture in its cache."""
    out = tmp_path / "out"
    shutil.copytree(drawn[1], out)
    return out


def test_kept_for_the_next_build_in_a_folder_only_the_user_may_read(
        story: deckgen.story.Story, drawn: tuple[bytes, Path], kept: Path) -> None:
    picture = drawn[0]
    assert picture.startswith(chart_pictures.PNG)
    [(name, entry)] = entries(kept).items()
    assert name.endswith(".png") and entry.endswith(picture)
    assert (kept / FOLDER).stat().st_mode & 0o777 == 0o700
    assert (kept / FOLDER / name).stat().st_mode & 0o777 == 0o600
    again = ChartPictures(kept)  # the next build, in a fresh process
    assert draw(again, story) == picture
    assert again.new == {}  # read back, not drawn


def test_another_size_or_dial_is_another_picture(story: deckgen.story.Story,
                                                 drawn: tuple[bytes, Path], kept: Path) -> None:
    from deckgen.figures import with_overrides

    content, _ = source.read(DEFAULT_CONTENT)
    other = deckgen.story.compose(with_overrides(content, speed="10K"))
    pictures = ChartPictures(kept)
    pictures_drawn = {draw(pictures, story), draw(pictures, story, width_in=5.5),
                      draw(pictures, other)}
    assert len(pictures_drawn) == 3 and drawn[0] in pictures_drawn
    assert len(pictures.new) == 2  # the first read back


def test_a_damaged_entry_is_drawn_again(story: deckgen.story.Story, drawn: tuple[bytes, Path],
                                        kept: Path) -> None:
    [entry] = (kept / FOLDER).iterdir()
    entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    again = ChartPictures(kept)
    assert draw(again, story) == drawn[0] and len(again.new) == 1
    again.save()
    assert entry.read_bytes().endswith(drawn[0])  # overwritten whole


def test_garbage_behind_a_fitting_checksum_is_drawn_again(
        story: deckgen.story.Story, drawn: tuple[bytes, Path], kept: Path) -> None:
    [entry] = (kept / FOLDER).iterdir()
    garbage = b"garbage, not a picture"
    entry.write_bytes(hashlib.sha256(entry.stem.encode() + garbage).hexdigest().encode()
                      + garbage)
    assert draw(ChartPictures(kept), story) == drawn[0]


def test_a_link_is_never_followed(story: deckgen.story.Story, drawn: tuple[bytes, Path],
                                  kept: Path, tmp_path: Path) -> None:
    """A link in place of the folder, or of an entry: neither read, written nor pruned."""
    picture, theirs = drawn[0], entries(kept)
    out = tmp_path / "linked"
    out.mkdir()
    (out / FOLDER).symlink_to(kept / FOLDER)
    linked = ChartPictures(out)
    assert draw(linked, story) == picture and len(linked.new) == 1  # not read through it
    linked.save()
    assert entries(kept) == theirs  # nor written through it
    (out / FOLDER).unlink()
    (out / FOLDER).mkdir(mode=0o700)
    [name] = theirs
    (out / FOLDER / name).symlink_to(kept / FOLDER / name)
    assert draw(ChartPictures(out), story) == picture
    assert (out / FOLDER / name).is_symlink()


def test_a_folder_others_may_write_to_is_not_used(story: deckgen.story.Story,
                                                  kept: Path) -> None:
    (kept / FOLDER).chmod(0o777)
    again = ChartPictures(kept)
    draw(again, story)
    assert len(again.new) == 1  # nothing read from it
    again.new = {"0" * 40: chart_pictures.PNG}
    again.save()
    assert len(entries(kept)) == 1  # nor written to it


def test_saving_keeps_the_newest_and_removes_only_deckgen_s_own(
        story: deckgen.story.Story, tmp_path: Path) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir(mode=0o700)
    earlier = {f"{n:040x}.slide": b"a slide an earlier version kept" for n in range(3)}
    older = {f"{n:040x}.png": b"an old picture" for n in range(chart_pictures.KEPT)}
    for name, data in {**earlier, **older}.items():
        (folder / name).write_bytes(data)
        os.utime(folder / name, ns=(10**18, 10**18))
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / f"{0:040x}.slide").write_bytes(b"in a folder of mine")
    pictures = ChartPictures(tmp_path)
    draw(pictures, story)
    pictures.save()
    names = set(entries_or_folders(folder))
    assert {"notes.txt", "sub"} <= names
    assert not names & set(earlier)  # what earlier versions kept is gone
    assert len([n for n in names if n.endswith(".png")]) == chart_pictures.KEPT
    assert set(pictures.kept) <= {n.removesuffix(".png") for n in names}  # the newest stays
    assert (folder / "sub" / f"{0:040x}.slide").exists()


def entries_or_folders(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir()]


def test_kept_in_memory_up_to_a_bound(story: deckgen.story.Story,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_pictures, "KEPT", 1)
    pictures = ChartPictures()
    first = draw(pictures, story)
    draw(pictures, story, width_in=5.5)
    assert len(pictures.kept) == 1 and first not in pictures.kept.values()


PICTURE_REBUILD = """
import sys
from pathlib import Path
from deckgen import build, pipeline
written, _ = pipeline.build(Path(sys.argv[1]), build.Options(out=Path(sys.argv[2]),
                                                             charts="picture"))
print("pptx" in sys.modules, "matplotlib" in sys.modules)
"""


@pytest.mark.slow
def test_a_picture_rebuild_draws_no_chart_and_gives_the_same_bytes(tmp_path: Path) -> None:
    """The second `build --charts picture` takes every picture back: matplotlib is never
    even imported (in a fresh process, which sees the deck's own library imported), and the
    deck is byte for byte the first (built in this process, drawing every picture)."""
    from deckgen import build, pipeline

    out = tmp_path / "out"
    pipeline.build(DEFAULT_CONTENT, build.Options(out=out, charts="picture"))
    first = (out / "million-tokens-1M.pptx").read_bytes()
    kept = entries(out)
    assert len(kept) >= 3
    run = subprocess.run([sys.executable, "-c", PICTURE_REBUILD, str(DEFAULT_CONTENT), str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True False\n"
    assert (out / "million-tokens-1M.pptx").read_bytes() == first
    assert entries(out) == kept


def test_a_build_removes_the_slides_earlier_versions_kept(tmp_path: Path) -> None:
    """Earlier versions kept each slide in the same folder; any build now removes them, and
    nothing else (a folder of the user's, a file of theirs)."""
    folder = tmp_path / FOLDER
    folder.mkdir(mode=0o700)
    (folder / f"{1:040x}.slide").write_bytes(b"a slide an earlier version kept")
    (folder / f"{2:040x}.svg").write_bytes(b"a chart an earlier version kept")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    ChartPictures(tmp_path).save()  # a build that drew no picture
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    ChartPictures(tmp_path / "none").save()  # no folder: none is made
    assert not (tmp_path / "none").exists()


def _moved(found: object, files: dict[str, str]) -> object:
    """`found` (a placed chart, or a part of one) with its fonts' files at `files`' paths."""
    import dataclasses

    from deckgen.plan.placed import Font

    if isinstance(found, Font):
        return dataclasses.replace(found, file=files.get(found.file, found.file))
    if isinstance(found, tuple):
        return tuple(_moved(part, files) for part in found)
    if dataclasses.is_dataclass(found) and not isinstance(found, type):
        return dataclasses.replace(found, **{f.name: _moved(getattr(found, f.name), files)
                                             for f in dataclasses.fields(found) if f.init})
    return found


def test_a_picture_is_kept_by_its_fonts_contents_not_their_paths(story: deckgen.story.Story,
                                                                 tmp_path: Path) -> None:
    """An installed deckgen and a checkout name the same shipped fonts by other paths: the
    picture one drew is the other's too (a rebuild from another install drew every chart
    again, and imported matplotlib to do it). Another font's picture is another picture."""
    placed = chart_placed(story.chart("ceiling"), SMALL["width_in"], SMALL["height_in"],
                          SMALL["size"])
    files = {span.font.file for layer in placed.placement.layers  # type: ignore[attr-defined]
             if hasattr(layer, "lines") for line in layer.lines for span in line.spans}
    copies = {}
    for k, file in enumerate(sorted(files)):
        copies[file] = str(tmp_path / f"{k}-{Path(file).name}")
        shutil.copy(file, copies[file])
    pictures = ChartPictures()
    first = pictures.render(placed, dpi=72)  # type: ignore[arg-type]
    moved = _moved(placed, copies)
    assert moved != placed
    assert pictures.render(moved, dpi=72) == first  # type: ignore[arg-type]
    assert len(pictures.new) == 1
    changed = next(iter(copies.values()))
    Path(changed).write_bytes(Path(changed).read_bytes() + b"\0")
    chart_pictures._font_digest.cache_clear()  # noqa: SLF001 - the file changed in this process
    pictures.render(moved, dpi=72)  # type: ignore[arg-type]
    assert len(pictures.new) == 2
