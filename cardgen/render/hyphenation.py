"""Where a word may break, from the hyphenation dictionaries Pyphen ships (the ones LibreOffice uses).

A word wider than its room breaks at a dictionary point with a hyphen, never at an arbitrary letter:
`broken` cuts it into lines, and `narrowest` tells the rules page's card table how wide a column must be
for a name to break only there. A word that fits is never broken. A language Pyphen has no dictionary
for gets no break points.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import pairwise

import pyphen


@cache
def _dictionary(lang: str) -> pyphen.Pyphen | None:
    code = pyphen.language_fallback(lang.replace("-", "_"))
    return pyphen.Pyphen(lang=code) if code else None


def pieces(word: str, lang: str) -> list[str]:
    """`word` cut at every break point ('Roundhouse' -> ['Round', 'house'])."""
    found = _dictionary(lang)
    if found is None:
        return [word]
    positions = found.positions(word)
    cuts = [0, *positions, len(word)]
    return [word[a:b] for a, b in pairwise(cuts) if b > a]


def narrowest(word: str, lang: str, width: Callable[[str], float]) -> float:
    """The least room `word` needs if it may break at its break points: its widest piece, a hyphen on
    every piece but the last."""
    parts = pieces(word, lang)
    return max(width(p + "-" if i < len(parts) - 1 else p) for i, p in enumerate(parts))


def broken(word: str, room: float, width: Callable[[str], float], lang: str) -> list[str]:
    """`word` as lines no wider than `room` where its break points allow, each but the last ending in a
    hyphen; the word whole when it fits (a piece wider than `room` stands on a line of its own)."""
    if width(word) <= room:
        return [word]
    parts = pieces(word, lang)
    lines: list[str] = []
    while parts:
        take = len(parts)
        while take > 1 and width("".join(parts[:take]) + ("-" if take < len(parts) else "")) > room:
            take -= 1
        head, parts = "".join(parts[:take]), parts[take:]
        lines.append(head + "-" if parts else head)
    return lines
