"""A set loaded and put through every load-time pass: the loader's diagnostics and the passes', in one list.

The passes run in the order a set's problems are reported: the set's back inks and templates, then each card
through every card pass (in print order), then the whole set.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cardgen.checks import art, cards, contrast, glyphs, text
from cardgen.errors import Diagnostic, SetError
from cardgen.loader import mix_sets
from cardgen.loader.load import LoadedSet, ordered, read_set
from cardgen.model import Card, CardSet

SetPass = Callable[[LoadedSet], list[Diagnostic]]
CardPass = Callable[[LoadedSet], Callable[[Card], list[Diagnostic]]]  # prepared once a set, then run per card

BEFORE_CARDS: tuple[SetPass, ...] = (contrast.back_problems, text.template_problems)
PER_CARD: tuple[CardPass, ...] = (art.card_art, cards.card_fields, text.card_text)
AFTER_CARDS: tuple[SetPass, ...] = (cards.deck_limits, glyphs.glyph_problems, contrast.colour_warnings,
                                    cards.whole_set_problems)


def check(loaded: LoadedSet) -> list[Diagnostic]:
    """What the load-time passes find in a loaded set, in the order found."""
    out = [d for p in BEFORE_CARDS for d in p(loaded)]
    per_card = [p(loaded) for p in PER_CARD]
    for card in loaded.cs.cards:
        for one in per_card:
            out += one(card)
    return out + [d for p in AFTER_CARDS for d in p(loaded)]


def load_set_with_warnings(ref: str | Path) -> tuple[CardSet, list[Diagnostic]]:
    """Load one set and check it; raises SetError with every diagnostic (sorted by file and position) when
    the loader or a pass found an error, else returns the set and the warnings."""
    loaded = read_set(ref)
    diags = [*loaded.diagnostics, *check(loaded)]
    if any(d.severity == "error" for d in diags):
        raise SetError(ordered(diags))
    return loaded.cs, [d for d in diags if d.severity == "warning"]


def load_set(ref: str | Path) -> CardSet:
    """Load one set and check it; raises SetError with every diagnostic found."""
    return load_set_with_warnings(ref)[0]


def load_sets(refs: list[str] | tuple[str, ...]) -> CardSet:
    """Load, check and mix several sets (one set: itself)."""
    return mix_sets([load_set(r) for r in refs])
