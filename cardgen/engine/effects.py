"""State changes every rule shares: seats, drawing, putting cards in play, damage, healing, knock-outs, holds.

The engine's only writes to life, piles and statuses go through here, so the
invariants (cards conserved, life + pool constant) have one place to hold.
"""

from __future__ import annotations

from functools import cache

from cardgen.engine.cards import CardInfo
from cardgen.engine.events import (
    Damage,
    GameOver,
    Healed,
    HoldEnds,
    Reshuffle,
    Revived,
    Stunned,
    Unconscious,
    Vomiting,
)
from cardgen.engine.randomness import shuffle
from cardgen.engine.state import BraceF, DropF, GameState, Hold, Outcome, Reason, StrikeF, Window


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




def open_window(s: GameState, f: Window) -> None:
    """(Re)start the window of `f`: its target is asked first, then the others clockwise."""
    f.pos = 0
    exclude = f.player
    if type(f) is StrikeF:
        if f.sealed:
            f.resp = ()  # nobody may answer it at all
            return
        if f.target == exclude and s.game.info[f.design].targets == "one":
            exclude = -1  # an attack redirected at its own player may be defended by them; one hitting all may not
    f.resp = _askers(f.target, exclude, tuple(s.down))


@cache
def _askers(start: int, exclude: int, down: tuple[bool, ...]) -> tuple[int, ...]:
    """`clockwise` as a tuple, memoised: windows open several times a turn, over the same few seatings."""
    n = len(down)
    return tuple(q for i in range(n) if (q := (start + i) % n) != exclude and not down[q])


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


def deal_damage(s: GameState, p: int, amount: int, why: int) -> None:
    """Take `amount` from `p` into the lost pool; at 0 or below, open their heal-when-dropping window.

    Damage that would take `p` to 0 or below while they hold a heal that comes before the damage (Lunch
    Money's First Aid) waits on a `BraceF` for those heals first, and is then dealt in full (`lose`).
    """
    if amount <= 0 or s.down[p]:
        return
    if s.life[p] <= amount and s.game.bracing and can_brace(s, p):
        s.stack.append(BraceF(p, amount, why))
        return
    lose(s, p, amount, why)


def can_brace(s: GameState, p: int) -> bool:
    """`p` can act and holds a heal played before the damage lands."""
    info = s.game.info
    return any(info[d].heal_first for d in s.hands[p]) and can_act(s, p)


def lose(s: GameState, p: int, amount: int, why: int) -> None:
    """`deal_damage` now, with no heal before it."""
    if amount <= 0 or s.down[p]:
        return
    lost = amount if s.game.rules.negative_life else min(amount, s.life[p])
    s.life[p] -= lost
    s.pool += lost
    if s.log is not None:  # a hot spot: do not even build the event unlogged
        s.log.append(Damage(s.turn, p, lost, s.life[p], why))
    if s.dealt is not None:
        s.dealt[why] += lost
    if s.life[p] <= 0:
        s.stack.append(DropF(p))


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
    """`p` is unconscious: hand discarded, holds ended, and the game over if one player is left."""
    s.down[p] = True
    s.discard.extend(s.hands[p])
    s.hands[p] = []
    s.stun_until[p] = -1
    s.vomit_until[p] = -1
    if s.log is not None:
        s.log.append(Unconscious(s.turn, p, s.life[p]))
    for h in [h for h in s.holds if p in (h.holder, h.victim)]:
        end_hold(s, h, "holder out" if h.holder == p else "victim out")
    alive = s.conscious()
    if len(alive) <= 1:
        winner = alive[0] if alive else None
        s.result = Outcome(winner, Reason.LAST_STANDING if alive else Reason.NOBODY_STANDING, s.turn)
        if s.log is not None:
            s.log.append(GameOver(s.turn, -1 if winner is None else winner, s.result.reason))


def end_hold(s: GameState, h: Hold, why: str) -> None:
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
