"""Read a content file into plain values, remembering where each value stood.

Safe-load semantics only: the standard YAML scalar types, mappings and lists. Python
object tags, merge keys, duplicate keys, multiple documents and alias bombs are refused,
each as one located problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from deckgen.errors import InputError, Problem

MAX_BYTES = 1_000_000  # content files above this are refused before parsing
MAX_NODES = 20_000  # values after expanding aliases; the default content has about 300

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


@dataclass
class Tree:
    """Plain values and, for each key path ('dial.speed', 'workloads[1].count'), its place."""

    data: Any
    name: str
    marks: dict[str, tuple[int, int]] = field(default_factory=dict)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

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


def decode(raw: bytes, name: str) -> str:
    """The text of a content file, or an InputError saying why it is not readable text."""
    if len(raw) > MAX_BYTES:
        raise InputError(Problem(
            f"file is {len(raw):,} bytes; content files are limited to {MAX_BYTES:,} bytes", name))
    if b"\x00" in raw:
        raise InputError(Problem("file is binary, not YAML text (it contains NUL bytes)", name))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(Problem(
            f"file is not UTF-8 text (byte 0x{raw[err.start]:02x} cannot be decoded); save it as UTF-8",
            name, line, col)) from None
    return text


def parse(text: str, name: str) -> Tree:
    """Compose YAML text into a Tree; every problem found is raised at once."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        what = " ".join(part for part in (err.context, err.problem) if part)
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise InputError(Problem(f"YAML syntax error: {what}", name, line, col)) from None
    except yaml.YAMLError as err:
        raise InputError(Problem(f"YAML error: {err}", name)) from None
    finally:
        loader.dispose()
    if node is None:
        raise InputError(Problem("file is empty; it needs the sections meta, dial, workloads, ...", name, 1, 1))
    walker = _Walker(name)
    try:
        data = walker.value(node, "")
    except _TooBig:
        data = None
    if walker.problems:
        raise InputError(walker.problems)
    return Tree(data, name, walker.marks, walker.keys)


class _Walker:
    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Problem] = []
        self.marks: dict[str, tuple[int, int]] = {}
        self.keys: dict[str, tuple[int, int]] = {}
        self.nodes = 0
        self.constructor = yaml.SafeLoader("")

    def problem(self, node: yaml.Node, path: str, message: str) -> None:
        mark = node.start_mark
        self.problems.append(Problem(message, self.name, mark.line + 1, mark.column + 1, path or None))

    def value(self, node: yaml.Node, path: str) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            if self.nodes == MAX_NODES + 1:
                self.problem(node, path, f"too many values: aliases expand past {MAX_NODES:,}; "
                                         "write the content out plainly")
            raise _TooBig
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP_TAG:
                self.problem(node, path, f"tag {node.tag} is not allowed; use a plain mapping")
                return None
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                self.problem(node, path, f"tag {node.tag} is not allowed; use a plain list")
                return None
            return [self.value(item, f"{path}[{i}]") for i, item in enumerate(node.value)]
        if node.tag not in _SCALAR_TAGS:
            self.problem(node, path, f"tag {node.tag} is not allowed; only plain YAML values are")
            return None
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # dates stay as written
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            self.problem(node, path, f"value cannot be read: {err}")
            return None

    def mapping(self, node: yaml.MappingNode, path: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                self.problem(key_node, path, "keys must be plain names (no merge keys or complex keys)")
                continue
            key = key_node.value
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
