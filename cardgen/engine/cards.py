"""Per-design rules facts, computed once per card set so the hot loop reads plain attributes.

The engine acts only on these mechanic fields (never on card names): every
card of a home-made set that is built from existing mechanics plays with no
new code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from cardgen import mechanics as mech
from cardgen.engine.effect_steps import Step
from cardgen.engine.frozen import init_args
from cardgen.engine.moves import DEFEND, DISCARD, Move, defence_choice
from cardgen.model import (
    Card,
    CardSet,
    DefenceKind,
    Humiliate,
    Ongoing,
    Opener,
    PassesOn,
    Role,
    Targets,
    Timing,
    defences_of,
)
from cardgen.primitives import Effect

# A HOLD half of a counter pair opens this combo; wrestling moves say `follows: hold`.
HOLD_COMBO: Final = "hold"
# The rulebook lets DODGE or BLOCK stop a HOLD (unless the card says otherwise).
HOLD_DEFENCES: Final[frozenset[DefenceKind]] = frozenset({DefenceKind.DODGE, DefenceKind.BLOCK})
STRIKE_DEFENCES: Final[frozenset[DefenceKind]] = frozenset({DefenceKind.DODGE, DefenceKind.BLOCK})
UNLIMITED: Final = 1_000_000  # a per-turn limit that no turn reaches


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What the engine needs to know about one card design (index `d` in `CardSet.cards`)."""

    d: int
    card: Card
    name: str
    type: str
    role: Role
    damage: tuple[int, ...]
    defences: frozenset[DefenceKind]  # defences that stop it when it is played as an attack
    weapon: bool
    defend_as: tuple[DefenceKind, ...]  # defence kinds it can be played as (card.defence, pair halves but HOLD)
    opener: Opener | None  # its own `opens`
    hold_opener: Opener | None  # a pair with a HOLD half: the opener that half plays as
    hold_defences: frozenset[DefenceKind]
    follows: str | None
    heal_turn: int  # amount restored when played on a turn (0: not a turn heal)
    heal_drop: int  # amount restored when its player drops to 0 or below (0: cannot)
    humiliate: Humiliate | None
    interfere: bool
    stomp: bool
    draw: int
    timing: Timing | None
    targets: Targets
    stuns: int
    stunned: int
    travels: bool
    passes_on: PassesOn | None
    ongoing: Ongoing | None
    retaliates: int
    effects: tuple[Effect, ...]  # its `effects:` (cardgen/primitives.py)
    steps: tuple[Step, ...]  # the same, as `frames.EffectsF` runs them in order
    words_only: bool  # `effects: text`: played, it does nothing the engine can tell (not simulated)
    # Rules the card carries from its own set (in a mixed deck too: `CardSet.rules_of`).
    may_drop: bool  # a weapon its player may discard after use (Beer Money)
    weapon_limit: bool  # a weapon under classic's limits: one weapon card on your own turn, each once a turn
    one_per_turn: bool  # its own set's `one_per_own_turn` lists its role: one such card on your own turn
    counted_role: Role | Literal[""]  # its role, if any set of the game limits that role: noted when played
    limited: bool  # weapon_limit or one_per_turn: `legal.barred` may rule it out
    revives: bool  # a turn heal that may be played on an unconscious, unstomped player (Lunch Money)
    heal_first: bool  # a dropping heal played before the damage lands (Lunch Money: "would reduce you to 0")
    heal_cap: int  # heal cards its own set allows in one turn: it may be played while fewer have been played
    travel_step: int  # +1: travels to the left (clockwise), -1: to the right
    turn_play: bool  # playable as a turn action (attack, opener, event, standalone hold)
    interject: bool  # playable out of turn in a response window (timing response/any)
    aimed: bool  # played at one chosen player (attacks on one target, openers)
    area: bool  # hits several players at once (targets others or all)
    cancels: bool  # a humiliation that cancels what it answers (else, if one, it redirects)
    basic_attack: bool  # a plain attack: the free hit on a vomiting player may be made with it
    free_attack: bool  # may be the free attack a humiliation earns
    typed_follow_up: bool  # may follow an opener whose `then` names its type
    meddles: bool  # may answer a card aimed at someone else (humiliation, interference, interjection)
    answers: bool  # may answer a pending card at all (a defence, or it meddles)
    plays: bool  # has PLAY moves as a turn action (its own, or its HOLD half's)
    on_turn: bool  # has any move as a turn action but discarding (a play, a heal, a stomp)
    discard_move: Move  # its DISCARD move, the commonest move of all: made once
    defend_moves: tuple[tuple[DefenceKind, Move], ...]  # its DEFEND move for each kind in `defend_as`, made once

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return CardInfo, init_args(self)  # (cardgen/engine/frozen.py)


