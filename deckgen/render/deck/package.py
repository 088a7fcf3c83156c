"""The deck's package as a file: its properties, dated, and its zip entries in a stable order,
so a build gives the same bytes every time."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime, timezone

from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.presentation import Presentation

from deckgen.content import Meta

DEFAULT_EPOCH = 946684800  # 2000-01-01T00:00:00Z, when SOURCE_DATE_EPOCH is not set
ZIP_EPOCH = 315532800  # 1980-01-01, the earliest time a zip entry can carry

_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006"


def finish(prs: Presentation, meta: Meta, when: datetime) -> None:
    """The package's properties from the talk's details, dated `when`; no thumbnail of the
    template."""
    props = prs.core_properties
    props.title = meta.title
    props.subject = meta.subtitle
    props.author = meta.presenter
    props.last_modified_by = meta.presenter
    props.keywords = meta.event
    props.comments = ""
    props.category = ""
    props.language = meta.language
    props.revision = 1
    props.created = when
    props.modified = when
    props.last_printed = when
    package = prs.part.package
    for r_id, rel in list(package._rels.items()):
        if rel.reltype == RT.THUMBNAIL:  # a picture of the template, not of this deck
            package.drop_rel(r_id)
        elif rel.reltype == RT.EXTENDED_PROPERTIES:
            rel.target_part._blob = _app_xml(prs)


def _app_xml(prs: Presentation) -> bytes:
    width, height = int(prs.slide_width or 0), int(prs.slide_height or 0)
    slides = len(prs.slides)
    notes = sum(1 for slide in prs.slides if slide.has_notes_slide)
    four_three = abs(width / height - 4 / 3) < 0.01
    shape = "16:9" if width / height > 1.5 else "4:3" if four_three else "custom"
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Properties xmlns="{_OFFICE}/extended-properties" '
        f'xmlns:vt="{_OFFICE}/docPropsVTypes">'
        f"<Application>deckgen</Application><PresentationFormat>On-screen Show ({shape})"
        f"</PresentationFormat><Slides>{slides}</Slides><Notes>{notes}</Notes>"
        "<HiddenSlides>0</HiddenSlides></Properties>").encode("utf-8")


def moment(epoch: int | None) -> datetime:
    """The time recorded in the package: `epoch` (SOURCE_DATE_EPOCH's seconds, validated by
    deckgen.environment) when given, else a fixed date."""
    seconds = DEFAULT_EPOCH if epoch is None else epoch
    return datetime.fromtimestamp(max(seconds, ZIP_EPOCH), tz=timezone.utc).replace(tzinfo=None)


def repack(data: bytes, when: datetime) -> bytes:
    """The package with every entry stamped `when`, in a stable order, with fixed attributes."""
    stamp = (when.year, when.month, when.day, when.hour, when.minute, when.second)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        names = source.namelist()
        ordered = ["[Content_Types].xml"] + sorted(n for n in names if n != "[Content_Types].xml")
        for name in ordered:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            target.writestr(info, source.read(name), compresslevel=6)
    return out.getvalue()
