"""Greedy's look-ahead for `effects:` cards: its deals come from a stream of the bot's own, one deal a decision."""

from __future__ import annotations

import pytest

from cardgen.checks import load_set
from cardgen.engine.agents import RandomAgent
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import GameState
from cardgen.engine.views import PlayerView, observe
from cardgen.model import CardSet
from cardgen.sim.greedy import GreedyAgent


@pytest.fixture(scope="module")
def recess() -> CardSet:
    return load_set("recess")


def _looking(cs: CardSet, seed: int) -> tuple[GameState, PlayerView]:
    """A game of `cs` run by random moves to a decision among several moves, one of them an effects card's."""
    s = new_game(cs, 3, seed=seed)
    bot = RandomAgent(seed)
    info = s.game.info
    while s.result is None:
        v = observe(s, s.to_act)
        if len(v.moves) > 2 and any(m.card >= 0 and info[m.card].effects for m in v.moves):
            return s, v
        push(s, bot.choose(v))
    raise AssertionError("no decision with an effects card's move")


def test_a_decisions_scores_depend_on_the_view_and_the_seed_alone(recess: CardSet) -> None:
    """The same view and seed score alike; what the bot looked at before does not matter once reseeded (the
    searching bot reseeds its rollout bot so that every candidate move meets the same deals)."""
    _, v = _looking(recess, 4)
    want = GreedyAgent(5).scores(v)
    assert GreedyAgent(5).scores(v) == want
    _, other = _looking(recess, 11)
    bot = GreedyAgent(7)
    bot.scores(other)
    bot.scores(v)
    bot.reseed(5)
    assert bot.scores(v) == want
    bot.reseed(5)
    assert bot.choose(v) == GreedyAgent(5).choose(v)


def test_a_deal_is_never_carried_over_to_the_next_decision(recess: CardSet) -> None:
    """A decision that counts the same as the last (turn, piles, moves) but shows another position (a rival one
    life down) is dealt afresh: its scores are a fresh bot's."""
    s, v = _looking(recess, 4)
    bot = GreedyAgent(5)
    before = bot.scores(v)
    rival = next(p for p in range(len(s.life)) if p != s.to_act and s.life[p] > 1)
    s.life[rival] -= 1
    bot.reseed(5)
    after = bot.scores(v)
    assert after == GreedyAgent(5).scores(v)
    assert after != before  # (the look-ahead scores read the life totals)
