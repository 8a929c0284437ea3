"""Player views and determinization: an agent sees only its seat's view, and a deal of the unseen cards
agrees with everything that view shows."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from cardgen.checks import load_sets
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.invariants import check_state
from cardgen.engine.observation import StepKind
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import GameState
from cardgen.engine.views import observe
from cardgen.model import CardSet
from cardgen.sim.greedy import GreedyAgent

GROUPS = [("classic",), ("lunch",), ("beer",), ("lunch", "beer")]


@cache
def _loaded(group: tuple[str, ...]) -> tuple[CardSet, tuple[CardInfo, ...]]:
    cs = load_sets(list(group))
    return cs, card_info(cs)


def _decisions(group: tuple[str, ...], seed: int, every: int = 7) -> Iterator[GameState]:
    """Every `every`-th decision of a random 4-player game (the state itself: copy before changing it)."""
    cs, info = _loaded(group)
    s = new_game(cs, 4, seed=seed, turn_cap=60, info=info)
    agents = [RandomAgent(seed + p) for p in range(4)]
    k = 0
    while s.result is None:
        if k % every == 0:
            yield s
        k += 1
        push(s, agents[s.to_act].choose(observe(s, s.to_act)))


def _swap_hidden(s: GameState, rng: random.Random) -> GameState:
    """A copy of `s` whose cards unseen by the player to act are dealt afresh (same hand sizes)."""
    return observe(s, s.to_act).determinized(rng)


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_determinized_states_agree_with_the_view(group: tuple[str, ...]) -> None:
    rng = random.Random(5)
    checked = 0
    for s in _decisions(group, seed=11, every=3):
        me = s.to_act
        view = observe(s, me)
        t = view.determinized(rng)
        assert observe(t, me).public() == view.public()
        assert t.to_act == me and t.moves == s.moves
        assert check_state(t) == []
        # the same unseen multiset and the same hand sizes, and the viewer's own hand untouched
        hidden_s = Counter(c for p in range(4) if p != me for c in s.hands[p]) + Counter(s.draw)
        hidden_t = Counter(c for p in range(4) if p != me for c in t.hands[p]) + Counter(t.draw)
        assert hidden_s == hidden_t == Counter(view.unseen())
        assert [len(h) for h in t.hands] == [len(h) for h in s.hands]
        assert t.hands[me] == s.hands[me]
        checked += 1
    assert checked > 20


def test_determinized_states_differ_in_hidden_cards_and_play_on_to_an_end() -> None:
    rng = random.Random(1)
    differs = 0
    for s in _decisions(("lunch",), seed=3, every=25):
        t = observe(s, s.to_act).determinized(rng)
        differs += t.hands != s.hands or t.draw != s.draw
        agents = [RandomAgent(p) for p in range(4)]
        while t.result is None:
            push(t, agents[t.to_act].choose(observe(t, t.to_act)))
            assert check_state(t) == []
    assert differs > 0


@pytest.mark.parametrize("make", [RandomAgent, GreedyAgent], ids=["random", "greedy"])
@pytest.mark.parametrize("group", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_an_agent_choice_does_not_change_when_hidden_cards_are_swapped(make: type, group: tuple[str, ...]) -> None:
    rng = random.Random(2)
    compared = 0
    for s in _decisions(group, seed=21, every=3):
        t = _swap_hidden(s, rng)
        a, b = make(99), make(99)  # the same seed: only what they see may differ
        assert a.choose(observe(s, s.to_act)) == b.choose(observe(t, t.to_act))
        compared += len(s.moves) > 1
    assert compared > 20


def test_a_view_hides_rival_hands_and_shows_only_its_own_moves() -> None:
    cs, info = _loaded(("beer",))
    s = new_game(cs, 3, seed=4, info=info)
    me = s.to_act
    other = (me + 1) % 3
    mine, theirs = observe(s, me), observe(s, other)
    assert mine.moves == tuple(s.moves) and theirs.moves == ()
    assert mine.hand == tuple(s.hands[me]) and theirs.hand == tuple(s.hands[other])
    assert mine.hand_sizes == tuple(len(h) for h in s.hands)
    assert not hasattr(mine, "hands") and not hasattr(mine, "draw") and not hasattr(mine, "rng")
    # the accessors hand out copies: changing them leaves the game alone
    assert isinstance(mine.hand, tuple) and isinstance(mine.life, tuple)
    step = mine.step
    assert step is not None and step.kind is StepKind.TURN and step.player == s.current
    # no engine frame through the view, nor the frames' old accessors
    assert not hasattr(mine, "top") and not hasattr(mine, "pending")


class _Peeker:
    """A cheat that reads the next seat's hand through the view's private state: the swap test must catch it."""

    def choose(self, view: object) -> object:
        s = view._state  # type: ignore[attr-defined]
        moves = view.moves  # type: ignore[attr-defined]
        return moves[sum(s.hands[(s.to_act + 1) % s.n]) % len(moves)]


def test_the_swap_test_catches_an_agent_that_peeks() -> None:
    rng = random.Random(3)
    caught = 0
    for s in _decisions(("lunch",), seed=21, every=3):
        t = _swap_hidden(s, rng)
        caught += _Peeker().choose(observe(s, s.to_act)) != _Peeker().choose(observe(t, t.to_act))
    assert caught > 0


def test_no_bot_reads_the_state_behind_a_view() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "cardgen"
    for path in [*sorted((root / "sim").glob("*.py")), root / "engine" / "agents.py"]:
        assert "._state" not in path.read_text(encoding="utf-8"), path
