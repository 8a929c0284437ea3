"""Whether a card's strength depends on the table size: the difference of its figures at two sizes, with an
anytime-valid interval of its own (Holm over the primary cards); a short second phase plays on to settle it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.sim.balance.games import CHUNK
from cardgen.sim.balance.intervals import holm_levels, rho2
from cardgen.sim.balance.model import BalanceConfig, Interaction, Verdict
from cardgen.sim.balance.tally import Tally
from cardgen.sim.balance.verdicts import Figure, Probe, figures

INTERACTION_GROWTH = 2  # phase 2 plays a table size up to this many times the games its verdicts took


@dataclass(frozen=True)
class Row:
    """One primary card at two table sizes p < q: its figure's difference (q minus p, a fraction) and what the
    anytime-valid interval of that difference needs (the two mixture weights w and the log-sqrt(t + 1) terms)."""

    name: str
    p: int
    q: int
    diff: float
    w: tuple[float, float]
    log_t: float
    differ: bool  # the calls differ: called at one size, cleared or called the other way at the other


def _sides(f: Figure) -> dict[str, tuple[float, float]]:
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


def interaction_rows(tallies: dict[int, Tally], tests: tuple[Probe, ...], cfg: BalanceConfig,
                     verdicts: dict[int, list[Verdict]]) -> list[Row]:
    """Every primary card at every pair of table sizes where it has a figure at both. A new card (or a card of a
    set alone) is compared against the same edge of its band at both sizes: the one it is called beyond, else
    the one it is judged against where its figure is largest."""
    figs = {p: {f.test.name: f for f in figures(tally, tests)} for p, tally in tallies.items()}
    calls = {(v.card, p): v for p, vs in verdicts.items() for v in vs}
    r2 = rho2(cfg.alpha)
    sizes = sorted(tallies)
    rows: list[Row] = []
    for test in tests:
        if test.family in ("knock-on", "rules"):
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
                tp, tq = tallies[p].games * r2, tallies[q].games * r2
                if tp <= 0 or tq <= 0 or vp + vq <= 0:
                    continue
                w = (vp * 2 * (tp + 1) / tp, vq * 2 * (tq + 1) / tq)
                rows.append(Row(test.name, p, q, eq - ep, w, 0.5 * math.log((tp + 1) * (tq + 1)),
                                 _calls_differ(calls[(test.name, p)], calls[(test.name, q)])))
    return rows


def interactions(rows: list[Row], cfg: BalanceConfig) -> tuple[list[Interaction], list[float]]:
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


def interaction_spec(tallies: dict[int, Tally], tests: tuple[Probe, ...], cfg: BalanceConfig,
                      verdicts: dict[int, list[Verdict]], caps: dict[int, int]) -> tuple[int, int, int] | None:
    """The next chunk phase 2 plays, or None: for the first card whose calls differ between two table sizes and
    whose difference is not clear yet but could be within the caps (the estimate is at least the minimum effect,
    and the interval would be narrow enough with INTERACTION_GROWTH times the games), a chunk at the size that
    adds most of the difference's variance (and is under its cap)."""
    rows = interaction_rows(tallies, tests, cfg, verdicts)
    found, levels = interactions(rows, cfg)
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
