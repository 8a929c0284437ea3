"""`cardgen play`: the time from a click to the updated page, and a bot's move at the default budget.

Click to page: a table of each bundled set against greedy bots (pace 0) in headless Chromium (Debian's
`/usr/bin/chromium`, driven by Playwright); the page itself times each click on a move button or a seat,
from the click event to the first animation frame after the page drew the new view (the move's POST, the
engine, the JSON and the redraw; the picture of a new card may still be loading). Goal: under 200 ms.

Bot move: the default bot (`search` at the default budget) deciding at a 4-player table, as the table asks it
(`Table.bot_choose`, which builds the seat's view and checks the move), wall time. Goal: under 1 s.

    python bench/play_bench.py                  # both, every bundled set
    python bench/play_bench.py --clicks 40 --decisions 300 --set lunch
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import time

from cardgen.engine.moves import Move
from cardgen.paths import bundled_set_names
from cardgen.play.art import TableArt
from cardgen.play.server import TableServer, serving_in_thread
from cardgen.play.table import DEFAULT_BOT, Table
from cardgen.sim.agents import DEFAULT_BUDGET

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
# Installed in the page: the time from a click on a move to the frame after the new view was drawn.
TIMER = """() => {
  window.__times = []; window.__clicked = 0;
  document.addEventListener('click', e => {
    if (e.target.closest('button.move, .seat.aim')) window.__clicked = performance.now(); }, true);
  new MutationObserver(() => {
    const t0 = window.__clicked;
    if (!t0) return;
    window.__clicked = 0;
    requestAnimationFrame(() => window.__times.push(performance.now() - t0));
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
}"""


def _figures(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"{label}: n={len(ms)} median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
            f"max {ms[-1]:.1f} ms")


def _move_json(m: Move, version: int) -> dict[str, object]:
    return {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": m.choice, "version": version}


def bot_moves(set_name: str, decisions: int, seed: int) -> list[float]:
    """Wall time of the default bot's decisions at a 4-player table (ms), games played until `decisions`."""
    out: list[float] = []
    rng = random.Random(seed)
    game = 0
    while len(out) < decisions:
        table = Table.open([set_name], players=4, bots=DEFAULT_BOT, seed=seed + game, budget=DEFAULT_BUDGET)
        game += 1
        while table.state.result is None and len(out) < decisions:
            p = table.state.to_act
            if table.seats[p].bot:
                t0 = time.perf_counter()
                move = table.bot_choose(p)
                out.append((time.perf_counter() - t0) * 1000)
                table.bot_play(p, move)
            else:
                table.play(p, _move_json(rng.choice(table.state.moves), table.version))
    return out


def clicks(set_name: str, n: int, seed: int, chromium: str) -> list[float]:
    """Click-to-page times (ms) of `n` moves clicked at a 2-player table against greedy bots."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    out: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        game = 0
        while len(out) < n:
            table = Table.open([set_name], players=2, bots="greedy", seed=seed + game)
            game += 1
            art = TableArt(table.cs)
            art.start()
            with serving_in_thread(TableServer(table, art, pace=0)) as base:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(f"{base}/t/{table.host.token}")
                page.evaluate(TIMER)
                while len(out) < n:
                    page.wait_for_function("['act','over'].includes(document.body.dataset.state)")
                    if page.evaluate("document.body.dataset.state") == "over":
                        break
                    before = page.evaluate("window.__times.length")
                    plays = page.locator("#hand .card button.move:not(.quiet)")
                    quiet = page.locator("button.move.quiet")
                    if plays.count() and (not quiet.count() or rng.random() < 0.8):
                        plays.nth(rng.randrange(plays.count())).click()
                    else:
                        quiet.nth(rng.randrange(quiet.count())).click()
                    page.wait_for_function(f"window.__times.length > {before}")
                    out.append(page.evaluate("window.__times[window.__times.length - 1]"))
                page.close()
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", dest="sets", help="bundled set (repeat; default: all)")
    ap.add_argument("--clicks", type=int, default=30, help="clicked moves per set")
    ap.add_argument("--decisions", type=int, default=200, help="bot decisions per set")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    sets = args.sets or list(bundled_set_names())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    print(f"bot: {DEFAULT_BOT} at budget {DEFAULT_BUDGET} (the default), 4 players; clicks: 2 players vs greedy")
    all_bot: list[float] = []
    all_click: list[float] = []
    for name in sets:
        b = bot_moves(name, args.decisions, args.seed)
        all_bot += b
        print(_figures(f"  {name} bot move", b))
        if chromium is None:
            print("  (no chromium: click-to-page not measured)")
            continue
        c = clicks(name, args.clicks, args.seed, chromium)
        all_click += c
        print(_figures(f"  {name} click to page", c))
    print(_figures("bot move, all sets (goal < 1000 ms)", all_bot))
    if all_click:
        print(_figures("click to updated page, all sets (goal < 200 ms)", all_click))


if __name__ == "__main__":
    main()
