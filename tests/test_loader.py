"""The content file is read by libyaml where PyYAML has it, and by PyYAML's own parser where
the text is not plain, well-formed YAML: both must give the same values at the same places,
and every problem must be worded as PyYAML's parser lets deckgen word it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import DEFAULT_CONTENT

from deckgen import loader
from deckgen.errors import InputError

ROOT = DEFAULT_CONTENT.parent
BUNDLED = [DEFAULT_CONTENT, ROOT / "content.de.yaml",
           *sorted((ROOT / "deckgen" / "words").glob("*.yaml"))]

pytestmark = pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False),
                                reason="PyYAML was built without libyaml")


def same_nodes(fast: yaml.Node | None, pure: yaml.Node | None) -> bool:
    """Whether two composed documents hold the same values, tags and places, an alias
    leading to the same value in both."""
    pairs: dict[int, int] = {}

    def same(a: yaml.Node | None, b: yaml.Node | None) -> bool:
        if a is None or b is None:
            return a is b
        if id(a) in pairs:
            return pairs[id(a)] == id(b)
        pairs[id(a)] = id(b)
        if (type(a), a.tag) != (type(b), b.tag):
            return False
        if (a.start_mark.line, a.start_mark.column) != (b.start_mark.line, b.start_mark.column):
            return False
        if isinstance(a, yaml.ScalarNode):
            return bool(a.value == b.value)
        if len(a.value) != len(b.value):
            return False
        if isinstance(a, yaml.MappingNode):
            return all(same(ka, kb) and same(va, vb)
                       for (ka, va), (kb, vb) in zip(a.value, b.value, strict=True))
        return all(same(x, y) for x, y in zip(a.value, b.value, strict=True))
    return same(fast, pure)


def pure(text: str) -> yaml.Node | None:
    return loader._composed(text, "t.yaml")


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_the_bundled_files_read_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = loader._composed_fast(text)
    assert fast is not None  # plain, well-formed YAML: read by libyaml
    assert same_nodes(fast, pure(text))


# Shapes of YAML a presenter writes, and some a presenter rarely does.
ALIKE = [
    "a: 1\nb: [1, 2, {c: d}]\n",
    "text: >\n  folded\n  lines\n\n  and a paragraph\nkeep: |\n  kept\n   indented\n",
    "é: ü\nname: 'Ünïcødé ✓ 日本語 😀'\nnext: here\n",
    "anchor: &a {x: 1, y: [2, 3]}\nagain: *a\nthird: *a\n",
    "crlf: 1\r\nnext: two\r\n",
    "\ufeffbom: first\n",
    "quoted: \"tab\\there\"\nsingle: 'it''s'\n",
    "- 1\n- 2.5\n- 1e3\n- true\n- null\n- 2026-12-03\n- 0x1F\n- .inf\n",
    "line\u2028sep: 1\n",
    "key: value # a comment\n# a closing comment\n",
    "?\n",
    "?",
    "a:",
    "a: {b: }\n",
    "a: ''\n",
    "",
    "# only a comment\n",
    "!!python/object:os.system x\n",
    "a: !custom 1\n",
]


@pytest.mark.parametrize("text", ALIKE)
def test_texts_read_alike(text: str) -> None:
    fast = loader._composed_fast(text)
    try:
        expected = pure(text)
    except InputError:
        assert fast is None
        return
    assert fast is None or same_nodes(fast, expected)


@pytest.mark.parametrize("text, value", [
    ("presets: [none, 1?5 min]\n", {"presets": ["none", "1?5 min"]}),
])
def test_libyaml_s_reading_stands_where_pyyaml_s_parser_refuses(text: str, value: object) -> None:
    """libyaml, YAML's reference parser, reads a few spellings PyYAML's own parser refuses."""
    with pytest.raises(InputError):
        pure(text)
    assert loader.parse(text, "t.yaml").data == value


def nested(depth: int) -> str:
    """Mappings `depth` deep, the deepest holding one key and its value, one deeper."""
    return "".join(f"{'  ' * i}k{i}:\n" for i in range(depth - 1)) + f"{'  ' * (depth - 1)}k: v\n"


def test_nesting_is_refused_where_pyyaml_s_parser_refuses_it() -> None:
    deepest = nested(loader.MAX_DEPTH - 1)  # its last key and value at MAX_DEPTH: allowed
    assert same_nodes(loader._composed_fast(deepest), pure(deepest))
    too_deep = nested(loader.MAX_DEPTH)  # one deeper: refused at the last key
    assert loader._composed_fast(too_deep) is None
    with pytest.raises(InputError) as err:
        loader.parse(too_deep, "t.yaml")
    [problem] = err.value.problems
    assert f"nested more than {loader.MAX_DEPTH} levels deep" in str(problem)
    assert (problem.line, problem.col) == (loader.MAX_DEPTH, 2 * loader.MAX_DEPTH - 1)
    # An alias deep down is not a value written there: neither parser refuses it.
    aliased = "top: &a v\n" + nested(loader.MAX_DEPTH - 1).replace("k: v", "k: *a")
    assert same_nodes(loader._composed_fast(aliased), pure(aliased))


@pytest.mark.parametrize("text, message, place", [
    ("a: 1\n\tb: 2\n", "a tab cannot indent YAML; use spaces", (2, 1)),
    ("a: \"open\n", "this quote is never closed", (1, 4)),
    ("a: b: c\n", "unexpected ':'", (1, 5)),
    ("a: *nope\n", "the alias *nope names no anchor &nope", (1, 4)),
    ("a: 1\n---\nb: 2\n", "a second YAML document starts here", (2, 1)),
    ("a: \x07\n", "the character U+0007 is not allowed", (1, 4)),
    ("a: \ud800\n", "the character U+D800 is not allowed", (1, 4)),  # libyaml takes bytes
    ("a: Ada\tLovelace\n", "a tab inside a value cannot be read here", (1, 7)),  # libyaml reads it
])
def test_problems_are_worded_by_pyyaml_s_parser(text: str, message: str,
                                                place: tuple[int, int]) -> None:
    assert loader._composed_fast(text) is None
    with pytest.raises(InputError) as err:
        loader.parse(text, "t.yaml")
    [problem] = err.value.problems
    assert message in str(problem)
    assert (problem.line, problem.col) == place


def test_unprintable_characters_are_unicode_s_control_and_surrogate_categories() -> None:
    """What the loader refuses in a value, and in a key, is exactly what Unicode's categories
    say, every code point: control characters and lone surrogates, U+FFFE and U+FFFF, and in
    keys line and paragraph separators, tabs and line breaks too."""
    import unicodedata

    every = "".join(map(chr, range(0x110000)))
    refused = {c for c in every if unicodedata.category(c) in ("Cc", "Cs")} | {"\ufffe", "\uffff"}
    in_key = refused | {c for c in every if unicodedata.category(c) in ("Zl", "Zp")}
    assert set(loader._UNPRINTABLE.findall(every)) == refused - set("\t\n\r")
    assert set(loader._UNPRINTABLE_IN_KEY.findall(every)) == in_key
    assert loader._unprintable("tab\tok, bell\x07 no\x00") == "\x07"
    assert loader._unprintable("tab\tno", breaks=False) == "\t"
    assert loader._unprintable("plain \u00e9 \U0001F600") is None
