"""`cardgen play` without a browser: seat tokens, refused moves, bot failures, saved games and the log's words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from cardgen.cli.main import main
from cardgen.engine import moves as mv
from cardgen.engine.events import log_json
from cardgen.engine.moves import Move
from cardgen.engine.replay import final_state
from cardgen.engine.state import TurnF
from cardgen.engine.views import PlayerView, observe
from cardgen.paths import bundled_set_names
from cardgen.play.art import TableArt
from cardgen.play.save import fingerprint
from cardgen.play.server import TableServer
from cardgen.play.table import MoveRefused, SeatError, Table, seat_kinds
from cardgen.play.wording import log_lines
from cardgen.sim.agents import Budget


def _move_json(m: Move, version: int) -> dict[str, object]:
    return {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice), "version": version}


def _humans_to(table: Table, seat: int, rng: random.Random, limit: int = 500) -> bool:
    """Play random legal moves for everyone (people through `Table.play`) until `seat` decides; False if the
    game ended first."""
    for _ in range(limit):
        s = table.state
        if s.result is not None:
            return False
        if s.to_act == seat:
            return True
        p = s.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:
            table.play(p, _move_json(rng.choice(s.moves), table.version))
    return False


@pytest.fixture
def friends() -> Table:
    """Ann (the host) and Bob are people, Cat is a bot."""
    return Table.open(["lunch"], players=3, bots="human,greedy", seed=4)


def test_each_person_gets_an_own_unguessable_token(friends: Table) -> None:
    tokens = [s.token for s in friends.seats]
    assert tokens[2] == ""  # a bot has none
    assert tokens[0] != tokens[1] and min(len(t) for t in tokens[:2]) >= 24
    assert [friends.seat_of(t) for t in tokens[:2]] == [0, 1]
    assert friends.seat_of("") is None and friends.seat_of(tokens[0][:-1]) is None
    assert friends.seat_of(tokens[0] + "x") is None


def test_a_view_shows_no_other_hand(friends: Table) -> None:
    """Ann's view is the same whatever the cards she cannot see are: deal them again at random, and nothing in
    what her token reads changes."""
    rng = random.Random(1)
    for seat in (0, 1):
        before = friends.view(seat)
        for k in range(5):
            other = observe(friends.state, seat).determinized(random.Random(k))
            other.log = list(friends.state.log or [])  # the log is public (a deal made for a search keeps none)
            assert other.hands[seat] == friends.state.hands[seat]
            assert other.hands != friends.state.hands or other.draw != friends.state.draw
            real = friends.state
            friends.state = other
            try:
                assert friends.view(seat) == before
            finally:
                friends.state = real
        assert [c["card"] for c in before["hand"]] == list(friends.state.hands[seat])  # type: ignore[index]
    assert _humans_to(friends, 1, rng)


def _client(table: Table) -> TestClient:
    return TestClient(TableServer(table, TableArt(table.cs), pace=0).app, base_url="http://127.0.0.1")


def test_a_token_cannot_act_for_another_seat_and_forgeries_change_nothing(friends: Table) -> None:
    rng = random.Random(2)
    assert _humans_to(friends, 1, rng)  # Bob's decision
    ann, bob = friends.seats[0].token, friends.seats[1].token
    legal_for_bob = list(friends.state.moves)
    with _client(friends) as client:
        before = fingerprint(friends.state)
        version = friends.version
        attempts: list[tuple[str, Any, int]] = [
            (ann, _move_json(legal_for_bob[0], version), 403),  # Bob's move sent with Ann's token
            ("not-a-token", _move_json(legal_for_bob[0], version), 404),
            (bob + "x", _move_json(legal_for_bob[0], version), 404),
            (bob, _move_json(legal_for_bob[0], version - 1), 409),  # a stale page
            (bob, _move_json(Move(mv.PLAY, 10_000, 0), version), 400),  # a card nobody holds
            (bob, {**_move_json(legal_for_bob[0], version), "seat": 0}, 400),  # a forged extra field
            (bob, {**_move_json(legal_for_bob[0], version), "kind": "win"}, 400),
            (bob, {**_move_json(legal_for_bob[0], version), "card": True}, 400),
            (bob, {**_move_json(legal_for_bob[0], version), "target": "0"}, 400),
            (bob, {**_move_json(legal_for_bob[0], version), "choice": "sideways"}, 400),  # no such choice
            (bob, {**_move_json(legal_for_bob[0], version), "choice": ["drop"]}, 400),
            (bob, [1, 2, 3], 400),
            (bob, "play", 400),
        ]
        for token, body, status in attempts:
            r = client.post(f"/api/{token}/move", json=body)
            assert r.status_code == status, (body, r.text)
            assert "error" in r.json()
            assert fingerprint(friends.state) == before
        for raw in (b"{", b"\xff\xfe", b"", b"{" * 10_000, b" " * 5000):
            r = client.post(f"/api/{bob}/move", content=raw, headers={"Content-Type": "application/json"})
            assert r.status_code in (400, 413), raw[:10]
            assert fingerprint(friends.state) == before
        # Another seat's view, hand or save cannot be read with a wrong token, and a guest cannot save mid-game.
        for path in ("state", "save", "events"):
            assert client.get(f"/api/wrong/{path}").status_code == 404
        assert client.get(f"/t/{bob}x").status_code == 404
        r = client.get(f"/api/{bob}/save")
        assert r.status_code == 403
        state = client.get(f"/api/{bob}/state").json()
        assert state["seat"] == 1 and [c["card"] for c in state["hand"]] == friends.state.hands[1]
        assert "hands" not in json.dumps(state)
        # Bob's real move goes through, and answers Bob's new view.
        r = client.post(f"/api/{bob}/move", json=_move_json(legal_for_bob[0], version))
        assert r.status_code == 200 and r.json()["version"] == friends.version > version


class _Broken:
    """A bot with a bug: it fails on every other decision and answers an illegal move on the rest."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: PlayerView) -> Move:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("bot bug")
        return Move(mv.PLAY, 9999, 0)


