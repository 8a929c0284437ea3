"""The balance procedure: which cards (or rules) a designer's change made too strong or too weak, and how sure.

1. **What changed** (`changes`): each card is `mechanics`, `copies`, `new`, `removed` or `unchanged`; the rules
   that play differently are listed too.
2. **Paired games** at every table size (`games`): game i of both versions deals from the same per-card keys
   and gives the bots the same seeds.
3. **Families of tests** per table size, each Holm-adjusted on its own (`verdicts`): the designer's edits
   (changed and new cards; a set alone: every card against its role's band), the game itself under changed
   rules (its length, the first player's edge), and the other cards (knock-on effects).
4. **Anytime-valid intervals** (`intervals`): the games are looked at after every chunk and stop as soon as
   every primary verdict is clear, or at the game budget (`max_games`): counts only, never the clock, so the
   same files and seed give the same verdicts on any machine, with any `jobs`.
5. **Table size** (`interaction`): a card called at one size and not the same way at the other depends on the
   table size only when the difference of its two figures is itself clear.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from cardgen.model import CardSet
from cardgen.sim import balance_defaults as defaults
from cardgen.sim.balance.cache import cached
from cardgen.sim.balance.changes import plays_alike
from cardgen.sim.balance.games import CHUNK, Memo, PairedNote, PairTask, counted, was_skipped
from cardgen.sim.balance.informative import SKIPPED, Tested, weight, worth_playing
from cardgen.sim.balance.interaction import INTERACTION_GROWTH, interaction_rows, interaction_spec, interactions
from cardgen.sim.balance.intervals import Extension, extension, look_plan
from cardgen.sim.balance.model import (
    BalanceConfig,
    BalanceError,
    BalanceResult,
    Interaction,
    Stopped,
    TableResult,
    Verdict,
)
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import PRIMARY, Plan, decided, plan, table_verdicts
from cardgen.sim.impact import paired_length
from cardgen.sim.runner import Spec, chunk_pool, run_chunks

Progress = Callable[[int], None]
DEFAULTS = BalanceConfig()


class KeptGames:
    """The games of each set judged alone, by the set's content and the settings that decide a game, kept by a
    caller that judges several sets (`validate`): a later comparison whose base is one of them plays the base's
    side of the same deals, the very same games, so it reads them from here instead."""

    def __init__(self) -> None:
        self._games: dict[str, Memo] = {}

    @staticmethod
    def _key(cs: CardSet, cfg: BalanceConfig) -> str:
        return hashlib.sha256(repr((cs, cfg.seed, cfg.agents, cfg.budget)).encode()).hexdigest()

    def of(self, cs: CardSet, cfg: BalanceConfig) -> Memo | None:
        """The games `cs` played alone with `cfg`'s settings, if it did."""
        return self._games.get(self._key(cs, cfg))

    def keep(self, cs: CardSet, cfg: BalanceConfig, memo: Memo) -> None:
        self._games[self._key(cs, cfg)] = memo


def _check(cfg: BalanceConfig) -> None:
    if cfg.games is not None and cfg.games < 1:
        raise BalanceError(f"--games must be at least 1, not {cfg.games}")
    if cfg.max_games < 1:
        raise BalanceError(f"--max-games must be at least 1, not {cfg.max_games}")
    if not 0 < cfg.alpha < 1:
        raise BalanceError(f"--alpha must be between 0 and 1, not {cfg.alpha}")


def _tables(a: CardSet, b: CardSet | None, cfg: BalanceConfig) -> list[int]:
    tables = [p for p in cfg.tables if a.rules.hand_size * p <= a.total and (b is None or
                                                                            b.rules.hand_size * p <= b.total)]
    if not tables:
        raise BalanceError(f"set {a.name} has too few cards to deal hands at {', '.join(map(str, cfg.tables))} "
                           "players")
    return tables


