"""The one reader of a template's parts: each (parsed once, by the gatekeeper's hardened
parser) turned into the plain values of `model.py`, with the values of its elements read by
`values.py` and its artwork drawn by `artwork.py`; `theme.py` writes the theme anew.

The masters and their layouts are read in the order PowerPoint and python-pptx number them
(the presentation's `p:sldMasterIdLst`, each master's `p:sldLayoutIdLst`); the theme is the
first master's. Pictures are decoded small (deckgen.pictures) for sampling, and kept as they are
when they are PNG or JPEG, for the slides PDF. Nothing here decides anything: where a
template is unclear, the value says so (None, an empty tuple) and the planner chooses.
"""

from __future__ import annotations

from deckgen import pictures
from deckgen.box import Box
from deckgen.template.artwork import SHAPES, Drawer
from deckgen.template.model import (
    DEFAULT_COLOUR_MAP,
    Artwork,
    Fill,
    Layout,
    Master,
    Placeholder,
    Template,
    TemplatePicture,
    TextLook,
)
from deckgen.template.package import Package
from deckgen.template.values import (
    HEX,
    RT,
    A,
    Element,
    P,
    R,
    colours,
    gradient,
    own_box,
    whole,
)

_FILLS = (f"{A}solidFill", f"{A}gradFill", f"{A}pattFill", f"{A}blipFill", f"{A}noFill")
_ANCHORS = {"t": "t", "ctr": "ctr", "b": "b"}
_ALIGNS = {"l": "l", "ctr": "ctr", "r": "r"}


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
            if el.tag not in SHAPES or el.find(f".//{P}ph") is not None:
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
        drawer = Drawer(lambda sp_pr: self.fill(partname, sp_pr),
                        lambda blip: self.picture(partname, blip), undrawn)
        drawings = tuple(drawer.art(el, box))
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
                                            pictures.raster(data))
        return self.pictures[target]


# -- shapes and their boxes


def _shapes(root: Element) -> list[Element]:
    tree = root.find(f"{P}cSld/{P}spTree")
    return list(tree) if tree is not None else []


def _ph(el: Element) -> Element | None:
    """A shape's placeholder element (its `nv*Pr/p:nvPr/p:ph`), as python-pptx finds it."""
    first = el[0] if len(el) else None
    return first.find(f"{P}nvPr/{P}ph") if first is not None else None


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
            if value and HEX.match(value):
                scheme[name] = f"#{value.upper()}"
    fonts = root.find(f"{A}themeElements/{A}fontScheme")
    faces = []
    for kind in ("majorFont", "minorFont"):
        latin = fonts.find(f"{A}{kind}/{A}latin") if fonts is not None else None
        faces.append(latin.get("typeface", "") if latin is not None else "")
    return scheme, faces[0], faces[1]


