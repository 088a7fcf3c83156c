"""The one reader of a template's XML: its parts (parsed once, by the gatekeeper's hardened
parser) turned into the plain values of `model.py`, and the theme's XML written anew with
other colours and fonts (`themed`).

The masters and their layouts are read in the order PowerPoint and python-pptx number them
(the presentation's `p:sldMasterIdLst`, each master's `p:sldLayoutIdLst`); the theme is the
first master's. Pictures are decoded small (rasters.py) for sampling, and kept as they are
when they are PNG or JPEG, for the slides PDF. Nothing here decides anything: where a
template is unclear, the value says so (None, an empty tuple) and the planner chooses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import overload
from xml.etree import ElementTree

from deckgen.box import Box
from deckgen.template import rasters
from deckgen.template.model import (
    DEFAULT_COLOUR_MAP,
    Artwork,
    Drawing,
    Fill,
    Gradient,
    Layout,
    Master,
    NumberField,
    Placeholder,
    Point,
    Step,
    Template,
    TemplatePicture,
    TextLook,
    ThemeColour,
)
from deckgen.template.package import Package

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
Element = ElementTree.Element
_Place = Callable[[float, float], Point]  # a group's child coordinates to the slide's

_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")
_COLOURS = (f"{A}srgbClr", f"{A}schemeClr", f"{A}sysClr")
_FILLS = (f"{A}solidFill", f"{A}gradFill", f"{A}pattFill", f"{A}blipFill", f"{A}noFill")
_SHAPES = (f"{P}sp", f"{P}pic", f"{P}grpSp")
_ANCHORS = {"t": "t", "ctr": "ctr", "b": "b"}
_ALIGNS = {"l": "l", "ctr": "ctr", "r": "r"}


@overload
def whole(el: Element, name: str, default: int, *, percent: bool = False) -> int: ...
@overload
def whole(el: Element, name: str, default: None, *, percent: bool = False) -> int | None: ...
def whole(el: Element, name: str, default: int | None, *, percent: bool = False) -> int | None:
    """The whole number in attribute `name` of `el`; `default` when it is missing or is not
    one. With `percent`, the strict form "50%" reads as the transitional 50000."""
    raw = (el.get(name) or "").strip()
    if percent and raw.endswith("%"):
        try:
            return round(float(raw[:-1]) * 1000)
        except ValueError:
            return default
    try:
        return int(raw)
    except ValueError:
        return default


def read(package: Package, data: bytes) -> Template:
    """The template `package` holds (walked and checked by the gatekeeper), as plain data;
    `data`, its bytes, go with it for the deck to be drawn on."""
    reader = _Reader(package)
    return reader.template(data)


class _Reader:
    def __init__(self, package: Package) -> None:
        self.package = package
        self.pictures: dict[str, TemplatePicture] = {}

    def root(self, partname: str) -> Element:
        return self.package.roots[partname]

    def related(self, partname: str, kind: str) -> list[tuple[str, str]]:
        """`partname`'s relationships of type `kind`: (id, target) each."""
        return [(rid, target) for rid, rtype, target in self.package.rels.get(partname, [])
                if rtype == RT + kind]

    def target(self, partname: str, rid: str) -> str | None:
        return next((t for i, _, t in self.package.rels.get(partname, []) if i == rid), None)

    def template(self, data: bytes) -> Template:
        presentation = self.related("/", "officeDocument")[0][1]
        root = self.root(presentation)
        size = root.find(f"{P}sldSz")
        assert size is not None  # the gatekeeper refused a presentation without one
        masters: list[Master] = []
        layouts: list[Layout] = []
        for entry in root.iter(f"{P}sldMasterId"):
            master = self.target(presentation, entry.get(f"{R}id", ""))
            assert master is not None  # the gatekeeper checked every master it names
            m = len(masters)
            masters.append(self.master(master))
            for i, entry_l in enumerate(self.root(master).iter(f"{P}sldLayoutId")):
                layout = self.target(master, entry_l.get(f"{R}id", ""))
                assert layout is not None
                layouts.append(self.layout(layout, m, i))
        first = self.target(presentation, next(root.iter(f"{P}sldMasterId")).get(f"{R}id", ""))
        assert first is not None
        theme = self.root(self.related(first, "theme")[0][1])
        scheme, heading, body = _theme(theme)
        return Template(whole(size, "cx", 0), whole(size, "cy", 0), False,
                        tuple(scheme.items()), heading, body, tuple(masters), tuple(layouts),
                        data, _colour_map(self.root(first)))

    def master(self, partname: str) -> Master:
        root = self.root(partname)
        styles = root.find(f"{P}txStyles")
        title = body = TextLook()
        if styles is not None:
            title = _look(styles.find(f"{P}titleStyle/{A}lvl1pPr"))
            body = _look(styles.find(f"{P}bodyStyle/{A}lvl1pPr"))
        return Master(self.placeholders(root), self.art(partname), self.background(partname),
                      title, body)

    def layout(self, partname: str, master: int, index: int) -> Layout:
        root = self.root(partname)
        c_sld = root.find(f"{P}cSld")
        name = c_sld.get("name", "") if c_sld is not None else ""
        return Layout(name, master, index, self.placeholders(root), self.art(partname),
                      self.background(partname), root.get("showMasterSp") != "0")

    # -- placeholders

    def placeholders(self, root: Element) -> tuple[Placeholder, ...]:
        """The placeholders among the shapes at the top of the shape tree, in order."""
        return tuple(_placeholder(el, ph) for el in _shapes(root)
                     for ph in [_ph(el)] if ph is not None)

    # -- artwork and backgrounds

    def art(self, partname: str) -> tuple[Artwork, ...]:
        """The shapes, pictures and groups at the top of the shape tree that are not (and hold
        no) placeholders, and have a box of their own; bottom first."""
        pieces = []
        for el in _shapes(self.root(partname)):
            if el.tag not in _SHAPES or el.find(f".//{P}ph") is not None:
                continue
            box = own_box(el)
            if box is not None:
                pieces.append(self.piece(partname, el, box))
        return tuple(pieces)

    def piece(self, partname: str, el: Element, box: Box) -> Artwork:
        kind = {f"{P}pic": "picture", f"{P}grpSp": "group"}.get(el.tag, "shape")
        blip = el.find(f".//{A}blip")
        picture = self.picture(partname, blip) if blip is not None else None
        sp_pr = el.find(f"{P}spPr")
        fill = self.fill(partname, sp_pr) if sp_pr is not None else Fill()
        numbers = el.find(f".//{A}fld[@type='slidenum']") is not None
        undrawn: set[str] = set()
        drawings = tuple(_Drawer(self, partname, undrawn).art(el, box))
        return Artwork(box, kind, fill, picture, numbers, drawings, tuple(sorted(undrawn)))

    def background(self, partname: str) -> Fill | None:
        """The part's own background (`p:cSld/p:bg`), None when it sets none: a picture, or
        the colours of its fill (a gradient's stops; a theme style's colour)."""
        bg = self.root(partname).find(f"{P}cSld/{P}bg")
        if bg is None:
            return None
        blip = bg.find(f".//{A}blip")
        if blip is not None:
            return Fill("picture", picture=self.picture(partname, blip))
        grad = bg.find(f".//{A}gradFill")
        return Fill("gradient" if grad is not None else "solid", colours(bg),
                    gradient(grad) if grad is not None else None)

    def fill(self, partname: str, sp_pr: Element) -> Fill:
        """A shape's fill: the first fill element of its shape properties."""
        found = next((c for c in sp_pr if c.tag in _FILLS), None)
        if found is None or found.tag == f"{A}noFill":
            return Fill()
        kind = {f"{A}solidFill": "solid", f"{A}gradFill": "gradient", f"{A}pattFill": "pattern",
                f"{A}blipFill": "picture"}[found.tag]
        blip = found.find(f".//{A}blip") if kind == "picture" else None
        return Fill(kind, colours(found), gradient(found) if kind == "gradient" else None,
                    self.picture(partname, blip) if blip is not None else None)

    def picture(self, partname: str, blip: Element) -> TemplatePicture | None:
        """The picture a blip names, read and decoded once per part; None when the blip
        names no part the template holds."""
        rid = blip.get(f"{R}embed")
        target = self.target(partname, rid) if rid else None
        if target is None or target[1:] not in self.package.names:
            return None
        if target not in self.pictures:
            ctype = self.package.content_type(target) or ""
            data = self.package.data(target)
            kind = {"image/png": "png", "image/jpeg": "jpeg"}.get(ctype, ctype)
            self.pictures[target] = TemplatePicture(data if kind in ("png", "jpeg") else b"", kind,
                                            rasters.raster(data))
        return self.pictures[target]


