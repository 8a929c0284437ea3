"""`cardgen play` in a real browser: whole games of every bundled set, clicked through as a person would.

Headless Chromium (Debian's, which .ci/run installs) driven by Playwright's Python package. The test sees only
the page: it clicks a highlighted card, then one of the buttons the page shows (or a seat), or a button with
no card (pass, no answer, done), until the page says the game is over. Then the counters on the page are
checked against the engine's log, the page's "Save game" file is replayed with `cardgen replay`, and the
state it reaches must be the table's.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.engine.events import Damage, Healed, Revived, log_json
from cardgen.engine.replay import final_state
from cardgen.paths import bundled_set_names
from cardgen.play.art import TableArt
from cardgen.play.server import TableServer, serving_in_thread
from cardgen.play.table import Table

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed (.ci/run installs it)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
WAIT_MS = 60_000  # only a failure waits this long (a loaded machine may be slow)
_ART: dict[str, TableArt] = {}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _art(table: Table, name: str) -> TableArt:
    if name not in _ART:
        _ART[name] = TableArt(table.cs)
        _ART[name].start()
    return _ART[name]


def _settled(page: Any, after: str | None = None) -> str:
    """Wait until it is this seat's decision or the game is over (and the page moved past version `after`)."""
    cond = "['act','over'].includes(document.body.dataset.state)"
    if after is not None:
        cond += f" && document.body.dataset.version !== '{after}'"
    page.wait_for_function(cond, timeout=WAIT_MS)
    state: str = page.evaluate("document.body.dataset.state")
    return state


# What the page offers now, read in one call: its version, and how many of each clickable thing it shows.
_OFFER = """() => ({version: document.body.dataset.version,
  cards: document.querySelectorAll('#hand .card.playable').length,
  plays: document.querySelectorAll('#hand .card button.move:not(.quiet)').length,
  quiet: document.querySelectorAll('button.move.quiet').length,
  decline: document.querySelectorAll("#actions button.move[data-kind='decline']").length,
  aims: document.querySelectorAll('#seats .seat.aim').length})"""


def _one_decision(page: Any, rng: random.Random, checked_wait: list[bool], settle: bool = True) -> None:
    """Take one decision by clicking what the page shows (a button on a card, a card and then a seat it aims
    at, or a button with no card); return once the page has moved on."""
    offer = page.evaluate(_OFFER)
    version = offer["version"]
    if not checked_wait[0] and offer["decline"]:
        # An attack (or other card) waits for this person's answer: the bots do not move meanwhile.
        page.wait_for_timeout(300)
        assert page.evaluate("document.body.dataset.version") == version
        checked_wait[0] = True
    assert offer["plays"] or offer["quiet"], "a decision with nothing to click"
    if offer["cards"] and rng.random() < 0.2:
        page.locator("#hand .card.playable img").nth(rng.randrange(offer["cards"])).click()  # the card...
        page.wait_for_function("document.querySelector('#hand .card.selected') !== null", timeout=WAIT_MS)
        offer = page.evaluate(_OFFER)
        if offer["aims"]:
            page.locator("#seats .seat.aim").nth(rng.randrange(offer["aims"])).click()  # ...then its target
        else:
            page.locator("#hand .card.selected button.move").first.click()
    elif offer["plays"] and (not offer["quiet"] or rng.random() < 0.85):
        page.locator("#hand .card button.move:not(.quiet)").nth(rng.randrange(offer["plays"])).click()
    else:
        page.locator("button.move.quiet").nth(rng.randrange(offer["quiet"])).click()
    if settle:
        _settled(page, after=version)
    else:
        page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=WAIT_MS)


