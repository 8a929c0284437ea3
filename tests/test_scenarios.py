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


TWO_MISSES_THEN_ILLEGAL = """\
sets: [lunch]
players:
  - {name: Ann, hand: [Kick (4), Jab]}
  - {name: Bob, hand: [Dodge]}
moves:
  - expect: {Bob: {life: 14}}
  - expect_moves: {who: Ann, cannot: [{play: Jab, target: Bob}]}
  - {who: Ann, play: Kick (4), target: Bob}
  - {who: Bob, decline: true}
  - {who: Bob, play: Jab, target: Ann}
expect:
  Bob: {life: 11}
"""


def test_replay_reports_every_unmet_expectation_before_the_illegal_move(tmp_path: Path) -> None:
    """A scenario wrong in three places says all three, in file order, the illegal move last."""
    f = tmp_path / "s.yaml"
    f.write_text(TWO_MISSES_THEN_ILLEGAL, encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        Replay(load_scenario(f)).run()
    got = [(d.line, d.message.split(",")[0].split(" now")[0]) for d in err.value.diagnostics]
    assert got == [(6, "expected Bob's life 14"), (7, "expected Ann cannot {play: Jab"),
                   (10, "Bob has no 'Jab' in hand (hand: Block")]


# A statement that something may happen only in some case (or never, or must) has two halves: the case where it
# may, and the case where it may not. Its negative half is checked by a scenario that says a move is absent
# (`cannot:` in an `expect_moves`) or a status is not there (`not ...`), or by a test that asserts something is
# `not in` what the engine offers.
RESTRICTIVE = re.compile(r"\b(only|cannot|can't|must|needs?|never|nothing else)\b", re.IGNORECASE)
NEGATIVE_SCENARIO = re.compile(r"cannot:\s*\[\s*\S|status:\s*\[[^\]]*\bnot ")


def _negative(name: str, tests: Path, sources: dict[str, str]) -> bool:
    if SCENARIO_NAME.fullmatch(name):
        path = tests / "scenarios" / f"{name}.yaml"
        return path.exists() and NEGATIVE_SCENARIO.search(path.read_text(encoding="utf-8")) is not None
    file, _, fn = name.partition("::")
    body = sources.get(file, "").partition(f"def {fn}(")[2].split("\ndef ")[0] if fn else ""
    return " not in " in body


def _coverage_rows() -> list[tuple[str, list[str]]]:
    rows = []
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] != "rule" and not set(cells[0]) <= {"-"}:
            rows.append((cells[0], re.findall(r"`([^`]+)`", cells[2])))
    return rows


def test_every_restrictive_rule_in_the_coverage_map_has_a_negative_check() -> None:
    """Each "only", "cannot", "must", "needs", "never" or "nothing else" row of docs/rules-coverage.md names a
    check of its negative half, not only of the case where the thing may happen."""
    tests = Path(__file__).parent
    sources = {p.name: p.read_text(encoding="utf-8") for p in tests.glob("test_*.py")}
    rows = _coverage_rows()
    restrictive = [(rule, named) for rule, named in rows if RESTRICTIVE.search(rule)]
    lacking = [rule for rule, named in restrictive if not any(_negative(n, tests, sources) for n in named)]
    assert len(rows) > 90 and len(restrictive) > 20
    assert lacking == []


def test_the_negative_check_finder_tells_a_negative_check_from_a_positive_one() -> None:
    tests = Path(__file__).parent
    sources = {p.name: p.read_text(encoding="utf-8") for p in tests.glob("test_*.py")}
    assert _negative("beer-choke-and-puke-needs-a-grab", tests, sources)   # `cannot:` entries
    assert not _negative("classic-plus-two-dodges", tests, sources)        # only what happens
    assert not _negative("no-such-scenario", tests, sources)
