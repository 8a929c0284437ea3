"""`cardgen play` against hostile and careless clients: foreign hosts and pages, wrong types, idle sockets, Ctrl-C
while a bot thinks, and a set `build` refuses. Each through a real HTTP client or the real command."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from children import Lines, as_from_a_terminal
from click.testing import CliRunner
from starlette.testclient import TestClient

from cardgen.cli.main import main
from cardgen.play.art import TableArt
from cardgen.play.guard import host_refusal, origin_refusal
from cardgen.play.save import fingerprint
from cardgen.play.server import TableServer
from cardgen.play.table import Table

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def table() -> Table:
    return Table.open(["lunch"], players=3, bots="human,greedy", seed=4)


@pytest.fixture(scope="module")
def client(table: Table) -> Any:
    with TestClient(TableServer(table, TableArt(table.cs), pace=0).app, base_url="http://127.0.0.1:8765") as c:
        yield c


def _move(table: Table) -> dict[str, object]:
    m = table.state.moves[0]
    return {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
            "version": table.version}


@pytest.mark.parametrize(("host", "port", "refused"), [
    ("127.0.0.1:8765", 8765, False), ("localhost:8765", 8765, False), ("[::1]:8765", 8765, False),
    ("192.168.1.20:8765", 8765, False), ("LOCALHOST:8765", 8765, False),
    ("evil.example:8765", 8765, True), ("evil.example", 80, True), ("127.0.0.1.nip.io:8765", 8765, True),
    ("127.0.0.1:9999", 8765, True), ("127.0.0.1", 8765, True), ("", 8765, True), ("127.0.0.1:x", 8765, True),
    ("127.0.0.1:87650", 8765, True), ("[::1", 8765, True),
])
def test_a_host_is_the_tables_own_address(host: str, port: int, refused: bool) -> None:
    assert (host_refusal(host, port) is not None) is refused


def test_an_origin_is_the_tables_own_page() -> None:
    assert origin_refusal(None, None, "127.0.0.1:8765") is None  # not from a page (curl, a test)
    assert origin_refusal("http://127.0.0.1:8765", "same-origin", "127.0.0.1:8765") is None
    assert origin_refusal("http://evil.example", None, "127.0.0.1:8765") is not None
    assert origin_refusal("http://127.0.0.1:9000", None, "127.0.0.1:8765") is not None  # another port
    assert origin_refusal("null", None, "127.0.0.1:8765") is not None  # a sandboxed frame, a file
    assert origin_refusal(None, "cross-site", "127.0.0.1:8765") is not None


def test_foreign_hosts_origins_and_plain_text_moves_are_refused(table: Table, client: Any) -> None:
    host = table.host.token
    before = fingerprint(table.state)
    body = json.dumps(_move(table))
    tries = [
        ({"Host": "evil.example"}, "application/json", 403),
        ({"Host": "evil.example:8765"}, "application/json", 403),
        ({"Origin": "http://evil.example"}, "application/json", 403),
        ({"Origin": "http://evil.example"}, "text/plain", 403),
        ({"Origin": "http://127.0.0.1:9000"}, "application/json", 403),
        ({"Sec-Fetch-Site": "cross-site"}, "application/json", 403),
        ({}, "text/plain", 415),
        ({}, "application/x-www-form-urlencoded", 415),
        ({}, "", 415),
    ]
    for headers, kind, status in tries:
        r = client.post(f"/api/{host}/move", content=body, headers={**headers, "Content-Type": kind})
        assert r.status_code == status, (headers, kind, r.text)
        assert r.json()["error"]
        assert fingerprint(table.state) == before
    assert client.get(f"/t/{host}", headers={"Host": "evil.example"}).status_code == 403
    assert client.get(f"/api/{host}/state", headers={"Host": "evil.example"}).status_code == 403
    # The table's own page, as a browser sends it, is played.
    r = client.post(f"/api/{host}/move", content=body, headers={
        "Content-Type": "application/json; charset=utf-8", "Origin": "http://127.0.0.1:8765",
        "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200, r.text


# Values of every JSON type, nested and not, for each field of a move.
WRONG = [None, True, 1.5, -2, 10**40, "", "x" * 5000, [], [1], {}, {"a": 1}, [[[]]]]


def test_a_move_of_wrong_types_is_refused_with_a_message(table: Table, client: Any) -> None:
    """Every field of a move given every wrong JSON type, bodies that are not objects, and a deep array:
    a 4xx with a message each (the client raises any server exception), the game unchanged."""
    token = table.seats[table.state.to_act].token or table.host.token
    before = fingerprint(table.state)
    good = _move(table)
    bodies: list[Any] = [{**good, key: value} for key in ("kind", "card", "target", "choice", "version")
                         for value in WRONG if value != good[key]]
    bodies += WRONG
    for body in bodies:
        r = client.post(f"/api/{token}/move", json=body)
        assert 400 <= r.status_code < 500 and r.json()["error"], (body, r.text)
    for raw in (b"[" * 2000 + b"]" * 2000, b'{"kind":' * 1500 + b"1" + b"}" * 1500, b"1e999999", b"NaN",
                b'"\\ud800"', b"\x00", "{\"kind\": \"\u00e9\"}".encode()):
        r = client.post(f"/api/{token}/move", content=raw, headers={"Content-Type": "application/json"})
        assert 400 <= r.status_code < 500 and r.json()["error"], (raw[:20], r.text)
    assert fingerprint(table.state) == before


def test_every_route_answers_wrong_paths_with_a_4xx_and_a_message(table: Table, client: Any) -> None:
    token = table.host.token
    digits = "9" * 5000
    paths = [f"/card/{digits}.png", f"/rules-{digits}.png", "/card/-1.png", "/card/1.5.png", "/card/%C3%A9.png",
             "/card/١.png", "/rules-x.png", "/rules-99999.png", f"/card/{'0' * 7}.png", f"/t/{digits}",
             f"/api/{digits}/state", f"/api/{token}/nothing", "/api//state", "/static/../table.py",
             "/static/%2e%2e/table.py", "/nothing", f"/t/{token}/more", "/back.png/x", f"/lobby/{digits}",
             f"/api/{digits}/lobby", f"/lobby/{token}/more"]
    for path in paths:
        r = client.get(path)
        assert 400 <= r.status_code < 500, (path, r.status_code)
        assert r.json()["error"], path
    for path in (f"/api/{token}/state", f"/api/{token}/save", "/card/0.png", f"/t/{token}"):
        r = client.post(path, content=b"{}", headers={"Content-Type": "application/json"})
        assert r.status_code == 405 and r.json()["error"], path
    r = client.get(f"/api/{token}/move")
    assert r.status_code == 405
    assert client.get("/favicon.ico").content.startswith(b"\x89PNG")
    for body in [*WRONG, *({"what": value} for value in WRONG), *({"what": "rematch", "version": v} for v in WRONG)]:
        r = client.post(f"/api/{token}/next", json=body)
        assert 400 <= r.status_code < 500 and r.json()["error"], (body, r.text)
    for body in [*WRONG, *({"sets": v, "seats": ["human", "greedy"], "lang": "en"} for v in WRONG),
                 *({"sets": ["lunch"], "seats": v, "lang": "en"} for v in WRONG),
                 *({"sets": ["lunch"], "seats": ["human", "greedy"], "lang": v} for v in WRONG)]:
        r = client.post(f"/api/{token}/lobby", json=body)
        assert 400 <= r.status_code < 500 and r.json()["error"], (body, r.text)
    for size in ("large", "", "x" * 5000, "1" * 5000):
        r = client.get(f"/card/0.png?size={size}")
        assert r.status_code == 200 and r.content.startswith(b"\x89PNG")


def test_a_refused_move_is_said_in_the_tables_language() -> None:
    table = Table.open(["lunch"], players=2, bots="greedy", seed=2, lang="de")
    with TestClient(TableServer(table, TableArt(table.cs), pace=0).app, base_url="http://127.0.0.1:8765") as c:
        said = [c.post(f"/api/{table.host.token}/move", json=body).json()["error"] for body in (
            {**_move(table), "seat": 1}, {**_move(table), "kind": "fly"}, {**_move(table), "card": "x"},
            {**_move(table), "choice": "up"}, [1])]
        said.append(c.post(f"/api/{table.host.token}/move", content=b"{", headers={
            "Content-Type": "application/json"}).json()["error"])
    assert said == ["unbekanntes Feld 'seat' in einem Zug", "unbekannte Zugart 'fly'",
                    "'card' muss eine ganze Zahl sein", "unbekannte Wahl 'up'", "ein Zug wird als JSON-Objekt gesendet",
                    "ein Zug wird als JSON-Objekt gesendet"]


def _start(args: list[str], tmp_path: Path, limit_files: int | None = None) -> tuple[subprocess.Popen[str], str, Any]:
    """`cardgen play ARGS --no-browser --port 0` started; its process, the first seat's link and its stderr file."""
    err = (tmp_path / "stderr.txt").open("w+", encoding="utf-8")

    def prepare() -> None:
        as_from_a_terminal()
        if limit_files:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (limit_files, limit_files))

    proc = subprocess.Popen([sys.executable, "-c", "from cardgen.cli.main import run; run()", "play", *args,
                             "--no-browser", "--port", "0", "--pace", "0"], stdout=subprocess.PIPE, stderr=err,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=prepare)
    assert proc.stdout is not None
    out = Lines(proc.stdout)
    try:
        out.wait_for("/t/", 1, timeout=90)
    except AssertionError:
        proc.kill()
        proc.wait(5)
        err.seek(0)
        raise AssertionError(f"the table did not start: {err.read()}") from None
    link = next(line for line in out.seen if "/t/" in line)
    return proc, link.split(": ", 1)[1].strip(), err


