"""Count the suite's test functions and assert statements (a suite may only grow).

    python bench/count_tests.py [TESTS_DIR]

A test function is a top-level `def test_...` (or one inside a `Test...` class); an assertion
is an `assert` statement or a `pytest.raises` block anywhere in the tests folder, helpers
included. Parametrized cases are counted by pytest itself (`pytest --collect-only -q`).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def count(folder: Path) -> dict[str, tuple[int, int, int]]:
    found = {}
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tests = sum(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                    and node.name.startswith("test") for node in ast.walk(tree))
        asserts = sum(isinstance(node, ast.Assert) for node in ast.walk(tree))
        raises = sum(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                     and node.func.attr == "raises" for node in ast.walk(tree))
        found[path.name] = (tests, asserts, raises)
    return found


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests"
    found = count(folder)
    for name, (tests, asserts, raises) in found.items():
        print(f"{name:<28} {tests:>4} tests {asserts:>5} asserts {raises:>3} raises")
    tests, asserts, raises = (sum(column) for column in zip(*found.values(), strict=True))
    print(f"{'total':<28} {tests:>4} tests {asserts:>5} asserts {raises:>3} raises")


if __name__ == "__main__":
    main()
