"""Templates built to break the reader: the parts it checks are the parts python-pptx opens,
every compression method is bounded, every XML part goes through one hardened parser, every
picture's size is read before anything decodes it. Each malformed template is one exit-2 line
naming the part; legal XML (UTF-16, a DOCTYPE naming an outside DTD) builds.
"""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, VALID, run_in, snapshot
from test_hostile import PEAK, _limited, refused

from deckgen import template as template_file
from deckgen.errors import InputError

SAVE = "save the template as .pptx and try again"
THEME = "ppt/theme/theme1.xml"
MASTER = "ppt/slideMasters/slideMaster1.xml"


def _parts() -> list[tuple[str, bytes]]:
    from pptx import Presentation

    raw = io.BytesIO()
    Presentation().save(raw)
    with zipfile.ZipFile(raw) as deck:
        return [(info.filename, deck.read(info)) for info in deck.infolist()]


BASE = _parts()


def template(change: Callable[[dict[str, bytes]], None] | None = None,
             methods: dict[str, int] | None = None) -> bytes:
    """python-pptx's own template with `change` applied to its parts (by name, in order),
    each part compressed with its method in `methods` (deflate otherwise)."""
    parts = dict(BASE)
    if change is not None:
        change(parts)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for name, data in parts.items():
            packed.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data,
                            (methods or {}).get(name, zipfile.ZIP_DEFLATED))
    return out.getvalue()


def replaced(name: str, old: bytes, new: bytes) -> Callable[[dict[str, bytes]], None]:
    def change(parts: dict[str, bytes]) -> None:
        assert old in parts[name], (name, old)
        parts[name] = parts[name].replace(old, new, 1)
    return change


def refusal(here: Path, data: bytes) -> str:
    (here / "t.pptx").write_bytes(data)
    return refused(here, "build", "talk.yaml", "--template", "t.pptx", "--out", "out")


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    idat = zlib.compress(b"\x00" * 64)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + struct.pack(">I", len(idat)) + b"IDAT"
            + idat + struct.pack(">I", zlib.crc32(b"IDAT" + idat)) + b"\x00\x00\x00\x00IEND"
            + struct.pack(">I", zlib.crc32(b"IEND")))


def _jpeg_header(width: int, height: int) -> bytes:
    app = b"\xff\xe1" + struct.pack(">H", 65_000) + bytes(64_998)  # the frame comes after
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app + sof + b"\xff\xd9"


def _with_media(name: str, data: bytes) -> Callable[[dict[str, bytes]], None]:
    def change(parts: dict[str, bytes]) -> None:
        parts[name] = data
    return change


# --- Compression methods that cannot be inflated in bounded steps ----------------------------


@pytest.mark.parametrize("method, word", [(zipfile.ZIP_BZIP2, "bzip2"),
                                          (zipfile.ZIP_LZMA, "LZMA")])
def test_a_bzip2_or_lzma_part_is_refused_before_it_is_inflated(here: Path, method: int,
                                                               word: str) -> None:
    assert refusal(here, template(methods={THEME: method})) == (
        f"--template: part '{THEME}' is compressed with {word}, which cannot be inflated in "
        f"bounded steps (a .pptx uses deflate); {SAVE}")


DATA = Path(__file__).resolve().parent / "hostile_data"


def _bzip2_bomb() -> bytes:
    """A bzip2 stream of 2 GiB of zeros (1.5 KB; made once, as zeros-2gib.bz2 says)."""
    return (DATA / "zeros-2gib.bz2").read_bytes()


def _lzma_bomb() -> bytes:
    """A zip LZMA member's bytes (its 4-byte header, then raw LZMA1) of 1 GiB of zeros."""
    return (DATA / "zeros-1gib.zip-lzma").read_bytes()


def _bomb_zip(data: bytes, name: str, stream: bytes, method: int = 12) -> bytes:
    """`data` again with one more member, `name`, holding the bzip2 `stream` (2 GiB
    inflated), written by hand: zipfile compresses what it writes itself."""
    body = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        blobs = [(i.filename, source.read(i)) for i in source.infolist()]
    central = []
    for entry, blob in [*blobs, (name, None)]:
        encoded = entry.encode()
        offset = body.tell()
        if blob is None:
            raw, kind, crc, size = stream, method, 0, 1000  # its header lies
        else:
            squeeze = zlib.compressobj(6, zlib.DEFLATED, -15)
            raw, kind, crc, size = (squeeze.compress(blob) + squeeze.flush(), 8,
                                    zlib.crc32(blob), len(blob))
        body.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 46, 0, kind, 0, 0x21, crc,
                               len(raw), size, len(encoded), 0) + encoded + raw)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 46, 46, 0, kind, 0,
                                   0x21, crc, len(raw), size, len(encoded), 0, 0, 0, 0, 0,
                                   offset) + encoded)
    start = body.tell()
    for record in central:
        body.write(record)
    body.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central),
                           body.tell() - start, start, 0))
    return body.getvalue()


