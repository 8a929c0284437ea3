"""A designer's set of 280 designs builds: the rules reference holds it, and card text stays the same length."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

from pypdf import PdfReader

from cardgen.cardtext import rules_text
from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.render.build import build
from cardgen.render.sheets import PrintOptions


@cache
def big_set(designs: int = 280) -> CardSet:
    """Beer Money's designs copied until there are `designs` of them ('Grab', 'Grab 2', ...), one copy each."""
    beer = load_set("beer")
    cards = []
    while len(cards) < designs:
        k = len(cards) // len(beer.cards)
        for c in beer.cards[:designs - len(cards)]:
            cards.append(dataclasses.replace(c, name=c.name if k == 0 else f"{c.name} {k + 1}",
                                             number=len(cards) + 1, count=1))
    return dataclasses.replace(beer, name="big", cards=tuple(cards), deck_size=designs)


def test_card_text_does_not_grow_with_the_set() -> None:
    beer, big = load_set("beer"), big_set()
    for card in beer.cards:
        copy = big.card(f"{card.name} 8")
        # 'Grab 8' may name other cards, but never more of them than in Beer Money: only the names'
        # ' 8' suffixes (at most 4 named cards) may make it longer
        assert len(rules_text(copy, big)) <= len(rules_text(card, beer)) + 4 * len(" 10"), card.name
    choke = rules_text(big.card("Choke & Puke 8"), big)
    assert "any card that breaks holds" in choke and "FREEDOM 2" not in choke


def test_280_designs_build_with_the_card_list_on_the_back(tmp_path: Path) -> None:
    big = big_set()
    written = build([big], PrintOptions(backs=True), tmp_path, show_progress=False)
    assert {p.name for p in written} == {"big-cards.pdf", "big-rules.pdf", "big-print.pdf"}
    rules = PdfReader(tmp_path / "big" / "big-rules.pdf")
    assert len(rules.pages) == 2
    back = re.sub(r"\s+", " ", rules.pages[1].extract_text())
    missing = [c.name for c in big.cards if c.name not in back]
    assert not missing
    printed = PdfReader(tmp_path / "big" / "big-print.pdf")
    cards = PdfReader(tmp_path / "big" / "big-cards.pdf")
    assert len(cards.pages) == 2 * -(-280 // 9)
    # front and back of the rules, the assembly page and its blank reverse, then fronts and backs
    assert len(printed.pages) == 4 + len(cards.pages)
