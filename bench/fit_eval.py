"""Refit the searching bot's win-chance model (`cardgen.sim.evaluate.WEIGHTS`) and print the weights.

Plays two-player games between greedy bots, takes about half of the turn decisions of seat 0 as positions
(`evaluate.features`), labels each with whether seat 0 won, and fits a logistic regression by Newton's method
(pure Python, a handful of weights). Prints the weights, ready to paste, and the mean log-loss against that of
knowing nothing (0.693).

    python bench/fit_eval.py                       # the figures in cardgen/sim/evaluate.py
    python bench/fit_eval.py --set lunch --games 3000
"""

from __future__ import annotations

import argparse
import math
import random

from cardgen.engine.cards import card_info
from cardgen.engine.rules import new_game, push
from cardgen.engine.state import TurnF
from cardgen.engine.views import observe
from cardgen.loader import load_set
from cardgen.sim.evaluate import features
from cardgen.sim.greedy import GreedyAgent, attack_value

RIDGE = 1e-3  # a little shrinkage, so a feature that never varies does not make the system singular


def positions(set_name: str, games: int, seed: int) -> tuple[list[list[float]], list[float]]:
    cs = load_set(set_name)
    info = card_info(cs)
    attack = [attack_value(ci) for ci in info]
    pick = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for g in range(games):
        s = new_game(cs, 2, seed=seed + g, info=info)
        bots = [GreedyAgent(seed + 2 * g), GreedyAgent(seed + 2 * g + 1)]
        views = [observe(s, 0), observe(s, 1)]
        taken: list[list[float]] = []
        while s.result is None:
            if type(s.stack[-1]) is TurnF and len(s.moves) > 1 and pick.random() < 0.5:
                taken.append(features(s, 0, attack))
            push(s, bots[s.to_act].choose(views[s.to_act]), False)
        if s.result.winner is not None:
            xs += taken
            ys += [1.0 if s.result.winner == 0 else 0.0] * len(taken)
    return xs, ys


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a few unknowns)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[float], rounds: int = 12) -> list[float]:
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(rounds):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))))
            r, q = p - y, p * (1 - p)
            for i in range(d):
                grad[i] += r * x[i]
                row = hess[i]
                for j in range(d):
                    row[j] += q * x[i] * x[j]
        for i in range(d):
            hess[i][i] += RIDGE * len(xs)
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
    return w


def log_loss(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
        total -= math.log(max(p if y else 1 - p, 1e-12))
    return total / len(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="beer")
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=50_000)
    args = ap.parse_args()
    xs, ys = positions(args.set, args.games, args.seed)
    w = fit(xs, ys)
    print(f"set {args.set}, {args.games} two-player greedy games from seed {args.seed}: {len(xs)} positions")
    print(f"WEIGHTS: tuple[float, ...] = ({', '.join(f'{v:.3f}' for v in w)})")
    print(f"mean log-loss {log_loss(w, xs, ys):.4f} (knowing nothing: {math.log(2):.4f})")


if __name__ == "__main__":
    main()
