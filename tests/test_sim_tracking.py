"""The cheap per-card statistics of `play_one` (engine damage tally, hands looked at only when the draw pile
changed, only the cards just drawn) give exactly what a full log and a look at every hand after every move give."""

from __future__ import annotations

import random

import pytest

from cardgen.engine.cards import card_info
from cardgen.engine.events import Damage
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.sim.agents import make_agent
from cardgen.sim.impact import Impact
from cardgen.sim.play import play_one


def _slow(set_name: str, agent: str, seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Held designs per seat (every hand after every move) and damage per design (from the full log)."""
    cs = load_set(set_name)
    info = card_info(cs)
    agents = [make_agent(agent, 100 + q) for q in range(4)]
    s = new_game(cs, 4, seed=seed, record=True, info=info)
    held = [0] * 4
    views = [observe(s, q) for q in range(4)]
    while True:
        for q, hand in enumerate(s.hands):
            for d in hand:
                held[q] |= 1 << d
        if s.result is not None:
            break
        push(s, agents[s.to_act].choose(views[s.to_act]))
    dealt = [0] * len(info)
    assert s.log is not None
    for e in s.log:
        if isinstance(e, Damage):
            dealt[e.why] += e.amount
    return tuple(held), tuple(dealt)


@pytest.mark.parametrize(("set_name", "agent"), [("beer", "random"), ("classic", "greedy"), ("lunch", "random")])
def test_cheap_tracking_matches_a_full_log(set_name: str, agent: str) -> None:
    cs = load_set(set_name)
    info = card_info(cs)
    for seed in range(6):
        agents = [make_agent(agent, 100 + q) for q in range(4)]
        rec = play_one(cs, info, agents, (agent,) * 4, seed, "t")
        held, dealt = _slow(set_name, agent, seed)
        assert rec.drawn == held
        assert rec.dealt == dealt
        assert sum(dealt) > 0


def test_impact_counts_from_bit_planes_match_counting_each_held_design() -> None:
    """`Impact` adds games as bit masks into binary counters; settled, they give the plain per-design counts,
    also after a merge and for games added after a settle."""
    rng = random.Random(3)
    designs = 70  # more than a machine word
    a, b = Impact(designs), Impact(designs)
    naive = {agent: [[0, 0, 0, 0] for _ in range(designs)] for agent in ("greedy", "random")}
    for g in range(300):
        agents = ("greedy", "random", "greedy") if g % 2 else ("random", "random", "greedy")
        winner = rng.choice([None, 0, 1, 2])
        opening = tuple(rng.getrandbits(designs) & rng.getrandbits(designs) for _ in agents)
        drawn = tuple(o | rng.getrandbits(designs) for o in opening)
        (a if g < 170 else b).add(agents, winner, opening, drawn, (0,) * designs, (0,) * designs)
        if g == 100:
            a.totals()  # settles half-way
        for seat, agent in enumerate(agents):
            for d in range(designs):
                for col, mask in ((0, opening[seat]), (2, drawn[seat])):
                    if mask >> d & 1:
                        naive[agent][d][col] += 1
                        naive[agent][d][col + 1] += seat == winner
    a.merge(b)
    assert a.counts == naive
    rows, n, _ = a.totals()
    assert n == 900 and rows[5] == [x + y for x, y in zip(naive["greedy"][5], naive["random"][5], strict=True)]