# --- The parts python-pptx opens are the parts checked --------------------------------------


def _second_presentation(parts: dict[str, bytes]) -> None:
    """A second presentation part of 0 x 0 EMU, the one the package relationship names;
    the content types list the good one first."""
    parts["ppt/presentation2.xml"] = parts["ppt/presentation.xml"].replace(
        b'cx="9144000" cy="6858000"', b'cx="0" cy="0"')
    parts["ppt/_rels/presentation2.xml.rels"] = parts["ppt/_rels/presentation.xml.rels"]
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/ppt/presentation2.xml" ContentType="application/'
                     b'vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"'
                     b"/></Types>")
    parts["_rels/.rels"] = parts["_rels/.rels"].replace(b'Target="ppt/presentation.xml"',
                                                        b'Target="ppt/presentation2.xml"')


def test_the_presentation_checked_is_the_one_the_package_relationship_names(here: Path) -> None:
    """A ZeroDivisionError traceback before: the check read the first presentation listed."""
    assert refusal(here, template(_second_presentation)) == (
        "--template: has a slide size of 0 x 0 EMU; PowerPoint allows 914,400 to 51,206,400 "
        "(1 to 56 inches) a side")


def test_two_presentation_relationships_are_one_line(here: Path) -> None:
    def both(parts: dict[str, bytes]) -> None:
        _second_presentation(parts)
        parts["_rels/.rels"] = parts["_rels/.rels"].replace(
            b"</Relationships>",
            b'<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/'
            b'2006/relationships/officeDocument" Target="ppt/presentation.xml"/>'
            b"</Relationships>")
    assert refusal(here, template(both)) == (
        f"--template: has more than one presentation part (_rels/.rels names 2); {SAVE}")


def test_an_orphan_theme_is_one_line(here: Path) -> None:
    """A KeyError traceback before: the theme part is there, no relationship leads to it."""
    rels = "ppt/slideMasters/_rels/slideMaster1.xml.rels"
    change = replaced(rels, b"relationships/theme", b"relationships/themeOverride")
    assert refusal(here, template(change)) == (
        f"--template: slide master '{MASTER}' has no theme (no theme relationship to a part "
        f"it holds); {SAVE}")


@pytest.mark.parametrize("theme, line", [
    (b"", f"part '{THEME}' is empty, not XML"),
    (b"   \n", f"part '{THEME}' is empty, not XML"),
    (b"not xml at all", f"part '{THEME}' is not well-formed XML (syntax error: line 1, "
                        "column 0)"),
    (b"<a:theme", f"part '{THEME}' is not well-formed XML (unclosed token: line 1, column 0)"),
    (b'<r xmlns="urn:x"/>', f"part '{THEME}', the theme of slide master '{MASTER}', holds no "
                            "<a:theme>"),
])
def test_an_empty_or_non_xml_theme_is_one_line(here: Path, theme: bytes, line: str) -> None:
    """An XMLSyntaxError traceback before, from the theme colour checker."""
    assert refusal(here, template(_with_media(THEME, theme))) == f"--template: {line}; {SAVE}"


def test_a_10_mb_comment_in_the_theme_is_one_line(here: Path) -> None:
    """python-pptx's parser refuses a text node of 10 MB: an XMLSyntaxError traceback."""
    change = replaced(THEME, b"<a:themeElements>",
                      b"<!--" + b"x" * 10_000_000 + b"--><a:themeElements>")
    assert refusal(here, template(change)) == (
        f"--template: part '{THEME}' is larger than 8,388,608 bytes, the limit for an XML part "
        "of a template")


def test_a_theme_nested_too_deep_is_one_line(here: Path) -> None:
    change = replaced(THEME, b"<a:themeElements>",
                      b"<a:x>" * 300 + b"</a:x>" * 300 + b"<a:themeElements>")
    assert refusal(here, template(change)) == (
        f"--template: part '{THEME}' is nested more than 200 elements deep; {SAVE}")


