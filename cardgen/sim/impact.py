"""Per-card impact: do players who hold a card win more often than those who do not?

Two questions per card, both asked of every seat of every game (a *player-game*):

- **opening**: was the card in the player's opening hand? The shuffle decides
  that, so the difference in win rate between holders and the others is the
  card's causal effect on the game (plus chance);
- **drawn**: did the card pass through the player's hand at any time? More
  players hold it, so the figure is tighter, but a player who lasts longer sees
  more cards, so every card reads a little high (17lands' "games in hand").

`Tracker` notes, during one game, what each seat held after every move (bit masks over design
indices at the end), how each card was played (`PLAYED_AS`) and by which seats, and how much
damage each card prevented (the strike a defence or humiliation answered); the engine tallies
the damage each dealt. `Impact` folds the games in; `effect` turns counts into a difference, its
95 % interval and z.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import Any, Final

from cardgen.engine import moves as mv
from cardgen.engine.moves import MoveKind
from cardgen.engine.observation import Pending, StepKind
from cardgen.engine.state import GameState

Z95: Final = 1.959963984540054
MEASURES: Final[tuple[str, ...]] = ("opening", "drawn")
# The figure cards are ranked and linted by: the opening hand, because the shuffle alone decides who holds it.
PRIMARY: Final = "opening"


# How a card was played, as a designer reads it: a turn action, a combo's follow-up, a combo opened right after a
# block, a free hit (the bonus after a humiliation, the hit on a vomiting player), an answer to a card (defence,
# humiliation, interference), an attack played out of turn, a heal on its player's turn, a heal when dropping.
PLAYED_AS: tuple[str, ...] = ("turn", "follow-up", "after block", "free hit", "answer", "out of turn", "heal",
                              "heal when dropping")
AS_COUNT = len(PLAYED_AS)
# Each kind of card play's place in PLAYED_AS; a heal's is "heal" on its player's turn (the loop counts the
# others apart: "heal when dropping", the last place).
AS_INDEX: dict[MoveKind, int] = {mv.PLAY: 0, mv.STOMP: 0, mv.FOLLOW: 1, mv.OPEN: 2, mv.BONUS: 3, mv.VOMIT_HIT: 3,
                                 mv.DEFEND: 4, mv.HUMILIATE: 4, mv.INTERFERE: 4, mv.INTERJECT: 5, mv.HEAL: 6}


@dataclass
class PlayCounts:
    """How often each design was played, by kind of move: `how[kind][d]`, and `dropping[d]` for heals played
    when dropping (not on the player's turn). The game loop adds to these lists directly (no call, no per-game
    record), and a simulation's batch shares one `PlayCounts` across its games; sums, so the order of games
    does not matter. (A dataclass like `Impact`: a batch's statistics travel back from worker processes.)"""

    designs: int
    how: dict[MoveKind, list[int]] = field(default_factory=dict)
    dropping: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.how:
            self.how = {k: [0] * self.designs for k in AS_INDEX}
        if not self.dropping:
            self.dropping = [0] * self.designs

    def merge(self, other: PlayCounts) -> None:
        for k, row in other.how.items():
            self.how[k] = list(map(operator.add, self.how[k], row))
        self.dropping = list(map(operator.add, self.dropping, other.dropping))

    def played_as(self, d: int) -> dict[str, int]:
        """Design `d`'s plays by way of playing (`PLAYED_AS` names; only the ways it was played)."""
        ways = [0] * AS_COUNT
        for k, row in self.how.items():
            ways[AS_INDEX[k]] += row[d]
        ways[-1] += self.dropping[d]
        return {name: n for name, n in zip(PLAYED_AS, ways, strict=True) if n}


class Tracker:
    """What each seat held during one game, and what each card prevented (the damage each dealt is the engine's
    own tally, `GameState.dealt`: no log needed).

    The game loop calls `blocked` for a defence or humiliation before it is applied (with the view's `step`),
    and `drew` after a move in which someone drew (the engine's seat mask `GameState.drew`; cards only enter a
    hand by a draw, or as a weapon back in the hand it was played from), so nothing runs per decision but one
    test. What a seat held is kept as a byte per design while the game runs (setting a byte makes no new
    object; or-ing bits into a 40-bit int made one per card) and as a bit mask at the end (`masks`).
    """

    __slots__ = ("_held", "counts", "designs", "opening", "played", "prevented")

    def __init__(self, s: GameState, counts: PlayCounts | None = None) -> None:
        self.designs = len(s.game.info)
        self._held = [bytearray(self.designs) for _ in s.hands]
        # Filled by the game loop (the hot path: no call per play): `counts` (shared by the games of a batch, or
        # this game's own), and `played[seat][d]`, 1 once the seat has played design d.
        self.counts = counts if counts is not None else PlayCounts(self.designs)
        self.played = [bytearray(self.designs) for _ in s.hands]
        for q, hand in enumerate(s.hands):
            for d in hand:
                self._held[q][d] = 1
        self.opening = self.masks()
        self.prevented = [0] * self.designs
        s.drew = 0  # the deal is the opening hands

    def masks(self) -> list[int]:
        """Per seat, the bit mask of the designs it has held so far."""
        return _masks(self._held, self.designs)

    def played_masks(self) -> list[int]:
        """Per seat, the bit mask of the designs it has played (any way but discarding)."""
        return _masks(self.played, self.designs)

    def blocked(self, step: Pending | None, card: int) -> None:
        """`card` answers `step` (the pending step, from the player's view): if a strike or a hold's tick, note
        the damage it stops."""
        if step is not None and (step.kind is StepKind.STRIKE or step.kind is StepKind.TICK):
            self.prevented[card] += step.damage or 0

    def drew(self, s: GameState) -> None:
        """Someone drew during the last move: note the hands of the seats that did (`s.drew`, then cleared).
        Every other card in a hand was noted when it came in."""
        seats = s.drew
        s.drew = 0
        hands, held = s.hands, self._held
        while seats:
            low = seats & -seats
            q = low.bit_length() - 1
            row = held[q]
            for d in hands[q]:
                row[d] = 1
            seats ^= low


# A held-design byte (0 or 1) as a binary digit, for `Tracker.masks`.
_BIT_DIGITS: Final = bytes.maketrans(b"\x00\x01", b"01")


def _masks(rows: list[bytearray], designs: int) -> list[int]:
    return [int(row.translate(_BIT_DIGITS)[::-1], 2) if designs else 0 for row in rows]


@dataclass
class BitCounts:
    """How many of the masks added had each design's bit set: binary counters held as bit planes (a few big-int
    operations a mask, like `Impact`), read as plain counts by `counts`."""

    designs: int
    planes: list[int] = field(default_factory=list)  # bit k of every design's count not yet settled
    settled: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.settled:
            self.settled = [0] * self.designs

    def add(self, mask: int) -> None:
        _increment(self.planes, mask)

    def merge(self, other: BitCounts) -> None:
        self.settled = list(map(operator.add, self.counts(), other.counts()))

    def counts(self) -> list[int]:
        for k, plane in enumerate(self.planes):
            weight = 1 << k
            while plane:
                low = plane & -plane
                self.settled[low.bit_length() - 1] += weight
                plane ^= low
        self.planes = []
        return self.settled



@dataclass
class Impact:
    """Holders and their wins per design, per bot kind: `counts[agent][design] = [open n, open wins, drawn n,
    drawn wins]`, with each bot's player-games and wins (for the win rate of those who did not hold it).

    Games are added as bit masks into binary counters (`_planes`: per bot and column, bit plane k holds bit k of
    every design's count), a few big-int operations a game instead of one count per held design; `counts` is
    brought up to date from them before it is read (`settle`).
    """

    designs: int
    counts: dict[str, list[list[int]]] = field(default_factory=dict)
    seat_games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    dealt: list[int] = field(default_factory=list)
    prevented: list[int] = field(default_factory=list)
    _planes: dict[str, tuple[list[int], ...]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.dealt:
            self.dealt = [0] * self.designs
        if not self.prevented:
            self.prevented = [0] * self.designs

    def add(self, agents: tuple[str, ...], winner: int | None, opening: tuple[int, ...], drawn: tuple[int, ...],
            dealt: tuple[int, ...], prevented: tuple[int, ...]) -> None:
        for seat, agent in enumerate(agents):
            planes = self._planes.get(agent)
            if planes is None:
                planes = self._planes[agent] = ([], [], [], [])
                if agent not in self.counts:
                    self.counts[agent] = [[0, 0, 0, 0] for _ in range(self.designs)]
            won = seat == winner
            self.seat_games[agent] = self.seat_games.get(agent, 0) + 1
            self.wins[agent] = self.wins.get(agent, 0) + won
            _increment(planes[0], opening[seat])
            _increment(planes[2], drawn[seat])
            if won:
                _increment(planes[1], opening[seat])
                _increment(planes[3], drawn[seat])
        self.dealt = list(map(operator.add, self.dealt, dealt))
        self.prevented = list(map(operator.add, self.prevented, prevented))

    def settle(self) -> None:
        """Fold the binary counters into `counts`."""
        for agent, columns in self._planes.items():
            rows = self.counts[agent]
            for col, planes in enumerate(columns):
                for k, plane in enumerate(planes):
                    weight = 1 << k
                    while plane:  # one pass per set bit, lowest first
                        low = plane & -plane
                        rows[low.bit_length() - 1][col] += weight
                        plane ^= low
        self._planes.clear()

    def merge(self, other: Impact) -> None:
        self.settle()
        other.settle()
        for agent, rows in other.counts.items():
            mine = self.counts.setdefault(agent, [[0, 0, 0, 0] for _ in range(self.designs)])
            for a, b in zip(mine, rows, strict=True):
                for i in range(4):
                    a[i] += b[i]
        for agent, n in other.seat_games.items():
            self.seat_games[agent] = self.seat_games.get(agent, 0) + n
        for agent, n in other.wins.items():
            self.wins[agent] = self.wins.get(agent, 0) + n
        for d in range(self.designs):
            self.dealt[d] += other.dealt[d]
            self.prevented[d] += other.prevented[d]

    def totals(self, agents: list[str] | None = None) -> tuple[list[list[int]], int, int]:
        """Counts summed over `agents` (default: all), with their player-games and wins."""
        self.settle()
        names = sorted(self.counts) if agents is None else agents
        rows = [[0, 0, 0, 0] for _ in range(self.designs)]
        for a in names:
            for row, other in zip(rows, self.counts.get(a, []), strict=False):
                for i in range(4):
                    row[i] += other[i]
        return rows, sum(self.seat_games.get(a, 0) for a in names), sum(self.wins.get(a, 0) for a in names)

    def card_figures(self, d: int, agents: list[str] | None = None) -> dict[str, Any]:
        """{"opening": effect, "drawn": effect} for design `d`."""
        rows, n, w = self.totals(agents)
        r = rows[d]
        return {"opening": effect(r[1], r[0], w - r[1], n - r[0]),
                "drawn": effect(r[3], r[2], w - r[3], n - r[2])}


def _increment(planes: list[int], mask: int) -> None:
    """Add 1 to the count of each design whose bit is set in `mask`, in binary counters held as bit planes."""
    k = 0
    while mask:
        if k == len(planes):
            planes.append(mask)
            return
        plane = planes[k]
        planes[k] = plane ^ mask
        mask &= plane  # the carry
        k += 1


def paired_length(games: int, turns_a: int, turns_b: int, diff2: float, paired: bool = True) -> dict[str, float] | None:
    """Mean game length (turns) of A and B over the same `games` paired deals, and the change B - A with its 95 %
    interval (a fixed-sample normal interval of the per-game differences, whose squares sum to `diff2`: a
    description of the games played, not a sequential test); None with no games. Alone (`paired` False): A's."""
    if games <= 0:
        return None
    mean_a = turns_a / games
    if not paired:
        return {"a": round(mean_a, 2)}
    change = (turns_b - turns_a) / games
    var = (diff2 - games * change * change) / (games - 1) if games > 1 else 0.0
    half = Z95 * math.sqrt(max(var, 0.0) / games)
    return {"a": round(mean_a, 2), "b": round(turns_b / games, 2), "change": round(change, 2),
            "low": round(change - half, 2), "high": round(change + half, 2)}


def length_words(length: dict[str, float]) -> str:
    """'games last 19.3 turns instead of 21.0 (-1.7 [-2.1, -1.3])', or 'games last 19.3 turns'."""
    if "b" not in length:
        return f"games last {length['a']:.1f} turns on average"
    return (f"games last {length['b']:.1f} turns instead of {length['a']:.1f} ({length['change']:+.1f} "
            f"[{length['low']:+.1f}, {length['high']:+.1f}])")


def effect(w1: int, n1: int, w0: int, n0: int) -> dict[str, Any]:
    """Win rate of holders (w1 of n1) minus the others' (w0 of n0), in points (percent), with the 95 % interval
    of the difference and z (the difference over its unpooled standard error); `null` where a side is empty."""
    out: dict[str, Any] = {"holders": n1, "holder_wins": w1, "others": n0, "other_wins": w0,
                           "win_rate": round(w1 / n1, 4) if n1 else None,
                           "others_win_rate": round(w0 / n0, 4) if n0 else None,
                           "diff": None, "ci95": None, "z": None}
    if n1 == 0 or n0 == 0:
        return out
    p1, p0 = w1 / n1, w0 / n0
    se = math.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
    diff = p1 - p0
    out["diff"] = round(100 * diff, 2)
    out["ci95"] = [round(100 * (diff - Z95 * se), 2), round(100 * (diff + Z95 * se), 2)]
    out["z"] = round(diff / se, 2) if se > 0 else 0.0
    return out


def ranking(cards: dict[str, Any], measure: str = PRIMARY) -> list[str]:
    """Card names from the largest impact to the smallest (cards with no figure last, in set order)."""
    known = [n for n, c in cards.items() if c.get(measure, {}).get("diff") is not None]
    known.sort(key=lambda n: -float(cards[n][measure]["diff"]))
    return known + [n for n in cards if n not in set(known)]


def _ranks(xs: list[float]) -> list[float]:
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged); None if a side is constant."""
    rx, ry = _ranks(xs), _ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else None


def kendall(xs: list[float], ys: list[float]) -> float | None:
    """Kendall's tau-b (ties allowed); None if a side is constant."""
    conc = disc = tx = ty = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    denom = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / denom if denom > 0 else None


def rank_agreement(cards: dict[str, Any], other: dict[str, Any], measure: str = PRIMARY) -> dict[str, Any]:
    """How alike two runs rank the cards they both have figures for: Spearman's rho and Kendall's tau of the
    impact `diff`s, and each run's value per card (for the report's scatter)."""
    names = [n for n in cards if n in other and cards[n].get(measure, {}).get("diff") is not None
             and other[n].get(measure, {}).get("diff") is not None]
    xs = [float(other[n][measure]["diff"]) for n in names]
    ys = [float(cards[n][measure]["diff"]) for n in names]
    rho = spearman(xs, ys) if len(names) > 2 else None
    tau = kendall(xs, ys) if len(names) > 2 else None
    return {"cards": len(names), "spearman": None if rho is None else round(rho, 3),
            "kendall": None if tau is None else round(tau, 3),
            "impact": {n: [x, y] for n, x, y in zip(names, xs, ys, strict=True)}}
