"""The plan: the story's slides arranged and placed on the template, once, into the placed
deck every painter draws (placed.py).

Pure: no I/O, no rendering library. `plan(story, template, typefaces)` chooses the layouts
(layouts.py), arranges each slide's content by its kind, the first arrangement that fits
(kinds/), checks the template's colours against what text sits on (grounds.py), and places
every slide on its layout (place.py): each box, each line of text in the face that measured
it (paragraphs.py), each colour, the footer and the slide's ground; the notes book is placed
from the placed deck (notes.py). A slide that does not fit, or
a template that cannot hold one, is an InputError naming every problem at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from deckgen import fmt, locale
from deckgen import story as st
from deckgen.box import union
from deckgen.content import Theme
from deckgen.errors import InputError, Problem
from deckgen.fonts import MEASURED, STAND_IN, STAND_IN_SLACK, Typefaces, known
from deckgen.plan.grounds import Grounds, Underneath
from deckgen.plan.items import ArrangedSlide
from deckgen.plan.kinds import arrange_slides
from deckgen.plan.kinds.fitting import Faces
from deckgen.plan.layouts import Layouts
from deckgen.plan.notes import notes_book
from deckgen.plan.place import Placer, is_dark
from deckgen.plan.placed import Deck, Font, NotesBook
from deckgen.template.model import BODY_KINDS, Layout, Template


def fonts_of(story: st.Story, template: Template) -> tuple[str, str]:
    """The heading and body fonts the deck carries, which draw every title and text: the
    content's on deckgen's own master or when it names them, else the template's."""
    theme = story.theme
    if _content_fonts(story, template):
        return theme.heading_font, theme.body_font
    return template.heading_font or theme.heading_font, template.body_font or theme.body_font


def _content_fonts(story: st.Story, template: Template) -> bool:
    """Whether the deck carries the content's fonts (written into the template's theme)."""
    return template.own or story.theme.fonts_named


@dataclass(frozen=True)
class ArrangedDeck:
    """The story's slides arranged on a template, before they are placed: the story with
    the deck's fonts, the template's layouts (and those content.yaml chose, by slide kind),
    the measured faces, and each slide's content as its kind arranged it."""

    story: st.Story
    layouts: Layouts
    chosen: dict[str, Layout]
    faces: Faces
    slides: list[ArrangedSlide]


def arrange(story: st.Story, template: Template, typefaces: Typefaces,
            walk: tuple[st.Slide, ...] = (), template_name: str = "template.pptx") -> ArrangedDeck:
    """The story's slides (with `walk` after the dial slide) arranged on `template`, each
    the first arrangement of its kind that fits; a template too small to hold a slide is
    refused first, one line per placeholder."""
    heading, body = fonts_of(story, template)
    story = replace(story, theme=replace(story.theme, heading_font=heading, body_font=body))
    layouts = Layouts(template, Grounds.of(template))
    slides = list(story.slides)
    at = next((i for i, s in enumerate(slides) if s.kind == "dial"), len(slides)) + 1
    slides[at:at] = walk
    chosen = {} if template.own else layouts.chosen(story, template_name)
    problems = layouts.problems(template_name, chosen)
    if problems:
        raise InputError(problems)
    kinds = {kind: layouts.geometry(cover_layout=layout) if kind == "title"
             else layouts.geometry(layout=layout) for kind, layout in chosen.items()}
    faces = Faces.of(typefaces)
    return ArrangedDeck(story, layouts, chosen, faces,
                    arrange_slides(story, layouts.geometry(), kinds, slides, faces))


def plan(story: st.Story, template: Template, typefaces: Typefaces,
         walk: tuple[st.Slide, ...] = (), template_name: str = "template.pptx") -> Deck:
    """The story's slides (with `walk` after the dial slide) placed on `template`, their
    text measured and set in `typefaces` (the fonts `fonts_of` names)."""
    arranged = arrange(story, template, typefaces, walk, template_name)
    story, layouts, chosen = arranged.story, arranged.layouts, arranged.chosen
    heading, body = story.theme.heading_font, story.theme.body_font
    unknown = unknown_fonts(story.theme)
    warnings: list[Problem] = [unknown] if unknown else []
    if template.own:
        slots = _own_slots(story.theme)
        checked = Grounds(template, tuple({**dict(template.scheme), **slots}.items()))
    else:
        _, checked, slots, found = _checked(story, layouts, layouts.grounds, chosen,
                                            template_name)
        warnings += found
    warnings += typefaces.warnings
    roles = _roles(checked)
    placer = Placer(story, layouts, checked, roles, is_dark(roles["background"]), arranged.faces,
                    chosen, layouts.geometry().title)
    placed = tuple(placer.slide(n, p) for n, p in enumerate(arranged.slides, 1))
    undrawn = sorted({what for layout in {template.layouts[s.layout] for s in placed}
                      for piece in template.showing(layout) for what in piece.undrawn}) \
        if not template.own else []
    face = typefaces.body.chain[0]
    return Deck(template.width, template.height, placed, Font(body, face.file, False, face.index),
                theme_slots=tuple(slots.items()),
                theme_fonts=(heading, body) if _content_fonts(story, template) else None,
                theme_named=template.own,
                language=locale.office_tag(story.meta.language), warnings=tuple(warnings),
                undrawn=tuple(undrawn),
                times=tuple(budget([s.notes for s in placed], story.meta.minutes))
                if story.meta.minutes else ())


