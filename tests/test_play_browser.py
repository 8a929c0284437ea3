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
        card = page.locator("#hand .card.playable").nth(rng.randrange(offer["cards"]))
        if "selected" not in (card.get_attribute("class") or "").split():  # (a selection outlives a decision)
            card.locator("img").click()  # the card...
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


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844},
         "narrow window": {"width": 390, "height": 844}}


def _page(browser: Any, size: str, url: str) -> Any:
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone, accept_downloads=True)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_each_card_shows_its_actions_and_why_not(browser: Any, size: str) -> None:
    """On the person's own turn and when answering: every card carries the buttons of its legal moves, a card
    with no play says why (its title on hover, the line under the question on a tap), as the server says."""
    table = Table.open(["lunch"], players=3, bots="greedy", seed=7)
    rng = random.Random(5)
    with serving_in_thread(TableServer(table, _art(table, "lunch"), pace=0)) as base:
        page = _page(browser, size, f"{base}/t/{table.host.token}")
        checked = tapped = 0
        while checked < 6 and _settled(page) != "over":
            view = table.view(0)
            shown = page.evaluate("""() => [...document.querySelectorAll('#hand .card')].map(f => ({
                card: Number(f.dataset.card), why: f.dataset.why || '', title: f.title,
                buttons: [...f.querySelectorAll('button.move')].map(b => b.textContent).sort()}))""")
            expected = [{"card": c["card"], "why": c["why"],
                         "buttons": sorted(view["moves"][i]["label"] for i in c["offers"])} for c in view["hand"]]
            assert [{k: s[k] for k in ("card", "why", "buttons")} for s in shown] == expected
            for s, c in zip(shown, view["hand"], strict=True):
                if c["why"]:
                    assert s["title"] == f"{c['name']}: {c['why']}"
            dimmed = page.locator("#hand .card.noplay img")
            if dimmed.count() and tapped < 2:
                dimmed.first.click()  # a tap on a card with no play: the reason, in words
                why = page.locator("#why")
                card = page.locator("#hand .card.noplay").first
                name = card.locator("img").get_attribute("alt")
                assert why.is_visible() and why.inner_text() == f"{name}: {card.get_attribute('data-why')}"
                tapped += 1
            checked += 1
            _one_decision(page, rng, [True])
        assert tapped >= 1
        page.context.close()


