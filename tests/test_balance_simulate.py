"""One verdict, one design: `simulate` gives no balance verdict from its own games (its bots
and table size are the user's); with `--balance` it gives the shared procedure's, the same as `validate` and
`compare` (same bots, table sizes, stopping rule and defaults)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.sim.balance import BALANCE_TIMING_KEYS, BalanceConfig, compare_versions, result_json

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"


def test_simulate_gives_the_procedures_verdicts_and_none_of_its_own(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    run = CliRunner().invoke(main, ["simulate", "--set", str(PLANTS / "self-stun"), "--games", "60", "--players",
                                    "3", "--agent", "random", "--balance",
                                    "--json", str(out)])
    assert run.exit_code == 0, run.output
    got = json.loads(out.read_text(encoding="utf-8"))["balance"]
    b = load_set(PLANTS / "self-stun")
    want = result_json(compare_versions(load_set(Path(b.base or "")), b, BalanceConfig()))
    for key in BALANCE_TIMING_KEYS:
        got.pop(key), want.pop(key)
    assert got == want  # the procedure's own verdicts, not ones from the 60 random 3-player games
    assert got["config"]["tables"] == [2, 4] and got["config"]["agents"] == ["greedy"]
    assert got["flagged"] == ["Horror of Horrors"]
    lines = run.stdout.splitlines()
    assert "balance verdicts:" in lines
    assert any(x.startswith("    Horror of Horrors, at 2 players: ") and x.endswith("Weaker than before.")
               for x in lines), lines


def test_simulate_without_balance_says_where_the_verdicts_are() -> None:
    run = CliRunner().invoke(main, ["simulate", "--set", "beer", "--games", "30", "--agent", "greedy"])
    assert run.exit_code == 0, run.output
    assert "  balance verdicts: not given from these games (the shared procedure plays its own: --balance, or " \
           "`cardgen validate`)" in run.stdout.splitlines()
    assert "stand out" not in run.stdout and "strongest" not in run.stdout
