"""A template's pictures, their size read from their headers (PNG, GIF, BMP, JPEG), nothing
decoded: one of more than MAX_PIXELS pixels is refused."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

from deckgen import fmt
from deckgen.template.bounds import CHUNK, MAX_PIXELS, refuse


def check_pixels(archive: zipfile.ZipFile, info: zipfile.ZipInfo, head: bytes,
                 path: Path) -> None:
    """Refuse a PNG, JPEG, GIF or BMP part of more than MAX_PIXELS pixels (read from its
    header, nothing decoded). Other formats are checked where pictures are sampled."""
    size: tuple[int, int] | None = None
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        size = struct.unpack(">II", head[16:24])
    elif head.startswith((b"GIF87a", b"GIF89a")) and len(head) >= 10:
        size = struct.unpack("<HH", head[6:10])
    elif head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        size = (abs(width), abs(height))
    elif head.startswith(b"\xff\xd8\xff"):
        size = _jpeg_size(archive, info)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise refuse(path, f"picture {info.filename!r} is {fmt.count(size[0])} x "
                           f"{fmt.count(size[1])} pixels, more than the {fmt.count(MAX_PIXELS)} "
                           "a template's picture may have")


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[int, int] | None:
    """A JPEG's width and height from its frame header, its segments skipped as they are
    read (None when it has none: a damaged picture is not sampled)."""
    with archive.open(info) as stream:
        stream.read(2)
        while True:
            byte = stream.read(1)
            if byte != b"\xff":
                return None
            marker = stream.read(1)
            while marker == b"\xff":
                marker = stream.read(1)
            if not marker:
                return None
            code = marker[0]
            if code in (0x01, *range(0xD0, 0xD8)):
                continue
            if code in (0xD9, 0xDA):
                return None
            length = stream.read(2)
            if len(length) < 2:
                return None
            left = struct.unpack(">H", length)[0] - 2
            if code in _SOF:
                frame = stream.read(5)
                if len(frame) < 5:
                    return None
                height, width = struct.unpack(">HH", frame[1:5])
                return width, height
            while left > 0:
                skipped = len(stream.read(min(left, CHUNK)))
                if not skipped:
                    return None
                left -= skipped

