"""`cardgen simulate --save-games N`: the run's first N games saved as files the replay viewer opens, each
move for move the game the simulation counted, the same files whatever --jobs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.engine.cards import card_info
from cardgen.engine.events import Moved, Reshuffle
from cardgen.engine.game import make_game, seat_names
from cardgen.engine.moves import CARD_PLAYS
from cardgen.engine.replay import Replay
from cardgen.loader import load_set
from cardgen.loader.scenario import load_scenario
from cardgen.play.replay_view import replay_data
from cardgen.play.simulated import save_games
from cardgen.scenario_spec import ScenarioError
from cardgen.sim.agents import make_agent, parse_budget
from cardgen.sim.play import card_labels, play_one
from cardgen.sim.runner import SimConfig, seats_of
from cardgen.sim.seeding import derive_seed

# Random bots at two seats play long games of the classic set: most of the first games reshuffle the discards.
CFG = SimConfig(players=2, games=12, seed=3, agents=("random",), budget=parse_budget("30"))


def _simulated(cs_name: str, cfg: SimConfig, game: int) -> tuple[int | None, int, int, dict[str, int]]:
    """What the simulation itself recorded of game `game` (as `sim.runner.run_range` plays it)."""
    cs = load_set(cs_name)
    info = card_info(cs)
    table = make_game(cs, seat_names(cfg.players), info=info)
    agents = [make_agent(a, derive_seed(cfg.seed, game, s + 1), cfg.budget) for s, a in enumerate(seats_of(cfg, game))]
    rec = play_one(cs, info, agents, seats_of(cfg, game), derive_seed(cfg.seed, game), f"game {game}",
                   names=card_labels(cs), game=table)
    return rec.winner_seat, rec.turns, rec.decisions, rec.cards_played


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return save_games(load_set("classic"), ["classic"], CFG, 6, tmp_path_factory.mktemp("games"))


def test_each_saved_game_replays_move_for_move_to_the_simulations_result(saved: list[Path]) -> None:
    assert [p.name for p in saved] == [f"classic-seed3-game{g}.yaml" for g in range(6)]
    for g, path in enumerate(saved):
        game = Replay(load_scenario(path))
        assert game.run() == []  # the file's own `expect:` holds
        s = game.state
        winner, turns, decisions, played = _simulated("classic", CFG, g)
        assert s.result is not None and s.result.winner == winner and s.result.turns == turns
        moves = [e.move for e in s.log or () if isinstance(e, Moved)]
        assert len(moves) == decisions
        mine: dict[str, int] = {}
        for m in moves:
            if m.kind in CARD_PLAYS and m.card >= 0:
                mine[s.game.info[m.card].name] = mine.get(s.game.info[m.card].name, 0) + 1
        assert mine == played
    assert any(_reshuffles(p) for p in saved)  # the generator after the deal matters to these games


def test_the_deal_mark_is_what_makes_a_reshuffling_game_replay(saved: list[Path], tmp_path: Path) -> None:
    """Without `deck_shuffled` the generator starts afresh and a game that reshuffles goes another way."""
    path = next(p for p in saved if _reshuffles(p))
    unmarked = tmp_path / "unmarked.yaml"
    unmarked.write_text(path.read_text(encoding="utf-8").replace("deck_shuffled: true\n", ""), encoding="utf-8")
    try:
        unmet = Replay(load_scenario(unmarked)).run()
    except ScenarioError:
        return  # a scripted move that is no longer legal
    assert unmet


def _reshuffles(path: Path) -> bool:
    game = Replay(load_scenario(path))
    game.run()
    return any(isinstance(e, Reshuffle) for e in game.state.log or ())


def test_the_replay_viewer_opens_a_saved_game_to_its_end(saved: list[Path]) -> None:
    spec = load_scenario(saved[1])
    data = replay_data(spec, "en")
    frames = data.frames
    assert len(frames) == 1 + sum(isinstance(e, Moved) for e in _final_log(saved[1]))


def _final_log(path: Path) -> list[object]:
    game = Replay(load_scenario(path))
    game.run()
    return list(game.state.log or [])


def test_jobs_1_and_2_save_the_same_files(tmp_path: Path) -> None:
    outs = []
    for jobs in (1, 2):
        folder = tmp_path / f"jobs{jobs}"
        result = CliRunner().invoke(main, ["simulate", "--set", "beer", "--games", "30", "--players", "3", "--seed",
                                           "11", "--agent", "greedy,random", "--jobs", str(jobs), "--save-games", "4",
                                           "--games-dir", str(folder)])
        assert result.exit_code == 0, result.output
        assert f"saved 4 games in {folder}" in result.output
        outs.append({p.name: p.read_bytes() for p in sorted(folder.iterdir())})
    assert list(outs[0]) == [f"beer-seed11-game{g}.yaml" for g in range(4)]
    assert outs[0] == outs[1]


def test_json_on_stdout_stays_json_alone(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", "--set", "lunch", "--games", "3", "--players", "2", "--json", "-",
                                       "--save-games", "1", "--games-dir", str(tmp_path)])
    assert result.exit_code == 0
    assert result.stdout.lstrip().startswith("{") and "saved 1 game in" in result.stderr
    assert (tmp_path / "lunch-seed0-game0.yaml").is_file()


@pytest.mark.parametrize(("extra", "message"), [
    (["--games", "3", "--save-games", "4"], "error: --save-games 4 asks for more games than --games 3 plays"),
    (["--agent", "search", "--budget", "5ms", "--save-games", "1"],
     "error: --save-games needs the search bot's --budget in iterations"),
])
def test_save_games_that_cannot_be_saved_are_refused_before_the_run(tmp_path: Path, extra: list[str],
                                                                     message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--set", "lunch", "--games-dir", str(tmp_path / "g"), *extra])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "g").exists()


def test_a_deck_shuffled_scenario_must_hold_the_whole_deck(saved: list[Path], tmp_path: Path) -> None:
    lines = saved[0].read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.startswith("draw:"))
    lines[at] = "draw: [Block]\n"  # the rest of the pile's lines go too: they are the flow list's continuation
    while not lines[at + 1].startswith("deck_shuffled"):
        del lines[at + 1]
    bad = tmp_path / "short.yaml"
    bad.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    d = err.value.diagnostics[0]
    assert "deck_shuffled: the hands and piles must hold the whole deck" in d.message
    assert d.line == at + 2 and lines[at + 1].startswith("deck_shuffled")
