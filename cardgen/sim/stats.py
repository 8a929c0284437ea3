"""Streaming statistics for simulated games: constant memory however many games are played.

A `GameRecord` is what one finished game contributes; `Stats` folds records in
and merges with another `Stats` (one per worker), so the result does not depend
on how games were split between processes as long as records are folded in
game order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from cardgen.engine.frozen import init_args
from cardgen.sim.impact import PRIMARY, BitCounts, Impact, PlayCounts, ranking

Z95: Final = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval for a proportion; (0, 1) when there are no trials.

    Wilson rather than the normal approximation because seat win rates sit near
    0 or 1 in small runs, where the normal interval leaves [0, 1].
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameRecord:
    """What one game contributes to the statistics."""

    winner_seat: int | None  # None: stalemate at the turn cap, or nobody left standing
    turns: int
    decisions: int
    cards_played: dict[str, int]  # card name -> times played in this game
    violations: tuple[str, ...] = ()
    capped: bool = True  # with no winner: True if stopped at the turn cap (a stalemate), False if all fell
    agents: tuple[str, ...] = ()  # the bot in each seat (several kinds are rotated round the seats)
    opening: tuple[int, ...] = ()  # per seat: bit mask of the designs in its opening hand
    drawn: tuple[int, ...] = ()  # per seat: bit mask of the designs that were ever in its hand
    dealt: tuple[int, ...] = ()  # per design: damage dealt in the game
    prevented: tuple[int, ...] = ()  # per design: damage its defences and humiliations stopped
    played_by: tuple[int, ...] = ()  # per seat: bit mask of the designs it played

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return GameRecord, init_args(self)  # (cardgen/engine/frozen.py)


@dataclass
class CardStats:
    played: int = 0
    games: int = 0


@dataclass
class Stats:
    """Mergeable accumulators for a batch of games with the same number of seats."""

    seats: int
    designs: int = 0  # card designs in the set (per-card impact needs it; 0: no impact figures)
    games: int = 0
    seat_wins: list[int] = field(default_factory=list)
    stalemates: int = 0
    draws: int = 0  # nobody left standing (everyone dropped at once)
    decisions: int = 0
    turn_hist: dict[int, int] = field(default_factory=dict)
    turns_total: int = 0
    cards: dict[str, CardStats] = field(default_factory=dict)
    violations: int = 0
    violation_examples: list[str] = field(default_factory=list)
    agent_seats: dict[str, int] = field(default_factory=dict)  # seat-games played by each kind of bot
    agent_wins: dict[str, int] = field(default_factory=dict)
    impact: Impact = field(init=False)
    plays: PlayCounts = field(init=False)  # plays by kind, added to by the game loop itself (`play_one(counts=)`)
    played_held: BitCounts = field(init=False)  # per design: player-games in which its holder played it

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.seats
        self.impact = Impact(self.designs)
        self.plays = PlayCounts(self.designs)
        self.played_held = BitCounts(self.designs)

    def add(self, rec: GameRecord) -> None:
        self.games += 1
        self.decisions += rec.decisions
        self.turns_total += rec.turns
        self.turn_hist[rec.turns] = self.turn_hist.get(rec.turns, 0) + 1
        if rec.winner_seat is None:
            if rec.capped:
                self.stalemates += 1
            else:
                self.draws += 1
        else:
            self.seat_wins[rec.winner_seat] += 1
        for seat, agent in enumerate(rec.agents):
            self.agent_seats[agent] = self.agent_seats.get(agent, 0) + 1
            if seat == rec.winner_seat:
                self.agent_wins[agent] = self.agent_wins.get(agent, 0) + 1
        cards = self.cards
        for name, times in rec.cards_played.items():
            cst = cards.get(name)
            if cst is None:  # (not `setdefault`: it would build a CardStats for every card of every game)
                cst = cards[name] = CardStats()
            cst.played += times
            cst.games += 1
        if self.designs and rec.opening:
            self.impact.add(rec.agents, rec.winner_seat, rec.opening, rec.drawn, rec.dealt, rec.prevented)
        if self.designs:
            for mask in rec.played_by:
                self.played_held.add(mask)
        if rec.violations:
            self.violations += len(rec.violations)
            room = 10 - len(self.violation_examples)
            self.violation_examples.extend(rec.violations[: max(0, room)])

    def merge(self, other: Stats) -> None:
        """Fold another batch in (games are independent, so order does not change sums)."""
        self.games += other.games
        self.decisions += other.decisions
        self.turns_total += other.turns_total
        self.stalemates += other.stalemates
        self.draws += other.draws
        for agent, n in other.agent_seats.items():
            self.agent_seats[agent] = self.agent_seats.get(agent, 0) + n
        for agent, n in other.agent_wins.items():
            self.agent_wins[agent] = self.agent_wins.get(agent, 0) + n
        for i, w in enumerate(other.seat_wins):
            self.seat_wins[i] += w
        for t, n in other.turn_hist.items():
            self.turn_hist[t] = self.turn_hist.get(t, 0) + n
        for name, o in other.cards.items():
            cst = self.cards.setdefault(name, CardStats())
            cst.played += o.played
            cst.games += o.games
        self.impact.merge(other.impact)
        self.plays.merge(other.plays)
        self.played_held.merge(other.played_held)
        self.violations += other.violations
        room = 10 - len(self.violation_examples)
        self.violation_examples.extend(other.violation_examples[: max(0, room)])

    def percentile(self, q: float) -> int:
        """The q-quantile (0..1) of game length, from the histogram (nearest rank)."""
        if self.games == 0:
            return 0
        rank = max(1, math.ceil(q * self.games))
        seen = 0
        for t in sorted(self.turn_hist):
            seen += self.turn_hist[t]
            if seen >= rank:
                return t
        return max(self.turn_hist)

    def summary(self, all_cards: Iterable[str]) -> dict[str, Any]:
        """The statistics part of the simulation JSON (timings are added by the caller)."""
        decided = self.games
        rates = [w / decided if decided else 0.0 for w in self.seat_wins]
        cis = [list(wilson_interval(w, decided)) for w in self.seat_wins]
        cards: dict[str, Any] = {}
        dead: list[str] = []
        games = max(self.games, 1)
        mixed = len(self.agent_seats) > 1
        played_held = self.played_held.counts()
        for d, name in enumerate(all_cards):
            cst = self.cards.get(name) or CardStats()
            if cst.played == 0:
                dead.append(name)
            entry: dict[str, Any] = {"played": cst.played, "games": cst.games,
                                     "plays_per_game": round(cst.played / games, 4)}
            if d < self.designs:
                imp = self.impact
                entry["damage_per_play"] = round(imp.dealt[d] / cst.played, 3) if cst.played else None
                entry["prevented_per_play"] = round(imp.prevented[d] / cst.played, 3) if cst.played else None
                entry.update(imp.card_figures(d))
                held = entry["drawn"]["holders"]  # player-games with the card in hand at some time
                entry["held_games"] = held
                entry["played_when_held"] = round(played_held[d] / held, 4) if held else None
                entry["played_as"] = self.plays.played_as(d)
                if mixed:
                    entry["by_agent"] = {a: imp.card_figures(d, [a]) for a in sorted(self.agent_seats)}
            cards[name] = entry
        return {
            "games": self.games,
            "seat_wins": list(self.seat_wins),
            "seat_win_rate": [round(r, 4) for r in rates],
            "seat_win_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in cis],
            "turns_mean": round(self.turns_total / self.games, 3) if self.games else 0.0,
            "turns_p50": self.percentile(0.5),
            "turns_p95": self.percentile(0.95),
            "turn_histogram": {str(t): n for t, n in sorted(self.turn_hist.items())},
            "stalemates": self.stalemates,
            "stalemate_rate": round(self.stalemates / self.games, 4) if self.games else 0.0,
            "draws": self.draws,
            "agent_win_rate": {a: round(self.agent_wins.get(a, 0) / n, 4) for a, n in sorted(self.agent_seats.items())},
            "agent_win_ci95": {a: [round(x, 4) for x in wilson_interval(self.agent_wins.get(a, 0), n)]
                               for a, n in sorted(self.agent_seats.items())},
            "decisions": self.decisions,
            "invariant_violations": self.violations,
            "violation_examples": list(self.violation_examples),
            "impact_measure": PRIMARY,
            "impact_ranking": ranking(cards),
            "cards": cards,
            "dead_cards": dead,
        }
