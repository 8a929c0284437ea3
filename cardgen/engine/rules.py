"""The rules as functions: start a game, its legal moves, apply a move (in place or on a copy).

`new_game` seats a set and deals (`GameState.deal`); `legal_moves` lists what the player to act may do (sorted,
unique); `push` applies a move in place and runs on to the next decision (`GameState.push`); `apply` does the
same on a copy. Every effect comes from a card's mechanic fields and the set's `rules`, never from a card name.
What each pending step does is its frame's own (`cardgen.engine.frames`); running the automatic steps to the
next decision is `cardgen.engine.flow`.
"""

from __future__ import annotations

from cardgen.engine.cards import CardInfo
from cardgen.engine.game import Game, make_game, seat_names
from cardgen.engine.moves import Move
from cardgen.engine.state import GameState, IllegalMoveError
from cardgen.errors import CardgenError
from cardgen.model import CardSet

__all__ = ["IllegalMoveError", "apply", "describe", "legal_moves", "new_game", "push", "settle"]


def new_game(cs: CardSet, players: int | list[str], seed: int | None = None, turn_cap: int | None = None,
             record: bool = False, info: tuple[CardInfo, ...] | None = None, tally: bool = False,
             game: Game | None = None) -> GameState:
    """Seat `cs` at a table of `players` (a count or the names) and start a game (`GameState.deal`: shuffle with
    `seed`, deal, run to the first decision). `record`: keep the full log; `tally`: only the damage per design
    (`GameState.dealt`); `game`: the fixed game of `cs` at this table, made once by a caller that starts many
    games (its tables serve them all)."""
    names = list(seat_names(players)) if isinstance(players, int) else list(players)
    if len(names) < 2:
        raise CardgenError("a game needs at least 2 players")
    g = game if game is not None else make_game(cs, names, turn_cap, info)
    return GameState.deal(g, seed, record, tally)


def settle(s: GameState) -> None:
    """Work out again who decides now and their legal moves (`GameState.settle`)."""
    s.settle()


def legal_moves(s: GameState) -> list[Move]:
    """What `s.to_act` may do now (empty once the game is over)."""
    return list(s.moves)


def push(s: GameState, move: Move, check: bool = True) -> None:
    """Apply `move` in place and run on to the next decision (`GameState.push`; `check=False` skips
    validating it, for a hot loop whose moves come straight from `s.moves`)."""
    s.push(move, check)


def apply(s: GameState, move: Move) -> GameState:
    """A new state: `s` with `move` applied (`s` is unchanged)."""
    t = s.copy()
    t.push(move)
    return t


def describe(s: GameState, m: Move) -> str:
    """A move in words: 'play Kick at Bob', 'defend with Dodge/Block as dodge' (`GameState.describe`)."""
    return s.describe(m)
