"""The invariant checker itself: it must notice each kind of broken state it is meant to catch."""

from __future__ import annotations

import pytest

from cardgen.checks import load_set
from cardgen.engine import new_game, push
from cardgen.engine.agents import RandomAgent
from cardgen.engine.invariants import Checker, check_state, check_step, snapshot
from cardgen.engine.state import GameState
from cardgen.engine.views import observe


@pytest.fixture
def state() -> GameState:
    s = new_game(load_set("lunch"), 3, seed=2, record=True)
    assert check_state(s) == []
    return s


def test_a_lost_card_is_noticed(state: GameState) -> None:
    state.hands[1].pop()
    assert any("cards in play" in p for p in check_state(state))


def test_a_swapped_card_is_noticed(state: GameState) -> None:
    state.hands[1][0] = (state.hands[1][0] + 1) % len(state.game.cs.cards)
    assert any("not the deck's cards" in p for p in check_state(state))


def test_life_out_of_the_pool_is_noticed(state: GameState) -> None:
    state.life[2] -= 3
    assert any("lost pool" in p for p in check_state(state))


def test_unconscious_with_cards_or_life_is_noticed(state: GameState) -> None:
    state.down[1] = True
    problems = check_state(state)
    assert any("unconscious but holds" in p for p in problems)
    assert any("unconscious at 15" in p for p in problems)


def test_a_stunned_player_to_act_is_noticed(state: GameState) -> None:
    state.stun_until[state.to_act] = state.turn
    assert any("stunned" in p for p in check_state(state))


def test_unexplained_life_change_is_noticed(state: GameState) -> None:
    before = snapshot(state)
    state.life[0] -= 2
    state.pool += 2
    assert any("the cards say +0" in p for p in check_step(before, state))


def test_unfilled_hand_at_a_new_turn_is_noticed(state: GameState) -> None:
    before = snapshot(state)
    state.turn += 1
    state.discard.append(state.hands[2].pop())
    assert any("holding 4 < 5" in p for p in check_step(before, state))


def _checked(state: GameState) -> Checker:
    """A checker that has already seen `state` (so its pile sums are cached, as after a move)."""
    c = Checker(state.game)
    assert c.state(state) == []
    return c


def test_the_per_move_checker_notices_what_the_full_check_does(state: GameState) -> None:
    c = _checked(state)
    state.hands[1].pop()
    assert any("cards in play" in p for p in c.state(state))


@pytest.mark.parametrize("pile", ["hand", "draw", "discard"])
def test_the_per_move_checker_notices_a_swapped_card_in_any_pile(state: GameState, pile: str) -> None:
    state.discard.append(state.draw.pop(0))
    c = _checked(state)
    other = len(state.game.cs.cards)
    if pile == "hand":
        state.hands[1][0] = (state.hands[1][0] + 1) % other
    elif pile == "draw":
        state.draw[-1] = (state.draw[-1] + 1) % other
    else:
        state.discard.append((state.draw.pop() + 1) % other)  # a card drawn and changed on its way
    assert any("not the deck's cards" in p for p in c.state(state))


def test_the_per_move_checker_agrees_with_the_full_check_over_whole_games() -> None:
    cs = load_set("beer")
    for seed in range(3):
        s = new_game(cs, 4, seed=seed)
        agents = [RandomAgent(seed + p) for p in range(4)]
        c = Checker(s.game)
        while s.result is None:
            push(s, agents[s.to_act].choose(observe(s, s.to_act)))
            assert c.state(s) == check_state(s) == []


def test_a_stunned_holder_is_not_asked_to_let_go() -> None:
    """Found by bench/soak.py (beer, game 10063, five players): a Choke & Puke holder stunned by a Manhandle
    was asked at the next turn's start whether to let go."""
    cs = load_set("beer")
    s = new_game(cs, 5, seed=10063)
    agents = [RandomAgent(10063 * 8 + p) for p in range(5)]
    while s.result is None:
        push(s, agents[s.to_act].choose(observe(s, s.to_act)))
        assert check_state(s) == []
