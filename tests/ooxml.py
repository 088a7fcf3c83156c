"""Validate every XML part of a .pptx against the Office Open XML schemas (lxml's XMLSchema).

    python tests/ooxml.py DECK.pptx [...]      # each deck's problems; exit 1 if any

The schemas are ECMA-376's, kept unmodified in tests/data/ooxml/ (where they come from, and
their licence: README.md there; scripts/ooxml_schemas.py writes them): PresentationML,
DrawingML with its charts, the shared property and relationship types, and the Open Packaging
Conventions' content types, relationships and core properties. All of them are loaded into
one schema; a part is valid when its root is the element its content type names and the
whole part matches that element's declaration.

What is done to the schemas as they are loaded, each for a stated reason:
- ECMA-376 1st edition spreads one namespace over many files (DrawingML over 28, PresentationML
  over 10), each importing the others by file. libxml2 reads only the first file imported for
  a namespace and skips every later import of it, so types would go missing: every import of
  a namespace is pointed at one document that includes all of its files.
- The core properties import the Dublin Core schemas from dublincore.org: the copies beside
  them are read instead, and the `xml:` attributes (lang, space, base, id) are declared here,
  as W3C's xml.xsd declares them, so nothing is fetched.
- ISO/IEC 29500 transitional (ECMA-376 2nd edition on) added what AMENDMENTS adds, where a
  deck or a template meets it; each names the type and the clause.

What is done to a part before it is validated: ECMA-376 Part 3, markup compatibility. The
namespaces of the loaded schemas are the ones understood. An `mc:AlternateContent` is replaced
by its first `mc:Choice` whose `Requires` are all understood, else by its `mc:Fallback`, else
by nothing; elements and attributes of namespaces that `mc:Ignorable` lists and that are not
understood are dropped (an element named by `mc:ProcessContent` leaves its children in its
place); a namespace `mc:MustUnderstand` names that is not understood is a problem; and the
`mc:` attributes go. Anything else not understood is left for the schema to refuse.
"""

from __future__ import annotations

import posixpath
import re
import sys
import zipfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import IO

from lxml import etree

SCHEMAS = Path(__file__).resolve().parent / "data" / "ooxml"
XSD = "http://www.w3.org/2001/XMLSchema"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
XML = "http://www.w3.org/XML/1998/namespace"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
DC = "http://dublincore.org/schemas/xmls/qdc/2003/04/02/"

# (file, complex type, what ISO/IEC 29500 transitional adds to it, where the standard says so)
AMENDMENTS = [
    ("dml-documentProperties.xsd", "CT_NonVisualDrawingProps",
     '<xsd:attribute name="title" type="xsd:string" use="optional" default=""/>',
     "ISO/IEC 29500-1 20.1.2.2.8 (cNvPr): a drawing's title, beside its description"),
]

XML_ATTRIBUTES = f"""<xs:schema xmlns:xs="{XSD}" targetNamespace="{XML}">
  <xs:attribute name="lang" type="xs:language"/>
  <xs:attribute name="space"><xs:simpleType><xs:restriction base="xs:NCName">
    <xs:enumeration value="default"/><xs:enumeration value="preserve"/>
  </xs:restriction></xs:simpleType></xs:attribute>
  <xs:attribute name="base" type="xs:anyURI"/>
  <xs:attribute name="id" type="xs:ID"/>
</xs:schema>"""

# The root element each content type of a presentation package holds.
_PML = "application/vnd.openxmlformats-officedocument.presentationml."
ROOTS = {
    f"{_PML}presentation.main+xml": f"{P}presentation",
    f"{_PML}template.main+xml": f"{P}presentation",
    f"{_PML}slide+xml": f"{P}sld",
    f"{_PML}slideLayout+xml": f"{P}sldLayout",
    f"{_PML}slideMaster+xml": f"{P}sldMaster",
    f"{_PML}notesSlide+xml": f"{P}notes",
    f"{_PML}notesMaster+xml": f"{P}notesMaster",
    f"{_PML}handoutMaster+xml": f"{P}handoutMaster",
    f"{_PML}presProps+xml": f"{P}presentationPr",
    f"{_PML}viewProps+xml": f"{P}viewPr",
    f"{_PML}tableStyles+xml": f"{A}tblStyleLst",
    "application/vnd.openxmlformats-officedocument.theme+xml": f"{A}theme",
    "application/vnd.openxmlformats-officedocument.drawingml.chart+xml":
        "{http://schemas.openxmlformats.org/drawingml/2006/chart}chartSpace",
    "application/vnd.openxmlformats-package.core-properties+xml":
        "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}"
        "coreProperties",
    "application/vnd.openxmlformats-officedocument.extended-properties+xml":
        "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}Properties",
    "application/vnd.openxmlformats-officedocument.custom-properties+xml":
        "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}Properties",
    "application/vnd.openxmlformats-package.relationships+xml":
        "{http://schemas.openxmlformats.org/package/2006/relationships}Relationships",
}


