"""Pictures, read with Pillow: those a presenter puts in the content (a custom image slide),
read safely, and a template's, decoded small for sampling what text would sit on (`raster`).

Only a regular file under MAX_BYTES is read; its format is judged by its first bytes, never
by its name (PNG or JPEG); its pixel count is read from the header and checked against
MAX_PIXELS before a single pixel is decoded, so a small file that would decode to a huge
image is refused in bounded memory. What is embedded is the picture as it is seen: EXIF
orientation applied, metadata (EXIF, text chunks, colour profiles' names, comments) left
behind, written again with fixed settings, so the same file gives the same bytes in every
build.

A template's pictures are decoded once each (within bounds) to at most RASTER_SIDE pixels a
side, on white where they are transparent; the planner samples these plain values
(deckgen.template.model.Raster) without any library.

Pillow is imported here only, and only once a picture is read.
"""

from __future__ import annotations

import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from deckgen.errors import InputError, Problem
from deckgen.template.model import Raster

MAX_BYTES = 20 * 1024 * 1024  # a photo from a phone is a few MB
MAX_PIXELS = 40_000_000  # 40 megapixels: more than any slide shows, about 160 MB decoded
FORMATS = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg"}


@dataclass(frozen=True)
class Picture:
    """A picture ready to embed: its bytes, format ('png' or 'jpeg') and size in pixels."""

    data: bytes
    format: str
    width: int
    height: int

    @property
    def aspect(self) -> float:
        return self.width / self.height


def read(path: Path, where: Problem) -> Picture:
    """The picture at `path`, or an InputError with one line at `where` (the content file's
    place of the field that names the picture) saying what is wrong."""
    raw = _read_regular(path, where)
    kind = next((name for magic, name in FORMATS.items() if raw.startswith(magic)), None)
    if kind is None:
        raise _refused(where, f"{path} is not a PNG or JPEG picture (judged by its content, "
                              "not its name)")
    size = _header_size(raw, kind)
    if size is None:
        raise _refused(where, f"{path} is a damaged {kind.upper()} picture (no size in its "
                              "header)")
    width, height = size
    if width * height > MAX_PIXELS or not width or not height:
        raise _refused(where, f"{path} is {width:,} x {height:,} pixels; pictures may have "
                              f"from 1 to {MAX_PIXELS:,} pixels")
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(raw), formats=[kind.upper()]) as image:
            if image.size != size:
                raise _refused(where, f"{path} is a damaged {kind.upper()} picture")
            image.load()
            upright = ImageOps.exif_transpose(image)
            return _clean(upright, kind)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError,
            SyntaxError) as err:
        raise _refused(where, f"{path} cannot be read as a {kind.upper()} picture ({err})"
                       ) from None


def _header_size(raw: bytes, kind: str) -> tuple[int, int] | None:
    """Width and height as the file's header states them, read before anything is decoded:
    PNG's IHDR chunk, or JPEG's first start-of-frame marker."""
    if kind == "png":
        if raw[12:16] != b"IHDR" or len(raw) < 24:
            return None
        return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
    at = 2
    while at + 4 <= len(raw):
        if raw[at] != 0xFF:
            return None
        marker = raw[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        length = int.from_bytes(raw[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if at + 9 > len(raw):
                return None
            height = int.from_bytes(raw[at + 5:at + 7], "big")
            width = int.from_bytes(raw[at + 7:at + 9], "big")
            return width, height
        if length < 2:
            return None
        at += 2 + length
    return None


def _read_regular(path: Path, where: Problem) -> bytes:
    """The bytes of `path` when it is a regular file (a link to one is followed) no larger
    than MAX_BYTES, read in bounded memory; a device, a folder or a FIFO is never opened."""
    try:
        info = path.stat()
    except OSError as err:
        raise _refused(where, f"{path} cannot be read ({err.strerror or err})") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise _refused(where, f"{path} is {kind}; name a PNG or JPEG file")
    if info.st_size > MAX_BYTES:
        raise _refused(where, f"{path} is {info.st_size:,} bytes; pictures may have at most "
                              f"{MAX_BYTES:,}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise _refused(where, f"{path} cannot be read ({err.strerror or err})") from None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # swapped since the check
            raise _refused(where, f"{path} is not a regular file; name a PNG or JPEG file")
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _refused(where, f"{path} grew past {MAX_BYTES:,} bytes while it was read")
    return data


def _clean(image: object, kind: str) -> Picture:
    """The picture written again without its metadata, with fixed settings."""
    from PIL import Image

    assert isinstance(image, Image.Image)
    out = io.BytesIO()
    if kind == "png":
        mode = image.mode if image.mode in ("1", "L", "LA", "P", "RGB", "RGBA") else "RGBA"
        image.convert(mode).save(out, "PNG", optimize=False, compress_level=6)
    else:
        image.convert("RGB").save(out, "JPEG", quality=90, optimize=False, progressive=False)
    return Picture(out.getvalue(), kind, image.width, image.height)


def _refused(where: Problem, message: str) -> InputError:
    return InputError(Problem(message, where.file, where.line, where.col, where.path))


RASTER_SIDE = 256  # the longest side of a template picture's raster, in pixels
SAMPLE_PIXELS = 12_000_000  # a picture decoded for sampling: about 100 MB at most


def raster(data: bytes) -> Raster | None:
    """A template picture's bytes decoded to at most RASTER_SIDE pixels a side, RGB on white;
    None when it cannot be read or would decode to more than SAMPLE_PIXELS (its size is read
    before anything is decoded)."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:  # its header only, so far
            image.draft("RGB", (RASTER_SIDE * 2, RASTER_SIDE * 2))  # a JPEG at 1/8 or less
            if image.width * image.height > SAMPLE_PIXELS:
                return None
            image.thumbnail((RASTER_SIDE, RASTER_SIDE))
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return Raster(flat.width, flat.height, flat.tobytes())
