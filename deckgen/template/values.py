"""Values read out of DrawingML and PresentationML elements: whole numbers (as either form
of the standard writes them), colours as a template names them, gradients, a shape's box.

The elements come from the template's parts as the gatekeeper parsed them; nothing here
opens a file or decides anything."""

from __future__ import annotations

import re
from typing import overload
from xml.etree import ElementTree

from deckgen.box import Box
from deckgen.template.model import Gradient, ThemeColour

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
Element = ElementTree.Element

LARGEST = 2**63 - 1  # DrawingML's widest integers (ST_Coordinate and the like) fit 64 bits
HEX = re.compile(r"^[0-9A-Fa-f]{6}$")
_COLOURS = (f"{A}srgbClr", f"{A}schemeClr", f"{A}sysClr")


@overload
def whole(el: Element, name: str, default: int, *, percent: bool = False) -> int: ...
@overload
def whole(el: Element, name: str, default: None, *, percent: bool = False) -> int | None: ...
def whole(el: Element, name: str, default: int | None, *, percent: bool = False) -> int | None:
    """The whole number in attribute `name` of `el`; `default` when it is missing, is not
    one, or is beyond what DrawingML writes (a 64-bit integer). With `percent`, the strict
    form "50%" reads as the transitional 50000."""
    raw = (el.get(name) or "").strip()
    try:
        found = round(float(raw[:-1]) * 1000) if percent and raw.endswith("%") else int(raw)
    except (ValueError, OverflowError):  # not a number, or "inf%", "1e400%"
        return default
    return found if -LARGEST <= found <= LARGEST else default


def own_box(el: Element) -> Box | None:
    """The box a shape's XML gives it (`p:spPr/a:xfrm`, a group's `p:grpSpPr/a:xfrm`), or
    None when it has none."""
    xfrm = el.find(f"{P}spPr/{A}xfrm")
    if xfrm is None:
        xfrm = el.find(f"{P}grpSpPr/{A}xfrm")
    if xfrm is None:
        return None
    off, ext = xfrm.find(f"{A}off"), xfrm.find(f"{A}ext")
    if off is None or ext is None:
        return None
    found = [whole(off, "x", None), whole(off, "y", None), whole(ext, "cx", None),
             whole(ext, "cy", None)]
    x, y, w, h = (0 if value is None else value for value in found)
    return None if None in found else Box(x, y, w, h)


def colours(el: Element) -> tuple[ThemeColour, ...]:
    """Every colour in `el` (a fill, a gradient's stops, a background), in order, as the
    template names it."""
    return tuple(c for c in (colour(found) for found in el.iter() if found.tag in _COLOURS)
                 if c is not None)


def colour(el: Element) -> ThemeColour | None:
    """One colour element (`a:srgbClr`, `a:schemeClr`, `a:sysClr` with its last colour)."""
    modifiers = []
    alpha = 1.0
    for child in el:
        tag = child.tag.rsplit("}", 1)[-1]
        val = whole(child, "val", None, percent=True)
        if val is None:
            continue
        if tag == "alpha":
            alpha = val / 100000
        elif tag in ("tint", "shade", "lumMod", "lumOff"):
            modifiers.append((tag, val))
    if el.tag == f"{A}schemeClr":
        slot = el.get("val") or ""
        return ThemeColour(slot=slot, modifiers=tuple(modifiers), alpha=alpha) if slot else None
    raw = (el.get("val") if el.tag == f"{A}srgbClr" else el.get("lastClr")) or ""
    if not HEX.match(raw):
        return None
    return ThemeColour(value=f"#{raw.upper()}", modifiers=tuple(modifiers), alpha=alpha)


def gradient(grad: Element) -> Gradient | None:
    """A gradient fill as stops along a line or out from a focus; None when it has fewer
    than two stops (it is then drawn in its first colour)."""
    stops = []
    for gs in grad.iter(f"{A}gs"):
        found = colours(gs)
        if found:
            stops.append((whole(gs, "pos", 0, percent=True) / 100000, found[0]))
    stops.sort(key=lambda stop: stop[0])
    if len(stops) < 2:
        return None
    lin, path = grad.find(f"{A}lin"), grad.find(f"{A}path")
    if path is not None:
        rect = path.find(f"{A}fillToRect")
        fx = whole(rect, "l", 50000, percent=True) / 100000 if rect is not None else 0.5
        fy = whole(rect, "t", 50000, percent=True) / 100000 if rect is not None else 0.5
        return Gradient(tuple(stops), radial=True, focus=(fx, fy))
    angle = whole(lin, "ang", 0) / 60000 if lin is not None else 0.0
    return Gradient(tuple(stops), angle=angle)
