"""Greedy never plays a card whose own cost (STUNNED nT: turns its player loses) outweighs what it does.

One position per way a card can be played (a turn play, a follow-up, an opener after a block, a free hit on a
vomiting player, the bonus after a humiliation, a defence, a humiliation, an interjection, a heal), each set up
as a scenario on a home-made set that makes one card stun its own player; each checked against the same
position without the stun, where greedy does play the card (so each test can fail). Then real games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.engine.moves import DECLINE, DEFEND, DISCARD, FOLLOW, HEAL, HUMILIATE, INTERJECT, OPEN, PLAY, Move
from cardgen.engine.replay import Replay
from cardgen.engine.views import observe
from cardgen.loader.scenario import load_scenario
from cardgen.sim.greedy import GreedyAgent
from cardgen.sim.runner import SimConfig, results_json, simulate


def _set(tmp_path: Path, base: str, overrides: str) -> str:
    """A home-made set extending `base` with `overrides` (YAML flow mappings, one a line); its folder name."""
    folder = tmp_path / "myset"
    folder.mkdir(exist_ok=True)
    body = "".join(f"  - {line}\n" for line in overrides.splitlines() if line.strip())
    (folder / "set.yaml").write_text(f"name: myset\ntitle: My Set\nextends: {base}\n"
                                     + (f"override:\n{body}" if body else ""), encoding="utf-8")
    return "./myset"


def _choice(tmp_path: Path, base: str, overrides: str, scenario: str) -> tuple[Move, list[Move], str]:
    """Greedy's move at the end of `scenario` (its moves played), the legal moves, and the card names."""
    ref = _set(tmp_path, base, overrides)
    path = tmp_path / "position.yaml"
    path.write_text(f"title: t\nsets: [{ref}]\n{scenario}", encoding="utf-8")
    sc = Replay(load_scenario(path))
    assert sc.run() == []
    s = sc.state
    pick = GreedyAgent(3).choose(observe(s, s.to_act))
    return pick, list(s.moves), s.game.info[pick.card].name if pick.card >= 0 else ""


def _both(tmp_path: Path, base: str, card: str, stun: int, scenario: str,
          extra: str = "") -> tuple[tuple[Move, str], tuple[Move, str]]:
    """Greedy's pick with `card` stunning its player for `stun` turns, and with the plain card."""
    out = []
    for n in (stun, 0):
        sub = tmp_path / f"stun{n}"
        sub.mkdir()
        line = f"{{name: {card}, stunned: {n}}}" if n else ""
        pick, legal, name = _choice(sub, base, f"{line}\n{extra}", scenario)
        assert any(m.card >= 0 and m.kind not in (DISCARD,) for m in legal), legal  # the card could be played
        out.append((pick, name))
    return out[0], out[1]


def test_a_self_stunning_attack_is_discarded_not_played(tmp_path: Path) -> None:
    scenario = """players:
  - {name: Ann, hand: [Love Tap]}
  - {name: Bob, hand: [Smack]}
moves: []
"""
    (stunned, name), (plain, plain_name) = _both(tmp_path, "beer", "Love Tap", 3, scenario)
    assert stunned.kind == DISCARD and name == "Love Tap"  # it never plays it, so it makes room for a fresh card
    assert plain.kind == PLAY and plain_name == "Love Tap"


def test_a_self_stunning_follow_up_is_declined(tmp_path: Path) -> None:
    scenario = """players:
  - {name: Ann, hand: [Grab, Love Tap]}
  - {name: Bob, hand: [Smack]}
moves:
  - {who: Ann, play: Grab, target: Bob}
"""
    (stunned, _), (plain, name) = _both(tmp_path, "beer", "Love Tap", 3, scenario)
    assert stunned.kind == DECLINE
    assert plain.kind == FOLLOW and name == "Love Tap"


def test_a_self_stunning_opener_after_a_block_is_weighed(tmp_path: Path) -> None:
    """A Grab that stuns its player for 9 turns costs more than the combo it opens; for 3, less."""
    scenario = """players:
  - {name: Ann, hand: [Smack, Dodge]}
  - {name: Bob, hand: [Block, Grab, Coldcock]}
moves:
  - {who: Ann, play: Smack, target: Bob}
  - {who: Bob, play: Block}
"""
    (costly, _), (plain, _) = _both(tmp_path, "beer", "Grab", 9, scenario)
    assert costly.kind != OPEN and plain.kind == OPEN
    (tmp_path / "cheap").mkdir()
    (cheap, name), _ = _both(tmp_path / "cheap", "beer", "Grab", 3, scenario)
    assert cheap.kind == OPEN and name == "Grab"


def test_a_self_stunning_free_hit_on_a_vomiting_player_is_left(tmp_path: Path) -> None:
    """Bob vomits (his choke broken by Thunder Head): Ann may hit him once for free, but not with a card that
    stuns her for 3 turns."""
    scenario = """players:
  - {name: Ann, hand: [Grab, Choke & Puke, Love Tap]}
  - {name: Bob, hand: [Smack, Thunder Head, Block]}
  - {name: Carl, hand: [Block]}
draw: [Block, Dodge, Dodge, Block, Disarmament, Freedom, Freedom]
moves:
  - {who: Ann, play: Grab, target: Bob}
  - {who: Ann, play: Choke & Puke}
  - {who: Bob, decline: true}
  - {who: Ann, decline: true}
  - {who: Bob, play: Smack, target: Ann}
  - {who: Ann, decline: true}
  - {who: Carl, pass: true}
  - {who: Ann, decline: true}
  - {who: Bob, play: Thunder Head}
"""
    (stunned, name), (plain, plain_name) = _both(tmp_path, "beer", "Love Tap", 3, scenario)
    assert not (stunned.card >= 0 and name == "Love Tap" and stunned.kind != DISCARD), stunned
    assert plain.kind == "vomit-hit" and plain_name == "Love Tap"


