"""A greedy heuristic bot: plays the move that looks best right now, with no look-ahead.

It attacks the weakest player it can reach (finishing someone off first),
defends whenever it can, heals when low, opens a combo only when it holds a
follow-up, always takes follow-ups, bonus and free hits, and never revives a
rival. It reads only its seat's view (public rules facts `CardInfo`, its own
hand, the public table), so it plays any home-made set. Ties are broken by its own seeded generator, so no
seat is favoured by move order.

What a card's mechanics are worth is not written here: each mechanic declares its worth in the registry
(`Mechanic.worth`, `cardgen.bot_worth`): points per unit of an engine fact for a hit, its spread, its stuns, its
cost to its own player, an answer's damage back, an event's draw; or the kinds of move whose rule values it
(a defence is worth defending with, a heal healing). A new rulebook mechanic brings its worth with it.

A card's `effects:` (cardgen/primitives.py) and the cards an effect asks it to pick are valued with no rule of
their own: greedy deals the cards it cannot see (`view.determinized`), plays the move, lets the effect run to its end
(everyone else saying no, each further pick the first offered), and scores the position reached with the
search bot's win-chance model (`cardgen.sim.evaluate`) against the position before. So a new primitive is
valued without teaching the bot anything.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from cardgen.bot_worth import Part, Worth, units
from cardgen.engine import moves as mv
from cardgen.engine.cards import CardInfo
from cardgen.engine.frozen import init_args
from cardgen.engine.game import Game
from cardgen.engine.moves import DISCARD, PLAY, Move
from cardgen.engine.observation import WINDOWS, StepKind
from cardgen.engine.randomness import below
from cardgen.engine.state import GameState, Phase
from cardgen.engine.views import PlayerView, observe
from cardgen.mechanic_registry import BY_KEY, MECHANICS
from cardgen.sim.evaluate import win_chance

LOW_LIFE: Final = 0.4  # heal on the turn at or below this share of the starting life
NEVER: Final = -1e9
KEEP_DEFENCES: Final = 2  # defence cards worth keeping in hand; the rest may be discarded to draw
KEEP_HEALS: Final = 1
# Drop a weapon after the attack rather than take it back: a weapon back in hand fills the slot a fresh card
# (a defence, say) would take. Measured: greedy that keeps its weapons loses to greedy that drops them, and
# holding a weapon read as -13 to -15 points of impact in Beer Money (docs/simulation.md).
DROP_WEAPON: Final = -1.0
_BLOCK: Final = mv.Choice.BLOCK


# Scores that depend on the kind of move alone (releasing a hold and interfering: never).
_FLAT: Final[dict[mv.MoveKind, float]] = {mv.STOMP: 35.0, mv.PASS: 0.0, mv.DONE: 0.0, mv.DECLINE: 0.0,
                                          mv.RELEASE: NEVER, mv.INTERFERE: NEVER}
_FREE_HITS: Final[frozenset[mv.MoveKind]] = frozenset({mv.FOLLOW, mv.BONUS, mv.VOMIT_HIT, mv.OPEN})
_ANSWERS: Final[frozenset[mv.MoveKind]] = frozenset({mv.DEFEND, mv.HUMILIATE, mv.DIRECTION})  # `_answer_value`
# Every kind of move greedy scores by a rule of its own (a mechanic's `Part.MOVE` worth names some of these).
RULED: Final[frozenset[mv.MoveKind]] = frozenset(_FLAT) | _FREE_HITS | _ANSWERS | {PLAY, DISCARD, mv.HEAL,
                                                                                    mv.INTERJECT, mv.PICK}


def _terms(part: Part) -> tuple[Worth, ...]:
    """Every mechanic's terms of one part, in the registry's order."""
    return tuple(w for m in MECHANICS for w in m.worth if w.part is part)


def per_unit(key: str, part: Part) -> float:
    """What one unit of mechanic `key`'s term of `part` is worth (0 if it declares none)."""
    return sum(w.per for w in BY_KEY[key].worth if w.part is part)


