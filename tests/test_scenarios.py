"""Every scenario in tests/scenarios/ replays without an illegal move, meets its `expect:` block,
and keeps the engine's invariants after every single move."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.engine.invariants import check_state
from cardgen.engine.moves import Move
from cardgen.engine.replay import InvariantHook, Replay
from cardgen.engine.state import GameState
from cardgen.loader.scenario import load_scenario
from cardgen.scenario_spec import ScenarioError

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def test_there_are_scenarios_for_every_bundled_rule_system() -> None:
    sets = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    for name in ("lunch", "beer", "classic"):
        assert f"sets: [{name}" in sets or f"- {name}" in sets


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    spec = load_scenario(path)
    sc = Replay(spec)
    assert check_state(sc.state) == []
    assert [str(d) for d in sc.run(InvariantHook())] == []
    assert spec.expect is not None, "a scenario must say what it expects"
    assert spec.title and spec.description, "a scenario must say what it shows"


MIXED = [p for p in SCENARIOS if "sets: [lunch, beer]" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", MIXED, ids=[p.stem for p in MIXED])
def test_a_mixed_scenario_plays_the_same_with_the_sets_named_the_other_way(path: Path, tmp_path: Path) -> None:
    flipped = tmp_path / path.name
    flipped.write_text(path.read_text(encoding="utf-8").replace("sets: [lunch, beer]", "sets: [beer, lunch]"),
                       encoding="utf-8")
    a, b = Replay(load_scenario(path)), Replay(load_scenario(flipped))
    assert a.run() == [] and b.run() == []
    assert a.state.log == b.state.log and a.state.hands == b.state.hands and a.state.draw == b.state.draw


TWO_MOVES = """\
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


class _Flags:
    """A hook that finds a problem after every move that damages someone (the life pool grew)."""

    def __init__(self) -> None:
        self.pool = 0
        self.seen: list[Move] = []

    def before(self, s: GameState) -> None:
        self.pool = s.pool

    def after(self, s: GameState, move: Move) -> list[str]:
        self.seen.append(move)
        return [f"pool {self.pool} -> {s.pool}"] if s.pool != self.pool else []


def test_a_hook_sees_every_engine_move_and_its_problems_carry_the_move_line(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(TWO_MOVES, encoding="utf-8")
    sc = Replay(load_scenario(f))
    hook = _Flags()
    found = sc.run(hook)
    assert len(hook.seen) == 2 and sc.state.pool == 4
    assert [(d.line, d.message) for d in found] == [(7, "after decline: pool 0 -> 4")]


def test_the_loader_reports_every_problem_of_the_file_at_once(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(TWO_MOVES.replace("hand: [Dodge]", "hand: [Dodgee]").replace("target: Bob", "target: Bobb")
                 .replace("Bob: {life: 11}", "Bob: {has: [Kik]}"), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(f)
    got = [(d.line, d.column, d.message.split(" (did")[0].split(" in ")[0]) for d in err.value.diagnostics]
    assert got == [(4, 24, "unknown card 'Dodgee'"), (6, 40, "unknown player 'Bobb'"),
                   (9, 15, "unknown card 'Kik'")]


COVERAGE = Path(__file__).parent.parent / "docs" / "rules-coverage.md"
SCENARIO_NAME = re.compile(r"(lunch|beer|classic|mixed|homemade)(-[a-z0-9]+)+")


def test_the_coverage_map_names_only_checks_that_exist() -> None:
    """docs/rules-coverage.md maps rulebook lines to checks: each scenario and test it names must exist."""
    tests = Path(__file__).parent
    sources = {p.name: p.read_text(encoding="utf-8") for p in tests.glob("test_*.py")}
    named = re.findall(r"`([^`]+)`", COVERAGE.read_text(encoding="utf-8"))
    scenarios = [n for n in named if SCENARIO_NAME.fullmatch(n)]
    missing = [n for n in scenarios if not (tests / "scenarios" / f"{n}.yaml").exists()]
    for n in named:
        file, _, fn = n.partition("::")
        if fn:
            if f"def {fn}(" not in sources.get(file, ""):
                missing.append(n)
        elif n.startswith("test_") and n.endswith(".py"):
            if n not in sources:
                missing.append(n)
        elif n.startswith("test_") and not any(f"def {n}(" in src for src in sources.values()):
            missing.append(n)
    assert len(scenarios) > 100 and missing == []