def notes(deck: Deck, story: st.Story, typefaces: Typefaces) -> NotesBook:
    """The speaker's notes book of a placed deck, its text set in `typefaces` (the faces the
    slides were set in)."""
    return notes_book(deck, story, Faces.of(typefaces))


def budget(notes: list[str], minutes: int) -> list[tuple[str, str]]:
    """Each slide's share of a `minutes`-long talk, by the words of its notes, and the time
    in by its end, as text: exact shares, each rounded half up to whole seconds."""
    words = [len(text.split()) for text in notes]
    total = sum(words)
    whole = Fraction(minutes * 60)
    out, sum_so_far = [], Fraction(0)
    for count in words:
        share = whole * count / total if total else whole / len(words)
        sum_so_far += share
        out.append((fmt.duration(Fraction(fmt.round_half_up(share, 0))),
                    fmt.duration(Fraction(fmt.round_half_up(sum_so_far, 0)))))
    return out


def _own_slots(theme: Theme) -> dict[str, str]:
    """The colour slots deckgen's own master's theme takes from the content's theme."""
    return {"dk1": theme.text, "lt1": theme.background, "dk2": theme.muted, "lt2": theme.rule,
            "accent1": theme.accent, "accent2": theme.muted, "accent3": theme.rule,
            "hlink": theme.accent, "folHlink": theme.muted}


def _roles(grounds: Grounds) -> dict[str, str]:
    """'#RRGGBB' by colour role, as the deck's theme shows them (tx1, tx2, accent1, bg1, bg2)."""
    slots = grounds.slots
    return {role: "#" + slots.get(slot, default).lstrip("#").upper()
            for role, slot, default in (("text", "tx1", "#000000"), ("muted", "tx2", "#595959"),
                                        ("accent", "accent1", "#1F4E79"),
                                        ("background", "bg1", "#FFFFFF"),
                                        ("rule", "bg2", "#D9D9D9"))}


def _checked(story: st.Story, layouts: Layouts, grounds: Grounds, chosen: dict[str, Layout],
             name: str) -> tuple[Theme, Grounds, dict[str, str], list[Problem]]:
    """The theme's colours checked against the ground of the slides that use them: the
    content slides' layouts; the cover's only when its text is drawn in text boxes in the
    theme's colours (no subtitle or body placeholder: each placeholder's text is given a
    colour that reads on its own ground)."""
    template = layouts.template
    slots = template.colours
    base = replace(story.theme, text=slots.get("tx1", story.theme.text),
                   background=slots.get("bg1", story.theme.background),
                   muted=slots.get("tx2", story.theme.muted),
                   rule=slots.get("bg2", story.theme.rule),
                   accent=slots.get("accent1", story.theme.accent))
    cover = chosen.get("title", layouts.cover)
    g = layouts.geometry(cover_layout=cover)
    text_area = g.cover_title if g.cover_second is None else \
        union(g.cover_title, g.cover_second[0])
    used = [layouts.content, *(lay for kind, lay in chosen.items() if kind != "title")]
    unique = list({layouts.number(lay): lay for lay in used}.values())
    boxed = not any(k in ("subTitle", *BODY_KINDS) for k in cover.kinds())
    seen: list[tuple[Layout, Underneath]] = []
    if boxed:
        seen.append((cover, grounds.ground(cover, text_area)))
    for lay in unique:
        frame = layouts.ph.content_frame(lay) if layouts.ph.title(lay) is not None else None
        seen.append((lay, grounds.text_ground(lay, frame)))
    return grounds.checked(seen, base, name)


def unknown_fonts(theme: Theme) -> Problem | None:
    """One warning line for theme fonts with no known metric twin: they are measured with a
    wider stand-in, so text may wrap where the real face would not have."""
    unknown = list(dict.fromkeys(f for f in (theme.heading_font, theme.body_font)
                                 if not known(f)))
    if not unknown:
        return None
    names = " and ".join(repr(f) for f in unknown)
    return Problem(f"the theme font {names} has no known metric twin: its text is measured "
                   f"with {STAND_IN} and {fmt.percent((Fraction(str(STAND_IN_SLACK)) - 1) * 100)} "
                   "slack, so it may break earlier than it needs to; name a face deckgen "
                   f"measures exactly ({', '.join(MEASURED)}) in theme.fonts "
                   "(heading, body) to set it", path="theme.fonts")
