"""The sanity simulation of `cardgen validate`: what a broken designer set makes it say, and exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.checks import load_set, sanity
from cardgen.checks.sanity import sanity_check
from cardgen.cli.main import main
from cardgen.engine.cards import CardInfo
from cardgen.model import CardSet
from cardgen.sim.runner import Batch, SimConfig

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
    return run("validate", "--no-balance", "--set", str(BROKEN))


def _diags(err: str, card: str) -> list[re.Match[str]]:
    return [m for m in DIAG.finditer(err) if f"'{card}'" in m["msg"]]


def test_the_loader_accepts_the_broken_set_and_the_static_analysis_refuses_it() -> None:
    assert load_set(BROKEN).name == "broken-designer"  # schema and loader checks see nothing wrong
    code, out, err = run("validate", "--no-balance", "--no-sim", "--set", str(BROKEN))
    assert code == 1 and "simulated" not in out
    [d] = _diags(err, "Sucker Punch")  # proved without playing a game
    assert d["sev"] == "error" and "can never be played" in d["msg"] and "'Feint'" in d["msg"]


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
    code, out, err = run("validate", "--no-balance", "--set", "lunch")
    assert code == 0, err
    m = re.search(r"^lunch: simulated (\d+) games in ([\d.]+) s: 0 stalemates, 0 invariant violations, 0 errors",
                  out, re.M)
    assert m, out  # (how long it took is the bench's business, not a test's)


def test_stalemates_above_one_percent_warn(make_set, mini_set_files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("hand_size: 3", "hand_size: 3\n  turn_cap: 2")
    folder = make_set(files)
    rep = sanity_check(load_set(folder), games=30, players=2)
    warn = [d for d in rep.diagnostics if "turn cap" in d.message]
    assert rep.stalemates > 0 and warn and warn[0].severity == "warning"


def test_invariant_violations_are_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    real = sanity.run_range

    def broken(cs: CardSet, info: tuple[CardInfo, ...], cfg: SimConfig, first: int, stop: int) -> Batch:
        """The games as played, but games 3 on report a violation (the engine itself may be compiled:
        its functions cannot be replaced, so the batch they return is)."""
        batch = real(cs, info, cfg, first, stop)
        if first >= 3:
            batch.stats.violations += 1
            batch.stats.violation_examples.append(f"game {first}: cards went missing")
        return batch

    monkeypatch.setattr(sanity, "run_range", broken)
    rep = sanity_check(load_set("lunch"), games=10)
    errors = [d for d in rep.diagnostics if d.severity == "error"]
    assert rep.violations > 0
    assert errors and "cards went missing" in errors[0].message and errors[0].path.endswith("set.yaml")


def test_a_set_too_small_to_deal_fails_at_its_hand_size(make_set, mini_set_files: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("hand_size: 3", "hand_size: 4")
    folder = make_set(files)
    code, out, err = run("validate", "--no-balance", "--set", str(folder))
    assert code == 1 and "Traceback" not in err and "simulated" not in out
    [d] = [m for m in DIAG.finditer(err)]  # the loader refuses it, at the hand size, before any game
    assert d["path"].endswith("set.yaml") and (int(d["line"]), int(d["col"])) == (6, 14)
    assert "hand_size 4 needs at least 8 cards to deal 2 hands, and the deck has 6" in d["msg"]


# --- bounded: a time budget and a turn cap of its own, and saying what was cut short ----------


def test_time_budget_stops_starting_games_and_says_so() -> None:
    calls: list[int] = []
    rep = sanity_check(load_set("lunch"), budget=0.0, progress=calls.append)
    assert rep.games == 1 == len(calls) and rep.planned == 200
    assert rep.cut_short() == ["played 1 of 200 games before the time budget ran out"]
    code, out, _ = run("validate", "--no-balance", "--sim-seconds", "0.1", "--set", "lunch")
    m = re.search(r"^lunch: simulated (\d+) games", out, re.M)
    assert m and int(m[1]) < 200, out
    assert f"lunch: simulation cut short: played {m[1]} of 200 games before the time budget ran out" in out
    assert code == 0


def test_a_huge_turn_cap_is_cut_to_the_validation_cap(make_set, mini_set_files: dict[str, str],  # type: ignore[no-untyped-def]
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen.checks import sanity

    monkeypatch.setattr(sanity, "SANITY_TURN_CAP", 3)
    files = dict(mini_set_files)
    files["set.yaml"] = files["set.yaml"].replace("hand_size: 3", "hand_size: 3\n  turn_cap: 100000")
    code, out, err = run("validate", "--no-balance", "--set", str(make_set(files)))
    assert "mini: simulation cut short: games stopped at 3 turns (the set's turn cap is 100000)" in out
    assert "reached the 3-turn cap" in err  # the stalemate warning names the cap games were played to
    assert code == 0


def test_whole_runs_say_nothing_was_cut_short() -> None:
    rep = sanity_check(load_set("lunch"), games=3)
    assert rep.cut_short() == [] and rep.games == rep.planned == 3


def test_playable_but_never_played_stays_a_warning() -> None:
    rep = sanity_check(load_set("lunch"), games=1)
    unplayed = [d for d in rep.diagnostics if "never" in d.message]
    assert unplayed, "one game leaves some card unplayed"
    assert all(d.severity == "warning" for d in unplayed)


@pytest.mark.parametrize("ref", ["classic", "beer", str(Path(__file__).parent / "fixtures" / "designer60")])
def test_every_card_a_game_offered_is_playable_by_the_static_analysis(ref: str) -> None:
    """The analysis may only call a card dead if no game could offer it: check it against real games."""
    from cardgen.engine.playability import reach_of
    from cardgen.sim.runner import SimConfig, simulate

    cs = load_set(ref)
    res = simulate(cs, SimConfig(players=4, games=20, agents=("greedy", "random"), coverage=True))
    assert res.batch.coverage is not None
    offered = {d for d, n in enumerate(res.batch.coverage.legal) if n}
    assert offered and offered <= reach_of(cs).playable
