"""The one XML parser every part of a template goes through: bounded in size and depth, no DTD
of its own, no entity declared, nothing fetched; UTF-16 and an outside DTD's DOCTYPE are
rewritten as plain UTF-8."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree
from xml.parsers import expat

from deckgen import fmt
from deckgen.template.bounds import MAX_XML_BYTES, MAX_XML_DEPTH, SAVE, refuse


class _Refused(Exception):
    """Raised from inside the parser's handlers: the part is refused with this reason."""


def xml_part(data: bytes, path: Path, part: str) -> tuple[ElementTree.Element, bytes | None]:
    """A part parsed by the one parser every template's XML goes through: at most
    MAX_XML_BYTES and MAX_XML_DEPTH deep (python-pptx's parser stops at 256), no DTD of its
    own, no entity declared, nothing fetched. UTF-16 and a DOCTYPE naming an outside DTD are
    legal XML: such a part comes back rewritten as plain UTF-8 (its root onwards), else
    None."""
    if len(data) > MAX_XML_BYTES:
        raise refuse(path, f"part {part!r} is larger than {fmt.count(MAX_XML_BYTES)} bytes, the "
                           "limit for an XML part of a template")
    if not data.strip():
        raise refuse(path, f"part {part!r} is empty, not XML; {SAVE}")
    builder = ElementTree.TreeBuilder()
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    seen: dict[str, object] = {"depth": 0, "doctype": False, "encoding": None, "root": None}

    def tag(name: str) -> str:
        return "{" + name if "}" in name else name

    def start(name: str, attrs: dict[str, str]) -> None:
        depth = int(str(seen["depth"])) + 1
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"is nested more than {MAX_XML_DEPTH} elements deep")
        if seen["root"] is None:
            seen["root"] = parser.CurrentByteIndex
        seen["depth"] = depth
        builder.start(tag(name), {tag(k): v for k, v in attrs.items()})

    def end(name: str) -> None:
        seen["depth"] = int(str(seen["depth"])) - 1
        builder.end(tag(name))

    def doctype(name: str, system: str | None, public: str | None, internal: int) -> None:
        if internal:
            raise _Refused("declares a DTD of its own (a DOCTYPE with an internal subset), "
                           "which a .pptx never does")
        seen["doctype"] = True

    def entity(*_: object) -> None:
        raise _Refused("declares an entity, which a .pptx never does")

    def skipped(name: str, is_parameter: int) -> None:
        raise _Refused(f"refers to an entity ({name[:40]}) it does not declare, which a .pptx "
                       "never does")

    def declaration(version: str, encoding: str | None, standalone: int) -> None:
        seen["encoding"] = encoding

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.XmlDeclHandler = declaration
    parser.SkippedEntityHandler = skipped
    parser.ExternalEntityRefHandler = lambda *_: 0  # never fetched: an error if referenced
    try:
        parser.Parse(data, True)
        root = builder.close()
    except _Refused as err:
        raise refuse(path, f"part {part!r} {err}; {SAVE}") from None
    except (expat.ExpatError, ValueError) as err:
        raise refuse(path, f"part {part!r} is not well-formed XML ({err}); {SAVE}") from None
    codec = _codec(data, seen["encoding"])
    if codec == "utf-8" and not seen["doctype"]:
        return root, None
    start_at = seen["root"]
    assert isinstance(start_at, int)
    try:
        text = data[start_at:].decode(codec)
    except (LookupError, UnicodeDecodeError) as err:  # pragma: no cover - expat read it
        raise refuse(path, f"part {part!r} cannot be decoded ({err}); {SAVE}") from None
    plain = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text.encode()
    # The rewritten part must stand on its own (an entity its outside DTD would have
    # declared is refused here): it is what python-pptx and the deck code will read.
    root, again = xml_part(plain, path, part)
    assert again is None
    return root, plain


def _codec(data: bytes, declared: object) -> str:
    """The codec of the bytes after the root's start: from the byte order mark or the first
    bytes, else the declaration ('utf-8' only for UTF-8 with no mark)."""
    if data.startswith((b"\xff\xfe", b"<\x00?\x00")):
        return "utf-16-le"
    if data.startswith((b"\xfe\xff", b"\x00<\x00?")):
        return "utf-16-be"
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    name = str(declared or "utf-8").lower().replace("_", "-")
    return "utf-8" if name in ("utf-8", "utf8") else name

