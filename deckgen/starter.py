"""`deckgen init`: a copy of the bundled explainer to edit, as a starting point."""

from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path

from deckgen import output
from deckgen.errors import InputError, OutputError, Problem
from deckgen.regular_file import kind_of

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


def target(given: str | None) -> Path:
    """Where `deckgen init GIVEN` writes: ./content.yaml; GIVEN/content.yaml when GIVEN ends
    in '/' (the folder is made) or is a folder; else the file GIVEN."""
    if given is None or given == "":
        return Path(NAME)
    if given.endswith(("/", os.sep)):
        return Path(given) / NAME
    return Path(given)


def write(path: Path | None, force: bool = False, language: str = "en") -> Path:
    """Write the starter to `path` (a file, or a folder to hold content.yaml); returns where.
    Only a missing file is written, or with `force` a regular file replaced: never a folder,
    a link, a device or anything else that is not a plain file. `language` picks the
    bundled talk's language ('en', 'de')."""
    if language not in LANGUAGES:
        raise InputError(Problem(f"must be one of {', '.join(LANGUAGES)} (the languages the "
                                 f"bundled talk is written in), got {language!r}",
                                 path="--language"))
    target = path if path is not None else Path(NAME)
    if target.is_dir() and not target.is_symlink():
        target = target / NAME
    try:
        mode: int | None = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError:
        mode = None  # a parent that is a file, or a name too long: said below or on writing
    if mode is not None and not stat.S_ISREG(mode):
        # Never a device, a FIFO or a socket: as root, `init /dev/null --force` would
        # otherwise replace the system's /dev/null.
        what = ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                else f"{kind_of(mode)}, not a file")
        raise InputError(Problem(f"is {what}; init writes a new file or, with --force, "
                                 "replaces a regular file only", str(target)))
    if mode is not None and not force:
        raise InputError(Problem("already exists; pass --force to overwrite it", str(target)))
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
