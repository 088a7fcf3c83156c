"""A reportlab canvas dated by the build's epoch, not by the environment.

reportlab has no argument for a document's date: in invariant mode its document reads
SOURCE_DATE_EPOCH from the environment when the canvas is made (else it takes 2000-01-01).
The build reads SOURCE_DATE_EPOCH once, before any work, and hands its seconds to the
renderers; so while the canvas is made, and only then, the environment says what the build
was given, and is put back as it was. (reportlab's own behaviour, which this relies on, is
tested in tests/test_slides_pdf.py.)"""

from __future__ import annotations

import io
import os
from typing import Any

from reportlab.pdfgen.canvas import Canvas

_KEY = "SOURCE_DATE_EPOCH"


def canvas(out: io.BytesIO, epoch: int | None, **options: Any) -> Canvas:  # noqa: ANN401
    """An invariant canvas writing to `out`, dated `epoch` (seconds; None: 2000-01-01)."""
    before = os.environ.get(_KEY)
    try:
        if epoch is None:
            os.environ.pop(_KEY, None)
        else:
            os.environ[_KEY] = str(epoch)
        return Canvas(out, invariant=1, **options)
    finally:
        if before is None:
            os.environ.pop(_KEY, None)
        else:
            os.environ[_KEY] = before
