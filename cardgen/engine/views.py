"""Player views: what one seat may know, and deals of the unseen cards that agree with it.

Agents never see a `GameState`. At each decision the player to act gets a
`PlayerView` (`observe(state, seat)`), which shows

- the fixed `game` (card set, rules facts `game.info[d]`, table rules, seat names, starting life, deck);
- its own `hand` (design indices), every seat's `hand_sizes`, `life`, `down`, `stomped`,
  `stun_until` / `vomit_until` (with `stunned(p)` / `vomiting(p)`), the `holds`, the lost `pool`;
- the turns each seat still skips (`skips`), and the hands shown to it alone this turn (`revealed`);
- the public piles: `discard` (every card played or discarded since the last reshuffle, top last), the
  weapons in flight (`table`), the `draw_size`, the weapons used this turn and whether the free hit on a
  vomiting player was taken;
- `turn`, whose turn it is (`current`), who decides now (`to_act`), what is pending (`steps`: a typed
  `observation.Pending` per step on the stack, bottom first; `step`: the one deciding now; no engine frame)
  and, for the seat to act only, its legal `moves`.

It hides the other seats' hands and the order of the draw pile (and the shuffling generator).

`view.determinized(rng)` asks the state behind the view (`GameState.determinized`) for a full state that
agrees with the view, the cards this seat cannot see (`view.unseen()`) dealt at random, for a searching bot.

A view is live and cheap: it reads the state as it is when asked (the values a bot reads most, `hand`,
`life`, `step`, are made once per decision), so an agent reads it during its `choose` call. The state
behind it is no attribute of its interface: only the engine (`GameState.determinized`) reads it. Every
accessor returns a copy or an immutable value, so an agent cannot change the game through it. What is
public follows the rulebooks' table: discards and played cards are face up, hands and the draw pile are
not. A weapon returned to its player's hand is known to everyone
at a real table; the view does not track that (a deal may put that weapon elsewhere).
"""

from __future__ import annotations

import random
from typing import Protocol

from cardgen.engine.game import Game
from cardgen.engine.moves import Move
from cardgen.engine.observation import Pending
from cardgen.engine.state import GameState, Hold, Outcome
from cardgen.model import Role


