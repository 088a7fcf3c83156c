"""The printable handout: one double-sided sheet (A4 or Letter) drawn with reportlab.

It follows the talk's order: the four meanings beside the dial, the four-workload table, the
thought experiments in brief, the serial bottleneck (chart, speedups, preset-check table,
ceiling), what gets precious, the checklist to write on, the sources and a QR code; the front
takes as much as fits (`fit`). Only this package imports reportlab, and it draws its chart
with reportlab's own shapes. It formats no figure: every number on the sheet is text from the
story. Liberation Sans (Arial's metric twin, the deck's family) is embedded; a character it
cannot draw is set in the first installed fallback font that has it (see deckgen.fonts), and
one that no font draws prints as an empty box, with a warning.
Right-to-left text is set in logical order, unshaped.

Each side is a stack of bands, each either full width or split into the grid's two columns.
Everything is measured before anything is drawn; the sheet is set tighter, step by step within
the designed least sizes, until both sides fit. A side too long for its page even so fails
with how far it runs over and its longest text, located in the content file, unless more pages
were asked for, in which case bands move to, or are cut across, further pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.errors import Problem
    from deckgen.story import Story


def render(story: Story, *, pages_auto: bool = False,
           warn: Callable[[Problem], None] | None = None,
           epoch: int | None = None) -> bytes:
    """The handout as PDF bytes: two pages (one sheet), or more when `pages_auto` allows;
    dated `epoch` (SOURCE_DATE_EPOCH's seconds; None: 2000-01-01)."""
    from deckgen.paint.handout.write import render as write

    return write(story, pages_auto=pages_auto, warn=warn, epoch=epoch)