def test_no_slide_master_is_one_line(here: Path) -> None:
    """An IndexError traceback before."""
    change = replaced("ppt/presentation.xml",
                      b'<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/>'
                      b"</p:sldMasterIdLst>", b"<p:sldMasterIdLst/>")
    assert refusal(here, template(change)) == (
        f"--template: has no slide master (an empty <p:sldMasterIdLst> in "
        f"ppt/presentation.xml); {SAVE}")


def test_an_entity_declared_in_a_theme_is_one_line(here: Path) -> None:
    change = replaced(THEME, b"?>",
                      b'?>\n<!DOCTYPE a:theme [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n')
    assert refusal(here, template(change)) == (
        f"--template: part '{THEME}' declares a DTD of its own (a DOCTYPE with an internal "
        f"subset), which a .pptx never does; {SAVE}")


def test_a_billion_laughs_in_the_content_types_is_one_line(here: Path) -> None:
    laughs = b"".join(b'<!ENTITY l%d "&l%d;&l%d;&l%d;">' % (n + 1, n, n, n) for n in range(20))
    change = replaced("[Content_Types].xml", b"?>\n",
                      b'?>\n<!DOCTYPE Types [<!ENTITY l0 "lol">' + laughs + b"]>\n")
    assert refusal(here, template(change)) == (
        "--template: part '[Content_Types].xml' declares a DTD of its own (a DOCTYPE with an "
        f"internal subset), which a .pptx never does; {SAVE}")


@pytest.mark.parametrize("cx", ["9_144_000", "\u0669\u0661\u0664\u0664\u0660\u0660\u0660",
                                " 9144000", "+9144000", "9144000.0"])
def test_a_slide_size_not_in_ascii_digits_is_one_line(here: Path, cx: str) -> None:
    """`9_144_000` and Arabic-Indic digits were accepted; LibreOffice then could not open the
    deck."""
    change = replaced("ppt/presentation.xml", b'cx="9144000" cy="6858000"',
                      f'cx="{cx}" cy="6858000"'.encode())
    shown = repr(cx)
    assert refusal(here, template(change)) == (
        "--template: has a slide size that is not a whole number of EMU written in the digits "
        f"0-9 ({shown} x '6858000'); {SAVE}")


# --- Pictures: their pixel count, before anything decodes them ------------------------------


@pytest.mark.parametrize("name, data, size", [
    ("ppt/media/image1.png", _png_header(40_000, 40_000), "40,000 x 40,000"),
    ("ppt/media/image1.jpeg", _jpeg_header(20_000, 20_000), "20,000 x 20,000"),
    ("ppt/media/image1.gif", b"GIF89a" + struct.pack("<HH", 65_535, 65_535) + bytes(8),
     "65,535 x 65,535"),
    ("ppt/media/image1.bmp", b"BM" + bytes(16) + struct.pack("<ii", 10_000, -10_000)
     + bytes(8), "10,000 x 10,000"),
])
def test_a_picture_of_too_many_pixels_is_refused_from_its_header(here: Path, name: str,
                                                                 data: bytes, size: str) -> None:
    """A 29 KB template whose background decoded to 1.37 GB built before, with Pillow's
    warnings on stderr."""
    assert refusal(here, template(_with_media(name, data))) == (
        f"--template: picture '{name}' is {size} pixels, more than the 40,000,000 a "
        "template's picture may have")


def test_a_picture_within_the_limit_passes(tmp_path: Path) -> None:
    data = template(_with_media("ppt/media/image1.png", _png_header(6000, 6000)))
    (tmp_path / "t.pptx").write_bytes(data)
    assert template_file.read(tmp_path / "t.pptx").data == data


# --- Legal XML and OPC's case-insensitive names build ---------------------------------------


def _built_theme(here: Path, data: bytes) -> bytes:
    (here / "t.pptx").write_bytes(data)
    run = run_in("build", "talk.yaml", "--template", "t.pptx", "--out", "built", "--only",
                 "deck", cwd=here)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    with zipfile.ZipFile(here / "built" / "million-tokens-1M.pptx") as deck:
        return deck.read(THEME)


