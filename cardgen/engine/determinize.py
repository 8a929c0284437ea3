"""Deals that agree with a seat's view (OpenSpiel's `ResampleFromInfostate`), for a searching bot.

`determinize(view, rng)` deals the cards the seat cannot see (`view.unseen()`: the deck minus its hand, the
discard pile and the weapons in flight) at random into the other hands (same sizes) and the draw pile, and
returns a full `GameState` that agrees with everything the view shows; its legal moves for the viewing seat
are the view's. It lives with the game, not with the view: it is the engine that reads the state behind a
view, never the agent.
"""

from __future__ import annotations

import random

from cardgen.engine.rules import settle
from cardgen.engine.state import GameState
from cardgen.engine.views import PlayerView


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A full state that agrees with `view`: the unseen cards dealt at random (same hand sizes), the draw
    pile in a random order, a fresh shuffling generator drawn from `rng`. Not logged."""
    s = view._state
    cards = list(view.unseen())
    rng.shuffle(cards)
    hands: list[list[int]] = []
    for p, hand in enumerate(s.hands):
        if p == view.seat:
            hands.append(list(hand))
        else:
            size = len(hand)
            hands.append(cards[:size])
            del cards[:size]
    t = GameState(
        game=s.game, life=list(s.life), hands=hands, draw=cards, discard=list(s.discard), table=list(s.table),
        pool=s.pool, down=list(s.down), stomped=list(s.stomped), stun_until=list(s.stun_until),
        vomit_until=list(s.vomit_until), holds=list(s.holds), turn=s.turn, current=s.current,
        stack=[f.copy() for f in s.stack], rng=random.Random(rng.getrandbits(64)), result=s.result, log=None,
        weapons_used=set(s.weapons_used), roles_played=set(s.roles_played), vomit_hit_used=s.vomit_hit_used,
        skips=list(s.skips),  # (hands shown this turn are not kept: the deal above may have moved those cards)
    )
    for f in t.stack:
        f.redeal(s, t, view.seat)
    settle(t)
    return t