class _Games:
    """The games of every table size, folded per size in game order, with each size's stop."""

    def __init__(self, p: Plan, cfg: BalanceConfig, tables: list[int], memo: Memo | None,
                 progress: Progress | None, tested: Tested) -> None:
        self.plan, self.cfg, self.tables, self.memo, self.progress = p, cfg, tables, memo, progress
        self.tested = tested
        self.pairs = p.pairs()
        # every deal, for the designer's cards (`tallies`); the games played, weighted, for the rest (`census`):
        # one tally for both when every deal is played
        self.census = {n: Tally(n, p.watched()) for n in tables}
        self.tallies = self.census if tested is None else {n: Tally(n) for n in tables}
        self.primary_pairs = self.pairs if tested is None else p.pairs(PRIMARY)
        self.played = {n: 0 for n in tables}
        self.stop: dict[int, Stopped] = {}
        self.verdicts: dict[int, list[Verdict]] = {}
        self.handed = {n: 0 for n in tables}  # next game to hand out per table size
        self.looks = look_plan(cfg.limit(), cfg.games is not None, CHUNK)
        self.last = self.looks[-1][0]  # the budget's deals: the last look, unless the table size is extended
        # per table size, once its budget's deals are folded: the look after them, if any (`intervals.Extension`)
        self.extended: dict[int, Extension | None] = {}
        self.share = {n: 1.0 for n in tables}  # the error-rate share of each table size's last look
        self.spare: dict[Spec, list[PairedNote]] = {}  # chunks played past a table size's stop, by spec

    def reach(self, n: int) -> int:
        """The deals table size `n` may be handed out to now: the budget's, then (once they are folded and have
        played at most half the budget) its extension's cap; nothing past them while they are still in play."""
        if self.handed[n] < self.last:
            return self.last
        if n not in self.extended:
            return self.handed[n]
        ext = self.extended[n]
        return self.last if ext is None else ext.deals

    def next_spec(self) -> Spec | None:
        open_tables = [n for n in self.tables if n not in self.stop and self.handed[n] < self.reach(n)]
        if not open_tables:
            return None
        n = min(open_tables, key=lambda q: (self.handed[q], q))  # keep the table sizes level
        first, reach = self.handed[n], self.reach(n)
        look = next((g for g, _ in self.looks if g > first), reach)  # a chunk never runs past a look
        self.handed[n] = min(first + CHUNK, look, reach)
        return n, first, self.handed[n]

    def look_share(self, n: int) -> float | None:
        """The error-rate share of the look at table size `n`'s deals so far, or None if they are no look: a
        look of `look_plan`; at the budget's deals, the extension is settled (from the games played, so from
        the deals alone) and takes its share from this look's; then the extension's look."""
        deals = self.tallies[n].games
        if deals <= self.last:
            share = dict(self.looks).get(deals)
            if deals == self.last and share is not None:
                ext = None if self.tested is None else extension(self.cfg.limit(), self.cfg.games is not None,
                                                                 self.played[n], defaults.DEAL_CAP)
                self.extended[n] = ext  # (every deal played: the budget's deals played it all)
                share -= 0.0 if ext is None else ext.share
            return share
        ext = self.extended.get(n)
        return ext.share if ext is not None and ext.reached(self.played[n], deals) else None

    def fold(self, spec: Spec, part: list[PairedNote]) -> None:
        n = spec[0]
        if n in self.stop:  # played past the stop (in flight in a worker when the verdicts became clear):
            self.spare[spec] = part  # kept for phase 2, which goes on from the stop
            return
        tally = self.tallies[n]
        self.add(n, part)
        share = self.look_share(n)
        if share is not None:
            self.share[n] = share
            v = table_verdicts(tally, self.plan, self.cfg, share, self.census[n])
            self.verdicts[n] = v
            if self.cfg.games is None and decided(v):
                self.stop[n] = "decided"
        if n not in self.stop and self.spent(n):
            self.stop[n] = "games" if self.cfg.games is not None else "max games"

    def spent(self, n: int) -> bool:
        """Table size `n` is at its last look: the budget's deals with no extension, or the extension's look."""
        if n not in self.extended:
            return False
        ext = self.extended[n]
        return ext is None or ext.reached(self.played[n], self.tallies[n].games)

    def add(self, n: int, part: list[PairedNote]) -> None:
        tally, census = self.tallies[n], self.census[n]
        if self.memo is not None and self.cfg.jobs > 1:  # a worker's games reach this process's memo only here
            for g, (out_a, out_b) in enumerate(part, tally.games):
                if out_a[0] == SKIPPED:
                    continue
                self.memo[0][(n, g)] = out_a
                if out_b is not None:
                    self.memo[1][(n, g)] = out_b
        for g, pair in enumerate(part, tally.games):
            if census is tally:
                tally.add(pair, self.pairs)
                self.played[n] += 1
                continue
            if was_skipped(pair):
                tally.add(counted(pair), self.primary_pairs)
                continue
            tally.add(pair, self.primary_pairs)
            b = pair[1]
            census.add(pair, self.pairs, weight(g, worth_playing(self.tested, pair[0][1], None if b is None else b[1])))
            self.played[n] += 1
        if self.progress is not None:  # in games played, as the budget counts
            self.progress(len(part) if census is tally else sum(1 for pair in part if not was_skipped(pair)))

    def current(self) -> dict[int, list[Verdict]]:
        """The verdicts of each table size's last look (phase 2's games serve the table-size question only)."""
        for n in self.tables:
            if n not in self.verdicts:
                self.verdicts[n] = table_verdicts(self.tallies[n], self.plan, self.cfg, self.share[n],
                                                  self.census[n])
        return self.verdicts