def _life_from_log(table: Table) -> list[int]:
    """Each seat's counters as the engine's log last gave them (starting life if it never changed)."""
    life = [table.state.game.start_life] * table.state.n
    for e in table.state.log or []:
        if isinstance(e, Damage | Healed):
            life[e.player] = e.life
        elif isinstance(e, Revived):
            pass  # a revived player's counters come with the heal that revived them
    return life


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("set_name", bundled_set_names())
def test_a_whole_game_clicked_in_the_browser(browser: Any, set_name: str, players: int, tmp_path: Path) -> None:
    bots = "greedy" if players == 2 else "greedy,random,search"
    table = Table.open([set_name], players=players, bots=bots, seed=11 + players, budget="3")
    server = TableServer(table, _art(table, set_name), pace=0)
    rng = random.Random(f"{set_name}-{players}")
    with serving_in_thread(server) as base:
        url = f"{base}/t/{table.host.token}"
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page = context.new_page()
        page.goto(url)
        decisions = 0
        checked_wait = [False]
        state = _settled(page)
        while state != "over":
            _one_decision(page, rng, checked_wait)
            decisions += 1
            if decisions == 5:  # the tab is closed, and the same link brings back the same seat
                page.close()
                page = context.new_page()
                page.goto(url)
                page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=WAIT_MS)
                shown = sorted(page.locator("#hand .card img").evaluate_all("els => els.map(e => e.alt)"))
                info = table.state.game.info
                assert shown == sorted(info[d].name for d in table.state.hands[0])
            state = _settled(page)
        assert table.state.result is not None
        # The counters on the page are the engine's.
        on_page = page.locator("#seats .seat .life").evaluate_all("els => els.map(e => Number(e.dataset.life))")
        assert on_page == _life_from_log(table) == list(table.state.life)
        winner = table.state.result.winner
        said = page.locator("#said").inner_text()
        assert (table.state.game.names[winner] + " wins") in said if winner is not None else "Nobody wins" in said
        # The page's save link gives a scenario that replays to the same end.
        with page.expect_download() as dl:
            page.click("#save")
        saved = tmp_path / "saved.yaml"
        dl.value.save_as(saved)
        context.close()
    res = CliRunner().invoke(main, ["replay", str(saved)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["final"] == json.loads(json.dumps(final_state(table.state)))
    assert out["log"] == json.loads(json.dumps(log_json(table.state.game, table.state.log or [])))
    assert decisions >= 3


def test_two_friends_and_a_bot_play_a_whole_game_each_on_their_own_page(browser: Any) -> None:
    """Ann and Bob, each with their own link (a phone and a desktop), and a greedy bot: each page clicks only
    when it says it is its seat's decision, and shows only its own hand all along."""
    table = Table.open(["lunch"], players=3, bots="human,greedy", seed=8)
    server = TableServer(table, _art(table, "lunch"), pace=0)
    rng = random.Random(9)
    info = table.state.game.info
    with serving_in_thread(server) as base:
        pages = []
        for seat, size in ((0, {"width": 1280, "height": 900}), (1, {"width": 390, "height": 844})):
            context = browser.new_context(viewport=size)
            page = context.new_page()
            page.goto(f"{base}/t/{table.seats[seat].token}")
            pages.append(page)
        checked_wait = [True]
        decisions = [0, 0]
        while True:
            states = [page.evaluate("[document.body.dataset.state, document.body.dataset.version]")
                      for page in pages]
            if all(st == "over" for st, _ in states):
                break
            acting = [i for i, (st, v) in enumerate(states) if st == "act" and v == str(table.version)]
            if not acting:
                pages[0].wait_for_timeout(10)  # a push still on its way
                continue
            i = acting[0]
            shown = sorted(pages[i].locator("#hand .card img").evaluate_all("els => els.map(e => e.alt)"))
            assert shown == sorted(info[d].name for d in table.state.hands[i])
            _one_decision(pages[i], rng, checked_wait, settle=False)
            decisions[i] += 1
        for page in pages:
            page.context.close()
    assert table.state.result is not None and min(decisions) >= 1


def test_a_german_table_speaks_german_in_the_browser(browser: Any) -> None:
    """`--lang de`: the page's own words, the script's (turn, piles, seats) and the log, as a person sees them."""
    table = Table.open(["beer"], players=2, bots="greedy", seed=3, budget="3", lang="de")
    server = TableServer(table, _art(table, "beer-de"), pace=0)
    with serving_in_thread(server) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{base}/t/{table.host.token}")
        rng = random.Random(4)
        checked_wait = [True]
        for _ in range(3):
            if _settled(page) == "over":
                break
            _one_decision(page, rng, checked_wait)
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("#turn").inner_text().startswith("Zug ")
        assert page.locator("#draw").inner_text().startswith("Stapel ")
        assert page.locator("#seats .seat.me .name").inner_text() == "Ann (du)"
        assert page.locator("#seats .seat .kind").nth(1).inner_text() == "greedy-Bot"
        assert page.locator("#log-box h2").inner_text() == "Verlauf"
        log = page.locator("#log li").all_inner_texts()
        assert log and log[0].startswith("Zug 1: Ann.")
        assert not any(" plays " in line or "Turn " in line for line in log)
        context.close()


def test_a_page_from_another_port_cannot_drive_a_seat(browser: Any) -> None:
    """A web page served from another port of this computer, which knows a seat's link, posts moves to the
    table every way a page can (a plain-text body, a form, JSON): none is played, and the table's own page
    still plays."""
    import http.server
    import threading

    table = Table.open(["lunch"], players=2, bots="greedy", seed=5)
    server = TableServer(table, _art(table, "lunch"), pace=0)
    with serving_in_thread(server) as base:
        api = f"{base}/api/{table.host.token}"
        m = table.state.moves[0]
        move = json.dumps({"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                           "version": table.version})
        evil = f"""<!doctype html><html><body><form id="f" method="post" action="{api}/move"
            enctype="text/plain"><input name='{move[:-1]}, "x": "' value='"}}'></form><script>
            window.results = [];
            const tries = [
              fetch("{api}/move", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}},
                                    body: {json.dumps(move)}}}).then(() => "sent", e => "failed"),
              fetch("{api}/move", {{method: "POST", headers: {{"Content-Type": "application/json"}},
                                    body: {json.dumps(move)}}}).then(r => "answered " + r.status, e => "failed"),
              fetch("{api}/state").then(r => "read " + r.status, e => "failed"),
            ];
            Promise.all(tries).then(r => {{ window.results = r; }});
            </script></body></html>""".encode()

        class Evil(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(evil)

            def log_message(self, *args: object) -> None:
                pass

        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            before = table.version
            page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
            page.wait_for_function("window.results.length === 3", timeout=WAIT_MS)
            results = page.evaluate("window.results")
            assert results[1] == "failed" and results[2] == "failed", results  # the browser saw no answer
            with page.expect_navigation():
                page.evaluate("document.getElementById('f').submit()")
            assert "requests from other web pages are refused" in page.content()
            assert table.version == before  # nothing was played
            # The table's own page plays as before.
            page.goto(f"{base}/t/{table.host.token}")
            _settled(page)
            _one_decision(page, random.Random(1), [True])
            assert table.version > before
            context.close()
        finally:
            other.shutdown()
            other.server_close()
