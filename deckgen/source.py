"""Find and read the content file: the one named, ./content.yaml, or the bundled default."""

from __future__ import annotations

import errno
from importlib import resources
from pathlib import Path

from deckgen.content import Content, validate
from deckgen.errors import InputError, OutputError, Problem
from deckgen.figures import validate_prose
from deckgen.loader import MAX_BYTES, decode
from deckgen.loader import parse as parse_yaml
from deckgen.template_file import NotRegular, TooLarge, os_reason, read_bounded


def default_path() -> Path:
    """./content.yaml when it exists, else the explainer bundled with the package."""
    here = Path("content.yaml")
    if here.is_file():
        return here
    return bundled()


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
