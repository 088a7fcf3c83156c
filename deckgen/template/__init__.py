"""The template, read once into plain data: a `--template` is read with bounds, validated as a
package, then read (reader.py) into the values the planner reads (model.py); deckgen's own
master is such a value too (`own`, from the own-16x9.pptx and own-4x3.pptx beside this file).

Before python-pptx sees a template, it must be a regular file (not a FIFO, a device or a
folder) of at most MAX_BYTES, a zip of at most MAX_PARTS parts, each of which inflates to
at most MAX_PART_BYTES and all together to at most MAX_TOTAL_BYTES. Sizes are counted
while inflating, in small chunks, so a zip bomb is refused within a few megabytes of
memory whatever its headers claim. Then the package must be a PowerPoint presentation
(not a Word or Excel file renamed), with a theme and a slide size PowerPoint can show.
Every refusal is one line naming `--template`. No rendering library is imported here.

The file is read by deckgen.regular_file; the checks live beside this module: `bounds.py` the
limits and the counted inflation, `package.py` the parts python-pptx opens, `xml_parts.py` the
one hardened XML parser, `picture_sizes.py` the pixel counts read from pictures' headers.
`reader.py` is the one reader of the template's parts (`values.py` the values of their
elements, `artwork.py` their artwork as drawings); `theme.py` writes the theme anew for the
deck; deckgen.pictures decodes its pictures small (Pillow, imported only once one is read).
"""

from __future__ import annotations

import dataclasses
import functools
import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deckgen import fmt
from deckgen.errors import InputError, Problem
from deckgen.regular_file import NotRegular, TooLarge, os_reason, read_bounded
from deckgen.template.bounds import MAX_BYTES, SAVE, refuse
from deckgen.template.model import Template
from deckgen.template.package import Package


def read(path: Path) -> Template:
    """A template, once it is known to be a PowerPoint package deckgen can use, as plain
    data (its bytes with it)."""

    def refused(message: str) -> InputError:
        return InputError(Problem(message, str(path), path="--template"))

    try:
        data = read_bounded(path, MAX_BYTES)
    except IsADirectoryError:
        raise refused("is a folder, not a .pptx template") from None
    except NotRegular as err:
        raise refused(f"is {err}, not a .pptx template; name a regular file") from None
    except TooLarge:
        raise refused(f"is larger than {fmt.count(MAX_BYTES)} bytes, the limit for a "
                      "template") from None
    except FileNotFoundError as err:
        raise refused(f"cannot be read: {err.strerror}") from None
    except OSError as err:
        raise refused(os_reason(err)) from None
    return load(data, path)


def load(data: bytes, path: Path) -> Template:
    """A template's bytes as plain data, once they are a bounded, usable PowerPoint package:
    the parts checked are the parts python-pptx opens (the presentation through the
    package's relationship, each master through the presentation's list, each theme through
    its master's relationship). An XML part written in UTF-16 or with a DOCTYPE (no internal
    subset) is rewritten as plain UTF-8, which is what the deck is drawn on; otherwise the
    data it carries are the bytes as they are."""
    from deckgen.template import reader

    with _opened(data, path) as package:
        rewritten = package.walk()
        checked = package.rewrite(rewritten) if rewritten else data
        return reader.read(package, checked)


OWN = Path(__file__).parent  # deckgen's own masters: own-16x9.pptx and own-4x3.pptx


@functools.cache
def own(aspect: str) -> Template:
    """deckgen's own master at `aspect` ('16:9' or '4:3'), the template a deck is drawn on
    when no --template is given (scripts/own_masters.py writes its files)."""
    file = OWN / f"own-{aspect.replace(':', 'x')}.pptx"
    return dataclasses.replace(load(file.read_bytes(), file), own=True)


def themed(xml: str, colours: dict[str, str] | None = None, heading: str | None = None,
           body: str | None = None, name: str | None = None) -> str:
    """A theme's XML written anew with other colours and fonts (see `theme.themed`)."""
    from deckgen.template import theme

    return theme.themed(xml, colours, heading, body, name)


@contextmanager
def _opened(data: bytes, path: Path) -> Iterator[Package]:
    """The package in `data`, every part checked within the bounds."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as err:
        why = str(err).strip().splitlines()[0][:100] if str(err).strip() else "not a zip"
        raise refuse(path, f"is not a PowerPoint .pptx file ({why}); {SAVE}") from None
    with archive:
        package = Package(archive, path)
        package.bound()
        yield package