_HIT: Final = _terms(Part.HIT)
_SPREAD: Final = _terms(Part.SPREAD)
_AFTER: Final = _terms(Part.AFTER)
_COST: Final = _terms(Part.COST)
_ANSWER: Final = _terms(Part.ANSWER)
_EVENT: Final = _terms(Part.EVENT)
STUN_TURN: Final = per_unit("stuns", Part.AFTER)  # a turn a hit stuns its target for
HOLD_TICK: Final = per_unit("ongoing", Part.HIT)  # a point of a hold's damage each turn


def _sum(terms: tuple[Worth, ...], ci: CardInfo) -> float:
    value = 0.0
    for w in terms:
        value += w.per * units(ci, w)
    return value


def hit_value(ci: CardInfo, multiplier: int = 1) -> float:
    """What a card does as an attack, by its mechanics' declared worth: its hit (times a combo's multiplier),
    spread (undefendable, area), then what lands after the hit (stuns)."""
    value = _sum(_HIT, ci) * multiplier
    for w in _SPREAD:
        value *= 1 + w.per * units(ci, w)
    for w in _AFTER:
        value += w.per * units(ci, w)
    return value


def own_cost(ci: CardInfo) -> float:
    """What playing the card costs its own player, in the same points (the turns it stuns them for), whichever
    way the card is played: an attack, a follow-up, a free hit, a defence, a heal."""
    return _sum(_COST, ci)


def attack_value(ci: CardInfo) -> float:
    """What a card is worth as an attack, net of its own cost (`hit_value` - `own_cost`)."""
    return hit_value(ci) - own_cost(ci)


EFFECT_SCALE: Final = 400.0  # points of greedy's scale per unit of win chance a look-ahead gains (0.01: 4 points)
EFFECT_PLAY: Final = 40.0  # what a play of an effects card that gains anything starts from (an attack's base)
SETTLE_MOVES: Final = 60  # moves a look-ahead plays at most to let an effect finish
COMBO_VALUE: Final = 12.0  # what opening a combo is worth with a follow-up in hand (times the opener's multiplier)
# Below every way of playing nothing (pass, decline, done: 0) and every discard greedy makes (-5 is its floor
# only for cards it keeps): the score of a card whose own cost outweighs what it does, minus its stun turns.
COSTS_MORE: Final = -1.0


@dataclass(frozen=True, slots=True)
class _SetFacts:
    """What greedy reads of each design, worked out once a game's cards (a pure function of them)."""

    info: tuple[CardInfo, ...]
    dmg: tuple[float, ...]  # `attack_value` (net of the card's own cost)
    cost: tuple[float, ...]  # `own_cost`: 0 for all but self-stunning cards
    defence: tuple[int, ...]  # 1: a defence or humiliation (kept in hand, up to KEEP_DEFENCES)
    heal: tuple[int, ...]  # 1: a heal card (kept, up to KEEP_HEALS)
    answer: tuple[float, ...]  # added to an answer made with the card (`Part.ANSWER`: damage back)
    event: tuple[float, ...]  # a card that deals no hit, as a turn's play, beyond playing nothing (`Part.EVENT`)
    effects: bool  # some card of the game has `effects:` (valued by looking ahead); none in the bundled rulebook sets

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return _SetFacts, init_args(self)  # (cardgen/engine/frozen.py)


def set_facts(game: Game) -> _SetFacts:
    """What greedy reads of each design of `game` (kept by the game: `Game.derived`)."""
    info = game.info
    return _SetFacts(info, tuple(attack_value(ci) for ci in info), tuple(own_cost(ci) for ci in info),
                     tuple(int(bool(ci.defend_as) or ci.humiliate is not None) for ci in info),
                     tuple(int(bool(ci.heal_turn or ci.heal_drop)) for ci in info),
                     tuple(_sum(_ANSWER, ci) for ci in info), tuple(_sum(_EVENT, ci) for ci in info),
                     any(ci.effects for ci in info))


