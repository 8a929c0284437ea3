"""From the folded games to the verdicts: what is tested against what, the figures, and one call rule.

A card is called (stronger, weaker, too strong, too weak) only when its interval excludes 0 *and* its estimate
is at least the minimum effect, for changed, new and single-set cards alike; it is cleared when its interval
lies within the minimum effect (a new card: within the band at both edges); a card its holders never play is
"never played" whatever its figure says. Under a change of the rules the game itself is judged too: its
length and the first player's edge.

The designer's cards are judged on every deal (`informative`: most deals that cannot move them are counted, not
played); everything else (knock-on figures, the game's own figures, how often a card is played) on the games
that were played, weighted to stand for every deal (`census`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.model import CardSet
from cardgen.sim.balance.changes import card_changes, rule_changes
from cardgen.sim.balance.intervals import Z95, holm_levels, look_half_width, look_p
from cardgen.sim.balance.model import BalanceConfig, Call, CardChange, ChangeKind, Edge, Family, RuleChange, Verdict
from cardgen.sim.balance.tally import Tally
from cardgen.sim.play import card_labels

MIN_GAMES = 400  # no verdict before this many games at a table size (the normal approximation needs them)
BAND_MIN_COPIES = 2  # a one-copy card's figure is too loose to be an edge of the band
NEVER_PLAYED_HOLDERS = 100  # players who held a card at some point before "never played" is said of it
LENGTH_SHARE = 0.05  # a change of the game's length smaller than this share of its length does not matter
FIRST_PLAYER, GAME_LENGTH = "first player", "game length"
PRIMARY: tuple[Family, ...] = ("changed", "new", "card")  # the designer's cards: judged on every deal


@dataclass(frozen=True)
class Probe:
    """One tested card (or figure of the game): its family, change kind, and the (A design, B design) pair that
    measures it; a new card (or a card of a set alone) has the base designs of its role (`band`)."""

    name: str
    family: Family
    kind: ChangeKind
    da: int  # design in A, or -1
    db: int  # design in B, or -1
    band: tuple[int, ...] = ()
    band_role: str = ""  # the role the band is made of ("": every other card, the role has no other)


@dataclass(frozen=True)
class Plan:
    """What a run tests: the changes, the tests, A's card labels (by design), the rule changes."""

    changes: tuple[CardChange, ...]
    tests: tuple[Probe, ...]
    names_a: tuple[str, ...]
    rules: tuple[RuleChange, ...] = ()

    def pairs(self, families: tuple[Family, ...] | None = None) -> list[tuple[int, int]]:
        """The (A design, B design) pairs the tests of `families` (default: all) read jointly."""
        out: list[tuple[int, int]] = []
        for t in self.tests:
            if families is not None and t.family not in families:
                continue
            if t.family in ("new", "card"):
                out += [(r, t.db) for r in t.band] + [(r, -1) for r in t.band]
            elif t.family != "rules":
                out.append((t.da, t.db))
        return list(dict.fromkeys(out))

    def tested(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The designs whose opening holders the designer's cards' figures compare, in A and in B: the changed
        cards and the bands of the new ones in A, the changed and new cards in B."""
        mine = [t for t in self.tests if t.family in PRIMARY]
        return (tuple(dict.fromkeys(d for t in mine for d in (t.da, *t.band) if d >= 0)),
                tuple(dict.fromkeys(t.db for t in mine if t.db >= 0)))

    def watched(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The designs whose play is counted, in A and in B: the changed cards (in both, so "never played" is
        said only of a card the change stopped anyone playing) and the new ones (in B)."""
        mine = [t for t in self.tests if t.family in ("changed", "new")]
        return (tuple(t.da for t in mine if t.da >= 0), tuple(t.db for t in mine if t.db >= 0))

    def primary(self) -> bool:
        """Something the designer did is tested (a changed or new card, a card of a set alone, a rule)."""
        return any(t.family != "knock-on" for t in self.tests)


def _band(a: CardSet, in_b: dict[str, int], role: str, exclude: int = -1) -> tuple[tuple[int, ...], str]:
    """The base designs a new card of `role` is measured against, and the role they share: A's cards of that
    role that B still has, with at least BAND_MIN_COPIES copies (all of that role if none has; every shared card,
    role "", if the role has no other card); `exclude`: a design left out (a card is not its own band)."""
    shared = [(d, c) for d, c in enumerate(a.cards) if c.name.casefold() in in_b and d != exclude]
    same = [(d, c) for d, c in shared if a.role(c) == role]
    firm = [d for d, c in same if c.count >= BAND_MIN_COPIES]
    if same:
        return tuple(firm or [d for d, _ in same]), str(role)
    return tuple(d for d, _ in shared), ""


def plan(a: CardSet, b: CardSet | None) -> Plan:
    """The tests of one run: B's changed cards against A's, new cards against their role's band, the other
    cards for knock-on effects; one set alone: each card against the band of the other cards of its role."""
    la = {c.name.casefold(): d for d, c in enumerate(a.cards)}
    names = tuple(card_labels(a))
    if b is None:
        changes = tuple(CardChange(c.name, "unchanged", (c.count, c.count), role=a.role(c)) for c in a.cards)
        return Plan(changes, tuple(Probe(c.name, "card", "unchanged", d, d, *_band(a, la, a.role(c), exclude=d))
                                   for d, c in enumerate(a.cards)), names)
    lb = {c.name.casefold(): d for d, c in enumerate(b.cards)}
    changes = tuple(card_changes(a, b))
    rules = tuple(rule_changes(a.rules, b.rules))
    tests: list[Probe] = [Probe(FIRST_PLAYER, "rules", "mechanics", -1, -1),
                         Probe(GAME_LENGTH, "rules", "mechanics", -1, -1)] if rules else []
    for ch in changes:
        key = ch.name.casefold()
        if ch.kind == "removed":
            continue
        if ch.kind == "new":
            tests.append(Probe(ch.name, "new", "new", -1, lb[key], *_band(a, lb, ch.role)))
        else:
            family: Family = "changed" if ch.kind in ("mechanics", "copies") else "knock-on"
            tests.append(Probe(ch.name, family, ch.kind, la[key], lb[key]))
    return Plan(changes, tuple(tests), names, rules)


@dataclass(frozen=True)
class Figure:
    """A test's estimate (a fraction) and its variance; for a band test, the edge it is judged against (the one
    it is nearer to or beyond) and its (estimate, variance) against the other edge."""

    test: Probe
    estimate: float | None
    var: float
    reference: int = -1  # A's design at the edge used
    edge: Edge = ""
    other: tuple[float, float] | None = None
    other_reference: int = -1


def _band_figure(tally: Tally, t: Probe) -> Figure:
    edges = [(r, tally.difference((r, -1))) for r in t.band]
    # (design, its impact in A, its standard error): the band's edges are the cards surely that strong
    known = [(r, -e[0], math.sqrt(e[1])) for r, e in edges if e is not None]
    if not known:
        return Figure(t, None, 0.0)
    hi = max(known, key=lambda x: x[1] - Z95 * x[2])[0]
    lo = min(known, key=lambda x: x[1] + Z95 * x[2])[0]
    dh, dl = tally.difference((hi, t.db)), tally.difference((lo, t.db))
    if dh is None or dl is None:
        return Figure(t, None, 0.0)
    if dh[0] > 0 or abs(dh[0]) < abs(dl[0]):
        return Figure(t, dh[0], dh[1], hi, "hi", dl, lo)
    return Figure(t, dl[0], dl[1], lo, "lo", dh, hi)


def _game_figure(tally: Tally, t: Probe) -> Figure:
    if t.name == FIRST_PLAYER:
        first = tally.first_seat()
        return Figure(t, None, 0.0) if first is None else Figure(t, first[0], first[1])
    n = tally.games
    if n == 0:
        return Figure(t, None, 0.0)
    mean = (tally.turns[1] - tally.turns[0]) / n
    return Figure(t, mean, max(0.0, tally.turn_diff2 / n - mean * mean) / n)


def figures(tally: Tally, tests: tuple[Probe, ...], census: Tally | None = None) -> list[Figure]:
    """Each test's figure: the designer's cards from `tally` (every deal), the rest from `census` (the games
    played, weighted; default `tally`)."""
    out: list[Figure] = []
    for t in tests:
        if t.family in ("new", "card"):
            out.append(_band_figure(tally, t))
        elif t.family == "rules":
            out.append(_game_figure(census or tally, t))
        else:
            d = (tally if t.family in PRIMARY else census or tally).difference((t.da, t.db))
            out.append(Figure(t, None if d is None else d[0], 0.0 if d is None else d[1]))
    return out


def toward(f: Figure) -> float:
    """The part of a figure its test is about: against the band's top edge only a card above it counts, against
    the bottom edge only one below it (so Holm's steps are not spent on cards inside the band)."""
    est = f.estimate or 0.0
    if f.edge == "hi":
        return max(est, 0.0)
    if f.edge == "lo":
        return min(est, 0.0)
    return est


def call_of(f: Figure, low: float, high: float, margin: float, hw_other: float) -> Call:
    """The verdict from the interval [low, high] and the minimum effect `margin` (both in the figure's unit):
    called when the interval excludes 0 and the estimate reaches the margin, cleared when the interval (a band
    test: at both edges) lies within it."""
    est = f.estimate
    assert est is not None
    clear = (low > 0 or high < 0) and abs(est) >= margin
    if f.test.family in ("new", "card"):
        assert f.other is not None
        o_low, o_high = f.other[0] - hw_other, f.other[0] + hw_other
        if f.edge == "hi":
            if clear and est > 0:
                return "too strong"
            return "within the band" if high < margin and o_low > -margin else "undecided"
        if clear and est < 0:
            return "too weak"
        return "within the band" if low > -margin and o_high < margin else "undecided"
    if clear:
        if f.test.name == GAME_LENGTH and f.test.family == "rules":
            return "longer" if est > 0 else "shorter"
        return "stronger" if est > 0 else "weaker"
    if -margin < low and high < margin:
        return "no change that matters"
    return "undecided"


def games_needed(est: float, hw: float, games: int, margin: float, edge: Edge = "") -> int:
    """About how many games in all would decide a figure if its estimate held (two significant figures): at or
    past the minimum effect (toward its edge, for a band's) the half-width must fall below |est| (to call it),
    short of it below the distance to the minimum (to clear it); the half-width falls about as 1/sqrt(games)."""
    toward_edge = est if edge == "hi" else -est if edge == "lo" else abs(est)
    target = toward_edge if toward_edge >= margin else margin - toward_edge
    if target <= 0 or hw <= 0:
        return games
    needed = games * (hw / target) ** 2
    scale = 10 ** max(2, int(math.log10(max(needed, 1))) - 1)
    return int(math.ceil(needed / scale) * scale)


def _margin(f: Figure, tally: Tally, cfg: BalanceConfig) -> float:
    if f.test.family == "rules" and f.test.name == GAME_LENGTH:
        return LENGTH_SHARE * tally.turns[0] / max(1, tally.games)
    return cfg.min_effect / 100


def _scale(f: Figure) -> float:
    """Percentage points for win rates; turns as they are for the game length."""
    return 1.0 if f.test.family == "rules" and f.test.name == GAME_LENGTH else 100.0


def _never_played(tally: Tally, t: Probe) -> tuple[float | None, bool]:
    """(the share of B's holders who played the card, whether that is 0 over enough holders while A's played
    it: a changed card nobody plays any more, or a new card nobody plays)."""
    if t.db not in tally.watched[1]:
        return None, False
    held, played = tally.played_share(1, t.db)
    if held == 0:
        return None, False
    before = tally.played_share(0, t.da)[1] if t.da in tally.watched[0] else 1
    return round(played / held, 4), played == 0 and held >= NEVER_PLAYED_HOLDERS and before > 0


def _verdict(f: Figure, deals: Tally, census: Tally, p: Plan, cfg: BalanceConfig, q: float,
             level: float) -> Verdict:
    """One test's verdict; `deals` counts every deal (the games looked at), `census` the games played, weighted
    (the figures of all but the designer's cards)."""
    est = f.estimate or 0.0
    hw = look_half_width(f.var, level)
    hw_other = look_half_width(f.other[1], level) if f.other is not None else 0.0
    low, high = est - hw, est + hw
    margin = _margin(f, census, cfg)
    games = deals.games
    call = call_of(f, low, high, margin, hw_other) if games >= MIN_GAMES else "undecided"
    share, never = _never_played(census, f.test)
    if never and games >= MIN_GAMES:
        call = "never played"
    t = f.test
    tally = deals if t.family in PRIMARY else census
    rates_b = tally.rates(1, t.db) if t.db >= 0 else None
    rates_a = tally.rates(0, t.da) if t.da >= 0 and t.family != "card" else None
    if t.family == "rules":  # the game's own figures: the first seat's win rate, or the turns a game lasts
        per = tally.first_wins if t.name == FIRST_PLAYER else tally.turns
        rates_a, rates_b = (per[0] / tally.games, 0.0), (per[1] / tally.games, 0.0)
    s = _scale(f)
    return Verdict(
        t.name, tally.seats, t.family, t.kind, call, round(s * est, 2), round(s * low, 2), round(s * high, 2),
        float(f"{min(1.0, q * len(cfg.tables)):.4g}"),
        None if rates_a is None else round(rates_a[0], 4), None if rates_b is None else round(rates_b[0], 4),
        None if rates_b is None or t.family == "rules" else round(rates_b[1], 4),
        None if rates_a is None or t.family == "rules" else round(rates_a[1], 4),
        p.names_a[f.reference] if f.reference >= 0 else None, games,
        games_needed(est, hw, games, margin, f.edge) if call == "undecided" else None, f.edge,
        t.band_role,
        p.names_a[f.other_reference] if f.other_reference >= 0 else None,
        None if f.other is None else round(100 * f.other[0], 2), share)


FAMILIES: tuple[tuple[Family, ...], ...] = (("changed", "new", "card"), ("rules",), ("knock-on",))
ORDER: dict[str, int] = {"rules": 0, "changed": 1, "new": 1, "card": 1, "knock-on": 2}


def table_verdicts(tally: Tally, p: Plan, cfg: BalanceConfig, share: float = 1.0,
                   census: Tally | None = None) -> list[Verdict]:
    """The verdicts at one table size from the deals folded so far (`tally`; the games played, weighted:
    `census`, default `tally`), at a look given `share` of the error rate (Holm within each family: a test is
    judged at its Holm level times the share)."""
    census = census or tally
    figs = figures(tally, p.tests, census)
    level = cfg.level()
    out: dict[str, Verdict] = {}
    for fam in FAMILIES:
        group = [f for f in figs if f.test.family in fam and f.estimate is not None]
        ps = [min(1.0, look_p(toward(f), f.var) / share) for f in group]
        adjusted, levels = holm_levels(ps, level)
        for f, q, lv in zip(group, adjusted, levels, strict=True):
            out[f.test.name] = _verdict(f, tally, census, p, cfg, q, lv * share)
    for f in figs:
        if f.test.name not in out:
            out[f.test.name] = Verdict(f.test.name, tally.seats, f.test.family, f.test.kind, "not tested", None,
                                       None, None, None, None, None, None, None, None, tally.games, None)
    return sorted(out.values(), key=lambda v: (ORDER[v.family], not v.flagged, v.p if v.p is not None else 2.0))


def decided(verdicts: list[Verdict]) -> bool:
    """Every primary verdict (the designer's edits, a set's cards, the game under new rules) is clear."""
    return all(v.call != "undecided" for v in verdicts if v.family != "knock-on")

