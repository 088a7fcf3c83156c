"""Fuzzing: no content file, however broken, gets anything but a clean answer.

Random YAML documents, random text and random mutations of the default content.yaml go through
the whole pure pipeline (load, validate, placeholders, figures, report, story). Every outcome is
either success or a DeckgenError whose lines each name one problem; any other exception is a bug.
The run is bounded: a fixed number of examples, small inputs, and a watchdog on time and memory.
"""

from __future__ import annotations

import copy
import os
import resource
import signal
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
import yaml
from conftest import DEFAULT_CONTENT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_loader import same_nodes

from deckgen import build, loader, pipeline, quantities, report, source, story
from deckgen.content import Content
from deckgen.errors import DeckgenError, InputError
from deckgen.figures import figures, with_overrides

DEFAULT_TEXT = DEFAULT_CONTENT.read_text(encoding="utf-8")
DEFAULT_DATA = yaml.safe_load(DEFAULT_TEXT)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
needs_libyaml = pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False),
                                   reason="PyYAML was built without libyaml")


def _dump(data: Any, **options: Any) -> str:
    """yaml.safe_dump, by libyaml when PyYAML has it: the same text, several times faster (the
    default content takes 6 ms in Python), and the fuzz tests dump a document per example."""
    return str(yaml.dump(data, Dumper=_DUMPER, **options))


# CI runs a fixed, repeatable sample of 50 examples a fuzzer (the mutated and the edited
# default content each keep files deckgen accepts as well as files it refuses: 2 and 20 of 50
# are accepted); DECKGEN_FUZZ_EXAMPLES=5000 hunts longer with fresh examples.
EXAMPLES = os.environ.get("DECKGEN_FUZZ_EXAMPLES")
FUZZ = settings(max_examples=int(EXAMPLES or 50), deadline=None, derandomize=EXAMPLES is None,
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def bounded() -> Iterator[None]:
    """Each fuzz test gets 240 s and 2 GB more address space; past that it fails, never hangs."""
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("a fuzz test ran past its 240 s bound")

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + 2 * 2**30
    if hard == resource.RLIM_INFINITY or limit < hard:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(0 if EXAMPLES else 240)  # a long hunt on request runs as long as it needs
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def outcome(text: str) -> str:
    """'ok' or 'refused'; anything but a clean DeckgenError escapes and fails the test."""
    try:
        content, warnings = source.parse(text, "fuzz.yaml")
    except DeckgenError as err:
        assert isinstance(err, InputError)
        assert err.problems
        for line in err.lines():
            assert line.startswith("fuzz.yaml") and "\n" not in line and "\r" not in line, line
        return "refused"
    for w in warnings:
        assert "\n" not in str(w)
    report.as_text(content)
    report.as_json(content)
    story.compose(content)
    return "ok"


# -- random YAML ----------------------------------------------------------------------------

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**40, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.from_regex(r"[-+]?\d{0,7}(\.\d{0,3})?([eE][-+]?\d{1,4})? ?(k|K|M|T|s|min|h|day|tokens/sec)?",
                  fullmatch=True),
    st.sampled_from(["{dial.speed}", "{", "}", "{}", "{nope}", "{{dial.speed}}", "1M", "60 s",
                     "none", "endings", "apps", "#B4400A", "https://example.org", "16:9", "a4"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=12), inner, max_size=5)),
    max_leaves=30)


@FUZZ
@given(values)
def test_random_yaml_documents(data: Any) -> None:
    outcome(_dump(data, allow_unicode=True))


yaml_alphabet = st.sampled_from(list("ab:-_ \n\t[]{},&*!|>'\"#%@`?.0123456789eE+")
                                + ["\u00e9", "\u0000", "\ufeff", "\u2028"])


@FUZZ
@given(st.text(yaml_alphabet, max_size=200))
def test_random_text(text: str) -> None:
    outcome(text)


# -- mutations of the default content --------------------------------------------------------

def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*path, i))


