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
    code, out, err = run("validate", "--no-balance")
    assert code == 0, err
    for name in bundled_set_names():
        assert re.search(rf"^{name}: ok \(\d+ designs, \d+ cards\)$", out, re.M), out


@pytest.mark.parametrize("sets", [["lunch"], ["beer"], ["classic"], ["lunch", "beer"]])
def test_validate_bundled_and_mixed_sets(sets: list[str]) -> None:
    args = [a for s in sets for a in ("--set", s)]
    code, out, err = run("validate", "--no-balance", *args)
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
    code, out, err = run("validate", "--no-balance", "--set", str(folder))
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
    code, out, err = run("validate", "--no-balance", "--no-sim", "--set", str(SETS / "warn-only"))
    assert code == 0
    found = diagnostics(err)
    assert [m["sev"] for m in found] == ["warning"]
    assert "must end in .yaml" in found[0]["msg"] and found[0]["path"].endswith("notes.yml")
    assert "ok" in out


def test_unknown_set_name_suggests_a_bundled_one() -> None:
    code, _, err = run("validate", "--no-balance", "--set", "beeer")
    assert code == 1
    assert "error: unknown set 'beeer'" in err and "did you mean 'beer'?" in err


def test_mixing_a_bad_set_fails_the_whole_group(tmp_path: Path) -> None:
    code, out, err = run("validate", "--no-balance", "--set", "lunch", "--set", str(SETS / "bad-many"))
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


# --- one verdict: what no rule could ever play, and what a build would refuse, fail validate ----------

MINI = SETS / "good-mini"


