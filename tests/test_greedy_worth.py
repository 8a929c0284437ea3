"""Greedy values a card by what each of its mechanics declares it is worth (`Mechanic.worth`), so a mechanic's
worth steers the bot with no rule of the bot's own: here a defence that deals damage back (`retaliates`)."""

from __future__ import annotations

from pathlib import Path

from cardgen.engine.moves import DEFEND
from cardgen.engine.replay import Replay
from cardgen.engine.views import observe
from cardgen.loader.scenario import load_scenario
from cardgen.sim.greedy import GreedyAgent, attack_value, own_cost

POSITION = """title: a hit that either defence stops
sets: [./myset]
players:
  - {name: Ann, hand: [Smite]}
  - {name: Bob, hand: [Dodge, Block]}
moves:
  - {who: Ann, play: Smite, target: Bob}
"""


def _answer(tmp_path: Path, dodge: str) -> str:
    """The card greedy defends with, in Beer Money with Dodge overridden by `dodge` (a flow mapping's body)."""
    folder = tmp_path / "myset"
    folder.mkdir(parents=True)
    override = f"override:\n  - {{name: Dodge, {dodge}}}\n" if dodge else ""
    (folder / "set.yaml").write_text(f"name: myset\ntitle: My Set\nextends: beer\n{override}", encoding="utf-8")
    (tmp_path / "position.yaml").write_text(POSITION, encoding="utf-8")
    replay = Replay(load_scenario(tmp_path / "position.yaml"))
    assert replay.run() == []
    s = replay.state
    pick = GreedyAgent(1).choose(observe(s, s.to_act))
    assert pick.kind == DEFEND
    return s.game.info[pick.card].name


def test_a_defence_that_hits_back_is_chosen_over_one_that_does_not(tmp_path: Path) -> None:
    assert _answer(tmp_path / "plain", "") == "Block"  # block first: the blocker may grab the weapon back
    assert _answer(tmp_path / "back", "retaliates: 3") == "Dodge"


def test_a_cards_attack_value_adds_up_its_mechanics_declared_worth(tmp_path: Path) -> None:
    """Smite's hit, an undefendable hit's spread, a stun after the hit, a stun on its own player as a cost."""
    folder = tmp_path / "myset"
    folder.mkdir()
    (folder / "set.yaml").write_text(
        "name: myset\ntitle: My Set\nextends: beer\noverride:\n"
        "  - {name: Smite, damage: 4, stuns: 2, stunned: 1, defended_by: []}\n", encoding="utf-8")
    (tmp_path / "position.yaml").write_text(POSITION, encoding="utf-8")
    replay = Replay(load_scenario(tmp_path / "position.yaml"))
    info = {ci.name: ci for ci in replay.state.game.info}
    smite = info["Smite"]
    assert own_cost(smite) == 2.0  # a turn its player loses: two points
    assert attack_value(smite) == 4 * 1.5 + 2 * 1.5 - 2.0  # the hit, undefendable; two turns stunned; the cost
    assert own_cost(info["Dodge"]) == 0.0
