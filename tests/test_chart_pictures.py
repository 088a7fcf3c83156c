"""The deck's chart pictures (`--charts picture`): drawn once, kept in a folder deckgen owns,
read back only when whole, and never through a link."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEFAULT_CONTENT, ROOT

import deckgen.story
from deckgen import chart_pictures, source
from deckgen.chart_pictures import FOLDER, ChartPictures

SMALL = {"width_in": 5.0, "height_in": 3.0, "dpi": 72, "font_pt": 8.0}  # quick to draw


@pytest.fixture(scope="module")
def story() -> deckgen.story.Story:
    content, _ = source.read(DEFAULT_CONTENT)
    return deckgen.story.compose(content)


def draw(pictures: ChartPictures, story: deckgen.story.Story, key: str = "ceiling",
         **sizes: float) -> bytes:
    return pictures.render(story.chart(key), story.theme, **{**SMALL, **sizes})  # type: ignore[arg-type]


def entries(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / FOLDER).iterdir())}


def test_kept_for_the_next_build_in_a_folder_only_the_user_may_read(
        story: deckgen.story.Story, tmp_path: Path) -> None:
    first = ChartPictures(tmp_path)
    picture = draw(first, story)
    assert picture.startswith(chart_pictures.PNG)
    assert draw(first, story) == picture and len(first.new) == 1  # drawn once
    assert not (tmp_path / FOLDER).exists()  # kept only once the build's files are written
    first.save()
    [(name, entry)] = entries(tmp_path).items()
    assert name.endswith(".png") and entry.endswith(picture)
    assert (tmp_path / FOLDER).stat().st_mode & 0o777 == 0o700
    assert (tmp_path / FOLDER / name).stat().st_mode & 0o777 == 0o600
    again = ChartPictures(tmp_path)  # the next build, in a fresh process
    assert draw(again, story) == picture
    assert again.new == {}  # read back, not drawn


def test_another_size_or_dial_is_another_picture(story: deckgen.story.Story,
                                                 tmp_path: Path) -> None:
    from deckgen.figures import with_overrides

    content, _ = source.read(DEFAULT_CONTENT)
    other = deckgen.story.compose(with_overrides(content, speed="10K"))
    pictures = ChartPictures(tmp_path)
    drawn = {draw(pictures, story), draw(pictures, story, width_in=5.5),
             draw(pictures, other)}
    assert len(drawn) == 3 and len(pictures.new) == 3


def test_a_damaged_entry_is_drawn_again(story: deckgen.story.Story, tmp_path: Path) -> None:
    first = ChartPictures(tmp_path)
    picture = draw(first, story)
    first.save()
    [entry] = (tmp_path / FOLDER).iterdir()
    entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    again = ChartPictures(tmp_path)
    assert draw(again, story) == picture and len(again.new) == 1
    again.save()
    assert entry.read_bytes().endswith(picture)  # overwritten whole


def test_garbage_behind_a_fitting_checksum_is_drawn_again(story: deckgen.story.Story,
                                                          tmp_path: Path) -> None:
    first = ChartPictures(tmp_path)
    picture = draw(first, story)
    first.save()
    [entry] = (tmp_path / FOLDER).iterdir()
    garbage = b"garbage, not a picture"
    entry.write_bytes(hashlib.sha256(entry.stem.encode() + garbage).hexdigest().encode()
                      + garbage)
    assert draw(ChartPictures(tmp_path), story) == picture


def test_a_link_is_never_followed(story: deckgen.story.Story, tmp_path: Path) -> None:
    """A link in place of the folder, or of an entry: neither read, written nor pruned."""
    (tmp_path / "first").mkdir()
    first = ChartPictures(tmp_path / "first")
    picture = draw(first, story)
    first.save()
    [(name, entry)] = entries(tmp_path / "first").items()
    out = tmp_path / "out"
    out.mkdir()
    (out / FOLDER).symlink_to(tmp_path / "first" / FOLDER)
    linked = ChartPictures(out)
    assert draw(linked, story) == picture and len(linked.new) == 1  # not read through it
    draw(linked, story, width_in=6.0)
    linked.save()
    assert entries(tmp_path / "first") == {name: entry}  # nor written through it
    (out / FOLDER).unlink()
    (out / FOLDER).mkdir(mode=0o700)
    (out / FOLDER / name).symlink_to(tmp_path / "first" / FOLDER / name)
    assert draw(ChartPictures(out), story) == picture
    assert (out / FOLDER / name).is_symlink()


def test_a_folder_others_may_write_to_is_not_used(story: deckgen.story.Story,
                                                  tmp_path: Path) -> None:
    first = ChartPictures(tmp_path)
    draw(first, story)
    first.save()
    (tmp_path / FOLDER).chmod(0o777)
    again = ChartPictures(tmp_path)
    draw(again, story, width_in=6.0)
    draw(again, story)
    assert len(again.new) == 2  # nothing read from it
    again.save()
    assert len(entries(tmp_path)) == 1  # nor written to it


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
    monkeypatch.setattr(chart_pictures, "KEPT", 2)
    pictures = ChartPictures()
    for width in (5.0, 5.5, 5.0, 6.0):
        draw(pictures, story, width_in=width)
    assert len(pictures.kept) == 2
    assert draw(pictures, story, width_in=5.0) and len(pictures.new) == 3  # still kept


PICTURE_REBUILD = """
import sys
from pathlib import Path
from deckgen import build, pipeline
written, _ = pipeline.build(Path(sys.argv[1]), build.Options(out=Path(sys.argv[2]),
                                                             charts="picture"))
print("matplotlib" in sys.modules)
"""


@pytest.mark.slow
def test_a_picture_rebuild_draws_no_chart_and_gives_the_same_bytes(tmp_path: Path) -> None:
    """The second `build --charts picture` takes every picture back: matplotlib is never
    even imported, and the deck is byte for byte the first."""
    out = tmp_path / "out"
    imported, decks = [], []
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", PICTURE_REBUILD, str(DEFAULT_CONTENT),
                              str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        imported.append(run.stdout)
        decks.append((out / "million-tokens-1M.pptx").read_bytes())
    assert imported == ["True\n", "False\n"]
    assert decks[0] == decks[1]
    assert len(entries(out)) >= 3
