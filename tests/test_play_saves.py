"""Saved games that travel and go on: a save replays from another folder, says when its set changed (the card
named), resumes with `play --resume`, and steps through the replay viewer's frames; rematch and new deal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.engine.events import Damage, Healed
from cardgen.engine.replay import Replay, final_state
from cardgen.loader.scenario import load_scenario
from cardgen.play.replay_view import replay_data
from cardgen.play.save import fingerprint
from cardgen.play.table import MoveRefused, ResumeError, Table


def _move_json(table: Table, rng: random.Random) -> dict[str, object]:
    m = rng.choice(table.state.moves)
    return {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
            "version": table.version}


def _play(table: Table, rng: random.Random, decisions: int = 10_000) -> None:
    """Everyone plays (people at random, bots as they choose) for `decisions` decisions or to the end."""
    for _ in range(decisions):
        if table.state.result is not None:
            return
        p = table.state.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:
            table.play(p, _move_json(table, rng))


@pytest.fixture
def home_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home-made set `mine` (Lunch Money and a Double Noogie) in a folder of its own, the current folder."""
    here = tmp_path / "games"
    here.mkdir()
    res = CliRunner().invoke(main, ["new", str(here / "mine"), "--base", "lunch"])
    assert res.exit_code == 0, res.output
    monkeypatch.chdir(here)
    return here / "mine"


def test_a_save_of_a_bare_set_folder_replays_from_another_folder(home_made: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.open(["mine"], players=2, bots="greedy", seed=3)  # `--set mine`: the folder, named bare
    _play(table, random.Random(1), 40)
    save = tmp_path / "Downloads" / "mine-game.yaml"
    save.parent.mkdir()
    save.write_text(table.save(0), encoding="utf-8")
    monkeypatch.chdir(save.parent)
    res = CliRunner().invoke(main, ["replay", save.name])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["final"] == json.loads(json.dumps(final_state(table.state)))
    assert f"sets: {home_made.resolve()}; every card as when the game was saved" in res.stderr


def test_a_save_whose_set_changed_names_the_card(home_made: Path, tmp_path: Path) -> None:
    table = Table.open([str(home_made)], players=2, bots="greedy", seed=5)
    _play(table, random.Random(2), 30)
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    cards = home_made / "my-cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("damage: [2, 2]", "damage: [3, 3]"),
                     encoding="utf-8")
    set_yaml = home_made / "set.yaml"
    original = set_yaml.read_text(encoding="utf-8")
    set_yaml.write_text(original + "override:\n  - {name: Jab, damage: 5}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(save)])
    warnings = [line for line in res.stderr.splitlines() if ": warning: " in line]
    assert any("card 'Double Noogie' changed since this game was saved" in w for w in warnings), res.stderr
    assert any("card 'Jab' changed since this game was saved" in w for w in warnings), res.stderr
    assert all(w.startswith(f"{save}:") for w in warnings)
    assert "changed since the game was saved (2 warnings above)" in res.stderr
    assert "Traceback" not in res.output
    # Fewer copies of a card than the saved game holds: refused at the line naming it.
    set_yaml.write_text(original + "override:\n  - {name: Jab, count: 1}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(save)])
    assert res.exit_code == 1 and "more copies of 'Jab' than the deck has (1)" in res.stderr, res.stderr
    assert res.stderr.startswith(f"{save}:") and "Traceback" not in res.output


def test_a_translated_table_saves_no_change(tmp_path: Path) -> None:
    table = Table.open(["lunch"], players=2, bots="greedy", seed=4, lang="de")
    _play(table, random.Random(3), 20)
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(save)])
    assert res.exit_code == 0 and "warning" not in res.stderr, res.stderr


def test_a_resumed_game_is_the_saved_game_and_plays_on(tmp_path: Path) -> None:
    table = Table.open(["beer"], players=3, bots="human,greedy", seed=9)
    _play(table, random.Random(4), 60)
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    again = Table.resume(save, bots="human,greedy")
    assert fingerprint(again.state) == fingerprint(table.state)
    assert [s.kind for s in again.seats] == ["human", "human", "greedy"]
    assert again.seats[0].token and again.seats[0].token != table.seats[0].token
    _play(again, random.Random(5))
    assert again.state.result is not None
    res = CliRunner().invoke(main, ["replay", str(_saved(tmp_path, again))])
    assert res.exit_code == 0, res.output


