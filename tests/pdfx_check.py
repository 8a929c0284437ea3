"""A PDF/X-1a:2003 (ISO 15930-4) check of the rules a file can be held to mechanically, for the tests.

No PDF/X validator can be installed here (veraPDF checks PDF/A and PDF/UA only; Ghostscript writes
PDF/X but does not verify it; Acrobat Preflight, callas pdfToolbox and PitStop are commercial), so the
tests read the written file back and check each requirement of the standard themselves:

- PDF version at most 1.4; a file identifier (/ID) in the trailer; not encrypted;
- Info: Title, CreationDate, ModDate, Trapped True or False, GTS_PDFXVersion "PDF/X-1:2003";
- Catalog: an OutputIntent with /S /GTS_PDFX and an OutputConditionIdentifier (a registered one, or
  an embedded DestOutputProfile);
- every page: a TrimBox (or ArtBox), inside its BleedBox, inside its MediaBox;
- colour: no DeviceRGB, CalRGB, Lab or ICC-based colour in any content stream, form or image; only
  DeviceCMYK, DeviceGray (and Separation/DeviceN on those);
- no transparency: no SMask on images or in graphics states, no constant alpha below 1, no blend mode
  other than Normal; no JavaScript, no embedded files;
- every font embedded (FontFile, FontFile2 or FontFile3 in each descriptor).
"""

from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject

RGB_OPERATORS = {"rg", "RG"}
ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray", "/Separation", "/DeviceN", "/Pattern"}


def _obj(v: Any) -> Any:
    return v.get_object() if isinstance(v, IndirectObject) else v


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    raw = page.get(name)
    if raw is None:
        return None
    return tuple(float(v) for v in _obj(raw))  # type: ignore[return-value]


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (inner[0] >= outer[0] - 1e-3 and inner[1] >= outer[1] - 1e-3 and inner[2] <= outer[2] + 1e-3
            and inner[3] <= outer[3] + 1e-3)


def problems(data: bytes) -> list[str]:
    """Every broken rule, as a sentence; an empty list for a conforming file."""
    out: list[str] = []
    version = data[5:8].decode("latin-1")
    if not data.startswith(b"%PDF-") or float(version) > 1.4:
        out.append(f"PDF version {version} is above 1.4")
    reader = PdfReader(io.BytesIO(data), strict=True)
    if reader.is_encrypted:
        out.append("encrypted")
    if "/ID" not in reader.trailer:
        out.append("no file identifier (/ID) in the trailer")
    info = _obj(reader.trailer.get("/Info")) or {}
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if key not in info:
            out.append(f"Info has no {key}")
    if str(info.get("/Trapped")) not in ("/True", "/False"):
        out.append("Info /Trapped is not True or False")
    if str(info.get("/GTS_PDFXVersion")) != "PDF/X-1:2003":
        out.append(f"Info /GTS_PDFXVersion is {info.get('/GTS_PDFXVersion')!r}")
    root = _obj(reader.trailer["/Root"])
    intents = [_obj(i) for i in _obj(root.get("/OutputIntents", ArrayObject()))]
    pdfx = [i for i in intents if str(i.get("/S")) == "/GTS_PDFX"]
    if len(pdfx) != 1:
        out.append(f"{len(pdfx)} PDF/X output intents (one is required)")
    elif "/OutputConditionIdentifier" not in pdfx[0]:
        out.append("the output intent has no OutputConditionIdentifier")
    elif "/DestOutputProfile" not in pdfx[0] and str(pdfx[0].get("/RegistryName", "")) != "http://www.color.org":
        out.append("the output intent neither embeds a profile nor names a registered condition")
    if ("/Names" in root and "/JavaScript" in _obj(root["/Names"])) or "/OpenAction" in root:
        out.append("JavaScript or an open action")
    for n, page in enumerate(reader.pages, 1):
        media = _box(page, "/MediaBox")
        trim = _box(page, "/TrimBox") or _box(page, "/ArtBox")
        bleed = _box(page, "/BleedBox") or media
        if media is None or trim is None or bleed is None:
            out.append(f"page {n}: no MediaBox or TrimBox")
            continue
        if not (_inside(trim, bleed) and _inside(bleed, media)):
            out.append(f"page {n}: TrimBox {trim} not inside BleedBox {bleed} inside MediaBox {media}")
        out += [f"page {n}: {p}" for p in _content_problems(page.get_contents(), _obj(page.get("/Resources")),
                                                             reader)]
    return sorted(set(out))


def _space_ok(space: Any) -> bool:
    space = _obj(space)
    if isinstance(space, ArrayObject):
        return str(space[0]) in ALLOWED_SPACES and (str(space[0]) not in ("/Separation", "/DeviceN")
                                                    or str(_obj(space[2])) in ("/DeviceCMYK", "/DeviceGray"))
    return str(space) in ALLOWED_SPACES


def _content_problems(content: Any, resources: Any, reader: PdfReader, seen: set[int] | None = None) -> list[str]:
    seen = set() if seen is None else seen
    out: list[str] = []
    resources = resources or DictionaryObject()
    if content is not None:
        for _operands, op in ContentStream(content, reader).operations:
            if op.decode("latin-1") in RGB_OPERATORS:
                out.append(f"RGB colour operator {op.decode('latin-1')}")
    for name, space in _obj(resources.get("/ColorSpace", DictionaryObject())).items():
        if not _space_ok(space):
            out.append(f"colour space {name} is {_obj(space)}")
    for name, gs in _obj(resources.get("/ExtGState", DictionaryObject())).items():
        gs = _obj(gs)
        if str(gs.get("/SMask", "/None")) != "/None":
            out.append(f"graphics state {name} has a soft mask")
        if float(gs.get("/CA", 1)) < 1 or float(gs.get("/ca", 1)) < 1:
            out.append(f"graphics state {name} has alpha below 1")
        if str(gs.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
            out.append(f"graphics state {name} has blend mode {gs.get('/BM')}")
    for name, font in _obj(resources.get("/Font", DictionaryObject())).items():
        out += [f"font {name}: {p}" for p in _font_problems(_obj(font))]
    for name, ref in _obj(resources.get("/XObject", DictionaryObject())).items():
        key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
        if key in seen:
            continue
        seen.add(key)
        xobj = _obj(ref)
        if xobj.get("/Subtype") == "/Image":
            if not _space_ok(xobj.get("/ColorSpace")):
                out.append(f"image {name} in {xobj.get('/ColorSpace')}")
            if "/SMask" in xobj:
                out.append(f"image {name} has a soft mask")
        elif xobj.get("/Subtype") == "/Form":
            if "/Group" in xobj and str(_obj(xobj["/Group"]).get("/S")) == "/Transparency":
                out.append(f"form {name} is a transparency group")
            out += _content_problems(xobj, _obj(xobj.get("/Resources")) or resources, reader, seen)
    return out


def _font_problems(font: Any) -> list[str]:
    fonts = [font] + [_obj(f) for f in _obj(font.get("/DescendantFonts", ArrayObject()))]
    for f in fonts:
        desc = _obj(f.get("/FontDescriptor"))
        if desc is not None and any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            return []
    return ["not embedded"]
