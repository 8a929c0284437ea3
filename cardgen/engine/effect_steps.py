"""A card's `effects:` entry as the engine runs it: its parameters read once into a compiled object.

`cardgen.primitives.Effect` is the model's (not compiled): reading a parameter there is an interpreted call, and
the primitives read several every time an effect runs, a bot's look-aheads included. A `Step` holds the same
parameters in plain dicts and the primitive's own facts (is it a strike, does it move cards between players).
"""

from __future__ import annotations

from cardgen.primitives import PRIMITIVES, Effect


class Step:
    """One primitive of a card's `effects:`, every parameter given (`Effect`'s), read for the engine."""

    def __init__(self, effect: Effect) -> None:
        self.effect = effect
        self.op: str = effect.op
        prim = PRIMITIVES[effect.op]
        self.strike: str = prim.strike  # "defended", "sealed" or "" (`Primitive.strike`)
        self.moves_cards: bool = prim.moves_cards
        self.numbers: dict[str, int] = {k: v for k, v in effect.values if isinstance(v, int)}
        self.words: dict[str, str] = {k: v for k, v in effect.values if isinstance(v, str)}
        self.who: str = effect.who  # whom it acts on ("" for a primitive without a `who`)

    def number(self, name: str) -> int:
        return self.numbers[name]

    def word(self, name: str) -> str:
        return self.words[name]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Step, (self.effect,)  # (a compiled class pickles as a call of its constructor)
