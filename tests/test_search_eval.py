"""The searching bot's win-chance model and its candidate moves: the estimate moves the right way with life
and cards, adds up to one between two players, and the fit behind it recovers known weights."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.engine import moves as mv
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import Outcome, Reason
from cardgen.engine.views import observe
from cardgen.sim.evaluate import win_chance
from cardgen.sim.greedy import GreedyAgent, attack_value
from cardgen.sim.search import CANDIDATES, SearchAgent


@pytest.fixture(scope="module")
def beer():  # type: ignore[no-untyped-def]
    cs = load_set("beer")
    s = new_game(cs, 2, seed=4)
    return s, [attack_value(ci) for ci in s.game.info]


def _design(s, name: str) -> int:  # type: ignore[no-untyped-def]
    return next(ci.d for ci in s.game.info if ci.name == name)


def test_more_life_or_defences_raise_the_chance(beer) -> None:  # type: ignore[no-untyped-def]
    s, attack = beer
    t = s.copy()
    t.life = [10, 10]
    even = win_chance(t, 0, attack)
    t.life = [12, 10]
    assert win_chance(t, 0, attack) > even
    t.life = [10, 3]
    assert win_chance(t, 0, attack) > win_chance(t.copy(), 1, attack)
    t.life = [10, 10]
    block, love_tap = _design(t, "Block"), _design(t, "Love Tap")
    t.hands = [[love_tap] * 5, [love_tap] * 5]
    bare = win_chance(t, 0, attack)
    t.hands[0] = [block, block, love_tap, love_tap, love_tap]
    assert win_chance(t, 0, attack) > bare


def test_two_players_chances_add_up_to_one(beer) -> None:  # type: ignore[no-untyped-def]
    s, attack = beer
    greedy = GreedyAgent(1)
    t = s.copy()
    for _ in range(12):
        if t.result is not None:
            break
        assert win_chance(t, 0, attack) + win_chance(t, 1, attack) == pytest.approx(1.0)
        push(t, greedy.choose(observe(t, t.to_act)))


def test_a_finished_game_scores_its_result(beer) -> None:  # type: ignore[no-untyped-def]
    s, attack = beer
    t = s.copy()
    t.result = Outcome(1, Reason.LAST_STANDING, 9)
    assert (win_chance(t, 0, attack), win_chance(t, 1, attack)) == (0.0, 1.0)
    t.result = Outcome(None, Reason.TURN_CAP, 9)
    assert win_chance(t, 0, attack) == 0.5


def test_candidates_take_greedys_best_and_a_way_of_playing_nothing() -> None:
    cs = load_set("beer")
    seen_release = 0
    for seed in [*range(12), 115, 154]:  # holds are rare: in games 115 and 154 one comes by turn 5
        s = new_game(cs, 2, seed=seed)
        bots = [GreedyAgent(2 * seed), GreedyAgent(2 * seed + 1)]
        greedy = bots[0]
        while s.result is None:
            view = observe(s, s.to_act)
            if len(s.moves) > 1:
                cands = SearchAgent(seed, iterations=1).candidates(view)
                assert cands[0] == max(view.moves, key=lambda m: greedy.scores(view)[view.moves.index(m)])
                assert len(cands) <= CANDIDATES + 2 and len(set(cands)) == len(cands)
                assert any(m.kind in (mv.PASS, mv.DECLINE, mv.DONE) for m in cands) or not any(
                    m.kind in (mv.PASS, mv.DECLINE, mv.DONE) for m in view.moves)
                if any(m.kind == mv.RELEASE for m in view.moves):
                    assert any(m.kind == mv.RELEASE for m in cands)  # greedy never lets go: search weighs it
                    seen_release += 1
            push(s, bots[s.to_act].choose(view))
    assert seen_release >= 1


def test_fit_recovers_known_weights() -> None:
    spec = importlib.util.spec_from_file_location("fit_eval", Path(__file__).resolve().parents[1] / "bench" /
                                                  "fit_eval.py")
    assert spec is not None and spec.loader is not None
    fit_eval = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit_eval)
    rng = random.Random(5)
    truth = [1.5, -0.8, 0.3]
    xs = [[rng.uniform(-1, 1), rng.uniform(-1, 1), 1.0] for _ in range(3000)]
    ys = [1.0 if rng.random() < 1 / (1 + math.exp(-sum(w * x for w, x in zip(truth, row, strict=True)))) else 0.0
          for row in xs]
    got = fit_eval.fit(xs, ys, rounds=8)
    assert got == pytest.approx(truth, abs=0.2)
    assert fit_eval.log_loss(got, xs, ys) < fit_eval.log_loss([0.0, 0.0, 0.0], xs, ys)


def test_switches_from_greedys_move_only_on_a_clear_paired_gain() -> None:
    base = [0.5, 0.2, 0.9, 0.4, 0.6, 0.1]
    steady = [v + 0.05 for v in base]  # better on every deal by the same small margin
    noisy = [v + d for v, d in zip(base, [0.3, -0.3, 0.25, -0.3, 0.3, -0.2], strict=True)]  # mean +0.008
    worse = [v - 0.2 for v in base]
    assert SearchAgent._pick([base, steady]) == 1
    assert SearchAgent._pick([base, noisy]) == 0
    assert SearchAgent._pick([base, worse, steady]) == 2
    assert SearchAgent._pick([base, noisy, worse]) == 0


class _CountingRollout:
    """A rollout policy that plays the first legal move and counts what it is asked."""

    def __init__(self) -> None:
        self.chosen = 0
        self.seeds: list[int] = []

    def choose(self, view):  # type: ignore[no-untyped-def]
        self.chosen += 1
        return view.moves[0]

    def reseed(self, seed: int) -> None:
        self.seeds.append(seed)


def _a_choice_of_several(beer):  # type: ignore[no-untyped-def]
    s, _ = beer
    t = s.copy()
    greedy = GreedyAgent(3)
    while len(t.moves) < 3:
        push(t, greedy.choose(observe(t, t.to_act)))
    return t


def test_the_search_takes_its_prior_rollout_and_evaluator_as_parameters(beer) -> None:  # type: ignore[no-untyped-def]
    """Each part is used: the prior picks the candidates, the rollout plays the look-ahead (reseeded alike for
    every candidate), the evaluator decides: one that favours another candidate makes the search play it."""
    t = _a_choice_of_several(beer)
    view = observe(t, t.to_act)
    moves = view.moves
    last_first = [float(i) for i in range(len(moves))]  # the prior ranks the engine's last move first
    rollout = _CountingRollout()

    agent = SearchAgent(seed=1, iterations=4, prior=lambda v: last_first, rollout=rollout,
                        evaluator=lambda s, seat: 0.0)
    cands = agent.candidates(view)
    assert cands[0] == moves[-1] and cands[1] == moves[-2]  # the prior's order, not greedy's
    assert agent.choose(view) == moves[-1]  # a flat evaluator: the prior's best stands
    assert rollout.chosen > 0 and len(rollout.seeds) == 4 * len(cands)
    assert len(set(rollout.seeds)) == 4  # one seed a deal, the same for every candidate of it

    scores: dict[int, float] = {i: 0.0 for i in range(len(cands))}
    order = iter(range(10**6))

    def by_candidate(s, seat: int) -> float:  # type: ignore[no-untyped-def]
        i = next(order) % len(cands)  # the look-aheads of one deal are scored in candidate order
        return scores[i]

    scores[1] = 1.0
    agent = SearchAgent(seed=1, iterations=4, prior=lambda v: last_first, rollout=_CountingRollout(),
                        evaluator=by_candidate)
    assert agent.choose(view) == cands[1]  # an evaluator that favours the second candidate every deal