def test_a_failing_bot_does_not_end_the_game() -> None:
    broken = _Broken()
    table = Table.open(["classic"], players=2, bots="random", seed=3,
                       agent_factory=lambda name, seed, budget: broken)
    rng = random.Random(0)
    _humans_to(table, -1, rng, limit=5000)
    assert table.state.result is not None
    assert broken.calls > 2
    texts = [n for _, n in table.notes]
    assert any("failed (RuntimeError: bot bug)" in t for t in texts)
    assert any("chose an illegal move" in t for t in texts)


def test_seat_options_are_checked() -> None:
    assert seat_kinds(3, None) == ["human", "search", "search"]
    assert seat_kinds(3, "greedy,human") == ["human", "greedy", "human"]
    for players, bots in ((1, None), (13, None), (3, "greedy,random,search"), (2, "grredy")):
        with pytest.raises(SeatError):
            seat_kinds(players, bots)


def _replay(tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "saved.yaml"
    path.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.stdout)
    return out


@pytest.mark.parametrize("sets", [*([s] for s in bundled_set_names()), ["lunch", "beer"]])
def test_a_game_saved_at_any_moment_replays_to_the_same_state(sets: list[str], tmp_path: Path) -> None:
    """Saved at moments picked at random, in the middle of a discard among them, and at the end."""
    table = Table.open(sets, players=3, bots="random,greedy", seed=7)
    rng = random.Random(5)
    saves = mid_discard = 0
    while table.state.result is None:
        s = table.state
        top = s.stack[-1] if s.stack else None
        in_discard = isinstance(top, TurnF) and top.phase == "discard" and s.to_act == 0
        if saves < 12 and (in_discard or rng.random() < 0.04):
            out = _replay(tmp_path, table.save(0))
            assert out["final"] == json.loads(json.dumps(final_state(s)))
            assert out["log"] == json.loads(json.dumps(log_json(s.game, s.log or [])))
            saves += 1
            mid_discard += in_discard
        p = s.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:  # the person likes discarding, so that saves in the middle of a discard come up
            discards = [m for m in s.moves if m.kind == mv.DISCARD]
            m = rng.choice(discards) if discards and rng.random() < 0.5 else rng.choice(s.moves)
            table.play(0, _move_json(m, table.version))
    out = _replay(tmp_path, table.save(0))
    assert out["final"]["outcome"] is not None
    assert out["final"] == json.loads(json.dumps(final_state(table.state)))
    assert mid_discard >= 1 and saves >= 3