def test_a_click_before_the_last_answer_arrives_is_sent(browser: Any) -> None:
    """The server pushes the next view before the answer to the move that led to it reaches the page (as on a
    loaded machine): the person's next click is sent, not dropped, and the late answer does not draw the older
    table over the newer one."""
    table = Table.open(["lunch"], players=2, bots="greedy", seed=3)
    held: list[tuple[Any, Any]] = []

    def hold_the_first_answer(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the move reaches the table; its answer waits here

    with serving_in_thread(TableServer(table, _art(table, "lunch"), pace=0)) as base:
        context = browser.new_context(viewport=SIZES["desktop"])
        page = context.new_page()
        page.route("**/move", hold_the_first_answer)
        page.goto(f"{base}/t/{table.host.token}")
        assert _settled(page) == "act"
        rng = random.Random(1)
        before = table.version
        _one_decision(page, rng, [True])  # returns on the pushed view: the answer is still held
        assert held and table.version > before and _settled(page) == "act"
        before = table.version
        _one_decision(page, rng, [True])
        assert table.version > before  # the second click was sent
        route, answer = held[0]
        route.fulfill(response=answer)
        page.wait_for_timeout(500)
        assert page.evaluate("document.body.dataset.version") == str(table.version)
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_refused_move_shows_its_reason(browser: Any, size: str) -> None:
    """A page that missed an update (its event stream cut) sends a move the table has moved past: the page
    shows the table's reason, in words, and redraws the table as it is."""
    table = Table.open(["beer"], players=3, bots="human,greedy", seed=2)
    with serving_in_thread(TableServer(table, _art(table, "beer"), pace=0)) as base:
        phone = size == "phone"
        context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone)
        page = context.new_page()
        page.route("**/events", lambda route: None)  # the stream is held, never answered: no pushes, the page goes
        # stale (an aborted stream would make the page say it lost the connection, in the same place)
        page.goto(f"{base}/t/{table.host.token}")
        page.wait_for_function("document.body.dataset.state === 'act'", timeout=WAIT_MS)
        m = table.state.moves[0]
        table.play(0, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                       "version": table.version})  # the same seat moves elsewhere (another tab)
        page.locator("button.move").first.click()
        said = "the table has moved on since this page was drawn: look again"
        page.wait_for_function(f"document.getElementById('error').innerText === {said!r}", timeout=WAIT_MS)
        assert page.locator("#error").is_visible()
        assert page.evaluate("document.body.dataset.version") == str(table.version)  # redrawn as it is
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone", "narrow window"])
def test_a_card_zooms_at_print_resolution(browser: Any, size: str) -> None:
    """Hover on a desktop, the magnifier on a phone and in a narrow desktop window (a mouse, no room beside the
    log): the card at 300 dpi, larger than in the hand and inside the window; gone again after."""
    table = Table.open(["classic"], players=2, bots="greedy", seed=4)
    with serving_in_thread(TableServer(table, _art(table, "classic"), pace=0)) as base:
        page = _page(browser, size, f"{base}/t/{table.host.token}")
        card = page.locator("#hand .card").first
        d = card.get_attribute("data-card")
        if size == "desktop":
            card.locator("img").hover()
        elif size == "phone":
            card.locator(".zoom-btn").tap()
        else:
            card.locator(".zoom-btn").click()
        page.wait_for_function("!document.getElementById('zoom').hidden", timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('zoom-img').naturalWidth > 0", timeout=WAIT_MS)
        zoomed = page.evaluate("""() => { const i = document.getElementById('zoom-img');
            const r = i.getBoundingClientRect();
            return {src: i.getAttribute('src'), natural: i.naturalWidth, shown: r.width, left: r.left,
                    right: r.right}; }""")
        small = page.evaluate("() => document.querySelector('#hand .card img').naturalWidth")
        assert zoomed["src"] == f"/card/{d}.png?size=large&t=1"  # the first table since the server started
        assert zoomed["natural"] == 2 * small  # 300 dpi, twice the hand's 150
        assert zoomed["shown"] > 1.5 * page.evaluate("document.querySelector('#hand .card img').width")
        assert zoomed["left"] >= 0 and zoomed["right"] <= SIZES[size]["width"]
        if size == "desktop":
            page.mouse.move(5, 5)
        elif size == "phone":
            page.locator("#zoom").tap()
        else:
            page.locator("#zoom").click()
        page.wait_for_function("document.getElementById('zoom').hidden", timeout=WAIT_MS)
        page.context.close()


def _view_stamp(page: Any) -> tuple[str, str]:
    got: tuple[str, str] = page.evaluate("[document.body.dataset.game, document.body.dataset.version]")
    return got


def _play_both(pages: list[Any], table: Table, rng: random.Random) -> None:
    """Ann's and Bob's pages click their own decisions until both say the game is over."""
    while True:
        states = [page.evaluate("[document.body.dataset.state, document.body.dataset.game, "
                                "document.body.dataset.version]") for page in pages]
        if all(st == "over" for st, _, _ in states):
            return
        acting = [i for i, (st, g, v) in enumerate(states)
                  if st == "act" and (g, v) == (str(table.game), str(table.version))]
        if not acting:
            pages[0].wait_for_timeout(10)
            continue
        _one_decision(pages[acting[0]], rng, [True], settle=False)


def test_a_rematch_and_a_new_deal_keep_the_seats_and_the_links(browser: Any) -> None:
    """Ann (the host, desktop) and Bob (a friend, phone) and a bot: the game is played to its end, Ann asks for a
    rematch from the end screen, and both play it to the end on the pages they had; then a new deal."""
    table = Table.open(["lunch"], players=3, bots="human,greedy", seed=12)
    rng = random.Random(8)
    opening = table.opening.hands
    with serving_in_thread(TableServer(table, _art(table, "lunch"), pace=0)) as base:
        ann = _page(browser, "desktop", f"{base}/t/{table.seats[0].token}")
        bob = _page(browser, "phone", f"{base}/t/{table.seats[1].token}")
        _play_both([ann, bob], table, rng)
        assert bob.locator("#next").is_visible() and bob.locator("#next button").count() == 0  # the host decides
        ann.locator("#next button[data-next='rematch']").click()
        for page in (ann, bob):
            page.wait_for_function("document.body.dataset.game === '2' && document.body.dataset.state !== 'over'",
                                   timeout=WAIT_MS)
        shown = sorted(ann.locator("#hand .card img").evaluate_all("els => els.map(e => e.alt)"))
        info = table.state.game.info
        assert shown == sorted(info[d].name for d in opening[0])  # the same deal again
        _play_both([ann, bob], table, rng)
        assert table.game == 2 and table.state.result is not None
        ann.locator("#next button[data-next='deal']").click()
        for page in (ann, bob):
            page.wait_for_function("document.body.dataset.game === '3'", timeout=WAIT_MS)
        assert table.opening.hands != opening
        for page in (ann, bob):
            page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_resumed_game_is_played_to_the_end(browser: Any, tmp_path: Path, size: str) -> None:
    table = Table.open(["beer"], players=2, bots="greedy", seed=3)
    rng = random.Random(2)
    for _ in range(25):
        if table.state.result is not None:
            break
        p = table.state.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:
            m = rng.choice(table.state.moves)
            table.play(p, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                           "version": table.version})
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    again = Table.resume(save, bots="greedy")
    with serving_in_thread(TableServer(again, _art(again, "beer"), pace=0)) as base:
        page = _page(browser, size, f"{base}/t/{again.host.token}")
        assert page.locator("#log li").count() >= 3  # the game so far, in the log
        while _settled(page) != "over":
            _one_decision(page, rng, [True])
        with page.expect_download() as dl:
            page.click("#save")
        saved = tmp_path / "resumed.yaml"
        dl.value.save_as(saved)
        page.context.close()
    res = CliRunner().invoke(main, ["replay", str(saved)])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["final"] == json.loads(json.dumps(final_state(again.state)))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_replay_viewer_steps_forward_and_back(browser: Any, tmp_path: Path, size: str) -> None:
    """Every decision of a saved game, stepped forward and then back: the counters on the page are the engine
    log's at that move, the log beside it has as many lines, and a seat's view hides the other hands."""
    from cardgen.engine.replay import Replay
    from cardgen.loader.scenario import load_scenario
    from cardgen.play.replay_server import ReplayServer
    from cardgen.play.replay_view import replay_data

    table = Table.open(["lunch"], players=3, bots="greedy", seed=5)
    rng = random.Random(1)
    while table.state.result is None:
        p = table.state.to_act
        if table.seats[p].bot:
            table.bot_play(p, table.bot_choose(p))
        else:
            m = rng.choice(table.state.moves)
            table.play(p, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                           "version": table.version})
    save = tmp_path / "game.yaml"
    save.write_text(table.save(0), encoding="utf-8")
    spec = load_scenario(save)
    lengths: list[int] = []

    class Lengths:
        def before(self, s: Any) -> None:
            pass

        def after(self, s: Any, move: Any) -> list[str]:
            lengths.append(len(s.log or []))
            return []

    game = Replay(spec)
    game.run(Lengths())
    log = list(game.state.log or [])
    start = table.state.game.start_life

    def life_at(step: int) -> list[int]:
        life = [start] * 3
        for e in log[:lengths[step - 1]] if step else []:
            if isinstance(e, Damage | Healed):
                life[e.player] = e.life
        return life

    with serving_in_thread(ReplayServer(replay_data(spec, "en"), _art(table, "lunch"), "en")) as base:
        page = _page_replay(browser, base, size)
        steps = len(lengths)
        order = [*range(1, steps + 1), *range(steps - 1, -1, -3)]
        for k in order:
            page.click("#forward" if k > int(page.evaluate("document.body.dataset.step")) else "#back")
            if k < steps and int(page.evaluate("document.body.dataset.step")) != k:
                page.evaluate(f"document.getElementById('slider').value = {k}")
                page.dispatch_event("#slider", "input")
            page.wait_for_function(f"document.body.dataset.step === '{k}'", timeout=WAIT_MS)
            on_page = page.locator("#seats .seat .life").evaluate_all("els => els.map(e => Number(e.dataset.life))")
            assert on_page == life_at(k), k
        page.select_option("#seat", "1")
        hidden = page.evaluate("""() => [...document.querySelectorAll('#hands .hand')].map(h =>
            h.querySelector('.cards').classList.contains('backs-only'))""")
        assert hidden == [True, False, True]
        assert page.locator("#forward").is_disabled() is False
        page.context.close()


