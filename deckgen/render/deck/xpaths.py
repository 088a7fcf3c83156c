"""python-pptx's XML elements, finding their parts with XPath expressions compiled once.

python-pptx looks up a shape's placeholder, a chart's series or a point's data label with
`BaseOxmlElement.xpath`, which hands lxml the expression's text each time, so lxml compiles
it again on every call: a deck makes some 1,500 such calls per slide, about a tenth of the
time it takes to draw one. `compile_once` replaces that method with one that keeps each
expression compiled (python-pptx uses a few dozen distinct ones), with python-pptx's own
namespace prefixes. What each call returns is unchanged, so the deck's bytes are too.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
from pptx.oxml.ns import _nsmap
from pptx.oxml.xmlchemy import BaseOxmlElement

_compiled: dict[str, etree.XPath] = {}
KEPT = 1024  # expressions kept compiled (a point's lookup names its index: one per index)


def _xpath(self: BaseOxmlElement, xpath_str: str) -> Any:
    found = _compiled.get(xpath_str)
    if found is None:
        if len(_compiled) >= KEPT:
            _compiled.clear()
        found = _compiled[xpath_str] = etree.XPath(xpath_str, namespaces=_nsmap)
    return found(self)


def compile_once() -> None:
    """From now on, python-pptx's XPath lookups use compiled expressions (idempotent)."""
    BaseOxmlElement.xpath = _xpath  # type: ignore[method-assign]