def test_a_utf16_theme_builds(here: Path) -> None:
    """A UnicodeDecodeError traceback before."""
    def utf16(parts: dict[str, bytes]) -> None:
        text = parts[THEME].decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
        parts[THEME] = text.encode("utf-16")
    theme = _built_theme(here, template(utf16))
    assert theme.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a:theme')
    assert b'<a:accent1><a:srgbClr val="4774AA"/></a:accent1>' in theme


def test_a_theme_with_a_doctype_naming_an_outside_dtd_builds_without_fetching_it(
        here: Path) -> None:
    """An XMLSyntaxError traceback before."""
    change = replaced(THEME, b"?>", b'?>\n<!DOCTYPE a:theme SYSTEM "http://127.0.0.1:9/x.dtd">\n')
    theme = _built_theme(here, template(change))
    assert b"DOCTYPE" not in theme
    assert theme.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a:theme')


def test_a_part_name_that_differs_only_in_case_builds(here: Path) -> None:
    """OPC compares part names without case, as python-pptx does; refused before as naming a
    part "it does not hold"."""
    change = replaced("[Content_Types].xml", b'PartName="/ppt/presentation.xml"',
                      b'PartName="/PPT/Presentation.XML"')
    data = template(change)
    (here / "t.pptx").write_bytes(data)
    assert template_file.read(here / "t.pptx").data == data
    _built_theme(here, data)


def test_the_reader_refuses_in_process_too(tmp_path: Path) -> None:
    (tmp_path / "t.pptx").write_bytes(template(methods={THEME: zipfile.ZIP_LZMA}))
    before = snapshot(tmp_path)
    with pytest.raises(InputError) as caught:
        template_file.read(tmp_path / "t.pptx")
    assert len(caught.value.lines()) == 1
    assert snapshot(tmp_path) == before


def test_a_backslash_in_a_theme_font_name_is_written_as_it_is(here: Path) -> None:
    """`re.error` traceback before: the name was used as a regex replacement template."""
    (here / "talk.yaml").write_text(VALID.read_text(encoding="utf-8")
                                    + "theme:\n  fonts:\n    heading: '\\g<0>\\1'\n",
                                    encoding="utf-8")
    run = run_in("build", "talk.yaml", "--out", "built", "--only", "deck", cwd=here)
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(here / "built" / "million-tokens-1M.pptx") as deck:
        theme = deck.read(THEME).decode()
    assert '<a:majorFont><a:latin typeface="\\g&lt;0&gt;\\1"' in theme


def _background(png: bytes) -> Callable[[dict[str, bytes]], None]:
    """The master's background: the picture `png`, stretched over the slide."""
    def change(parts: dict[str, bytes]) -> None:
        parts["ppt/media/bg.png"] = png
        parts[MASTER] = parts[MASTER].replace(
            b'<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>',
            b'<p:bg><p:bgPr><a:blipFill><a:blip r:embed="rIdBg"/><a:stretch><a:fillRect/>'
            b"</a:stretch></a:blipFill><a:effectLst/></p:bgPr></p:bg>")
        rels = "ppt/slideMasters/_rels/slideMaster1.xml.rels"
        parts[rels] = parts[rels].replace(
            b"</Relationships>",
            b'<Relationship Id="rIdBg" Type="http://schemas.openxmlformats.org/officeDocument/'
            b'2006/relationships/image" Target="../media/bg.png"/></Relationships>')
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b"<Default ", b'<Default Extension="png" ContentType="image/png"/><Default ', 1)
    return change


def _png_of(width: int, height: int) -> bytes:
    """A real PNG of `width` x `height` white pixels, made cheaply (a few hundred KB)."""
    row = b"\x00" + b"\xff" * (3 * width)
    squeeze = zlib.compressobj(9)
    body = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = b"IDAT" + body

    def chunk(data: bytes) -> bytes:
        return struct.pack(">I", len(data) - 4) + data + struct.pack(">I", zlib.crc32(data))
    return b"\x89PNG\r\n\x1a\n" + chunk(ihdr) + chunk(idat) + chunk(b"IEND")


