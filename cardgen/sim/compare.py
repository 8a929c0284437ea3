"""`cardgen compare A B`: did a change to a set change how strong its cards are, and which ones?

Both versions play the same games: game i of each is shuffled from the same
seed, over decks lined up card for card (`cardgen.sim.deal`), and its bots get
the same seeds (common random numbers). Where the decks are the same size the
hands are the same except where a changed card lies, so most of the chance
that separates two independent runs cancels out and small changes show.

For every card both versions have, the change of its impact (the win rate of
players who held it minus the others', `cardgen.sim.impact`) is tested with a
z-test whose variance comes from the paired games (a delta-method influence
sum per game, so the two seats of a game are not counted as independent), and
the p-values are Holm-adjusted for testing every card at once. The same is
done for the seat win rates. Each game's outcome is kept (a few integers), so
memory grows with the number of games.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.game import make_game, seat_names
from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.sim.agents import make_agent
from cardgen.sim.deal import aligned_orders
from cardgen.sim.impact import MEASURES, PRIMARY, Z95, effect
from cardgen.sim.play import card_labels, play_one
from cardgen.sim.runner import SimConfig, run_shards, seats_of
from cardgen.sim.seeding import derive_seed

ALPHA = 0.01
COMPARE_TIMING_KEYS: tuple[str, ...] = ("seconds", "jobs", "cluster", "games_per_s")

# One game of one version, as the comparison reads it: (winner seat or -1, opening-hand masks per seat, drawn masks
# per seat). Not the engine's `Outcome` (how a game ended): a record of who won holding which cards.
WinnerAndCards = tuple[int, tuple[int, ...], tuple[int, ...]]


class CompareError(CardgenError):
    """Two versions that cannot be compared (no card in common...)."""


@dataclass(frozen=True)
class CompareConfig:
    """What to play: `sim` as for `simulate`; `seed_b` gives B its own run seed (no common random numbers: the
    null check); `alpha` the Holm-adjusted p-value below which a difference is flagged."""

    sim: SimConfig = field(default_factory=SimConfig)
    seed_b: int | None = None
    alpha: float = ALPHA


@dataclass
class CompareTask:
    """Games first..stop-1 of both versions (picklable: sent once to each worker)."""

    a: CardSet
    b: CardSet
    cfg: CompareConfig
    order_a: list[int]
    order_b: list[int]
    info: tuple[tuple[CardInfo, ...], tuple[CardInfo, ...]] | None = None

    def __call__(self, first: int, stop: int) -> list[tuple[WinnerAndCards, WinnerAndCards]]:
        if self.info is None:
            self.info = (card_info(self.a), card_info(self.b))
        sim = self.cfg.sim
        seed_b = sim.seed if self.cfg.seed_b is None else self.cfg.seed_b
        out = []
        # each set's game at this table, made once for the range
        tables = [make_game(cs, seat_names(sim.players), info=info) for cs, info in zip((self.a, self.b), self.info,
                                                                                        strict=True)]
        for g in range(first, stop):
            names = seats_of(sim, g)
            pair = []
            for cs, info, order, seed, table in ((self.a, self.info[0], self.order_a, sim.seed, tables[0]),
                                                 (self.b, self.info[1], self.order_b, seed_b, tables[1])):
                agents = [make_agent(n, derive_seed(seed, g, s + 1), sim.budget) for s, n in enumerate(names)]
                rec = play_one(cs, info, agents, names, derive_seed(seed, g), f"game {g}", deck=order,
                               check_every_move=sim.check_every_move, game=table)
                winner = -1 if rec.winner_seat is None else rec.winner_seat
                pair.append((winner, rec.opening, rec.drawn))
            out.append((pair[0], pair[1]))
        return out


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: the family-wise error stays below alpha however many cards are tested."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _influence(games: list[WinnerAndCards], d: int, col: int) -> tuple[dict[str, Any], list[float]]:
    """The impact of design `d` (col 1: opening, 2: drawn) and each game's influence on it (delta method)."""
    bit = 1 << d
    n1 = w1 = n0 = w0 = 0
    for winner, *masks in games:
        for seat, m in enumerate(masks[col - 1]):
            won = seat == winner
            if m & bit:
                n1 += 1
                w1 += won
            else:
                n0 += 1
                w0 += won
    fig = effect(w1, n1, w0, n0)
    if not n1 or not n0:
        return fig, []
    p1, p0 = w1 / n1, w0 / n0
    psi = []
    for winner, *masks in games:
        v = 0.0
        for seat, m in enumerate(masks[col - 1]):
            y = 1.0 if seat == winner else 0.0
            v += (y - p1) / n1 if m & bit else -(y - p0) / n0
        psi.append(v)
    return fig, psi


def _test(delta: float, var: float) -> dict[str, Any]:
    se = math.sqrt(max(var, 0.0))
    z = delta / se if se > 0 else 0.0
    return {"change": round(100 * delta, 2), "ci95": [round(100 * (delta - Z95 * se), 2),
                                                      round(100 * (delta + Z95 * se), 2)],
            "z": round(z, 2), "p": p_two_sided(z) if se > 0 else 1.0}


