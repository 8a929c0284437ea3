"""The fixed part of a game (OpenSpiel's `Game`): the deck, its rules facts, the table rules, the seats.

Nothing here changes during play, so a `GameState` shares it with all its
copies and with every player view. The changing part is `state.GameState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from cardgen.engine.cards import CardInfo, card_info
from cardgen.engine.frozen import init_args
from cardgen.engine.moves import Move
from cardgen.model import CardSet, Rules

# A card's turn plays aimed at one set of seats: all of them, and its HOLD half's alone (`legal.card_plays`).
TurnPlays = tuple[tuple[Move, ...], tuple[Move, ...]]


def deck_of(cs: CardSet) -> tuple[int, ...]:
    """Every physical card of the set as design indices, in print order (sorted)."""
    deck: list[int] = []
    for d, c in enumerate(cs.cards):
        deck += [d] * c.count
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Game:
    """A card set seated at a table: what every state of one game shares and never changes."""

    cs: CardSet
    info: tuple[CardInfo, ...]
    rules: Rules  # the table's rules (starting life, hand size, turn cap...): see docs/rules-decisions.md
    names: tuple[str, ...]
    start_life: int
    turn_cap: int
    deck: tuple[int, ...]  # every physical card, sorted by design
    # Derived from `info` for the response windows' quick "can anyone here answer at all?".
    meddling: frozenset[int] = field(init=False)  # may answer a card aimed at another
    answering: frozenset[int] = field(init=False)  # may answer a card at all
    cancelling: frozenset[int] = field(init=False)  # cancels any card, heals included (classic's Humiliation)
    reviving: bool = field(init=False)  # some heal card may revive an unconscious player
    bracing: bool = field(init=False)  # some heal card is played before the damage that would drop you
    after_block: frozenset[int] = field(init=False)  # opens a combo right after a BLOCK (Beer Money's Grab)
    # The game's table of each design's turn plays by the seats it may aim at, filled as they are first asked
    # for (`legal.card_plays`): a move table, not a fact; a copy of a state shares it with its game.
    turn_plays: tuple[dict[int, TurnPlays], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name, value in zip(_DERIVED, _derived(self.info), strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "turn_plays", tuple({} for _ in self.info))

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def deck_total(self) -> int:
        return len(self.deck)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Game, init_args(self)  # (cardgen/engine/frozen.py)


_DERIVED: Final = ("meddling", "answering", "cancelling", "reviving", "bracing", "after_block")
# The last card set's derived facts and deck, kept for its next games: a simulation starts thousands of games
# of one set, and working these out afresh each time was a measurable part of a short game.
_LAST_INFO: list[tuple[tuple[CardInfo, ...], tuple[object, ...]]] = []
_LAST_DECK: list[tuple[CardSet, tuple[int, ...]]] = []


def _derived(info: tuple[CardInfo, ...]) -> tuple[object, ...]:
    if not _LAST_INFO or _LAST_INFO[0][0] is not info:
        _LAST_INFO[:] = [(info, (frozenset(ci.d for ci in info if ci.meddles),
                                 frozenset(ci.d for ci in info if ci.answers),
                                 frozenset(ci.d for ci in info if ci.humiliate == "cancel"),
                                 any(ci.revives for ci in info), any(ci.heal_first for ci in info),
                                 frozenset(ci.d for ci in info if ci.opener is not None and ci.opener.after_block)))]
    return _LAST_INFO[0][1]


def _deck(cs: CardSet) -> tuple[int, ...]:
    if not _LAST_DECK or _LAST_DECK[0][0] is not cs:
        _LAST_DECK[:] = [(cs, deck_of(cs))]
    return _LAST_DECK[0][1]


_LAST_GAME: list[Game] = []


def make_game(cs: CardSet, names: list[str] | tuple[str, ...], turn_cap: int | None = None,
              info: tuple[CardInfo, ...] | None = None) -> Game:
    """The fixed game for `cs` at a table of `names` (`info` may be shared between games of one set: then the
    last game made is reused while nothing else changes, as a simulation's thousands of games ask)."""
    r = cs.rules
    cap = turn_cap if turn_cap is not None else r.turn_cap
    names = tuple(names)
    if _LAST_GAME:
        g = _LAST_GAME[0]
        if g.cs is cs and g.info is info and g.names == names and g.turn_cap == cap and g.rules is r:
            return g
    g = Game(cs=cs, info=info if info is not None else card_info(cs), rules=r, names=names, start_life=r.life,
             turn_cap=cap, deck=_deck(cs))
    if info is not None:
        _LAST_GAME[:] = [g]
    return g
