"""The deck's zip: the bytes Python's zipfile writes, whether each entry is deflated afresh or
taken from an earlier build's."""

from __future__ import annotations

import io
import os
import zipfile
from datetime import datetime

import pytest

from deckgen.render.deck import archive

WHEN = datetime(2026, 3, 14, 15, 9, 27)
ENTRIES = [
    ("[Content_Types].xml", b"<Types/>"),
    ("ppt/slides/slide1.xml", b"<p:sld>" + b"two words " * 5000 + b"</p:sld>"),
    ("ppt/media/image1.png", os.urandom(70_000)),  # does not deflate: stored larger
    ("docProps/app.xml", b""),
    ("ppt/notesSlides/notesSlide1.xml", b"<p:notes>" + b"two words " * 5000 + b"</p:notes>"),
    ("ppt/media/caf\u00e9.png", b"same name, not ascii"),
]


def with_zipfile(entries: list[tuple[str, bytes]], when: datetime) -> bytes:
    out = io.BytesIO()
    stamp = (when.year, when.month, when.day, when.hour, when.minute, when.second)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            target.writestr(info, data, compresslevel=6)
    return out.getvalue()


def test_the_zip_is_the_one_zipfile_writes() -> None:
    data, deflated = archive.write(ENTRIES, WHEN)
    assert data == with_zipfile(ENTRIES, WHEN)
    with zipfile.ZipFile(io.BytesIO(data)) as back:
        assert back.testzip() is None
        assert [(i.filename, i.date_time) for i in back.infolist()] == \
            [(name, (2026, 3, 14, 15, 9, 26)) for name, _ in ENTRIES]  # two-second steps
        assert [back.read(name) for name, _ in ENTRIES] == [d for _, d in ENTRIES]
    assert set(deflated) == {d for _, d in ENTRIES}  # the two same texts once


def test_entries_deflated_before_are_taken_as_they_were() -> None:
    _, first = archive.write(ENTRIES[:3], WHEN)
    slide = ENTRIES[1][1]
    crc, packed = first[slide]
    # A stand-in for the slide's deflated bytes shows it was taken, not deflated again.
    marked = {**first, slide: (crc, packed[:-1] + bytes([packed[-1] ^ 1]))}
    again, now = archive.write(ENTRIES, WHEN, marked)
    assert now[slide] == marked[slide]
    assert again != with_zipfile(ENTRIES, WHEN)
    honest, _ = archive.write(ENTRIES, WHEN, first)
    assert honest == with_zipfile(ENTRIES, WHEN)
    assert set(now) == {d for _, d in ENTRIES}  # only this zip's entries go to the next build


def test_a_zip_past_the_limits_of_one_without_zip64_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "_LIMIT", 1000)
    with pytest.raises(ValueError, match="too large"):
        archive.write(ENTRIES, WHEN)
