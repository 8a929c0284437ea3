"""The paired games of one table size folded in game order: all the figures and variances the verdicts need.

A game may weigh more than one (`add`'s `weight`: a game that stands for several deals not played, see
`informative`): every count is then a weighted sum, and every variance sums the squares of the weighted
terms (Horvitz-Thompson), which is the plain delta-method variance when every weight is 1."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cardgen.sim.balance.games import GameNote, PairedNote


def _held(outcome: GameNote | None) -> dict[int, tuple[int, int]]:
    """Per design in some opening hand: (1 if the winner started with it else 0, seats that started with it)."""
    if outcome is None:
        return {}
    winner, masks = outcome[0], outcome[1]
    seats: dict[int, int] = {}
    for m in masks:
        while m:  # each set bit of the seat's mask: a design in its opening hand
            low = m & -m
            d = low.bit_length() - 1
            seats[d] = seats.get(d, 0) + 1
            m ^= low
    won = masks[winner] if winner >= 0 else 0  # no winner (or none yet): nobody's cards won
    return {d: ((won >> d) & 1, n) for d, n in seats.items()}


@dataclass
class Tally:
    """Per version the games with a winner, the holders of each design and their wins; per tested pair (design
    in A or -1, design in B or -1) how often each joint (holder won, holders) pattern came up, which is all the
    delta-method variance needs; the game lengths; the first seat's wins (paired); and per `watched` design
    how many players held it at some point and how many of those played it. `games` is the weighted count."""

    seats: int
    watched: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # designs (A, B) whose play is counted
    games: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])  # games with a winner, A and B
    holders: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    holder_wins: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    joint: dict[tuple[int, int], Counter[tuple[int, ...]]] = field(default_factory=dict)
    turns: list[int] = field(default_factory=lambda: [0, 0])  # turns played in all, A and B
    turn_diff2: int = 0  # sum over games of (weight x (B's turns - A's turns)) squared
    turn_diff_w2: int = 0  # sum over games of weight squared x (B's turns - A's turns)
    first_wins: list[int] = field(default_factory=lambda: [0, 0])  # games the first seat won, A and B
    first_diff2: int = 0  # sum over games of (weight x (B's first-seat win - A's)) squared
    first_diff: int = 0  # sum over games of weight x (B's first-seat win - A's)
    first_diff_w2: int = 0  # sum over games of weight squared x (B's first-seat win - A's)
    weight2: int = 0  # sum over games of the weight squared
    ever_held: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    ever_played: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])

    def add(self, pair: PairedNote, pairs: list[tuple[int, int]], weight: int = 1) -> None:
        a, b = pair
        w2 = weight * weight
        self.games += weight
        self.weight2 += w2
        self.turns[0] += weight * a[2]
        fa = 1 if a[0] == 0 else 0
        self.first_wins[0] += weight * fa
        if b is not None:
            self.turns[1] += weight * b[2]
            self.turn_diff2 += w2 * (b[2] - a[2]) ** 2
            self.turn_diff_w2 += w2 * (b[2] - a[2])
            fb = 1 if b[0] == 0 else 0
            self.first_wins[1] += weight * fb
            self.first_diff += weight * (fb - fa)
            self.first_diff2 += w2 * (fb - fa) ** 2
            self.first_diff_w2 += w2 * (fb - fa)
        for v, note in enumerate((a, b)):
            if note is None:
                continue
            for d in self.watched[v]:
                bit = 1 << d
                for seat_held, seat_played in zip(note[3], note[4], strict=True):
                    if seat_held & bit:
                        self.ever_held[v][d] += weight
                        if seat_played & bit:
                            self.ever_played[v][d] += weight
        ha, hb = _held(a), _held(b)
        wa = 1 if a[0] >= 0 else 0
        wb = 1 if b is not None and b[0] >= 0 else 0
        self.won[0] += weight * wa
        self.won[1] += weight * wb
        for v, h in enumerate((ha, hb)):
            for d, (x, n) in h.items():
                self.holders[v][d] += weight * n
                self.holder_wins[v][d] += weight * x
        for key in pairs:
            da, db = key
            xa = ha.get(da, (0, 0)) if da >= 0 else (0, 0)
            xb = hb.get(db, (0, 0)) if db >= 0 else (0, 0)
            counter = self.joint.get(key)
            if counter is None:
                counter = self.joint[key] = Counter()
            counter[(xa[0], xa[1], wa, xb[0], xb[1], wb, weight)] += 1

    def played_share(self, v: int, d: int) -> tuple[int, int]:
        """(players who held design d at some point in version v, those of them who played it)."""
        return self.ever_held[v][d], self.ever_played[v][d]

    def rates(self, v: int, d: int) -> tuple[float, float] | None:
        """(win rate of players who started with design d, of the others) in version v; None if a side is empty."""
        n1 = self.holders[v][d]
        n0 = self.seats * self.games - n1
        if n1 == 0 or n0 == 0:
            return None
        w1 = self.holder_wins[v][d]
        return w1 / n1, (self.won[v] - w1) / n0

    def first_seat(self) -> tuple[float, float] | None:
        """(the first seat's win rate in B minus in A, the variance of that paired difference); None before a game."""
        if self.games == 0:
            return None
        n = self.games
        mean = self.first_diff / n
        return mean, self._spread(self.first_diff2, self.first_diff_w2, mean) / n

    def _spread(self, square: int, linear: int, mean: float) -> float:
        """The per-game variance of a paired difference from its weighted sums (`square`: of (w d)^2, `linear`:
        of w^2 d): sum of w^2 (d - mean)^2 over the weighted count; with weights 1, mean(d^2) - mean^2."""
        return max(0.0, (square - 2 * mean * linear + mean * mean * self.weight2) / self.games)

    def length_diff2(self) -> float:
        """The sum of squared paired differences of game length that `impact.paired_length` reads (with weights,
        the one that gives it the weighted variance)."""
        if self.weight2 == self.games:
            return self.turn_diff2
        mean = (self.turns[1] - self.turns[0]) / self.games
        return self._spread(self.turn_diff2, self.turn_diff_w2, mean) * self.games + self.games * mean * mean

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
        for (aa, na, wa, ab, nb, wb, weight), count in self.joint.get(key, Counter()).items():
            psi = 0.0
            for part, x, n, w, sign in ((parts[0], aa, na, wa, -1), (parts[1], ab, nb, wb, 1)):
                if part is None:
                    continue
                p1, p0, n1, n0 = part
                psi += sign * ((x - p1 * n) / n1 - ((w - x) - p0 * (self.seats - n)) / n0)
            var += count * weight * weight * psi * psi
        return estimate, var
