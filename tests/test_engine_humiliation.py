"""Humiliation chains of every length from 1 to 6: each card resolves once, only the last player humiliated
is stunned, only the last humiliator strikes back, and the attack lands when an even number were played."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.invariants import check_state
from cardgen.engine.replay import Replay
from cardgen.loader.scenario import load_scenario

SETS = Path(__file__).parent / "scenarios" / "sets"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]


def _chain(k: int) -> str:
    """Ann kicks Bob (3); Bob humiliates the Kick, and each next player humiliates the humiliation before."""
    players = [f"  - {{name: {NAMES[0]}, hand: [Kick]}}"]
    players += [f"  - {{name: {NAMES[i]}, hand: [Humiliation, Punch]}}" for i in range(1, k + 1)]
    moves = [f"  - {{who: {NAMES[0]}, play: Kick, target: {NAMES[1]}}}"]
    moves += [f"  - {{who: {NAMES[i]}, play: Humiliation}}" for i in range(1, k + 1)]
    last, loser = NAMES[k], NAMES[k - 1]
    other = NAMES[k - 2] if k >= 2 else None  # the free attack is only at the last player humiliated
    cannot = f", cannot: [{{play: Punch, target: {other}}}]" if other else ""
    moves.append(f"  - expect_moves: {{who: {last}, can: [{{play: Punch, target: {loser}}}]{cannot}}}")
    moves.append(f"  - {{who: {last}, play: Punch, target: {loser}}}")
    return "\n".join([f"title: chain of {k}", "description: generated", f"sets: [{SETS / 'rowdy'}]",
                      "players:", *players, "moves:", *moves, "expect: {turn: 2}", ""])


@pytest.mark.parametrize("k", range(1, 7))
def test_a_chain_of_humiliations_resolves_each_card_once(k: int, tmp_path: Path) -> None:
    path = tmp_path / f"chain-{k}.yaml"
    path.write_text(_chain(k), encoding="utf-8")
    sc = Replay(load_scenario(path))
    assert sc.run() == []
    s = sc.state
    assert check_state(s) == []
    log = [e.json(s.game) for e in s.log or []]
    stunned = [e["player"] for e in log if e["event"] == "stunned"]
    assert stunned == [NAMES[k - 1]]  # only the last player humiliated
    bonus = [e["player"] for e in log if e["event"] == "move" and e["move"] == "bonus"]
    assert bonus == [NAMES[k]]  # only the last humiliator strikes back
    cancelled = [e["card"] for e in log if e["event"] == "cancelled"]
    assert len(cancelled) == (k + 1) // 2  # the humiliations still standing each cancel their card once
    kick_lands = k % 2 == 0  # H1 is cancelled exactly when an even number were played
    assert ("Kick" in cancelled) != kick_lands
    life = dict(zip(s.game.names, s.life, strict=True))
    expected = {n: 20 for n in NAMES[:k + 1]}
    expected[NAMES[k - 1]] -= 2  # the free Punch
    if kick_lands:
        expected[NAMES[1]] -= 3
    assert life == expected
    assert s.to_act == 1 and not s.stunned(1)  # Bob's turn comes, the stun lasted for Ann's turn only
