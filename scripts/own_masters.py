"""Write deckgen/template/own-16x9.pptx and own-4x3.pptx: deckgen's own masters, the
template a deck is drawn on when no --template is given.

    python scripts/own_masters.py

Each is python-pptx's blank presentation, resized to its aspect, with a master laid out for a
talk: kicker and title at the top left, the footer along the bottom, the cover's title and
subtitle where deckgen's own geometry puts them (deckgen.plan.geometry.default_geometry). The
theme keeps python-pptx's colours and fonts: a build writes the content's into it. A test
holds the shipped files to what this script makes.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pptx import Presentation  # noqa: E402
from pptx.enum.shapes import PP_PLACEHOLDER  # noqa: E402
from pptx.oxml import parse_xml  # noqa: E402
from pptx.oxml.ns import nsdecls, qn  # noqa: E402
from pptx.util import Emu  # noqa: E402

from deckgen.box import Box, inch  # noqa: E402
from deckgen.plan.geometry import SLIDE_HEIGHT, SLIDE_WIDTHS, default_geometry  # noqa: E402

OUT = ROOT / "deckgen" / "template"
FOOTERS = (PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER)
WHEN = (2000, 1, 1, 0, 0, 0)


def master(aspect: str) -> bytes:
    """The presentation of deckgen's own master at `aspect`, as the bytes of a .pptx."""
    prs = Presentation()
    width = SLIDE_WIDTHS[aspect]
    ratio = width / prs.slide_width
    prs.slide_width, prs.slide_height = Emu(width), Emu(SLIDE_HEIGHT)
    prs.part._element.find(qn("p:sldSz")).attrib.pop("type", None)
    own = default_geometry(aspect)
    margin = own.title.x
    inner = width - 2 * margin
    places = {
        PP_PLACEHOLDER.TITLE: own.title,
        PP_PLACEHOLDER.BODY: Box(margin, inch(2.3), inner, inch(4.5)),
        PP_PLACEHOLDER.DATE: Box(margin + inner - inch(4.2), inch(7.04), inch(2.2), inch(0.3)),
        PP_PLACEHOLDER.FOOTER: Box(margin, inch(7.04), round(inner * 0.7), inch(0.3)),
        PP_PLACEHOLDER.SLIDE_NUMBER: Box(margin + inner - inch(1.5), inch(7.04), inch(1.5),
                                         inch(0.3)),
    }
    for ph in prs.slide_master.placeholders:
        box = places.get(ph.placeholder_format.type)
        if box:
            ph.left, ph.top, ph.width, ph.height = Emu(box.x), Emu(box.y), Emu(box.w), Emu(box.h)
        body_pr = ph._element.txBody.find(qn("a:bodyPr"))
        for key in ("lIns", "rIns"):
            body_pr.set(key, "0")
        if ph.placeholder_format.type == PP_PLACEHOLDER.TITLE:
            body_pr.set("anchor", "t")
            body_pr.set("tIns", "0")
            body_pr.set("bIns", "0")
            for child in list(body_pr):
                body_pr.remove(child)
            body_pr.append(parse_xml(f"<a:noAutofit {nsdecls('a')}/>"))
        if ph.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
            for lvl in ph._element.txBody.iter(qn("a:lvl1pPr")):
                lvl.set("algn", "l")
    title_style = prs.slide_master._element.find(qn("p:txStyles")).find(qn("p:titleStyle"))
    lvl1 = title_style.find(qn("a:lvl1pPr"))
    lvl1.set("algn", "l")
    lvl1.find(qn("a:defRPr")).set("b", "1")
    lvl1.find(qn("a:defRPr")).set("sz", "4000")
    for layout in prs.slide_layouts:
        for ph in iter(layout.placeholders):
            kind = ph.placeholder_format.type
            xfrm = ph._element.spPr.find(qn("a:xfrm"))
            if xfrm is None:
                continue
            if kind in (PP_PLACEHOLDER.TITLE, *FOOTERS):
                ph._element.spPr.remove(xfrm)  # follow the master
            elif kind in (PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.SUBTITLE):
                cover = kind == PP_PLACEHOLDER.CENTER_TITLE
                assert own.cover_second is not None
                box = own.cover_title if cover else own.cover_second[0]
                ph.left, ph.top, ph.width, ph.height = (Emu(box.x), Emu(box.y), Emu(box.w),
                                                        Emu(box.h))
                body_pr = ph._element.find(f"{qn('p:txBody')}/{qn('a:bodyPr')}")
                if cover:
                    body_pr.set("anchor", "b")
                for key in ("lIns", "rIns", "tIns", "bIns"):
                    body_pr.set(key, "0")
                if not cover:
                    for lvl in ph._element.find(f"{qn('p:txBody')}/{qn('a:lstStyle')}"):
                        lvl.set("algn", "l")
            else:
                off, ext = xfrm.find(qn("a:off")), xfrm.find(qn("a:ext"))
                off.set("x", str(round(int(off.get("x")) * ratio)))
                ext.set("cx", str(round(int(ext.get("cx")) * ratio)))
    saved = io.BytesIO()
    prs.save(saved)
    out = io.BytesIO()
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as kept:
        for name in sorted(source.namelist(), key=lambda n: (n != "[Content_Types].xml", n)):
            info = zipfile.ZipInfo(name, date_time=WHEN)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            kept.writestr(info, source.read(name))
    return out.getvalue()


def main() -> None:
    for aspect in ("16:9", "4:3"):
        path = OUT / f"own-{aspect.replace(':', 'x')}.pptx"
        path.write_bytes(master(aspect))
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