def test_a_self_stunning_bonus_hit_is_declined(tmp_path: Path) -> None:
    """Classic: Bob humiliates Ann's Kick and may hit her without resistance, with a Slap that stuns him."""
    scenario = """players:
  - {name: Ann, hand: [Kick]}
  - {name: Bob, hand: [Humiliation, Slap]}
moves:
  - {who: Ann, play: Kick, target: Bob}
  - {who: Bob, play: Humiliation}
"""
    (stunned, _), (plain, name) = _both(tmp_path, "classic", "Slap", 3, scenario)
    assert stunned.kind == DECLINE
    assert plain.kind == "bonus" and name == "Slap"


def test_a_self_stunning_defence_is_kept_for_a_hit_worth_it(tmp_path: Path) -> None:
    """A Dodge that stuns for 3 turns is not worth stopping 2 points; a Dodge that stuns for 1 stops a 5."""
    small = """players:
  - {name: Ann, hand: [Smack]}
  - {name: Bob, hand: [Dodge]}
moves:
  - {who: Ann, play: Smack, target: Bob}
"""
    (stunned, _), (plain, name) = _both(tmp_path, "beer", "Dodge", 3, small)
    assert stunned.kind == DECLINE
    assert plain.kind == DEFEND and name == "Dodge"
    big = small.replace("Smack", "Smite")
    (tmp_path / "big").mkdir()
    (worth, name), _ = _both(tmp_path / "big", "beer", "Dodge", 1, big)
    assert worth.kind == DEFEND and name == "Dodge"


def test_a_self_stunning_humiliation_is_not_spent_on_a_small_hit(tmp_path: Path) -> None:
    scenario = """players:
  - {name: Ann, hand: [Smack]}
  - {name: Bob, hand: [Horror of Horrors]}
moves:
  - {who: Ann, play: Smack, target: Bob}
"""
    (stunned, _), (plain, name) = _both(tmp_path, "beer", "Horror of Horrors", 3, scenario)
    assert stunned.kind == DECLINE
    assert plain.kind == HUMILIATE and name == "Horror of Horrors"


def test_a_self_stunning_interjection_is_not_played(tmp_path: Path) -> None:
    """Classic's Sneak Attack may be played at any time; Bob could throw it at Ann while her Kick is in the air."""
    scenario = """players:
  - {name: Ann, hand: [Kick]}
  - {name: Bob, hand: [Sneak Attack]}
  - {name: Carl, hand: [Slap]}
moves:
  - {who: Ann, play: Kick, target: Carl}
"""
    (stunned, _), (plain, name) = _both(tmp_path, "classic", "Sneak Attack", 3, scenario)
    assert stunned.kind == DECLINE
    assert plain.kind == INTERJECT and name == "Sneak Attack"


def test_a_self_stunning_heal_is_weighed_on_the_turn_and_played_when_dropping(tmp_path: Path) -> None:
    """At 4 life a heal of 2 that stuns for 3 turns is not worth it; at 0 it keeps its player in the game."""
    low = """players:
  - {name: Ann, life: 4, hand: [Self Help]}
  - {name: Bob, hand: [Smack]}
moves: []
"""
    (stunned, _), (plain, name) = _both(tmp_path, "beer", "Self Help", 3, low)
    assert stunned.kind != HEAL
    assert plain.kind == HEAL and name == "Self Help"
    dropping = """players:
  - {name: Ann, hand: [Smack]}
  - {name: Bob, life: 2, hand: [Self Help]}
moves:
  - {who: Ann, play: Smack, target: Bob}
"""
    (tmp_path / "drop").mkdir()
    (saved, name), _ = _both(tmp_path / "drop", "beer", "Self Help", 3, dropping)
    assert saved.kind == HEAL and name == "Self Help"


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_games_never_play_a_card_that_costs_more_than_it_does(tmp_path: Path, players: int) -> None:
    """Real games of Beer Money with a Love Tap that stuns its player for 3 turns (the issue's example: greedy
    played it 291 times in 2,000 games, as a follow-up): never played; Piledriver (5 undefendable, stuns its
    player for 1) still is; and the plain Love Tap is played in the same games."""
    cards: dict[str, dict[str, dict[str, object]]] = {}
    for n in (3, 0):
        sub = tmp_path / f"stun{n}"
        sub.mkdir()
        ref = _set(sub, "beer", f"{{name: Love Tap, stunned: {n}}}" if n else "")
        cs = load_set(str(sub / ref))
        res = simulate(cs, SimConfig(players=players, games=300, seed=5, agents=("greedy",)))
        cards[str(n)] = results_json(cs, res)["cards"]
    assert cards["3"]["Love Tap"]["played"] == 0
    assert cards["0"]["Love Tap"]["played"] > 100
    assert cards["3"]["Piledriver"]["played"] > 0
