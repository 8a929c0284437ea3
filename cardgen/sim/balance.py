"""The balance procedure: which cards a designer's change made too strong or too weak, and how sure we are.

One procedure, one set of defaults (`BalanceConfig`), shared by `cardgen compare`, `cardgen validate` and
`cardgen simulate`'s summary (docs/simulation.md, "Balance verdicts"):

1. **What changed** (`card_changes`): a card's identity is its design, the mechanics; name, flavour, art and
   print fields are not. Each card of the two versions is `mechanics` (changed), `copies` (same design, other
   count), `new`, `removed` or `unchanged`.
2. **Paired games** at every table size of `BalanceConfig.tables` (2 and 4 players): game i of both versions
   deals from the same per-card random keys (`cardgen.sim.deal.keyed_deck`), so the cards they share lie in
   the same order whatever the deck sizes, and the bots get the same seeds (common random numbers).
3. **Two families of tests** per table size: the changed and new cards (the designer's edits: primary) and
   the other cards (knock-on effects), each Holm-adjusted on its own. A card's figure is its opening-hand
   impact (win rate of players who start with it minus the others', `cardgen.sim.impact`); a changed card is
   tested on its change (B minus A), a new card against the band its role spans in the base set (the
   strongest and the weakest base card of the same role), a card of a set with no base against 0.
4. **Anytime-valid intervals** (an asymptotic confidence sequence, Waudby-Smith et al. 2021), so the games
   can be looked at after every chunk and stopped as soon as every primary card is decided, within a time
   budget; what is still open when the budget runs out is said, with the games a verdict would need.
5. **A minimum effect that matters** (`min_effect`, points of win rate): a card is called only if its
   interval excludes 0 *and* the estimate is at least that large; it is cleared ("no change that matters")
   when its whole interval lies within +-min_effect.
6. **Table size** (`Interaction`): a card called at one table size and not the same way at another is said to
   depend on the table size only when the difference between its two figures is itself clear (an anytime-valid
   interval of the difference, Holm over the primary cards); a short phase 2 plays on to settle it.

The public types (`CardChange`, `BalanceConfig`, `Verdict`, `TableResult`, `BalanceResult`) and functions
(`card_changes`, `compare_versions`, `assess_set`, `result_json`, `verdict_lines`) are the API other
modules build on (tune, reports).
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.game import Game, make_game, seat_names
from cardgen.errors import CardgenError
from cardgen.model import Card, CardSet
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.agents import DEFAULT_BUDGET, Budget, make_agent, parse_budget
from cardgen.sim.deal import KeyPlan, key_plan, keyed_deck
from cardgen.sim.impact import length_words, paired_length
from cardgen.sim.play import card_labels, play_one
from cardgen.sim.runner import SimConfig, sigint_held
from cardgen.sim.seeding import derive_seed

ChangeKind = Literal["mechanics", "copies", "new", "removed", "unchanged"]
Family = Literal["changed", "new", "knock-on", "card"]
Call = Literal["stronger", "weaker", "too strong", "too weak", "no change that matters", "within the band",
               "undecided", "not tested"]

# Card fields that are not its design: a change to these alone leaves the card the same card.
NOT_DESIGN: frozenset[str] = frozenset({"name", "count", "source", "number", "text", "flavour", "art", "origin",
                                        "file", "line", "column", "intended"})
CHUNK = 200  # games of one table size per look (and per worker task)
MIN_GAMES = 400  # no verdict before this many games at a table size (the normal approximation needs them)
Z95 = 1.959963984540054
TUNED_FOR = 4000  # the confidence sequence is tightest around this many games


class BalanceError(CardgenError):
    """Two versions that cannot be compared, or options the procedure cannot run with."""


@dataclass(frozen=True)
class CardChange:
    """One card of either version and what the designer did to it: `kind`, copies (A, B; 0 where absent), the
    design fields that differ (`fields`, for `mechanics`) and its role (attack, defence, ...)."""

    name: str
    kind: ChangeKind
    copies: tuple[int, int]
    fields: tuple[str, ...] = ()
    role: str = ""


@dataclass(frozen=True)
class BalanceConfig:
    """The shared defaults. `seconds` is the wall-time budget of the whole run (all table sizes); `games`, if
    set, plays exactly that many games per table size with no early stop and no budget (exactly reproducible);
    otherwise the games stop when every primary card is decided, at `max_games`, or at the budget."""

    tables: tuple[int, ...] = defaults.TABLES
    agents: tuple[str, ...] = defaults.AGENTS
    seed: int = 0
    alpha: float = defaults.ALPHA  # family-wise error per family, shared between the table sizes
    min_effect: float = defaults.MIN_EFFECT  # points of win rate: smaller changes do not matter to a designer
    seconds: float = defaults.SECONDS
    max_games: int = defaults.MAX_GAMES
    games: int | None = None
    jobs: int = 1
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))  # the search bot's, if used

    def level(self) -> float:
        """The error rate of one family at one table size (Bonferroni over the table sizes)."""
        return self.alpha / max(1, len(self.tables))


@dataclass(frozen=True)
class Verdict:
    """One card at one table size. `change` and `low`..`high` are points of win rate (the anytime-valid interval
    at the card's Holm level); `a_rate`/`b_rate` the win rate of players who start with the card (A, B) and
    `others`/`a_others` those of the rest (B, A); a removed card gets no verdict. For a new card,
    `reference` names the base card it is measured against (the band's edge); for a set with no base, the
    figure is the impact itself (against 0)."""

    card: str
    players: int
    family: Family
    kind: ChangeKind
    call: Call
    change: float | None
    low: float | None
    high: float | None
    p: float | None  # anytime-valid p-value of "no change", Holm-adjusted in its family, x the table sizes
    a_rate: float | None
    b_rate: float | None
    others: float | None
    a_others: float | None
    reference: str | None
    games: int
    games_needed: int | None  # for an undecided card: about how many games a verdict would take

    @property
    def flagged(self) -> bool:
        return self.call in ("stronger", "weaker", "too strong", "too weak")


@dataclass(frozen=True)
class TableResult:
    """The games at one table size: how many, why they stopped, and the verdicts (primary family first)."""

    players: int
    games: int
    stopped: Literal["decided", "budget", "max games", "games", "nothing to test"]
    seconds: float
    verdicts: tuple[Verdict, ...]
    length: dict[str, float] | None = None  # game length in turns, A and B and the paired change (impact.py)
    interaction_games: int = 0  # of `games`, those played after the verdicts were clear, for `Interaction`s


@dataclass(frozen=True)
class Interaction:
    """Whether a primary card's figure differs between two table sizes: `change` (points) is its figure at
    `tables[1]` minus at `tables[0]`, `low`..`high` the anytime-valid interval of that difference at the card's
    Holm level, `p` the Holm-adjusted p-value (family: the primary cards, at the run's `alpha`). `depends`: the
    card is called at one of the two sizes and not the same way at the other, and the difference is clear (the
    interval excludes 0) and at least the minimum effect."""

    card: str
    tables: tuple[int, int]
    change: float
    low: float
    high: float
    p: float
    depends: bool


@dataclass(frozen=True)
class BalanceResult:
    a: str
    b: str | None
    changes: tuple[CardChange, ...]
    tables: tuple[TableResult, ...]
    config: BalanceConfig
    seconds: float
    depends_on_table: tuple[str, ...] = ()  # cards whose figure clearly differs between table sizes
    intended: dict[str, str] = field(default_factory=dict)  # card -> its `intended:` note (set data)
    interactions: tuple[Interaction, ...] = ()

    def flagged(self, family: tuple[Family, ...] = ("changed", "new", "card")) -> list[Verdict]:
        return [v for t in self.tables for v in t.verdicts if v.flagged and v.family in family]


# --- what changed ---------------------------------------------------------------------------------------------


# How the charts tag a card the designer changed, by kind of change (the card's row is highlighted).
CHANGE_TAGS: dict[str, str] = {"mechanics": "changed", "copies": "copies", "new": "new"}


def design_of(card: Card) -> tuple[Any, ...]:
    """A card's identity: every field that changes how it plays (not its name, count, words or picture)."""
    return tuple(getattr(card, f.name) for f in dataclasses.fields(card) if f.name not in NOT_DESIGN)


def _design_fields(a: Card, b: Card) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(a)
                 if f.name not in NOT_DESIGN and getattr(a, f.name) != getattr(b, f.name))


def card_changes(a: CardSet, b: CardSet) -> list[CardChange]:
    """Every card of A (in A's order) then B's new ones, each with what changed; cards are matched by name
    (a renamed card is one removed and one new)."""
    lb = {c.name.casefold(): c for c in b.cards}
    la = {c.name.casefold() for c in a.cards}
    out: list[CardChange] = []
    for c in a.cards:
        other = lb.get(c.name.casefold())
        if other is None:
            out.append(CardChange(c.name, "removed", (c.count, 0), role=a.role(c)))
            continue
        fields = _design_fields(c, other) + (("type",) if a.role(c) != b.role(other) else ())
        kind: ChangeKind = "mechanics" if fields else "copies" if c.count != other.count else "unchanged"
        out.append(CardChange(c.name, kind, (c.count, other.count), tuple(dict.fromkeys(fields)), b.role(other)))
    for c in b.cards:
        if c.name.casefold() not in la:
            out.append(CardChange(c.name, "new", (0, c.count), role=b.role(c)))
    return out


def plays_alike(a: CardSet, b: CardSet) -> bool:
    """The two versions play identical games: same designs, same copies, same rules, in the same order."""
    return (a.rules == b.rules and len(a.cards) == len(b.cards)
            and all(x.name == y.name and x.count == y.count and design_of(x) == design_of(y)
                    and a.role(x) == b.role(y) for x, y in zip(a.cards, b.cards, strict=True)))


# --- paired games ---------------------------------------------------------------------------------------------

# One game of one version, as the balance lab reads it: (winner seat or -1, opening-hand mask per seat, turns).
# Not the engine's `Outcome` (how a game ended): a record of who won holding which cards.
WinnerAndHands = tuple[int, tuple[int, ...], int]
# Games already played, per version (A, B), by (players, game).
Memo = tuple[dict[tuple[int, int], WinnerAndHands], dict[tuple[int, int], WinnerAndHands]]


@dataclass
class PairTask:
    """Games first..stop-1 at `players` of both versions (B may be None: one set alone). Picklable."""

    a: CardSet
    b: CardSet | None
    agents: tuple[str, ...]
    seed: int
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))
    info: tuple[tuple[CardInfo, ...], tuple[CardInfo, ...] | None] | None = None
    plans: tuple[KeyPlan, KeyPlan | None] | None = None
    # outcomes already played, per version, by (players, game): a game of a version plays the same whatever the
    # other version is, so `tune` hands every candidate the base's outcomes (filled in this process only)
    memo: Memo | None = None

    def __call__(self, players: int, first: int, stop: int) -> list[tuple[WinnerAndHands, WinnerAndHands | None]]:
        if self.info is None:
            self.info = (card_info(self.a), None if self.b is None else card_info(self.b))
        if self.plans is None:
            self.plans = (key_plan(self.a), None if self.b is None else key_plan(self.b, self.a))
        run = table_seed(self.seed, players)
        cfg = SimConfig(players=players, agents=self.agents)
        from cardgen.sim.runner import seats_of

        out: list[tuple[WinnerAndHands, WinnerAndHands | None]] = []
        tables: dict[int, Game] = {}  # each set's game at this table, made once for the range
        for g in range(first, stop):
            names = seats_of(cfg, g)
            pair: list[WinnerAndHands | None] = []
            for v, (cs, info, plan) in enumerate(((self.a, self.info[0], self.plans[0]),
                                                   (self.b, self.info[1], self.plans[1]))):
                if cs is None or info is None:
                    pair.append(None)
                    continue
                known = None if self.memo is None else self.memo[v].get((players, g))
                if known is None:
                    table = tables.get(v)
                    if table is None:
                        table = tables[v] = make_game(cs, seat_names(players), info=info)
                    bots = [make_agent(n, derive_seed(run, g, s + 1), self.budget) for s, n in enumerate(names)]
                    rec = play_one(cs, info, bots, names, derive_seed(run, g), f"game {g}",
                                   deck=keyed_deck(cs, run, g, plan), shuffled=True, game=table)
                    known = (-1 if rec.winner_seat is None else rec.winner_seat, rec.opening, rec.turns)
                    if self.memo is not None:
                        self.memo[v][(players, g)] = known
                pair.append(known)
            first_outcome = pair[0]
            assert first_outcome is not None
            # one set alone: the same games fill both slots (a card in B's, the band it is measured against in A's)
            out.append((first_outcome, first_outcome if self.b is None else pair[1]))
        return out


