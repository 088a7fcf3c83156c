"""A template's pictures decoded small, for sampling what text would sit on: each decoded once
(within bounds, with Pillow) to at most SIDE pixels a side, on white where it is transparent.

Pillow only; the rasters are plain values (deckgen.template.model.Raster), sampled by the
planner without any library.
"""

from __future__ import annotations

import io

from PIL import Image

from deckgen.template.model import Raster

SIDE = 256  # the longest side of a raster, in pixels
SAMPLE_PIXELS = 12_000_000  # a picture decoded for sampling: about 100 MB at most


def raster(data: bytes) -> Raster | None:
    """A picture's bytes decoded to at most SIDE pixels a side, RGB on white; None when it
    cannot be read or would decode to more than SAMPLE_PIXELS (its size is read before
    anything is decoded)."""
    try:
        with Image.open(io.BytesIO(data)) as image:  # its header only, so far
            image.draft("RGB", (SIDE * 2, SIDE * 2))  # a JPEG is decoded at 1/8 scale or less
            if image.width * image.height > SAMPLE_PIXELS:
                return None
            image.thumbnail((SIDE, SIDE))
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return Raster(flat.width, flat.height, flat.tobytes())
