"""The cheap per-card statistics of `play_one` (engine damage tally, hands looked at only when the draw pile
changed, only the cards just drawn) give exactly what a full log and a look at every hand after every move give."""

from __future__ import annotations

import random

import pytest

from cardgen.checks import load_set
from cardgen.engine.cards import card_info
from cardgen.engine.events import Damage
from cardgen.engine.moves import BONUS, CARD_PLAYS, FOLLOW, HEAL, INTERJECT, OPEN, PLAY, STOMP, VOMIT_HIT
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import TurnF
from cardgen.engine.views import observe
from cardgen.sim.agents import make_agent
from cardgen.sim.impact import AS_INDEX, PLAYED_AS, BitCounts, Impact, PlayCounts
from cardgen.sim.play import play_one
from cardgen.sim.runner import SimConfig, results_json, simulate


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


def test_every_kind_of_card_play_has_its_way_of_playing() -> None:
    assert set(AS_INDEX) == set(CARD_PLAYS)
    assert max(AS_INDEX.values()) + 1 < len(PLAYED_AS)  # room for "heal when dropping", one after "heal"
    assert PLAYED_AS[AS_INDEX[HEAL] + 1] == "heal when dropping"


@pytest.mark.parametrize(("set_name", "agent"), [("beer", "greedy"), ("classic", "random"), ("lunch", "greedy")])
def test_how_cards_are_played_matches_a_replay(set_name: str, agent: str) -> None:
    """`played_as` (plays per design and way) and `played_by` (who played what) against the same games
    replayed move by move, each play classed by its kind and the frame it was played in."""
    cs = load_set(set_name)
    info = card_info(cs)
    seen: set[str] = set()
    for seed in range(5):
        counts = PlayCounts(len(info))
        rec = play_one(cs, info, [make_agent(agent, 100 + q) for q in range(4)], (agent,) * 4, seed, "t",
                       counts=counts)
        agents = [make_agent(agent, 100 + q) for q in range(4)]
        s = new_game(cs, 4, seed=seed, info=info)
        views = [observe(s, q) for q in range(4)]
        how = [[0] * len(PLAYED_AS) for _ in info]
        by = [0] * 4
        while s.result is None:
            p = s.to_act
            m = agents[p].choose(views[p])
            if m.card >= 0 and m.kind in CARD_PLAYS:
                way = ("heal" if isinstance(s.stack[-1], TurnF) else "heal when dropping") if m.kind == HEAL else {
                    PLAY: "turn", STOMP: "turn", FOLLOW: "follow-up", OPEN: "after block", BONUS: "free hit",
                    VOMIT_HIT: "free hit", INTERJECT: "out of turn"}.get(m.kind, "answer")
                how[m.card][PLAYED_AS.index(way)] += 1
                by[p] |= 1 << m.card
                seen.add(way)
            push(s, m)
        assert [[counts.played_as(d).get(w, 0) for w in PLAYED_AS] for d in range(len(info))] == how
        assert rec.played_by == tuple(by)
        assert {info[d].name: sum(row) for d, row in enumerate(how) if sum(row)} == rec.cards_played
    assert {"turn", "answer", "heal"} <= seen, seen


def test_played_when_held_and_played_as_in_the_json() -> None:
    cs = load_set("beer")
    res = results_json(cs, simulate(cs, SimConfig(players=2, games=60, seed=3, agents=("greedy",))))
    for name, card in res["cards"].items():
        assert sum(card["played_as"].values()) == card["played"], name
        assert card["held_games"] == card["drawn"]["holders"]
        if card["held_games"]:
            assert 0 <= card["played_when_held"] <= 1
            assert round(card["played_when_held"] * card["held_games"]) <= card["played"]  # at least a play each
    assert set(res["cards"]["Grab"]["played_as"]) <= {"turn", "after block"}
    assert set(res["cards"]["Dodge"]["played_as"]) == {"answer"}


def test_bit_counts_match_counting_each_bit() -> None:
    rng = random.Random(5)
    a, b = BitCounts(70), BitCounts(70)
    naive = [0] * 70
    for g in range(200):
        mask = rng.getrandbits(70)
        (a if g % 3 else b).add(mask)
        for d in range(70):
            naive[d] += mask >> d & 1
        if g == 50:
            a.counts()
    a.merge(b)
    assert a.counts() == naive


def test_a_game_dealt_ahead_plays_as_dealt_and_its_end_check_can_be_left_out() -> None:
    """`play_one(state=)` plays the deal it is handed (a caller that read the opening hands first); the end-of-game
    invariant check runs unless `check_end` is False: a card lost from the draw pile is reported, or not looked
    for, and the game is the same either way."""
    cs = load_set("beer")
    info = card_info(cs)
    records = []
    for check_end in (True, False):
        s = new_game(cs, 2, seed=9, record=False, info=info, tally=True)
        s.draw.pop(0)  # the bottom card of the draw pile vanishes: the cards no longer add up
        bots = [make_agent("greedy", 40 + q) for q in range(2)]
        records.append(play_one(cs, info, bots, ("greedy",) * 2, 9, "t", state=s, check_end=check_end))
    checked, unchecked = records
    assert checked.violations and not unchecked.violations
    assert (checked.winner_seat, checked.turns, checked.opening, checked.played_by) == (
        unchecked.winner_seat, unchecked.turns, unchecked.opening, unchecked.played_by)
    fresh = play_one(cs, info, [make_agent("greedy", 40 + q) for q in range(2)], ("greedy",) * 2, 9, "t")
    assert fresh.violations == () and fresh.opening == checked.opening  # the same deal as one dealt inside
