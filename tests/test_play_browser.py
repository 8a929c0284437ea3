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
from cardgen.engine.scenario import final_state
from cardgen.paths import bundled_set_names
from cardgen.play.art import TableArt
from cardgen.play.server import TableServer, serving_in_thread
from cardgen.play.table import Table

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed (.ci/run installs it)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
WAIT_MS = 20_000
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


def _one_decision(page: Any, rng: random.Random, checked_wait: list[bool]) -> None:
    """Take one decision by clicking what the page shows; return once the page has moved on."""
    version = page.evaluate("document.body.dataset.version")
    quiet = page.locator("#actions button.move.quiet")
    cards = page.locator("#hand img.playable")
    if not checked_wait[0] and page.locator("#actions button.move[data-kind='decline']").count():
        # An attack (or other card) waits for this person's answer: the bots do not move meanwhile.
        page.wait_for_timeout(300)
        assert page.evaluate("document.body.dataset.version") == version
        checked_wait[0] = True
    n_cards, n_quiet = cards.count(), quiet.count()
    assert n_cards or n_quiet, "a decision with nothing to click"
    if n_cards and (not n_quiet or rng.random() < 0.85):
        cards.nth(rng.randrange(n_cards)).click()
        aims = page.locator("#seats .seat.aim")
        buttons = page.locator("#actions button.move:not(.quiet)")
        buttons.first.wait_for(timeout=WAIT_MS)
        plays = page.locator("#actions button.move:not(.quiet):not([data-kind='discard'])")
        if aims.count() and rng.random() < 0.3:
            aims.nth(rng.randrange(aims.count())).click()  # the card, then its target
        elif plays.count() and rng.random() < 0.9:
            plays.nth(rng.randrange(plays.count())).click()
        else:
            buttons.nth(rng.randrange(buttons.count())).click()
    else:
        quiet.nth(rng.randrange(n_quiet)).click()
    _settled(page, after=version)


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
                shown = sorted(page.locator("#hand img").evaluate_all("els => els.map(e => e.alt)"))
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
