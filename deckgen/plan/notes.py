"""The speaker's notes book placed: A4 or Letter portrait (the talk's paper), each slide drawn
small at the top of its page, under it the slide's heading ("Slide 3 of 17: ...") and, when
the talk's length is given, its share of the time, then its notes at 12 pt; notes that do
not fit run on to the next page under the heading again, marked as continued.

Pure, like the rest of the plan: the text is broken into lines by the same line breaker and
set in the same faces (fallbacks included) as the slides, so the notes book embeds the faces
that measured it. Positions are points from the page's top left.
"""

from __future__ import annotations

from deckgen import fmt, words
from deckgen import story as st
from deckgen.box import Box, emu, pt
from deckgen.plan.items import Para
from deckgen.plan.kinds.fitting import Faces
from deckgen.plan.paragraphs import BoxLook, set_text
from deckgen.plan.placed import Colour, Deck, NotesBook, NotesPage, Stroke, TextLine
from deckgen.typeset.text import fold_lines
from deckgen.words import Words

# The pages' sizes in points (A4: 210 x 297 mm).
PAPER = {"a4": (210 * 72 / 25.4, 297 * 72 / 25.4), "letter": (612.0, 792.0)}
MARGIN = 48.0  # points around a page's text and slide
NOTES_PT = 12.0  # the notes' size (at least 11 pt, for reading at arm's length)
HEAD_PT = 13.0  # the slide's heading, and again on a page the notes run on to
NOTES_LINE = 1.35  # the notes' line pitch, in ems
HEAD_LINE = 1.2
AFTER = NOTES_PT * 0.5  # space after each paragraph of notes
INK = Colour("#000000")  # a notes book is printed: black on white
FRAME = Stroke(Colour("#808080"), 0.5)  # the rule around the slide drawn small
_LOOK = BoxLook(INK)

Set = list[tuple[TextLine, float]]  # lines, each with its baseline below its own top, and pitch


def notes_book(deck: Deck, story: st.Story, faces: Faces) -> NotesBook:
    """The notes book of `deck`'s slides, in the story's paper and words."""
    width, height = PAPER[story.meta.paper]
    column = width - 2 * MARGIN
    scale = column / pt(deck.width)
    said = Words(story.meta.language, story.words) if story.words \
        else words.of(story.meta.language)
    pages: list[NotesPage] = []
    count = len(deck.slides)
    for number, slide in enumerate(deck.slides, 1):
        head = said.say("notes_slide", number=fmt.ordinal(number), count=fmt.ordinal(count),
                        title=slide.title)
        lines: list[TextLine] = []
        y = _flow(lines, _set(head, HEAD_PT, True, column, faces),
                  MARGIN + pt(deck.height) * scale + HEAD_PT)
        if deck.times:
            own, by_end = deck.times[number - 1]
            timing = said.say("notes_time", own=own, minutes=fmt.count(story.meta.minutes or 0),
                              by_end=by_end)
            y = _flow(lines, _set(timing, NOTES_PT, False, column, faces), y + HEAD_PT * 0.25)
        y += NOTES_PT * 0.5
        shown, slide_at, bookmark = number, (MARGIN, MARGIN, scale), slide.title
        frame: Stroke | None = FRAME
        continued = _set(said.say("notes_continued", head=head), HEAD_PT, True, column, faces)
        for block in _blocks(slide.notes or said.no_notes):
            for line, pitch in _set(block, NOTES_PT, False, column, faces, NOTES_LINE):
                if y + pitch > height - MARGIN and lines:  # the page is full: run on
                    pages.append(NotesPage(shown, slide_at, frame, tuple(lines), bookmark))
                    shown, slide_at, frame, bookmark = 0, (0.0, 0.0, 0.0), None, ""
                    lines = []
                    y = _flow(lines, continued, MARGIN) + NOTES_PT * 0.5
                lines.append(line.moved(y))
                y += pitch
            y += AFTER
        pages.append(NotesPage(shown, slide_at, frame, tuple(lines), bookmark))
    return NotesBook(width, height, tuple(pages))


def _blocks(text: str) -> list[str]:
    """The notes' paragraphs (blank lines part them), each on one line."""
    return [" ".join(block.split()) for block in text.split("\n\n") if block.split()]


def _set(text: str, size: float, bold: bool, column: float, faces: Faces,
         line: float = HEAD_LINE) -> Set:
    """`text` broken into lines of `column` points in the body face (a word wider than the
    column, a long link, cut between characters: notes are printed whatever they hold)."""
    folded = "\n".join(fold_lines(text, faces.of_weight(False, bold), size, column))
    para = Para(folded, (size,), bold=bold, colour=None, line=line)
    box = Box(emu(MARGIN), 0, emu(column), emu(size * line * 1000))
    found = set_text([para], [size], box, (0, 0, 0, 0), "t", faces, {}, _LOOK)
    pitch = size * line
    return [(placed.moved(-k * pitch), pitch)
            for p in found for k, placed in enumerate(p.lines)]


def _flow(lines: list[TextLine], found: Set, y: float) -> float:
    """`found` added to `lines` from `y` down; the `y` below them."""
    for line, pitch in found:
        lines.append(line.moved(y))
        y += pitch
    return y