# --- the schemas ---------------------------------------------------------------------------


def _one_per_namespace(ns: str) -> str:
    return "ns-" + re.sub(r"[^A-Za-z0-9]+", "-", ns).strip("-") + ".xsd"


class _InMemory(etree.Resolver):
    """Serves the schema documents by file name, so every import and include is read here."""

    def __init__(self, documents: dict[str, bytes]) -> None:
        super().__init__()
        self.documents = documents

    def resolve(self, url: str, pubid: str | None, context: object) -> object:
        name = url.rsplit("/", 1)[-1]
        if name not in self.documents:
            raise LookupError(f"a schema not among tests/data/ooxml: {url}")
        return self.resolve_string(self.documents[name], context, base_url=f"ooxml:/{name}")


def _amend(name: str, tree: etree._ElementTree) -> None:
    for file, type_name, addition, _clause in AMENDMENTS:
        if file == name:
            [found] = tree.getroot().findall(f"{{{XSD}}}complexType[@name='{type_name}']")
            found.append(etree.fromstring(
                f'<xsd:root xmlns:xsd="{XSD}">{addition}</xsd:root>')[0])


def _documents(folder: Path) -> tuple[dict[str, bytes], list[str]]:
    """Every schema document (amended, its imports pointed as the module says) by name, and
    the namespaces they define."""
    trees = {path.name: etree.parse(str(path)) for path in sorted(folder.glob("*.xsd"))}
    files: dict[str, list[str]] = {}
    for name, tree in trees.items():
        files.setdefault(tree.getroot().get("targetNamespace", ""), []).append(name)
    documents: dict[str, bytes] = {"xml.xsd": XML_ATTRIBUTES.encode()}
    for name, tree in trees.items():
        _amend(name, tree)
        for imported in tree.getroot().iter(f"{{{XSD}}}import"):
            ns = imported.get("namespace", "")
            where = imported.get("schemaLocation", "")
            imported.set("schemaLocation", _one_per_namespace(ns) if ns in files
                         else "xml.xsd" if ns == XML else where.removeprefix(DC))
        documents[name] = etree.tostring(tree)
    for ns, names in files.items():
        includes = "".join(f'<xsd:include schemaLocation="{n}"/>' for n in names)
        documents[_one_per_namespace(ns)] = (
            f'<xsd:schema xmlns:xsd="{XSD}" targetNamespace="{ns}">{includes}</xsd:schema>'
        ).encode()
    return documents, sorted(files)


@cache
def schema(folder: Path = SCHEMAS) -> tuple[etree.XMLSchema, frozenset[str]]:
    """One schema holding every namespace in `folder`, and those namespaces."""
    documents, namespaces = _documents(folder)
    imports = "".join(f'<xsd:import namespace="{ns}" schemaLocation="{_one_per_namespace(ns)}"/>'
                      for ns in namespaces)
    parser = etree.XMLParser()
    parser.resolvers.add(_InMemory(documents))
    root = etree.fromstring(f'<xsd:schema xmlns:xsd="{XSD}">{imports}</xsd:schema>', parser,
                            base_url="ooxml:/all.xsd")
    return etree.XMLSchema(etree.ElementTree(root)), frozenset(namespaces)


# --- markup compatibility (ECMA-376 Part 3) ------------------------------------------------


def _namespaces(el: etree._Element, prefixes: str) -> set[str]:
    """The namespaces of whitespace-separated `prefixes` in `el`'s scope."""
    return {el.nsmap[p] for p in prefixes.split() if p in el.nsmap}


def _names(el: etree._Element, qnames: str) -> set[tuple[str, str]]:
    """`p:name` or `p:*` items of `qnames` as (namespace, local name or '*')."""
    out = set()
    for item in qnames.split():
        prefix, _, local = item.partition(":")
        if prefix in el.nsmap:
            out.add((el.nsmap[prefix], local))
    return out


def _chosen(alternate: etree._Element, understood: frozenset[str]) -> list[etree._Element]:
    for branch in alternate:
        requires = branch.get("Requires", "").split()
        if branch.tag == f"{{{MC}}}Choice" and all(  # an undeclared prefix is never met
                branch.nsmap.get(prefix) in understood for prefix in requires):
            return list(branch)
        if branch.tag == f"{{{MC}}}Fallback":
            return list(branch)
    return []


