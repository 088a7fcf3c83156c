"""The handout's content, front and back, as bands of sections from the story."""

from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, Paragraph, Spacer, Table, TableStyle

from deckgen.errors import RenderError
from deckgen.render.handout.chart import draw as draw_chart
from deckgen.render.handout.flowables import (
    _Grid,
    _Picture,
    _Rule,
    _Stack,
    _StepHead,
    _WriteIn,
)
from deckgen.render.handout.fonts import (
    BOLD,
    REGULAR,
    _para,
    _width,
)
from deckgen.render.handout.parts import (
    _TIGHT,
    _balance,
    _link,
    _short_link,
    _table_widths,
)
from deckgen.render.handout.sheet import (
    Band,
    Section,
    Side,
    _column_widths,
    _tagged,
)
from deckgen.render.handout.style import (
    CHART_HEIGHT,
    CHECK_BOX,
    QR_MODULES,
    SECTION_GAP,
    SMALL_PT,
    TABLE_PAD,
    TABLE_PT,
    WRITE_LINES,
    Palette,
    Styles,
    _x,
)
from deckgen.story import BarChart, Slide, Story
from deckgen.story import Table as StoryTable

PICTURE_HIGH = 45 * mm  # the tallest a presenter's picture is on the handout

# --------------------------------------------------------------------------------------------
# The content of each side


