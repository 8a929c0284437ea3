"""Distinct subset tags for the fonts a PDF embeds (ISO 32000-1 9.6.4: a subset's name is a tag of six
capital letters, a '+', then the font's name, the tag differing between subsets in one file).

reportlab tags every font's first subset AAAAAA (its second AAAAAB), so five embedded fonts all read
AAAAAA+... and preflight tools flag it. Each tag here is made from the font's name and reportlab's tag
(a digest, so the same file gives the same bytes every time), written over the old one in place: the
file keeps its length, so its cross-reference table stays true. Only the `/BaseFont` and `/FontName`
entries are touched, never a compressed stream.
"""

from __future__ import annotations

import hashlib
import re

_TAGGED = re.compile(rb"(/(?:BaseFont|FontName)\s*/)([A-Z]{6})\+([^\s/()<>\[\]{}%]+)")


def _tag(old: bytes, name: bytes) -> bytes:
    digest = hashlib.sha256(old + b"+" + name).digest()
    return bytes(ord("A") + b % 26 for b in digest[:6])


def distinct_subset_tags(pdf: bytes) -> bytes:
    """`pdf` with each embedded subset's tag made from its font's name: as long as before, distinct per font."""
    return _TAGGED.sub(lambda m: m.group(1) + _tag(m.group(2), m.group(3)) + b"+" + m.group(3), pdf)