def _card_changes(a: CardSet, b: CardSet, pairs: list[tuple[WinnerAndCards, WinnerAndCards]], alpha: float
                  ) -> dict[str, Any]:
    la, lb = card_labels(a), card_labels(b)
    ga = [p[0] for p in pairs]
    gb = [p[1] for p in pairs]
    cards: dict[str, Any] = {}
    tested: list[str] = []
    for da, name in enumerate(la):
        if name not in lb:
            cards[name] = {"only_in": "a"}
            continue
        db = lb.index(name)
        entry: dict[str, Any] = {"copies": [a.cards[da].count, b.cards[db].count]}
        for col, measure in enumerate(MEASURES, 1):
            fa, psi_a = _influence(ga, da, col)
            fb, psi_b = _influence(gb, db, col)
            row: dict[str, Any] = {"a": fa, "b": fb}
            if psi_a and psi_b:
                var = sum((x - y) ** 2 for x, y in zip(psi_b, psi_a, strict=True))
                row.update(_test(_raw(fb) - _raw(fa), var))
            entry[measure] = row
        if "p" in entry[PRIMARY]:
            tested.append(name)
        cards[name] = entry
    for name in lb:
        if name not in la:
            cards[name] = {"only_in": "b"}
    adjusted = holm([cards[n][PRIMARY]["p"] for n in tested])
    for name, q in zip(tested, adjusted, strict=True):
        row = cards[name][PRIMARY]
        row["p_holm"] = q
        row["flagged"] = q < alpha
        row["p"] = _round_p(row["p"])
        row["p_holm"] = _round_p(q)
    for name in tested:
        other = cards[name]["drawn"]
        if "p" in other:
            other["p"] = _round_p(other["p"])
    flagged = sorted((n for n in tested if cards[n][PRIMARY]["flagged"]), key=lambda n: cards[n][PRIMARY]["p_holm"])
    return {"cards": cards, "flagged": flagged, "tested": len(tested)}


def _raw(fig: dict[str, Any]) -> float:
    """The unrounded win-rate difference of an `effect` figure (its rounded `diff` would add rounding noise)."""
    return float(fig["holder_wins"] / fig["holders"] - fig["other_wins"] / fig["others"])


def _round_p(p: float) -> float:
    """Four significant figures: small p-values stay readable and the JSON stays stable."""
    return float(f"{p:.4g}")


def _seat_changes(pairs: list[tuple[WinnerAndCards, WinnerAndCards]], players: int) -> list[dict[str, Any]]:
    games = len(pairs)
    out: list[dict[str, Any]] = []
    pvals: list[float] = []
    for seat in range(players):
        diffs = [(1.0 if b[0] == seat else 0.0) - (1.0 if a[0] == seat else 0.0) for a, b in pairs]
        ra = sum(1 for a, _ in pairs if a[0] == seat) / games
        rb = sum(1 for _, b in pairs if b[0] == seat) / games
        mean = sum(diffs) / games
        var = sum((x - mean) ** 2 for x in diffs) / games / games
        row = {"seat": seat + 1, "a": round(ra, 4), "b": round(rb, 4), **_test(mean, var)}
        pvals.append(row["p"])
        out.append(row)
    for row, q in zip(out, holm(pvals), strict=True):
        row["p"] = _round_p(row["p"])
        row["p_holm"] = _round_p(q)
    return out


def compare(a: CardSet, b: CardSet, cfg: CompareConfig, progress: Any = None) -> dict[str, Any]:
    """Play both versions and return the documented compare JSON (docs/simulation.md)."""
    sim = cfg.sim
    sim.validate(a)
    sim.validate(b)
    if not set(card_labels(a)) & set(card_labels(b)):
        raise CompareError(f"sets {a.name} and {b.name} have no card in common: nothing to compare")
    order_a, order_b = aligned_orders(a, b)
    task = CompareTask(a, b, cfg, order_a, order_b)
    t0 = time.perf_counter()
    pairs: list[tuple[WinnerAndCards, WinnerAndCards]] = []
    for n, part in run_shards(task, sim.games, sim.jobs, sim.cluster):
        pairs.extend(part)
        if progress is not None:
            progress(n)
    seconds = time.perf_counter() - t0
    same_deals = a.total == b.total and cfg.seed_b in (None, sim.seed)
    out: dict[str, Any] = {
        "a": a.name, "b": b.name, "games": sim.games, "players": sim.players, "seed": sim.seed,
        "seed_b": sim.seed if cfg.seed_b is None else cfg.seed_b, "agent": ",".join(sim.agents),
        "common_random_numbers": "same deals and bot seeds" if same_deals else (
            "same bot seeds; decks of different sizes shuffle differently" if cfg.seed_b in (None, sim.seed)
            else "none (B has its own seed)"),
        "impact_measure": PRIMARY, "alpha": cfg.alpha,
    }
    out.update(_card_changes(a, b, pairs, cfg.alpha))
    out["seats"] = _seat_changes(pairs, sim.players)
    out["seconds"] = round(seconds, 3)
    out["jobs"] = sim.jobs
    out["cluster"] = sim.cluster
    out["games_per_s"] = round(2 * sim.games / max(seconds, 1e-9), 1)
    return out


def with_games(cfg: CompareConfig, games: int, seed: int) -> CompareConfig:
    """The same comparison with another game count and run seed (B keeps its own seed only if it had one)."""
    return replace(cfg, sim=replace(cfg.sim, games=games, seed=seed))
