"""Find and read the content file: the one named; else content.yaml in the working folder or
the nearest folder above it (up to the repository's root or the home folder, as git and
Quarto find their project); else the bundled explainer."""

from __future__ import annotations

import errno
import os
from importlib import resources
from pathlib import Path

from deckgen.content import Content
from deckgen.content.validation import validate
from deckgen.errors import InputError, OutputError, Problem
from deckgen.figures import validate_prose
from deckgen.loader import MAX_BYTES, decode
from deckgen.loader import parse as parse_yaml
from deckgen.regular_file import NotRegular, TooLarge, os_reason, read_bounded


def default_path() -> Path:
    """The content file used when none is named (see `find`)."""
    return find()[0]


def find() -> tuple[Path, str]:
    """The content file used when none is named, and how it was found: 'here' (./content.yaml),
    'above' (content.yaml in a folder above, as a relative path), or 'bundled'. The search
    goes up from the working folder and stops after a folder holding `.git` (a repository's
    root) or the home folder."""
    try:
        start = Path.cwd()
    except OSError:  # the working folder was removed
        return bundled(), "bundled"
    home = _home()
    for folder in (start, *start.parents):
        candidate = folder / "content.yaml"
        if candidate.is_file():
            if folder == start:
                return Path("content.yaml"), "here"
            return Path(os.path.relpath(candidate, start)), "above"
        if folder == home or (folder / ".git").exists():
            break
    return bundled(), "bundled"


def _home() -> Path | None:
    try:
        return Path.home()
    except (RuntimeError, KeyError):
        return None


def bundled() -> Path:
    """The explainer that comes with the package."""
    packaged = resources.files("deckgen") / "content.yaml"
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "content.yaml"  # a source checkout


def read(path: Path | None) -> tuple[Content, list[Problem]]:
    """Valid content and its warnings, or an InputError listing every problem.

    The content file must be a regular file: a FIFO, a device or a folder is refused
    before anything is read (so nothing waits on it), and at most MAX_BYTES + 1 bytes are
    read."""
    path = path or default_path()
    name = str(path)
    try:
        raw = read_bounded(path, MAX_BYTES)
    except IsADirectoryError:
        raise InputError(Problem("is a folder, not a content file", name)) from None
    except NotRegular as err:
        if str(err) == "a folder":
            raise InputError(Problem("is a folder, not a content file", name)) from None
        raise InputError(Problem(f"is {err}, not a content file; name a regular file",
                                 name)) from None
    except TooLarge:
        raw = b"\x00" * (MAX_BYTES + 1)  # decode() says it is too large
    except FileNotFoundError:
        raise InputError(Problem("no such content file", name)) from None
    except PermissionError:
        raise InputError(Problem("the content file cannot be read (permission denied)",
                                 name)) from None
    except OSError as err:
        if err.errno in (errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR):
            raise InputError(Problem(os_reason(err), name)) from None
        raise OutputError(Problem(f"cannot read: {err.strerror}", name)) from None
    return parse(decode(raw, name), name)


def parse(text: str, name: str) -> tuple[Content, list[Problem]]:
    """Validate content text: structure first, then every placeholder."""
    content, warnings = validate(parse_yaml(text, name))
    problems, prose_warnings = validate_prose(content)
    if problems:
        raise InputError(problems)
    return content, warnings + prose_warnings