def _phase_two_guesses(spec: Spec, games: _Games, caps: dict[int, int], room: int) -> list[Spec]:
    """Up to `room` chunks phase 2 is likely to want after `spec`, most likely first: the next ones at the same
    table size (phase 2 mostly plays on where the difference's variance is), then the other sizes' next ones."""
    out: list[Spec] = []
    n, stop = spec[0], spec[2]
    while stop < caps[n] and len(out) < min(room, 2):
        out.append((n, stop, min(stop + CHUNK, caps[n])))
        stop = out[-1][2]
    for q in games.tables:
        first = games.tallies[q].games
        if q != n and first < caps[q] and len(out) < room:
            out.append((q, first, min(first + CHUNK, caps[q])))
    return [g for g in out if g not in games.spare]


def _not_played(p: Plan, tables: list[int]) -> list[TableResult]:
    return [TableResult(n, 0, "nothing to test", tuple(
        Verdict(t.name, n, t.family, t.kind, "not tested", None, None, None, None, None, None, None, None,
                None, 0, None) for t in p.tests)) for n in tables]


def run(a: CardSet, b: CardSet | None, cfg: BalanceConfig, progress: Progress | None = None,
        memo: Memo | None = None) -> BalanceResult:
    """The procedure on A against B (B None: one set alone). `memo`: games already played (read and filled)."""
    _check(cfg)
    p = plan(a, b)
    tables = _tables(a, b, cfg)
    t0 = time.perf_counter()
    if (b is not None and plays_alike(a, b)) or not p.primary():
        return _finish(a, b, p, _not_played(p, tables), cfg, t0)
    # with nothing but the designer's cards to select by (no rule changed), deals that cannot move them are
    # counted, not played (`informative`)
    tested = p.tested() if b is not None and not p.rules else None
    task = PairTask(a, b, cfg.agents, cfg.seed, cfg.budget, memo=memo, tested=tested)
    games = _Games(p, cfg, tables, memo, progress, tested)

    extra = {n: 0 for n in tables}
    with chunk_pool(task, cfg.jobs) as chunks:
        run_chunks(chunks, games.next_spec, games.fold)
        for n in tables:
            games.stop.setdefault(n, "max games")
        # Phase 2: where the calls differ between table sizes, a few more games, looked at one chunk at a time
        # in game order, until the difference itself is clear, or it cannot become clear within
        # INTERACTION_GROWTH times the games. Which chunk comes next depends on the games so far only (never on
        # `jobs`); idle workers play the likely next ones meanwhile (`_phase_two_guesses`).
        caps = {n: min(cfg.limit(), INTERACTION_GROWTH * games.tallies[n].games) for n in tables}
        while cfg.games is None and len(tables) > 1:
            spec = interaction_spec(games.tallies, p.tests, cfg, games.current(), caps)
            if spec is None:
                break
            part = games.spare.pop(spec, None)
            if part is None:
                chunks.ahead(spec)
                for guess in _phase_two_guesses(spec, games, caps, chunks.room()):
                    chunks.ahead(guess)
                part = chunks.take(spec)
            games.add(spec[0], part)
            extra[spec[0]] += len(part)
    final = games.current()
    results = []
    for n in tables:
        tally, census = games.tallies[n], games.census[n]
        results.append(TableResult(n, tally.games, games.stop[n], tuple(final[n]),
                                   paired_length(census.games, census.turns[0], census.turns[1],
                                                 census.length_diff2(), b is not None), extra[n], games.played[n]))
    inter = interactions(interaction_rows(games.tallies, p.tests, cfg, final), cfg)[0] if len(tables) > 1 else []
    return _finish(a, b, p, results, cfg, t0, inter)