# -- shapes and their boxes


def _shapes(root: Element) -> list[Element]:
    tree = root.find(f"{P}cSld/{P}spTree")
    return list(tree) if tree is not None else []


def _ph(el: Element) -> Element | None:
    """A shape's placeholder element (its `nv*Pr/p:nvPr/p:ph`), as python-pptx finds it."""
    first = el[0] if len(el) else None
    return first.find(f"{P}nvPr/{P}ph") if first is not None else None


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


def _placeholder(el: Element, ph: Element) -> Placeholder:
    first = el[0]
    c_nv_pr = first.find(f"{P}cNvPr")
    idx = whole(ph, "idx", 0)
    body_pr = el.find(f"{P}txBody/{A}bodyPr")
    insets: list[int | None] = []
    for key in ("lIns", "tIns", "rIns", "bIns"):
        insets.append(whole(body_pr, key, None) if body_pr is not None else None)
    any_body = el.find(f".//{A}bodyPr")
    anchor = _ANCHORS.get(any_body.get("anchor", "")) if any_body is not None else None
    centred = any_body is not None and any_body.get("anchorCtr") in ("1", "true")
    level = el.find(f".//{A}lstStyle/{A}lvl1pPr")
    run = el.find(f".//{A}r/{A}rPr")
    run_fill = el.find(f".//{A}r/{A}rPr/{A}solidFill")
    listed = _look(level)
    run_look = TextLook(*_size_bold(run), colours(run_fill) if run_fill is not None else ())
    return Placeholder(ph.get("type", "obj"), idx,
                       c_nv_pr.get("name", "") if c_nv_pr is not None else "", own_box(el),
                       (insets[0], insets[1], insets[2], insets[3]), anchor, centred, listed,
                       run_look)


