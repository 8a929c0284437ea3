"""A new game is set up as the rulebooks say: every player starts with the set's life (15 counters in
Lunch and Beer Money, 20 life in the home-made variant) and a hand of 5, the rest of the deck is the draw
pile, nothing is lost yet, and the first seat (left of the dealer) plays the first turn
(lunch-money.txt:14-16, 21; beer-money.txt:20, 36; classic-homemade-lunch-money.txt:35-36, 43)."""

from __future__ import annotations

import pytest

from cardgen.checks import load_sets
from cardgen.engine.rules import new_game

RULEBOOK = {"lunch": (15, 5, 110), "beer": (15, 5, 110), "classic": (20, 5, 104)}


@pytest.mark.parametrize("name", sorted(RULEBOOK))
@pytest.mark.parametrize("players", [2, 5])
def test_a_new_game_deals_the_rulebook_start(name: str, players: int) -> None:
    life, hand, deck = RULEBOOK[name]
    s = new_game(load_sets([name]), players, seed=3)
    assert s.life == [life] * players
    assert [len(h) for h in s.hands] == [hand] * players
    assert len(s.draw) == deck - hand * players and s.discard == [] and s.pool == 0
    assert (s.turn, s.current, s.to_act) == (1, 0, 0)
