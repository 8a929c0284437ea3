"""Join cardgen's own reportlab PDFs into one file with bookmarks and fixed metadata, without pypdf.

pypdf parses every object into Python values and costs more to import than a whole
merge needs. The files joined here are all written by reportlab in this process: a
classic cross-reference table, one flat page tree, objects that end where the next
begins. So joining is copying each object's bytes with its numbers shifted (references
rewritten only in dictionaries, never in stream data or strings), one new page tree,
an outline and an info dictionary. The result depends on nothing but the input bytes,
so the same build gives the same file. A file of another shape is refused, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardgen.errors import CardgenError

HEADER = b"%PDF-1.4\n%\x93\x8c\x8b\x9e\n"
_REF_OR_STRING = re.compile(rb"\((?:\\.|[^\\)])*\)|(\d+) 0 R\b", re.S)
_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_STREAM = re.compile(rb">>\s*stream\r?\n")


class PdfJoinError(CardgenError):
    """A PDF not of the simple shape reportlab writes (a bug in cardgen, not bad input)."""


@dataclass(frozen=True)
class Bookmark:
    """An outline entry pointing at a page (0-based, in the joined file), with its own entries under it."""

    title: str
    page: int
    children: tuple[Bookmark, ...] = ()


@dataclass
class _Source:
    objects: dict[int, bytes]  # number -> bytes between "N 0 obj" and "endobj"
    pages: list[int]
    info: int
    skip: set[int] = field(default_factory=set)  # catalog, page tree, info: replaced by the joined file's


def _read(pdf: bytes) -> _Source:
    start = int(pdf[pdf.rindex(b"startxref") + 9:].split()[0])
    end = pdf.index(b"trailer", start)
    entries = _XREF_ENTRY.findall(pdf, start, end)
    offsets = sorted((int(off), n) for n, (off, _gen, kind) in enumerate(entries) if kind == b"n")
    trailer = pdf[end:]
    root, info = _ref(trailer, b"/Root"), _ref(trailer, b"/Info")
    objects: dict[int, bytes] = {}
    for i, (off, n) in enumerate(offsets):
        stop = offsets[i + 1][0] if i + 1 < len(offsets) else start
        head = b"%d 0 obj" % n
        if not pdf.startswith(head, off):
            raise PdfJoinError(f"object {n} is not where the cross-reference table says")
        body = pdf[off + len(head):stop]
        objects[n] = body[:body.rindex(b"endobj")]
    tree = _ref(objects[root], b"/Pages")
    kids = re.search(rb"/Kids\s*\[([^\]]*)\]", objects[tree])
    if kids is None or re.sub(rb"/(Count|Kids|Type)\b|/Pages\b|\d+|\[[^\]]*\]|[\s<>]", b"", objects[tree]):
        raise PdfJoinError("page tree with inherited attributes")
    pages = [int(n) for n in re.findall(rb"(\d+) 0 R", kids.group(1))]
    if any(b"/Type /Pages" in objects[p] for p in pages):
        raise PdfJoinError("nested page tree")
    skip = {root, tree, info}
    outlines = re.search(rb"/Outlines (\d+) 0 R", objects[root])
    if outlines is not None:
        skip.add(int(outlines.group(1)))
    return _Source(objects, pages, info, skip)


def _ref(text: bytes, key: bytes) -> int:
    m = re.search(re.escape(key) + rb"\s+(\d+) 0 R", text)
    if m is None:
        raise PdfJoinError(f"no {key.decode()} reference")
    return int(m.group(1))


def _renumber(body: bytes, mapping: dict[int, int]) -> bytes:
    """References shifted in the dictionary part; a stream's data is copied as it is."""
    m = _STREAM.search(body)
    head, tail = (body[:m.start()], body[m.start():]) if m else (body, b"")

    def swap(hit: re.Match[bytes]) -> bytes:
        if hit.group(1) is None:  # a string: left alone
            return hit.group(0)
        return b"%d 0 R" % mapping[int(hit.group(1))]

    return _REF_OR_STRING.sub(swap, head) + tail


def text_string(text: str) -> bytes:
    """A PDF text string: literal when plain ASCII, else UTF-16BE with a byte-order mark."""
    if all(32 <= ord(ch) < 127 for ch in text):
        return b"(" + text.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


