"""The rules: legal moves for whoever must act, applying a move, and running everything automatic.

`new_game` deals and runs to the first decision; `legal_moves` lists what the
player to act may do (sorted, unique); `push` applies a move in place and runs
on to the next decision; `apply` does the same on a copy. Every effect comes
from a card's mechanic fields and the set's `rules`, never from a card name.
What each pending step does is its frame's own (`cardgen.engine.frames`): this
module only starts turns and calls the top frame.
"""

from __future__ import annotations

from cardgen.engine.cards import CardInfo
from cardgen.engine.effects import next_seat
from cardgen.engine.events import GameOver, Moved, TurnStarts
from cardgen.engine.frames import LetGoF, TurnF
from cardgen.engine.game import Game, make_game, seat_names
from cardgen.engine.moves import Move
from cardgen.engine.outcome import Outcome, Reason
from cardgen.engine.randomness import shuffle
from cardgen.engine.state import GameState, blank_state
from cardgen.errors import CardgenError
from cardgen.model import CardSet


class IllegalMoveError(CardgenError):
    """A move that is not in `legal_moves(state)`."""


# --- public API ---------------------------------------------------------------------------------------------


def new_game(cs: CardSet, players: int | list[str], seed: int | None = None, turn_cap: int | None = None,
             record: bool = False, info: tuple[CardInfo, ...] | None = None, tally: bool = False,
             game: Game | None = None) -> GameState:
    """Shuffle with `seed`, deal a hand to each player (seat 0 first) and run to the first decision.
    `record`: keep the full log; `tally`: only the damage per design (`GameState.dealt`); `game`: the fixed
    game of `cs` at this table, made once by a caller that starts many games (its tables serve them all)."""
    names = list(seat_names(players)) if isinstance(players, int) else list(players)
    if len(names) < 2:
        raise CardgenError("a game needs at least 2 players")
    g = game if game is not None else make_game(cs, names, turn_cap, info)
    s = blank_state(g, seed, record, tally)
    shuffle(s.generator(), s.draw)
    for _ in range(cs.rules.hand_size):
        for p in range(len(names)):
            if s.draw:
                s.hands[p].append(s.draw.pop())
    start(s)
    return s


def start(s: GameState) -> None:
    """Run a freshly set-up state to its first decision."""
    _advance(s)


def settle(s: GameState) -> None:
    """Work out again who decides now and their legal moves (after the hidden cards of a state were dealt
    afresh: `views.determinize`). Re-running the pending frame only repeats the question it asked."""
    _advance(s)


def legal_moves(s: GameState) -> list[Move]:
    """What `s.to_act` may do now (empty once the game is over)."""
    return list(s.moves)


def push(s: GameState, move: Move, check: bool = True) -> None:
    """Apply `move` in place and run on to the next decision.

    `check=False` skips validating the move, for a hot loop whose moves come straight from `s.moves`
    (an illegal move then corrupts the state instead of raising).
    """
    if check:
        if s.result is not None:
            raise IllegalMoveError("the game is over")
        if move not in s.moves:
            raise IllegalMoveError(f"illegal move {describe(s, move)} for {s.game.names[s.to_act]}")
    p = s.to_act
    if s.log is not None:
        s.log.append(Moved(s.turn, p, move))
    s.stack[-1].apply(s, p, move)  # the frame that offered the move
    _advance(s)


def apply(s: GameState, move: Move) -> GameState:
    """A new state: `s` with `move` applied (`s` is unchanged)."""
    t = s.copy()
    push(t, move)
    return t


def describe(s: GameState, m: Move) -> str:
    """A move in words: 'play Kick at Bob', 'defend with Dodge/Block as dodge'."""
    parts: list[str] = [m.kind]
    if m.card >= 0:
        parts.append(s.game.info[m.card].name)
    if m.target >= 0:
        parts.append(f"at {s.game.names[m.target]}")
    if m.choice:
        parts.append(f"({m.choice})")
    return " ".join(parts)


# --- running everything automatic ---------------------------------------------------------------------------


def _advance(s: GameState) -> None:
    stack = s.stack
    while True:
        if s.result is not None:
            s.to_act = -1
            s.moves = []
            return
        if not stack:
            _begin_turn(s)
            continue
        if stack[-1].step(s):
            return


def _begin_turn(s: GameState) -> None:
    if s.turn >= s.game.turn_cap:
        s.result = Outcome(None, Reason.TURN_CAP, s.turn)
        if s.log is not None:
            s.log.append(GameOver(s.turn, -1, Reason.TURN_CAP))
        return
    s.turn += 1
    down = s.down
    p = s.current + 1
    if p == len(down):
        p = 0
    if down[p]:  # the next seat is the common case
        p = next_seat(s, s.current, 1)
    s.current = p
    if s.weapons_used:
        s.weapons_used.clear()
    if s.roles_played:
        s.roles_played.clear()
    s.vomit_hit_used = False
    if s.revealed:
        s.revealed = []
    s.stack.append(TurnF(p))
    if s.log is not None:
        s.log.append(TurnStarts(s.turn, p))
    if s.holds:  # a holder who may let go at any time is asked at the start of every turn
        n = len(down)
        for q in sorted({h.holder for h in s.holds if h.releasable}, key=lambda q: (q - p) % n, reverse=True):
            s.stack.append(LetGoF(q))