def _look(level: Element | None) -> TextLook:
    """What a list style's or text style's first level (`a:lvl1pPr`) gives its text."""
    if level is None:
        return TextLook()
    r_pr = level.find(f"{A}defRPr")
    fill = r_pr.find(f"{A}solidFill") if r_pr is not None else None
    return TextLook(*_size_bold(r_pr), colours(fill) if fill is not None else (),
                    _ALIGNS.get(level.get("algn", "")))


def _size_bold(r_pr: Element | None) -> tuple[float | None, bool | None]:
    if r_pr is None:
        return None, None
    hundredths = whole(r_pr, "sz", None)
    size = hundredths / 100 if hundredths is not None and hundredths > 0 else None
    bold = r_pr.get("b") in ("1", "true") if r_pr.get("b") is not None else None
    return size, bold


# -- colours


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
    if not _HEX.match(raw):
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


def _colour_map(master: Element) -> tuple[tuple[str, str], ...]:
    """A master's colour map (`p:clrMap`): the slot each of tx1, bg1, tx2, bg2 shows (the
    default where it names none of the four)."""
    found = master.find(f"{P}clrMap")
    slots = ("dk1", "lt1", "dk2", "lt2")
    return tuple((name, value if found is not None and (value := found.get(name, "")) in slots
                  else slot) for name, slot in DEFAULT_COLOUR_MAP)


def _theme(root: Element) -> tuple[dict[str, str], str, str]:
    """A theme's colour slots ('#RRGGBB' by name) and its heading (major) and body (minor)
    Latin fonts."""
    scheme: dict[str, str] = {}
    found = root.find(f"{A}themeElements/{A}clrScheme")
    for slot in found if found is not None else []:
        name = slot.tag.rsplit("}", 1)[-1]
        for child in slot:
            value = child.get("val") if child.tag == f"{A}srgbClr" else child.get("lastClr")
            if value and _HEX.match(value):
                scheme[name] = f"#{value.upper()}"
    fonts = root.find(f"{A}themeElements/{A}fontScheme")
    faces = []
    for kind in ("majorFont", "minorFont"):
        latin = fonts.find(f"{A}{kind}/{A}latin") if fonts is not None else None
        faces.append(latin.get("typeface", "") if latin is not None else "")
    return scheme, faces[0], faces[1]


# -- the theme written anew


def themed(xml: str, colours: dict[str, str] | None = None, heading: str | None = None,
           body: str | None = None, name: str | None = None) -> str:
    """A theme's XML with `colours` ('#RRGGBB' by slot name) in its colour slots, `heading`
    and `body` as its major and minor Latin fonts, and with `name`, its theme's, colour
    scheme's and font scheme's names."""
    for slot, value in (colours or {}).items():
        xml = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                     f'<a:{slot}><a:srgbClr val="{value.lstrip("#").upper()}"/></a:{slot}>',
                     xml, count=1, flags=re.S)
    for kind, family in (("majorFont", heading), ("minorFont", body)):
        if family is None:
            continue
        value = _xml_attr(family).replace("\\", "\\\\")  # a backslash is kept as it is
        xml = re.sub(rf'(<a:{kind}>\s*<a:latin typeface=")[^"]*(")', rf"\g<1>{value}\g<2>",
                     xml, count=1)
    if name is not None:
        for pattern in (r'(<a:theme [^>]*name=")[^"]*(")', r'(<a:clrScheme name=")[^"]*(")',
                        r'(<a:fontScheme name=")[^"]*(")'):
            xml = re.sub(pattern, rf"\g<1>{name}\g<2>", xml, count=1)
    return xml


def _xml_attr(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


# -- artwork as drawings


class _Drawer:
    """A piece of artwork as drawable pieces on the slide; what cannot be drawn is named in
    `undrawn`."""

    def __init__(self, reader: _Reader, partname: str, undrawn: set[str]) -> None:
        self.reader = reader
        self.partname = partname
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
            picture = self.reader.picture(self.partname, blip) if blip is not None else None
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
            if child.tag in _SHAPES:
                found = own_box(child)
                if found is not None:
                    out += self.art(child, found, inner)
        return out

    def shape(self, sp_pr: Element, placed: Box, turn: Element | None) -> list[Drawing]:
        fill = self.reader.fill(self.partname, sp_pr)
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
