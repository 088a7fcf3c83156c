"""The bounds a template is read within, and its parts inflated in small, counted steps: a zip
bomb is refused within a few megabytes of memory whatever its headers claim."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from deckgen import fmt
from deckgen.errors import InputError, Problem

MAX_BYTES = 64 * 2**20  # the template file
MAX_PARTS = 2_000
MAX_PART_BYTES = 64 * 2**20  # one part, inflated
MAX_TOTAL_BYTES = 160 * 2**20  # every part, inflated
MIN_SIDE, MAX_SIDE = 914_400, 51_206_400  # PowerPoint's slide sides: 1 to 56 inches (EMU)
CHUNK = 1 << 16
MAX_XML_BYTES = 8 * 2**20  # one XML part (python-pptx's parser refuses a 10 MB text node)
MAX_XML_DEPTH = 200  # elements within elements (python-pptx's parser stops at 256)
MAX_PIXELS = 40_000_000  # one picture: sampled for its colours, decoded within bounds
SAVE = "save the template as .pptx and try again"


def refuse(_path: Path, message: str) -> InputError:
    """A package problem: named by the option, as python-pptx's own refusals are."""
    return InputError(Problem(message, path="--template"))


def inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path, *,
            keep: bool = True, room: int = MAX_TOTAL_BYTES) -> bytes:
    """One part inflated in small chunks and counted, whatever its header says (the bytes
    are kept only when `keep`, else its first chunk); a part past the bounds is refused
    mid-way."""
    name = info.filename
    size = 0
    pieces: list[bytes] = []
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                size += len(chunk)
                if size > MAX_PART_BYTES:
                    raise too_big(path, name)
                if size > room:
                    raise refuse(path, f"inflates to more than {fmt.count(MAX_TOTAL_BYTES)} "
                                       "bytes, the limit for a template")
                if keep or not pieces:
                    pieces.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError,
            OSError) as err:
        why = str(err).strip().splitlines()[0][:100] if str(err).strip() else "damaged"
        raise refuse(path, f"part {name!r} cannot be read ({why}); {SAVE}") from None
    if size != info.file_size:  # pragma: no cover - zipfile verifies this itself
        raise refuse(path, f"part {name!r} is damaged; {SAVE}")
    return b"".join(pieces)


def too_big(path: Path, name: str) -> InputError:
    return refuse(path, f"part {name!r} inflates to more than {fmt.count(MAX_PART_BYTES)} "
                        "bytes, the limit for one part of a template")