def _mini_with(tmp_path: Path, extra_cards: str = "", set_edit: tuple[str, str] = ("", "")) -> tuple[Path, str]:
    """A copy of the mini set with cards appended (and one edit of set.yaml); its folder and card text."""
    folder = tmp_path / "mini"
    folder.mkdir()
    set_yaml = (MINI / "set.yaml").read_text(encoding="utf-8")
    if set_edit[0]:
        assert set_edit[0] in set_yaml
        set_yaml = set_yaml.replace(*set_edit)
    cards = (MINI / "cards.yaml").read_text(encoding="utf-8") + extra_cards
    total = 6 + sum(int(m) for m in re.findall(r"count: (\d+)", extra_cards))
    (folder / "set.yaml").write_text(set_yaml.replace("deck_size: 6", f"deck_size: {total}"), encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder, cards


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _only(err: str, fragment: str) -> re.Match[str]:
    found = [m for m in diagnostics(err) if fragment in m["msg"]]
    assert len(found) == 1, err
    return found[0]


@pytest.mark.parametrize(("card", "why"), [
    ("{name: Disarm, type: defense, count: 1, defence: disarm, source: designed}",
     "it defends as disarm, and no playable card can be answered that way"),
    ("{name: Rescue, type: specialty, count: 1, interfere: true, source: designed}", None),
    ("{name: Stomp, type: specialty, count: 1, stomp: true, damage: 1, source: designed}", None),
    ("{name: Unchain, type: defense, count: 1, defence: break, source: designed}",
     "it defends as break, and no playable card can be answered that way"),
    ("{name: Sucker Punch, type: specialty, count: 1, follows: feint, damage: 2, source: designed}\n"
     "  - {name: Feint, type: defense, count: 1, defence: dodge, opens: {combo: feint}, source: designed}",
     "it follows 'feint', and 'Feint' can never be played as an opener of it"),
    ("{name: Echo, type: specialty, count: 1, timing: response, humiliate: cancel, source: designed}\n"
     "  - {name: Freedom, type: defense, count: 1, defence: freedom, source: designed}",
     None),
])
def test_card_no_rule_could_ever_play_fails_validate(tmp_path: Path, card: str, why: str | None) -> None:
    folder, cards = _mini_with(tmp_path, f"  - {card}\n")
    code, out, err = run("validate", "--no-balance", "--no-sim", "--set", str(folder))
    name = card.split(",")[0].removeprefix("{name: ")
    if why is None:  # the rules allow these: a humiliation answers any card, FREEDOM breaks the grab,
        # interference steps into a Jab, a stomp finishes a knocked-out player
        assert code == 0, err
        return
    assert code == 1 and "ok" not in out
    d = _only(err, f"card '{name}' can never be played")
    assert why in d["msg"] and d["sev"] == "error"
    assert d["path"].endswith("cards.yaml") and int(d["line"]) == _line(cards, f"{{name: {name},")


def test_opener_that_nothing_can_follow_fails_validate(tmp_path: Path) -> None:
    folder, cards = _mini_with(tmp_path, "  - {name: Power Play, type: specialty, count: 1, opens: {combo: power, "
                                         "then: [defense], multiplier: 2}, source: designed}\n")
    code, _, err = run("validate", "--no-balance", "--no-sim", "--set", str(folder))
    assert code == 1
    d = _only(err, "card 'Power Play' field `opens`: nothing in the set can follow it")
    assert "`follows: power`" in d["msg"] and "no damage card of type defense" in d["msg"]
    assert (int(d["line"]), int(d["col"])) == (_line(cards, "{name: Power Play"), 5)


def test_set_where_nothing_deals_damage_fails_fast_without_simulating(tmp_path: Path) -> None:
    folder = tmp_path / "pacifist"
    folder.mkdir()
    (folder / "set.yaml").write_text(
        "name: pacifist\ntitle: Pacifist\ndeck_size: 12\nrules: {life: 10, hand_size: 3, turn_cap: 100000}\n"
        "types:\n  event: {label: Event, colour: '#F07A18', role: event}\n"
        "cards:\n  - {name: Daydream, type: event, count: 12, draw: 1, source: designed}\n", encoding="utf-8")
    code, out, err = run("validate", "--no-balance", "--set", str(folder))
    assert code == 1 and "simulated" not in out
    d = _only(err, "games could never end")
    assert d["path"].endswith("set.yaml") and (d["line"], d["col"]) == ("1", "1")


@pytest.mark.parametrize(("name", "problem"), [
    ('"Beer \\U0001F37A"', "character '\U0001F37A' (U+1F37A) is in no bundled font"),
    ("W" * 60, "its name does not fit"),
])
def test_what_build_would_refuse_fails_validate_first(tmp_path: Path, name: str, problem: str) -> None:
    folder, cards = _mini_with(tmp_path, f"  - {{name: {name}, type: basic, count: 1, damage: 2, "
                                         "source: designed}\n")
    code, _, err = run("validate", "--no-balance", "--no-sim", "--set", str(folder))
    assert code == 1
    d = _only(err, "cannot be printed at")
    assert problem in d["msg"] and d["sev"] == "error"
    assert d["path"].endswith("cards.yaml") and int(d["line"]) == _line(cards, f"{{name: {name}")
    code, _, build_err = run("build", "--set", str(folder), "--out", str(tmp_path / "out"))
    assert code == 1 and problem in build_err  # the same refusal, from the build itself


@pytest.mark.parametrize("sets", [["beer", "lunch"], ["classic", "beer"]])
def test_mixes_pass_the_static_checks(sets: list[str]) -> None:
    code, out, err = run("validate", "--no-balance", "--no-sim", *[a for s in sets for a in ("--set", s)])
    assert code == 0, err
    assert out.startswith("+".join(sets) + ": ok")


def test_rules_page_overflow_is_refused_with_the_builds_own_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any set builds unless even the rules without the card list overflow; no bundled set comes close, so the
    smallest legible size is raised to 14 pt here to make lunch overflow, for validate and build alike."""
    from cardgen.checks import load_set
    from cardgen.errors import CardgenError
    from cardgen.render import rules_page

    monkeypatch.setattr(rules_page, "min_font_size", lambda: 14.0)
    monkeypatch.setattr(rules_page, "font_sizes", lambda: [14.0])
    code, _, err = run("validate", "--no-balance", "--no-sim", "--set", "lunch")
    assert code == 1
    d = _only(err, "rules page for lunch overflows")
    assert d["path"].endswith("lunch/set.yaml") and (d["line"], d["col"]) == ("1", "1")
    with pytest.raises(CardgenError) as info:
        rules_page.rules_pdf(load_set("lunch"), "a4")
    assert str(info.value) == d["msg"]


def test_a_set_name_too_long_for_the_system_is_a_clean_shortened_error() -> None:
    code, _, err = run("validate", "--no-balance", "--no-sim", "--set", "x" * 300)
    assert code == 1
    assert err.startswith("error: unknown set 'xxx") and "(300 characters)" in err and "Traceback" not in err
    assert all(len(line) < 300 for line in err.splitlines())
    code, _, err = run("build", "--set", "./" + "y" * 300)
    assert code == 1 and err.startswith("error: ") and err.rstrip().endswith(": File name too long")
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_a_long_home_made_set_name_leaves_room_for_split_card_names(tmp_path: Path) -> None:
    """A split card's divider holds its name and its footer label ('<set> 12/104'); a home-made set with a
    long name once crowded classic's Dodge/Block out of it at bridge size (5 errors on base cards)."""
    folder = tmp_path / "my-long-home-made-classic-variant"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: my-long-home-made-classic-variant\ntitle: Mine\nextends: classic\n",
                                     encoding="utf-8")
    code, out, err = run("validate", "--no-sim", "--set", str(folder))
    assert code == 0, err
    assert "does not fit" not in err
    assert re.search(r"^my-long-home-made-classic-variant: ok \(40 designs, 104 cards\)$", out, re.M), out
