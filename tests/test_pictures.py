"""Pictures named in the content are read safely: regular files only, formats by content, the
pixel count checked before decoding, orientation applied, metadata left behind, same bytes."""

from __future__ import annotations

import io
import os
import resource
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from deckgen import pictures
from deckgen.errors import InputError, Problem

WHERE = Problem("", "content.yaml", 12, 5, "slides.team.image")


def _png(path: Path, width: int = 40, height: int = 20, **info: object) -> Path:
    image = Image.new("RGB", (width, height), (200, 40, 0))
    image.save(path, "PNG", **info)
    return path


def _refusal(path: Path) -> str:
    with pytest.raises(InputError) as err:
        pictures.read(path, WHERE)
    (problem,) = err.value.problems
    assert (problem.file, problem.line, problem.path) == ("content.yaml", 12, "slides.team.image")
    return problem.message


def test_a_png_is_read_with_its_size(tmp_path: Path) -> None:
    picture = pictures.read(_png(tmp_path / "a.png", 40, 20), WHERE)
    assert (picture.format, picture.width, picture.height) == ("png", 40, 20)
    assert picture.aspect == 2.0
    assert Image.open(io.BytesIO(picture.data)).size == (40, 20)


def test_the_same_file_gives_the_same_bytes(tmp_path: Path) -> None:
    path = _png(tmp_path / "a.png")
    assert pictures.read(path, WHERE).data == pictures.read(path, WHERE).data


def test_metadata_is_left_behind(tmp_path: Path) -> None:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "someone@example.org")
    path = _png(tmp_path / "a.png", pnginfo=info)
    assert b"someone@example.org" in path.read_bytes()
    assert b"someone@example.org" not in pictures.read(path, WHERE).data


def test_exif_orientation_is_honoured(tmp_path: Path) -> None:
    image = Image.new("RGB", (60, 20), (0, 90, 200))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    path = tmp_path / "phone.jpg"
    image.save(path, "JPEG", exif=exif.tobytes())
    picture = pictures.read(path, WHERE)
    assert (picture.format, picture.width, picture.height) == ("jpeg", 20, 60)
    assert b"Exif" not in picture.data


def test_text_renamed_png_is_refused_by_its_content(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_text("not a picture at all")
    assert "is not a PNG or JPEG picture (judged by its content" in _refusal(path)


def test_a_pixel_bomb_is_refused_before_decoding(tmp_path: Path) -> None:
    """30,000 x 30,000 pixels in a few KB: refused from the header, in bounded memory."""
    width = height = 30_000
    row = b"\x00" + b"\x00" * width
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(200)) + compressor.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    path = tmp_path / "bomb.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))
    assert path.stat().st_size < 100_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    message = _refusal(path)
    assert "is 30,000 x 30,000 pixels; pictures may have from 1 to 40,000,000 pixels" in message
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 50_000


def test_a_missing_file_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    assert "cannot be read (No such file or directory)" in _refusal(tmp_path / "gone.png")
    assert "is a folder; name a PNG or JPEG file" in _refusal(tmp_path)
    link = tmp_path / "zero.png"
    os.symlink("/dev/zero", link)
    assert "is not a regular file; name a PNG or JPEG file" in _refusal(link)


def test_a_damaged_picture_is_one_line(tmp_path: Path) -> None:
    path = _png(tmp_path / "a.png", 40, 20)
    path.write_bytes(path.read_bytes()[:60])
    assert "cannot be read as a PNG picture" in _refusal(path)
