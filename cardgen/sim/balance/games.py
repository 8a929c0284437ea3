"""Paired games: game i of both versions deals from the same per-card keys and gives the bots the same seeds.

`PairTask` plays a range of games at one table size of both versions (or of one set alone); it is what the
runner's worker pool is handed. A game is kept as the few integers the balance lab reads (`GameNote`). Given
the tested designs, a deal that cannot move a tested figure is dealt and not played (`informative`), unless it
is one of the deals played for the other figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.game import Game, make_game, seat_names
from cardgen.engine.state import GameState
from cardgen.model import CardSet
from cardgen.sim.agents import DEFAULT_BUDGET, Budget, make_agent, parse_budget
from cardgen.sim.balance.informative import SKIPPED, Tested, opening_masks, weight, worth_playing
from cardgen.sim.deal import SharedKeys, deal, key_plan, keyed_decks
from cardgen.sim.play import play_one
from cardgen.sim.runner import SimConfig, seats_of
from cardgen.sim.seeding import derive_seed

CHUNK = 200  # games of one table size per look (and per worker task)

# One game of one version, as the balance lab reads it: (winner seat or -1, opening-hand mask per seat, turns,
# mask per seat of the designs it held at some point, of those it played). Not the engine's `Outcome`.
GameNote = tuple[int, tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]
PairedNote = tuple[GameNote, GameNote | None]
# Games already played, per version (A, B), by (players, game).
Memo = tuple[dict[tuple[int, int], GameNote], dict[tuple[int, int], GameNote]]


def skipped_note(masks: tuple[int, ...]) -> GameNote:
    """A deal's note when it is counted, not played: its opening hands and no game."""
    zero = (0,) * len(masks)
    return SKIPPED, masks, 0, zero, zero


def was_skipped(pair: PairedNote) -> bool:
    return pair[0][0] == SKIPPED


def counted(pair: PairedNote) -> PairedNote:
    """A skipped deal as the tested figures count it: the first seat wins (any seat would count the same there)."""
    a, b = pair
    return (0, *a[1:]), None if b is None else (0, *b[1:])


def table_seed(seed: int, players: int) -> int:
    """The run seed of the games at one table size (each size plays its own games)."""
    return derive_seed(seed, 1_000_000 + players)


@dataclass
class PairTask:
    """Games first..stop-1 at `players` of both versions (B may be None: one set alone). Picklable."""

    a: CardSet
    b: CardSet | None
    agents: tuple[str, ...]
    seed: int
    budget: Budget = field(default_factory=lambda: parse_budget(DEFAULT_BUDGET))
    info: tuple[tuple[CardInfo, ...], tuple[CardInfo, ...] | None] | None = None
    keys: SharedKeys | None = None  # the versions' deck keys (`key_plan`), merged
    # outcomes already played, per version, by (players, game): a game of a version plays the same whatever the
    # other version is, so `tune` hands every candidate the base's outcomes (filled in this process only)
    memo: Memo | None = None
    tested: Tested = None  # the designs the tested figures read (None: play every deal)

    def __call__(self, players: int, first: int, stop: int) -> list[PairedNote]:
        if self.info is None:
            self.info = (card_info(self.a), None if self.b is None else card_info(self.b))
        if self.keys is None:
            self.keys = SharedKeys.of([key_plan(self.a)] + ([] if self.b is None else [key_plan(self.b, self.a)]))
        run = table_seed(self.seed, players)
        cfg = SimConfig(players=players, agents=self.agents)
        out: list[PairedNote] = []
        tables: dict[int, Game] = {}  # each set's game at this table, made once for the range
        versions = ((self.a, self.info[0]), (self.b, self.info[1]))
        for g in range(first, stop):
            names = seats_of(cfg, g)
            decks = keyed_decks(run, g, self.keys)
            # with tested designs, each version's deal is made here to read its opening hands, and handed to
            # `play_one` if the deal is played (dealt as `play_one` deals it)
            dealt: list[GameState] = []
            if self.tested is not None:
                for v, (cs, info) in enumerate(versions):
                    if cs is None or info is None:
                        continue
                    table = tables.get(v)
                    if table is None:
                        table = tables[v] = make_game(cs, seat_names(players), info=info)
                    dealt.append(deal(cs, info, players, derive_seed(run, g), decks[v], record=False, tally=True,
                                      shuffled=True, game=table))
            if dealt:
                masks = (opening_masks(dealt[0]), opening_masks(dealt[-1]))
                if weight(g, worth_playing(self.tested, masks[0], masks[1])) == 0:  # (tested: A and B)
                    out.append((skipped_note(masks[0]), skipped_note(masks[1])))
                    continue
            pair: list[GameNote | None] = []
            for v, (cs, info) in enumerate(versions):
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
                                   deck=decks[v], shuffled=True, game=table, state=dealt[v] if dealt else None,
                                   check_end=False)  # (its violations are not read here)
                    known = (-1 if rec.winner_seat is None else rec.winner_seat, rec.opening, rec.turns, rec.drawn,
                             rec.played_by)
                    if self.memo is not None:
                        self.memo[v][(players, g)] = known
                pair.append(known)
            first_outcome = pair[0]
            assert first_outcome is not None
            # one set alone: the same games fill both slots (a card in B's, the band it is measured against in A's)
            out.append((first_outcome, first_outcome if self.b is None else pair[1]))
        return out
