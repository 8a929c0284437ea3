"""A set's TrueType face: what the file says before reportlab reads it (whether its licence lets it be embedded,
whether its character map is small enough to expand), then reportlab's reading of it.

reportlab expands the chosen character map into a dictionary entry per code point, so a 760 KB file whose map
claims U+0000 to U+7FFFFFFF would take gigabytes; and it embeds a face whose OS/2 `fsType` forbids embedding
when the face has few glyphs. Both are read here from the file's own tables, in time and memory that depend
only on the number of map entries, never on the ranges they claim.
"""

from __future__ import annotations

import hashlib
import io
import struct
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from cardgen.bounded_read import set_file_or_why

# A face's character map may name at most this many code points. A full CJK face maps about 50,000; all of
# Unicode's assigned characters are about 155,000.
MAX_MAPPED = 200_000
LAST_CODE_POINT = 0x10FFFF

# OS/2 fsType (OpenType spec): the low four bits are the embedding permission, where a set bit that allows more
# wins; 0x0100 forbids subsetting (every PDF subsets its faces) and 0x0200 allows only bitmaps to be embedded.
_RESTRICTED = 0x0002
_LESS_RESTRICTIVE = 0x0004 | 0x0008
_NO_SUBSETTING = 0x0100
_BITMAP_ONLY = 0x0200


class FontFileProblem(Exception):
    """The file cannot be used; the message says why in a designer's words."""


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    """Tag -> (offset, length) from the table directory (a truncated directory is simply shorter)."""
    if len(data) < 12:
        raise FontFileProblem("too short to be a font file")
    count = struct.unpack_from(">H", data, 4)[0]
    out: dict[bytes, tuple[int, int]] = {}
    for i in range(count):
        at = 12 + 16 * i
        if at + 16 > len(data):
            break
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, at)
        out[tag] = (offset, length)
    return out


def embedding_problem(data: bytes) -> str | None:
    """Why the face's licence forbids embedding it in a PDF (its OS/2 fsType), or None when it allows it."""
    found = _tables(data).get(b"OS/2")
    if found is None or found[0] + 10 > len(data):
        return None
    fs_type = struct.unpack_from(">H", data, found[0] + 8)[0]
    if fs_type & _NO_SUBSETTING:
        return f"its licence (OS/2 fsType 0x{fs_type:04X}) forbids subsetting, and a PDF embeds a subset"
    if fs_type & _BITMAP_ONLY:
        return f"its licence (OS/2 fsType 0x{fs_type:04X}) allows only bitmaps to be embedded"
    if fs_type & _RESTRICTED and not fs_type & _LESS_RESTRICTIVE:
        return (f"its licence (OS/2 fsType 0x{fs_type:04X}) forbids embedding it (restricted licence), and a "
                "printed PDF must embed its fonts")
    return None


def _subtable_size(data: bytes, at: int) -> tuple[int, int]:
    """(code points mapped, highest code point) of the cmap subtable at `at`, from its ranges alone."""
    fmt = struct.unpack_from(">H", data, at)[0]
    if fmt == 4:
        seg_count = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{seg_count}H", data, at + 14)
        starts = struct.unpack_from(f">{seg_count}H", data, at + 16 + 2 * seg_count)
        return sum(max(0, e - s + 1) for s, e in zip(starts, ends, strict=True)), max(ends, default=0)
    if fmt in (12, 13):
        groups = struct.unpack_from(">I", data, at + 12)[0]
        total = top = 0
        for i in range(min(groups, (len(data) - at - 16) // 12)):
            start, end = struct.unpack_from(">II", data, at + 16 + 12 * i)
            total += max(0, end - start + 1)
            top = max(top, end)
        return total, top
    if fmt == 10:
        first, count = struct.unpack_from(">II", data, at + 12)
        return count, first + count - 1 if count else 0
    if fmt == 6:
        first, count = struct.unpack_from(">HH", data, at + 6)
        return count, first + count - 1 if count else 0
    return 256, 255  # formats 0 and 2: single bytes, at most 256 lead bytes


def cmap_problem(data: bytes) -> str | None:
    """Why the face's character map is too large to read (too many code points, or beyond Unicode), or None."""
    found = _tables(data).get(b"cmap")
    if found is None:
        return None
    base = found[0]
    try:
        count = struct.unpack_from(">H", data, base + 2)[0]
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
            mapped, top = _subtable_size(data, base + offset)
            if top > LAST_CODE_POINT:
                return (f"its character map (platform {platform}, encoding {encoding}) reaches U+{top:X}, beyond "
                        f"Unicode's last code point U+{LAST_CODE_POINT:X}")
            if mapped > MAX_MAPPED:
                return (f"its character map (platform {platform}, encoding {encoding}) names {mapped:,} code "
                        f"points, more than the {MAX_MAPPED:,} a face may have")
    except struct.error:
        return "its character map is cut short; is the file corrupt?"
    return None


def font_file_problem(data: bytes) -> str | None:
    """The first reason the TrueType bytes cannot be used for a set's face, or None."""
    try:
        return embedding_problem(data) or cmap_problem(data)
    except FontFileProblem as exc:
        return str(exc)
    except struct.error:
        return "its tables are cut short; is the file corrupt?"


MAX_FONT_BYTES = 20_000_000  # a full CJK face is about 16 MB; a Latin one well under 1 MB


class SetFont(NamedTuple):
    """A parsed TrueType face of a set: the registered name is its content's digest, so the same file
    always embeds under the same name (reproducible PDFs) and two sets' files never clash."""

    name: str
    data: bytes
    charset: frozenset[int]


def font_name(data: bytes) -> str:
    return "set-" + hashlib.sha256(data).hexdigest()[:16]


@cache
def _parse(data: bytes) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(font_name(data), io.BytesIO(data))
    # reportlab's registry treats two faces of one PostScript name as one font (the first registered wins): a
    # set's own DejaVuSans, or two versions of a face, would silently draw in the other. The name made
    # unique by the content's digest also names the embedded subset (ABCDEF+Name-1a2b3c4d).
    font.face.name = font.face.name + b"-" + hashlib.sha256(data).hexdigest()[:8].encode()
    return font


def truetype(data: bytes) -> Any:
    """reportlab's TTFont of the file's bytes, parsed once per content."""
    return _parse(data)


def read_font(folder: Path, rel: str) -> SetFont | str:
    """The face the set folder's file `rel` holds, or why it cannot be used: outside the folder, not a regular
    file, over MAX_FONT_BYTES, a licence that forbids embedding, a character map too large to expand, or a file
    reportlab's TrueType reader refuses."""
    data = set_file_or_why(folder, rel, MAX_FONT_BYTES, "font file")
    if isinstance(data, str):
        return data
    problem = font_file_problem(data)
    if problem is not None:
        return f"'{rel}' cannot be used: {problem}"
    from reportlab.pdfbase.ttfonts import TTFError

    try:
        font = truetype(data)
    except TTFError as exc:
        return f"'{rel}' is not a usable TrueType font ({exc})"
    except Exception as exc:  # reportlab's parser raises what struct or its tables raise on a damaged file
        return f"'{rel}' is not a usable TrueType font ({type(exc).__name__}: {exc}); is it corrupt?"
    return SetFont(font.fontName, data, frozenset(font.face.charWidths))
