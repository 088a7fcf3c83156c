"""A template's colours: its theme, checked for contrast against what each layout's text sits
on (its background, or the artwork under the text, pictures sampled).

python-pptx only (template_pictures.py samples the pictures, with Pillow). The text, muted,
accent and link colours must reach TEXT_CONTRAST (WCAG AA for text) on every colour of the
ground; one that does not is replaced by a passing one (deckgen.colour.passing), in the deck's
theme too, and the build says so in one warning line.
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.oxml import parse_xml
from pptx.oxml.ns import qn
from pptx.presentation import Presentation as PresentationObject
from pptx.slide import SlideLayout

from deckgen import fmt
from deckgen.box import Box
from deckgen.colour import TEXT_CONTRAST, best_of_black_and_white, contrast, luminance, mix, passing
from deckgen.content import Theme
from deckgen.errors import Problem
from deckgen.paint.pptx import compat
from deckgen.paint.pptx.placeholders import TITLE_TYPES, Owner, Placeholders, family, overlap
from deckgen.paint.pptx.template_pictures import TemplatePictures, backgrounds

_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")
_MAP_DEFAULT = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}
Ground = tuple[list[str], str]  # the colours text sits on, and what they are ('solid', ...)


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


class Colours:
    """The grounds text sits on in one template, and the colours that read on them; pictures
    are sampled once per build (template_pictures.py)."""

    def __init__(self, prs: PresentationObject, ph: Placeholders) -> None:
        self.prs = prs
        self.ph = ph
        self.scheme = scheme_of(prs)
        self.pictures = TemplatePictures(ph.width, ph.height)

    def refresh(self) -> None:
        self.scheme = scheme_of(self.prs)

    def sample(self, owner: Owner, blip: Any, piece: Box, area: Box) -> list[str]:  # noqa: ANN401
        """The colours of the part of a picture (stretched over `piece`) under `area`: its
        darkest, middle and lightest tenth, by luminance; the theme's lt1 when the picture
        cannot be read."""
        found = self.pictures.sample(owner, blip, piece, area)
        return found if found is not None else [self.scheme.get("lt1", "#FFFFFF")]

    def busy(self, layout: SlideLayout, area: Box) -> float:
        """How much of `area` a layout's background picture fills with drawing, 0 to 1."""
        return self.pictures.busy(layout, area)

    def calm(self, layout: SlideLayout, box: Box, least: float = 0.6) -> Box:
        """`box` cut back off the drawing in the layout's background picture (see
        `TemplatePictures.calm`)."""
        return self.pictures.calm(layout, box, least)

    def background(self, layout: SlideLayout, area: Box | None = None) -> Ground:
        """A layout's own background, as PowerPoint finds it (the layout's, else its
        master's, else the theme's lt1): its colours and its kind ('solid', 'gradient',
        'picture'); a picture is sampled under `area` (the whole slide without one)."""
        slide = Box(0, 0, self.ph.width, self.ph.height)
        for owner, bg in backgrounds(layout):
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


