"""Write deckgen/typefaces/widths.json: the advance widths of the metric twins deckgen measures
with, read from their font files (Debian: fonts-liberation, fonts-crosextra-carlito,
fonts-crosextra-caladea, fonts-dejavu-core).

    python scripts/twin_widths.py

Only advance widths and the line box are kept (no outlines): the deck measures text with
them, and the client draws it with whatever face it has. Code points below U+3000 that a
font maps are kept, as runs of consecutive code points.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckgen.typeset.text import _cmap, _tables  # noqa: E402

FONTS = Path("/usr/share/fonts/truetype")
TWINS = {
    "Liberation Sans Narrow": ("liberation/LiberationSansNarrow-Regular.ttf",
                               "liberation/LiberationSansNarrow-Bold.ttf"),
    "Liberation Serif": ("liberation/LiberationSerif-Regular.ttf",
                         "liberation/LiberationSerif-Bold.ttf"),
    "Liberation Mono": ("liberation/LiberationMono-Regular.ttf",
                        "liberation/LiberationMono-Bold.ttf"),
    "Carlito": ("crosextra/Carlito-Regular.ttf", "crosextra/Carlito-Bold.ttf"),
    "Caladea": ("crosextra/Caladea-Regular.ttf", "crosextra/Caladea-Bold.ttf"),
}
LAST = 0x3000


def widths(file: Path) -> dict[str, object]:
    data = file.read_bytes()
    tables = _tables(data)
    units = struct.unpack_from(">H", data, tables[b"head"] + 18)[0]
    metrics = struct.unpack_from(">H", data, tables[b"hhea"] + 34)[0]
    ascent, descent = struct.unpack_from(">hh", data, tables[b"hhea"] + 4)
    hmtx = tables[b"hmtx"]
    advance = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics)]
    glyphs = {cp: g for cp, g in _cmap(data, tables[b"cmap"]).items() if g and cp < LAST}
    runs: list[list[object]] = []
    for cp in sorted(glyphs):
        width = advance[min(glyphs[cp], metrics - 1)]
        if runs and runs[-1][0] + len(runs[-1][1]) == cp:  # type: ignore[operator, arg-type]
            runs[-1][1].append(width)  # type: ignore[union-attr]
        else:
            runs.append([cp, [width]])
    return {"units": units, "ascent": ascent, "descent": -descent, "runs": runs}


def main() -> None:
    out = {family: {"regular": widths(FONTS / regular), "bold": widths(FONTS / bold)}
           for family, (regular, bold) in TWINS.items()}
    target = ROOT / "deckgen" / "typefaces" / "widths.json"
    target.write_text(json.dumps(out, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"{target}: {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
