"""The handout's content as bands of sections from the story, in the talk's order: the header,
the four meanings beside the dial, the workloads, the thought experiments and the serial
bottleneck here; what gets precious, the checklist and the sources in `lists`."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from deckgen.errors import RenderError
from deckgen.paint.handout import lists
from deckgen.paint.handout.chart import draw as draw_chart
from deckgen.paint.handout.flowables import (
    Grid,
    PictureFlowable,
    RuleFlowable,
    Stack,
)
from deckgen.paint.handout.fonts import (
    BOLD,
    REGULAR,
    paragraph,
    text_width,
)
from deckgen.paint.handout.parts import (
    TIGHT,
    table_widths,
)
from deckgen.paint.handout.sheet import (
    Band,
    Section,
    column_widths,
    tagged,
)
from deckgen.paint.handout.style import (
    CHART_HEIGHT,
    SCALES,
    SMALL_PT,
    TABLE_PAD,
    TABLE_PT,
    Palette,
    Scale,
    Styles,
    escaped,
)
from deckgen.story import BarChart, Slide, Story
from deckgen.story import Table as StoryTable

# --------------------------------------------------------------------------------------------
# The content, band by band


class Builder:
    """Turns the story into the sheet's bands at the sizes of one step of the type scale,
    with the presenter's slides marked `handout: true` or without them (`own`)."""

    def __init__(self, story: Story, frame_w: float, k: Scale = SCALES[0],
                 own: bool = True, qr: Drawing | None = None) -> None:
        self.story = story
        self.p = Palette.from_theme(story.theme)
        self.k = k
        self.s = Styles.make(self.p, k)
        self.frame_w = frame_w
        self.col_w = column_widths(frame_w, 2)[0]
        self.slides = {s.kind: s for s in story.slides if s.kind != "experiment"}
        experiments = [s for s in story.slides if s.kind == "experiment"]
        self.experiments_kicker = experiments[0].kicker if experiments else ""
        self.own = own
        self.qr = qr  # the QR code's drawing, made once for every step of the fitting

    def arrangements(self) -> list[list[Band]]:
        """The sheet's bands, in the order the talk tells it, each way they may be laid out:
        the serial bottleneck in its own two columns, then flowing on through the columns
        with what gets precious, so the page may turn inside it. Where the front ends is the
        fitting's to choose (see `fit`); the two share every other band."""
        shown = self.story.shown
        before = [self._header()]
        if shown("meanings") or shown("dial"):
            before.append(self._meanings_and_dial())
        if shown("workloads"):
            before.append(self._workloads())
        if shown("experiments"):
            before += self._experiments()
        after = lists.closing(self)
        if not (shown("bottleneck") or shown("presets") or shown("ceiling")):
            return [before + lists.precious(self) + after]
        whole, flowing = self._bottleneck()
        if not flowing:
            return [before + whole + lists.precious(self) + after]
        return [before + whole + lists.precious(self) + after,
                before + whole[:1] + [lists.flowing(self, flowing)] + after]

    # -- pieces

    def gap(self, designed: float) -> float:
        """A space between items or sections, at this step of the scale."""
        return self.k.gap(designed)

    def para(self, text: str, style: ParagraphStyle) -> Paragraph:
        return paragraph(escaped(text), style)

    def heading(self, section: Section, slide: Slide | None, after: float = 2 * mm) -> Section:
        """The section's kicker in capitals, then its headline, then `after` (as designed)."""
        if slide is not None:
            section.add(self.para(slide.kicker.upper(), self.s.kicker),
                        f"slides.{slide.kind}.kicker")
            section.space(0.8 * mm)
            section.add(self.para(slide.headline.text, self.s.headline), slide.headline.origin)
        if after:
            section.space(self.gap(after))
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
        widths, one_line = table_widths(t, width, TABLE_PAD, bold_row)
        if not one_line:
            regular, one_line = table_widths(t, width, TABLE_PAD, None)
            if one_line:
                bold_row, widths = None, regular
        header = [paragraph(escaped(h), s.head_cell_right if a == "r" else s.head_cell)
                  for h, a in zip(t.header, t.align, strict=True)]
        rows = [header]
        for i, row in enumerate(t.rows):
            ours = i == bold_row
            cells = []
            for text, a in zip(row, t.align, strict=True):
                style = (s.head_cell_right if a == "r" else s.head_cell) if ours else \
                    (s.cell_right if a == "r" else s.cell)
                cells.append(paragraph(escaped(text), style))
            rows.append(cells)
        table = Grid(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
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

    def head(self, kind: str, name: str) -> Band:
        """A section's kicker and headline across the sheet, kept with what follows."""
        section = self.heading(Section(name, outline=self.outline(kind)), self.slides.get(kind),
                               after=0)
        return Band(([section],), keep_with_next=True)

    # -- the sections, in the talk's order

    def _header(self) -> Band:
        st, s, m = self.story, self.s, self.story.meta
        sec = Section("the header")
        left: list[Flowable] = [tagged(self.para(m.title, s.title), "meta.title")]
        if m.subtitle:
            left += [Spacer(1, 0.8 * mm), tagged(self.para(m.subtitle, s.body), "meta.subtitle")]
        facts = [tagged(self.para(x, s.small_right), f"meta.{key}")
                 for key, x in (("event", m.event), ("date", m.date), ("presenter", m.presenter))
                 if x]
        facts.append(paragraph(f'<font name="{BOLD}" color="{self.p.accent.hexval()}">'
                               f"{escape(st.our_dial)}</font>", s.small_right))
        width = max(text_width(st.our_dial, BOLD, SMALL_PT),
                    *(text_width(x or "", REGULAR, SMALL_PT)
                      for x in (m.event, m.date, m.presenter)))
        width = min(width + 1 * mm, self.frame_w * 0.42)
        table = Grid([[left, facts]], colWidths=[self.frame_w - width, width], hAlign="LEFT")
        table.setStyle(TIGHT + [("VALIGN", (0, 0), (-1, -1), "BOTTOM")])
        sec.add(table, "meta.title").space(2.2 * mm).add(RuleFlowable(self.p.text, 1.2))
        return Band(([sec],))

    def _meanings_and_dial(self) -> Band:
        s, labels = self.s, self.story.labels
        left = self.heading(Section("the four meanings", outline=self.outline("meanings")),
                            self.slides.get("meanings"))
        for i, card in enumerate(self.story.cards):
            tag = (f' <font name="{BOLD}" color="{self.p.accent.hexval()}">'
                   f"\u25c4 {escaped(labels.our_dial.upper())}</font>" if card.ours else "")
            head = paragraph(f'<font size="{SMALL_PT}" color="{self.p.muted.hexval()}">'
                             f"{escaped(card.label.upper())}</font>\u2002{escaped(card.question)}{tag}",
                             s.strong)
            tagged(head, f"meanings[{i}].label")
            bar = (self.p.accent, 2.4) if card.ours else (self.p.rule, 0.8)
            left.add(Stack([head, Spacer(1, 0.5 * mm), self.para(card.text.text, s.body)],
                            3 * mm, bar), card.text.origin)
            if i < len(self.story.cards) - 1:
                left.space(self.gap(1.8 * mm))

        d = self.story.dial
        right = self.heading(Section("the dial", outline=self.outline("dial")),
                             self.slides.get("dial"))
        right.add(paragraph(f'{escaped(labels.our_dial.upper())} '
                        f'<font color="{self.p.accent.hexval()}">{escaped(d.speed)}</font>',
                            s.label)).space(self.gap(1.8 * mm))
        right.add(self.para(d.title, s.subhead)).space(0.6 * mm)
        right.add(self.para(d.arithmetic, s.body)).space(self.gap(1.5 * mm))
        right.add(self._fitted(d.figure, s.figure, self.col_w))
        right.add(self.para(d.sentence, s.body)).space(self.gap(2.5 * mm))
        right.add(RuleFlowable(self.p.rule, 0.5)).space(self.gap(1.8 * mm))
        right.add(self.para(d.at_slow_speed.upper(), s.label)).space(0.3 * mm)
        right.add(self._fitted(d.slow_figure, s.slow_figure, self.col_w))
        columns = [c for sid, c in (("meanings", [left]), ("dial", [right]))
                   if self.story.shown(sid)]
        return Band(tuple(columns))

    def _fitted(self, text: str, style: ParagraphStyle, width: float) -> Paragraph:
        """A big figure, made smaller when it would not fit the column on one line."""
        natural = text_width(text, style.fontName, style.fontSize)
        if natural > width:
            size = style.fontSize * width / natural * 0.98
            style = ParagraphStyle(style.name + "-fit", parent=style, fontSize=size,
                                   leading=size * 1.15)
        return paragraph(escaped(text), style)

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

    def _experiments(self) -> list[Band]:
        """The thought experiments' kicker and headline across the sheet, then the
        experiments two by two."""
        s = self.s
        head = Section("the thought experiments",
                       outline=self.story.experiments_headline.text or None)
        head.add(self.para(self.experiments_kicker.upper(), s.kicker), "slides.experiments.kicker")
        if self.story.experiments_headline.text:
            head.space(0.8 * mm).add(self.para(self.story.experiments_headline.text, s.headline),
                                     self.story.experiments_headline.origin)
        bands = [Band(([head],), keep_with_next=True)]
        cells = []
        for i, e in enumerate(self.story.experiments):
            sec = Section(f"the thought experiment \u201c{e.title}\u201d")
            sec.add(self.para(e.title, s.subhead), f"workloads[{i}].title").space(0.6 * mm)
            sec.add(self.para(e.arithmetic, s.body))
            sec.add(paragraph(f'<font name="{BOLD}">{escaped(e.writing)}</font>', s.body))
            sec.space(1.2 * mm)
            scarce = paragraph(f'<font name="{BOLD}">'
                               f"{escaped(self.story.labels.still_scarce)}:</font> "
                               f"{escaped(e.scarce.text)}", s.body)
            bar = (self.p.accent, 2.4) if e.featured else (self.p.text, 1.2)
            sec.add(Stack([scarce], 2.5 * mm, bar), e.scarce.origin)
            cells.append(sec)
        for i in range(0, len(cells), 2):
            pair = cells[i:i + 2]
            bands.append(Band(([pair[0]], [pair[1]] if len(pair) > 1 else []),
                              continues=i + 2 < len(cells)))
        return bands

    def _bottleneck(self) -> tuple[list[Band], list[Section]]:
        """The heading across the sheet; below it the setup and the chart, the speedups and
        the model, then the preset checks' table, the ceiling and the lesson, in two columns;
        and the same (the table kept whole with its title and caption) as sections to flow
        on with what follows. Without the bottleneck, the table and the ceiling alone."""
        s, b = self.s, self.story.bottleneck
        chart = [tagged(self.para(b.setup.text, s.body), b.setup.origin)]
        if b.has_check:  # with no check there is nothing to split: no empty bars
            chart += [Spacer(1, self.gap(2 * mm)),
                      self._chart(self.story.chart("bottleneck"), self.col_w)]
        figures = [self._speedups(b), Spacer(1, self.gap(2.5 * mm)),
                   tagged(self.para(b.model.text, s.note), b.model.origin)]
        presets: list[Flowable] = []
        slide = self.slides.get("presets")
        if slide:
            presets = [tagged(self.para(slide.headline.text, s.subhead), slide.headline.origin),
                       Spacer(1, 1.2 * mm), self.table(self.story.presets_table, self.col_w),
                       Spacer(1, 1 * mm), self.para(self.story.presets_table.caption, s.muted)]
        ceiling: list[Flowable] = []
        if self.story.shown("ceiling"):
            ceiling = [tagged(Stack([self.para(b.ceiling_sentence.text, s.strong)], 2.5 * mm,
                                      (self.p.accent, 2.4)), b.ceiling_sentence.origin)]
        table_gap, gap = Spacer(1, self.gap(3 * mm)), Spacer(1, self.gap(2.5 * mm))
        if not self.story.shown("bottleneck"):  # the presets and the ceiling alone
            return [Band(([Section("the preset-check table", [*presets, table_gap]),
                           Section("the ceiling", ceiling)],))], []
        ceiling += [gap] * bool(ceiling) + [tagged(self.para(b.lesson.text, s.body),
                                                    b.lesson.origin)]
        name = "the serial bottleneck"
        left = Section(name, [*chart, gap, *figures])
        right = [Section("the preset-check table", [*presets, table_gap] if presets else []),
                 Section("the ceiling", ceiling)]
        flowing = [Section(name, [*chart, gap]), Section(name, [*figures, table_gap]),
                   Section("the preset-check table", [Stack(presets), table_gap] if presets
                           else []),
                   Section("the ceiling", ceiling)]
        return [self.head("bottleneck", name), Band(([left], right))], flowing

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
        table = Grid(cells, colWidths=[half] * len(cells[0]), hAlign="LEFT")
        table.setStyle(TIGHT + [("RIGHTPADDING", (0, 0), (-1, -1), 2 * mm),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5 * mm)])
        return table

    def _chart(self, chart: BarChart | Any, width: float) -> Flowable:
        """The bottleneck chart, drawn with reportlab's shapes (see `chart.draw`), as tall as
        this step of the scale makes it, or as designed when its labels need that."""
        if not isinstance(chart, BarChart):
            raise RenderError(f"the handout draws bar charts only, not the {chart.key} chart")
        if self.k.chart < CHART_HEIGHT:
            try:
                drawn = draw_chart(chart, self.p, width, self.k.chart, SMALL_PT)
                return PictureFlowable(drawn, width)
            except RenderError:
                pass  # its labels need more room: the designed height
        return PictureFlowable(draw_chart(chart, self.p, width, CHART_HEIGHT, SMALL_PT), width)
