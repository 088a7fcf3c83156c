"""`deckgen init`: a copy of the bundled explainer to edit, as a starting point."""

from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path

from deckgen import output
from deckgen.errors import InputError, OutputError, Problem
from deckgen.template_file import kind_of

NAME = "content.yaml"
# The explainer in other languages than English: content.<language>.yaml beside content.yaml.
LANGUAGES = ("en", "de")


def bundled(language: str = "en") -> Path:
    """The explainer that comes with deckgen, in `language` ('en', 'de'): inside the package,
    or in a source checkout."""
    name = NAME if language == "en" else f"content.{language}.yaml"
    inside = resources.files("deckgen") / name
    if inside.is_file():
        return Path(str(inside))
    return Path(__file__).resolve().parent.parent / name


def write(path: Path | None, force: bool = False, language: str = "en") -> Path:
    """Write the starter to `path` (a file, or a folder to hold content.yaml); returns where.
    `language` picks the bundled talk's language ('en', 'de')."""
    if language not in LANGUAGES:
        raise InputError(Problem(f"must be one of {', '.join(LANGUAGES)} (the languages the "
                                 f"bundled talk is written in), got {language!r}",
                                 path="--language"))
    target = path if path is not None else Path(NAME)
    if target.is_dir():
        target = target / NAME
    if target.exists() and not force:
        raise InputError(Problem("already exists; pass --force to overwrite it", str(target)))
    _regular_or_nothing(target)
    if target.parent.exists() and not target.parent.is_dir():
        raise InputError(
            Problem("cannot hold a file: it is a file, not a folder", str(target.parent))
        )
    try:
        data = bundled(language).read_bytes()
    except OSError:
        raise OutputError(
            Problem("the bundled explainer is missing from this installation",
                    str(bundled(language)))
        ) from None
    output.write_all({target: data})
    return target


def _regular_or_nothing(target: Path) -> None:
    """`--force` replaces a regular file only: never a device, a FIFO or a socket (as root,
    `init /dev/null --force` would replace the system's /dev/null)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return  # nothing there (or nothing readable): the write says what is wrong
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise InputError(Problem(f"is {kind_of(mode)}, not a file; --force replaces regular "
                                 "files only", str(target)))
