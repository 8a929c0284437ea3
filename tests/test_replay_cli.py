"""`cardgen replay`: JSON out for a good scenario; file:line, reason and exit 1 for bad ones."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.cli.main import main

SCENARIOS = Path(__file__).parent / "scenarios"

GOOD = """\
sets: [lunch]
players:
  - {name: Ann, hand: [Kick (4)]}
  - {name: Bob, hand: [Dodge]}
moves:
  - {who: Ann, play: Kick (4), target: Bob}
  - {who: Bob, decline: true}
expect:
  Bob: {life: 11}
"""


def _replay(tmp_path: Path, text: str) -> tuple[int, str, str]:
    f = tmp_path / "scenario.yaml"
    f.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(f)])
    return r.exit_code, r.stdout, r.stderr


def test_replay_prints_log_and_final_state(tmp_path: Path) -> None:
    code, out, _ = _replay(tmp_path, GOOD)
    assert code == 0
    data = json.loads(out)
    bob = next(p for p in data["final"]["players"] if p["name"] == "Bob")
    assert bob["life"] == 11 and bob["status"] == ["conscious"] and len(bob["hand"]) == 5
    assert data["final"]["lost_pool"] == 4 and data["final"]["to_act"] == "Bob"
    assert any(e["event"] == "damage" and e["player"] == "Bob" and e["amount"] == 4 for e in data["log"])


def test_bundled_scenario_replays(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["replay", str(SCENARIOS / "classic-humiliation-chain.yaml")])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["final"]["players"][1]["life"] == 15


@pytest.mark.parametrize(("old", "new", "line", "reason"), [
    ("play: Kick (4), target", "play: Kik (4), target", 6, "unknown card 'Kik (4)'"),
    ("{who: Bob, decline: true}", "{who: Bob, play: Block}", 7, "Bob has no 'Block' in hand"),
    ("target: Bob}", "target: Zed}", 6, "unknown player 'Zed'"),
    ("target: Bob}", "target: Ann}", 6, "cannot target Ann"),
    ("{who: Ann, play: Kick (4), target: Bob}", "{who: Bob, play: Dodge}", 6, "Bob cannot act now: it is Ann's"),
    ("{who: Bob, decline: true}", "{who: Bob, decline: true}\n  - {who: Bob, play: Dodge, target: Ann}", 8,
     "cannot play 'Dodge' now"),
    ("hand: [Dodge]", "hand: [Dodge, Dodge, Dodge, Dodge, Dodge, Dodge, Dodge, Dodge, Dodge]", 4,
     "more copies of 'Dodge' than the deck has (8)"),
    ("sets: [lunch]", "sets: [lunchh]", 1, "unknown set 'lunchh'"),
    ("{who: Bob, decline: true}", "{who: Bob, dance: true}", 7, "unknown key 'dance'"),
    ("life: 11", "life: 12", 9, "expected Bob's life 12, got 11"),
    # the scenario schema (cardgen/loader/scenario_file.py): shape errors with the field and a did-you-mean
    ("{name: Bob, hand: [Dodge]}", "{name: Bob, hnd: [Dodge]}", 4, "unknown key 'hnd' (did you mean 'hand'?)"),
    ("Bob: {life: 11}", "Bob: {life: eleven}", 9, "field `expect.Bob.life`: expected a whole number"),
    ("sets: [lunch]", "sets: [lunch]\nseed: -1", 2, "field `seed`: must be at least 0"),
    ("  - {who: Bob, decline: true}", "  - {who: Bob, decline: true}\n  - expect_moves: {who: Bob, cna: [pass]}", 8,
     "unknown key 'cna' (did you mean 'can'?)"),
    ("  - {who: Bob, decline: true}", "  - {who: Bob, decline: true}\n  - expect_moves: {who: Ann, can: [pass]}", 8,
     "expected Ann can {pass: True} now, but Ann cannot pass now"),
])
def test_bad_scenario_reports_file_line_and_reason(tmp_path: Path, old: str, new: str, line: int,
                                                   reason: str) -> None:
    assert old in GOOD
    code, _, err = _replay(tmp_path, GOOD.replace(old, new, 1))
    assert code == 1
    assert f"scenario.yaml:{line}:" in err
    assert reason in err
    assert "Traceback" not in err


@pytest.mark.parametrize("text", ["", "moves: [", "- a list\n", "sets: [lunch]\nplayers: []\nmoves: []\n",
                                  "sets: [lunch]\nplayers: [{name: A}, {name: A}]\nmoves: []\n"])
def test_malformed_scenarios_fail_cleanly(tmp_path: Path, text: str) -> None:
    code, _, err = _replay(tmp_path, text)
    assert code == 1
    assert "scenario.yaml:" in err and "Traceback" not in err


def test_missing_file(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["replay", str(tmp_path / "nope.yaml")])
    assert r.exit_code != 0 and "Traceback" not in r.stderr


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(0, len(GOOD)), length=st.integers(0, 12), junk=st.sampled_from(["", "x", ":", "[", "- ", "\n",
                                                                                     "5", "{", "Dodge", "Ann"]))
def test_mangled_scenarios_never_crash(cut: int, length: int, junk: str) -> None:
    text = GOOD[:cut] + junk + GOOD[cut + length:]
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "s.yaml"
        f.write_text(text, encoding="utf-8")
        r = CliRunner().invoke(main, ["replay", str(f)])
    assert r.exit_code in (0, 1), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)


def test_replay_output_is_the_same_every_time() -> None:
    path = str(SCENARIOS / "beer-choke-and-puke-vomiting.yaml")
    first = CliRunner().invoke(main, ["replay", path])
    second = CliRunner().invoke(main, ["replay", path])
    assert first.exit_code == 0 and first.stdout == second.stdout


def test_illegal_move_still_prints_the_state_reached(tmp_path: Path) -> None:
    code, out, err = _replay(tmp_path, GOOD.replace("{who: Bob, decline: true}", "{who: Bob, play: Block}"))
    assert code == 1 and "Bob has no 'Block' in hand" in err
    assert json.loads(out)["final"]["to_act"] == "Bob"


FULL_DISCARD = """\
sets: [classic]
players:
  - {name: Ann, hand: [Slap, Punch, Kick, Uppercut, Ruler, Band-Aid]}
  - {name: Bob, hand: [Dodge/Block]}
