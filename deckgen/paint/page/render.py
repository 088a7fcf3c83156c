"""The page renderer: the story as one HTML file with its styles, script and data inline.

The page reads the story alone: its words and figures, and (from the story's `live` part) the
prose with every figure named and the dial's exact values the script computes from. Jinja2 with
autoescaping writes every text, so none of it can become markup; the page's data rides in a
JSON block the script parses, and a Content-Security-Policy lets only this file's own style and
script (named by their SHA-256) run. The same story gives the same bytes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from fractions import Fraction
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

import deckgen.story
from deckgen import fmt, quantities, words
from deckgen.errors import InputError, Problem, RenderError
from deckgen.pictures import Picture
from deckgen.plan.charts import style

MAX_BYTES = 150_000  # the page without the presenter's pictures, which it embeds besides
# Sections the page's script reads: when their slide is hidden they stay out of sight, not out
# of the file.
SCRIPTED = ("dial", "workloads", "bottleneck", "presets", "ceiling")
OFF_THE_PAGE = ("title", "closing")  # the page's header and footer say what these say
_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_LINK = re.compile(r"^https?://[^\s\"'<>]+$")
_FONT = re.compile(r"^[A-Za-z0-9 \-]{1,60}$")


@functools.cache
def _asset(name: str) -> str:
    """One of the page's files, read once per process (they are part of deckgen)."""
    return resources.files("deckgen.paint.page").joinpath(name).read_text(encoding="utf-8")


