"""The page's link parser (page.js) bounds its input before computing, as quantities.py does:
a long speed or check in the fragment is refused at once, never a frozen page or NaN bars.
Run in node, without a browser: the parsing functions of page.js, as they are."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import deckgen
import deckgen.story
from deckgen import source
from deckgen.paint.page import render as page

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node on PATH")
SOURCE = (Path(deckgen.__file__).parent / "paint" / "page" / "page.js").read_text(encoding="utf-8")


def _parse(values: list[str]) -> list[str | None]:
    """Each value read by page.js's parseSpeed and parseDuration ('n/d', or None)."""
    start = SOURCE.index("  var Z = BigInt(0)")
    end = SOURCE.index("  // ---- the content ----")
    # The page's model of the bundled talk: the words and number spelling the parsers read.
    model = page.model(deckgen.story.compose(source.read(source.default_path())[0]))
    script = ("'use strict';\n  var M = " + json.dumps(model) + ";\n" + SOURCE[start:end] + """
  const out = [];
  for (const v of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
    for (const parse of [parseSpeed, parseDuration]) {
      const q = parse(v);
      out.push(q ? q.n + "/" + q.d : null);
    }
  }
  console.log(JSON.stringify(out));
""")
    run = subprocess.run([NODE, "-e", script], input=json.dumps(values), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return list(json.loads(run.stdout))


def test_a_long_speed_in_the_link_is_refused_at_once() -> None:
    """10,000 digits froze the page for 22.6 s (30,000: over 120 s) and drew NaN bars."""
    values = ["1" * 30_000, "1." + "1" * 10_000, "1e" + "9" * 5000, "1" + "0" * 199 + "1",
              " " * 100_000 + "1K", "\u0661" * 10_000]
    assert _parse(values) == [None] * (2 * len(values))


def test_values_within_the_bound_still_read_as_the_command_line_reads_them() -> None:
    assert _parse(["1M", "2.5K", "60 s", "1" + "0" * 11]) == [
        "1000000/1", "60/1", "2500/1", None, None, "60/1", "100000000000/1", None]
