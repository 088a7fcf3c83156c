"""The deck package: its properties (the talk's details and one date) and its bytes.

python-pptx saves the package; `save` then writes the same entries again in a fixed order,
each stamped with the build's date, so the same deck gives the same bytes every time.
"""

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


def finish(prs: Presentation, meta: Meta, when: datetime, notes: int) -> None:
    """The package's properties from the talk's details, dated `when`, with the number of
    slides that have `notes`; no thumbnail of the template."""
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
    try:  # a picture of the template, not of this deck
        thumbnail = package.part_related_by(RT.THUMBNAIL)
    except KeyError:
        pass
    else:
        package.drop_rel(package.relate_to(thumbnail, RT.THUMBNAIL))  # relate_to: its rId
    try:  # the template's counts and titles, made this deck's (a plain part: its bytes)
        package.part_related_by(RT.EXTENDED_PROPERTIES).blob = _app_xml(prs, notes)
    except KeyError:
        pass


def _app_xml(prs: Presentation, notes: int) -> bytes:
    width, height = int(prs.slide_width or 0), int(prs.slide_height or 0)
    slides = len(prs.slides)
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


TYPES = "[Content_Types].xml"


def save(prs: Presentation, when: datetime) -> bytes:
    """The presentation as python-pptx saves it, its entries written again with
    [Content_Types].xml first and the others by name, each stamped `when` (python-pptx
    stamps the time of saving), deflated as zipfile does, with the same permissions and
    made-by system on every machine."""
    saved = io.BytesIO()
    prs.save(saved)
    out = io.BytesIO()
    with zipfile.ZipFile(saved) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        names = sorted(source.namelist(), key=lambda name: (name != TYPES, name))
        for name in names:
            info = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16  # rw-------, what zipfile gives an entry by name
            info.create_system = 0  # the same on every system (zipfile's own is the host's)
            target.writestr(info, source.read(name))
    return out.getvalue()
