"""One meaning per mechanic (cardgen/mechanics.py): the rules page's lists are what the engine allows.

For every bundled set and every two-set mix: the page's "also playable on someone else's turn" list is
exactly the cards the engine offers out of turn (other than as a defence) in random games, and the page's
lists equal the card facts the engine plays by.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from cardgen import mechanics as mech
from cardgen.engine import moves as mv
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_sets
from cardgen.model import Card, CardSet, Opener
from cardgen.paths import bundled_set_names
from cardgen.render.rules_content import page_context

GROUPS = [(n,) for n in bundled_set_names()] + list(itertools.permutations(bundled_set_names(), 2))
OUT_OF_TURN_KINDS = frozenset({mv.HUMILIATE, mv.INTERFERE, mv.INTERJECT, mv.HEAL})


@cache
def _loaded(group: tuple[str, ...]) -> tuple[CardSet, tuple[CardInfo, ...]]:
    cs = load_sets(list(group))
    return cs, card_info(cs)


def _offered_out_of_turn(group: tuple[str, ...], games: int) -> set[str]:
    """Cards some player was offered to play on another player's turn, not as a defence, in random games."""
    cs, info = _loaded(group)
    seen: set[str] = set()
    for seed in range(games):
        players = 2 + seed % 4
        s = new_game(cs, players, seed=seed, turn_cap=60, info=info)
        agents = [RandomAgent(seed * 7 + i) for i in range(players)]
        while s.result is None:
            if s.to_act != s.current:
                seen.update(info[m.card].name for m in s.moves if m.kind in OUT_OF_TURN_KINDS)
            push(s, agents[s.to_act].choose(observe(s, s.to_act)))
    return seen


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_the_out_of_turn_list_is_what_the_engine_offers_out_of_turn(group: tuple[str, ...]) -> None:
    cs, _ = _loaded(group)
    listed = set(page_context(cs)["out_of_turn_names"])
    assert listed  # every bundled set has some
    assert _offered_out_of_turn(group, 60) == listed


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_the_page_lists_are_the_card_facts_the_engine_plays_by(group: tuple[str, ...]) -> None:
    cs, info = _loaded(group)
    page = page_context(cs)
    assert page["out_of_turn_names"] == [ci.name for ci in info if ci.meddles or ci.heal_drop]
    assert page["ex"]["any_time"] == [ci.name for ci in info if ci.timing is not None and ci.timing != "turn"
                                      and (ci.meddles or ci.heal_drop)]
    assert page["ex"]["heal_dropping"] == [ci.name for ci in info if ci.heal_drop]
    attack_types = {ci.type for ci in info if ci.role not in mech.NOT_ATTACK_ROLES and ci.follows is None
                    and (ci.damage or ci.opener or ci.ongoing)}
    assert page["attack_labels"] == [t.label for k, t in cs.types.items() if k in attack_types]


def _card(**fields: object) -> Card:
    return Card(name="X", type="t", count=1, source="designed", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("card", "meddles", "out_of_turn", "turn_play"), [
    (_card(damage=(3,)), False, False, True),
    (_card(damage=(3,), timing="any"), True, True, True),  # an interjection: both
    (_card(damage=(3,), timing="response"), True, True, False),
    (_card(timing="any"), False, False, False),  # `timing: any` on a card with no effect of its own: nothing
    (_card(draw=2, timing="response"), True, True, False),
    (_card(humiliate="cancel"), True, True, False),
    (_card(interfere=True), True, True, False),
    (_card(defence="dodge"), False, False, False),  # a defence answers its own player's attacker only
    (_card(heal=None, opens=Opener(combo="grab"), timing="any"), False, False, True),  # an opener never interjects
])
def test_what_a_mechanic_means(card: Card, meddles: bool, out_of_turn: bool, turn_play: bool) -> None:
    assert (mech.meddles(card), mech.out_of_turn(card), mech.turn_play(card)) == (meddles, out_of_turn, turn_play)
