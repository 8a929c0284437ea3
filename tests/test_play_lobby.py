"""The lobby of a running table: the host picks the next table's sets, seats and language and starts it; the
links stay the people's, a stale page cannot move in the new game, and every wrong request is refused with a
reason and changes nothing. (The pages themselves, in a browser: tests/test_play_browser.py.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardgen.play.art import TableArt
from cardgen.play.lobby import _names
from cardgen.play.save import fingerprint
from cardgen.play.server import TableServer
from cardgen.play.table import Table

WRONG: list[Any] = [None, True, 1, 1.5, "x", [], {}, [1], {"a": 1}]


def _finish(table: Table, rng: random.Random) -> None:
    """Everyone plays (people at random, bots as they choose) to the end of the game."""
    while table.state.result is None:
        p = table.state.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:
            m = rng.choice(table.state.moves)
            table.play(p, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                           "version": table.version, "game": table.game})


def _unrendered(table: Table) -> TableArt:
    return TableArt(table.cs)  # these tests ask for no picture


@pytest.fixture
def served() -> Iterator[tuple[TableServer, TestClient]]:
    table = Table.open(["lunch", "beer"], players=4, bots="human,greedy,human", seed=5, lang="en")
    server = TableServer(table, TableArt(table.cs), pace=0, art_for=_unrendered)
    with TestClient(server.app, base_url="http://127.0.0.1:8765") as client:
        yield server, client


def test_the_lobby_starts_the_next_table_and_the_links_stay_the_peoples(
        served: tuple[TableServer, TestClient]) -> None:
    server, client = served
    old = server.table
    ann, bob, dan = (s.token for s in old.seats if not s.bot)
    data = client.get(f"/api/{ann}/lobby").json()
    assert [s["title"] for s in data["sets"]] == ["Lunch Money", "Beer Money"]
    assert all(s["chosen"] for s in data["sets"])
    assert [s["kind"] for s in data["seats"]] == ["human", "human", "greedy", "human"]
    assert {"en", "de"} <= {lang["code"] for lang in data["langs"]} and data["lang"] == "en"
    assert data["table"] == f"http://127.0.0.1:8765/t/{ann}" and data["over"] is False
    _finish(old, random.Random(3))
    old_move = {"kind": "pass", "card": -1, "target": -1, "choice": "", "version": 0, "game": old.game}
    r = client.post(f"/api/{ann}/lobby", json={"sets": [old.sets[1]], "seats": ["human", "random", "human"],
                                               "lang": "de"})
    assert r.status_code == 200, r.text
    new = server.table
    assert new is not old and new.number == 2 and new.game == old.game + 1
    assert new.lang == "de" and new.chosen_sets == (old.sets[1],) and new.cs.name == "beer"
    assert [(s.name, s.kind) for s in new.seats] == [("Ann", "human"), ("Cat", "random"), ("Bob", "human")]
    assert new.seat_of(ann) == 0 and new.seat_of(bob) == 2 and new.seat_of(dan) is None
    assert r.json() == {"table": f"http://127.0.0.1:8765/t/{ann}",
                        "links": [{"name": "Bob", "link": f"http://127.0.0.1:8765/t/{bob}", "kept": True}]}
    view = client.get(f"/api/{bob}/state").json()
    assert view["seat"] == 2 and view["table_no"] == 2 and view["lang"] == "de" and view["game"] == new.game
    assert client.get(f"/api/{dan}/state").status_code == 404  # his seat is gone with the table
    assert client.get(f"/t/{ann}").text.startswith('<!doctype html>\n<html lang="de">')
    # a page of the old game cannot move in the new one
    before = fingerprint(new.state)
    assert client.post(f"/api/{ann}/move", json=old_move).status_code in (400, 409)
    assert fingerprint(new.state) == before


def test_a_new_friend_seat_gets_a_new_link_and_more_seats_get_names(served: tuple[TableServer, TestClient]) -> None:
    server, client = served
    old = server.table
    ann = old.host.token
    _finish(old, random.Random(4))
    seats = ["human", "human", "human", "human", "search", "greedy"]
    r = client.post(f"/api/{ann}/lobby", json={"sets": list(old.sets), "seats": seats, "lang": "en"})
    assert r.status_code == 200, r.text
    links = r.json()["links"]
    assert [(x["name"], x["kept"]) for x in links] == [("Bob", True), ("Dan", True), ("Cat", False)]
    new = server.table
    assert [s.name for s in new.seats] == ["Ann", "Bob", "Dan", "Cat", "Eve", "Fay"]
    assert new.seat_of(links[2]["link"].rsplit("/", 1)[1]) == 3
    assert new.cs.total == old.cs.total  # both sets again, mixed as before


def test_names_carried_to_the_new_seats() -> None:
    old = Table.open(["lunch"], players=3, bots="human,greedy", names="Zoe,Yan,Xia")
    assert _names(old, ["human", "greedy", "greedy", "human"]) == ["Zoe", "Xia", "Ann", "Yan"]
    assert _names(old, ["human", "greedy"]) == ["Zoe", "Yan"]


@pytest.mark.parametrize("body", [
    *WRONG,
    {"sets": [], "seats": ["human", "greedy"], "lang": "en"},
    {"sets": ["nowhere"], "seats": ["human", "greedy"], "lang": "en"},
    {"sets": "lunch", "seats": ["human", "greedy"], "lang": "en"},
    {"sets": ["lunch", "lunch"], "seats": ["human", "greedy"], "lang": "en"},
    {"sets": ["lunch"], "seats": ["greedy", "human"], "lang": "en"},
    {"sets": ["lunch"], "seats": ["human"], "lang": "en"},
    {"sets": ["lunch"], "seats": ["human"] * 13, "lang": "en"},
    {"sets": ["lunch"], "seats": ["human", "genius"], "lang": "en"},
    {"sets": ["lunch"], "seats": ["human", 1], "lang": "en"},
    {"sets": ["lunch"], "seats": ["human", "greedy"], "lang": "xx"},
    {"sets": ["lunch"], "seats": ["human", "greedy"], "lang": ["en"]},
    {"sets": ["lunch"], "seats": ["human", "greedy"], "lang": "en", "seed": 1},
])
def test_a_wrong_lobby_request_is_refused_with_a_reason_and_changes_nothing(
        served: tuple[TableServer, TestClient], body: Any) -> None:
    server, client = served
    old = server.table
    _finish(old, random.Random(5))
    r = client.post(f"/api/{old.host.token}/lobby", json=body)
    assert r.status_code == (415 if body is None else 400) and r.json()["error"], r.text  # None: no body at all
    assert server.table is old


def test_only_the_host_at_the_end_of_a_game_starts_the_next_table(served: tuple[TableServer, TestClient]) -> None:
    server, client = served
    old = server.table
    ann, bob = old.host.token, old.seats[1].token
    body = {"sets": ["lunch"], "seats": ["human", "greedy"], "lang": "en"}
    r = client.post(f"/api/{ann}/lobby", json=body)
    assert r.status_code == 409 and r.json()["error"] == "the game is not over yet"
    for path in (f"/lobby/{bob}", f"/api/{bob}/lobby"):
        r = client.get(path)
        assert r.status_code == 403 and r.json()["error"] == "only the seat that started the table starts the next game"
    assert client.get("/lobby/nobody").status_code == 404 and client.get("/api/nobody/lobby").status_code == 404
    r = client.post(f"/api/{ann}/lobby", content=b"{}", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    page = client.get(f"/lobby/{ann}")
    assert page.status_code == 200 and '<html lang="en">' in page.text and "Start the new table" in page.text
    assert server.table is old


def test_the_lobby_speaks_the_tables_language() -> None:
    table = Table.open(["lunch"], players=2, bots="greedy", seed=1, lang="de")
    server = TableServer(table, TableArt(table.cs), pace=0, art_for=_unrendered)
    with TestClient(server.app, base_url="http://127.0.0.1:8765") as client:
        page = client.get(f"/lobby/{table.host.token}").text
        assert '<html lang="de">' in page and "Neuen Tisch starten" in page
        r = client.post(f"/api/{table.host.token}/lobby", json={"sets": ["x"], "seats": ["human", "greedy"],
                                                                  "lang": "de"})
        assert r.json()["error"] == "wähle eines oder mehrere der Sets dieses Tisches"
        langs = client.get(f"/api/{table.host.token}/lobby").json()["langs"]
        assert {"code": "de", "name": "Deutsch"} in langs and {"code": "en", "name": "English"} in langs
