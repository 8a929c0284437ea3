"""Random legal games of every bundled set and of the lunch + beer mix, 2 to 6 players:
the invariants hold after every move, every game ends (by a winner or the turn cap), and
every game actually exercises the responses, combos and heals (not only passes)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.checks import load_sets
from cardgen.engine.agents import RandomAgent
from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.invariants import check_state, check_step, snapshot
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.model import CardSet
from cardgen.paths import bundled_set_names

GROUPS: list[tuple[str, ...]] = [(n,) for n in bundled_set_names()] + [("lunch", "beer")]
TURN_CAP = 150
MOVE_LIMIT = 20_000  # far above what a capped game needs: reaching it means the engine is stuck


@cache
def _loaded(group: tuple[str, ...]) -> tuple[CardSet, tuple[CardInfo, ...]]:
    cs = load_sets(list(group))
    return cs, card_info(cs)


def play_checked(group: tuple[str, ...], players: int, seed: int, kinds: Counter[str] | None = None) -> str:
    cs, info = _loaded(group)
    s = new_game(cs, players, seed=seed, turn_cap=TURN_CAP, record=True, info=info)
    agents = [RandomAgent(seed * 31 + i) for i in range(players)]
    assert check_state(s) == []
    for step in range(MOVE_LIMIT):
        if s.result is not None:
            return s.result.reason
        before = snapshot(s)
        acting = s.to_act
        move = agents[acting].choose(observe(s, acting))
        if kinds is not None:
            kinds[move.kind] += 1
        push(s, move)
        problems = check_state(s) + check_step(before, s)
        assert problems == [], f"{'+'.join(group)} seed {seed} move {step} {move}: {problems}; log {s.log[-8:]}"
        s.log = s.log[-50:] if s.log is not None else None  # keep memory flat; check_step reads only the tail
    raise AssertionError(f"{'+'.join(group)} seed {seed}: no end after {MOVE_LIMIT} moves")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(group=st.sampled_from(GROUPS), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(group: tuple[str, ...], players: int, seed: int) -> None:
    play_checked(group, players, seed)


def test_seeded_games_of_every_set_end_and_use_the_rules() -> None:
    for group in GROUPS:
        kinds: Counter[str] = Counter()
        reasons = Counter(play_checked(group, 2 + seed % 5, seed, kinds) for seed in range(50))
        assert reasons["last standing"] + reasons["nobody standing"] > 0, (group, reasons)
        used = {k for k, n in kinds.items() if n}
        assert {"play", "defend", "decline", "discard", "follow", "heal"} <= used, (group, kinds)