def table_seed(seed: int, players: int) -> int:
    """The run seed of the games at one table size (each size plays its own games)."""
    return derive_seed(seed, 1_000_000 + players)


_WORKER: dict[str, Any] = {}


def _init(task: PairTask) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["task"] = task


def _chunk(spec: tuple[int, int, int]) -> list[tuple[WinnerAndHands, WinnerAndHands | None]]:
    task: PairTask = _WORKER["task"]
    return task(*spec)


# --- the statistics -------------------------------------------------------------------------------------------


def _held(outcome: WinnerAndHands | None) -> dict[int, tuple[int, int]]:
    """Per design in some opening hand: (1 if the winner started with it else 0, seats that started with it)."""
    if outcome is None:
        return {}
    winner, masks = outcome[0], outcome[1]
    out: dict[int, list[int]] = {}
    for seat, m in enumerate(masks):
        while m:
            low = m & -m
            d = low.bit_length() - 1
            m ^= low
            row = out.setdefault(d, [0, 0])
            row[1] += 1
            if seat == winner:
                row[0] = 1
    return {d: (r[0], r[1]) for d, r in out.items()}


@dataclass
class Tally:
    """The paired games of one table size, folded in game order: per version the games with a winner and the
    holders of each design; per tested pair (design in A or -1, design in B or -1) how often each joint
    (holder won, holders) pattern came up, which is all the delta-method variance needs."""

    seats: int
    games: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])  # games with a winner, A and B
    holders: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    holder_wins: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    joint: dict[tuple[int, int], Counter[tuple[int, ...]]] = field(default_factory=dict)
    turns: list[int] = field(default_factory=lambda: [0, 0])  # turns played in all, A and B
    turn_diff2: int = 0  # sum over games of (B's turns - A's turns) squared

    def add(self, pair: tuple[WinnerAndHands, WinnerAndHands | None], pairs: list[tuple[int, int]]) -> None:
        self.games += 1
        self.turns[0] += pair[0][2]
        if pair[1] is not None:
            self.turns[1] += pair[1][2]
            self.turn_diff2 += (pair[1][2] - pair[0][2]) ** 2
        ha, hb = _held(pair[0]), _held(pair[1])
        wa = 1 if pair[0][0] >= 0 else 0
        wb = 1 if pair[1] is not None and pair[1][0] >= 0 else 0
        self.won[0] += wa
        self.won[1] += wb
        for v, h in enumerate((ha, hb)):
            for d, (a, n) in h.items():
                self.holders[v][d] += n
                self.holder_wins[v][d] += a
        for key in pairs:
            da, db = key
            xa = ha.get(da, (0, 0)) if da >= 0 else (0, 0)
            xb = hb.get(db, (0, 0)) if db >= 0 else (0, 0)
            counter = self.joint.get(key)
            if counter is None:
                counter = self.joint[key] = Counter()
            counter[(xa[0], xa[1], wa, xb[0], xb[1], wb)] += 1

    def rates(self, v: int, d: int) -> tuple[float, float] | None:
        """(win rate of players who started with design d, of the others) in version v; None if a side is empty."""
        n1 = self.holders[v][d]
        n0 = self.seats * self.games - n1
        if n1 == 0 or n0 == 0:
            return None
        w1 = self.holder_wins[v][d]
        return w1 / n1, (self.won[v] - w1) / n0

    def difference(self, key: tuple[int, int]) -> tuple[float, float] | None:
        """(impact in B of key[1] minus impact in A of key[0], its delta-method variance); an absent side is 0."""
        da, db = key
        parts: list[tuple[float, float, int, int] | None] = []
        estimate = 0.0
        for v, d, sign in ((0, da, -1), (1, db, 1)):
            if d < 0:
                parts.append(None)
                continue
            r = self.rates(v, d)
            if r is None:
                return None
            n1 = self.holders[v][d]
            parts.append((r[0], r[1], n1, self.seats * self.games - n1))
            estimate += sign * (r[0] - r[1])
        var = 0.0
        for (aa, na, wa, ab, nb, wb), count in self.joint.get(key, Counter()).items():
            psi = 0.0
            for part, a, n, w, sign in ((parts[0], aa, na, wa, -1), (parts[1], ab, nb, wb, 1)):
                if part is None:
                    continue
                p1, p0, n1, n0 = part
                psi += sign * ((a - p1 * n) / n1 - ((w - a) - p0 * (self.seats - n)) / n0)
            var += count * psi * psi
        return estimate, var


