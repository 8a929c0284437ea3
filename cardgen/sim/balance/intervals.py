"""The statistics: the looks and their intervals, Holm's step-down (the project's one copy), and the
anytime-valid intervals of the table-size question.

The card verdicts are looked at a few times, at fixed shares of the game budget in deals (`LOOKS`), each look
with its own share of the error rate (a weighted Bonferroni split, so the chance of a false call over all looks
stays within the rate); most of it is kept for the last look, so the interval there is nearly as narrow as a
fixed-sample one. The budget counts games played: where the budget's deals played at most half of it (a rare
tested card, most deals counted from the deal and not played), part of the last look's share is kept for one
more look (`Extension`), when the games played reach the budget (or the deals their cap). Every look's place
depends on the deals alone (which ones are played), never on a game's outcome, so each look's interval is a
fixed-sample one given the deals and the split stays valid. The table-size question, which plays on after the
verdicts for as long as it needs, uses an asymptotic confidence sequence (Waudby-Smith et al. 2021), valid at
every look.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

Z95 = 1.959963984540054
TUNED_FOR = 4000  # the confidence sequence is tightest around this many games


# (share of the game budget, share of the error rate) of each look; the shares of the rate add up to 1
LOOKS: tuple[tuple[float, float], ...] = ((0.125, 0.05), (0.25, 0.1), (0.5, 0.15), (1.0, 0.7))


def look_plan(limit: int, fixed: bool, chunk: int) -> list[tuple[int, float]]:
    """(games, share of the error rate) of each look for a budget of `limit` games a table size, on chunk
    boundaries; a fixed game count (`fixed`) is looked at once, at its end, with the whole rate."""
    if fixed:
        return [(limit, 1.0)]
    out: dict[int, float] = {}
    for share, weight in LOOKS:
        games = min(limit, max(chunk, round(share * limit / chunk) * chunk))
        out[games] = out.get(games, 0.0) + weight
    return sorted(out.items())


EXTENSION = 0.2  # of the last look's share of the error rate, kept for the extension's look where there is one


@dataclass(frozen=True)
class Extension:
    """One more look after the budget's deals, for a table size whose deals played at most half the budget: at
    the first chunk at which `played` games were played, or at `deals` deals, with `share` of the error rate
    (taken from the last look's)."""

    played: int
    deals: int
    share: float

    def reached(self, played: int, deals: int) -> bool:
        return played >= self.played or deals >= self.deals


def extension(limit: int, fixed: bool, played: int, deal_cap: int) -> Extension | None:
    """The extension of a table size whose `limit` deals (the last look of `look_plan`) played `played` games:
    only under a game budget (not a fixed count), and only when playing on to the budget would at least double
    the games played (a look that adds less is not worth its share of the error rate)."""
    if fixed or 2 * played > limit:
        return None
    return Extension(limit, deal_cap * limit, EXTENSION)


def z_of(level: float) -> float:
    """The two-sided normal quantile of an error level."""
    return NormalDist().inv_cdf(1 - level / 2)


def look_half_width(var: float, level: float) -> float:
    """Half-width of the interval at one look: `var` is the variance of the estimate, `level` the look's error
    level (its share of the test's rate)."""
    return z_of(level) * math.sqrt(var) if var > 0 else 0.0


def look_p(estimate: float, var: float) -> float:
    """The two-sided p-value of "no change" at one look."""
    if var <= 0:
        return 1.0 if estimate == 0 else 0.0
    return min(1.0, 2 * (1 - NormalDist().cdf(abs(estimate) / math.sqrt(var))))


def rho2(alpha: float) -> float:
    """The mixture weight of the confidence sequence at error rate `alpha` (per game)."""
    return (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / TUNED_FOR


def half_width(var: float, games: int, alpha: float) -> float:
    """Half-width of the anytime-valid interval (tuned for `TUNED_FOR` games) of an estimate whose fixed-sample
    variance is `var` after `games` games."""
    if var <= 0 or games <= 0:
        return 0.0
    t = games * rho2(alpha)
    return math.sqrt(var * 2 * (t + 1) / t * math.log(math.sqrt(t + 1) / alpha))


def anytime_p(estimate: float, var: float, games: int, alpha: float) -> float:
    """The smallest error level at which the anytime-valid interval excludes 0 (the interval's own p-value)."""
    if var <= 0:
        return 1.0 if estimate == 0 else 0.0
    t = games * rho2(alpha)
    return min(1.0, math.sqrt(t + 1) * math.exp(-estimate * estimate * t / (2 * var * (t + 1))))


def holm(pvalues: list[float]) -> list[float]:
    """Holm-adjusted p-values (step-down, monotone), in the input's order."""
    return holm_levels(pvalues, 1.0)[0]


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
