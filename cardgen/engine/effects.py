"""State changes every rule shares: seats, drawing, putting cards in play, healing, knock-outs, holds.

The engine's writes to life, piles and statuses go through here (and through
`frames.lose`, the damage, which may push a frame), so the invariants (cards
conserved, life + pool constant) have few places to hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardgen.engine.cards import CardInfo
from cardgen.engine.events import (
    GameOver,
    Healed,
    HoldEnd,
    HoldEnds,
    Reshuffle,
    Revived,
    Stunned,
    Unconscious,
    Vomiting,
)
from cardgen.engine.frozen import init_args
from cardgen.engine.outcome import Outcome, Reason
from cardgen.engine.randomness import shuffle
from cardgen.model import DefenceKind

if TYPE_CHECKING:
    from cardgen.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Hold:
    """An ongoing hold (a choke): `damage` at the start of each of the holder's turns until broken."""

    holder: int
    victim: int
    design: int
    damage: int
    broken_by: tuple[DefenceKind, ...]
    vomit: bool
    restricted: bool
    releasable: bool  # its holder may let go at any time
    humiliation_breaks: bool  # anyone's humiliation breaks it (else only the victim's `broken_by` defences)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Hold, init_args(self)  # (cardgen/engine/frozen.py)


def next_seat(s: GameState, p: int, step: int) -> int:
    """The next conscious seat from `p` going `step` (+1 left/clockwise, -1 right); `p` if none."""
    n = len(s.life)
    q = p
    for _ in range(n):
        q = (q + step) % n
        if not s.down[q]:
            return q
    return p


def clockwise(s: GameState, start: int, exclude: int) -> list[int]:
    """Conscious seats clockwise from `start` (included), without `exclude`."""
    down = s.down
    n = len(down)
    return [q for i in range(n) if (q := (start + i) % n) != exclude and not down[q]]


def can_act(s: GameState, p: int) -> bool:
    """Conscious, not stunned, not vomiting, not tied up holding someone."""
    return (not s.down[p] and s.stun_until[p] < s.turn and s.vomit_until[p] < s.turn
            and not (s.holds and s.restricted(p)))


def lost(s: GameState, p: int) -> bool:
    """Unconscious, stunned or vomiting: `p` cannot take (or go on with) their turn."""
    turn = s.turn
    return s.down[p] or s.stun_until[p] >= turn or s.vomit_until[p] >= turn


def draw_one(s: GameState, p: int) -> bool:
    """Draw a card for `p`, reshuffling the discard pile when the draw pile is empty."""
    if not s.draw:
        if not s.discard:
            return False
        s.draw = s.discard
        s.discard = []
        shuffle(s.generator(), s.draw)
        if s.log is not None:
            s.log.append(Reshuffle(s.turn, len(s.draw)))
    s.hands[p].append(s.draw.pop())
    s.drew |= 1 << p
    return True


def put_in_play(s: GameState, p: int, d: int) -> CardInfo:
    """Take card `d` from `p`'s hand onto the table (weapons) or the discard pile (everything else)."""
    ci = s.game.info[d]
    s.hands[p].remove(d)
    if ci.weapon:
        s.table.append(d)
        s.weapons_used.add((p, d))
    else:
        s.discard.append(d)
    if ci.counted_role and p == s.current:
        s.roles_played.add(ci.counted_role)  # for `legal.barred`: one card of a limited role on your own turn
    if ci.stunned:
        s.stun_until[p] = max(s.stun_until[p], s.turn + ci.stunned)
        if s.log is not None:
            s.log.append(Stunned(s.turn, p, s.stun_until[p]))
    return ci


def restore(s: GameState, p: int, amount: int, by: int, card: int) -> None:
    """Give `p` up to `amount` back from the pool (never above the starting life); revive if above 0."""
    gain = max(0, min(amount, s.game.start_life - s.life[p]))
    s.life[p] += gain
    s.pool -= gain
    if s.log is not None:
        s.log.append(Healed(s.turn, p, gain, s.life[p], by, card))
    if s.down[p] and s.life[p] > 0:
        s.down[p] = False
        if s.log is not None:
            s.log.append(Revived(s.turn, p))


def knock_out(s: GameState, p: int) -> None:
    """`p` is unconscious: hand discarded, holds ended, and the game over if one player is left (`end_if_decided`)."""
    s.down[p] = True
    s.discard.extend(s.hands[p])
    s.hands[p] = []
    s.stun_until[p] = -1
    s.vomit_until[p] = -1
    if s.log is not None:
        s.log.append(Unconscious(s.turn, p, s.life[p]))
    for h in [h for h in s.holds if p in (h.holder, h.victim)]:
        end_hold(s, h, HoldEnd.HOLDER_OUT if h.holder == p else HoldEnd.VICTIM_OUT)
    if not any(f.hits_pending(s) for f in s.stack):
        end_if_decided(s)


def end_if_decided(s: GameState) -> None:
    """End the game once at most one player is conscious: the last one standing wins, and where nobody is
    left (a card that hit everyone at once took the last players out together) nobody wins.

    Called after a knock-out, unless an effect that hits several players still has hits to land: those land
    first (docs/rules-decisions.md, 6), and the effect asks again once it is done."""
    alive = s.conscious()
    if len(alive) <= 1 and s.result is None:
        winner = alive[0] if alive else None
        s.result = Outcome(winner, Reason.LAST_STANDING if alive else Reason.NOBODY_STANDING, s.turn)
        if s.log is not None:
            s.log.append(GameOver(s.turn, -1 if winner is None else winner, s.result.reason))


def end_hold(s: GameState, h: Hold, why: HoldEnd) -> None:
    """A hold ends (released, broken, or a player out); a vomiting hold starts the victim's round."""
    if h not in s.holds:
        return
    s.holds.remove(h)
    if s.log is not None:
        s.log.append(HoldEnds(s.turn, h.holder, h.victim, why))
    if h.vomit and not s.down[h.victim]:
        s.vomit_until[h.victim] = s.turn + len(s.conscious()) - 1
        if s.log is not None:
            s.log.append(Vomiting(s.turn, h.victim, s.vomit_until[h.victim]))
