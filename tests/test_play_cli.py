"""`cardgen play` from the command line: bad options as one `error:` line, and a real table served and ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from children import Lines, as_from_a_terminal

from cardgen.play.art import TableArt
from cardgen.play.server import TableServer
from cardgen.play.table import Table

ROOT = Path(__file__).resolve().parents[1]


def _cardgen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cardgen.cli.main import run; run()", *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize(("args", "said"), [
    ((), "error: --set is required"),
    (("--set", "lunch", "--players", "1"), "error: --players must be 2 to 12, not 1"),
    (("--set", "lunch", "--bots", "grredy"), "error: unknown bot 'grredy' (did you mean 'greedy'?)"),
    (("--set", "lunch", "--players", "4", "--bots", "greedy,random"), "error: --bots names 2 seats"),
    (("--set", "lunch", "--budget", "fast"), "error: --budget must be"),
    (("--set", "nosuchset",), "nosuchset"),
])
def test_bad_options_are_one_error_line(args: tuple[str, ...], said: str) -> None:
    res = _cardgen("play", "--no-browser", "--port", "0", *args)
    assert res.returncode == 1, res.stderr
    assert said in res.stderr and "Traceback" not in res.stderr


def test_the_command_serves_a_table_until_interrupted(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    err = (tmp_path / "stderr.txt").open("w+", encoding="utf-8")  # shown if the test fails
    proc = subprocess.Popen([sys.executable, "-c", "from cardgen.cli.main import run; run()", "play", "--set",
                             "classic", "--players", "3", "--bots", "human,greedy", "--seed", "5", "--no-browser",
                             "--port", "0", "--pace", "0"], stdout=subprocess.PIPE, stderr=err,
                            text=True, cwd=ROOT, env=env, preexec_fn=as_from_a_terminal)
    try:
        assert proc.stdout is not None
        out = Lines(proc.stdout)
        out.wait_for("/t/", 2, timeout=60)
        links = [line.split(": ", 1)[1].strip() for line in out.seen if "/t/" in line]
        assert len(links) == 2, "the command printed no link per person"
        assert links[0] != links[1] and all(link.startswith("http://127.0.0.1:") for link in links)
        time.sleep(0.3)
        for seat, link in enumerate(links):
            api = link.replace("/t/", "/api/")
            with urllib.request.urlopen(f"{api}/state", timeout=30) as r:
                view = json.loads(r.read())
            assert view["seat"] == seat
            assert [p["kind"] for p in view["players"]] == ["human", "human", "greedy"]
            assert len(view["hand"]) == view["players"][seat]["cards"]
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        err.seek(0)
        print(err.read())
        err.close()
    assert proc.returncode in (0, 130)


def test_the_pictures_and_the_rules_page_are_served() -> None:
    from starlette.testclient import TestClient

    table = Table.open(["beer"], players=2, bots="random", seed=0)
    with TestClient(TableServer(table, TableArt(table.cs), pace=0).app, base_url="http://127.0.0.1") as client:
        for d in range(len(table.cs.cards)):
            r = client.get(f"/card/{d}.png")
            assert r.status_code == 200 and r.content.startswith(b"\x89PNG"), d
        assert client.get(f"/card/{len(table.cs.cards)}.png").status_code == 404
        assert client.get("/back.png").content.startswith(b"\x89PNG")
        assert client.get("/rules.pdf").content.startswith(b"%PDF")
        page = client.get("/rules").text
        assert 'src="/rules-0.png"' in page and 'href="/rules.pdf"' in page
        assert client.get("/rules-0.png").content.startswith(b"\x89PNG")
        html = client.get(f"/t/{table.host.token}").text
        assert "/static/table.js" in html and 'id="rules"' in html
        assert client.get("/static/table.js").status_code == 200