PATHS = [p for p in _paths(DEFAULT_DATA) if p]


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """The default content as data, with one to four random changes, dumped back to YAML."""
    data = copy.deepcopy(DEFAULT_DATA)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(PATHS))
        try:
            parent = _parent(data, path)
            parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced this path
        action = draw(st.sampled_from(["delete", "replace", "replace", "rename", "duplicate"]))
        last = path[-1]
        if action == "delete":
            del parent[last]
        elif action == "replace":
            parent[last] = draw(values)
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = parent.pop(last)
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
    return _dump(data, allow_unicode=True, sort_keys=False)


@FUZZ
@given(mutated())
def test_mutated_default_content(text: str) -> None:
    outcome(text)


@st.composite
def edited(draw: st.DrawFn) -> str:
    """The default content.yaml as text with a few characters or lines inserted, cut or swapped."""
    text = DEFAULT_TEXT
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "line"]))
        if action == "insert":
            text = text[:at] + draw(st.text(yaml_alphabet, min_size=1, max_size=8)) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            lines = text.splitlines(keepends=True)
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
    return text


@FUZZ
@given(edited())
def test_edited_default_text(text: str) -> None:
    outcome(text)


def read_alike(text: str) -> None:
    """Where libyaml and PyYAML's own parser both read `text`, they read the same values at
    the same places. (libyaml, the reference parser, reads a few spellings PyYAML refuses,
    such as a '?' inside a flow list: deckgen takes libyaml's reading of those.)"""
    fast = loader._composed_fast(text)
    if fast is None:
        return
    try:
        expected = loader._composed(text, "fuzz.yaml")
    except InputError:
        return
    assert same_nodes(fast, expected)


@FUZZ
@needs_libyaml
@given(st.one_of(st.text(yaml_alphabet, max_size=200), edited(), mutated()))
def test_libyaml_reads_as_pyyaml_does(text: str) -> None:
    read_alike(text)


def test_the_fuzzers_reach_both_outcomes() -> None:
    """The mutations are not all refused: some keep a valid file, so the later stages run too."""
    assert outcome(DEFAULT_TEXT) == "ok"
    data = copy.deepcopy(DEFAULT_DATA)
    data["dial"]["speed"] = "2.5K"
    assert outcome(_dump(data, allow_unicode=True, sort_keys=False)) == "ok"
    data["dial"]["speed"] = float("nan")
    assert outcome(_dump(data, allow_unicode=True, sort_keys=False)) == "refused"


# -- the command line's dial options ---------------------------------------------------------

DEFAULT, _ = source.parse(DEFAULT_TEXT, "content.yaml")
option_text = st.one_of(st.text(max_size=20), scalars.map(str))


@FUZZ
@given(option_text, option_text, option_text)
def test_dial_options(speed: str, check: str, workload: str) -> None:
    try:
        content = with_overrides(DEFAULT, speed, check, workload)
    except InputError as err:
        assert all("\n" not in line and line.startswith("--") for line in err.lines())
        return
    report.as_text(content)
    story.compose(content)


# -- valid but extreme dials -----------------------------------------------------------------

def _decimal_text(low: str, high: str) -> st.SearchStrategy[str]:
    """Decimal numbers as text from `low` to `high`, spread over every decade between them."""
    lo, hi = Decimal(low), Decimal(high)
    spread = st.builds(lambda m, e: min(max(Decimal(m).scaleb(e), lo), hi),
                       st.integers(1, 999), st.integers(lo.adjusted() - 2, hi.adjusted()))
    return (spread | st.sampled_from([lo, hi])).map(lambda d: format(d.normalize(), "f"))


speeds = _decimal_text("0.001", "1000000000000")
checks = st.one_of(st.just("0"), _decimal_text("0.001", "31622400").map(lambda d: f"{d} s"))
counts = st.integers(1, 10**9)


