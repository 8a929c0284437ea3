"""Every scenario in tests/scenarios/ replays without an illegal move, meets its `expect:` block,
and keeps the engine's invariants after every single move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.invariants import check_state, check_step, snapshot
from cardgen.engine.rules import push
from cardgen.engine.scenario import (
    check_expect,
    check_moves,
    is_check,
    is_moves_check,
    load_scenario,
    run_scenario,
    steps,
)

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def test_there_are_scenarios_for_every_bundled_rule_system() -> None:
    sets = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    for name in ("lunch", "beer", "classic"):
        assert f"sets: [{name}" in sets or f"- {name}" in sets


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    sc = load_scenario(path)
    s = sc.state
    assert check_state(s) == []
    unmet = []
    for i, raw in sc.moves:
        if is_check(raw):
            unmet += check_expect(sc, ("moves", i, "expect"))
            continue
        if is_moves_check(raw):
            unmet += check_moves(sc, i)
            continue
        for move in steps(sc, i, raw):
            before = snapshot(s)
            push(s, move)
            problems = check_state(s) + check_step(before, s)
            assert problems == [], f"after move {i + 1} ({raw}): {problems}"
    assert [str(d) for d in unmet + check_expect(sc)] == []
    assert "expect" in sc.doc.data, "a scenario must say what it expects"
    assert sc.doc.data.get("title") and sc.doc.data.get("description"), "a scenario must say what it shows"


MIXED = [p for p in SCENARIOS if "sets: [lunch, beer]" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", MIXED, ids=[p.stem for p in MIXED])
def test_a_mixed_scenario_plays_the_same_with_the_sets_named_the_other_way(path: Path, tmp_path: Path) -> None:
    flipped = tmp_path / path.name
    flipped.write_text(path.read_text(encoding="utf-8").replace("sets: [lunch, beer]", "sets: [beer, lunch]"),
                       encoding="utf-8")
    a, b = load_scenario(path), load_scenario(flipped)
    assert run_scenario(a) == [] and run_scenario(b) == []
    assert a.state.log == b.state.log and a.state.hands == b.state.hands and a.state.draw == b.state.draw