class _Builder:
    """Turns the story into the front and back sides."""

    def __init__(self, story: Story, frame_w: float) -> None:
        self.story = story
        self.p = Palette.from_theme(story.theme)
        self.s = Styles.make(self.p)
        self.frame_w = frame_w
        self.col_w = _column_widths(frame_w, 2)[0]
        self.slides = {s.kind: s for s in story.slides if s.kind != "experiment"}
        experiments = [s for s in story.slides if s.kind == "experiment"]
        self.experiments_kicker = experiments[0].kicker if experiments else ""
        self.write_lines = WRITE_LINES
        self.own = True  # the presenter's slides marked `handout: true`, when they fit

    # -- pieces

    def para(self, text: str, style: ParagraphStyle) -> Paragraph:
        return _para(_x(text), style)

    def heading(self, section: Section, slide: Slide | None, after: float = 2 * mm) -> Section:
        """The section's kicker in capitals, then its headline."""
        if slide is not None:
            section.add(self.para(slide.kicker.upper(), self.s.kicker),
                        f"slides.{slide.kind}.kicker")
            section.space(0.8 * mm)
            section.add(self.para(slide.headline.text, self.s.headline), slide.headline.origin)
        if after:
            section.space(after)
        return section

    def outline(self, kind: str) -> str | None:
        """The PDF outline's entry for a section: its slide's headline, if the talk has it."""
        slide = self.slides.get(kind)
        return slide.headline.text if slide is not None else None

    def glued(self, section: Section, slide: Slide | None) -> list[Flowable]:
        """A heading's flowables, to keep together with the section's first item."""
        return self.heading(Section(section.name), slide).flowables

    def table(self, t: StoryTable, width: float) -> Table:
        """A story table: header row, thin rules, numbers right-aligned, "our dial" marked."""
        s = self.s
        # "Our" row is set in bold, unless only regular weight keeps every cell on one line.
        bold_row = t.highlight
        widths, one_line = _table_widths(t, width, TABLE_PAD, bold_row)
        if not one_line:
            regular, one_line = _table_widths(t, width, TABLE_PAD, None)
            if one_line:
                bold_row, widths = None, regular
        header = [_para(_x(h), s.head_cell_right if a == "r" else s.head_cell)
                  for h, a in zip(t.header, t.align, strict=True)]
        rows = [header]
        for i, row in enumerate(t.rows):
            ours = i == bold_row
            cells = []
            for text, a in zip(row, t.align, strict=True):
                style = (s.head_cell_right if a == "r" else s.head_cell) if ours else \
                    (s.cell_right if a == "r" else s.cell)
                cells.append(_para(_x(text), style))
            rows.append(cells)
        table = _Grid(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
        commands: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (-1, -1), REGULAR, TABLE_PT),  # else reportlab sets Helvetica per cell
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), TABLE_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), TABLE_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 0.9 * mm),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.1 * mm),
            ("LINEBELOW", (0, 0), (-1, 0), 0.9, self.p.text),
            ("LINEBELOW", (0, 1), (-1, -1), 0.4, self.p.rule),
        ]
        if t.highlight is not None:
            marked = t.highlight + 1  # below the header row
            commands += [("BACKGROUND", (0, marked), (-1, marked), self.p.tint),
                         ("LINEBEFORE", (0, marked), (0, marked), 2.4, self.p.accent)]
        table.setStyle(TableStyle(commands))
        return table

    # -- the front

    def front(self) -> Side:
        shown = self.story.shown
        bands = [self._header()]
        if shown("meanings") or shown("dial"):
            bands.append(self._meanings_and_dial())
        if shown("workloads"):
            bands.append(self._workloads())
        if shown("bottleneck") or shown("presets") or shown("ceiling"):
            bands += self._bottleneck()
        return Side("front page", bands)

    def _header(self) -> Band:
        st, s, m = self.story, self.s, self.story.meta
        sec = Section("the header")
        left: list[Flowable] = [_tagged(self.para(m.title, s.title), "meta.title")]
        if m.subtitle:
            left += [Spacer(1, 0.8 * mm), _tagged(self.para(m.subtitle, s.body), "meta.subtitle")]
        facts = [_tagged(self.para(x, s.small_right), f"meta.{key}")
                 for key, x in (("event", m.event), ("date", m.date), ("presenter", m.presenter))
                 if x]
        facts.append(_para(f'<font name="{BOLD}" color="{self.p.accent.hexval()}">'
                               f"{escape(st.our_dial)}</font>", s.small_right))
        width = max(_width(st.our_dial, BOLD, SMALL_PT),
                    *(_width(x or "", REGULAR, SMALL_PT)
                      for x in (m.event, m.date, m.presenter)))
        width = min(width + 1 * mm, self.frame_w * 0.42)
        table = _Grid([[left, facts]], colWidths=[self.frame_w - width, width], hAlign="LEFT")
        table.setStyle(_TIGHT + [("VALIGN", (0, 0), (-1, -1), "BOTTOM")])
        sec.add(table, "meta.title").space(2.2 * mm).add(_Rule(self.p.text, 1.2))
        return Band(([sec],))

    def _meanings_and_dial(self) -> Band:
        s, labels = self.s, self.story.labels
        left = self.heading(Section("the four meanings", outline=self.outline("meanings")),
                            self.slides.get("meanings"))
        for i, card in enumerate(self.story.cards):
            tag = (f' <font name="{BOLD}" color="{self.p.accent.hexval()}">'
                   f"\u25c4 {_x(labels.our_dial.upper())}</font>" if card.ours else "")
            head = _para(f'<font size="{SMALL_PT}" color="{self.p.muted.hexval()}">'
                             f"{_x(card.label.upper())}</font>\u2002{_x(card.question)}{tag}",
                             s.strong)
            _tagged(head, f"meanings[{i}].label")
            bar = (self.p.accent, 2.4) if card.ours else (self.p.rule, 0.8)
            left.add(_Stack([head, Spacer(1, 0.5 * mm), self.para(card.text.text, s.body)],
                            3 * mm, bar), card.text.origin)
            if i < len(self.story.cards) - 1:
                left.space(1.8 * mm)

        d = self.story.dial
        right = self.heading(Section("the dial", outline=self.outline("dial")),
                             self.slides.get("dial"))
        right.add(_para(f'{_x(labels.our_dial.upper())} '
                        f'<font color="{self.p.accent.hexval()}">{_x(d.speed)}</font>',
                            s.label)).space(1.8 * mm)
        right.add(self.para(d.title, s.subhead)).space(0.6 * mm)
        right.add(self.para(d.arithmetic, s.body)).space(1.5 * mm)
        right.add(self._fitted(d.figure, s.figure, self.col_w))
        right.add(self.para(d.sentence, s.body)).space(2.5 * mm)
        right.add(_Rule(self.p.rule, 0.5)).space(1.8 * mm)
        right.add(self.para(d.at_slow_speed.upper(), s.label)).space(0.3 * mm)
        right.add(self._fitted(d.slow_figure, s.slow_figure, self.col_w))
        columns = [c for sid, c in (("meanings", [left]), ("dial", [right]))
                   if self.story.shown(sid)]
        return Band(tuple(columns))

    def _fitted(self, text: str, style: ParagraphStyle, width: float) -> Paragraph:
        """A big figure, made smaller when it would not fit the column on one line."""
        natural = _width(text, style.fontName, style.fontSize)
        if natural > width:
            size = style.fontSize * width / natural * 0.98
            style = ParagraphStyle(style.name + "-fit", parent=style, fontSize=size,
                                   leading=size * 1.15)
        return _para(_x(text), style)

    def _workloads(self) -> Band:
        t = self.story.workload_table
        sec = Section("the four-workload table", outline=self.outline("workloads"))
        slide = self.slides.get("workloads")
        if slide:
            sec.add(self.para(slide.headline.text, self.s.subhead), slide.headline.origin)
            sec.space(1.2 * mm)
        sec.add(self.table(t, self.frame_w)).space(1 * mm)
        sec.add(self.para(t.caption, self.s.muted))
        return Band(([sec],))

    def _bottleneck(self) -> list[Band]:
        s, b = self.s, self.story.bottleneck
        head = self.heading(Section("the serial bottleneck", outline=self.outline("bottleneck")),
                            self.slides.get("bottleneck"), after=0)
        left = Section("the serial bottleneck")
        left.add(self.para(b.setup.text, s.body), b.setup.origin).space(2 * mm)
        if b.has_check:  # with no check there is nothing to split: no empty bars
            chart = self.story.chart("bottleneck")
            left.add(self._chart(chart, self.col_w, CHART_HEIGHT)).space(2.5 * mm)
        left.add(self._speedups(b)).space(2.5 * mm)
        left.add(self.para(b.model.text, s.note), b.model.origin)

        right = Section("the preset-check table")
        presets = self.slides.get("presets")
        if presets:
            right.add(self.para(presets.headline.text, s.subhead), presets.headline.origin)
            right.space(1.2 * mm)
            right.add(self.table(self.story.presets_table, self.col_w)).space(1 * mm)
            right.add(self.para(self.story.presets_table.caption, s.muted)).space(3 * mm)
        if self.story.shown("ceiling"):
            right.add(_Stack([self.para(b.ceiling_sentence.text, s.strong)], 2.5 * mm,
                             (self.p.accent, 2.4)), b.ceiling_sentence.origin)
            right.space(2.5 * mm)
        if not self.story.shown("bottleneck"):  # the presets and the ceiling alone
            return [Band(([right],))]
        right.add(self.para(b.lesson.text, s.body), b.lesson.origin)
        return [Band(([head],), keep_with_next=True), Band(([left], [right]))]

    def _speedups(self, b: Any) -> Table:
        s, labels = self.s, self.story.labels
        half = self.col_w / 2
        cells = [
            [self.para(labels.writing_speedup.upper(), s.label),
             self.para(labels.end_to_end_speedup.upper(), s.label)],
            [self._fitted(b.writing_speedup, s.speedup, half - 2 * mm),
             self._fitted(b.end_to_end_speedup, s.speedup_ours, half - 2 * mm)],
            [self.para(b.writing_speedup_how, s.muted), self.para(b.end_to_end_how, s.muted)],
        ]
        if not b.has_check:  # the writing speedup alone: the end-to-end one is the same
            cells = [row[:1] for row in cells]
        table = _Grid(cells, colWidths=[half] * len(cells[0]), hAlign="LEFT")
        table.setStyle(_TIGHT + [("RIGHTPADDING", (0, 0), (-1, -1), 2 * mm),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5 * mm)])
        return table

    def _chart(self, chart: BarChart | Any, width: float, height: float) -> Flowable:
        """The bottleneck chart, drawn with reportlab's shapes (see `chart.draw`)."""
        if not isinstance(chart, BarChart):
            raise RenderError(f"the handout draws bar charts only, not the {chart.key} chart")
        return _Picture(draw_chart(chart, self.p, width, height, SMALL_PT), width)

    # -- the back

    def back(self) -> Side:
        experiments = self._experiments() if self.story.shown("experiments") else []
        return Side("back page", [*experiments, self._checklist_and_more()])

    def _experiments(self) -> list[Band]:
        s = self.s
        head = Section("the thought experiments",
                       outline=self.story.experiments_headline.text or None)
        head.add(self.para(self.experiments_kicker.upper(), s.kicker), "slides.experiments.kicker")
        if self.story.experiments_headline.text:
            head.space(0.8 * mm).add(self.para(self.story.experiments_headline.text, s.headline),
                                     self.story.experiments_headline.origin)
        head.space(2 * mm)
        bands = [Band(([head],), keep_with_next=True)]
        cells = []
        for i, e in enumerate(self.story.experiments):
            sec = Section(f"the thought experiment \u201c{e.title}\u201d")
            sec.add(self.para(e.title, s.subhead), f"workloads[{i}].title").space(0.6 * mm)
            sec.add(self.para(e.arithmetic, s.body))
            sec.add(_para(f'<font name="{BOLD}">{_x(e.writing)}</font>', s.body))
            sec.space(1.2 * mm)
            scarce = _para(f'<font name="{BOLD}">{_x(self.story.labels.still_scarce)}:</font> '
                           f"{_x(e.scarce.text)}",
                               s.body)
            bar = (self.p.accent, 2.4) if e.featured else (self.p.text, 1.2)
            sec.add(_Stack([scarce], 2.5 * mm, bar), e.scarce.origin)
            cells.append(sec)
        for i in range(0, len(cells), 2):
            pair = cells[i:i + 2]
            bands.append(Band(([pair[0]], [pair[1]] if len(pair) > 1 else [])))
        return bands

    def _checklist_and_more(self) -> Band:
        """What gets precious, the checklist, the sources and the QR code, flowing from the
        left column into the right one, balanced, in reading order."""
        s = self.s
        precious = Section("what gets precious", outline=self.outline("precious"))
        glue = self.glued(precious, self.slides.get("precious"))
        for name, text in self.story.precious:
            item = _para(f'<font name="{BOLD}">{_x(name)}.</font> {_x(text.text)}', s.body)
            precious.add(_Stack([*glue, item]), text.origin)
            precious.space(1.1 * mm)
            glue = []

        checklist = Section("the checklist", outline=self.outline("checklist")).space(SECTION_GAP)
        glue = self.glued(checklist, self.slides.get("checklist"))
        indent = CHECK_BOX + 2.5 * mm
        for i, (step, detail, write_in) in enumerate(self.story.checklist):
            head = _StepHead(self.para(step, s.strong), self.p.text)
            _tagged(head, f"checklist[{i}].step")
            unit = _Stack([*glue, head,
                           Spacer(1, 0.6 * mm), _Stack([self.para(detail.text, s.body)], indent),
                           _WriteIn(write_in, self.write_lines, s.body, self.p.muted, indent)])
            checklist.add(unit, detail.origin).space(2.5 * mm)
            glue = []

        sources = Section("the sources", outline=self.outline("sources")).space(SECTION_GAP)
        glue = self.glued(sources, self.slides.get("sources"))
        for i, src in enumerate(self.story.sources):
            line = (f'<font name="{BOLD}">{_x(src.title)}</font>. {_x(src.supports)} '
                    f'<font color="{self.p.muted.hexval()}">{_x(src.byline)}.</font>')
            if src.url:
                line += f" {_link(src.url, _short_link(src.url), self.p.accent)}"
            sources.add(_Stack([*glue, _para(line, s.body)]), f"sources[{i}].title")
            sources.space(1.4 * mm)
            glue = []
        sections = [sec for sid, sec in (("precious", precious), ("checklist", checklist),
                                          ("sources", sources)) if self.story.shown(sid)]
        if self.own:
            sections += [self._own(slide) for slide in self.story.slides
                         if slide.custom is not None and slide.custom.handout]
        if self.story.meta.url:
            qr = Section("the QR code")
            qr.space(1.5 * mm).add(self._qr(self.story.meta.url), "meta.url")
            sections.append(qr)
        return _balance(sections, self.col_w)

    def _own(self, slide: Slide) -> Section:
        """A slide of the presenter's own: its kicker, headline and words, or its picture
        (its whole self, as wide as the column allows and at most PICTURE_HIGH tall) with its
        caption and credit."""
        shows = slide.custom
        assert shows is not None
        sec = Section(f"the slide \u201c{slide.headline.text}\u201d",
                      outline=slide.headline.text).space(SECTION_GAP)
        glue = self.glued(sec, slide)
        items: list[Flowable] = []
        for bullet in shows.bullets:
            items.append(_para(f"\u2022\u2002{_x(bullet.text)}", self.s.body))
        if shows.paragraph.text:
            items.append(self.para(shows.paragraph.text, self.s.body))
        if shows.picture is not None:
            picture = shows.picture
            scale = min(self.col_w / picture.width, PICTURE_HIGH / picture.height)
            image = Image(io.BytesIO(picture.data), picture.width * scale,
                          picture.height * scale)
            image.hAlign = "LEFT"
            items.append(image)
            words = " ".join(t.text for t in (shows.caption, shows.credit) if t.text)
            if words:
                items += [Spacer(1, 0.8 * mm), self.para(words, self.s.muted)]
        sec.add(_Stack([*glue, *items]), slide.headline.origin)
        return sec

    def _qr(self, url: str) -> Table:
        drawing = qr_drawing(url)
        size = drawing.width
        link = _para(_link(url, _short_link(url, keep_path=True), self.p.accent), self.s.body)
        table = _Grid([[_Picture(drawing, size), link]], colWidths=[size + 1 * mm, None],
                      hAlign="LEFT")
        table.setStyle(_TIGHT + [("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
        return table


def qr_drawing(url: str) -> Drawing:
    """`url` as a QR code, QR_MODULES wide for its modules, with its quiet zone around them."""
    widget = QrCodeWidget(url, barLevel="M")
    widget.qr.make()
    modules = widget.qr.getModuleCount()
    size = QR_MODULES * (modules + 2 * widget.barBorder) / modules
    widget.barWidth = widget.barHeight = size
    drawing = Drawing(size, size)
    drawing.add(widget.draw())
    return drawing
