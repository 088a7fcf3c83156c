"""Find and read the content file: the one named, ./content.yaml, or the bundled default."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from deckgen.content import Content, validate
from deckgen.errors import InputError, OutputError, Problem
from deckgen.figures import check_prose
from deckgen.loader import MAX_BYTES, decode
from deckgen.loader import parse as parse_yaml


def default_path() -> Path:
    """./content.yaml when it exists, else the explainer bundled with the package."""
    here = Path("content.yaml")
    if here.is_file():
        return here
    bundled = resources.files("deckgen") / "content.yaml"
    if bundled.is_file():
        return Path(str(bundled))
    checkout = Path(__file__).resolve().parent.parent / "content.yaml"  # a source checkout
    return checkout


def read(path: Path | None) -> tuple[Content, list[Problem]]:
    """Valid content and its warnings, or an InputError listing every problem."""
    path = path or default_path()
    name = str(path)
    if path.is_dir():
        raise InputError(Problem("is a folder, not a content file", name))
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(Problem("no such content file", name)) from None
    except PermissionError:
        raise InputError(Problem("the content file cannot be read (permission denied)",
                                 name)) from None
    except OSError as err:
        raise OutputError(Problem(f"cannot read: {err.strerror}", name)) from None
    return parse(decode(raw, name), name)


def parse(text: str, name: str) -> tuple[Content, list[Problem]]:
    """Validate content text: structure first, then every placeholder."""
    content, warnings = validate(parse_yaml(text, name))
    problems, prose_warnings = check_prose(content)
    if problems:
        raise InputError(problems)
    return content, warnings + prose_warnings
