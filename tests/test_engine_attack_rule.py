"""Classic's attack limit (`rules.one_per_own_turn: [attack]`, the card's own set): one attack card on your own
turn, whatever plays it; a HOLD's wrestling moves capped by `rules.moves_per_hold`. The scenarios
`classic-attack-*.yaml` and `classic-hold-at-most-four-moves.yaml` play them out."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.checks import load_sets
from cardgen.engine import moves as mv
from cardgen.engine import new_game
from cardgen.engine.cards import card_info
from cardgen.engine.legal import barred, turn_moves
from cardgen.engine.state import GameState
from cardgen.model import CardSet


def _offered(s: GameState, name: str, origin: str = "") -> bool:
    """Put the card in the acting player's hand (in place of one: only the legal moves are read) and say
    whether it is offered as a turn play."""
    p = s.stack[-1].player
    d = next(d for d, ci in enumerate(s.game.info) if ci.name == name and (not origin or ci.card.origin == origin))
    s.hands[p][0] = d
    return any(m.card == d and m.kind == mv.PLAY for m in turn_moves(s, p))


def test_classic_offers_no_second_attack_card_on_your_own_turn(classic: CardSet) -> None:
    assert classic.rules.one_per_own_turn == ("attack",)
    s = new_game(classic, 3, seed=5)
    assert _offered(s, "Punch")
    s.roles_played.add("attack")
    assert not _offered(s, "Punch")
    assert _offered(s, "Ruler") and _offered(s, "Food Fight")  # a weapon and an event are no attack cards


@pytest.mark.parametrize("name", ["lunch", "beer"])
def test_other_sets_have_no_such_limit(name: str, request: pytest.FixtureRequest) -> None:
    cs: CardSet = request.getfixturevalue(name)
    assert cs.rules.one_per_own_turn == () and cs.rules.moves_per_hold == 0
    info = card_info(cs)
    assert not any(ci.one_per_turn or ci.counted_role for ci in info)


def test_the_rule_is_data_not_a_set_name(classic: CardSet) -> None:
    relaxed = dataclasses.replace(classic, rules=dataclasses.replace(classic.rules, one_per_own_turn=()))
    s = new_game(relaxed, 3, seed=5)
    s.roles_played.add("attack")
    assert _offered(s, "Punch")
    stricter = dataclasses.replace(classic, rules=dataclasses.replace(classic.rules,
                                                                     one_per_own_turn=("attack", "event")))
    s = new_game(stricter, 3, seed=5)
    s.roles_played.add("event")
    assert not _offered(s, "Food Fight") and _offered(s, "Punch")


def test_the_limit_is_for_your_own_turn_only(classic: CardSet) -> None:
    s = new_game(classic, 3, seed=5)
    punch = next(ci for ci in s.game.info if ci.name == "Punch")
    s.roles_played.add("attack")
    assert barred(s, s.current, punch)
    assert not barred(s, (s.current + 1) % 3, punch)


def test_each_card_follows_its_own_sets_limit_in_a_mix() -> None:
    """classic + beer: a classic attack card after any attack card of the turn's player is barred; a Beer Money
    basic attack, whose set has no such rule, never is, yet it counts against the classic cards."""
    mixed = load_sets(["classic", "beer"])
    ci = {(c.card.origin, c.name): c for c in card_info(mixed)}
    assert ci["classic", "Punch"].one_per_turn and not ci["beer", "Smack"].one_per_turn
    assert ci["beer", "Smack"].counted_role == "attack"
    s = new_game(mixed, 3, seed=5)
    s.roles_played.add("attack")  # (what playing either card notes)
    assert not _offered(s, "Punch", "classic") and _offered(s, "Smack", "beer")


def test_the_hold_limit_comes_from_the_pair_cards_own_set(classic: CardSet) -> None:
    info = card_info(classic)
    holds = [ci.hold_opener for ci in info if ci.hold_opener is not None]
    assert holds and all(o.most == 4 for o in holds)
    mixed = card_info(load_sets(["classic", "beer"]))
    assert all(ci.hold_opener.most == 4 for ci in mixed if ci.hold_opener is not None)