moves:
  - {who: Ann, discard: [Slap, Punch, Kick, Uppercut, Ruler]}
expect:
  to_act: Bob
"""


def test_a_discard_that_ends_the_turn_can_be_scripted(tmp_path: Path) -> None:
    """Five discards (classic's `discard_limit`) end the turn by themselves: no `done` is pushed after them."""
    code, out, err = _replay(tmp_path, FULL_DISCARD)
    assert code == 0, err
    assert json.loads(out)["final"]["turn"] == 2


@pytest.mark.parametrize("old, new, line, col, reason", [
    # a sixth discard: the fifth ended the turn, so the error points at the sixth card
    ("Ruler]}", "Ruler, Band-Aid]}", 6, 62, "the discards before it ended the turn"),
    # a discard after the turn it was meant for ended
    ("expect:\n", "  - {who: Ann, discard: Band-Aid}\nexpect:\n", 7, 11, "Ann cannot act now"),
    ("Ruler]}", "Ruler]}\n  - {who: Bob, discard: [Dodge/Block, Dodge/Block]}", 7, 39, "cannot discard"),
    ("discard: [Slap", "discard: [Slapp", 6, 26, "unknown card 'Slapp'"),
    ("discard: [Slap, Punch, Kick, Uppercut, Ruler]", "discard: []", 6, 25, "name at least one card"),
    ("players:", "seed: x\nplayers:", 2, 7, "seed"),
])
def test_every_scenario_error_carries_file_line_and_column(tmp_path: Path, old: str, new: str, line: int, col: int,
                                                           reason: str) -> None:
    assert old in FULL_DISCARD
    code, _, err = _replay(tmp_path, FULL_DISCARD.replace(old, new, 1))
    assert code == 1 and "Traceback" not in err
    errors = [x for x in err.splitlines() if "error" in x and not x.endswith("found")]
    assert errors and all(re.match(r"^\S*scenario\.yaml:\d+:\d+: error: ", x) for x in errors), err
    assert f"scenario.yaml:{line}:{col}: error: " in err and reason in err, err


@pytest.mark.parametrize("make", ["missing", "folder", "binary"])
def test_unreadable_scenarios_are_reported_at_file_line_and_column(tmp_path: Path, make: str) -> None:
    f = tmp_path / "scenario.yaml"
    if make == "folder":
        f.mkdir()
    elif make == "binary":
        f.write_bytes(b"\xff\xfe\x00\x01")
    r = CliRunner().invoke(main, ["replay", str(f)])
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert re.match(r"^\S*scenario\.yaml:1:1: error: ", r.stderr), r.stderr
