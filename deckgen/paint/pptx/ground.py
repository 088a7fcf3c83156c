"""A template slide's ground, for drawing it elsewhere than in python-pptx (the slides PDF):
the background's fill or picture, and the pictures and plain shapes of its master and
layout, as pure data (`Ground`, `Art`, `Gradient`).

python-pptx (through write.py's objects) only here. What cannot be described as a fill, a
picture or an outline (a preset shape's, turned and flipped) is named in `Grounds.undrawn`,
never dropped silently.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

from pptx.oxml.ns import qn
from pptx.slide import SlideLayout

from deckgen.box import Box
from deckgen.content import Theme
from deckgen.paint.pptx.colours import fill_colours
from deckgen.paint.pptx.placed import Art, Gradient, Ground, Point, Step
from deckgen.paint.pptx.placeholders import own_box
from deckgen.paint.pptx.write import Writer

_PICTURE_TYPES = ("image/png", "image/jpeg")

class Grounds:
    """The grounds of a template's layouts, read once each."""

    def __init__(self, writer: Writer, theme: Theme) -> None:
        self.writer = writer
        self.theme = theme
        self.found: dict[Any, Ground] = {}
        self.undrawn: set[str] = set()

    def ground(self, layout: SlideLayout) -> Ground:
        if layout.part not in self.found:
            self.found[layout.part] = self._ground(layout)
        return self.found[layout.part]

    def _ground(self, layout: SlideLayout) -> Ground:
        writer = self.writer
        if writer.own:
            return Ground(self.theme.background)
        scheme = writer.colours.scheme
        fill, picture = scheme.get("lt1", "#FFFFFF"), b""
        gradient: Gradient | None = None
        for owner in (layout, layout.slide_master):
            bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
            if bg is None:
                continue
            blip = bg.find(f".//{qn('a:blip')}")
            if blip is not None:
                picture = self._picture(owner, blip, "background picture")
                break
            colours = fill_colours(bg, scheme)
            if colours:
                fill = colours[0]
                grad = bg.find(f".//{qn('a:gradFill')}")
                gradient = self._gradient(grad) if grad is not None else None
                break
        art: list[Art] = []
        owners: list[Any] = [layout.slide_master, layout] \
            if layout._element.get("showMasterSp") != "0" else [layout]
        for owner in owners:
            for el, box in writer.ph.artwork(owner):
                art.extend(self._art(owner, el, box))
        return Ground(fill, picture, tuple(art), gradient)

    def _art(self, owner: Any, el: Any, box: Box,  # noqa: ANN401 (python-pptx, lxml)
             place: Callable[[float, float], Point] | None = None) -> list[Art]:
        """A piece of artwork as drawable pieces; `place` maps a group's child coordinates to
        the slide's (None: they are the slide's)."""
        to = place or (lambda x, y: (x, y))
        if el.tag == qn("p:grpSp"):
            xfrm = el.find(f"{qn('p:grpSpPr')}/{qn('a:xfrm')}")
            child_off = xfrm.find(qn("a:chOff")) if xfrm is not None else None
            child_ext = xfrm.find(qn("a:chExt")) if xfrm is not None else None
            if xfrm is None or child_off is None or child_ext is None or xfrm.get("rot") \
                    or xfrm.get("flipH") == "1" or xfrm.get("flipV") == "1":
                self.undrawn.add("rotated, flipped or unplaced groups")
                return []
            cx, cy = int(child_off.get("x", 0)), int(child_off.get("y", 0))
            cw = int(child_ext.get("cx", 0)) or 1
            ch = int(child_ext.get("cy", 0)) or 1

            def inner(x: float, y: float) -> Point:
                return to(box.x + (x - cx) * box.w / cw, box.y + (y - cy) * box.h / ch)

            out: list[Art] = []
            for child in el:
                if child.tag in (qn("p:sp"), qn("p:pic"), qn("p:grpSp")):
                    found = own_box(child)
                    if found is not None:
                        out += self._art(owner, child, found, inner)
            return out
        x0, y0 = to(box.x, box.y)
        x1, y1 = to(box.right, box.bottom)
        placed = Box(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        xfrm = el.find(f".//{qn('a:xfrm')}")
        turned = xfrm is not None and (xfrm.get("rot") not in (None, "0")
                                       or xfrm.get("flipH") in ("1", "true")
                                       or xfrm.get("flipV") in ("1", "true"))
        if turned and el.tag == qn("p:pic"):
            self.undrawn.add("rotated or flipped pictures")
            return []
        if el.tag == qn("p:pic"):
            blip = el.find(f".//{qn('a:blip')}")
            data = self._picture(owner, blip, "picture") if blip is not None else b""
            return [Art(placed, picture=data)] if data else []
        number = self._number(el)
        if number is None and any((t.text or "").strip() for t in el.iter(qn("a:t"))):
            self.undrawn.add("text in the master's or layout's artwork")
        sp_pr = el.find(qn("p:spPr"))
        if sp_pr is None:
            return []
        fill, alpha, gradient = self._fill(sp_pr)
        line, width = self._line(sp_pr)
        if number is not None:  # drawn after the shape, as its text
            shape = self._art(owner, _without_text(el), box, place)
            return [*shape, Art(placed, number=number)]
        if not fill and not line:
            return []
        preset = sp_pr.find(qn("a:prstGeom"))
        if preset is not None and preset.get("prst") in ("rect", "ellipse") and not turned:
            return [Art(placed, fill=fill, fill_alpha=alpha, line=line, line_width=width,
                        ellipse=preset.get("prst") == "ellipse", gradient=gradient)]
        custom = sp_pr.find(qn("a:custGeom"))
        steps = self._steps(custom, placed) if custom is not None else \
            _preset_steps(preset.get("prst") if preset is not None else "", placed)
        if steps is not None and turned:
            steps = _turned(steps, placed, int(xfrm.get("rot", "0")) / 60000,
                            xfrm.get("flipH") in ("1", "true"), xfrm.get("flipV") in ("1", "true"))
        if steps is None:
            self.undrawn.add("shapes other than rectangles, ellipses and drawn outlines")
            return []
        return [Art(placed, fill=fill, fill_alpha=alpha, line=line, line_width=width,
                    steps=steps, gradient=gradient)]

    def _number(self, el: Any) -> tuple[float, str, bool] | None:  # noqa: ANN401 (lxml)
        """A shape whose only text is a slide-number field (Midnightblue's circle): the size,
        colour and weight it shows the number in."""
        fields = el.findall(f".//{qn('a:fld')}")
        texts = list(el.iter(qn("a:t")))
        if len(fields) != 1 or fields[0].get("type") != "slidenum" or \
                any(t.getparent() is not fields[0] for t in texts):
            return None
        r_pr = fields[0].find(qn("a:rPr"))
        solid = r_pr.find(qn("a:solidFill")) if r_pr is not None else None
        colours = fill_colours(solid, self.writer.colours.scheme) if solid is not None else []
        size = int(r_pr.get("sz", "1800")) / 100 if r_pr is not None else 18.0
        bold = r_pr is not None and r_pr.get("b") in ("1", "true")
        return size, colours[0] if colours else self.theme.text, bold

    def _gradient(self, grad: Any) -> Gradient | None:  # noqa: ANN401 (lxml)
        """A gradient fill as stops along a line or out from a focus; None (drawn in its
        first colour, and named) when it has fewer than two stops."""
        stops = []
        for gs in grad.iter(qn("a:gs")):
            colours = fill_colours(gs, self.writer.colours.scheme)
            if colours:
                stops.append((int(gs.get("pos", "0")) / 100000, colours[0]))
        stops.sort(key=lambda stop: stop[0])
        if len(stops) < 2:
            self.undrawn.add("gradients with fewer than two stops (drawn in one colour)")
            return None
        lin, path = grad.find(qn("a:lin")), grad.find(qn("a:path"))
        if path is not None:
            rect = path.find(qn("a:fillToRect"))
            fx = int(rect.get("l", "50000")) / 100000 if rect is not None else 0.5
            fy = int(rect.get("t", "50000")) / 100000 if rect is not None else 0.5
            return Gradient(tuple(stops), radial=True, focus=(fx, fy))
        angle = int(lin.get("ang", "0")) / 60000 if lin is not None else 0.0
        return Gradient(tuple(stops), angle=angle)

    def _fill(self, sp_pr: Any) -> tuple[str, float, Gradient | None]:  # noqa: ANN401 (lxml)
        fills = (qn("a:solidFill"), qn("a:gradFill"), qn("a:pattFill"), qn("a:blipFill"),
                 qn("a:noFill"))
        fill = next((c for c in sp_pr if c.tag in fills), None)
        if fill is None or fill.tag == qn("a:noFill"):
            return "", 1.0, None
        if fill.tag in (qn("a:pattFill"), qn("a:blipFill")):
            self.undrawn.add("patterned or picture fills of shapes")
            return "", 1.0, None
        gradient = self._gradient(fill) if fill.tag == qn("a:gradFill") else None
        colours = fill_colours(fill, self.writer.colours.scheme)
        alpha = fill.find(f".//{qn('a:alpha')}")
        return (colours[0] if colours else "",
                int(alpha.get("val", "100000")) / 100000 if alpha is not None else 1.0,
                gradient)

    def _line(self, sp_pr: Any) -> tuple[str, float]:  # noqa: ANN401 (lxml)
        ln = sp_pr.find(qn("a:ln"))
        if ln is None or ln.find(qn("a:noFill")) is not None:
            return "", 0.0
        solid = ln.find(qn("a:solidFill"))
        colours = fill_colours(solid, self.writer.colours.scheme) if solid is not None else []
        if not colours:
            return "", 0.0
        return colours[0], int(ln.get("w", "12700")) / 12700

    def _steps(self, custom: Any, box: Box) -> tuple[Step, ...] | None:  # noqa: ANN401
        """A custom geometry's paths as steps on the slide; None when one uses a command not
        read here (arcs)."""
        steps: list[Step] = []
        for path in custom.iter(qn("a:path")):
            w = int(path.get("w", "0")) or box.w or 1
            h = int(path.get("h", "0")) or box.h or 1

            def at(pt_el: Any, w: int = w, h: int = h) -> Point:  # noqa: ANN401
                return (box.x + int(pt_el.get("x", 0)) * box.w / w,
                        box.y + int(pt_el.get("y", 0)) * box.h / h)

            last: Point = (float(box.x), float(box.y))
            for cmd in path:
                points = tuple(at(p) for p in cmd.iter(qn("a:pt")))
                if cmd.tag == qn("a:moveTo") and points:
                    steps.append(("move", points[:1]))
                elif cmd.tag == qn("a:lnTo") and points:
                    steps.append(("line", points[:1]))
                elif cmd.tag == qn("a:cubicBezTo") and len(points) == 3:
                    steps.append(("curve", points))
                elif cmd.tag == qn("a:quadBezTo") and len(points) == 2:
                    (qx, qy), end = points
                    steps.append(("curve", ((last[0] + 2 * (qx - last[0]) / 3,
                                             last[1] + 2 * (qy - last[1]) / 3),
                                            (end[0] + 2 * (qx - end[0]) / 3,
                                             end[1] + 2 * (qy - end[1]) / 3), end)))
                elif cmd.tag == qn("a:close"):
                    steps.append(("close", ()))
                else:
                    return None
                if points:
                    last = points[-1]
        return tuple(steps)

    def _picture(self, owner: Any, blip: Any, what: str) -> bytes:  # noqa: ANN401
        r_id = blip.get(qn("r:embed"))
        try:
            part = owner.part.related_part(r_id) if r_id else None
        except KeyError:
            part = None
        if part is None or part.content_type not in _PICTURE_TYPES:
            self.undrawn.add(f"a {what} in a format other than PNG or JPEG")
            return b""
        data: bytes = part.blob
        return data


KAPPA = 0.5523  # a quarter ellipse's control points, as a share of its radii


def _preset_steps(preset: str, box: Box) -> tuple[Step, ...] | None:
    """A rectangle's or ellipse's outline as steps (to be turned); None for other presets."""
    x0, y0, x1, y1 = float(box.x), float(box.y), float(box.right), float(box.bottom)
    if preset == "rect":
        return (("move", ((x0, y0),)), ("line", ((x1, y0),)), ("line", ((x1, y1),)),
                ("line", ((x0, y1),)), ("close", ()))
    if preset == "ellipse":
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        kx, ky = rx * KAPPA, ry * KAPPA
        return (("move", ((cx + rx, cy),)),
                ("curve", ((cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry))),
                ("curve", ((cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy))),
                ("curve", ((cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry))),
                ("curve", ((cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy))),
                ("close", ()))
    return None


def _turned(steps: tuple[Step, ...], box: Box, degrees: float, flip_h: bool,
            flip_v: bool) -> tuple[Step, ...]:
    """Steps flipped about the box's centre, then turned clockwise by `degrees` (as a shape's
    `a:xfrm` says: flips first, then the rotation)."""
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

    def move(p: Point) -> Point:
        dx, dy = p[0] - cx, p[1] - cy
        dx, dy = -dx if flip_h else dx, -dy if flip_v else dy
        return cx + dx * cos - dy * sin, cy + dx * sin + dy * cos

    return tuple((kind, tuple(move(p) for p in points)) for kind, points in steps)


def _without_text(el: Any) -> Any:  # noqa: ANN401 (lxml)
    """A copy of a shape's XML without its text body."""
    bare = copy.deepcopy(el)
    for body in bare.findall(qn("p:txBody")):
        bare.remove(body)
    return bare
