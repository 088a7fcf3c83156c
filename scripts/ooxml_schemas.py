"""Write tests/data/ooxml/: the XML schemas a deck's parts are validated against
(tests/ooxml.py, tests/test_schema.py), taken unmodified from where Debian keeps them.

    python scripts/ooxml_schemas.py                 # download Debian's source package
    python scripts/ooxml_schemas.py --from FILE     # or read its .orig.tar.xz already here
    python scripts/ooxml_schemas.py --check         # only compare the files with SHA256SUMS

Debian's source package libapache-poi-java 4.0.1-4 carries, in its upstream tarball,
`ooxml-xsds/`: the W3C XML Schemas of ECMA-376 1st edition, Part 4 (OfficeOpenXML-XMLSchema.zip)
and Part 2 (OpenPackagingConventions-XMLSchema.zip), fetched from Ecma's site by the
package's debian/orig-tar.sh; and `ooxml-lib/`: the Dublin Core schemas the core properties
import. Only the files a presentation's parts need are kept (PresentationML, DrawingML with
its charts, the shared property and relationship types, the packaging conventions), byte for
byte; tests/data/ooxml/SHA256SUMS lists them. How ISO/IEC 29500 transitional differs where a
deck meets it is applied when the schemas are loaded (tests/ooxml.py, AMENDMENTS), not here.

`apt-get source` needs a deb-src line for Debian's main archive in the apt sources.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "ooxml"
PACKAGE, VERSION = "libapache-poi-java", "4.0.1-4"
TARBALL = "libapache-poi-java_4.0.1.orig.tar.xz"
TOP = "apache-poi-4.0.1"

DML = ("audioVideo", "baseStylesheet", "baseTypes", "documentProperties", "graphicalObject",
       "graphicalObjectAnimation", "graphicalObjectFormat", "gvml", "shape3DCamera",
       "shape3DLighting", "shape3DScene", "shape3DScenePlane", "shape3DStyles", "shapeEffects",
       "shapeGeometry", "shapeLineProperties", "shapeMiscellaneous", "shapeProperties",
       "shapeStyle", "styleDefaults", "stylesheet", "table", "tableStyle", "text", "textBullet",
       "textCharacter", "textParagraph", "textRun", "chart", "chartDrawing")
PML = ("animationInfo", "baseTypes", "comments", "embedding", "presentation",
       "presentationProperties", "slide", "slideSynchronizationData", "userDefinedTags",
       "viewProperties")
SHARED = ("documentPropertiesCustom", "documentPropertiesExtended",
          "documentPropertiesVariantTypes", "relationshipReference")
OPC = ("contentTypes", "coreProperties", "digSig", "relationships")
DUBLIN_CORE = ("dc", "dcterms", "dcmitype")

MEMBERS = {
    **{f"{TOP}/ooxml-xsds/dml-{n}.xsd": f"dml-{n}.xsd" for n in DML},
    **{f"{TOP}/ooxml-xsds/pml-{n}.xsd": f"pml-{n}.xsd" for n in PML},
    **{f"{TOP}/ooxml-xsds/shared-{n}.xsd": f"shared-{n}.xsd" for n in SHARED},
    **{f"{TOP}/ooxml-xsds/opc-{n}.xsd": f"opc-{n}.xsd" for n in OPC},
    **{f"{TOP}/ooxml-lib/{n}.xsd": f"{n}.xsd" for n in DUBLIN_CORE},
}


def sums(folder: Path) -> dict[str, str]:
    """The SHA-256 of every schema in `folder`, by file name."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.glob("*.xsd"))}


def listed() -> dict[str, str]:
    """SHA256SUMS as {name: digest}."""
    text = (OUT / "SHA256SUMS").read_text(encoding="utf-8")
    return {name: digest for digest, name in (line.split("  ", 1) for line in text.splitlines())}


def download(into: Path) -> Path:
    subprocess.run(["apt-get", "source", "--download-only", f"{PACKAGE}={VERSION}"],
                   cwd=into, check=True)
    return into / TARBALL


def extract(tarball: Path) -> None:
    with tarfile.open(tarball) as tar:
        for member, name in MEMBERS.items():
            data = tar.extractfile(member)
            assert data is not None, member
            (OUT / name).write_bytes(data.read())
    (OUT / "SHA256SUMS").write_text(
        "".join(f"{digest}  {name}\n" for name, digest in sums(OUT).items()), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="tarball", type=Path,
                        help=f"Debian's {TARBALL} (default: download it with apt-get source)")
    parser.add_argument("--check", action="store_true",
                        help="compare tests/data/ooxml/*.xsd with SHA256SUMS, change nothing")
    args = parser.parse_args()
    if not args.check:
        OUT.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            extract(args.tarball or download(Path(tmp)))
    found, expected = sums(OUT), listed()
    bad = sorted(set(found) ^ set(expected) | {n for n in found if found[n] != expected.get(n)})
    for name in bad:
        print(f"{name}: not as listed in SHA256SUMS", file=sys.stderr)
    print(f"{len(found)} schemas in {OUT.relative_to(ROOT)}, {len(bad)} differing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