def _saved(tmp_path: Path, table: Table) -> Path:
    path = tmp_path / "again.yaml"
    path.write_text(table.save(0), encoding="utf-8")
    return path


def test_only_a_save_of_a_table_resumes(tmp_path: Path) -> None:
    scenario = tmp_path / "hand-set.yaml"
    scenario.write_text("sets: lunch\nplayers:\n  - {name: Ann, life: 3, hand: [Jab]}\n  - {name: Bob}\n"
                        "moves: []\n", encoding="utf-8")
    with pytest.raises(ResumeError, match="only a game saved by `cardgen play` can be resumed"):
        Table.resume(scenario)
    res = CliRunner().invoke(main, ["play", "--resume", str(scenario), "--set", "lunch", "--no-browser"])
    assert res.exit_code == 1 and "give no --set" in res.stderr


def test_rematch_and_new_deal_keep_the_seats_and_links() -> None:
    table = Table.open(["lunch"], players=3, bots="human,greedy", seed=6)
    tokens = [s.token for s in table.seats]
    first_hands, first_version = table.opening.hands, table.version
    with pytest.raises(MoveRefused) as early:
        table.next_game(0, {"what": "rematch", "version": table.version})
    assert early.value.status == 409
    _play(table, random.Random(6))
    for bad, status in (({"what": "again", "version": table.version}, 400), ({"what": [1]}, 400),
                        ("rematch", 400), ({"what": "rematch", "version": table.version, "x": 1}, 400)):
        with pytest.raises(MoveRefused) as refused:
            table.next_game(0, bad)
        assert refused.value.status == status
    with pytest.raises(MoveRefused) as guest:
        table.next_game(1, {"what": "rematch", "version": table.version})
    assert guest.value.status == 403
    table.next_game(0, {"what": "rematch", "version": table.version, "game": 1})
    assert table.game == 2 and table.version == first_version and table.state.result is None
    assert table.opening.hands == first_hands and [s.token for s in table.seats] == tokens
    assert [list(h) for h in table.state.hands] == [list(h) for h in first_hands]
    _play(table, random.Random(7))
    table.next_game(0, {"what": "deal", "version": table.version})
    assert table.game == 3 and table.opening.hands != first_hands and [s.token for s in table.seats] == tokens
    # A page still showing the last game cannot move in this one.
    m = table.state.moves[0]
    with pytest.raises(MoveRefused):
        table.play(0, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                       "version": table.version, "game": 2})


def _life_in(log: list[Any], n: int, life: int) -> list[int]:
    out = [life] * n
    for e in log:
        if isinstance(e, Damage | Healed):
            out[e.player] = e.life
    return out


def test_the_replay_viewer_frames_follow_the_engine_log(tmp_path: Path) -> None:
    table = Table.open(["classic"], players=3, bots="greedy", seed=2)
    _play(table, random.Random(8))
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    spec = load_scenario(save)
    data = replay_data(spec, "en")
    assert not data.error
    # The runner's own engine, move by move: the log's length after each move.
    lengths: list[int] = []

    class Lengths:
        def before(self, s: Any) -> None:
            pass

        def after(self, s: Any, move: Any) -> list[str]:
            lengths.append(len(s.log or []))
            return []

    game = Replay(spec)
    assert game.run(Lengths()) == []
    assert len(data.frames) == len(lengths) + 1
    start = table.state.game.start_life
    log = list(game.state.log or [])
    for frame, n in zip(data.frames[1:], lengths, strict=True):
        assert [p.life for p in frame.players] == _life_in(log[:n], 3, start), frame.step
    last = data.frames[-1]
    assert [p.hand for p in last.players] == [list(h) for h in table.state.hands]
    winner = table.state.result.winner if table.state.result is not None else None
    assert winner is not None and last.said.startswith(f"{table.state.game.names[winner]} wins (")
    assert last.to_act == -1
    assert data.log[-1] == last.last and last.lines == len(data.log)
