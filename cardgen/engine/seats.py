"""Seatings the rules look up again and again: who a window asks, who a heal or a stomp may target, the rivals
of a turn's player. Pure functions of seat numbers and statuses; each game keeps its own memo of them
(`Game.askers`, `Game.revivable`, `Game.rivals`): the same few seatings recur turn after turn.
"""

from __future__ import annotations


def seats_from(p: int, n: int) -> tuple[int, ...]:
    """Every seat of `n` clockwise from `p` (included)."""
    return tuple((p + i) % n for i in range(n))


def askers(start: int, exclude: int, down: tuple[bool, ...]) -> tuple[int, ...]:
    """Who a window asks: the conscious seats clockwise from `start` (included), without `exclude`."""
    n = len(down)
    return tuple(q for i in range(n) if (q := (start + i) % n) != exclude and not down[q])


def revivable(me: int, down: tuple[bool, ...], stomped: tuple[bool, ...]) -> tuple[int, ...]:
    """Unconscious, unstomped seats, and `me` (-1: nobody) among them in seat order: what heals and stomps target."""
    return tuple(q for q in range(len(down)) if q == me or (down[q] and not stomped[q]))


def rivals(p: int, down: tuple[bool, ...]) -> tuple[tuple[int, ...], int]:
    """The conscious seats other than `p`, in seat order, and the same as a bit mask (a memo key)."""
    others = tuple(q for q in range(len(down)) if q != p and not down[q])
    return others, sum(1 << q for q in others)
