"""A template's theme written anew: other colours in its colour slots, other major and minor
Latin fonts, another name. The deck keeps everything else of the theme as it is, byte for
byte, so the edit is made in the text itself, under whatever prefix the theme gives the
DrawingML namespace (`a:` in what PowerPoint and LibreOffice write; any other, or none, is
legal and is honoured)."""

from __future__ import annotations

import re

DRAWINGML = "http://schemas.openxmlformats.org/drawingml/2006/main"


def themed(xml: str, colours: dict[str, str] | None = None, heading: str | None = None,
           body: str | None = None, name: str | None = None) -> str:
    """A theme's XML with `colours` ('#RRGGBB' by slot name) in its colour slots, `heading`
    and `body` as its major and minor Latin fonts, and with `name`, its theme's, colour
    scheme's and font scheme's names."""
    a = _prefix(xml)
    for slot, value in (colours or {}).items():
        xml = re.sub(rf"<{a}{slot}>.*?</{a}{slot}>",
                     f'<{a}{slot}><{a}srgbClr val="{value.lstrip("#").upper()}"/></{a}{slot}>',
                     xml, count=1, flags=re.S)
    for kind, family in (("majorFont", heading), ("minorFont", body)):
        if family is None:
            continue
        value = _xml_attr(family).replace("\\", "\\\\")  # a backslash is kept as it is
        # the typeface wherever it stands among the latin font's attributes, in either quotes
        xml = re.sub(rf"""(<{a}{kind}>\s*<{a}latin\b[^>]*?\btypeface\s*=\s*)(["'])[^"']*\2""",
                     rf"\g<1>\g<2>{value}\g<2>", xml, count=1)
    if name is not None:
        value = _xml_attr(name).replace("\\", "\\\\")
        for pattern in (rf'(<{a}theme [^>]*name=")[^"]*(")', rf'(<{a}clrScheme name=")[^"]*(")',
                        rf'(<{a}fontScheme name=")[^"]*(")'):
            xml = re.sub(pattern, rf"\g<1>{value}\g<2>", xml, count=1)
    return xml


def _prefix(xml: str) -> str:
    """The prefix the theme's root declares for DrawingML, with its colon ('a:'); '' when
    DrawingML is the default namespace."""
    found = re.search(r'xmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*["\']' + re.escape(DRAWINGML) + "[\"']",
                      xml)
    if found is None or found.group(1) is None:
        return "" if found is not None else "a:"
    return found.group(1) + ":"


def _xml_attr(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("'", "&apos;")
            .replace("<", "&lt;").replace(">", "&gt;"))
