"""A card that hits several players lands every hit before the game is decided, and a game it ends with nobody
standing has no winner: the engine's `Outcome` and `simulate`'s statistics say so (docs/rules-decisions.md, 6)."""

from __future__ import annotations

from pathlib import Path

from cardgen.checks import load_set
from cardgen.engine.agents import RandomAgent
from cardgen.engine.outcome import Reason
from cardgen.engine.rules import new_game, push
from cardgen.engine.views import observe
from cardgen.sim.runner import SimConfig, results_json, simulate

# Every card hits everyone for more than anyone's life: the first one played takes every player out at once.
DOOMSDAY = """\
name: doomsday
title: Doomsday (test set)
deck_size: 30
rules: {life: 5, hand_size: 3}
types:
  event: {label: Special Event, colour: "#E0A800", role: event}
cards:
  - {name: Meteor, type: event, count: 30, damage: 9, targets: all, defended_by: [], source: designed}
"""


def _doomsday(tmp_path: Path) -> Path:
    folder = tmp_path / "doomsday"
    folder.mkdir()
    (folder / "set.yaml").write_text(DOOMSDAY, encoding="utf-8")
    return folder


def test_a_card_that_takes_everyone_out_ends_the_game_with_nobody_standing(tmp_path: Path) -> None:
    cs = load_set(_doomsday(tmp_path))
    for players in (2, 3, 5):
        s = new_game(cs, players, seed=players)
        agents = [RandomAgent(p) for p in range(players)]
        while s.result is None:
            push(s, agents[s.to_act].choose(observe(s, s.to_act)))
        assert s.result.winner is None and s.result.reason == Reason.NOBODY_STANDING
        assert all(s.down) and s.life == [0] * players and s.pool == 5 * players


def test_simulate_counts_games_nobody_won_apart_from_stalemates(tmp_path: Path) -> None:
    cs = load_set(_doomsday(tmp_path))
    res = results_json(cs, simulate(cs, SimConfig(players=3, games=40, seed=5)))
    assert res["draws"] == 40 and res["stalemates"] == 0
    assert sum(res["seat_wins"]) == 0
