"""How a chart's series look, the same in every output (the deck, its PDF, its pictures, the
handout and the page): the dial's line in the accent, solid and thick, with round markers;
every other line muted, with a dash and a marker of its own chosen by its place among the
chart's lines, so greyscale tells the lines apart and a workload or a check keeps its look
whichever line the dial features.

Dashes are named as PowerPoint names its preset dashes and measured as it draws them: on and
off lengths in multiples of the line's width.
"""

from __future__ import annotations

from dataclasses import dataclass

# PowerPoint's preset dashes in the order the lines take them, each as PowerPoint draws it.
DASHES: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("dash", (4, 3)),
    ("sysDot", (1, 1)),
    ("dashDot", (4, 3, 1, 3)),
    ("lgDashDotDot", (8, 3, 1, 3, 1, 3)),
    ("lgDash", (8, 3)),
    ("sysDash", (3, 1)),
)
MARKERS = ("square", "triangle", "diamond", "x", "plus", "star")
DIAL_WIDTH = 4.0  # points: the dial's line
LINE_WIDTH = 2.25  # points: every other line
DIAL_MARKER = 9.0  # points across: the dial's line's markers
MARKER = 8.0  # points across: every other line's


@dataclass(frozen=True)
class LineLook:
    """A line's look: its colour role, width (points), dash (PowerPoint's name, and the on
    and off lengths in multiples of the width; 'solid' and () for none), marker and its
    size (points across)."""

    role: str
    width: float
    dash: str
    pattern: tuple[float, ...]
    marker: str
    marker_size: float

    @property
    def lengths(self) -> tuple[float, ...]:
        """The dash's on and off lengths in points."""
        return tuple(k * self.width for k in self.pattern)


def look(index: int, emphasis: bool) -> LineLook:
    """The look of the chart's line at `index` (its place among the chart's lines); the
    dial's line (`emphasis`) solid in the accent."""
    if emphasis:
        return LineLook("accent", DIAL_WIDTH, "solid", (), "circle", DIAL_MARKER)
    dash, pattern = DASHES[index % len(DASHES)]
    return LineLook("muted", LINE_WIDTH, dash, pattern, MARKERS[index % len(MARKERS)], MARKER)


def dasharrays(width: float) -> list[str]:
    """Each dash as an SVG stroke-dasharray for a line `width` units wide."""
    return [" ".join(f"{k * width:g}" for k in pattern) for _, pattern in DASHES]


def lent(shares: list[float], fits: list[bool]) -> list[list[int]]:
    """Which segments' labels each segment of a bar carries: its own when it fits in it;
    one that does not fit is lent to the widest segment of the bar, under that segment's
    own. The same rule on the deck's, the slides PDF's and the handout's bar charts."""
    widest = max(range(len(shares)), key=lambda k: shares[k])
    carried: list[list[int]] = [[k] if fits[k] or k == widest else [] for k in range(len(shares))]
    carried[widest] += [k for k in range(len(shares)) if not fits[k] and k != widest]
    return carried
