"""The words cardgen prints around the cards (sheet notes, the assembly page), from a catalogue per language.

Kept as data (`templates/messages/<lang>.yaml`) so a sentence is edited, or a language added, without
touching code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cardgen.errors import CardgenError
from cardgen.paths import templates_dir

DEFAULT_LANGUAGE = "en"


class MessagesError(CardgenError):
    """A message catalogue that is missing or lacks a key."""


@cache
def catalogue(lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    from cardgen.render.layout_data import read_yaml

    path = templates_dir() / "messages" / f"{lang}.yaml"
    try:
        data = read_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MessagesError(f"no message catalogue for language '{lang}' ({path}): {exc.strerror}") from None
    if not isinstance(data, dict):
        raise MessagesError(f"{path}: expected a mapping")
    return data


def message(key: str, lang: str = DEFAULT_LANGUAGE) -> Any:
    """The entry at a dotted `key` (a string, or a list of strings for steps)."""
    node: Any = catalogue(lang)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise MessagesError(f"message catalogue '{lang}' has no '{key}'")
        node = node[part]
    return node


def text(key: str, lang: str = DEFAULT_LANGUAGE, **fields: object) -> str:
    return str(message(key, lang)).format(**fields)
