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


# A design's weighted moments in one version (`Tally.moments`), by position: sums over the games it was in an
# opening hand of the squared weight times x, n, x*x, x*n, x*w, n*n, n*w, x*w', n*w' (x: 1 if the winner held
# it, n: the seats that held it, w: 1 if this version's game had a winner, w': the other version's)
X, N, XX, XN, XW, NN, NW, XWO, NWO = range(9)


def _quad(c: tuple[float, float, float, float], u: tuple[float, float, float, float],
          m: list[list[float]]) -> float:
    """c' M u for 4-vectors and a 4x4 matrix."""
    return sum(c[i] * sum(m[i][j] * u[j] for j in range(4)) for i in range(4))


@dataclass
class Tally:
    """Per version the games with a winner, the holders of each design and their wins; the weighted moments that
    the delta-method variance of a tested pair's difference needs (each design's alone, and per tested pair
    (design in A or -1, design in B or -1) those of games where both were held); the game lengths; the first
    seat's wins (paired); and per `watched` design how many players held it at some point and how many of those
    played it. `games` is the weighted count.

    The variance is a quadratic form in those moments, so a game costs work in the designs it dealt, not in the
    tested pairs (a set alone tests every card against its band: hundreds of pairs)."""

    seats: int
    watched: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # designs (A, B) whose play is counted
    games: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])  # games with a winner, A and B
    holders: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    holder_wins: list[Counter[int]] = field(default_factory=lambda: [Counter(), Counter()])
    moments: list[dict[int, list[int]]] = field(default_factory=lambda: [{}, {}])  # per version, per design
    cross: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # per tested pair: x_a x_b, x_a n_b,
    # n_a x_b, n_a n_b, squared weight times each, over the games where both were held
    won_w2: list[int] = field(default_factory=lambda: [0, 0])  # sum of the squared weight of games with a winner
    both_won_w2: int = 0  # the same over games with a winner in both versions
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
    _partners: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    _pairs: list[tuple[int, int]] | None = field(default=None, repr=False)

    def _partners_of(self, pairs: list[tuple[int, int]]) -> dict[int, tuple[int, ...]]:
        """Per A design, the B designs it is tested with (the pairs whose games both may hold)."""
        if self._pairs is not pairs:
            by: dict[int, list[int]] = {}
            for da, db in pairs:
                if da >= 0 and db >= 0:
                    by.setdefault(da, []).append(db)
            self._partners = {da: tuple(dbs) for da, dbs in by.items()}
            self._pairs = pairs
        return self._partners

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
        wins = (1 if a[0] >= 0 else 0, 1 if b is not None and b[0] >= 0 else 0)
        for v in (0, 1):
            self.won[v] += weight * wins[v]
            self.won_w2[v] += w2 * wins[v]
        self.both_won_w2 += w2 * wins[0] * wins[1]
        for v, h in enumerate((ha, hb)):
            w, wo = wins[v], wins[1 - v]
            holders, holder_wins, moments = self.holders[v], self.holder_wins[v], self.moments[v]
            for d, (x, n) in h.items():
                holders[d] += weight * n
                holder_wins[d] += weight * x
                m = moments.get(d)
                if m is None:
                    m = moments[d] = [0] * 9
                m[X] += w2 * x
                m[N] += w2 * n
                m[XX] += w2 * x * x
                m[XN] += w2 * x * n
                m[XW] += w2 * x * w
                m[NN] += w2 * n * n
                m[NW] += w2 * n * w
                m[XWO] += w2 * x * wo
                m[NWO] += w2 * n * wo
        if not hb:
            return
        partners = self._partners_of(pairs)
        for da, (xa, na) in ha.items():
            for db in partners.get(da, ()):
                held_b = hb.get(db)
                if held_b is None:
                    continue
                xb, nb = held_b
                c = self.cross.get((da, db))
                if c is None:
                    c = self.cross[(da, db)] = [0, 0, 0, 0]
                c[0] += w2 * xa * xb
                c[1] += w2 * xa * nb
                c[2] += w2 * na * xb
                c[3] += w2 * na * nb

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
        """(impact in B of key[1] minus impact in A of key[0], its delta-method variance); an absent side is 0.

        The variance sums, over the games, the squared weight times the square of the difference's influence
        (a design's: (x - p1 n) / n1 - ((w - x) - p0 (seats - n)) / n0, B's less A's). That influence is linear
        in (x, n, w, 1), so the sum is a quadratic form in the moments `add` keeps."""
        da, db = key
        estimate = 0.0
        coef: list[tuple[float, float, float, float] | None] = []
        for v, d, sign in ((0, da, -1), (1, db, 1)):
            if d < 0:
                coef.append(None)
                continue
            r = self.rates(v, d)
            if r is None:
                return None
            p1, p0 = r
            n1 = self.holders[v][d]
            n0 = self.seats * self.games - n1
            estimate += sign * (p1 - p0)
            coef.append((sign * (1 / n1 + 1 / n0), sign * (-p1 / n1 - p0 / n0), sign * (-1 / n0),
                         sign * (p0 * self.seats / n0)))
        var = 0.0
        for v, d in ((0, da), (1, db)):
            c = coef[v]
            if c is not None:
                var += _quad(c, c, self._own(v, d))
        ca, cb = coef
        if ca is not None and cb is not None:
            var += 2 * _quad(ca, cb, self._between(da, db))
        return estimate, max(0.0, var)

    def _own(self, v: int, d: int) -> list[list[float]]:
        """The moments of (x, n, w, 1) of design d in version v with themselves, squared weight included."""
        m = self.moments[v].get(d) or [0] * 9
        w, one = self.won_w2[v], self.weight2
        return [[m[XX], m[XN], m[XW], m[X]],
                [m[XN], m[NN], m[NW], m[N]],
                [m[XW], m[NW], w, w],
                [m[X], m[N], w, one]]

    def _between(self, da: int, db: int) -> list[list[float]]:
        """The moments of A's (x, n, w, 1) of design da with B's of design db, squared weight included."""
        ma, mb = self.moments[0].get(da) or [0] * 9, self.moments[1].get(db) or [0] * 9
        c = self.cross.get((da, db)) or [0, 0, 0, 0]
        wa, wb = self.won_w2
        return [[c[0], c[1], ma[XWO], ma[X]],
                [c[2], c[3], ma[NWO], ma[N]],
                [mb[XWO], mb[NWO], self.both_won_w2, wa],
                [mb[X], mb[N], wb, self.weight2]]