class _Writer:
    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def reserve(self) -> int:
        self.bodies.append(b"")
        return len(self.bodies)

    def put(self, number: int, body: bytes) -> None:
        self.bodies[number - 1] = body

    def output(self, root: int, info: int) -> bytes:
        out = bytearray(HEADER)
        offsets = []
        for n, body in enumerate(self.bodies, 1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % n + body.strip(b"\n") + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.bodies) + 1)
        out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
        out += b"trailer\n<< /Info %d 0 R /Root %d 0 R /Size %d >>\nstartxref\n%d\n%%%%EOF\n" % (
            info, root, len(self.bodies) + 1, xref)
        return bytes(out)


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Width and height (points) of each page, from its /MediaBox."""
    src = _read(pdf)
    out = []
    for p in src.pages:
        box = re.search(rb"/MediaBox\s*\[([^\]]*)\]", src.objects[p])
        if box is None:
            raise PdfJoinError("page without its own /MediaBox")
        x0, y0, x1, y1 = (float(v) for v in box.group(1).split())
        out.append((x1 - x0, y1 - y0))
    return out


def info_dict(entries: dict[str, str]) -> bytes:
    """A document information dictionary of text entries (Title, Author...)."""
    return b"<< " + b" ".join(b"/" + k.encode("ascii") + b" " + text_string(v) for k, v in entries.items()) + b" >>"


def info_of(pdf: bytes) -> bytes:
    """The document information dictionary of `pdf`, as it is (reportlab's holds no references)."""
    src = _read(pdf)
    body = src.objects[src.info]
    if _renumber(body, {}) != body:  # any reference would fail the empty mapping
        raise PdfJoinError("document information with references")
    return body


def join_pdfs(parts: list[bytes], info: bytes, bookmarks: tuple[Bookmark, ...] = (),
              blank_after: dict[int, tuple[float, float]] | None = None) -> bytes:
    """The pages of `parts` in order, one PDF; `blank_after[i]` adds a blank page of that size after part i."""
    w = _Writer()
    catalog, tree, info_no = w.reserve(), w.reserve(), w.reserve()
    page_refs: list[int] = []
    for i, pdf in enumerate(parts):
        src = _read(pdf)
        mapping = {n: w.reserve() for n in src.objects if n not in src.skip}
        for old in src.skip:
            mapping[old] = tree  # a page's /Parent (and nothing else points at these)
        for n, new in ((n, new) for n, new in mapping.items() if n not in src.skip):
            w.put(new, _renumber(src.objects[n], mapping))
        page_refs += [mapping[p] for p in src.pages]
        if blank_after and i in blank_after:
            width, height = blank_after[i]
            blank = w.reserve()
            w.put(blank, b"<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 %s %s ] /Resources << >> >>"
                  % (tree, _num(width), _num(height)))
            page_refs.append(blank)
    kids = b" ".join(b"%d 0 R" % p for p in page_refs)
    w.put(tree, b"<< /Type /Pages /Count %d /Kids [ %s ] >>" % (len(page_refs), kids))
    outline = _outline(w, bookmarks, page_refs) if bookmarks else b""
    w.put(catalog, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (tree, outline))
    w.put(info_no, info)
    return w.output(catalog, info_no)


def _num(v: float) -> bytes:
    return (b"%.4f" % v).rstrip(b"0").rstrip(b".")


def _outline(w: _Writer, bookmarks: tuple[Bookmark, ...], page_refs: list[int]) -> bytes:
    root = w.reserve()
    first, last, count = _items(w, bookmarks, root, page_refs)
    w.put(root, b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first, last, count))
    return b" /Outlines %d 0 R" % root


def _items(w: _Writer, items: tuple[Bookmark, ...], parent: int, page_refs: list[int]) -> tuple[int, int, int]:
    """Write `items` under `parent`; their first and last numbers and how many entries show (all open)."""
    numbers = [w.reserve() for _ in items]
    shown = len(items)
    for i, (item, n) in enumerate(zip(items, numbers, strict=True)):
        parts = [b"/Title " + text_string(item.title), b"/Parent %d 0 R" % parent,
                 b"/Dest [ %d 0 R /Fit ]" % page_refs[item.page]]
        if i > 0:
            parts.append(b"/Prev %d 0 R" % numbers[i - 1])
        if i + 1 < len(items):
            parts.append(b"/Next %d 0 R" % numbers[i + 1])
        if item.children:
            first, last, count = _items(w, item.children, n, page_refs)
            parts.append(b"/First %d 0 R /Last %d 0 R /Count %d" % (first, last, count))
            shown += count
        w.put(n, b"<< " + b" ".join(parts) + b" >>")
    return numbers[0], numbers[-1], shown
