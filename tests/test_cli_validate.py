"""`cardgen validate` and `cardgen list` from the outside: exit codes, `path:line:col:` lines, no tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.loader import bundled_set_names

SETS = Path(__file__).parent / "fixtures" / "sets"
DIAG_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): (?P<msg>.+)$")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def diagnostics(stderr: str) -> list[re.Match[str]]:
    return [m for line in stderr.splitlines() if (m := DIAG_LINE.match(line))]


def test_validate_all_bundled_sets_exits_0() -> None:
    code, out, err = run("validate")
    assert code == 0, err
    for name in bundled_set_names():
        assert re.search(rf"^{name}: ok \(\d+ designs, \d+ cards\)$", out, re.M), out


@pytest.mark.parametrize("sets", [["lunch"], ["beer"], ["classic"], ["lunch", "beer"]])
def test_validate_bundled_and_mixed_sets(sets: list[str]) -> None:
    args = [a for s in sets for a in ("--set", s)]
    code, out, err = run("validate", *args)
    assert code == 0, err
    assert out.startswith("+".join(sets) + ": ok")


@pytest.mark.parametrize(("name", "total"), [("lunch", 110), ("beer", 110), ("classic", 104)])
def test_list_json_totals(name: str, total: int) -> None:
    code, out, err = run("list", "--set", name, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["total"] == total == data["deck_size"]
    assert sum(row["count"] for row in data["cards"]) == total
    assert sum(data["by_source"].values()) == total


def test_bad_set_reports_every_problem_with_positions() -> None:
    folder = SETS / "bad-many"
    code, out, err = run("validate", "--set", str(folder))
    assert code == 1
    assert "Traceback" not in err + out
    found = diagnostics(err)
    assert len(found) == 5
    lines = {(Path(m["path"]).name, int(m["line"]), int(m["col"])) for m in found}
    assert lines == {("1-cards.yaml", 2, 37), ("1-cards.yaml", 3, 25), ("1-cards.yaml", 4, 5),
                     ("1-cards.yaml", 9, 5), ("2-more.yaml", 3, 1)}
    assert all(m["sev"] == "error" for m in found)
    assert any("did you mean 'defense'?" in m["msg"] for m in found)
    assert any("did you mean 'source'?" in m["msg"] for m in found)
    assert err.rstrip().endswith("5 errors found")


def test_warnings_are_printed_but_do_not_fail() -> None:
    code, out, err = run("validate", "--no-sim", "--set", str(SETS / "warn-only"))
    assert code == 0
    found = diagnostics(err)
    assert [m["sev"] for m in found] == ["warning"]
    assert "field `stomp`" in found[0]["msg"]
    assert "ok" in out


def test_unknown_set_name_suggests_a_bundled_one() -> None:
    code, _, err = run("validate", "--set", "beeer")
    assert code == 1
    assert "error: unknown set 'beeer'" in err and "did you mean 'beer'?" in err


def test_mixing_a_bad_set_fails_the_whole_group(tmp_path: Path) -> None:
    code, out, err = run("validate", "--set", "lunch", "--set", str(SETS / "bad-many"))
    assert code == 1 and "ok" not in out
    assert len(diagnostics(err)) == 5


def test_real_process_has_no_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "garbage"
    folder.mkdir()
    (folder / "set.yaml").write_bytes(b"\x00\x01\x02 not yaml at all \xff")
    (folder / "cards.yaml").write_text("cards: [ {name: x\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", "from cardgen.cli.main import main; main()",
                           "validate", "--set", str(folder)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    found = diagnostics(proc.stderr)
    assert {Path(m["path"]).name for m in found} == {"set.yaml", "cards.yaml"}


def test_list_of_a_bad_set_fails_cleanly() -> None:
    code, out, err = run("list", "--set", str(SETS / "bad-many"))
    assert code == 1 and out == ""
    assert len(diagnostics(err)) == 5