def _marked(root: etree._Element, understood: frozenset[str],
            ignorable: frozenset[str]) -> set[etree._Element]:
    """The elements markup compatibility can change (an `mc:` element, an element or an
    attribute of a namespace some `mc:Ignorable` in the part lists and that is not understood,
    an element carrying an `mc:` attribute) and their ancestors: the walk need go nowhere
    else, and a part with none (most parts) is left as it is at once. Found by XPath, in C."""
    listed = set(ignorable)
    for el in root.xpath("descendant-or-self::*[@mc:Ignorable]", namespaces={"mc": MC}):
        listed |= _namespaces(el, el.get(f"{{{MC}}}Ignorable", ""))
    watched = sorted((listed - understood) | {MC})
    names = {f"n{i}": ns for i, ns in enumerate(watched)}
    test = " or ".join(f"namespace-uri() = ${name}" for name in names)
    found: set[etree._Element] = set()
    for el in root.xpath(f"descendant-or-self::*[{test} or @*[{test}]]", **names):
        if el not in found:
            found.add(el)
            found.update(el.iterancestors())
    return found


def compatible(el: etree._Element, understood: frozenset[str],
               ignorable: frozenset[str] = frozenset(),
               process: frozenset[tuple[str, str]] = frozenset()) -> Iterator[str]:
    """Reduce `el` in place to what a consumer understanding `understood` reads (Part 3),
    yielding a line for each problem markup compatibility itself finds."""
    marked = _marked(el, understood, ignorable)
    if el in marked:
        yield from _reduce(el, understood, ignorable, process, marked)


def _reduce(el: etree._Element, understood: frozenset[str], ignorable: frozenset[str],
            process: frozenset[tuple[str, str]],
            marked: set[etree._Element]) -> Iterator[str]:
    ignorable = ignorable | _namespaces(el, el.get(f"{{{MC}}}Ignorable", ""))
    process = process | _names(el, el.get(f"{{{MC}}}ProcessContent", ""))
    for ns in sorted(_namespaces(el, el.get(f"{{{MC}}}MustUnderstand", "")) - understood):
        yield f"line {el.sourceline}: mc:MustUnderstand names {ns}, not understood"
    for name in list(el.attrib):
        ns = etree.QName(name).namespace
        if ns == MC or (ns in ignorable and ns not in understood):
            del el.attrib[name]
    index = 0
    while index < len(el):
        child = el[index]
        if child not in marked:  # nothing in it to change (a comment is never marked)
            index += 1
            continue
        ns, local = etree.QName(child).namespace, etree.QName(child).localname
        if child.tag == f"{{{MC}}}AlternateContent" or (ns in ignorable and ns not in understood):
            kept = (_chosen(child, understood) if ns == MC
                    else list(child) if {(ns, local), (ns, "*")} & process else [])
            el.remove(child)
            for offset, grandchild in enumerate(kept):
                el.insert(index + offset, grandchild)
            continue  # what took its place is reduced in turn
        yield from _reduce(child, understood, ignorable, process, marked)
        index += 1


# --- a package ------------------------------------------------------------------------------


# A part is data: no entity is expanded and nothing is fetched while it is read.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)


def content_types(z: zipfile.ZipFile) -> dict[str, str]:
    """Each part's content type (part name without its leading slash)."""
    types = etree.fromstring(z.read("[Content_Types].xml"), _PARSER)
    default = {d.get("Extension", "").lower(): d.get("ContentType", "")
               for d in types.iter(f"{{{CT}}}Default")}
    override = {o.get("PartName", "").lstrip("/"): o.get("ContentType", "")
                for o in types.iter(f"{{{CT}}}Override")}
    return {name: override.get(name, default.get(posixpath.splitext(name)[1][1:].lower(), ""))
            for name in z.namelist() if not name.endswith("/")}


def _part(name: str, data: bytes, kind: str, folder: Path) -> list[str]:
    validator, understood = schema(folder)
    root = etree.fromstring(data, _PARSER)
    expected = ROOTS.get(kind)
    if expected and root.tag != expected:
        return [f"{name}: the root is {root.tag}, where {kind} holds {expected}"]
    if etree.QName(root).namespace not in understood:
        return [f"{name}: no schema declares its root {root.tag} ({kind})"]
    found = [f"{name}: {line}" for line in compatible(root, understood | {XML, XSI})]
    if not validator.validate(root):
        found += [f"{name}:{e.line}: {e.path}: {e.message}" for e in validator.error_log]
    return found


def problems(deck: Path | str | IO[bytes], folder: Path = SCHEMAS) -> list[str]:
    """Every problem in the XML parts of the package at `deck`: 'part:line: where: what'."""
    found: list[str] = []
    with zipfile.ZipFile(deck) as z:
        for name, kind in content_types(z).items():
            if name == "[Content_Types].xml" or kind.endswith("xml"):
                found += _part(name, z.read(name), kind, folder)
    return found


def main(decks: list[str]) -> int:
    failed = 0
    for deck in decks:
        found = problems(deck)
        failed += bool(found)
        print(f"{deck}: {len(found)} problem{'' if len(found) == 1 else 's'}")
        for line in found:
            print(f"  {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