def _stop(proc: subprocess.Popen[str]) -> float:
    """Ctrl-C the table; how long it took to end."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
    return time.monotonic() - t0


def _get(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_served_tables_log_stays_one_line_a_request_without_tracebacks(tmp_path: Path) -> None:
    proc, link, err = _start(["--set", "lunch"], tmp_path)
    base, token = link.split("/t/")
    try:
        api = f"{base}/api/{token}"
        requests = [(f"{base}/card/{'9' * 5000}.png", None, {}), (f"{base}/rules-{'9' * 5000}.png", None, {}),
                    (f"{api}/move", b'{"kind": [1]}', {"Content-Type": "application/json"}),
                    (f"{api}/move", b'{"kind": {}}', {"Content-Type": "application/json"}),
                    (f"{api}/move", b"[" * 2000 + b"]" * 2000, {"Content-Type": "application/json"}),
                    (f"{api}/move", b'{"kind": "pass"}', {"Content-Type": "text/plain", "Origin": "http://evil.x"}),
                    (f"{api}/state", None, {"Host": "evil.example"})]
        for url, data, headers in requests:
            status, body = _get(url, data, headers)
            assert 400 <= status < 500 and json.loads(body)["error"], (url, status)
        status, _ = _get(f"{api}/state")
        assert status == 200
    finally:
        _stop(proc)
    err.seek(0)
    said = err.read()
    assert "Traceback" not in said and len(said.splitlines()) <= len(requests), said


def test_ctrl_c_while_the_search_bot_thinks_ends_the_table_at_once(tmp_path: Path) -> None:
    proc, link, _ = _start(["--set", "lunch", "--bots", "search", "--budget", "60000ms", "--seed", "3"], tmp_path)
    try:
        api = link.replace("/t/", "/api/")
        view = json.loads(_get(f"{api}/state")[1])
        move = next(m for m in view["moves"] if m["kind"] in ("pass", "discard"))
        body = json.dumps({**{k: move[k] for k in ("kind", "card", "target", "choice")}, "version": view["version"]})
        status, answer = _get(f"{api}/move", body.encode(), {"Content-Type": "application/json"})
        assert status == 200, answer
        if json.loads(answer)["moves"]:  # a discard asks for "done" first
            view = json.loads(answer)
            done = next(m for m in view["moves"] if m["kind"] == "done")
            _get(f"{api}/move", json.dumps({**{k: done[k] for k in ("kind", "card", "target", "choice")},
                                            "version": view["version"]}).encode(),
                 {"Content-Type": "application/json"})
        time.sleep(1.0)  # the bot is thinking, with a minute to go
    finally:
        took = _stop(proc)
    assert took < 10, f"the table took {took:.1f} s to end"


def _open_idle(address: tuple[str, int], n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        try:
            out.append(socket.create_connection(address, timeout=5))
        except OSError:
            break
    return out


def _still_open(socks: list[socket.socket]) -> int:
    """How many of the (non-blocking) sockets the other end has not closed."""
    alive = 0
    for s in socks:
        try:
            alive += s.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


def test_idle_and_half_sent_connections_are_closed_and_the_log_stays_bounded(tmp_path: Path) -> None:
    """Under a 256-file limit, 400 idle sockets and 40 half-sent requests: the table keeps its files under the
    limit (the extra connections closed at once), closes the idle and half-sent ones, answers again, and
    says so in a few lines."""
    script = ("import sys, time\n"
              "from cardgen.play import connections\n"
              "connections.TimedConnection.idle_s = 2.0\n"
              "connections.TimedConnection.answer_s = 2.0\n"
              "from cardgen.play.art import TableArt\n"
              "from cardgen.play.server import TableServer, serving_in_thread\n"
              "from cardgen.play.table import Table\n"
              "t = Table.open(['lunch'], players=2, bots='greedy', seed=1)\n"
              "art = TableArt(t.cs)\n"
              "art.render()\n"
              "with serving_in_thread(TableServer(t, art, pace=0)) as base:\n"
              "    print(base + '/t/' + t.host.token, flush=True)\n"
              "    sys.stdin.read()\n")
    err = (tmp_path / "stderr.txt").open("w+", encoding="utf-8")

    def prepare() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=err, text=True, cwd=ROOT, preexec_fn=prepare)
    socks: list[socket.socket] = []
    try:
        assert proc.stdout is not None and proc.stdin is not None
        out = Lines(proc.stdout)
        link = (out.next(timeout=90) or "").strip()
        base, token = link.split("/t/")
        host, port = base.removeprefix("http://").split(":")
        socks = _open_idle((host, int(port)), 400)
        for s in socks[:40]:
            with pytest.raises(OSError):
                s.sendall(b"GET /back.png HTTP/1.1\r\nHost: " + host.encode())  # never finished
                s.settimeout(8)
                assert s.recv(100) == b""  # closed by the table, not answered
                raise OSError("closed")
        time.sleep(3)
        status, _ = _get(f"{base}/api/{token}/state")
        assert status == 200
        for s in socks:
            s.setblocking(False)
        deadline = time.monotonic() + 30  # the table's idle timer is 2 s; a loaded machine may run it late
        while (alive := _still_open(socks)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert alive == 0, f"{alive} idle connections still open"
    finally:
        for s in socks:
            s.close()
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(30)
    err.seek(0)
    said = err.read()
    assert "Traceback" not in said and "Too many open files" not in said, said[:2000]
    assert len(said.splitlines()) <= 10, said[:2000]


def test_play_refuses_a_set_build_refuses_with_the_same_message(tmp_path: Path) -> None:
    folder = tmp_path / "wide"
    folder.mkdir()
    (folder / "set.yaml").write_text("name: wide\ntitle: Wide\nextends: lunch\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(f"cards:\n  - name: {'W' * 45}\n    type: basic\n    count: 1\n"
                                       "    damage: 2\n    source: designed\n", encoding="utf-8")
    build = CliRunner().invoke(main, ["build", "--set", str(folder), "--out", str(tmp_path / "out")])
    assert build.exit_code == 1
    res = subprocess.run([sys.executable, "-c", "from cardgen.cli.main import run; run()", "play", "--set",
                          str(folder), "--no-browser", "--port", "0"], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, preexec_fn=as_from_a_terminal)
    assert res.returncode == 1, res.stderr
    refused = [line for line in build.stderr.splitlines() if ": error: " in line]
    assert refused and refused[0] in res.stderr.splitlines(), (build.stderr, res.stderr)
    assert "Traceback" not in res.stderr and "/t/" not in res.stdout
