"""A template's artwork (the shapes, pictures and groups of a master or layout that are not
placeholders) as drawable pieces on the slide: rectangles, ellipses and outlines with their
fills and lines, pictures, the slide number a shape shows; groups taken apart, turned and
flipped shapes turned. What cannot be drawn is named, for the plan's warning."""

from __future__ import annotations

import math
from collections.abc import Callable

from deckgen.box import Box
from deckgen.template.model import (
    Drawing,
    Fill,
    NumberField,
    Point,
    Step,
    TemplatePicture,
    ThemeColour,
)
from deckgen.template.values import A, Element, P, colours, own_box, whole

SHAPES = (f"{P}sp", f"{P}pic", f"{P}grpSp")
_Place = Callable[[float, float], Point]  # a group's child coordinates to the slide's


class Drawer:
    """A piece of artwork of one part as drawable pieces on the slide, its fills and
    pictures read by `fill` and `picture` (which know the part's relationships); what cannot
    be drawn is named in `undrawn`."""

    def __init__(self, fill: Callable[[Element], Fill],
                 picture: Callable[[Element], TemplatePicture | None], undrawn: set[str]) -> None:
        self.fill = fill
        self.picture = picture
        self.undrawn = undrawn

    def art(self, el: Element, box: Box, place: _Place | None = None) -> list[Drawing]:
        to = place or _identity
        if el.tag == f"{P}grpSp":
            return self.group(el, box, to)
        x0, y0 = to(box.x, box.y)
        x1, y1 = to(box.right, box.bottom)
        placed = Box(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        xfrm = el.find(f".//{A}xfrm")
        turned = xfrm is not None and (xfrm.get("rot") not in (None, "0")
                                       or xfrm.get("flipH") in ("1", "true")
                                       or xfrm.get("flipV") in ("1", "true"))
        if el.tag == f"{P}pic":
            if turned:
                self.undrawn.add("rotated or flipped pictures")
                return []
            blip = el.find(f".//{A}blip")
            picture = self.picture(blip) if blip is not None else None
            if picture is None or not picture.data:
                self.undrawn.add("a picture in a format other than PNG or JPEG")
                return []
            return [Drawing(placed, picture=picture)]
        number = _number(el)
        if number is None and any((t.text or "").strip() for t in el.iter(f"{A}t")):
            self.undrawn.add("text in the master's or layout's artwork")
        sp_pr = el.find(f"{P}spPr")
        if sp_pr is None:
            return []
        shape = self.shape(sp_pr, placed, xfrm if turned else None)
        if number is not None:  # the shape, then the number as its text
            return [*shape, Drawing(placed, number=number)]
        return shape

    def group(self, el: Element, box: Box, to: _Place) -> list[Drawing]:
        xfrm = el.find(f"{P}grpSpPr/{A}xfrm")
        child_off = xfrm.find(f"{A}chOff") if xfrm is not None else None
        child_ext = xfrm.find(f"{A}chExt") if xfrm is not None else None
        if xfrm is None or child_off is None or child_ext is None or xfrm.get("rot") \
                or xfrm.get("flipH") == "1" or xfrm.get("flipV") == "1":
            self.undrawn.add("rotated, flipped or unplaced groups")
            return []
        cx, cy = whole(child_off, "x", 0), whole(child_off, "y", 0)
        cw = whole(child_ext, "cx", 0) or 1
        ch = whole(child_ext, "cy", 0) or 1

        def inner(x: float, y: float) -> Point:
            return to(box.x + (x - cx) * box.w / cw, box.y + (y - cy) * box.h / ch)

        out: list[Drawing] = []
        for child in el:
            if child.tag in SHAPES:
                found = own_box(child)
                if found is not None:
                    out += self.art(child, found, inner)
        return out

    def shape(self, sp_pr: Element, placed: Box, turn: Element | None) -> list[Drawing]:
        fill = self.fill(sp_pr)
        if fill.kind in ("pattern", "picture"):
            self.undrawn.add("patterned or picture fills of shapes")
            fill = Fill()
        elif fill.kind == "gradient" and fill.gradient is None:
            self.undrawn.add("gradients with fewer than two stops (drawn in one colour)")
        ln = sp_pr.find(f"{A}ln")
        line: ThemeColour | None = None
        width = 0.0
        if ln is not None and ln.find(f"{A}noFill") is None:
            solid = ln.find(f"{A}solidFill")
            found = colours(solid) if solid is not None else ()
            if found:
                line, width = found[0], whole(ln, "w", 12700) / 12700
        if fill.kind == "none" and line is None:
            return []
        preset = sp_pr.find(f"{A}prstGeom")
        kind = preset.get("prst") if preset is not None else ""
        if kind in ("rect", "ellipse") and turn is None:
            return [Drawing(placed, fill=fill, line=line, line_width=width,
                            ellipse=kind == "ellipse")]
        custom = sp_pr.find(f"{A}custGeom")
        steps = _steps(custom, placed) if custom is not None else _preset_steps(kind or "", placed)
        if steps is not None and turn is not None:
            steps = _turned(steps, placed, whole(turn, "rot", 0) / 60000,
                            turn.get("flipH") in ("1", "true"), turn.get("flipV") in ("1", "true"))
        if steps is None:
            self.undrawn.add("shapes other than rectangles, ellipses and drawn outlines")
            return []
        return [Drawing(placed, fill=fill, line=line, line_width=width, steps=steps)]


def _identity(x: float, y: float) -> Point:
    return x, y


def _number(el: Element) -> NumberField | None:
    """A shape whose only text is a slide-number field: the size, colour and weight it shows
    the number in."""
    fields = el.findall(f".//{A}fld")
    if len(fields) != 1 or fields[0].get("type") != "slidenum":
        return None
    inside = set(fields[0].iter(f"{A}t"))
    if any(t not in inside for t in el.iter(f"{A}t")):
        return None
    r_pr = fields[0].find(f"{A}rPr")
    solid = r_pr.find(f"{A}solidFill") if r_pr is not None else None
    found = colours(solid) if solid is not None else ()
    size = (whole(r_pr, "sz", 1800) or 1800) / 100 if r_pr is not None else 18.0
    bold = r_pr is not None and r_pr.get("b") in ("1", "true")
    return NumberField(size, found[0] if found else None, bold)


def _steps(custom: Element, box: Box) -> tuple[Step, ...] | None:
    """A custom geometry's paths as steps on the slide; None when one uses a command not
    read here (arcs)."""
    steps: list[Step] = []
    for path in custom.iter(f"{A}path"):
        w = whole(path, "w", 0) or box.w or 1
        h = whole(path, "h", 0) or box.h or 1

        def at(pt_el: Element, w: int = w, h: int = h) -> Point:
            return (box.x + whole(pt_el, "x", 0) * box.w / w,
                    box.y + whole(pt_el, "y", 0) * box.h / h)

        last: Point = (float(box.x), float(box.y))
        for cmd in path:
            points = tuple(at(p) for p in cmd.iter(f"{A}pt"))
            if cmd.tag == f"{A}moveTo" and points:
                steps.append(("move", points[:1]))
            elif cmd.tag == f"{A}lnTo" and points:
                steps.append(("line", points[:1]))
            elif cmd.tag == f"{A}cubicBezTo" and len(points) == 3:
                steps.append(("curve", points))
            elif cmd.tag == f"{A}quadBezTo" and len(points) == 2:
                (qx, qy), end = points
                steps.append(("curve", ((last[0] + 2 * (qx - last[0]) / 3,
                                         last[1] + 2 * (qy - last[1]) / 3),
                                        (end[0] + 2 * (qx - end[0]) / 3,
                                         end[1] + 2 * (qy - end[1]) / 3), end)))
            elif cmd.tag == f"{A}close":
                steps.append(("close", ()))
            else:
                return None
            if points:
                last = points[-1]
    return tuple(steps)


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
