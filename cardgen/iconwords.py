"""Which words of card text stand for an icon: `{key}` tokens and the set's keywords as they print.

A set maps keys to icon files (`icons: {dodge: icons/dodge.svg}`). In text,
`{dodge}` (any case) is replaced by the icon; the keyword itself in capitals
(DODGE, and its forms DODGED and DODGES) keeps its word and gets the icon
drawn in front of it, so the text still reads without knowing the icons.
Shared by the loader (unknown tokens are errors) and rendering (cards, rules page).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

TOKEN = re.compile(r"\{([A-Za-z][A-Za-z0-9-]*)\}")
_CORE = re.compile(r"^(\W*)(.*?)(\W*)$", re.S)


class IconWord(NamedTuple):
    """A word of text that carries an icon: `before` + icon + `text` (the word kept, or only punctuation)."""

    key: str
    before: str
    text: str


def keyword_forms(key: str) -> tuple[str, ...]:
    """The capitalised forms of a key's keyword: DODGE, DODGED, DODGES; BLOCK, BLOCKED, BLOCKS."""
    word = key.upper()
    past = word + "D" if word.endswith("E") else word + "ED"
    return word, past, word + "S"


def icon_word(word: str, keys: tuple[str, ...], forms: Mapping[str, tuple[str, ...]] | None = None) -> IconWord | None:
    """The icon a whitespace-separated `word` stands for, if any; `forms` gives a key's words in a language
    other than English (dodge: AUSWEICHEN), else they are `keyword_forms`."""
    if not keys:
        return None
    token = TOKEN.search(word)
    if token is not None:
        key = next((k for k in keys if k.lower() == token.group(1).lower()), None)
        if key is not None:
            return IconWord(key, word[:token.start()], word[token.end():])
        return None
    m = _CORE.match(word)
    assert m is not None
    core = m.group(2)
    if not core or core.upper() != core:
        return None
    for key in keys:
        own = forms.get(key) if forms else None
        if core in (own or keyword_forms(key)):
            return IconWord(key, m.group(1), core + m.group(3))
    return None


def unknown_tokens(text: str, keys: tuple[str, ...]) -> list[str]:
    """`{word}` tokens in `text` that name no icon of the set."""
    known = {k.lower() for k in keys}
    return [t for t in TOKEN.findall(text) if t.lower() not in known]