@st.composite
def extreme_text(draw: st.DrawFn) -> str:
    data = copy.deepcopy(DEFAULT_DATA)
    dial = data["dial"]
    pair = sorted((draw(speeds), draw(speeds)), key=Decimal, reverse=True)
    dial["speed"], dial["slow_speed"] = pair
    dial["fixed_check"] = draw(checks)
    dial["check_presets"] = draw(st.lists(checks, min_size=1, max_size=6))
    marks = sorted({Decimal(s) for s in draw(st.lists(speeds, min_size=2, max_size=8))})
    dial["speed_marks"] = [format(m, "f") for m in marks] if len(marks) >= 2 else ["1", "2"]
    dial["workload"] = draw(st.sampled_from([w["id"] for w in data["workloads"]]))
    for w in data["workloads"]:
        w["count"], w["tokens_each"] = draw(counts), draw(counts)
    return _dump(data, allow_unicode=True, sort_keys=False)


@FUZZ
@given(extreme_text())
def test_valid_extreme_dials(text: str) -> None:
    assert outcome(text) == "ok"


# -- random valid dials, built: the files show the math's figures -----------------------------

BOTH = ("dial.speed", "dial.slow_speed", "dial.writing_speedup", "dial.count", "dial.output_tokens",
        "dial.writing_time", "dial.slow_writing_time", "bottleneck.fixed_check",
        "bottleneck.writing_time", "bottleneck.total", "bottleneck.slow_total",
        "bottleneck.end_to_end_speedup")
# With no check, the bottleneck shows the writing speedup alone: no 0.0% share, no ceiling.
WITH_A_CHECK = ("bottleneck.ceiling", "bottleneck.check_share")


def _dial(speed: str, check: str, workload: str, count: int, tokens_each: int) -> Content:
    dial = replace(DEFAULT.dial, speed=quantities.parse_speed(speed),
                   fixed_check=quantities.parse_duration(check), workload=workload)
    workloads = tuple(replace(w, count=count, tokens_each=tokens_each) if w.id == workload else w
                      for w in DEFAULT.workloads)
    return replace(DEFAULT, dial=dial, workloads=workloads)


@settings(FUZZ, max_examples=int(EXAMPLES) if EXAMPLES else 8)
@given(st.builds(lambda m, e: str(m * 10**e), st.integers(1, 99), st.integers(2, 5)),
       st.sampled_from(["0", "1 s", "60 s", "90 s", "15 min", "2 h", "24 h"]),
       st.sampled_from([w.id for w in DEFAULT.workloads]),
       st.integers(1, 20_000), st.integers(1, 20_000))
def test_built_files_show_the_maths_figures(speed: str, check: str, workload: str, count: int,
                                            tokens_each: int) -> None:
    from test_unicode import deck_text, handout_text

    content = _dial(speed, check, workload, count, tokens_each)
    table = figures(content)
    files, _ = pipeline.files(content, build.Options(only=("deck", "handout")))
    deck = " ".join(deck_text(files["deck"]).replace("\xa0", " ").split())
    handout = " ".join(handout_text(files["handout"]).replace("\xa0", " ").split())
    for name in BOTH + (WITH_A_CHECK if content.dial.fixed_check else ()):
        text = table[name].text.replace("\xa0", " ")
        assert text in deck, (name, text)
        assert text in handout, (name, text)


@settings(FUZZ, max_examples=int(EXAMPLES) if EXAMPLES else 4)
@given(st.sampled_from(["100", "1000000000000", "123456.789", "99999999999"]),
       st.sampled_from(["0", "0.001 s", "366 days", "0.5 s"]),
       st.sampled_from([w.id for w in DEFAULT.workloads]),
       st.sampled_from([1, 7, 10**9]), st.sampled_from([1, 13, 10**9]))
def test_built_files_at_the_documented_limits_build_or_fail_cleanly(
        speed: str, check: str, workload: str, count: int, tokens_each: int) -> None:
    """At the limits a figure may not fit its slide; that is a clean error, never a crash."""
    try:
        pipeline.files(_dial(speed, check, workload, count, tokens_each), build.Options())
    except DeckgenError as err:
        assert err.problems and all("\n" not in line for line in err.lines())
