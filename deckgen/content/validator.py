"""The validator: reads a loader's tree value by value, collecting every problem with its key
path and place (line and column) instead of stopping at the first; an unknown key is told the
nearest allowed one."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any, TypeVar

from deckgen import quantities
from deckgen.errors import Problem
from deckgen.loader import Tree

T = TypeVar("T")

MAX_TEXT = 20_000  # characters in one prose field


def describe(value: Any) -> str:
    """A value as a problem's line names it: its kind, or its text cut short."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = str(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return repr(text) if isinstance(value, str) else text


class Validator:
    """Collects located problems while it reads a Tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        # The loader's problems that left the tree readable (a duplicate key, a refused tag)
        # come first, so one run reports every problem; their paths are not reported again.
        self.problems: list[Problem] = list(tree.problems)
        self.warnings: list[Problem] = []
        self.missing: set[str] = set()  # paths already reported missing: one line each is enough
        self.refused = tuple(p.path for p in tree.problems if p.path)
        self.language = "en"  # meta.language, once read: numbers are read the way it writes them

    def _problem(self, path: str, message: str, key: bool = False,
                 into: list[Problem] | None = None) -> None:
        line, col = self.tree.where(path, key) or (None, None)
        (self.problems if into is None else into).append(
            Problem(message, self.tree.name, line, col, path or None))

    def problem(self, path: str, message: str, key: bool = False) -> None:
        if path not in self.missing and not self._inside_refused(path):
            self._problem(path, message, key)

    def _inside_refused(self, path: str) -> bool:
        """Whether the loader already reported this value, or a value inside it."""
        return any(r == path or (path and r.startswith((path + ".", path + "[")))
                   or path.startswith((r + ".", r + "[")) for r in self.refused)

    def warn(self, path: str, message: str) -> None:
        self._problem(path, "warning: " + message, into=self.warnings)

    def mapping(self, path: str, value: Any, required: tuple[str, ...],
                optional: tuple[str, ...] = ()) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            what = "must be a mapping" if path else "the file must be a mapping of sections"
            self.problem(path, f"{what} with keys {', '.join(required + optional)}, "
                               f"got {describe(value)}")
            return None
        allowed = required + optional
        for key in value:
            if key not in allowed:
                guess = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f"did you mean '{guess[0]}'? " if guess else ""
                self.problem(_join(path, key), f"unknown key '{key}'; {hint}"
                                               f"allowed: {', '.join(allowed)}", key=True)
        for key in required:
            if key not in value:
                what = "field" if path else "section"
                self.problem(_join(path, key), f"required {what} is missing")
                self.missing.add(_join(path, key))
        return value

    def field(self, path: str, value: Any, parse: Callable[[str, Any], T | None]) -> T | None:
        return parse(path, value)

    def text(self, path: str, value: Any, limit: int = MAX_TEXT) -> str | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.problem(path, f"must be text, got {describe(value)}")
            return None
        value = " ".join(value.split())
        if not value:
            self.problem(path, "must be text, got an empty string")
            return None
        if len(value) > limit:
            self.problem(path, f"is {len(value):,} characters long; at most {limit:,} are allowed")
            return None
        return str(value)

    def choice(self, path: str, value: Any, allowed: tuple[str, ...]) -> str | None:
        if not isinstance(value, str) or value not in allowed:
            self.problem(path, f"must be one of {', '.join(allowed)}, got {describe(value)}")
            return None
        return value

    def flag(self, path: str, value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, got {describe(value)}")
            return None
        return value

    def quantity(self, path: str, value: Any, parse: Callable[[Any, str], T]) -> T | None:
        """A number read by `parse`, as written in the talk's language."""
        try:
            if path in self.tree.written:
                quantities.check_unambiguous(self.tree.written[path])
            return parse(value, self.language)
        except quantities.Ambiguous as err:
            self.problem(path, str(err))
            return None
        except ValueError as err:
            self.problem(path, f"{err}, got {describe(value)}")
            return None

    def items(self, path: str, value: Any, least: int, most: int) -> list[Any]:
        if not isinstance(value, list):
            self.problem(path, f"must be a list of {least} to {most} entries, "
                               f"got {describe(value)}")
            return []
        if not least <= len(value) <= most:
            self.problem(path, f"must have {least} to {most} entries, got {len(value)}")
        return value[:most]


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)