def _exact(value: Fraction | int) -> str:
    """An exact value for the script: '1000000' or '4/5' (parsed back as a fraction)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else (
        f"{value.numerator}/{value.denominator}")


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


LINE_WIDTH = 2  # the page's lines (page.css's .line), in its charts' units


def model(story: deckgen.story.Story) -> dict[str, Any]:
    """What the script needs to compute every figure: the dial, the workloads, the templates."""
    live = story.live
    aggregate = None if live.aggregate is None else [live.aggregate[0],
                                                     _exact(live.aggregate[1])]
    return {
        "speed": _exact(live.speed),
        "slow": _exact(live.slow),
        "workload": live.workload,
        "check": _exact(live.check),
        "presets": [_exact(c) for c in live.presets],
        "marks": [_exact(m.at) for m in live.speed_marks],
        "markLabels": [m.label for m in live.speed_marks],
        "checkMarks": [[_exact(m.at), m.label] for m in live.check_marks],
        "workloads": [{"id": w.id, "noun": w.noun, "count": w.count, "each": w.each,
                       "title": [list(p) for p in w.title]} for w in live.workloads],
        "bottleneck": live.bottleneck,
        "aggregate": aggregate,
        "prose": {"ceiling": [list(p) for p in live.ceiling],
                  "no_ceiling": [list(p) for p in live.no_ceiling]},
        "words": {name: story.words[name] for name in sorted(_LIVE_WORDS)},
        "numbers": _numbers(story),
        # each line's dash by its place among its chart's lines, as every output draws it
        "dashes": style.dasharrays(LINE_WIDTH),
    }


# The talk's words the script writes again as the dial turns (page.js's W.name, say("name")).
_LIVE_WORDS = frozenset((
    "at_speed", "bars_alt", "ceiling_alt", "check_line", "check_of", "check_valuetext",
    "dial_arithmetic", "dial_sentence", "experiment_writing", "faster", "featured",
    "legend_ceiling", "legend_no_ceiling", "line_with_ceiling", "line_without_ceiling",
    "no_ceiling", "no_check", "no_faster", "no_fixed_check", "none", "of_faster_total",
    "of_total_at", "our_dial_at", "seconds", "share_how", "slower", "summary_check",
    "summary_no_check", "tokens_per_sec", "under_ceiling", "writing_alt", "writing_at",
    "writing_chart_title",
))


def _numbers(story: deckgen.story.Story) -> dict[str, Any]:
    """How the talk's language spells numbers and reads durations, for the script: its marks,
    the percent and unit patterns ({} where the number goes), the seconds by plural category
    (the script asks the browser's CLDR plural rules for the category), the two-item pattern,
    and the unit words and words for no check a link may use."""
    n = story.numbers
    units, nothing = quantities.duration_words(story.meta.language)
    return {"tag": n.tag, "decimal": n.decimal, "group": n.group, "percent": n.percent,
            "seconds": dict(sorted(n.seconds.items())), "hours": n.hours, "minutes": n.minutes,
            "shortSeconds": n.short_seconds, "pair": n.pair,
            "units": dict(sorted(units.items())), "nothing": sorted(nothing)}


def story_texts(story: deckgen.story.Story) -> dict[str, str]:
    """The story's composed texts under the keys the page marks them with (data-story)."""
    out: dict[str, str] = {}
    v = story.dial
    for name in ("speed", "speed_mark", "title", "arithmetic", "figure", "sentence", "slow_speed",
                 "slow_figure", "at_speed", "at_slow_speed", "writing_at"):
        out[f"dial.{name}"] = getattr(v, name)
    out["our_dial"] = story.our_dial
    for prefix, t in (("wt", story.workload_table), ("pt", story.presets_table)):
        for c, cell in enumerate(t.header):
            out[f"{prefix}.h.{c}"] = cell
        for i, row in enumerate(t.rows):
            for c, cell in enumerate(row):
                out[f"{prefix}.r.{i}.{c}"] = cell
    for i, e in enumerate(story.experiments):
        for name in ("title", "arithmetic", "writing", "figure", "writing_at", "featured_label"):
            out[f"exp.{i}.{name}"] = getattr(e, name)
    b = story.bottleneck
    for name in ("check", "writing_speedup", "writing_speedup_how", "end_to_end_speedup",
                 "end_to_end_how", "slow_total", "total", "check_share", "ceiling", "summary",
                 "check_share_how"):
        out[f"b.{name}"] = getattr(b, name)
    out["b.ceiling_sentence"] = b.ceiling_sentence.text
    bars = story.chart("bottleneck")
    assert isinstance(bars, deckgen.story.BarChart)
    for i, bar in enumerate(bars.bars):
        out[f"bar.{i}.label"] = bar.label
        for j, seg in enumerate(bar.segments):
            out[f"bar.{i}.seg.{j}"] = seg.label
    for chart in story.charts:
        out[f"chart.{chart.key}.alt"] = chart.alt_text
    writing = story.chart("writing_time")
    assert isinstance(writing, deckgen.story.LineChart)
    out["chart.marker"] = writing.marker_label
    out["chart.writing_time.title"] = writing.title  # its speeds follow the dial
    return out


class _Said:
    """The talk's words by attribute, for the template: {{ w.skip }}."""

    def __init__(self, table: Any) -> None:
        self._table = table

    def __getattr__(self, name: str) -> str:
        return str(self._table[name])


def _say(table: Any, name: str, values: dict[str, str]) -> str:
    return words.SLOT.sub(lambda m: values[m.group(1)], table[name])


@functools.cache
def _environment() -> jinja2.Environment:
    """Jinja2 set up for the page, made once per process: it keeps the compiled template,
    so a watch or a sweep compiles it once."""
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: _asset(name)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env


def sections(story: deckgen.story.Story) -> list[str]:
    """The page's sections in the talk's order (content ids), then those of hidden slides the
    script reads."""
    return ([sid for sid in story.order if sid not in OFF_THE_PAGE]
            + [sid for sid in SCRIPTED if not story.shown(sid)])


def data_uri(picture: Picture) -> str:
    """A picture as a data: URI, so the page stays one file."""
    return f"data:image/{picture.format};base64," + base64.b64encode(picture.data).decode()


def render(story: deckgen.story.Story) -> bytes:
    """The page's bytes: the story at its dial, live once the script runs."""
    css = _asset("page.css")
    js = _asset("page.js")
    theme = story.theme
    colours = {name: getattr(theme, name) for name in ("text", "accent", "muted", "background",
                                                        "rule")}
    if not all(_COLOUR.match(c) for c in colours.values()):
        raise RenderError("the page takes theme colours as #RRGGBB only")
    fonts = [f for f in (theme.body_font, theme.heading_font) if _FONT.match(f)]
    family = ", ".join(f'"{f}"' for f in dict.fromkeys(fonts))
    root = (":root{" + "".join(f"--{name}:{value};" for name, value in colours.items())
            + f"--font:{family + ', ' if family else ''}system-ui, -apple-system, 'Segoe UI', "
            "Roboto, Arial, sans-serif;}")
    for text in (css, root):
        assert "</style" not in text.lower()
    assert "</script" not in js.lower()
    csp = ("default-src 'none'; "
           f"script-src {_sha256(js)}; "
           f"style-src {_sha256(root)} {_sha256(css)}; "
           "img-src data:; "
           "base-uri 'none'; form-action 'none'")

    page = _environment().get_template("page.html.j2").render(
        story=story, said=story.live.prose.__getitem__, texts=story_texts(story),
        model=model(story), csp=csp, css=Markup(css), root=Markup(root), js=Markup(js),
        lang=story.meta.language, linkable=lambda url: bool(_LINK.match(url)),
        w=_Said(story.words), say_words=lambda name, **values: _say(story.words, name, values),
        sections=sections(story), own={s.kind for s in story.slides if s.custom is not None},
        hide=lambda sid: Markup("" if story.shown(sid) else "hidden "), picture=data_uri,
    )
    data = page.encode("utf-8")
    embedded = sum(len(data_uri(s.custom.picture)) for s in story.slides
                   if s.custom is not None and s.custom.picture is not None)
    if len(data) - embedded > MAX_BYTES:
        raise InputError(Problem(
            f"the web page would be {fmt.count(len(data))} bytes, more than the "
            f"{fmt.count(MAX_BYTES)} one self-contained page may take; shorten the prose",
            story.file))
    return data
