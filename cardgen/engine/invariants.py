"""Checks that hold after every move of every game; tests run them, the engine never needs them.

Each check returns human-readable problems (empty when all is well), so a
failing property test says what broke, not only that something did.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.engine.state import DropF, GameState


@dataclass(frozen=True)
class Snapshot:
    """The parts of a state compared across one move."""

    turn: int
    life: tuple[int, ...]
    log_len: int


def snapshot(s: GameState) -> Snapshot:
    return Snapshot(s.turn, tuple(s.life), len(s.log) if s.log is not None else 0)


def check_state(s: GameState) -> list[str]:
    """Problems with one state on its own: card conservation, life accounting, statuses, who acts."""
    out: list[str] = []
    zones = [c for h in s.hands for c in h] + s.draw + s.discard + s.table
    if len(zones) != s.game.deck_total:
        out.append(f"{len(zones)} cards in play, the deck has {s.game.deck_total}")
    if tuple(sorted(zones)) != s.game.deck:  # the deck is in design order: sorted, as multisets compare
        out.append("the cards in play are not the deck's cards")
    total = s.game.start_life * s.n
    if sum(s.life) + s.pool != total:
        out.append(f"life {sum(s.life)} + lost pool {s.pool} != {total}")
    if s.pool < 0:
        out.append(f"lost pool is negative ({s.pool})")
    dropping = {f.player for f in s.stack if isinstance(f, DropF)}
    for p in range(s.n):
        name = s.game.names[p]
        if s.life[p] > s.game.start_life:
            out.append(f"{name} has {s.life[p]}, over the starting {s.game.start_life}")
        if s.life[p] < 0 and not s.game.rules.negative_life:
            out.append(f"{name} has negative life {s.life[p]} in a set without negative life")
        if s.down[p] and s.hands[p]:
            out.append(f"{name} is unconscious but holds {len(s.hands[p])} cards")
        if not s.down[p] and s.life[p] <= 0 and p not in dropping:
            out.append(f"{name} is conscious at {s.life[p]}")
        if s.down[p] and s.life[p] > 0:
            out.append(f"{name} is unconscious at {s.life[p]}")
    for h in s.holds:
        if s.down[h.holder] or s.down[h.victim]:
            out.append(f"hold of {s.game.names[h.holder]} on {s.game.names[h.victim]} outlives an unconscious player")
    if s.result is None:
        p = s.to_act
        if p < 0 or not s.moves:
            out.append("nobody is to act but the game is not over")
        else:
            if s.down[p]:
                out.append(f"unconscious {s.game.names[p]} is to act")
            if s.stunned(p):
                out.append(f"stunned {s.game.names[p]} is to act")
            if s.vomiting(p):
                out.append(f"vomiting {s.game.names[p]} is to act")
            if s.moves != sorted(set(s.moves)):
                out.append("legal moves are not sorted and unique")
    elif s.moves:
        out.append("the game is over but moves are offered")
    return out


def _most_damage(s: GameState) -> dict[str, int]:
    """The most a single damage event may take, by card name: a strike (times any combo multiplier),
    a hold's tick, or a retaliation."""
    mult = max([ci.opener.multiplier for ci in s.game.info if ci.opener is not None] + [1])
    out: dict[str, int] = {}
    for ci in s.game.info:
        most = max([x * mult for x in ci.damage] + [ci.retaliates, ci.ongoing.damage if ci.ongoing else 0])
        out[ci.name] = max(out.get(ci.name, 0), most)
    return out


def check_step(before: Snapshot, s: GameState) -> list[str]:
    """Problems across one move: life changed only by damage and heals that cards account for;
    hands refilled at turn ends."""
    out: list[str] = []
    if s.log is not None:
        delta = [0] * s.n
        index = {name: i for i, name in enumerate(s.game.names)}
        most = _most_damage(s)
        heals = {ci.name: max(ci.heal_turn, ci.heal_drop) for ci in s.game.info}
        for e in s.log[before.log_len:]:
            if e["event"] == "damage":
                delta[index[e["player"]]] -= e["amount"]
                if not 0 < e["amount"] <= most.get(e["why"], 0):
                    out.append(f"{e['player']} lost {e['amount']} to {e['why']}, which cannot deal that much")
            elif e["event"] == "heal":
                delta[index[e["player"]]] += e["amount"]
                if not 0 <= e["amount"] <= heals.get(e["card"], 0):
                    out.append(f"{e['player']} regained {e['amount']} from {e['card']}, which cannot heal that much")
        for p in range(s.n):
            if before.life[p] + delta[p] != s.life[p]:
                out.append(f"{s.game.names[p]}'s life went {before.life[p]} -> {s.life[p]}, the cards say "
                           f"{delta[p]:+d}")
    if s.turn != before.turn and (s.draw or s.discard):
        size = s.game.rules.hand_size
        for p in range(s.n):
            if not s.down[p] and len(s.hands[p]) < size:
                out.append(f"turn {s.turn} began with {s.game.names[p]} holding {len(s.hands[p])} < {size} cards")
    return out