@pytest.mark.parametrize("kind", ["bzip2", "lzma", "png"])
def test_template_attacks_end_within_200_mib(tmp_path: Path, kind: str) -> None:
    """Each refused with one line, the process's peak under 200 MiB (938 MB to 2.07 GB
    before)."""
    if kind == "png":
        data = template(_background(_png_of(10_000, 10_000)))  # 100 million pixels, 0.3 MB
        line = ("--template: picture 'ppt/media/bg.png' is 10,000 x 10,000 pixels, more than "
                "the 40,000,000 a template's picture may have")
    else:
        name = "ppt/media/image1.png"
        stream = _bzip2_bomb() if kind == "bzip2" else _lzma_bomb()
        data = _bomb_zip(template(), name, stream, 12 if kind == "bzip2" else 14)
        line = (f"--template: part '{name}' is compressed with "
                f"{'bzip2' if kind == 'bzip2' else 'LZMA'}, which cannot be inflated in "
                f"bounded steps (a .pptx uses deflate); {SAVE}")
    (tmp_path / "t.pptx").write_bytes(data)
    peak = tmp_path / "peak"
    run = subprocess.run(
        [sys.executable, "-c", PEAK, str(peak), "build", str(VALID), "--template",
         str(tmp_path / "t.pptx"), "--out", str(tmp_path / "built")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120, preexec_fn=_limited)
    assert (run.returncode, run.stderr) == (2, line + "\n")
    assert int(peak.read_text()) < 200 * 1024
    assert not (tmp_path / "built").exists()


def test_a_background_too_large_to_sample_builds_within_200_mib(tmp_path: Path) -> None:
    """39.7 million pixels pass the reader; the colour check reads the picture's size before it
    decodes anything and leaves it unsampled (decoded, the build peaked at 203 MiB)."""
    (tmp_path / "t.pptx").write_bytes(template(_background(_png_of(6_300, 6_300))))
    peak = tmp_path / "peak"
    run = subprocess.run(
        [sys.executable, "-c", PEAK, str(peak), "build", str(VALID), "--template",
         str(tmp_path / "t.pptx"), "--out", str(tmp_path / "built"), "--only", "deck"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Warning" not in run.stderr
    assert int(peak.read_text()) < 200 * 1024
    assert (tmp_path / "built" / "million-tokens-1M.pptx").is_file()


@pytest.mark.parametrize("where", [b"<a:themeElements>&xxe;", b'<a:themeElements a:x="&xxe;">'])
def test_an_entity_only_an_outside_dtd_declares_is_one_line(here: Path, where: bytes) -> None:
    """The outside DTD is never fetched, so its entity is refused, in text or in a value."""
    change = replaced(THEME, b"?>", b'?>\n<!DOCTYPE a:theme SYSTEM "http://127.0.0.1:9/x.dtd">')
    data = template(lambda parts: (change(parts), replaced(THEME, b"<a:themeElements>",
                                                           where)(parts)))
    line = refusal(here, data)
    assert line.startswith(f"--template: part '{THEME}' "), line
    assert line.endswith(f"; {SAVE}") and "entit" in line, line


def test_strict_percentages_and_unreadable_numbers_are_read_not_raised(tmp_path: Path) -> None:
    """A gradient's stops in the strict form ("100%"), sizes that are not numbers and
    numbers no file holds ("inf%", 10^23): a ValueError or OverflowError traceback before.
    Stops read as their transitional values; what is not a number reads as missing."""
    gradient = (b'<p:bg><p:bgPr><a:gradFill><a:gsLst>'
                b'<a:gs pos="0%"><a:srgbClr val="102030"/></a:gs>'
                b'<a:gs pos="62.5%"><a:srgbClr val="405060"><a:alpha val="inf%"/>'
                b'<a:lumMod val="1e400%"/></a:srgbClr></a:gs>'
                b'<a:gs pos="100%"><a:srgbClr val="FFFFFF"/></a:gs>'
                b'</a:gsLst><a:lin ang="99999999999999999999999"/></a:gradFill><a:effectLst/>'
                b'</p:bgPr></p:bg>')

    def change(parts: dict[str, bytes]) -> None:
        master = parts[MASTER]
        start, end = master.index(b"<p:bg>"), master.index(b"</p:bg>") + len(b"</p:bg>")
        master = master[:start] + gradient + master[end:]
        parts[MASTER] = master.replace(b'sz="4400"', b'sz="big"', 1)

    assert b'sz="4400"' in dict(BASE)[MASTER]
    (tmp_path / "t.pptx").write_bytes(template(change))
    read = template_file.read(tmp_path / "t.pptx")
    background = read.masters[0].background
    assert background is not None and background.gradient is not None
    assert [stop for stop, _ in background.gradient.stops] == [0, 0.625, 1]
    assert background.gradient.angle == 0
    assert read.masters[0].title_style.size is None
