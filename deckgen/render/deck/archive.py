"""The deck's zip file, written entry by entry, each entry deflated at most once per process.

The entries come out as Python's `zipfile` writes them (deflated at level 6, every one
stamped with the build's time, no extra fields), so the bytes are those `zipfile` gives. A
build hands in the entries it deflated last time (`Deflated`, an earlier build's in a watch
or a sweep's worker): the template's masters, layouts, theme and pictures, and the slides
that did not change, come out the same from one build to the next, and deflating them again
was most of what writing the package cost.

No python-pptx here.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from datetime import datetime

# An entry's bytes -> its CRC-32 and its bytes deflated: one build's entries, for the next.
Deflated = dict[bytes, tuple[int, bytes]]

LEVEL = 6  # zlib's default, and what zipfile uses unless told otherwise
_LIMIT = 0xFFFFFFFF  # past this (or 65,535 entries) a zip needs zip64 records
_VERSION = 20  # "2.0": deflate
_DEFLATE = 8
_UTF8_NAME = 0x800
_PERMISSIONS = 0o600 << 16  # what zipfile records for an entry given none: rw-------


def write(entries: Iterable[tuple[str, bytes]], when: datetime,
          last: Deflated | None = None) -> tuple[bytes, Deflated]:
    """The zip of `entries` (name, bytes), in that order, each stamped `when`; with `last`,
    an entry whose bytes are there is not deflated again. Also returns this zip's own
    deflated entries, to hand to the next build."""
    date = (when.year - 1980) << 9 | when.month << 5 | when.day
    time = when.hour << 11 | when.minute << 5 | when.second // 2
    out = bytearray()
    directory = bytearray()
    now: Deflated = {}
    count = 0
    for name, data in entries:
        count += 1
        found = (last.get(data) if last is not None else None) or now.get(data)
        if found is None:
            packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
            found = (zlib.crc32(data), packer.compress(data) + packer.flush())
        now[data] = found
        crc, packed = found
        try:
            raw, flags = name.encode("ascii"), 0
        except UnicodeEncodeError:
            raw, flags = name.encode("utf-8"), _UTF8_NAME
        offset = len(out)
        if max(offset, len(data), len(packed)) >= _LIMIT:
            raise ValueError("the deck is too large for a zip without zip64 records")
        out += struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", _VERSION, 0, flags, _DEFLATE,
                           time, date, crc, len(packed), len(data), len(raw), 0)
        out += raw
        out += packed
        directory += struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", _VERSION, 0, _VERSION, 0,
                                 flags, _DEFLATE, time, date, crc, len(packed), len(data),
                                 len(raw), 0, 0, 0, 0, _PERMISSIONS, offset)
        directory += raw
    if count >= 0xFFFF or len(out) + len(directory) >= _LIMIT:
        raise ValueError("the deck is too large for a zip without zip64 records")
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory),
                      len(out), 0)
    return bytes(out + directory + end), now
