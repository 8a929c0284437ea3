"""How much pairing narrows `compare`'s intervals: keyed deals against the old deal and against no pairing.

For each fixture (a base and a changed version), N games of both at one table size, three ways:

- `keyed`: the balance procedure's deals (per-card random keys: the shared cards keep their order whatever the
  deck sizes, and copies B gains borrow the keys of copies it lost) and the same bot seeds;
- `keyed-own`: per-card keys without the borrowing (every copy keyed by its own name and copy number);
- `aligned`: the old compare's deal (shared copies at the same places, then the engine's shuffle): paired only
  when the decks have the same size;
- `unpaired`: keyed deals, but B on another run seed (independent games).

Printed: the median, over the cards both versions share and the designer did not change, of the fixed-sample
95 % half-width of the change of impact (points), and the changed cards' own half-widths.

    nice -n 10 python bench/pairing_bench.py --games 2000 [--players 2]
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from cardgen.engine.cards import card_info
from cardgen.loader import load_set
from cardgen.model import CardSet
from cardgen.sim.agents import make_agent
from cardgen.sim.balance.games import GameNote, table_seed
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import plan as test_plan
from cardgen.sim.deal import KeyPlan, aligned_orders, key_plan, keyed_deck
from cardgen.sim.play import play_one
from cardgen.sim.seeding import derive_seed

PLANTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "balance_plants"
Z95 = 1.959963984540054


def play(cs: CardSet, info: tuple, players: int, run: int, g: int, how: str, order: list[int],  # type: ignore[type-arg]
         plan: KeyPlan) -> GameNote:
    bots = [make_agent("greedy", derive_seed(run, g, s + 1)) for s in range(players)]
    names = ("greedy",) * players
    if how == "aligned":
        rec = play_one(cs, info, bots, names, derive_seed(run, g), f"game {g}", deck=order)
    else:
        rec = play_one(cs, info, bots, names, derive_seed(run, g), f"game {g}", deck=keyed_deck(cs, run, g, plan),
                       shuffled=True)
    return (-1 if rec.winner_seat is None else rec.winner_seat, rec.opening, rec.turns, rec.drawn, rec.played_by)


def widths(a: CardSet, b: CardSet, games: int, players: int, how: str) -> tuple[float, dict[str, float]]:
    tests = test_plan(a, b).tests
    pairs = [(t.da, t.db) for t in tests if t.family in ("changed", "knock-on")]
    tally = Tally(players)
    ia, ib = card_info(a), card_info(b)
    oa, ob = aligned_orders(a, b)
    run = table_seed(0, players)
    run_b = table_seed(1, players) if how == "unpaired" else run
    for g in range(games):
        pb = key_plan(b, a) if how == "keyed" else key_plan(b)
        tally.add((play(a, ia, players, run, g, how, oa, key_plan(a)),
                   play(b, ib, players, run_b, g, how, ob, pb)), pairs)
    knock, changed = [], {}
    for t in tests:
        if t.family not in ("changed", "knock-on"):
            continue
        d = tally.difference((t.da, t.db))
        if d is None:
            continue
        hw = 100 * Z95 * d[1] ** 0.5
        if t.family == "changed":
            changed[t.name] = round(hw, 2)
        else:
            knock.append(hw)
    return statistics.median(knock), changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*", default=["new-card", "basic-attack", "copies-only"],
                    help="fixture names (tests/fixtures/balance_plants) or set folders that extend a base")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    for name in args.fixtures:
        b = load_set(Path(name) if Path(name).is_dir() else PLANTS / name)
        a = load_set(Path(b.base))
        print(f"{name} ({a.total} -> {b.total} cards), {args.games} games at {args.players} players:")
        for how in ("keyed", "keyed-own", "aligned", "unpaired"):
            med, changed = widths(a, b, args.games, args.players, how)
            print(f"  {how:9s} median half-width of the unchanged cards' change +-{med:.2f} points; changed: {changed}")


if __name__ == "__main__":
    main()
