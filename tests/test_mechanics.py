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
from cardgen.checks import load_sets
from cardgen.engine import moves as mv
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
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
    assert page["ex"]["any_time"] == [ci.name for ci in info if ci.timing == "any" and (ci.meddles or ci.heal_drop)]
    assert page["ex"]["answer_only"] == [ci.name for ci in info if ci.timing == "response"
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


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_the_glossary_and_the_engine_read_a_card_the_same_way(group: tuple[str, ...]) -> None:
    """The page's area / cancel / redirect entries appear exactly when a card the engine plays that way is in the
    deck, and the free hits the engine offers are made with the cards the mechanics name for them."""
    from cardgen.render.rules_content import used_mechanics

    cs, info = _loaded(group)
    used = used_mechanics(cs)
    assert used["area"] == any(ci.area for ci in info)
    assert used["cancel"] == any(ci.cancels for ci in info)
    assert used["redirect"] == any(ci.humiliate is not None and not ci.cancels for ci in info)
    offered: dict[mv.MoveKind, set[int]] = {mv.VOMIT_HIT: set(), mv.BONUS: set(), mv.FOLLOW: set()}
    for seed in range(40):
        players = 2 + seed % 4
        s = new_game(cs, players, seed=seed, turn_cap=60, info=info)
        agents = [RandomAgent(seed * 5 + i) for i in range(players)]
        while s.result is None:
            for m in s.moves:
                if m.kind in offered:
                    offered[m.kind].add(m.card)
            push(s, agents[s.to_act].choose(observe(s, s.to_act)))
    assert offered[mv.VOMIT_HIT] <= {ci.d for ci in info if mech.basic_attack(ci.card, ci.role)}
    assert offered[mv.BONUS] <= {ci.d for ci in info if mech.free_attack(ci.card, ci.role)}
    assert offered[mv.FOLLOW] <= {ci.d for ci in info if ci.follows is not None or mech.typed_follow_up(ci.card)}
    assert offered[mv.FOLLOW]  # the games got that far (free hits are rarer: classic's humiliations, beer's vomit)


@pytest.mark.parametrize(("card", "role", "area", "basic", "free", "typed_follow_up"), [
    (_card(damage=(3,)), "attack", False, True, True, True),
    (_card(damage=(3,), targets="others"), "attack", True, True, True, True),
    (_card(damage=(2,), targets="all"), "event", True, False, False, True),
    (_card(damage=(3,)), "weapon", False, False, True, True),  # a weapon is no basic attack
    (_card(damage=(3,), follows="hold"), "wrestling", False, False, True, False),  # a follow-up: no turn play
    (_card(damage=(1,), opens=Opener(combo="grab")), "attack", False, True, False, False),  # an opener is no free hit
    (_card(damage=(3,), timing="response"), "attack", False, False, True, False),  # never a turn's action
])
def test_what_an_attack_means(card: Card, role: str, area: bool, basic: bool, free: bool,
                              typed_follow_up: bool) -> None:
    got = (mech.area(card), mech.basic_attack(card, role), mech.free_attack(card, role),  # type: ignore[arg-type]
           mech.typed_follow_up(card))
    assert got == (area, basic, free, typed_follow_up)
