"""Classic's weapon limits (`rules.weapon_once_per_turn`, the card's own set): on your own turn one weapon card
in all; on anyone's turn never the same weapon twice. The scenarios `classic-weapon-*.yaml` play them out."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.engine import moves as mv
from cardgen.engine import new_game
from cardgen.engine.legal import turn_moves, weapon_barred
from cardgen.model import CardSet


def _weapon_offered_after_use(cs: CardSet) -> bool:
    """Deal a game, put a weapon in the acting player's hand, mark it used this turn; is it still playable?"""
    s = new_game(cs, 3, seed=5)
    p = s.stack[-1].player
    weapon = next(d for d, ci in enumerate(s.game.info) if ci.weapon)
    s.hands[p][0] = weapon  # (swapping the card in keeps the deck count: the test only reads legal moves)
    before = any(m.card == weapon and m.kind == mv.PLAY for m in turn_moves(s, p))
    s.weapons_used.add((p, weapon))
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


def test_own_turn_one_weapon_in_all_other_turns_each_weapon_once(classic: CardSet) -> None:
    s = new_game(classic, 3, seed=5)
    me = s.current
    other = (me + 1) % 3
    ruler, textbook = (next(d for d, c in enumerate(classic.cards) if c.name == n) for n in ("Ruler", "Textbook"))
    info = s.game.info
    s.weapons_used.add((me, textbook))
    assert weapon_barred(s, me, info[ruler]) and weapon_barred(s, me, info[textbook])  # own turn: any weapon
    s.weapons_used = {(other, textbook)}
    assert weapon_barred(s, other, info[textbook])  # someone else's turn: the same weapon twice
    assert not weapon_barred(s, other, info[ruler])  # ...but another weapon is fine
    assert not weapon_barred(s, me, info[textbook])  # and another player's use does not count
