"""Loader checks a schema cannot express: zeros that mean nothing, invisible or control characters,
names that only look different, and the deck's size limits (a card without any mechanic: `cardgen.mechanics`).

Each returns diagnostics at the value's own line and column. The checks that
need the engine (can a card ever be played?) or the fonts (can it be printed?)
run in `cardgen validate` on the loaded set, beside these.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from cardgen import model
from cardgen.errors import Diagnostic
from cardgen.mechanic_registry import NOT_WITH_EFFECTS, ZERO_MEANS_NOTHING
from cardgen.primitives import PRIMITIVES, TEXT_ONLY
from cardgen.yaml_doc import Document

# A deck holds at most this many cards (the documented maximum), after `extends:` and mixing too; since every
# design has at least one copy, it also bounds the number of designs.
MAX_DECK_CARDS = 1000
MAX_DESIGNS = MAX_DECK_CARDS
MIN_PLAYERS = 2

# Fields that are printed (or name the card), so must hold only visible characters; the first one on one line.
PRINTED_CARD_FIELDS: tuple[str, ...] = ("name", "text", "flavour")
ONE_LINE_CARD_FIELDS: frozenset[str] = frozenset({"name"})


def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f" ({name})" if name else ""


def hidden_character(text: str, one_line: bool = False) -> str | None:
    """A description of the first control or invisible formatting character in `text` (None if there is none).

    Control characters (category Cc: a bell, an escape) print nothing or garbage; format characters (Cf:
    zero-width spaces and joiners, right-to-left overrides, soft hyphens) are invisible or reorder the text,
    so two names that look the same could differ, or a name could print backwards. A line break is fine in
    rules text and flavour (a YAML block), not in what prints on one line (`one_line`: a name, a title, a
    label), where it would break the name band and every `file:line: card 'X'` message naming it.
    """
    for ch in text:
        if ch == "\t" or (ch == "\n" and not one_line):  # a tab is whitespace (and prints as a space)
            continue
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cf"):
            what = "a control" if kind == "Cc" else "an invisible formatting"
            return f"{what} character U+{ord(ch):04X}{_char_name(ch)}"
    return None


RIGHT_TO_LEFT = ("is written right to left ({}); cardgen lays text out left to right only, so it would print with "
                 "its letters reversed")


def right_to_left(text: str) -> str | None:
    """The first right-to-left letter of `text` (Hebrew, Arabic...) as 'U+05E9 HEBREW LETTER SHIN', or None."""
    for ch in text:
        if unicodedata.bidirectional(ch) in ("R", "AL"):
            return f"U+{ord(ch):04X} {unicodedata.name(ch, 'a right-to-left letter')}"
    return None


def name_key(name: str) -> str:
    """What a name looks like, for finding near-duplicates: compatibility forms folded (NFKC: a full-width 'Ｋ'
    is 'K'), invisible characters dropped, runs of spaces made one, case ignored."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(ch for ch in folded if unicodedata.category(ch) not in ("Cc", "Cf"))
    return " ".join(visible.split()).casefold()


def raw_card_problems(doc: Document, at: tuple[str | int, ...], raw: dict[str, Any], label: str) -> list[Diagnostic]:
    """Problems of one schema-valid card entry (or `override` entry) at `at` in `doc`; `label` names it."""
    out: list[Diagnostic] = []

    def add(key: str, message: str) -> None:
        line, col = doc.where((*at, key))
        out.append(Diagnostic(doc.path, line, col, f"{label} field `{key}`: {message}"))

    name = raw.get("name")
    if isinstance(name, str) and not name.strip():
        add("name", "is only spaces; a card needs a visible name")
    for key in PRINTED_CARD_FIELDS:
        value = raw.get(key)
        if isinstance(value, str) and (hidden := hidden_character(value, key in ONE_LINE_CARD_FIELDS)):
            add(key, f"has {hidden}; write plain visible text")
        elif isinstance(value, str) and (rtl := right_to_left(value)):
            add(key, RIGHT_TO_LEFT.format(rtl))
    effects = raw.get("effects")
    if effects is not None:
        for key in NOT_WITH_EFFECTS:
            if key in raw:
                add(key, "cannot be combined with `effects:`; write what it does as one of the effects "
                         f"({', '.join(PRIMITIVES)})")
        if effects == TEXT_ONLY and not raw.get("text"):
            add("effects", "`text` says the card's own `text` tells what it does, but the card has no `text`")
    return out


def head_problems(head: Document) -> list[Diagnostic]:
    """Hidden characters in what set.yaml prints, each on one line: the title, the type labels, the life word
    and hint, and the card back's title and subtitle."""
    data = head.data if isinstance(head.data, dict) else {}
    places: list[tuple[tuple[str | int, ...], Any]] = [(("title",), data.get("title"))]
    types = data.get("types")
    if isinstance(types, dict):
        places += [(("types", k, "label"), t.get("label")) for k, t in types.items() if isinstance(t, dict)]
    rules = data.get("rules")
    if isinstance(rules, dict):
        places += [(("rules", k), rules.get(k)) for k in ("life_word", "counters_hint")]
    look = data.get("look")
    back = look.get("back") if isinstance(look, dict) else None
    if isinstance(back, dict):
        places += [(("look", "back", k), back.get(k)) for k in ("title", "subtitle")]
    out = []
    for at, value in places:
        if isinstance(value, str) and (hidden := hidden_character(value, one_line=True)):
            line, col = head.where(at)
            out.append(Diagnostic(head.path, line, col, f"{'.'.join(map(str, at))}: has {hidden}; write plain "
                                  "visible text"))
    return out


def zero_problems(doc: Document, at: tuple[str | int, ...], raw: dict[str, Any], label: str,
                  base: model.Card | None = None) -> list[Diagnostic]:
    """`stuns: 0` and the like, which mean nothing; in an `override` a 0 is meaningful when the base card has
    the mechanic (it takes it away)."""
    out: list[Diagnostic] = []
    for key, meaning in ZERO_MEANS_NOTHING.items():
        if raw.get(key) != 0 or isinstance(raw.get(key), bool):
            continue
        if base is not None and getattr(base, key):
            continue
        line, col = doc.where((*at, key))
        why = "the base card has none either" if base is not None else "it is the same as leaving the field out"
        out.append(Diagnostic(doc.path, line, col, f"{label} field `{key}`: 0 means {meaning} and {why}; "
                              f"remove it, or give 1 or more"))
    return out


def deck_problems(cs: model.CardSet, head: Document) -> list[Diagnostic]:
    """The deck's card total against the 1,000-card maximum and against dealing two hands."""
    total = cs.total
    out: list[Diagnostic] = []
    if total > MAX_DECK_CARDS:
        line, col = head.where(("extends",) if "extends" in head.data else ("deck_size",))
        out.append(Diagnostic(head.path, line, col, f"the deck has {total} cards, over the maximum of "
                              f"{MAX_DECK_CARDS} (card counts and `extends:` included)"))
    need = MIN_PLAYERS * cs.rules.hand_size
    if total < need:
        line, col = head.where(("rules", "hand_size")) if "hand_size" in head.data.get("rules", {}) else \
            head.where(("deck_size",))
        out.append(Diagnostic(head.path, line, col, f"rules: hand_size {cs.rules.hand_size} needs at least "
                              f"{need} cards to deal {MIN_PLAYERS} hands, and the deck has {total}"))
    return out
