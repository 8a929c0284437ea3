"""How much variance reduction could narrow `compare`'s intervals: today's paired estimator against candidates.

For each fixture (a base and a changed version) and table size, `--games` paired games with a fixed seed, and
per tested card the per-game variance of the change of impact (B minus A, the delta-method influence that
`Tally.difference` sums), today's and each candidate's, and the ratio (games needed today / with it):

- `seat`: control variates from where the card sits: the holders at each seat minus their mean over the seats,
  and the holders' count minus its expectation (exactly mean 0: the deal treats the seats alike);
- `hand1`: one control variate per version and group: the holders' (and the others') other opening cards,
  weighted by each card's impact in A, minus their expectation given the group (exact: hypergeometric);
- `handv`: the same with one control per other design (up to 2 x 2 x designs of them);
- `seat+handv`: both;
  every control's coefficient (and `hand1`'s weights) is fitted on the other half of the games (cross-fitting,
  so the figure is what a fit on games other than the adjusted ones would give);
- `rotate`: each deal played at every rotation of the seats (the same hands, the draw pile as it lies; the
  same number of games in all: a P-th of the deals);
- `sync`: the same deals and seeds as today, but each bot's tie-break generator restarted at every decision
  from (game, seat, cards left to draw, decisions at that count), so the two versions' bots keep breaking ties
  alike after their games part.

Printed per fixture and table size: for the changed cards their own ratios, for a new card the median over
its band's pairs, and the median over the unchanged cards (knock-on tests); then a summary per candidate.
The controls' means over the games are checked against 0 (|t| printed: a mean far from 0 means the
expectation is wrong).

    nice -n 10 python bench/variance_bench.py [--games 4000] [--seed 1] [--players 2 4] [FIXTURE ...]
"""

from __future__ import annotations

import argparse
import statistics
from math import comb
from pathlib import Path
from typing import Any

from cardgen.engine.cards import card_info
from cardgen.engine.game import make_game, seat_names
from cardgen.loader import load_set
from cardgen.model import CardSet
from cardgen.sim.agents import make_agent
from cardgen.sim.balance.games import GameNote, PairTask, table_seed
from cardgen.sim.balance.verdicts import plan as test_plan
from cardgen.sim.deal import key_plan, keyed_deck
from cardgen.sim.play import play_one
from cardgen.sim.seeding import derive_seed

CENSUS = 4  # `skip`: one in this many of the deals no tested card is informative in is played all the same
PLANTS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "balance_plants"
DEFAULT = ["nerf", "basic-attack", "combo-follow-up", "two-edits", "new-card", "defence", "classic-weapon",
           "copies-only"]


# ----------------------------------------------------------------------------------------------- the games

class SyncedBot:
    """A bot whose tie-break generator restarts at every decision from the game, the seat and a clock both
    versions share (cards left to draw, decisions at that count)."""

    def __init__(self, inner: Any, seed: int, seat: int) -> None:
        self.inner, self.seed, self.seat = inner, seed, seat
        self.clock: tuple[int, int] = (-1, 0)

    def choose(self, view: Any) -> Any:
        left = view.draw_size
        self.clock = (left, self.clock[1] + 1) if self.clock[0] == left else (left, 0)
        self.inner.reseed(derive_seed(self.seed, self.seat, *self.clock))
        return self.inner.choose(view)


def _rotated(deck: list[int], players: int, hand: int, r: int) -> list[int]:
    """The deck with the opening hands moved r seats on (seat p gets seat p+r's hand); the draw pile as it lies."""
    out = list(deck)
    n = len(deck)
    for k in range(min(n, players * hand)):
        rnd, p = divmod(k, players)
        out[n - 1 - k] = deck[n - 1 - (rnd * players + (p + r) % players)]
    return out