def _rho2(alpha: float) -> float:
    return (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / TUNED_FOR


def half_width(var: float, games: int, alpha: float) -> float:
    """Half-width of the anytime-valid interval (asymptotic confidence sequence, Waudby-Smith et al. 2021,
    tuned for `TUNED_FOR` games) of an estimate whose fixed-sample variance is `var` after `games` games."""
    if var <= 0 or games <= 0:
        return 0.0
    t = games * _rho2(alpha)
    return math.sqrt(var * 2 * (t + 1) / t * math.log(math.sqrt(t + 1) / alpha))


def anytime_p(estimate: float, var: float, games: int, alpha: float) -> float:
    """The smallest error level at which the anytime-valid interval excludes 0 (the interval's own p-value)."""
    if var <= 0:
        return 1.0 if estimate == 0 else 0.0
    t = games * _rho2(alpha)
    return min(1.0, math.sqrt(t + 1) * math.exp(-estimate * estimate * t / (2 * var * (t + 1))))


def holm_levels(pvalues: list[float], alpha: float) -> tuple[list[float], list[float]]:
    """Holm's step-down: (adjusted p-values, the level each test is judged at: alpha/(m - step) for the cards
    rejected in turn, and the first unrejected step's level for the rest), so an interval at its card's level
    excludes 0 exactly when Holm rejects."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    levels = [alpha] * m
    running = 0.0
    stopped: float | None = None
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
        level = alpha / (m - rank)
        if stopped is None and pvalues[i] > level:
            stopped = level
        levels[i] = level if stopped is None else stopped
    return adjusted, levels


# --- verdicts -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Test:
    """One tested card: its family, change kind, and the (A design, B design) pairs that measure it."""

    name: str
    family: Family
    kind: ChangeKind
    da: int  # design in A, or -1
    db: int  # design in B, or -1
    band: tuple[int, ...] = ()  # new card: the base designs of its role (the band)


def _plan(a: CardSet, b: CardSet | None) -> tuple[list[CardChange], list[_Test]]:
    la = {c.name.casefold(): d for d, c in enumerate(a.cards)}
    if b is None:
        changes = [CardChange(c.name, "unchanged", (c.count, c.count), role=a.role(c)) for c in a.cards]
        # one set alone: each card against the band the other cards of its role span, on the same games (both
        # "versions" are the same games: the card in B's slot, the band in A's)
        return changes, [_Test(c.name, "card", "unchanged", d, d, _band(a, la, a.role(c), exclude=d))
                         for d, c in enumerate(a.cards)]
    lb = {c.name.casefold(): d for d, c in enumerate(b.cards)}
    changes = card_changes(a, b)
    tests: list[_Test] = []
    for ch in changes:
        key = ch.name.casefold()
        if ch.kind == "removed":
            continue
        if ch.kind == "new":
            band = _band(a, lb, ch.role)
            tests.append(_Test(ch.name, "new", "new", -1, lb[key], band))
        else:
            family: Family = "changed" if ch.kind in ("mechanics", "copies") else "knock-on"
            tests.append(_Test(ch.name, family, ch.kind, la[key], lb[key]))
    return changes, tests


BAND_MIN_COPIES = 2  # a one-copy card's figure is too loose to be an edge of the band (about +-8 points at 4,000
# two-player games)


def _band(a: CardSet, in_b: dict[str, int], role: str, exclude: int = -1) -> tuple[int, ...]:
    """The base designs a new card of `role` is measured against: A's cards of that role that B still has, with
    at least BAND_MIN_COPIES copies (all of that role if none has; every shared card if the role is new);
    `exclude`: a design left out (a card is not its own band)."""
    shared = [(d, c) for d, c in enumerate(a.cards) if c.name.casefold() in in_b and d != exclude]
    same = [(d, c) for d, c in shared if a.role(c) == role]
    firm = [d for d, c in same if c.count >= BAND_MIN_COPIES]
    return tuple(firm or [d for d, _ in same] or [d for d, _ in shared])


def _pairs(tests: list[_Test]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for t in tests:
        if t.family in ("new", "card"):
            out += [(r, t.db) for r in t.band] + [(r, -1) for r in t.band]
        else:
            out.append((t.da, t.db))
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class _Figure:
    name: str
    test: _Test
    estimate: float | None
    var: float
    reference: str | None = None
    # new cards: which edge of the band it is measured against, and (estimate, variance) against the other one
    edge: Literal["hi", "lo", ""] = ""
    other: tuple[float, float] | None = None


def _figures(tally: Tally, tests: list[_Test], names_a: list[str]) -> list[_Figure]:
    out: list[_Figure] = []
    for t in tests:
        if t.family not in ("new", "card"):
            d = tally.difference((t.da, t.db))
            out.append(_Figure(t.name, t, None if d is None else d[0], 0.0 if d is None else d[1]))
            continue
        edges = [(r, tally.difference((r, -1))) for r in t.band]
        # (design, its impact in A, its standard error): the band's edges are the cards surely that strong
        known = [(r, -e[0], math.sqrt(e[1])) for r, e in edges if e is not None]
        if not known:
            out.append(_Figure(t.name, t, None, 0.0))
            continue
        hi = max(known, key=lambda x: x[1] - Z95 * x[2])[0]
        lo = min(known, key=lambda x: x[1] + Z95 * x[2])[0]
        dh, dl = tally.difference((hi, t.db)), tally.difference((lo, t.db))
        if dh is None or dl is None:
            out.append(_Figure(t.name, t, None, 0.0))
            continue
        # the edge the new card is nearer to (or beyond) is the one it is judged against
        if dh[0] > 0 or abs(dh[0]) < abs(dl[0]):
            out.append(_Figure(t.name, t, dh[0], dh[1], names_a[hi], "hi", dl))
        else:
            out.append(_Figure(t.name, t, dl[0], dl[1], names_a[lo], "lo", dh))
    return out


def _toward(f: _Figure) -> float:
    """The part of a figure its test is about: against the band's top edge only a card above it counts, against
    the bottom edge only one below it (so Holm's steps are not spent on cards inside the band)."""
    est = f.estimate or 0.0
    if f.edge == "hi":
        return max(est, 0.0)
    if f.edge == "lo":
        return min(est, 0.0)
    return est


def _call(f: _Figure, low: float, high: float, margin: float, hw_other: float) -> Call:
    """The verdict from the interval [low, high] (fractions) and the minimum effect `margin` (a fraction)."""
    est = f.estimate
    assert est is not None
    if f.test.family in ("new", "card"):
        assert f.other is not None
        o_low, o_high = f.other[0] - hw_other, f.other[0] + hw_other
        if f.edge == "hi":
            if low > 0:
                return "too strong"
            return "within the band" if high < margin and o_low > -margin else "undecided"
        if high < 0:
            return "too weak"
        return "within the band" if low > -margin and o_high < margin else "undecided"
    if (low > 0 or high < 0) and abs(est) >= margin:
        return "stronger" if est > 0 else "weaker"
    if -margin < low and high < margin:
        return "no change that matters"
    return "undecided"


def _needed(est: float, hw: float, games: int, min_effect: float) -> int:
    """About how many games in all would decide a card if its estimate held: at or past the minimum effect the
    half-width must fall below |est| (to call it), short of it below min_effect - |est| (to clear it: it cannot
    be called); the half-width falls about as 1/sqrt(games)."""
    target = abs(est) if abs(est) >= min_effect else min_effect - abs(est)
    if target <= 0 or hw <= 0:
        return games
    return int(math.ceil(games * (hw / target) ** 2 / 100) * 100)


def table_verdicts(tally: Tally, tests: list[_Test], names_a: list[str], cfg: BalanceConfig,
                   names_b: list[str] | None = None) -> list[Verdict]:
    """The verdicts at one table size from the games folded so far (Holm within each family)."""
    figures = _figures(tally, tests, names_a)
    level = cfg.level()
    out: dict[str, Verdict] = {}
    primary: tuple[Family, ...] = ("changed", "new", "card")
    for fam in (primary, ("knock-on",)):
        group = [f for f in figures if f.test.family in fam and f.estimate is not None]
        ps = [anytime_p(_toward(f), f.var, tally.games, level) for f in group]
        adjusted, levels = holm_levels(ps, level)
        for f, q, lv in zip(group, adjusted, levels, strict=True):
            est = f.estimate or 0.0
            hw = half_width(f.var, tally.games, lv)
            hw_other = half_width(f.other[1], tally.games, lv) if f.other is not None else 0.0
            low, high = est - hw, est + hw
            call = _call(f, low, high, cfg.min_effect / 100, hw_other) if tally.games >= MIN_GAMES else "undecided"
            rates_b = tally.rates(1, f.test.db) if f.test.db >= 0 else None
            rates_a = tally.rates(0, f.test.da) if f.test.da >= 0 and f.test.family != "card" else None
            out[f.name] = Verdict(
                f.name, tally.seats, f.test.family, f.test.kind, call, round(100 * est, 2), round(100 * low, 2),
                round(100 * high, 2), float(f"{min(1.0, q * len(cfg.tables)):.4g}"),
                None if rates_a is None else round(rates_a[0], 4),
                None if rates_b is None else round(rates_b[0], 4), None if rates_b is None else round(rates_b[1], 4),
                None if rates_a is None else round(rates_a[1], 4), f.reference, tally.games,
                _needed(est, hw, tally.games, cfg.min_effect / 100) if call == "undecided" else None)
    for f in figures:
        if f.name not in out:
            out[f.name] = Verdict(f.name, tally.seats, f.test.family, f.test.kind, "not tested", None, None, None,
                                  None, None, None, None, None, f.reference, tally.games, None)
    order = {"changed": 0, "new": 0, "card": 0, "knock-on": 1}
    return sorted(out.values(), key=lambda v: (order[v.family], not v.flagged, v.p if v.p is not None else 2.0))


def _decided(verdicts: list[Verdict]) -> bool:
    return all(v.call != "undecided" for v in verdicts if v.family != "knock-on")


# --- running --------------------------------------------------------------------------------------------------


def _run(a: CardSet, b: CardSet | None, cfg: BalanceConfig,
         progress: Callable[[int], None] | None, memo: Memo | None = None) -> BalanceResult:
    if cfg.games is not None and cfg.games < 1:
        raise BalanceError(f"--games must be at least 1, not {cfg.games}")
    if not 0 < cfg.alpha < 1:
        raise BalanceError(f"--alpha must be between 0 and 1, not {cfg.alpha}")
    changes, tests = _plan(a, b)
    tables = [p for p in cfg.tables if a.rules.hand_size * p <= a.total and (b is None or
                                                                            b.rules.hand_size * p <= b.total)]
    if not tables:
        raise BalanceError(f"set {a.name} has too few cards to deal hands at {', '.join(map(str, cfg.tables))} "
                           "players")
    names_a = card_labels(a)
    names_b = card_labels(b) if b is not None else None
    t0 = time.perf_counter()
    nothing = b is not None and plays_alike(a, b)
    results: list[TableResult] = []
    if nothing or not any(t.family != "knock-on" for t in tests):
        for p in tables:
            results.append(TableResult(p, 0, "nothing to test", 0.0, tuple(
                Verdict(t.name, p, t.family, t.kind, "not tested", None, None, None, None, None, None, None, None,
                        None, 0, None) for t in tests)))
        return _finish(a, b, changes, results, cfg, t0)
    pairs = _pairs(tests)
    task = PairTask(a, b, cfg.agents, cfg.seed, cfg.budget, memo=memo)
    tallies = {p: Tally(p) for p in tables}
    stop: dict[int, str] = {}
    verdicts: dict[int, list[Verdict]] = {}
    spent = {p: 0.0 for p in tables}
    limit = cfg.games if cfg.games is not None else cfg.max_games

    def fold(p: int, part: list[tuple[WinnerAndHands, WinnerAndHands | None]], secs: float) -> None:
        tally = tallies[p]
        if memo is not None and cfg.jobs > 1:  # a worker's games reach this process's memo only through here
            for g, (out_a, out_b) in enumerate(part, tally.games):
                memo[0][(p, g)] = out_a
                if out_b is not None:
                    memo[1][(p, g)] = out_b
        for pair in part:
            tally.add(pair, pairs)
        spent[p] += secs
        if progress is not None:
            progress(len(part))
        if cfg.games is None and tally.games >= MIN_GAMES:
            v = table_verdicts(tally, tests, names_a, cfg, names_b)
            verdicts[p] = v
            if _decided(v):
                stop[p] = "decided"
        if p not in stop and tally.games >= limit:
            stop[p] = "games" if cfg.games is not None else "max games"

    def out_of_time() -> bool:
        return cfg.games is None and time.perf_counter() - t0 > cfg.seconds

    specs = {p: 0 for p in tables}  # next game to hand out per table

    def next_spec() -> tuple[int, int, int] | None:
        open_tables = [p for p in tables if p not in stop and specs[p] < limit]
        if not open_tables:
            return None
        p = min(open_tables, key=lambda q: (specs[q], q))  # keep the table sizes level
        first = specs[p]
        specs[p] = min(first + CHUNK, limit)
        return p, first, specs[p]

    if cfg.jobs <= 1:
        while not out_of_time():
            spec = next_spec()
            if spec is None:
                break
            s0 = time.perf_counter()
            part = task(*spec)
            fold(spec[0], part, time.perf_counter() - s0)
    else:
        _run_pool(task, cfg.jobs, next_spec, fold, out_of_time, stop)
    for p in tables:
        if p not in stop:
            stop[p] = "budget"

    def current() -> dict[int, list[Verdict]]:
        for p in tables:
            # a table size that stopped because its verdicts were clear keeps the verdicts of that look: the
            # intervals are valid at the look where the rule stopped, and phase 2's games serve the table-size
            # question only (read again, a card called at its stop could drift back to undecided as its
            # estimate settles)
            if stop.get(p) == "decided":
                continue
            if p not in verdicts or cfg.games is not None or verdicts[p][0].games != tallies[p].games:
                verdicts[p] = table_verdicts(tallies[p], tests, names_a, cfg, names_b)
        return verdicts

    # Phase 2: where the calls differ between table sizes, a few more games (in this process, one chunk at a
    # time, so the result does not depend on `jobs`) until the difference itself is clear, or it cannot become
    # clear within INTERACTION_GROWTH times the games, or the budget.
    extra = {p: 0 for p in tables}
    caps = {p: min(limit, INTERACTION_GROWTH * tallies[p].games) for p in tables}
    while cfg.games is None and len(tables) > 1 and not out_of_time():
        spec = _interaction_spec(tallies, tests, names_a, cfg, current(), caps)
        if spec is None:
            break
        s0 = time.perf_counter()
        part = task(*spec)
        for pair in part:
            tallies[spec[0]].add(pair, pairs)
        spent[spec[0]] += time.perf_counter() - s0
        extra[spec[0]] += len(part)
        if progress is not None:
            progress(len(part))
    final = current()
    for p in tables:
        tally = tallies[p]
        results.append(TableResult(p, tally.games, stop[p], round(spent[p], 3),  # type: ignore[arg-type]
                                   tuple(final[p]), paired_length(tally.games, tally.turns[0], tally.turns[1],
                                                                  tally.turn_diff2, b is not None), extra[p]))
    inter = _interactions(_interaction_rows(tallies, tests, names_a, cfg, final), cfg)[0] if len(tables) > 1 else []
    return _finish(a, b, changes, results, cfg, t0, inter)


def _run_pool(task: PairTask, jobs: int, next_spec: Callable[[], tuple[int, int, int] | None],
              fold: Callable[[int, list[tuple[WinnerAndHands, WinnerAndHands | None]], float], None],
              out_of_time: Callable[[], bool], stop: dict[int, str]) -> None:
    """Chunks in worker processes, at most `jobs + 1` in flight, folded per table size in game order (so the
    verdicts do not depend on `jobs`; only how far the time budget reaches does)."""
    ctx = multiprocessing.get_context("spawn")
    pool = None
    try:
        with sigint_held():
            pool = ctx.Pool(jobs, initializer=_init, initargs=(task,))
        flight: list[tuple[tuple[int, int, int], Any, float]] = []
        waiting: dict[int, dict[int, tuple[list[tuple[WinnerAndHands, WinnerAndHands | None]], float]]] = {}
        folded: dict[int, int] = {}
        while True:
            while len(flight) < jobs + 1 and not out_of_time():
                spec = next_spec()
                if spec is None:
                    break
                flight.append((spec, pool.apply_async(_chunk, (spec,)), time.perf_counter()))
            if not flight:
                break
            spec, job, s0 = flight.pop(0)
            part = job.get()
            p, first, _ = spec
            waiting.setdefault(p, {})[first] = (part, time.perf_counter() - s0)
            while p not in stop and folded.get(p, 0) in waiting.get(p, {}):
                got, secs = waiting[p].pop(folded.get(p, 0))
                folded[p] = folded.get(p, 0) + len(got)
                fold(p, got, secs)
            if out_of_time():
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


INTERACTION_GROWTH = 2  # phase 2 plays a table size up to this many times the games its verdicts took


@dataclass(frozen=True)
class _Row:
    """One primary card at two table sizes p < q: its figure's difference (q minus p, a fraction) and what the
    anytime-valid interval of that difference needs (the two mixture weights w and the log-sqrt(t + 1) terms)."""

    name: str
    p: int
    q: int
    diff: float
    w: tuple[float, float]
    log_t: float
    differ: bool  # the calls differ: called at one size, cleared or called the other way at the other


def _sides(f: _Figure) -> dict[str, tuple[float, float]]:
    """A figure's (estimate, variance) per band edge ("" for a changed card's own change)."""
    if f.estimate is None:
        return {}
    if f.test.family not in ("new", "card"):
        return {"": (f.estimate, f.var)}
    assert f.other is not None
    return {f.edge: (f.estimate, f.var), "lo" if f.edge == "hi" else "hi": f.other}


def _calls_differ(vp: Verdict, vq: Verdict) -> bool:
    """Called at one table size and not called the same way at the other (cleared, open, or the other way)."""
    return (vp.flagged or vq.flagged) and vp.call != vq.call


def _interaction_rows(tallies: dict[int, Tally], tests: list[_Test], names_a: list[str], cfg: BalanceConfig,
                      verdicts: dict[int, list[Verdict]]) -> list[_Row]:
    """Every primary card at every pair of table sizes where it has a figure at both. A new card (or a card of a
    set alone) is compared against the same edge of its band at both sizes: the one it is called beyond, else
    the one it is judged against where its figure is largest."""
    figs = {p: {f.name: f for f in _figures(tally, tests, names_a)} for p, tally in tallies.items()}
    calls = {(v.card, p): v for p, vs in verdicts.items() for v in vs}
    rho2 = _rho2(cfg.alpha)
    sizes = sorted(tallies)
    rows: list[_Row] = []
    for test in tests:
        if test.family == "knock-on":
            continue
        for i, p in enumerate(sizes):
            for q in sizes[i + 1:]:
                fp, fq = figs[p].get(test.name), figs[q].get(test.name)
                if fp is None or fq is None or fp.estimate is None or fq.estimate is None:
                    continue
                sp, sq = _sides(fp), _sides(fq)
                said = {calls[(test.name, p)].call, calls[(test.name, q)].call}
                edge = ("" if "" in sp else "hi" if "too strong" in said else "lo" if "too weak" in said
                        else max((fp, fq), key=lambda f: abs(f.estimate or 0.0)).edge)
                (ep, vp), (eq, vq) = sp[edge], sq[edge]
                tp, tq = tallies[p].games * rho2, tallies[q].games * rho2
                if tp <= 0 or tq <= 0 or vp + vq <= 0:
                    continue
                w = (vp * 2 * (tp + 1) / tp, vq * 2 * (tq + 1) / tq)
                rows.append(_Row(test.name, p, q, eq - ep, w, 0.5 * math.log((tp + 1) * (tq + 1)),
                                 _calls_differ(calls[(test.name, p)], calls[(test.name, q)])))
    return rows


def _interactions(rows: list[_Row], cfg: BalanceConfig) -> tuple[list[Interaction], list[float]]:
    """The table-size interaction of each row, Holm over the rows at `cfg.alpha`, and each row's Holm level.

    The two table sizes play independent games, so the product of their two mixture martingales is one for the
    pair of figures; its confidence region, projected on the difference, is the interval
    diff +- sqrt((w_p + w_q) (log(1/level) + log sqrt(t_p + 1) + log sqrt(t_q + 1))), valid at every look like
    each table's own (and tighter than combining the two intervals)."""
    ps = [min(1.0, math.exp(r.log_t - r.diff * r.diff / (r.w[0] + r.w[1]))) for r in rows]
    adjusted, levels = holm_levels(ps, cfg.alpha)
    out = []
    for r, q, lv in zip(rows, adjusted, levels, strict=True):
        hw = math.sqrt((r.w[0] + r.w[1]) * (math.log(1 / lv) + r.log_t))
        clear = r.differ and abs(r.diff) > hw and abs(r.diff) >= cfg.min_effect / 100
        out.append(Interaction(r.name, (r.p, r.q), round(100 * r.diff, 2), round(100 * (r.diff - hw), 2),
                               round(100 * (r.diff + hw), 2), float(f"{q:.4g}"), clear))
    return out, levels


def _interaction_spec(tallies: dict[int, Tally], tests: list[_Test], names_a: list[str], cfg: BalanceConfig,
                      verdicts: dict[int, list[Verdict]], caps: dict[int, int]) -> tuple[int, int, int] | None:
    """The next chunk phase 2 plays, or None: for the first card whose calls differ between two table sizes and
    whose difference is not clear yet but could be within the caps (the estimate is at least the minimum effect,
    and the interval would be narrow enough with INTERACTION_GROWTH times the games), a chunk at the size that
    adds most of the difference's variance (and is under its cap)."""
    rows = _interaction_rows(tallies, tests, names_a, cfg, verdicts)
    found, levels = _interactions(rows, cfg)
    for r, it, lv in zip(rows, found, levels, strict=True):
        if not r.differ or it.depends or abs(r.diff) < cfg.min_effect / 100:
            continue
        hw = math.sqrt((r.w[0] + r.w[1]) * (math.log(1 / lv) + r.log_t))
        if (hw / abs(r.diff)) ** 2 > INTERACTION_GROWTH:
            continue
        for p in sorted((r.p, r.q), key=lambda s: -r.w[0 if s == r.p else 1]):
            first = tallies[p].games
            if first < caps[p]:
                return p, first, min(first + CHUNK, caps[p])
    return None


def _finish(a: CardSet, b: CardSet | None, changes: list[CardChange], results: list[TableResult],
            cfg: BalanceConfig, t0: float, interactions: list[Interaction] | None = None) -> BalanceResult:
    # A card's `intended:` note excuses a call on the design it was written for: in a comparison, only a note
    # that B adds or rewrites counts (a note inherited unchanged from A was about A's design, not the edit).
    before = {c.name.casefold(): c.intended for c in a.cards} if b is not None else {}
    cs = b if b is not None else a
    intended = {c.name: c.intended for c in cs.cards
                if c.intended and (b is None or before.get(c.name.casefold()) != c.intended)}
    return BalanceResult(a.name, None if b is None else b.name, tuple(changes), tuple(results), cfg,
                         round(time.perf_counter() - t0, 3),
                         tuple(dict.fromkeys(i.card for i in interactions or [] if i.depends)), intended,
                         tuple(interactions or []))


def compare_versions(a: CardSet, b: CardSet, cfg: BalanceConfig = BalanceConfig(),
                     progress: Callable[[int], None] | None = None, memo: Memo | None = None) -> BalanceResult:
    """Paired games of A and B at every table size of `cfg`; per-card verdicts on the designer's changes
    (primary family) and on the other cards (knock-on family). `progress(n)` after every n games folded.
    `memo`: outcomes of A's and B's games already played with the same settings (read and filled; the games
    are the same games, so the verdicts do not change)."""
    if not {c.name.casefold() for c in a.cards} & {c.name.casefold() for c in b.cards}:
        raise BalanceError(f"sets {a.name} and {b.name} have no card in common: nothing to compare")
    return _run(a, b, cfg, progress, memo)


def judge_set(cs: CardSet, cfg: BalanceConfig = BalanceConfig(),
              progress: Callable[[int], None] | None = None) -> BalanceResult:
    """The verdicts on one set, as `validate` and `simulate --balance` give them: a set that extends another
    compared with its base (the designer's changes), any other set card by card against its role's band."""
    if cs.base:
        from pathlib import Path

        from cardgen.loader import load_set

        return compare_versions(load_set(Path(cs.base)), cs, cfg, progress)
    return assess_set(cs, cfg, progress)


def assess_set(cs: CardSet, cfg: BalanceConfig = BalanceConfig(),
               progress: Callable[[int], None] | None = None) -> BalanceResult:
    """One set alone (no base to compare with): each card's impact against 0, Holm over the cards."""
    return _run(cs, None, cfg, progress)


# --- words and JSON -------------------------------------------------------------------------------------------


def _one_in(points: float) -> str:
    """'about one extra win in 7 games' for a change of `points`."""
    n = 100 / abs(points)
    return f"about one {'extra win' if points > 0 else 'win fewer'} in {max(1, round(n))} games"


def _pct(x: float | None) -> str:
    return "?" if x is None else f"{100 * x:.0f} %"


def verdict_sentence(v: Verdict, result: BalanceResult) -> str:
    """A verdict in plain words (docs/simulation.md, "For designers"): who wins how often, by how much the card
    moved, what that is in games, and the call."""
    head = f"{v.card}, at {v.players} players"
    if v.call == "not tested" or v.change is None:
        return f"{head}: not tested (no player started with it, or nothing was played)"
    interval = f"{v.change:+.1f} points [{v.low:+.1f}, {v.high:+.1f}]"
    if v.family in ("new", "card"):
        role = next((c.role for c in result.changes if c.name == v.card), "")
        edge = "strongest" if v.change > 0 or v.call == "too strong" else "weakest"
        if v.family == "card":
            words = (f"players who start with {v.card} win {_pct(v.b_rate)} instead of {_pct(v.others)}; that is "
                     f"{interval} against {v.reference}, the {edge} other {role} card")
            head = f"at {v.players} players"
        else:
            words = (f"players who start with it win {_pct(v.b_rate)} of games, the others {_pct(v.others)}; that "
                     f"is {interval} against {v.reference}, the {edge} {role} card of the base set")
            head = f"new card {head}"
    else:
        words = (f"players who start with it win {_pct(v.b_rate)} of games, the others {_pct(v.others)} (before: "
                 f"{_pct(v.a_rate)} and {_pct(v.a_others)}): {interval}")
    if v.flagged:
        verdict = {"stronger": "Stronger than before", "weaker": "Weaker than before", "too strong": "Too strong",
                   "too weak": "Too weak"}[v.call]
        return f"{head}: {words}: {_one_in(v.change)}. {verdict}."
    if v.call == "undecided":
        return f"{head}: {words}: not clear yet after {v.games} games (about {v.games_needed} would tell)"
    return f"{head}: {words}: {v.call}"


def verdict_lines(result: BalanceResult) -> list[str]:
    """The terminal summary: what changed, then per table size the flagged cards in words, or "no card stands
    out", and what is undecided; then cards whose strength depends on the table size."""
    cfg = result.config
    lines: list[str] = []
    if result.b is not None:
        edits = [c for c in result.changes if c.kind != "unchanged"]
        lines.append(f"{result.a} -> {result.b}: " + (f"{len(edits)} card{'s' if len(edits) != 1 else ''} changed"
                                                       if edits else "no card's design or copies changed"))
        for c in edits:
            what = {"mechanics": f"changed ({', '.join(c.fields)})", "copies": f"copies {c.copies[0]} -> "
                    f"{c.copies[1]}", "new": f"new ({c.copies[1]} cop{'y' if c.copies[1] == 1 else 'ies'})",
                    "removed": "removed"}[c.kind]
            if c.kind == "mechanics" and c.copies[0] != c.copies[1]:
                what += f", copies {c.copies[0]} -> {c.copies[1]}"
            lines.append(f"  {c.name}: {what}")
    for t in result.tables:
        head = f"{t.players} players: {t.games} games"
        if t.stopped == "nothing to test":
            lines.append(f"{head}: nothing to test (the versions play identical games)"
                         if result.b is not None else f"{head}: nothing to test")
            continue
        reason = {"decided": "stopped when every verdict was clear", "budget": "time budget ran out",
                  "max games": "game limit reached", "games": "fixed game count"}[t.stopped]
        lines.append(f"{head} ({reason})")
        if t.length is not None:
            lines.append("  " + length_words(t.length))
        primary = [v for v in t.verdicts if v.family != "knock-on"]
        flagged = [v for v in primary if v.flagged and v.card not in result.intended]
        for v in flagged:
            lines.append("  " + verdict_sentence(v, result))
        for v in primary:
            if v.flagged and v.card in result.intended:
                lines.append(f"  {verdict_sentence(v, result)} (marked intended: {result.intended[v.card]})")
        if not flagged:
            lines.append("  no card stands out" + (" among the changed cards" if result.b is not None else ""))
        undecided = [v for v in primary if v.call == "undecided"]
        if result.b is not None:
            for v in undecided:
                lines.append("  " + verdict_sentence(v, result))
        elif undecided:
            lines.append(f"  not clear yet: {len(undecided)} card{'s' if len(undecided) != 1 else ''} "
                         f"({', '.join(v.card for v in undecided[:6])}{', ...' if len(undecided) > 6 else ''})")
        if result.b is not None:
            knock = [v for v in t.verdicts if v.family == "knock-on" and v.flagged]
            lines.append("  knock-on effects on the other cards: " + (
                "; ".join(f"{v.card} {v.change:+.1f} points" for v in knock) if knock else "none that matters"))
    if result.depends_on_table:
        lines.append("strength depends on the table size: " + "; ".join(
            f"{i.card} ({i.change:+.1f} points at {i.tables[1]} players against {i.tables[0]} "
            f"[{i.low:+.1f}, {i.high:+.1f}])" for i in result.interactions if i.depends))
    lines.append(f"(bots {','.join(cfg.agents)}; a change smaller than {cfg.min_effect:g} points does not count; "
                 f"error rate {cfg.alpha:g} per family; {result.seconds:.0f} s)")
    return lines


def result_json(result: BalanceResult) -> dict[str, Any]:
    """The documented JSON (docs/simulation.md, "Balance verdicts: the JSON"); timing keys last."""
    cfg = result.config
    return {
        "a": result.a, "b": result.b,
        "config": {"tables": list(cfg.tables), "agents": list(cfg.agents), "seed": cfg.seed, "alpha": cfg.alpha,
                   "min_effect": cfg.min_effect, "seconds": cfg.seconds, "max_games": cfg.max_games,
                   "games": cfg.games},
        "changes": [{"card": c.name, "kind": c.kind, "copies": list(c.copies), "fields": list(c.fields),
                     "role": c.role} for c in result.changes],
        "tables": [{"players": t.players, "games": t.games, "stopped": t.stopped,
                    "interaction_games": t.interaction_games, "length": t.length,
                    "verdicts": [{k: v for k, v in dataclasses.asdict(x).items() if k != "players"}
                                 for x in t.verdicts]} for t in result.tables],
        "flagged": sorted({v.card for v in result.flagged() if v.card not in result.intended}),
        "knock_on_flagged": sorted({v.card for v in result.flagged(("knock-on",))}),
        "depends_on_table": list(result.depends_on_table),
        "table_interaction": [{**dataclasses.asdict(i), "tables": list(i.tables)} for i in result.interactions],
        "intended": result.intended,
        "seconds": result.seconds, "jobs": cfg.jobs,
        "table_seconds": {str(t.players): t.seconds for t in result.tables},
    }


BALANCE_TIMING_KEYS: tuple[str, ...] = ("seconds", "jobs", "table_seconds")
