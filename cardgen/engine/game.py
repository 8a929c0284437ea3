"""The fixed part of a game (OpenSpiel's `Game`): the deck, its rules facts, the table rules, the seats.

Nothing here changes during play, so a `GameState` shares it with all its
copies and with every player view. The changing part is `state.GameState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.engine.cards import CardInfo, card_info
from cardgen.model import CardSet, Rules


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "meddling", frozenset(ci.d for ci in self.info if ci.meddles))
        object.__setattr__(self, "answering", frozenset(ci.d for ci in self.info if ci.answers))
        object.__setattr__(self, "cancelling", frozenset(ci.d for ci in self.info if ci.humiliate == "cancel"))

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def deck_total(self) -> int:
        return len(self.deck)


def make_game(cs: CardSet, names: list[str] | tuple[str, ...], turn_cap: int | None = None,
              info: tuple[CardInfo, ...] | None = None) -> Game:
    """The fixed game for `cs` at a table of `names` (`info` may be shared between games of one set)."""
    r = cs.rules
    return Game(cs=cs, info=info if info is not None else card_info(cs), rules=r, names=tuple(names),
                start_life=r.life, turn_cap=turn_cap if turn_cap is not None else r.turn_cap, deck=deck_of(cs))
