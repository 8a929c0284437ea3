"""Simulation: the results JSON and its meaning, determinism across --jobs, the greedy bot, the report."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.render.sim_report import ReportError, report_pdf, report_png
from cardgen.sim.runner import TIMING_KEYS, SimConfig, chunk_pool, results_json, simulate
from cardgen.sim.seeding import derive_seed

REQUIRED_KEYS = ("set", "games", "players", "seed", "agent", "seat_win_rate", "seat_win_ci95", "turns_mean",
                 "turns_p50", "turns_p95", "stalemates", "invariant_violations", "cards", "dead_cards",
                 "games_per_s", "decisions_per_s")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def untimed(res: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in res.items() if k not in TIMING_KEYS}


@pytest.fixture(scope="module")
def lunch_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("sim") / "lunch.json"
    code, _, err = run("simulate", "--set", "lunch", "--games", "60", "--players", "3", "--seed", "5",
                       "--json", str(out))
    assert code == 0, err
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def test_json_has_every_documented_key(lunch_json: dict[str, Any]) -> None:
    missing = [k for k in REQUIRED_KEYS if k not in lunch_json]
    assert not missing
    assert (lunch_json["set"], lunch_json["games"], lunch_json["players"], lunch_json["seed"],
            lunch_json["agent"]) == ("lunch", 60, 3, 5, "random")


def test_seat_figures_add_up_and_intervals_hold_the_rates(lunch_json: dict[str, Any]) -> None:
    res = lunch_json
    assert len(res["seat_win_rate"]) == len(res["seat_win_ci95"]) == 3
    assert sum(res["seat_wins"]) + res["stalemates"] + res["draws"] == res["games"]
    for wins, rate, (lo, hi) in zip(res["seat_wins"], res["seat_win_rate"], res["seat_win_ci95"], strict=True):
        assert rate == pytest.approx(wins / res["games"], abs=1e-4)
        assert 0.0 <= lo <= rate <= hi <= 1.0


def test_game_length_figures_match_the_histogram(lunch_json: dict[str, Any]) -> None:
    hist = {int(t): n for t, n in lunch_json["turn_histogram"].items()}
    assert sum(hist.values()) == 60
    lengths = sorted(t for t, n in hist.items() for _ in range(n))
    assert lunch_json["turns_mean"] == pytest.approx(sum(lengths) / 60, abs=1e-3)
    assert lunch_json["turns_p50"] == lengths[29]
    assert lengths[0] <= lunch_json["turns_p50"] <= lunch_json["turns_p95"] <= lengths[-1]


def test_card_figures_cover_the_whole_set(lunch_json: dict[str, Any]) -> None:
    cs = load_set("lunch")
    cards = lunch_json["cards"]
    assert list(cards) == [c.name for c in cs.cards]
    for c in cards.values():
        assert 0 <= c["games"] <= min(60, c["played"])
        assert c["plays_per_game"] == pytest.approx(c["played"] / 60, abs=1e-4)
        for measure in ("opening", "drawn"):
            f = c[measure]
            assert f["holders"] + f["others"] == 60 * 3  # every seat of every game, on one side or the other
            if f["diff"] is not None:
                assert f["diff"] == pytest.approx(100 * (f["win_rate"] - f["others_win_rate"]), abs=0.02)
                assert f["ci95"][0] <= f["diff"] <= f["ci95"][1]
    assert lunch_json["impact_measure"] == "opening"
    assert sorted(lunch_json["impact_ranking"]) == sorted(cards)
    assert lunch_json["dead_cards"] == [n for n, c in cards.items() if c["played"] == 0]
    assert lunch_json["invariant_violations"] == 0
    assert lunch_json["games_per_s"] > 0 and lunch_json["decisions_per_s"] > lunch_json["games_per_s"]


def test_same_seed_same_json_whatever_the_jobs(tmp_path: Path) -> None:
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.json"
        code, _, err = run("simulate", "--set", "beer", "--games", "48", "--seed", "9", "--agent", "greedy,random",
                           "--jobs", jobs, "--json", str(out))
        assert code == 0, err
        outs.append(untimed(json.loads(out.read_text())))
    assert outs[0] == outs[1]
    assert outs[0]["agent"] == "greedy,random"


def test_a_chunk_pool_gives_each_spec_its_result_whoever_played_it() -> None:
    """Chunks started ahead in the workers, or never started, are taken in any order with their own results;
    in one process nothing runs ahead and a chunk plays when taken."""
    with chunk_pool(pow, 2) as chunks:
        assert chunks.depth == 3 and chunks.room() == 3
        chunks.ahead((2, 5))
        chunks.ahead((3, 2))
        chunks.ahead((3, 2))  # already under way: started once
        assert len(chunks.flight) == 2 and chunks.room() >= 1
        assert chunks.take((3, 2)) == 9 and chunks.take((2, 10)) == 1024 and chunks.take((2, 5)) == 32
        assert not chunks.flight and chunks.room() == 3
    with chunk_pool(pow, 1) as alone:
        alone.ahead((2, 3))
        assert alone.room() == 0 and not alone.flight and alone.take((2, 3)) == 8


def test_another_seed_gives_other_games() -> None:
    cs = load_set("beer")
    a = results_json(cs, simulate(cs, SimConfig(games=20, seed=1)))
    b = results_json(cs, simulate(cs, SimConfig(games=20, seed=2)))
    assert untimed(a) != untimed(b)
    assert derive_seed(1, 0) != derive_seed(1, 1) != derive_seed(2, 1)
    assert derive_seed(7, 3) == derive_seed(7, 3)


def test_greedy_beats_random_when_they_share_a_table() -> None:
    cs = load_set("lunch")
    res = results_json(cs, simulate(cs, SimConfig(players=4, games=80, seed=3, agents=("greedy", "random"))))
    rates = res["agent_win_rate"]
    assert rates["greedy"] > 2 * rates["random"]


def test_greedy_games_end() -> None:
    cs = load_set("beer")
    res = results_json(cs, simulate(cs, SimConfig(players=4, games=60, seed=4, agents=("greedy",))))
    assert res["stalemates"] <= 1 and res["invariant_violations"] == 0


def test_bad_options_fail_cleanly(tmp_path: Path) -> None:
    for args in (["--players", "1"], ["--games", "0"], ["--agent", "clever"], ["--jobs", "0"],
                 ["--report", str(tmp_path / "r.svg")]):
        code, _, err = run("simulate", "--set", "lunch", "--games", "3", *args)
        assert code == 1 and err.startswith("error: ") and "Traceback" not in err, (args, err)
    code, _, err = run("simulate", "--games", "3")
    assert code == 1 and "--set" in err


def test_report_pdf_is_deterministic_and_png_is_its_raster(lunch_json: dict[str, Any]) -> None:
    pdf = report_pdf(lunch_json)
    assert pdf.startswith(b"%PDF") and pdf == report_pdf(lunch_json)
    png = Image.open(io.BytesIO(report_png(lunch_json, dpi=50)))
    assert png.width > 400 and png.height >= png.width * 0.6


def test_report_cli_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "r.png"
    code, _, err = run("simulate", "--set", "beer", "--games", "10", "--report", str(out))
    assert code == 0, err
    assert Image.open(out).format == "PNG"


def test_report_needs_the_simulation_keys() -> None:
    with pytest.raises(ReportError, match="seat_win_rate"):
        report_pdf({"set": "x", "games": 1, "players": 2, "agent": "random", "seed": 0})


def test_rendering_the_report_imports_neither_engine_nor_simulation() -> None:
    code = ("import sys, cardgen.render.sim_report; "
            "bad = [m for m in sys.modules if m.startswith(('cardgen.engine', 'cardgen.sim'))]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_mixed_decks_keep_same_named_cards_apart(tmp_path: Path) -> None:
    out = tmp_path / "mix.json"
    code, _, err = run("simulate", "--set", "lunch", "--set", "beer", "--games", "6", "--json", str(out))
    assert code == 0, err
    res = json.loads(out.read_text())
    cards = [c for s in ("lunch", "beer") for c in load_set(s).cards]
    assert len(res["cards"]) == len(cards)
    assert "Grab (lunch)" in res["cards"] and "Grab (beer)" in res["cards"]


def test_greedy_defends_follows_up_and_heals_when_dropping() -> None:
    """Replay random games and ask the greedy bot at every decision where its rules leave no doubt."""
    from cardgen.engine.agents import RandomAgent
    from cardgen.engine.moves import DEFEND, FOLLOW, HEAL
    from cardgen.engine.rules import new_game, push
    from cardgen.engine.state import BraceF, DropF
    from cardgen.engine.views import observe
    from cardgen.sim.greedy import GreedyAgent

    cs = load_set("lunch")
    greedy, rnd = GreedyAgent(1), RandomAgent(2)
    seen = {DEFEND: 0, FOLLOW: 0, HEAL: 0}
    for seed in range(6):
        s = new_game(cs, 4, seed=seed)
        while s.result is None:
            kinds = {m.kind for m in s.moves}
            pick = greedy.choose(observe(s, s.to_act))
            if DEFEND in kinds:
                assert pick.kind == DEFEND
                seen[DEFEND] += 1
            elif FOLLOW in kinds:
                assert pick.kind == FOLLOW
                seen[FOLLOW] += 1
            elif isinstance(s.stack[-1], DropF | BraceF) and HEAL in kinds:
                assert pick.kind == HEAL
                seen[HEAL] += 1
            push(s, rnd.choose(observe(s, s.to_act)))
    assert all(seen.values()), seen


def test_a_misspelt_agent_gets_a_did_you_mean() -> None:
    code, _, err = run("simulate", "--set", "beer", "--agent", "gredy", "--games", "2")
    assert code == 1 and "unknown agent 'gredy' (did you mean 'greedy'?)" in err
