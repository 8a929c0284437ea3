"""Card numbers and the file names that carry them: one definition for the footer, gallery, previews and TTS.

A card is numbered as a *design*: 'beer 01/28' is the first of the set's 28
designs, printed the same on all five copies of Love Tap. (A copy number out of
the deck size, 'card 1 of 110', would need a different face per copy, and every
copy of a design shares one image in the gallery and one slot in Tabletop
Simulator.)
"""

from __future__ import annotations

import re

from cardgen.model import Card, CardSet


def number_width(cs: CardSet) -> int:
    """Digits in the largest design number, so numbers line up and file names sort ('01' ... '28')."""
    return max(2, len(str(len(cs.cards))))


def card_number(card: Card, cs: CardSet) -> str:
    """'07/28': the card's design number out of the number of designs in the deck."""
    return f"{card.number:0{number_width(cs)}d}/{len(cs.cards)}"


def card_label(card: Card, cs: CardSet) -> str:
    """The footer text: the card's own set (it matters in a mixed deck) and its number ('beer 07/28')."""
    return f"{card.origin or cs.name} {card_number(card, cs)}"


def slug(name: str) -> str:
    """A card name as a file-name part: lowercase letters and digits joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def card_file_stem(card: Card, cs: CardSet) -> str:
    """'07-love-tap': a card's image file name (without extension) in previews and the gallery."""
    return f"{card.number:0{number_width(cs)}d}-{slug(card.name)}"
