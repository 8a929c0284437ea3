"""CI reports why tests skip and refuses to skip the rulebook tests (README: CI runs them)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from conftest import in_ci, require_rulebooks

CI_SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "run"


def _pytest_commands() -> list[list[str]]:
    lines = [line for line in CI_SCRIPT.read_text(encoding="utf-8").splitlines()
             if "pytest" in line and not line.lstrip().startswith(("#", "echo", "if"))]
    assert len(lines) == 2, lines  # the whole suite, then the engine and simulation tests on pure Python
    return [shlex.split(line) for line in lines]


def test_ci_prints_skip_reasons_and_runs_in_ci_mode() -> None:
    for words in _pytest_commands():
        assert "-rs" in words or any(w.startswith("-r") and "s" in w for w in words)
        assert "CARDGEN_CI=1" in words


def test_ci_runs_the_whole_suite_then_the_engine_and_simulation_tests_pure() -> None:
    whole, pure = _pytest_commands()
    assert not any(w.startswith("tests/") for w in whole) and "CARDGEN_PURE=1" not in whole
    assert "CARDGEN_PURE=1" in pure
    tests = Path(__file__).resolve().parent
    named = {p.name for w in pure if w.startswith("tests/") for p in tests.parent.glob(w)}
    assert {"test_engine.py", "test_sim.py", "test_search_bot.py", "test_native.py"} <= named


def test_missing_rulebooks_fail_in_ci(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(pytest.fail.Exception, match="rulebooks not found"):
        require_rulebooks(missing, {"CARDGEN_CI": "1"})


def test_missing_rulebooks_skip_on_a_developer_machine(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(pytest.skip.Exception, match="rulebooks not available"):
        require_rulebooks(missing, {"CI": "false"})
    assert require_rulebooks(tmp_path, {"CARDGEN_CI": "1"}) == tmp_path


def test_ci_mode_variables() -> None:
    assert in_ci({"CARDGEN_CI": "1"}) and in_ci({"CI": "true"})
    assert not in_ci({}) and not in_ci({"CI": "0"}) and not in_ci({"CARDGEN_CI": "false"})