class PlayerView:
    """What seat `seat` may know about the game now (see the module docstring)."""

    __slots__ = ("_hand", "_hand_at", "_life", "_life_at", "_state", "_step", "_step_at", "game", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self.game: Game = state.game
        self.seat = seat
        # Copies a bot reads again and again, each with the decision it was made at (its legal-move list: every
        # decision brings a new one, and nothing changes during a decision).
        self._hand_at: object = None
        self._life_at: object = None
        self._step_at: object = None
        self._hand: tuple[int, ...] = ()
        self._life: tuple[int, ...] = ()
        self._step: Pending | None = None

    # --- own cards and the decision ---------------------------------------------------------------------

    @property
    def hand(self) -> tuple[int, ...]:
        s = self._state
        if self._hand_at is not s.moves:
            self._hand_at, self._hand = s.moves, tuple(s.hands[self.seat])
        return self._hand

    @property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves of this seat now (sorted, unique); empty unless it is this seat's decision."""
        s = self._state
        return tuple(s.moves) if s.to_act == self.seat else ()

    @property
    def to_act(self) -> int:
        return self._state.to_act

    # --- every seat -------------------------------------------------------------------------------------

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._state.hands)

    @property
    def life(self) -> tuple[int, ...]:
        s = self._state
        if self._life_at is not s.moves:
            self._life_at, self._life = s.moves, tuple(s.life)
        return self._life

    @property
    def down(self) -> tuple[bool, ...]:
        return tuple(self._state.down)

    @property
    def stomped(self) -> tuple[bool, ...]:
        return tuple(self._state.stomped)

    @property
    def stun_until(self) -> tuple[int, ...]:
        return tuple(self._state.stun_until)

    @property
    def vomit_until(self) -> tuple[int, ...]:
        return tuple(self._state.vomit_until)

    def stunned(self, p: int) -> bool:
        return self._state.stunned(p)

    def vomiting(self, p: int) -> bool:
        return self._state.vomiting(p)

    def restricted(self, p: int) -> bool:
        return self._state.restricted(p)

    @property
    def holds(self) -> tuple[Hold, ...]:
        return tuple(self._state.holds)

    @property
    def pool(self) -> int:
        return self._state.pool

    # --- the table --------------------------------------------------------------------------------------

    @property
    def discard(self) -> tuple[int, ...]:
        return tuple(self._state.discard)

    @property
    def table(self) -> tuple[int, ...]:
        return tuple(self._state.table)

    @property
    def draw_size(self) -> int:
        return len(self._state.draw)

    @property
    def weapons_used(self) -> frozenset[tuple[int, int]]:
        """(seat, design) of the weapons used this turn."""
        return frozenset(self._state.weapons_used)

    @property
    def roles_played(self) -> frozenset[Role]:
        """The limited roles (classic: attack) the turn's player has played this turn."""
        return frozenset(self._state.roles_played)

    @property
    def vomit_hit_used(self) -> bool:
        return self._state.vomit_hit_used

    @property
    def skips(self) -> tuple[int, ...]:
        """Own turns each seat still loses to a `skip_turns` effect (played face up: everyone knows)."""
        return tuple(self._state.skips)

    @property
    def revealed(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Hands shown to this seat alone this turn by a `reveal_hand` effect: (whose, the cards then)."""
        return tuple((owner, cards) for viewer, owner, cards in self._state.revealed if viewer == self.seat)

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def current(self) -> int:
        return self._state.current

    @property
    def steps(self) -> tuple[Pending, ...]:
        """What is pending, bottom first (the turn, then the cards in flight...), one `Pending` a step."""
        s = self._state
        return tuple(f.pending(s) for f in s.stack)  # each frame's own summary (`Frame.pending`)

    @property
    def depth(self) -> int:
        """How many steps are pending (`len(steps)`, without making them)."""
        return len(self._state.stack)

    @property
    def step(self) -> Pending | None:
        """The step that asks for the decision now (None at the end)."""
        s = self._state
        if self._step_at is not s.moves:
            self._step_at, self._step = s.moves, s.stack[-1].pending(s) if s.stack else None
        return self._step

    @property
    def result(self) -> Outcome | None:
        return self._state.result

    # --- what this seat cannot see ----------------------------------------------------------------------

    def unseen(self) -> tuple[int, ...]:
        """The cards in the other hands and the draw pile, as a sorted multiset of design indices."""
        return self._state.unseen(self.seat)

    def determinized(self, rng: random.Random) -> GameState:
        """A full state that agrees with this view, the unseen cards dealt at random (`GameState.determinized`):
        what a searching bot plays its look-ahead on. Not logged."""
        return self._state.determinized(self.seat, rng)

    def public(self) -> tuple[object, ...]:
        """Everything this view shows, as one comparable value (two states this seat cannot tell apart
        give equal values)."""
        return (self.seat, self.hand, self.moves, self.to_act, self.hand_sizes, self.life, self.down, self.stomped,
                self.stun_until, self.vomit_until, self.holds, self.pool, self.discard, self.table, self.draw_size,
                tuple(sorted(self.weapons_used)), tuple(sorted(self.roles_played)), self.vomit_hit_used, self.turn,
                self.current, self.steps, self.result, self.skips, self.revealed)


def observe(state: GameState, seat: int) -> PlayerView:
    """The view of `seat` (live: it reads `state` when asked)."""
    return PlayerView(state, seat)


class Agent(Protocol):
    """Anything that picks one of `view.moves` for the seat to act, from that seat's view alone."""

    def choose(self, view: PlayerView) -> Move: ...
