"""The sanity simulation of `cardgen validate`: what a broken designer set makes it say, and exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.loader import load_set
from cardgen.sim import play
from cardgen.sim.sanity import sanity_check

BROKEN = Path(__file__).parent / "fixtures" / "broken_designer"
DIAG = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): (?P<msg>.+)$", re.M)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def line_of(path: Path, name: str) -> int:
    """The line of a card's entry (its `- name:` or `- {name:` line) in a card file."""
    for i, text in enumerate(path.read_text().splitlines(), 1):
        if re.search(rf"name: {re.escape(name)}\b", text):
            return i
    raise AssertionError(name)


@pytest.fixture(scope="module")
def broken_run() -> tuple[int, str, str]:
    return run("validate", "--set", str(BROKEN))


def _diags(err: str, card: str) -> list[re.Match[str]]:
    return [m for m in DIAG.finditer(err) if f"'{card}'" in m["msg"]]


def test_schema_alone_accepts_the_broken_set() -> None:
    code, out, err = run("validate", "--no-sim", "--set", str(BROKEN))
    assert code == 0, err
    assert "simulated" not in out


def test_follow_up_that_can_never_be_played_fails_validate(broken_run: tuple[int, str, str]) -> None:
    code, _, err = broken_run
    assert code == 1
    [d] = _diags(err, "Sucker Punch")
    assert d["sev"] == "error" and "never" in d["msg"] and "Feint" in d["msg"]
    assert d["path"].endswith("2-broken.yaml")
    assert int(d["line"]) == line_of(BROKEN / "2-broken.yaml", "Sucker Punch")


def test_heal_of_50_warns(broken_run: tuple[int, str, str]) -> None:
    _, _, err = broken_run
    [d] = _diags(err, "Magic Sandwich")
    assert d["sev"] == "warning" and "heals 50" in d["msg"]
    assert int(d["line"]) == line_of(BROKEN / "2-broken.yaml", "Magic Sandwich")


def test_full_life_to_zero_in_one_play_warns(broken_run: tuple[int, str, str]) -> None:
    _, _, err = broken_run
    [d] = _diags(err, "Wrecking Ball")
    assert d["sev"] == "warning" and "full life (12) to 0 in one play" in d["msg"]
    assert d["path"].endswith("1-cards.yaml")
    assert int(d["line"]) == line_of(BROKEN / "1-cards.yaml", "Wrecking Ball")
    assert not _diags(err, "Kick")  # 3 damage never knocks out a fresh player


def test_bundled_set_passes_with_a_short_simulation() -> None:
    code, out, err = run("validate", "--set", "lunch")
    assert code == 0, err
    m = re.search(r"^lunch: simulated (\d+) games in ([\d.]+) s: 0 stalemates, 0 invariant violations, 0 errors",
                  out, re.M)
    assert m, out
    assert float(m[2]) < 5.0


def test_stalemates_above_one_percent_warn(make_set, mini_set_files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("hand_size: 3", "hand_size: 3\n  turn_cap: 2")
    folder = make_set(files)
    rep = sanity_check(load_set(folder), games=30, players=2)
    warn = [d for d in rep.diagnostics if "turn cap" in d.message]
    assert rep.stalemates > 0 and warn and warn[0].severity == "warning"


def test_invariant_violations_are_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "check_state", lambda s: ["cards went missing"] if s.turn > 3 else [])
    rep = sanity_check(load_set("lunch"), games=10)
    errors = [d for d in rep.diagnostics if d.severity == "error"]
    assert rep.violations > 0
    assert errors and "cards went missing" in errors[0].message and errors[0].path.endswith("set.yaml")


def test_a_set_too_small_to_deal_fails_without_traceback(make_set, mini_set_files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("hand_size: 3", "hand_size: 4")
    code, _, err = run("validate", "--set", str(make_set(files)))
    assert code == 1
    assert "cannot simulate" in err and "too few to deal" in err and "Traceback" not in err
