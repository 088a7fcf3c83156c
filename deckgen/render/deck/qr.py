"""A QR code's modules for a web address, from segno (pure Python): rows of dark or light."""

from __future__ import annotations

import segno


def modules(url: str) -> list[list[bool]]:
    """The code's dark (True) and light modules, row by row, quiet zone not included; a
    regular QR code (not a micro one) at error level M, so a phone reads it off a screen."""
    code = segno.make(url, error="m", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in code.matrix]