def play_variant(a: CardSet, b: CardSet, players: int, seed: int, games: int, how: str) -> list[list[tuple]]:
    """Blocks of paired notes: today's games (one per block), `sync` (one per block) or `rotate` (P per block)."""
    if how == "today":
        return [[pair] for pair in PairTask(a, b, ("greedy",), seed)(players, 0, games)]
    run = table_seed(seed, players)
    infos, plans = (card_info(a), card_info(b)), (key_plan(a), key_plan(b, a))
    tables = (make_game(a, seat_names(players), info=infos[0]), make_game(b, seat_names(players), info=infos[1]))
    names = ("greedy",) * players
    blocks: list[list[tuple]] = []
    rotations = players if how == "rotate" else 1
    for deal in range(games // rotations):
        block = []
        for r in range(rotations):
            g = deal * rotations + r if how == "rotate" else deal
            pair = []
            for v, cs in enumerate((a, b)):
                deck = keyed_deck(cs, run, deal, plans[v])
                if how == "rotate":
                    deck = _rotated(deck, players, cs.rules.hand_size, r)
                bots = [make_agent("greedy", derive_seed(run, g, s + 1)) for s in range(players)]
                if how == "sync":
                    bots = [SyncedBot(bot, derive_seed(run, g), s) for s, bot in enumerate(bots)]
                rec = play_one(cs, infos[v], bots, names, derive_seed(run, g), f"game {g}", deck=deck,
                               shuffled=True, game=tables[v])
                pair.append((-1 if rec.winner_seat is None else rec.winner_seat, rec.opening, rec.turns))
            block.append(tuple(pair))
        blocks.append(block)
    return blocks


# ------------------------------------------------------------------------------------------ the estimator

Col = list[float]


def solve(rows: list[Col], target: Col) -> Col:
    """Least squares (normal equations, Gaussian elimination; a tiny ridge keeps a collinear column harmless)."""
    k = len(rows[0]) if rows else 0
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for r, y in zip(rows, target, strict=True):
        for i in range(k):
            ri = r[i]
            if ri == 0.0:
                continue
            aty[i] += ri * y
            row = ata[i]
            for j in range(i, k):
                row[j] += ri * r[j]
    for i in range(k):
        for j in range(i):
            ata[i][j] = ata[j][i]
        ata[i][i] += 1e-9 * (1 + ata[i][i])
    m = [[*row, b] for row, b in zip(ata, aty, strict=True)]
    for c in range(k):
        piv = max(range(c, k), key=lambda i: abs(m[i][c]))
        m[c], m[piv] = m[piv], m[c]
        if m[c][c] == 0:
            continue
        for i in range(c + 1, k):
            f = m[i][c] / m[c][c]
            if f:
                m[i] = [a - f * b for a, b in zip(m[i], m[c], strict=True)]
    beta = [0.0] * k
    for c in reversed(range(k)):
        beta[c] = 0.0 if m[c][c] == 0 else (m[c][k] - sum(m[c][j] * beta[j] for j in range(c + 1, k))) / m[c][c]
    return beta


class Version:
    """One version's games: opening masks per seat, the winner, and its deck's counts."""

    def __init__(self, notes: list[GameNote], cs: CardSet, players: int) -> None:
        self.players = players
        self.masks = [n[1] for n in notes]
        self.winner = [n[0] for n in notes]
        self.copies = [c.count for c in cs.cards]
        self.total, self.hand = cs.total, cs.rules.hand_size

        self._held: dict[int, list[list[int]]] = {}

    def held(self, d: int, g: int) -> list[int]:
        rows = self._held.get(d)
        if rows is None:
            rows = self._held[d] = [[(m >> d) & 1 for m in masks] for masks in self.masks]
        return rows[g]

    def none_of(self, *ds: int) -> float:
        """The chance that one seat's opening hand has no copy of any of `ds` (hypergeometric)."""
        k = sum(self.copies[d] for d in ds)
        return comb(self.total - k, self.hand) / comb(self.total, self.hand)

    def impact(self, d: int, games: list[int]) -> float:
        n1 = w1 = won = 0
        for g in games:
            x = self.held(d, g)
            n1 += sum(x)
            won += self.winner[g] >= 0
            w1 += self.winner[g] >= 0 and x[self.winner[g]]
        n0 = self.players * len(games) - n1
        return 0.0 if n1 == 0 or n0 == 0 else w1 / n1 - (won - w1) / n0

    def influence(self, d: int) -> Col:
        """Per game, its influence on the impact of design d, times the games (the estimate's variance is the
        mean of its square over the games, divided by the games)."""
        games = len(self.masks)
        rows = []
        for g in range(games):
            x = self.held(d, g)
            w = self.winner[g]
            rows.append((1 if w >= 0 and x[w] else 0, sum(x), 1 if w >= 0 else 0))
        n1 = sum(r[1] for r in rows)
        n0 = self.players * games - n1
        p1 = sum(r[0] for r in rows) / n1
        p0 = (sum(r[2] for r in rows) - sum(r[0] for r in rows)) / n0
        return [games * ((x - p1 * n) / n1 - ((w - x) - p0 * (self.players - n)) / n0) for x, n, w in rows]

    def seat_controls(self, d: int) -> list[Col]:
        """Per seat but the last, the seat's holding minus the mean holding of the seats; the holders' count minus
        its expectation: each exactly mean 0 (the deal treats the seats alike)."""
        q = 1 - self.none_of(d)
        cols: list[Col] = [[] for _ in range(self.players)]
        for g in range(len(self.masks)):
            x = self.held(d, g)
            n = sum(x)
            for k in range(self.players - 1):
                cols[k].append(x[k] - n / self.players)
            cols[-1].append(n - self.players * q)
        return cols

    def hand_controls(self, d: int) -> list[tuple[int, Col, Col]]:
        """Per other design e: (e, the holders' count of e minus its expectation given their count, the same for
        the others): each exactly mean 0 under the deal."""
        qd = 1 - self.none_of(d)
        out = []
        for e in range(len(self.copies)):
            if e == d or self.copies[e] == 0:
                continue
            qe = 1 - self.none_of(e)
            qde = 1 - self.none_of(d) - self.none_of(e) + self.none_of(d, e)
            c1, c0 = [], []
            for g in range(len(self.masks)):
                x = self.held(d, g)
                xe = self.held(e, g)
                n = sum(x)
                c1.append(sum(a * b for a, b in zip(x, xe, strict=True)) - n * qde / qd)
                c0.append(sum((1 - a) * b for a, b in zip(x, xe, strict=True))
                          - (self.players - n) * (qe - qde) / (1 - qd))
            out.append((e, c1, c0))
        return out


def _halves(n: int) -> tuple[list[int], list[int]]:
    return list(range(0, n, 2)), list(range(1, n, 2))


def cross_fit(phi: Col, cols: list[Col]) -> Col:
    """phi minus its regression on the controls, each half's coefficients fitted on the other half."""
    if not cols:
        return phi
    out = list(phi)
    even, odd = _halves(len(phi))
    for fit, use in ((even, odd), (odd, even)):
        beta = solve([[c[g] for c in cols] for g in fit], [phi[g] for g in fit])
        for g in use:
            out[g] = phi[g] - sum(b * c[g] for b, c in zip(beta, cols, strict=True))
    return out


def hand1(controls: list[tuple[Version, list[tuple[int, Col, Col]]]], phi: Col) -> Col:
    """`hand1`: the other opening cards weighted by their impact in the same version (weights and coefficients
    fitted on the other half)."""
    out = list(phi)
    even, odd = _halves(len(phi))
    for fit, use in ((even, odd), (odd, even)):
        cols: list[Col] = []
        for v, rows in controls:
            weight = {e: v.impact(e, fit) for e, _, _ in rows}
            for side in (1, 2):
                cols.append([sum(weight[r[0]] * r[side][g] for r in rows) for g in range(len(phi))])
        beta = solve([[c[g] for c in cols] for g in fit], [phi[g] for g in fit])
        for g in use:
            out[g] = phi[g] - sum(b * c[g] for b, c in zip(beta, cols, strict=True))
    return out


def mean_square(xs: Col) -> float:
    return sum(x * x for x in xs) / len(xs)


def worst_t(cols: list[Col]) -> float:
    """The largest |t| of a control's mean against 0."""
    out = 0.0
    for c in cols:
        m = sum(c) / len(c)
        sd = (sum((x - m) ** 2 for x in c) / len(c)) ** 0.5
        if sd > 0:
            out = max(out, abs(m) / (sd / len(c) ** 0.5))
    return out


def candidates(va: Version, vb: Version, da: int, db: int, full: bool) -> tuple[dict[str, float], float]:
    """Per-game variance of today's estimator and of each control-variate candidate (`full`: also the
    hand ones); the largest |t| of a control's mean."""
    sides = [(v, d) for v, d in ((va, da), (vb, db)) if d >= 0]
    ia = va.influence(da) if da >= 0 else None
    ib = vb.influence(db) if db >= 0 else None
    phi = [(b if ib is not None else 0.0) - (a if ia is not None else 0.0)
           for a, b in zip(ia or [0.0] * len(va.masks), ib or [0.0] * len(va.masks), strict=True)]
    seat = [c for v, d in sides for c in v.seat_controls(d)]
    out = {"today": mean_square(phi), "seat": mean_square(cross_fit(phi, seat))}
    if not full:
        return out, worst_t(seat)
    controls = [(v, v.hand_controls(d)) for v, d in sides]
    hand = [c for _, rows in controls for _, c1, c0 in rows for c in (c1, c0)]
    out["hand1"] = mean_square(hand1(controls, phi))
    out["handv"] = mean_square(cross_fit(phi, hand))
    out["seat+handv"] = mean_square(cross_fit(phi, seat + hand))
    return out, worst_t(seat + hand)


def block_variance(blocks: list[list[tuple]], a: CardSet, b: CardSet, players: int, da: int, db: int) -> float:
    """Per-game variance of today's estimator on blocks of games (a rotated deal's games are one block)."""
    flat = [pair for block in blocks for pair in block]
    va = Version([p[0] for p in flat], a, players)
    vb = Version([p[1] for p in flat], b, players)
    ia = va.influence(da) if da >= 0 else [0.0] * len(flat)
    ib = vb.influence(db) if db >= 0 else [0.0] * len(flat)
    phi = [y - x for x, y in zip(ia, ib, strict=True)]
    size = len(blocks[0])
    per_block = [sum(phi[i * size:(i + 1) * size]) for i in range(len(blocks))]
    return mean_square(per_block) / size


# ------------------------------------------------------------------------------------------------ the report

def tests_of(a: CardSet, b: CardSet) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """(name, family, the (A design, B design) pairs measuring it) of each card test."""
    out = []
    for t in test_plan(a, b).tests:
        if t.family == "new":
            out.append((t.name, "new", [(r, t.db) for r in t.band]))
        elif t.family in ("changed", "knock-on"):
            out.append((t.name, t.family, [(t.da, t.db)]))
    return out


def fixture(name: str, players: int, games: int, seed: int, summary: dict[str, list[float]]) -> None:
    b = load_set(PLANTS / name)
    a = load_set(Path(b.base or ""))
    blocks = {how: play_variant(a, b, players, seed, games, how) for how in ("today", "rotate", "sync")}
    flat = [p[0] for p in blocks["today"]]
    va = Version([p[0] for p in flat], a, players)
    vb = Version([p[1] for p in flat], b, players)
    knock: dict[str, list[float]] = {}
    worst_t = 0.0
    print(f"{name} at {players}p, {games} games, seed {seed}:")
    for test, family, pairs in tests_of(a, b):
        ratios: dict[str, list[float]] = {}
        base = []
        for da, db in pairs:
            var, t = candidates(va, vb, da, db, family != "knock-on")
            worst_t = max(worst_t, t)
            for how in ("rotate", "sync"):
                var[how] = block_variance(blocks[how], a, b, players, da, db)
            base.append(var["today"])
            for k, x in var.items():
                if k != "today" and x > 0:
                    ratios.setdefault(k, []).append(var["today"] / x)
        row = {k: statistics.median(x) for k, x in ratios.items()}
        if family == "knock-on":
            for k, x in row.items():
                knock.setdefault(k, []).append(x)
            continue
        print(f"  {test} ({family}): per-game var today {statistics.median(base):.3f}; games today / with: "
              + ", ".join(f"{k} {x:.2f}" for k, x in row.items()))
        for k, x in row.items():
            summary.setdefault(k, []).append(x)
    if knock:
        print("  unchanged cards (median): " + ", ".join(f"{k} {statistics.median(x):.2f}" for k, x in knock.items()))
    print(f"  controls' means: largest |t| {worst_t:.1f}")
    primary = [t for t in test_plan(a, b).tests if t.family in ("changed", "new")]
    share = sum(_informative(pair, primary, players) for pair in flat) / len(flat)
    cost = share + (1 - share) / CENSUS
    print(f"  deals informative for a tested card: {share:.2f}; played games today / when only those and one in "
          f"{CENSUS} of the rest are played: {1 / cost:.2f}")
    summary.setdefault("skip", []).append(1 / cost)


def _informative(pair: tuple, tests: list, players: int) -> bool:
    """Some tested card's holders are neither none nor all of the seats, in A or in B."""
    for note, designs in ((pair[0], [d for t in tests for d in (t.da, *t.band)]), (pair[1], [t.db for t in tests])):
        for d in designs:
            if d >= 0 and 0 < sum((m >> d) & 1 for m in note[1]) < players:
                return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*", default=DEFAULT)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = ap.parse_args()
    summary: dict[str, list[float]] = {}
    for name in args.fixtures:
        for players in args.players:
            fixture(name, players, args.games, args.seed, summary)
    print("tested cards, games today / with the candidate (median, min, max over fixtures and sizes):")
    for k, x in summary.items():
        print(f"  {k:11s} {statistics.median(x):.2f} ({min(x):.2f} .. {max(x):.2f}); at least 1.33 on "
              f"{sum(v >= 4 / 3 for v in x)} of {len(x)}")


if __name__ == "__main__":
    main()
