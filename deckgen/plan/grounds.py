"""What text sits on in a template, and the colours that read there: the background and the
artwork under an area (pictures sampled from their rasters), how much of an area a background
picture fills with drawing, the calm part of a box off that drawing, and the theme's colours
checked for contrast against every ground they are used on.

Pure: the template's values (deckgen.template.model) only, no library. The text, muted, accent
and link colours must reach TEXT_CONTRAST (WCAG AA for text) on every colour of their ground;
one that does not is replaced by a passing one (deckgen.colour.passing), and the build says so
in one warning line.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from deckgen import fmt
from deckgen.box import Box, overlap
from deckgen.colour import (
    TEXT_CONTRAST,
    best_of_black_and_white,
    contrast,
    luminance,
    mix,
    passing,
)
from deckgen.content import Theme
from deckgen.errors import Problem
from deckgen.plan.sampling import cut_gain, drawn, drawn_in, sampled
from deckgen.template.model import (
    Fill,
    Layout,
    Master,
    Template,
    TemplatePicture,
    ThemeColour,
    family,
    mapped,
)

Underneath = tuple[list[str], str]  # the colours text sits on, and what they are ("solid", ...)
Owner = Layout | Master


@dataclass(frozen=True)
class Grounds:
    """The grounds text sits on in one template, read with the theme's colour slots
    `scheme` ('#RRGGBB' by slot name)."""

    template: Template
    scheme: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, template: Template) -> Grounds:
        return cls(template, template.scheme)

    @property
    def slots(self) -> dict[str, str]:
        """The theme's colours by slot and by the names the colour map gives them."""
        return mapped(dict(self.scheme), self.template.colour_map)

    def resolve(self, colours: tuple[ThemeColour, ...]) -> list[str]:
        """The colours as '#RRGGBB' on this scheme (those naming a slot it lacks left out)."""
        slots = self.slots
        return [found for c in colours for found in [c.on(slots)] if found]

    def owners(self, layout: Layout) -> tuple[Owner, Owner]:
        return layout, self.template.master_of(layout)

    # -- pictures

    def sample(self, picture: TemplatePicture | None, piece: Box, area: Box) -> list[str]:
        """The colours of the part of a picture (stretched over `piece`) under `area`: its
        darkest, middle and lightest tenth, by luminance; the theme's lt1 when the picture
        cannot be read."""
        found = sampled(picture.raster, piece, area) if picture and picture.raster else None
        return list(found[0]) if found is not None else [self.slots.get("bg1", "#FFFFFF")]

    def background_picture(self, layout: Layout) -> TemplatePicture | None | bool:
        """The picture of a layout's own background (the layout's, else its master's), None
        when that background is not a picture; False when neither sets one."""
        for owner in self.owners(layout):
            if owner.background is not None:
                return owner.background.picture if owner.background.kind == "picture" \
                    else None
        return False

    def busy(self, layout: Layout, area: Box) -> float:
        """How much of `area` a layout's background picture fills with drawing (pixels that
        stand out from its most common shade), 0 to 1; 0 on a plain background."""
        picture = self.background_picture(layout)
        if not isinstance(picture, TemplatePicture) or picture.raster is None:
            return 0.0
        found = sampled(picture.raster, self.slide, area)
        return found[1] if found is not None else 0.0

    @property
    def slide(self) -> Box:
        return Box(0, 0, self.template.width, self.template.height)

    def calm(self, layout: Layout, box: Box, least: float = 0.6) -> Box:
        """`box` cut back from its edges until it is off the drawing in the layout's
        background picture (a pencil, trees at a corner: pixels that stand out from the
        box's most common shade), a column or row of a grid at a time, the cut that takes
        the most drawing for the least room first; `box` itself when no picture draws in
        it, or when the calm part left would be under `least` of its width or height (a
        panel then backs the text)."""
        picture = self.background_picture(layout)
        if not isinstance(picture, TemplatePicture) or picture.raster is None:
            return box
        grid = drawn(picture.raster, self.slide, box)
        if not grid or not any(any(row) for row in grid):
            return box
        rows, cols = len(grid), len(grid[0])
        edges = (0, 0, cols, rows)
        while drawn_in(grid, edges):
            x0, y0, x1, y1 = edges
            cuts = [cut for k in range(1, max(cols, rows))
                    for cut in ((x0 + k, y0, x1, y1), (x0, y0 + k, x1, y1), (x0, y0, x1 - k, y1),
                                (x0, y0, x1, y1 - k))
                    if cut[2] - cut[0] >= cols * least and cut[3] - cut[1] >= rows * least]
            gains = [(cut_gain(grid, edges, c), c) for c in cuts]
            if not gains or max(gains)[0] == 0:
                return box
            edges = max(gains)[1]
        x0, y0, x1, y1 = edges
        return Box(box.x + box.w * x0 // cols, box.y + box.h * y0 // rows,
                   box.w * x1 // cols - box.w * x0 // cols, box.h * y1 // rows - box.h * y0 // rows)

    # -- what text sits on

    def background(self, layout: Layout, area: Box | None = None) -> Underneath:
        """A layout's own background, as PowerPoint finds it (the layout's, else its
        master's, else the theme's lt1): its colours and its kind ('solid', 'gradient',
        'picture'); a picture is sampled under `area` (the whole slide without one)."""
        for owner in self.owners(layout):
            bg = owner.background
            if bg is None:
                continue
            if bg.kind == "picture":
                return self.sample(bg.picture, self.slide, area or self.slide), "picture"
            colours = self.resolve(bg.colours)
            if colours:
                return colours, bg.kind
        return [self.slots.get("bg1", "#FFFFFF")], "solid"

    def ground(self, layout: Layout, area: Box | None) -> Underneath:
        """What text in `area` sits on: the topmost artwork (a shape or picture of the layout
        or its master, not a placeholder) that covers most of it, else the layout's
        background together with every opaque piece that covers a hundredth of the area or
        more, since some of the text may sit on each."""
        panels: list[str] = []
        if area is not None and area.w > 0 and area.h > 0:
            for piece in reversed(self.template.showing(layout)):  # the topmost first
                share = overlap(piece.box, area) / (area.w * area.h)
                if share * 100 < 1 or piece.kind == "group":
                    continue  # a group's colours are its pieces', not read here
                if piece.kind == "picture" or piece.picture is not None:
                    sampled = self.sample(piece.picture, piece.box, area)
                    if share * 2 >= 1:
                        return sampled, "picture"
                    panels += sampled
                    continue
                fill = piece.fill
                if fill.kind in ("solid", "gradient", "pattern") and not fill.translucent:
                    colours = self.resolve(fill.colours)
                    if colours and share * 2 >= 1:
                        return colours, "shape"
                    panels += colours
        colours, kind = self.background(layout, area)
        return colours + [c for c in panels if c not in colours], kind

    def text_ground(self, layout: Layout, frame: tuple[Box, Box | None] | None) -> Underneath:
        """What a layout's content text sits on: the ground of its content frame (None: a
        layout without a title placeholder, whose ground is its background)."""
        if frame is None:
            return self.ground(layout, None)
        title, body = frame
        return self.ground(layout, body if body is not None else title)

    def checked(self, grounds: list[tuple[Layout, Underneath]], base: Theme,
                name: str) -> tuple[Theme, Grounds, dict[str, str], list[Problem]]:
        """The template's theme colours for text (dk1), muted text (dk2), accent (accent1) and
        links (hlink), each checked for TEXT_CONTRAST against every colour each layout's text
        sits on (every stop of a gradient, the shades of a picture). A colour that fails is
        replaced, in the deck's theme too: text by black or white, the one that reads best,
        the others by their own hue darkened or lightened; the warning says so, in one line.
        The theme, these grounds on the new scheme, the slots replaced and the warnings."""
        slots = self.slots
        seen: list[tuple[str, str, str]] = []  # layout name, colour, kind
        for layout, (colours, kind) in grounds:
            seen += [(layout.name, c, kind) for c in colours]
        chosen: dict[str, str] = {}
        changed: list[str] = []
        slot_of = self.template.slot
        roles = ((slot_of("tx1"), "text", base.text), (slot_of("tx2"), "muted", base.muted),
                 ("accent1", "accent", base.accent), ("hlink", "link", base.accent))
        for slot, role, own in roles:
            colour = slots.get(slot, own)
            worst = min(seen, key=lambda g: contrast(colour, g[1]))
            if contrast(colour, worst[1]) >= TEXT_CONTRAST:
                chosen[role] = colour
                continue
            if role == "text":  # text itself: black or white, whichever reads best
                best = best_of_black_and_white([g[1] for g in seen])
            else:
                best = passing(colour, [g[1] for g in seen])
            chosen[role] = best
            if best == colour:  # nothing reads better there: left as it is, not "replaced"
                continue
            ratio = fmt.number(Fraction(contrast(colour, worst[1])), 1)
            still = min(seen, key=lambda g: contrast(best, g[1]))
            short = contrast(best, still[1])
            after = "" if short >= TEXT_CONTRAST else \
                f" (no colour reads on every ground; this one's least is " \
                f"{fmt.number(Fraction(short), 1)}:1, on {still[1]})"
            changed.append(f"{role} {colour} ({ratio}:1 on the {worst[2]} {worst[1]} background "
                           f"of layout {worst[0]!r}) -> {best}{after}")
        theme = replace(base, text=chosen["text"], muted=chosen["muted"],
                        accent=chosen["accent"], background=seen[0][1])
        if not changed:
            return theme, self, {}, []
        replaced = {slot_of("tx1"): chosen["text"], slot_of("tx2"): chosen["muted"],
                    "accent1": chosen["accent"], "hlink": chosen["link"]}
        if chosen["text"] == "#FFFFFF":  # light on dark: the light slots become the ground's
            dark = min((g[1] for g in seen), key=luminance)
            replaced[slot_of("bg1")] = dark
            replaced[slot_of("bg2")] = mix(dark, "#FFFFFF", 0.18)
            theme = replace(theme, background=dark, rule=replaced[slot_of("bg2")])
        # the slots as the theme writes them: upper-case hex
        replaced = {slot: "#" + value.lstrip("#").upper() for slot, value in replaced.items()}
        now = Grounds(self.template, tuple({**slots, **replaced}.items()))
        warning = Problem("theme colours below 4.5:1 contrast replaced: " + "; ".join(changed),
                          path=f"--template {name}")
        return theme, now, replaced, [warning]

    def for_placeholder(self, layout: Layout, kinds: tuple[str, ...], box: Box) -> str | None:
        """The colour to give the text deckgen sets in a placeholder of `kinds` at `box`, or
        None to keep the template's. The template's own colour for that placeholder (on its
        prompt text, which LibreOffice writes and new text does not inherit, or in its list
        style) is taken when it reads on what the box sits on; else the theme's text colour
        when it does; else black or white."""
        sample = None
        for owner in self.owners(layout):
            for ph in owner.placeholders:
                if ph.kind not in kinds and family(ph.kind) not in kinds:
                    continue
                for look in (ph.run, ph.listed):
                    found = self.resolve(look.colours)
                    if found:
                        sample = found[0]
                        break
                if sample:
                    break
            if sample:
                break
        master = self.template.master_of(layout)
        if sample is None:
            style = master.title_style if kinds and kinds[0] in ("title", "ctrTitle") \
                else master.body_style
            sample = _first(self.resolve(style.colours))
        grounds, _ = self.ground(layout, box)
        for colour in (sample, self.slots.get("tx1")):
            if colour and all(contrast(colour, g) >= TEXT_CONTRAST for g in grounds):
                # the theme's text colour is what the placeholder shows unless the template
                # gave it its own; then it must be written to replace that one
                return colour if sample else None
        return best_of_black_and_white(grounds)

    def fill(self, fill: Fill) -> list[str]:
        return self.resolve(fill.colours)


def _first(colours: list[str]) -> str | None:
    return colours[0] if colours else None