def _page_replay(browser: Any, base: str, size: str = "desktop") -> Any:
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.goto(f"{base}/")
    page.wait_for_function("document.body.dataset.step === '0'", timeout=WAIT_MS)
    return page


def _play_out(table: Table, rng: random.Random) -> None:
    """Every seat of a table of people only plays at random to the end (no bot moves meanwhile)."""
    while table.state.result is None:
        m = rng.choice(table.state.moves)
        table.play(table.state.to_act, {"kind": str(m.kind), "card": m.card, "target": m.target,
                                        "choice": str(m.choice), "version": table.version, "game": table.game})


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_back_to_the_lobby_and_a_new_table_started_there(browser: Any, size: str) -> None:
    """From the end screen the host goes to the lobby, keeps one of the two sets, seats a bot where a friend sat
    and one more, picks German and starts the table; the friend's page follows on the link it had, in German,
    and both play the new game to its end."""
    table = Table.open(["lunch", "beer"], players=3, bots="human,human", seed=21)
    server = TableServer(table, _art(table, "lunch+beer"), pace=0,
                         art_for=lambda t: _art(t, f"{t.cs.name}-{t.lang}"))
    ann_token, bob_token = table.seats[0].token, table.seats[1].token
    with serving_in_thread(server) as base:
        ann = _page(browser, size, f"{base}/t/{ann_token}")
        bob = _page(browser, "phone" if size == "desktop" else "desktop", f"{base}/t/{bob_token}")
        _play_out(table, random.Random(6))  # the first game, played for all three (Cat has no page)
        ann.wait_for_function("document.body.dataset.state === 'over'", timeout=WAIT_MS)
        assert bob.locator("#next a.lobby").count() == 0  # the host's choice only
        ann.locator("#next a.lobby").click()
        ann.wait_for_function("document.body.dataset.state === 'ready'", timeout=WAIT_MS)
        assert ann.locator("#sets input:checked").count() == 2
        assert ann.locator("#seat-list li").count() == 3
        ann.uncheck("#sets input[value='lunch']")
        ann.select_option("#seat-list li[data-seat='2'] select", "greedy")
        ann.click("#add-seat")
        ann.select_option("#seat-list li[data-seat='3'] select", "random")
        ann.select_option("#lang", "de")
        ann.click("#start")
        ann.wait_for_function("document.body.dataset.state === 'started'", timeout=WAIT_MS)
        new = server.table
        assert new is not table and new.cs.name == "beer" and new.lang == "de"
        assert [(s.name, s.kind) for s in new.seats] == [("Ann", "human"), ("Bob", "human"), ("Cat", "greedy"),
                                                         ("Dan", "random")]
        said = ann.locator("#links li").all_inner_texts()
        assert said == [f"Bob: {base}/t/{bob_token} (the link they have)"]
        ann.click("#go")
        for page in (ann, bob):  # Bob's page reloads itself for the new table, on the link it had
            page.wait_for_function("document.body !== null && document.documentElement.lang === 'de' && "
                                   "document.body.dataset.game === '2' && document.body.dataset.state !== 'loading'",
                                   timeout=WAIT_MS)  # (document.body is null while a page loads)
            assert page.locator("#seats .seat").count() == 4
            assert page.locator("#turn").inner_text().startswith("Zug ")
        _play_both([ann, bob], new, random.Random(9))
        assert new.state.result is not None and server.table is new
        for page in (ann, bob):
            page.context.close()
