"""The canvas every PDF of deckgen's is drawn on: reportlab's invariant mode, compressed, in
the talk's language, dated by the build's epoch, with the talk's details.

reportlab's own way (`Canvas.setDateFormatter`) sets the dates; nothing of the environment
is read or changed here. Used by the handout, the slides PDF and the notes book alike."""

from __future__ import annotations

import io
import time

from reportlab.pdfgen.canvas import Canvas

from deckgen import __version__
from deckgen.content import Meta

DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z, reportlab's date in its invariant mode


def canvas(out: io.BytesIO, size: tuple[float, float], meta: Meta, epoch: int | None, *,
           title: str, subject: str, keywords: str, font: str, font_size: float = 12.0
           ) -> Canvas:
    """A canvas writing to `out`, pages `size` points, its dates `epoch` (SOURCE_DATE_EPOCH's
    seconds; None: 2000-01-01), its document information the talk's."""
    drawn = Canvas(out, pagesize=size, invariant=1, pageCompression=1,
                   lang=meta.language or None, initialFontName=font,
                   initialFontSize=font_size)
    stamp = time.strftime("D:%Y%m%d%H%M%S+00'00'",
                          time.gmtime(DEFAULT_EPOCH if epoch is None else epoch))
    drawn.setDateFormatter(lambda *_: stamp)
    drawn.setTitle(title)
    drawn.setAuthor(meta.presenter)
    drawn.setSubject(subject)
    drawn.setKeywords(keywords)
    drawn.setCreator(f"deckgen {__version__}")
    return drawn