def card_info(cs: CardSet) -> tuple[CardInfo, ...]:
    """Every design's rules facts, in the set's card order (index = design number used in states)."""
    counted = set(cs.rules.one_per_own_turn).union(*(r.one_per_own_turn for r in cs.origin_rules.values()))
    return tuple(_info(d, c, cs, counted) for d, c in enumerate(cs.cards))


def _info(d: int, c: Card, cs: CardSet, counted: set[str]) -> CardInfo:
    """One design's facts: what its mechanics mean (`cardgen.mechanics`) and the rules of its own set."""
    role = cs.role(c)
    own = cs.rules_of(c)
    defend_as = mech.defends_as(c)
    hold_opener = Opener(combo=HOLD_COMBO, chain=True, most=own.moves_per_hold) if mech.opens_hold(c) else None
    weapon = role == "weapon"
    limited_weapon = weapon and own.weapon_once_per_turn
    turn_play, interject = mech.turn_play(c), mech.interjects(c)
    heal_turn, heal_drop = mech.heals_on_turn(c), mech.heals_dropping(c)
    return CardInfo(
        d=d, card=c, name=c.name, type=c.type, role=role, damage=c.damage,
        defences=frozenset(defences_of(c, cs)) | (frozenset(c.ongoing.broken_by) if c.ongoing else frozenset()),
        weapon=weapon, defend_as=defend_as, opener=c.opens, hold_opener=hold_opener,
        hold_defences=frozenset(c.defended_by) if c.defended_by is not None else HOLD_DEFENCES,
        follows=c.follows, heal_turn=heal_turn, heal_drop=heal_drop, humiliate=c.humiliate, interfere=c.interfere,
        stomp=c.stomp, draw=c.draw, timing=c.timing, targets=c.targets, stuns=c.stuns, stunned=c.stunned,
        travels=c.travels, passes_on=c.passes_on, ongoing=c.ongoing, retaliates=c.retaliates,
        effects=c.effects, steps=tuple(Step(e) for e in c.effects), words_only=c.words_only,
        may_drop=weapon and own.weapons_may_drop, weapon_limit=limited_weapon,
        one_per_turn=role in own.one_per_own_turn, counted_role=role if role in counted else "",
        limited=limited_weapon or role in own.one_per_own_turn,
        revives=heal_turn > 0 and own.revive, heal_first=heal_drop > 0 and not own.negative_life,
        heal_cap=own.heals_per_turn or (UNLIMITED if own.heal_action else 1),
        travel_step=1 if own.travel_direction == "left" else -1, turn_play=turn_play, interject=interject,
        meddles=mech.meddles(c), answers=mech.answers(c), plays=turn_play or hold_opener is not None,
        on_turn=turn_play or hold_opener is not None or heal_turn > 0 or c.stomp,
        defend_moves=tuple((k, Move(DEFEND, d, -1, defence_choice(k))) for k in defend_as),
        discard_move=Move(DISCARD, d),
        aimed=mech.aimed(c), area=mech.area(c), cancels=mech.cancels(c), basic_attack=mech.basic_attack(c, role),
        free_attack=mech.free_attack(c, role), typed_follow_up=mech.typed_follow_up(c),
    )
