"""Read a content file into plain values, remembering where each value stood; and the
mappings deckgen ships (`bundled`). PyYAML is imported here only.

Safe-load semantics only: the standard YAML scalar types, mappings and lists. Python
object tags, merge keys, duplicate keys, multiple documents and alias bombs are refused,
each as one located problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from deckgen.errors import InputError, Problem

MAX_BYTES = 1_000_000  # content files above this are refused before parsing
MAX_NODES = 20_000  # values after expanding aliases; the default content has about 300
MAX_DEPTH = 32  # nesting of lists and mappings; the default content goes 4 deep

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_PLAIN = "write plain text, numbers, lists and mappings, without tags"


@dataclass
class Tree:
    """Plain values and, for each key path ('dial.speed', 'workloads[1].count'), its place."""

    data: Any
    name: str
    marks: dict[str, tuple[int, int]] = field(default_factory=dict)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Each plain number as it was written ('5.000' where the value is 5.0), so a number that
    # reads two ways is caught although YAML has read it one way.
    written: dict[str, str] = field(default_factory=dict)
    # Problems that left the tree readable (a duplicate key, a refused tag); the validator
    # reports them with its own, so one file gives every line at once.
    problems: list[Problem] = field(default_factory=list)

    def where(self, path: str, key: bool = False) -> tuple[int, int] | None:
        """The place of `path`'s value (or its key); for a missing path, its parent's key."""
        if key and path in self.keys:
            return self.keys[path]
        if path in self.marks:
            return self.marks[path]
        while path:
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
            if path in self.keys:
                return self.keys[path]
            if path in self.marks:
                return self.marks[path]
        return None


def bundled(text: str) -> dict[str, Any]:
    """A mapping deckgen ships (a word catalogue), read with safe-load semantics and no
    locations: libyaml where PyYAML has it (the same values, several times faster)."""
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert isinstance(data, dict), "a bundled file holds one mapping"
    return data


def decode(raw: bytes, name: str) -> str:
    """The text of a content file, or an InputError saying why it is not readable text."""
    if len(raw) > MAX_BYTES:
        raise InputError(Problem(
            f"file is larger than {MAX_BYTES:,} bytes, the limit for a content file", name))
    if raw[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        raise InputError(Problem("file is UTF-32 text; save it as UTF-8", name))
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(Problem("file is UTF-16 text; save it as UTF-8", name))
    if b"\x00" in raw:
        raise InputError(Problem("file is binary, not YAML text (it contains NUL bytes)", name))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(Problem(
            f"file is not UTF-8 text (byte 0x{raw[err.start]:02x} cannot be decoded); "
            "save it as UTF-8",
            name, line, col)) from None
    return text


def parse(text: str, name: str) -> Tree:
    """Compose YAML text into a Tree; every problem found is raised at once."""
    node = _composed_fast(text)
    if node is None:
        node = _composed(text, name)
    if node is None:
        raise InputError(Problem("file is empty; it needs the sections meta, meanings, workloads, "
                                 "bottleneck, precious, checklist, sources and slides", name, 1, 1))
    walker = _Walker(name)
    try:
        data = walker.value(node, "")
    except _TooBig:
        raise InputError(walker.problems) from None
    return Tree(data, name, walker.marks, walker.keys, walker.written, walker.problems)


def _composed_fast(text: str) -> yaml.Node | None:
    """The document's nodes composed by libyaml, where PyYAML was built with it (about 15
    times faster than PyYAML's own parser); None where it was not, and for any text libyaml
    refuses, that holds a tab, that nests deeper than MAX_DEPTH or that leaves a value empty:
    `_composed` reads those again, so every problem (and the empty file) is worded as it
    always was. (A tab is refused by PyYAML in places libyaml reads it, and deckgen says
    where a tab cannot be, rather than read a value it may not mean.)

    Where both parsers read a text, they give the same values, tags and places
    (tests/test_loader.py, and a fuzzer in tests/test_fuzz.py). libyaml, YAML's reference
    parser, also reads a few spellings PyYAML refuses (such as a '?' inside a flow list);
    deckgen takes its reading of those."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None or "\t" in text or _NOT_PRINTABLE.search(text):
        return None
    loader = fast(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return node if node is not None and not _left_to_pyyaml(node) else None


# The characters PyYAML's own reader refuses (a lone surrogate would stop libyaml's encoder)
_NOT_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


def _left_to_pyyaml(root: yaml.Node) -> bool:
    """Whether PyYAML's own parser must read the document again: a value (a key, a scalar, a
    mapping or a list) sits deeper than MAX_DEPTH, `root` being 1 deep, where `_Loader`
    stops; or a value is left empty, which libyaml places elsewhere than PyYAML in some
    spellings (at the end of a file without a last line break, in a flow mapping). An alias
    is not followed: the value it names was met where its anchor wrote it, before it."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:  # in the order the document writes the values
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        if depth > MAX_DEPTH:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        elif node.value == "":
            return True
        else:
            continue
        stack.extend((child, depth + 1) for child in reversed(children))
    return False


def _composed(text: str, name: str) -> yaml.Node | None:
    """The document's nodes composed by PyYAML's own parser, refusing nesting deeper than
    MAX_DEPTH; each problem worded for a presenter, with its place."""
    loader = None
    try:
        loader = _Loader(text)
        return loader.get_single_node()
    except yaml.reader.ReaderError as err:
        line = text.count("\n", 0, err.position) + 1
        col = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        raise InputError(Problem(f"the character U+{err.character:04X} is not allowed in a YAML "
                                 "file; remove it", name, line, col)) from None
    except yaml.MarkedYAMLError as err:
        message, mark = _syntax_message(err)
        place = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise InputError(Problem(f"YAML syntax error: {message}", name, *place)) from None
    except yaml.YAMLError as err:
        raise InputError(Problem(f"YAML error: {err}", name)) from None
    finally:
        if loader is not None:
            loader.dispose()


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing nesting deeper than MAX_DEPTH before Python's stack runs out."""

    depth = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH and not self.check_event(yaml.AliasEvent):
                raise yaml.composer.ComposerError(
                    None, None, f"values are nested more than {MAX_DEPTH} levels deep",
                    self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            # PyYAML passes a mapping value's key node as its index; the stubs say int.
            return super().compose_node(parent, index)  # type: ignore[arg-type]
        finally:
            self.depth -= 1


def _at(mark: yaml.Mark | None) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else "an earlier line"


_MAX_INT_TEXT = 4000  # longer whole numbers stay text: Python converts 4,300 digits at most


def _after_text(mark: yaml.Mark | None) -> bool:
    """Whether the mark's line has something other than spaces and tabs before it."""
    buffer = getattr(mark, "buffer", None)
    if mark is None or not isinstance(buffer, str):
        return False
    start = buffer.rfind("\n", 0, mark.pointer) + 1
    return buffer[start:mark.pointer].strip(" \t") != ""


def _syntax_message(err: yaml.MarkedYAMLError) -> tuple[str, yaml.Mark | None]:
    """PyYAML's complaint in plain words, and the place that best shows the mistake."""
    problem, context = err.problem or "", err.context or ""
    if "character '\\t'" in problem:  # PyYAML shows the tab escaped
        if _after_text(err.problem_mark):
            return ("a tab inside a value cannot be read here; use spaces, or put "
                    "the value in quotes"), err.problem_mark
        return "a tab cannot indent YAML; use spaces", err.problem_mark
    if "quoted scalar" in context and "end of stream" in problem:
        return "this quote is never closed", err.context_mark
    if problem == "mapping values are not allowed here":
        return ("unexpected ':' (look at the indentation, or put a value that contains ': ' "
                "in quotes)"), err.problem_mark
    if "found character" in problem and "cannot start any token" in problem:
        char = problem.split("'")[1] if problem.count("'") >= 2 else "?"
        return f"a value cannot start with '{char}'; put the value in quotes", err.problem_mark
    if problem.startswith("found undefined alias"):
        alias = problem.split("'")[1] if problem.count("'") >= 2 else "?"
        return f"the alias *{alias} names no anchor &{alias} written before it", err.problem_mark
    if "single document" in context:
        return "a second YAML document starts here; a content file holds one", err.problem_mark
    if "expected <block end>" in problem:
        return (f"the indentation does not line up with the block that starts at "
                f"{_at(err.context_mark)}"), err.problem_mark
    if context and err.context_mark and err.context_mark != err.problem_mark:
        started = f"{context.removeprefix('while ')} that starts at {_at(err.context_mark)}"
        return f"{problem} ({started})", err.problem_mark
    plain = " ".join(part for part in (context, problem) if part)
    return plain, err.problem_mark or err.context_mark


class _Walker:
    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Problem] = []
        self.marks: dict[str, tuple[int, int]] = {}
        self.keys: dict[str, tuple[int, int]] = {}
        self.written: dict[str, str] = {}
        self.nodes = 0
        self.open: set[int] = set()  # the mappings and lists being walked, to catch loops
        self.constructor = yaml.SafeLoader("")

    def problem(self, node: yaml.Node, path: str, message: str) -> None:
        mark = node.start_mark
        self.problems.append(Problem(message, self.name, mark.line + 1, mark.column + 1,
                                     path or None))

    def value(self, node: yaml.Node, path: str) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            if self.nodes == MAX_NODES + 1:
                self.problem(node, path, f"too many values: aliases expand past {MAX_NODES:,}; "
                                         "write the content out plainly")
            raise _TooBig
        if id(node) in self.open:
            self.problem(node, path, "an alias refers to the value that contains it; "
                                     "write the content out plainly")
            return None
        if len(self.open) >= MAX_DEPTH:
            self.problem(node, path, f"values are nested more than {MAX_DEPTH} levels deep "
                                     "(through aliases); write the content out plainly")
            raise _TooBig
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP_TAG:
                self.problem(node, path, f"tag {_tag(node.tag)} is not allowed; {_PLAIN}")
                return None
            self.open.add(id(node))
            try:
                return self.mapping(node, path)
            finally:
                self.open.discard(id(node))
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                self.problem(node, path, f"tag {_tag(node.tag)} is not allowed; {_PLAIN}")
                return None
            self.open.add(id(node))
            try:
                return [self.value(item, f"{path}[{i}]") for i, item in enumerate(node.value)]
            finally:
                self.open.discard(id(node))
        if node.tag not in _SCALAR_TAGS:
            self.problem(node, path, f"tag {_tag(node.tag)} is not allowed; {_PLAIN}")
            return None
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # dates stay as written
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > _MAX_INT_TEXT:
            return node.value  # refused by its field's own rule, as its text: never converted
        if node.tag in _NUMBER_TAGS:
            self.written[path] = node.value
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            self.problem(node, path, f"value cannot be read: {err}")
            return None
        bad = _unprintable(value) if isinstance(value, str) else None
        if bad:
            self.problem(node, path, f"the text holds the character U+{ord(bad):04X}, "
                                     "which cannot be printed; remove it")
            return None
        return value

    def mapping(self, node: yaml.MappingNode, path: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first: dict[str, int] = {}
        for key_node, value_node in node.value:
            if (not isinstance(key_node, yaml.ScalarNode)
                    or key_node.tag == "tag:yaml.org,2002:merge"):
                self.problem(key_node, path,
                             "keys must be plain names (no merge keys or complex keys)")
                continue
            key = key_node.value
            bad = _unprintable(key, breaks=False)
            if bad:
                self.problem(key_node, path, f"a key holds the character U+{ord(bad):04X}; "
                                             "keys must be plain names")
                continue
            child = f"{path}.{key}" if path else key
            if key in first:
                self.problem(key_node, child, f"duplicate key '{key}' (first at line {first[key]})")
                continue
            first[key] = key_node.start_mark.line + 1
            self.keys[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = self.value(value_node, child)
        return result


class _TooBig(Exception):
    pass


def _tag(tag: str) -> str:
    """A tag as it is written in YAML: '!!python/object', not its long form."""
    short = tag.removeprefix("tag:yaml.org,2002:")
    return "!!" + short if short != tag else tag


def _unprintable(text: str, breaks: bool = True) -> str | None:
    """The first control character, lone surrogate or U+FFFE/U+FFFF (which XML, and so a
    deck, cannot carry) in `text`; tabs and line breaks are fine in values (they fold into
    spaces), never in keys."""
    found = (_UNPRINTABLE if breaks else _UNPRINTABLE_IN_KEY).search(text)
    return found.group() if found else None


# Unicode's categories Cc (U+0000-U+001F, U+007F-U+009F) and Cs (U+D800-U+DFFF), U+FFFE and
# U+FFFF; in a key also Zl (U+2028) and Zp (U+2029), and tabs and line breaks
# (tests/test_loader.py holds these to unicodedata's categories, every code point).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_UNPRINTABLE_IN_KEY = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
