"""Bad options through the real entry point: exit code 1, a message, no traceback, nothing written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CASES: list[tuple[list[str], str]] = [
    (["build", "--set", "lunch", "--duplex", "sideways"], "'sideways' is not one of 'long', 'short'"),
    (["build", "--set", "lunch", "--backs", "--offset", "nan,0"], "between -10 and 10"),
    (["build", "--set", "lunch", "--backs", "--offset", "500,500"], "between -10 and 10"),
    (["build", "--set", "lunch", "--bleed", "nan"], "'nan' is not a finite number; expected 0.0<=x<=10.0"),
    (["build", "--set", "lunch", "--bleed", "-1"], "-1.0 is not in the range 0.0<=x<=10.0"),
    (["build", "--set", "lunch", "--paper", "a5"],
     "error: Invalid value for '--paper': 'a5' is not one of 'a4', 'letter'"),
    (["rules", "--set", "lunch", "--paper", "leter"], "'leter' is not one of 'a4', 'letter'. (did you mean 'letter'?)"),
    (["preview", "--set", "lunch", "--paper", "a5"], "'a5' is not one of 'a4', 'letter'"),
    (["build", "--set", "lunch", "--size", "0x0"], "must be positive"),
    (["build", "--set", "lunch", "--size", "huge"], "unknown card size 'huge'"),
    (["build", "--set", "lunch", "--size", "300x300"], "does not fit on A4"),
    (["simulate", "--set", "lunch", "--games", "abc"], "'abc' is not a valid integer"),
    (["preview", "--set", "lunch", "--card", "Nope"], "no card named 'Nope'"),
    (["preview", "--set", "lunch", "--card", "Uppercutt"], "no card named 'Uppercutt' (did you mean 'Uppercut'?)"),
    (["validate", "--set", "luncj"], "did you mean 'lunch'?"),
    (["new", "x", "--base", "nope"], "'nope' is not one of"),
    (["list"], "list needs --set"),
    (["simulate", "--set", "lunch", "--agent", "greedy,", "--games", "3"], "unknown agent '(empty)'"),
    (["validate", "--set", ""], "empty --set value"),
]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardgen.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize(("args", "message"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_option_exits_1_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    res = _run(args, tmp_path)
    assert res.returncode == 1, res.stderr
    assert message in res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    assert not (tmp_path / "output").exists() or not any((tmp_path / "output").rglob("*.pdf"))


def test_simulate_checks_its_outputs_before_playing(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file, not a folder")
    res = _run(["simulate", "--set", "lunch", "--games", "5", "--json", "ok.json", "--report", "blocker/r.pdf"],
               tmp_path)
    assert res.returncode == 1 and "blocker is not a folder" in res.stderr
    assert not (tmp_path / "ok.json").exists()


def test_replay_of_an_empty_file_says_what_a_scenario_is(tmp_path: Path) -> None:
    (tmp_path / "empty.yaml").write_text("")
    res = _run(["replay", "empty.yaml"], tmp_path)
    assert res.returncode == 1
    assert "empty.yaml:1:1: error: file is empty, expected a scenario" in res.stderr