def _finish(a: CardSet, b: CardSet | None, p: Plan, results: list[TableResult], cfg: BalanceConfig, t0: float,
            found: list[Interaction] | None = None) -> BalanceResult:
    # A card's `intended:` note excuses a call on the design it was written for: in a comparison, only a note
    # that B adds or rewrites counts (a note inherited unchanged from A was about A's design, not the edit).
    before = {c.name.casefold(): c.intended for c in a.cards} if b is not None else {}
    cs = b if b is not None else a
    intended = {c.name: c.intended for c in cs.cards
                if c.intended and (b is None or before.get(c.name.casefold()) != c.intended)}
    return BalanceResult(a.name, None if b is None else b.name, p.changes, tuple(results), cfg,
                         round(time.perf_counter() - t0, 3),
                         tuple(dict.fromkeys(i.card for i in found or [] if i.depends)), intended,
                         tuple(found or []), p.rules)


def _share_cards(a: CardSet, b: CardSet) -> None:
    if not {c.name.casefold() for c in a.cards} & {c.name.casefold() for c in b.cards}:
        raise BalanceError(f"sets {a.name} and {b.name} have no card in common: nothing to compare")


def compare_versions(a: CardSet, b: CardSet, cfg: BalanceConfig = DEFAULTS,
                     progress: Progress | None = None, memo: Memo | None = None) -> BalanceResult:
    """Paired games of A and B at every table size of `cfg`; verdicts on the designer's changes (primary
    family), on the game under changed rules, and on the other cards (knock-on family). `progress(n)` after
    every n games folded. `memo`: outcomes of A's and B's games already played with the same settings."""
    _share_cards(a, b)
    if memo is not None:  # tune's candidates: their games are shared through the memo instead
        return run(a, b, cfg, progress, memo)
    return cached(a, b, cfg, lambda: run(a, b, cfg, progress))


def assess_set(cs: CardSet, cfg: BalanceConfig = DEFAULTS, progress: Progress | None = None) -> BalanceResult:
    """One set alone (no base to compare with): each card against the band of the other cards of its role."""
    return cached(cs, None, cfg, lambda: run(cs, None, cfg, progress))


def judge_set(cs: CardSet, base: CardSet | None, cfg: BalanceConfig = DEFAULTS,
              progress: Progress | None = None, kept: KeptGames | None = None) -> BalanceResult:
    """The verdicts on one set, as `validate` and `simulate --balance` give them: a set that extends another
    compared with its base (`base`, loaded by the caller), any other set card by card against its role's band.
    `kept`: a set judged alone leaves its games there, and a comparison reads its base's games from there."""
    if base is not None:
        _share_cards(base, cs)
        games = None if kept is None else kept.of(base, cfg)
        # the base's games, when it was judged alone before (the set's own are all to play)
        memo: Memo | None = None if games is None else (dict(games[0]), {})
        return cached(base, cs, cfg, lambda: run(base, cs, cfg, progress, memo))
    played: Memo | None = None if kept is None else ({}, {})
    result = cached(cs, None, cfg, lambda: run(cs, None, cfg, progress, played))
    if kept is not None and played is not None and played[0]:
        kept.keep(cs, cfg, (played[0], {}))
    return result
