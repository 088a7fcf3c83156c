"""A template's colours: its theme, checked for contrast against what each layout's text sits
on (its background, or the artwork under the text, pictures sampled).

python-pptx and Pillow only. The text, muted, accent and link colours must reach
TEXT_CONTRAST (WCAG AA for text) on every colour of the ground; one that does not is replaced
by a passing one, in the deck's theme too, and the build says so in one warning line.
"""

from __future__ import annotations

import colorsys
import io
import re
from dataclasses import replace
from fractions import Fraction
from typing import Any

from PIL import Image
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml import parse_xml
from pptx.oxml.ns import qn
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import SlideLayout

from deckgen import fmt
from deckgen.colour import TEXT_CONTRAST, contrast, luminance
from deckgen.content import Theme
from deckgen.errors import Problem
from deckgen.render.deck import compat
from deckgen.render.deck.placeholders import TITLE_TYPES, Owner, Placeholders, family, overlap
from deckgen.render.deck.plan import Box

_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")
_MAP_DEFAULT = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}
_R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
SAMPLE_PIXELS = 12_000_000  # a picture decoded for sampling: about 100 MB at most
Ground = tuple[list[str], str]  # the colours text sits on, and what they are ('solid', ...)


def mix(a: str, b: str, k: float) -> str:
    """`a` mixed with `k` of `b`."""
    ca = [int(a.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    cb = [int(b.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * k):02X}" for x, y in zip(ca, cb, strict=True))


def best_of_black_and_white(grounds: list[str]) -> str:
    return max(("#000000", "#FFFFFF"), key=lambda c: min(contrast(c, g) for g in grounds))


def passing(colour: str, grounds: list[str]) -> str:
    """`colour` darkened (or lightened) in small steps, keeping its hue, until it has
    TEXT_CONTRAST on every one of `grounds`; black or white, the better, when none does."""
    h = colour.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    for step in range(1, 21):
        k = step / 20
        for mixed in ([round(c * (1 - k)) for c in rgb],
                      [round(c + (255 - c) * k) for c in rgb]):
            candidate = "#" + "".join(f"{c:02X}" for c in mixed)
            if all(contrast(candidate, g) >= TEXT_CONTRAST for g in grounds):
                return candidate
    return best_of_black_and_white(grounds)


def scheme_of(prs: PresentationObject) -> dict[str, str]:
    """The theme's colour slots as '#RRGGBB' (dk1, lt1, dk2, lt2, accent1...)."""
    root = parse_xml(compat.theme_xml(prs.slide_master).encode("utf-8"))
    found: dict[str, str] = {}
    scheme = root.find(f"{qn('a:themeElements')}/{qn('a:clrScheme')}")
    for slot in scheme if scheme is not None else []:
        name = slot.tag.rsplit("}", 1)[-1]
        for child in slot:
            value = child.get("val") if child.tag == qn("a:srgbClr") else child.get("lastClr")
            if value and _HEX.match(value):
                found[name] = f"#{value.upper()}"
    return found


def set_slots(prs: PresentationObject, colours: dict[str, str]) -> None:
    """Write `colours` ('#RRGGBB', computed here) into the theme's slots of every master."""
    def slotted(text: str) -> str:
        for slot, value in colours.items():
            text = re.sub(rf"<a:{slot}>.*?</a:{slot}>",
                          f'<a:{slot}><a:srgbClr val="{value.lstrip("#")}"/></a:{slot}>', text,
                          count=1, flags=re.S)
        return text

    for master in prs.slide_masters:
        compat.edit_theme(master, slotted)


def modified(colour: str, el: Any) -> str:  # noqa: ANN401 (lxml)
    """`colour` with a DrawingML colour's modifiers applied (tint, shade, lumMod, lumOff),
    in sRGB, as near as a contrast check needs."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    for child in el:
        tag = child.tag.rsplit("}", 1)[-1]
        try:
            k = int(child.get("val", "100000")) / 100000
        except ValueError:
            continue
        if tag == "tint":
            rgb = [c + (1 - c) * (1 - k) for c in rgb]
        elif tag == "shade":
            rgb = [c * k for c in rgb]
        elif tag in ("lumMod", "lumOff"):
            h, lum, sat = colorsys.rgb_to_hls(*rgb)
            lum = lum * k if tag == "lumMod" else lum + k
            rgb = list(colorsys.hls_to_rgb(h, min(1.0, max(0.0, lum)), sat))
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02X}" for c in rgb)


def translucent(fill: Any) -> bool:  # noqa: ANN401 (lxml)
    """Whether a fill lets what is under it show more than it shows itself (every colour in
    it under 50% opaque): text on it reads on what is under it."""
    alphas = []
    for el in fill.iter(qn("a:srgbClr"), qn("a:schemeClr"), qn("a:sysClr")):
        found = el.find(qn("a:alpha"))
        alphas.append(int(found.get("val", "100000")) if found is not None else 100000)
    return bool(alphas) and max(alphas) < 50000


def fill_colours(fill: Any, scheme: dict[str, str]) -> list[str]:  # noqa: ANN401 (lxml)
    """The colours of a solid or gradient fill ('#RRGGBB'), theme slots resolved and their
    modifiers applied."""
    out = []
    for el in fill.iter(qn("a:srgbClr"), qn("a:schemeClr"), qn("a:sysClr")):
        if el.tag == qn("a:schemeClr"):
            slot = el.get("val") or ""
            value = scheme.get(_MAP_DEFAULT.get(slot, slot), "")
        else:
            raw = (el.get("val") if el.tag == qn("a:srgbClr") else el.get("lastClr")) or ""
            value = f"#{raw.upper()}" if _HEX.match(raw) else ""
        if value:
            out.append(modified(value, el))
    return out


def busy_share(shades: list[str]) -> float:
    """The share of `shades` that stand out (1.5:1 or more) from the most common one."""
    if not shades:
        return 0.0
    def coarse(shade: str) -> str:  # a picture's noise is not drawing
        return "".join(f"{int(shade[i:i + 2], 16) // 32:X}" for i in (1, 3, 5))

    kinds = [coarse(s) for s in shades]
    mode = max(set(kinds), key=kinds.count)
    common = shades[kinds.index(mode)]
    return sum(1 for s in shades if contrast(s, common) >= 1.5) / len(shades)


DRAWN = 48  # how far (RGB distance, of 441) a background picture's pixel is from its ground
# to count as drawing


class Colours:
    """The grounds text sits on in one template, and the colours that read on them; pictures
    are sampled once per build."""

    def __init__(self, prs: PresentationObject, ph: Placeholders) -> None:
        self.prs = prs
        self.ph = ph
        self.scheme = scheme_of(prs)
        self._samples: dict[tuple[int, Box], list[str]] = {}
        self._busy: dict[tuple[int, Box], float] = {}
        self._images: dict[int, Image.Image | None] = {}

    def refresh(self) -> None:
        self.scheme = scheme_of(self.prs)

    def sample(self, owner: Owner, blip: Any, piece: Box, area: Box) -> list[str]:  # noqa: ANN401
        """The colours of the part of a picture (stretched over `piece`) under `area`: its
        darkest, middle and lightest tenth, by luminance; the theme's lt1 when the picture
        cannot be read."""
        r_id = blip.get(_R_EMBED) if blip is not None else None
        fallback = [self.scheme.get("lt1", "#FFFFFF")]
        if not r_id or piece.w <= 0 or piece.h <= 0:
            return fallback
        try:
            part = owner.part.related_part(r_id)
        except KeyError:
            return fallback
        key = (id(part), area)
        if key in self._samples:
            return self._samples[key]
        flat = self._flat(part)
        if flat is None:
            return fallback
        w, h = flat.size
        left = max(0.0, (area.x - piece.x) / piece.w)
        top = max(0.0, (area.y - piece.y) / piece.h)
        right = min(1.0, (area.right - piece.x) / piece.w)
        bottom = min(1.0, (area.bottom - piece.y) / piece.h)
        if right <= left or bottom <= top:
            return fallback
        crop = flat.crop((int(left * w), int(top * h), max(int(left * w) + 1, int(right * w)),
                          max(int(top * h) + 1, int(bottom * h))))
        raw = crop.resize((16, 16)).tobytes()
        pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
        shades = sorted(f"#{r:02X}{g:02X}{b:02X}" for r, g, b in pixels)
        shades.sort(key=luminance)
        found = sorted({shades[len(shades) // 10], shades[len(shades) // 2],
                        shades[len(shades) * 9 // 10]}, key=luminance)
        self._samples[key] = found
        self._busy[key] = busy_share(shades)
        return found

    def _flat(self, part: Any) -> Image.Image | None:  # noqa: ANN401 (a python-pptx part)
        """A picture part decoded once, at most 512 pixels across, on the slide's white
        where it is transparent; None when it cannot be read or would decode to more than
        SAMPLE_PIXELS (its size is read before anything is decoded)."""
        if id(part) not in self._images:
            try:
                with Image.open(io.BytesIO(part.blob)) as image:  # its header only, so far
                    image.draft("RGB", (512, 512))  # a JPEG is decoded at 1/8 scale or less
                    if image.width * image.height > SAMPLE_PIXELS:
                        raise ValueError("too many pixels to decode within bounds")
                    image.thumbnail((512, 512))
                    rgba = image.convert("RGBA")
                    flat: Image.Image | None = Image.new("RGB", rgba.size, (255, 255, 255))
                    assert flat is not None
                    flat.paste(rgba, mask=rgba.getchannel("A"))
            except (OSError, ValueError, Image.DecompressionBombError):
                flat = None
            self._images[id(part)] = flat
        return self._images[id(part)]

    def busy(self, layout: SlideLayout, area: Box) -> float:
        """How much of `area` a layout's background picture fills with drawing (pixels that
        stand out from its most common shade), 0 to 1; 0 on a plain background."""
        slide = Box(0, 0, self.ph.width, self.ph.height)
        for owner, bg in _backgrounds(layout):
            blip = bg.find(f".//{qn('a:blip')}")
            if blip is None:
                return 0.0
            self.sample(owner, blip, slide, area)
            r_id = blip.get(_R_EMBED)
            try:
                part = owner.part.related_part(r_id) if r_id else None
            except KeyError:
                part = None
            return self._busy.get((id(part), area), 0.0)
        return 0.0

    def calm(self, layout: SlideLayout, box: Box, least: float = 0.6) -> Box:
        """`box` cut back from its edges until it is off the drawing in the layout's
        background picture (a pencil, trees at a corner: pixels that stand out from the
        box's most common shade), a column or row of a grid at a time, the cut that takes
        the most drawing for the least room first; `box` itself when no picture draws in
        it, or when the calm part left would be under `least` of its width or height (a
        panel then backs the text)."""
        grid = self._drawn(layout, box)
        if not grid or not any(any(row) for row in grid):
            return box
        rows, cols = len(grid), len(grid[0])
        edges = (0, 0, cols, rows)
        while _drawn_in(grid, edges):
            x0, y0, x1, y1 = edges
            cuts = [cut for k in range(1, max(cols, rows))
                    for cut in ((x0 + k, y0, x1, y1), (x0, y0 + k, x1, y1), (x0, y0, x1 - k, y1),
                                (x0, y0, x1, y1 - k))
                    if cut[2] - cut[0] >= cols * least and cut[3] - cut[1] >= rows * least]
            gains = [(_cut_gain(grid, edges, c), c) for c in cuts]
            if not gains or max(gains)[0] == 0:
                return box
            edges = max(gains)[1]
        x0, y0, x1, y1 = edges
        return Box(box.x + box.w * x0 // cols, box.y + box.h * y0 // rows,
                   box.w * x1 // cols - box.w * x0 // cols, box.h * y1 // rows - box.h * y0 // rows)

    def _drawn(self, layout: SlideLayout, box: Box, cols: int = 24,
               rows: int = 12) -> list[list[bool]]:
        """A grid over `box`: True where the layout's background picture draws (a quarter
        of the cell's pixels stand out 1.5:1 from the box's most common shade)."""
        slide = Box(0, 0, self.ph.width, self.ph.height)
        if box.w <= 0 or box.h <= 0 or slide.w <= 0 or slide.h <= 0:
            return []
        for owner, bg in _backgrounds(layout):
            blip = bg.find(f".//{qn('a:blip')}")
            r_id = blip.get(_R_EMBED) if blip is not None else None
            if not r_id:
                return []
            try:
                flat = self._flat(owner.part.related_part(r_id))
            except KeyError:
                return []
            if flat is None:
                return []
            w, h = flat.size
            area = (int(max(0, box.x) * w / slide.w), int(max(0, box.y) * h / slide.h),
                    max(1, int(min(slide.w, box.right) * w / slide.w)),
                    max(1, int(min(slide.h, box.bottom) * h / slide.h)))
            if area[2] <= area[0] or area[3] <= area[1]:
                return []
            raw = flat.crop(area).resize((cols * 4, rows * 4)).tobytes()
            pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
            coarse = [(r // 32, g // 32, b // 32) for r, g, b in pixels]
            common = pixels[coarse.index(max(set(coarse), key=coarse.count))]
            # drawing: a colour far from the ground's (a pale pencil reads as drawing too)
            out = [[sum((a - b) ** 2 for a, b in zip(p, common, strict=True)) >= DRAWN ** 2
                    for p in pixels[y * cols * 4:(y + 1) * cols * 4]] for y in range(rows * 4)]
            return [[sum(out[y * 4 + dy][x * 4 + dx] for dy in range(4) for dx in range(4)) >= 4
                     for x in range(cols)] for y in range(rows)]
        return []

    def background(self, layout: SlideLayout, area: Box | None = None) -> Ground:
        """A layout's own background, as PowerPoint finds it (the layout's, else its
        master's, else the theme's lt1): its colours and its kind ('solid', 'gradient',
        'picture'); a picture is sampled under `area` (the whole slide without one)."""
        slide = Box(0, 0, self.ph.width, self.ph.height)
        for owner, bg in _backgrounds(layout):
            blip = bg.find(f".//{qn('a:blip')}")
            if blip is not None:
                return self.sample(owner, blip, slide, area or slide), "picture"
            colours = fill_colours(bg, self.scheme)
            if colours:
                kind = "gradient" if bg.find(f".//{qn('a:gradFill')}") is not None else "solid"
                return colours, kind
        return [self.scheme.get("lt1", "#FFFFFF")], "solid"

    def ground(self, layout: SlideLayout, area: Box | None) -> Ground:
        """What text in `area` sits on: the topmost artwork (a shape or picture of the layout
        or its master, not a placeholder) that covers most of it, else the layout's
        background together with every opaque piece that covers a hundredth of the area or
        more, since some of the text may sit on each."""
        panels: list[str] = []
        if area is not None and area.w > 0 and area.h > 0:
            for owner in (layout, layout.slide_master):  # the layout's artwork is on top
                for el, box in reversed(list(self.ph.artwork(owner))):
                    share = overlap(box, area) / (area.w * area.h)
                    if share * 100 < 1 or el.tag == qn("p:grpSp"):
                        continue  # a group's colours are its pieces', not read here
                    blip = el.find(f".//{qn('a:blip')}")
                    if el.tag == qn("p:pic") or blip is not None:
                        if share * 2 >= 1:
                            return self.sample(owner, blip, box, area), "picture"
                        panels += self.sample(owner, blip, box, area)
                        continue
                    sp_pr = el.find(qn("p:spPr"))
                    fills = (qn("a:solidFill"), qn("a:gradFill"), qn("a:pattFill"))
                    fill = next((c for c in sp_pr if c.tag in fills), None) \
                        if sp_pr is not None else None
                    if fill is not None and not translucent(fill):
                        colours = fill_colours(fill, self.scheme)
                        if colours and share * 2 >= 1:
                            return colours, "shape"
                        panels += colours
        colours, kind = self.background(layout, area)
        return colours + [c for c in panels if c not in colours], kind

    def text_ground(self, layout: SlideLayout) -> Ground:
        """What a layout's content text sits on: the ground of its content frame."""
        if self.ph.title(layout) is None:
            return self.ground(layout, None)
        title, body = self.ph.content_frame(layout)
        area = body if body is not None else title
        return self.ground(layout, area)

    def checked(self, layouts: list[tuple[SlideLayout, Box | None]], base: Theme,
                name: str) -> tuple[Theme, list[Problem]]:
        """The template's theme colours for text (dk1), muted text (dk2), accent (accent1) and
        links (hlink), each checked for TEXT_CONTRAST against every colour each layout's text
        sits on (every stop of a gradient, the shades of a picture) in the areas given (the
        content frame when None). A colour that fails is replaced, in the deck's theme too:
        text by black or white, the one that reads best, the others by their own hue
        darkened or lightened; the warning says so, in one line."""
        scheme = self.scheme
        grounds: list[tuple[str, str, str]] = []  # layout name, colour, kind
        for layout, area in layouts:
            colours, kind = self.ground(layout, area) if area is not None else \
                self.text_ground(layout)
            grounds += [(layout.name, c, kind) for c in colours]
        chosen: dict[str, str] = {}
        changed: list[str] = []
        roles = (("dk1", "text", base.text), ("dk2", "muted", base.muted),
                 ("accent1", "accent", base.accent), ("hlink", "link", base.accent))
        for slot, role, own in roles:
            colour = scheme.get(slot, own)
            worst = min(grounds, key=lambda g: contrast(colour, g[1]))
            if contrast(colour, worst[1]) >= TEXT_CONTRAST:
                chosen[role] = colour
                continue
            if role == "text":  # text itself: black or white, whichever reads best
                best = best_of_black_and_white([g[1] for g in grounds])
            else:
                best = passing(colour, [g[1] for g in grounds])
            chosen[role] = best
            ratio = fmt.number(Fraction(contrast(colour, worst[1])), 1)
            changed.append(f"{role} {colour} ({ratio}:1 on the {worst[2]} {worst[1]} background "
                           f"of layout {worst[0]!r}) -> {best}")
        theme = replace(base, text=chosen["text"], muted=chosen["muted"],
                        accent=chosen["accent"], background=grounds[0][1])
        warnings = []
        if changed:
            slots = {"dk1": chosen["text"], "dk2": chosen["muted"], "accent1": chosen["accent"],
                     "hlink": chosen["link"]}
            if chosen["text"] == "#FFFFFF":  # light on dark: the light slots become the ground's
                dark = min((g[1] for g in grounds), key=luminance)
                slots["lt1"] = dark
                slots["lt2"] = mix(dark, "#FFFFFF", 0.18)
                theme = replace(theme, background=dark, rule=slots["lt2"])
            set_slots(self.prs, slots)
            self.refresh()
            warnings.append(Problem("theme colours below 4.5:1 contrast replaced: "
                                    + "; ".join(changed), path=f"--template {name}"))
        return theme, warnings

    def for_placeholder(self, layout: SlideLayout, kinds: tuple[PP_PLACEHOLDER, ...],
                        box: Box) -> str | None:
        """The colour to give the text deckgen sets in a placeholder of `kinds` at `box`, or
        None to keep the template's. The template's own colour for that placeholder (on its
        prompt text, which LibreOffice writes and new text does not inherit, or in its list
        style) is taken when it reads on what the box sits on; else the theme's text colour
        when it does; else black or white."""
        sample = None
        for owner in (layout, layout.slide_master):
            for kind, ph in self.ph.places(owner):
                if kind not in kinds and family(kind) not in kinds:
                    continue
                for path in (f".//{qn('a:r')}/{qn('a:rPr')}/{qn('a:solidFill')}",
                             f".//{qn('a:lstStyle')}/{qn('a:lvl1pPr')}/{qn('a:defRPr')}"
                             f"/{qn('a:solidFill')}"):
                    fill = ph._element.find(path)
                    colours = fill_colours(fill, self.scheme) if fill is not None else []
                    if colours:
                        sample = colours[0]
                        break
                if sample:
                    break
            if sample:
                break
        if sample is None and kinds and kinds[0] in TITLE_TYPES:
            sample = self._style_colour(layout, "p:titleStyle")
        elif sample is None:
            sample = self._style_colour(layout, "p:bodyStyle")
        grounds, _ = self.ground(layout, box)
        for colour in (sample, self.scheme.get("dk1")):
            if colour and all(contrast(colour, g) >= TEXT_CONTRAST for g in grounds):
                return colour if colour == sample else None
        return best_of_black_and_white(grounds)

    def _style_colour(self, layout: SlideLayout, style: str) -> str | None:
        """The first-level text colour of the master's title or body style."""
        styles = layout.slide_master._element.find(qn("p:txStyles"))
        fill = styles.find(f"{qn(style)}/{qn('a:lvl1pPr')}/{qn('a:defRPr')}/{qn('a:solidFill')}") \
            if styles is not None else None
        colours = fill_colours(fill, self.scheme) if fill is not None else []
        return colours[0] if colours else None


Edges = tuple[int, int, int, int]  # left, top, right, bottom: columns and rows of a grid


def _drawn_in(grid: list[list[bool]], edges: Edges) -> int:
    """How many cells of `grid` inside `edges` hold drawing."""
    x0, y0, x1, y1 = edges
    return sum(grid[y][x] for y in range(y0, y1) for x in range(x0, x1))


def _cut_gain(grid: list[list[bool]], edges: Edges, cut: Edges) -> float:
    """Drawing taken per cell of room lost, cutting `edges` back to `cut`."""
    lost = (edges[2] - edges[0]) * (edges[3] - edges[1]) - (cut[2] - cut[0]) * (cut[3] - cut[1])
    return (_drawn_in(grid, edges) - _drawn_in(grid, cut)) / lost


def _backgrounds(layout: SlideLayout) -> list[tuple[Any, Any]]:
    """The layout and its master that set a background of their own, the layout first, each
    with its background element."""
    found = []
    for owner in (layout, layout.slide_master):
        bg = owner._element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
        if bg is not None:
            found.append((owner, bg))
    return found
