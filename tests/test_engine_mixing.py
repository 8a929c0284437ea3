"""Mixed decks: naming the sets in another order never changes a game, and each card keeps its own set's rules."""

from __future__ import annotations

from cardgen.checks import load_sets
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe


def _play(order: list[str], seed: int) -> tuple[object, ...]:
    cs = load_sets(order)
    s = new_game(cs, 4, seed=seed, record=True)
    agents = [RandomAgent(seed * 7 + p) for p in range(4)]
    while s.result is None:
        push(s, agents[s.to_act].choose(observe(s, s.to_act)))
    return s.result, s.log, s.life, s.pool


def test_the_order_the_sets_are_named_in_changes_no_game() -> None:
    for seed in range(12):
        assert _play(["lunch", "beer"], seed) == _play(["beer", "lunch"], seed)


def test_table_rules_and_card_rules_of_a_mix() -> None:
    a, b = load_sets(["lunch", "beer"]), load_sets(["beer", "lunch"])
    assert a.rules == b.rules and a.cards == b.cards
    assert a.name == "lunch+beer" and b.name == "beer+lunch"  # only the name follows the order given
    info = {(ci.card.origin, ci.name): ci for ci in card_info(a)}
    assert info["beer", "Beer Bottle"].may_drop and not info["lunch", "Knife"].may_drop
    assert info["lunch", "First Aid"].heal_first and not info["beer", "Self Help"].heal_first
    assert info["lunch", "First Aid"].revives and not info["beer", "Self Help"].revives
    mixed = load_sets(["classic", "beer"])
    assert mixed.rules.life == 20 and mixed.rules.discard_limit == 5  # the largest life; the loosest limit
    ci = {(c.card.origin, c.name): c for c in card_info(mixed)}
    assert ci["classic", "Ruler"].weapon_limit and not ci["beer", "Beer Bottle"].weapon_limit