def test_a_guest_may_save_once_the_game_is_over() -> None:
    table = Table.open(["beer"], players=2, bots="human", seed=1)
    with pytest.raises(MoveRefused):
        table.save(1)
    _humans_to(table, -1, random.Random(3), limit=5000)
    assert table.state.result is not None
    assert "winner" in table.save(1)


def test_the_log_says_it_in_the_rules_words() -> None:
    table = Table.open(["lunch"], players=2, bots="greedy", seed=2, budget=Budget(iterations=2))
    _humans_to(table, -1, random.Random(1), limit=5000)
    s = table.state
    lines = [ln.text for ln in log_lines(s.game, s.log or [])]
    names = s.game.names
    text = "\n".join(lines)
    assert lines[0].startswith(f"Turn 1: {names[0]}.")
    assert " plays " in text and " takes " in text and "Game over: " in lines[-1]
    # every point of damage in the log is said, with the counters left
    damage = [e for e in log_json(s.game, s.log or []) if e["event"] == "damage"]
    said = text.count(" takes ")
    assert said == len(damage)
    for e in damage[:5]:
        assert f"{e['player']} takes {e['amount']} ({e['life']} left)." in text


def test_a_home_made_set_folder_is_saved_by_its_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    res = CliRunner().invoke(main, ["new", str(tmp_path / "myset"), "--base", "lunch"])
    assert res.exit_code == 0, res.output
    monkeypatch.chdir(tmp_path)
    table = Table.open(["./myset"], players=2, bots="greedy", seed=3)
    rng = random.Random(4)
    for _ in range(30):
        if not _humans_to(table, 0, rng):
            break
        table.play(0, _move_json(rng.choice(table.state.moves), table.version))
    text = table.save(0)
    assert str((tmp_path / "myset").resolve()) in text
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = _replay(elsewhere, text)
    assert out["final"] == json.loads(json.dumps(final_state(table.state)))


def _wait_version(client: TestClient, token: str, past: int, timeout: float = 10.0) -> tuple[int, float]:
    import time

    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = client.get(f"/api/{token}/state").json()["version"]
        if v > past:
            return v, time.monotonic()
        time.sleep(0.01)
    raise AssertionError("the bots did not move")


def test_the_bots_move_at_their_pace_and_wait_for_a_person() -> None:
    import time

    table = Table.open(["lunch"], players=3, bots="random", seed=6)
    token = table.host.token
    pace = 0.15
    with TestClient(TableServer(table, TableArt(table.cs), pace=pace).app, base_url="http://127.0.0.1") as client:
        assert table.state.to_act == 0
        time.sleep(2 * pace)
        assert table.version == client.get(f"/api/{token}/state").json()["version"]  # nobody moves for Ann
        version = table.version
        pas = next(m for m in table.state.moves if m.kind == mv.PASS)
        t0 = time.monotonic()
        r = client.post(f"/api/{token}/move", json=_move_json(pas, version))
        assert r.status_code == 200
        after_ann = r.json()["version"]
        _, t1 = _wait_version(client, token, after_ann)
        assert t1 - t0 >= pace * 0.9  # the first bot move came a pace after Ann's
        # the events stream sends the view now, and the next one once a bot has moved
        with client.stream("GET", f"/api/{token}/events") as stream:
            lines = stream.iter_lines()
            first = next(ln for ln in lines if ln.startswith("data: "))
            assert json.loads(first[6:])["seat"] == 0
            if table.state.to_act != 0 and table.state.result is None:
                second = next(ln for ln in lines if ln.startswith("data: "))
                assert json.loads(second[6:])["version"] > json.loads(first[6:])["version"]