class GreedyAgent:
    """One-ply heuristic player (see module doc)."""

    def __init__(self, seed: int | None = None, look_ahead: bool = True) -> None:
        # The tie-break generator, made at the first tie from `_seed` (most games of a greedy seat break none).
        self.rng: random.Random | None = None
        self._seed = seed
        self.look_ahead = look_ahead  # value effects by looking ahead (False: as any other event, for comparison)
        self._reseed: int | None = None  # `reseed`'s seed, not yet given to `rng`
        self.drop_weight = DROP_WEAPON
        # Spare defences and heals in hand, counted once per decision (every discard move asks): None until asked.
        self._spares: tuple[int, int] | None = None
        self._facts: _SetFacts | None = None
        self._dmgs: tuple[float, ...] = ()
        self._attack: list[float] = []  # `_dmgs` as a list, for `win_chance`
        self._cost: tuple[float, ...] = ()
        self._answers: tuple[float, ...] = ()  # `_SetFacts.answer`
        self._events: tuple[float, ...] = ()  # `_SetFacts.event`
        self._life: tuple[int, ...] = ()  # every seat's life at this decision
        self._follows: dict[int, bool] = {}  # opener design -> a follow-up for it in hand (this decision)
        self._deal: tuple[GameState, float] | None = None  # this decision's look-ahead deal and its win chance
        # The look-ahead's generator (its deals and what its effects draw), made at its first use from `_deal_seed`:
        # a stream of its own, so the tie-breaks, and so the games of a set without effects, are what they were.
        self._dealer: random.Random | None = None
        self._deal_seed = seed
        self._look = False  # look ahead at effect moves: `look_ahead`, in a game with some card's effects

    def _begin(self, view: PlayerView) -> None:
        """A new decision: forget the spares counted and the look-ahead deal dealt for the last one; read the life
        totals once; know the attack value of every card (once a card set)."""
        self._spares = None
        self._follows.clear()
        self._deal = None
        self._life = view.life
        info = view.game.info
        if self._facts is None or self._facts.info is not info:
            self._facts = view.game.derived(set_facts)
            self._dmgs = self._facts.dmg
            self._attack = list(self._dmgs)
            self._cost = self._facts.cost
            self._answers = self._facts.answer
            self._events = self._facts.event
            self._look = self.look_ahead and self._facts.effects

    def reseed(self, seed: int) -> None:
        """Restart the tie-break generator from `seed`, as `rng.seed(seed)` would; the seeding itself waits for the
        next tie (the searching bot restarts it for every look-ahead, and most look-aheads break no tie)."""
        self._reseed = seed
        self._dealer = None  # (restarted too: the searching bot's look-aheads then deal alike for every move)
        self._deal_seed = seed

    def scores(self, view: PlayerView) -> list[float]:
        """The score of each of `view.moves` (the searching bot uses them to pick the moves worth searching)."""
        self._begin(view)
        return [self._score(view, view.seat, m) for m in view.moves]

    def choose(self, view: PlayerView) -> Move:
        moves = view.moves
        if len(moves) == 1:
            return moves[0]
        me = view.seat
        self._begin(view)
        info = view.game.info
        # (Methods called on `self`, not bound to locals first: compiled, a bound method is a Python-level call.
        # No memo of discard scores: the legal moves hold one discard a card.)
        best: list[Move] = []
        top = NEVER - 1
        look = self._look
        for m in moves:
            k = m.kind
            if k is DISCARD:
                v = self._discard_value(view, me, info[m.card])
            elif look and (k is mv.PICK or (m.card >= 0 and info[m.card].effects)):  # valued by looking ahead
                v = self._effect_value(view, me, m)
            elif k is PLAY:  # the commonest kind after discards: straight to its rule
                v = self._play_value(view, me, m, info[m.card])
            else:
                got = _FLAT.get(k)
                v = got if got is not None else self._score(view, me, m)
            if v > top:
                top = v
                best.clear()  # (cleared, not made anew: a new list each time was 6 % of the bot's compiled time)
                best.append(m)
            elif v == top:
                best.append(m)
        if len(best) == 1:
            return best[0]
        rng = self.rng
        if rng is None or self._reseed is not None:
            rng = self._tie_breaker()
        return best[below(rng, len(best))]

    def _tie_breaker(self) -> random.Random:
        """The tie-break generator, seeded as if made when the bot was (or by the last `reseed`, if any since)."""
        seed = self._reseed if self._reseed is not None else self._seed
        self._reseed = None
        if self.rng is None:
            self.rng = random.Random(seed)
        else:
            self.rng.seed(seed)
        return self.rng

    # --- scoring ----------------------------------------------------------------------------------------

    def _look_generator(self) -> random.Random:
        """The look-ahead's generator, seeded from the bot's seed (or the last `reseed`) apart from its tie-breaks."""
        self._dealer = random.Random(f"look-ahead {self._deal_seed}")
        return self._dealer

    def _target_value(self, s: PlayerView, target: int, damage: float) -> float:
        """Prefer the weakest rival; a hit that can knock someone out is worth most."""
        if target < 0:
            return 0.0
        life = self._life[target]
        value = 20.0 - life
        if 0 < life <= damage:
            value += 15.0
        return value

    def _holds_follow_up(self, s: PlayerView, me: int, ci: CardInfo) -> bool:
        o = ci.opener or ci.hold_opener
        if o is None:
            return False
        cost = self._cost
        for d in s.hand:
            other = s.game.info[d]
            if other.d == ci.d:
                continue
            follows = other.follows == o.combo or (other.type in o.then and other.damage and other.opener is None)
            if follows and (not cost[d] or self._worth(other, o.multiplier or 1)):  # one greedy would play
                return True
        return False

    def _worth(self, ci: CardInfo, multiplier: int = 1) -> bool:
        """Does what the card does as a hit outweigh its own cost? (Asked only of self-stunning cards.)"""
        return hit_value(ci, multiplier) > self._cost[ci.d]

    def _threat(self, s: PlayerView, me: int, m: Move) -> float:
        """What answering the pending step stops, in `hit_value` points: the strike's next hit, the combo an opener
        would start, a hold's ticks, a heal's amount. (Asked only of self-stunning answers.)"""
        step = s.step
        kind = step.kind if step is not None else None
        if kind is StepKind.STRIKE:
            assert step is not None and step.card is not None
            return float(step.damage or 0) + STUN_TURN * s.game.info[step.card].stuns
        if kind is StepKind.OPENER:
            assert step is not None
            return COMBO_VALUE * (step.multiplier or 1)
        if kind is StepKind.TICK:
            assert step is not None
            return HOLD_TICK * (step.damage or 0)
        if kind is StepKind.HEAL:
            assert step is not None
            return float(step.heal or 0)
        if kind is StepKind.ANSWER:  # an answer to my own card: what my card would have done
            assert step is not None
            return self._dmgs[step.card] if step.card is not None else 0.0
        # On my own turn, breaking a hold on me: its ticks.
        return sum(HOLD_TICK * h.damage for h in s.holds if h.victim == me and (m.target < 0 or h.holder == m.target))

    def _costs_more(self, ci: CardInfo) -> float:
        """The score of a play whose own cost outweighs what it does: below playing nothing."""
        return COSTS_MORE - ci.stunned

    def _score(self, s: PlayerView, me: int, m: Move) -> float:
        """How good `m` looks to `me` now. Each kind has one rule, so testing the common kinds first (this
        runs for every legal move of every decision) changes no score."""
        k = m.kind
        ci = s.game.info[m.card] if m.card >= 0 else None
        if self._look and (k == mv.PICK or (ci is not None and ci.effects)):
            return self._effect_value(s, me, m)
        if k == PLAY and ci is not None:
            return self._play_value(s, me, m, ci)
        if k in _FLAT:
            return _FLAT[k]
        if k == DISCARD:  # the commonest move to score
            return self._discard_value(s, me, ci) if ci is not None else -1.0
        if k in _ANSWERS:
            return self._answer_value(s, me, m, ci)
        if ci is None:
            return -1.0
        return self._card_value(s, me, m, ci)

    def _answer_value(self, s: PlayerView, me: int, m: Move, ci: CardInfo | None) -> float:
        """A defence, a humiliation, or which way an attack passes on."""
        k = m.kind
        if k == mv.DEFEND:
            if ci is not None and self._cost[m.card] and self._threat(s, me, m) <= self._cost[m.card]:
                return self._costs_more(ci)
            # block first (the blocker may grab back); a defence that deals damage back before one that does not
            return 100.0 + (1.0 if m.choice == _BLOCK else 0.0) + self._answers[m.card]
        if k == mv.HUMILIATE:
            step = s.step
            if step is None or step.kind not in WINDOWS or step.target != me:
                return NEVER
            if ci is not None and self._cost[m.card] and self._threat(s, me, m) <= self._cost[m.card]:
                return self._costs_more(ci)
            return 90.0 + (self._target_value(s, m.target, 0) / 100 if m.target >= 0 else 0.5) + self._answers[m.card]
        steps = s.steps  # DIRECTION: away from the weakest rival's neighbour
        if len(steps) < 2:
            return 0.0
        n = len(self._life)
        way = 1 if m.choice == mv.LEFT else -1
        q = ((steps[-2].target or 0) + way) % n
        return -float(self._life[q])

    def _card_value(self, s: PlayerView, me: int, m: Move, ci: CardInfo) -> float:
        """A card played other than as a turn's play or an answer: a free hit, a heal, an interjection."""
        k = m.kind
        if k in _FREE_HITS:
            dmg = self._dmgs[m.card]
            cost = self._cost[m.card]
            if cost and not self._free_hit_worth(s, me, k, ci, cost):
                return self._costs_more(ci)
            drop_penalty = self.drop_weight if m.choice == mv.DROP else 0.0
            return 80.0 + dmg + self._target_value(s, m.target, dmg) / 100 - drop_penalty
        if k == mv.HEAL:
            return self._heal_value(s, me, m, ci)
        if k == mv.INTERJECT:
            value = self._dmgs[m.card]
            return 30.0 + value if value > 0 and m.target != me else NEVER
        return -1.0

    def _effect_value(self, s: PlayerView, me: int, m: Move) -> float:
        """A move of an effects card, or a pick an effect asks for, by a one-step look-ahead on a deal of the cards
        `me` cannot see, one deal a decision. The deal and what the effects draw come from the bot's own stream
        (`_look_generator`): seeding a generator for each deal and look-ahead cost more than the look-ahead."""
        dealer = self._dealer
        if dealer is None:
            dealer = self._look_generator()
        if self._deal is None:
            deal = s.determinized(dealer)
            self._deal = (deal, win_chance(deal, me, self._attack))
        deal, before = self._deal
        if deal.to_act != me or m not in deal.moves:  # the deal asks someone else first (their dealt cards answer)
            return (1.0 if m.kind == PLAY else 0.0)  # as any event card, unseen: better than passing
        after = deal.copy_drawing_from(dealer)
        after.horizon = deal.turn  # (`_settle` stops at the next turn: its moves are never listed)
        after.push(m, False)
        depth = observe(deal, me).depth
        _settle(after, me, depth - 1 if m.kind == mv.PICK else depth)
        gain = win_chance(after, me, self._attack) - before
        if m.kind == mv.PICK:
            return gain * EFFECT_SCALE
        if m.kind == mv.INTERJECT:
            return 30.0 + gain * EFFECT_SCALE if gain > 0 else NEVER
        return EFFECT_PLAY + gain * EFFECT_SCALE if gain > 0 else min(1.0, gain * EFFECT_SCALE)

    def _free_hit_worth(self, s: PlayerView, me: int, k: mv.MoveKind, ci: CardInfo, cost: float) -> bool:
        """A follow-up (times its combo's multiplier), an opener after a block (with a follow-up in hand), a
        bonus or vomit hit: does it do more than its own `cost`?"""
        if k == mv.OPEN:
            return self._holds_follow_up(s, me, ci) and COMBO_VALUE * ((ci.opener.multiplier if ci.opener else 1)
                                                                       or 1) > cost
        step = s.step
        return self._worth(ci, step.multiplier if step is not None and step.kind is StepKind.COMBO else 1)

    def _play_value(self, s: PlayerView, me: int, m: Move, ci: CardInfo) -> float:
        """A turn play: an opener only with a follow-up in hand, else its attack value, at the weakest rival."""
        if ci.opener is not None or m.choice == mv.AS_HOLD:
            follow = self._follows.get(ci.d)
            if follow is None:  # once a card per decision (an opener is offered at every rival)
                follow = self._follows[ci.d] = self._holds_follow_up(s, me, ci)
            if not follow:
                return 2.0
            value = COMBO_VALUE * ((ci.opener.multiplier if ci.opener else 1) or 1) - self._cost[ci.d]
        else:
            value = self._dmgs[m.card]
        if value <= 0:
            if self._cost[ci.d]:  # (a hit worth nothing net, or an event, that costs its own player something)
                return self._costs_more(ci)  # its cost outweighs what it does: passing is better
            return 1.0 + self._events[ci.d]  # a draw or event card: better than passing
        drop_penalty = self.drop_weight if m.choice == mv.DROP else 0.0
        target = m.target
        if target < 0:
            tv = 0.0
        else:  # `_target_value`, inline (most scored moves are plays at each rival)
            life = self._life[target]
            tv = 20.0 - life
            if 0 < life <= value:
                tv += 15.0
        return 40.0 + value + tv / 10 - drop_penalty

    def _heal_value(self, s: PlayerView, me: int, m: Move, ci: CardInfo) -> float:
        if m.target != me:
            return NEVER  # never wake a rival
        step = s.step
        life, full = self._life[me], s.game.start_life
        if step is None or step.kind is not StepKind.TURN:
            return 95.0  # dropping to 0: heal if at all possible
        cost = self._cost[ci.d]
        if cost and min(ci.heal_turn, full - life) <= cost:
            return self._costs_more(ci)  # the turns it stuns me for outweigh the life it gives back
        if step.phase is Phase.HEAL:  # already healing: go on while nothing is wasted
            return 70.0 if life + ci.heal_turn <= full or life <= LOW_LIFE * full else -1.0
        if life <= LOW_LIFE * full:
            return 70.0 + ci.heal_turn
        return 5.0 + min(ci.heal_turn, full - life) / 10

    def _discard_value(self, s: PlayerView, me: int, ci: CardInfo) -> float:
        """Make room for new cards: surplus defences and heals, follow-ups with no opener in hand.

        Without this a hand of defences at full life passes for ever, and games
        between greedy bots stall at the turn cap.
        """
        if ci.defend_as or ci.humiliate is not None:
            return 0.5 if self._spare(s)[0] > 0 else -5.0
        if ci.heal_turn or ci.heal_drop:
            return 0.3 if self._spare(s)[1] > 0 else -5.0
        if ci.follows is not None:
            for d in s.hand:
                c = s.game.info[d]
                o = c.opener or c.hold_opener
                if o is not None and o.combo == ci.follows:
                    return -5.0
            return 0.5
        if self._cost[ci.d] and ci.turn_play and self._dmgs[ci.d] <= 0:
            return 0.5  # a card greedy never plays (its cost outweighs what it does): make room
        return -5.0

    def _spare(self, s: PlayerView) -> tuple[int, int]:
        """Defences and heals in the hand beyond those worth keeping (counted once per decision)."""
        if self._spares is None:
            facts = self._facts
            assert facts is not None  # `_begin` ran
            defence, heal = facts.defence, facts.heal
            defences = heals = 0
            for d in s.hand:  # (a loop, not `sum(map(...))`: compiled, the loop is native code)
                defences += defence[d]
                heals += heal[d]
            self._spares = (defences - KEEP_DEFENCES, heals - KEEP_HEALS)
        return self._spares


def _settle(s: GameState, me: int, depth: int) -> None:
    """Play a look-ahead on until the step that was on the stack at `depth` is done (the effect has run), the
    turn has moved on, or the game is over: everyone says no where they may, else makes the first move offered."""
    turn = s.turn
    for _ in range(SETTLE_MOVES):
        if s.result is not None or s.turn != turn or not s.moves or observe(s, me).depth <= depth:
            return
        moves = s.moves
        no = next((x for x in moves if x.kind in (mv.DECLINE, mv.DONE, mv.PASS)), None)
        s.push(no if no is not None else moves[0], False)
