"""`rules.weapon_once_per_turn`: the home-made rule that a weapon card is used at most once a turn, classic only."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.engine import moves as mv
from cardgen.engine import new_game
from cardgen.engine.legal import turn_moves
from cardgen.model import CardSet


def _weapon_offered_after_use(cs: CardSet) -> bool:
    """Deal a game, put a weapon in the acting player's hand, mark it used this turn; is it still playable?"""
    s = new_game(cs, 3, seed=5)
    p = s.stack[-1].player
    weapon = next(d for d, ci in enumerate(s.game.info) if ci.weapon)
    s.hands[p][0] = weapon  # (swapping the card in keeps the deck count: the test only reads legal moves)
    before = any(m.card == weapon and m.kind == mv.PLAY for m in turn_moves(s, p))
    s.weapons_used.add(weapon)
    after = any(m.card == weapon and m.kind == mv.PLAY for m in turn_moves(s, p))
    assert before, "the weapon should be playable before it is used"
    return after


def test_classic_forbids_the_same_weapon_twice_in_a_turn(classic: CardSet) -> None:
    assert classic.rules.weapon_once_per_turn
    assert _weapon_offered_after_use(classic) is False


@pytest.mark.parametrize("name", ["lunch", "beer"])
def test_other_sets_have_no_such_limit(name: str, request: pytest.FixtureRequest) -> None:
    cs: CardSet = request.getfixturevalue(name)
    assert not cs.rules.weapon_once_per_turn
    assert _weapon_offered_after_use(cs) is True


def test_the_rule_is_data_not_a_set_name(classic: CardSet) -> None:
    relaxed = dataclasses.replace(classic, rules=dataclasses.replace(classic.rules, weapon_once_per_turn=False))
    assert _weapon_offered_after_use(relaxed) is True
