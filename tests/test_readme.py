"""The README's promises, checked: its two commands and its example error line."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_quick_start_is_exactly_two_commands() -> None:
    start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", start, flags=re.S)
    assert commands == ["pip install . && deckgen build", "pip install '.[test]' && pytest"]


def test_the_example_error_is_what_deckgen_prints(default_text: str, tmp_path: Path) -> None:
    example = README.split("## When something is wrong", 1)[1].split("```")[1].strip()
    assert example.startswith("content.yaml:")
    (tmp_path / "content.yaml").write_text(default_text.replace("\n  speed: 1M\n",
                                                                "\n  speed: fast\n"))
    run = run_cli("build", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, f"content: content.yaml\n{example}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content.yaml"]
