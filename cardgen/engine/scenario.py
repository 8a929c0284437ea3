"""Scenarios: a hand-set table (sets, players, hands, top of the draw pile) and the moves played, in YAML.

`load_scenario` reads and checks the file, `run_scenario` plays its moves and
checks its `expect:` block. Every problem is a Diagnostic with the scenario
file and line: an unknown card, a card not in that hand, a wrong target, a
move out of turn. The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.engine import moves as mv
from cardgen.engine.game import make_game
from cardgen.engine.moves import Move
from cardgen.engine.rules import describe, push, start
from cardgen.engine.state import GameState, Phase, TurnF, blank_state
from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.loader import load_sets
from cardgen.loader.scenario_file import ACTION_KEYS, read_scenario
from cardgen.loader.yaml_doc import Document
from cardgen.model import CardSet
from cardgen.suggest import did_you_mean

SCENARIO_KEYS = ("title", "description", "sets", "seed", "turn_cap", "players", "draw", "discard", "first",
                 "moves", "expect")
PLAYER_KEYS = ("name", "life", "hand", "stunned", "unconscious")
MOVE_KEYS = ("who", *ACTION_KEYS, "target", "as", "drop", "more", "note")
EXPECT_PLAYER_KEYS = ("life", "hand", "has", "lacks", "cards", "status")
EXPECT_KEYS = ("pool", "to_act", "winner", "turn", "discard_top", "draw_pile")
EXPECT_MOVES_KEYS = ("who", "can", "cannot")
NO_KINDS = frozenset({mv.PASS, mv.DECLINE, mv.DONE})


class ScenarioError(SetError):
    """A scenario file that is not valid, or a move in it that is not legal."""


@dataclass
class Scenario:
    path: str
    doc: Document
    cs: CardSet
    state: GameState
    moves: list[tuple[int, object]] = field(default_factory=list)  # (index in `moves:`, raw move)


def _fail(doc: Document, at: tuple[str | int, ...], message: str, key: bool = False) -> ScenarioError:
    line, col = doc.where(at, key=key)
    return ScenarioError([Diagnostic(doc.path, line, col, message)])


def _mapping(doc: Document, at: tuple[str | int, ...], value: object, allowed: tuple[str, ...],
             what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _fail(doc, at, f"{what}: expected a mapping")
    for k in value:
        if k not in allowed:
            raise _fail(doc, (*at, k), f"{what}: unknown key '{k}'{did_you_mean(k, list(allowed))}; "
                                       f"expected one of {', '.join(allowed)}", key=True)
    return value


def _names(doc: Document, at: tuple[str | int, ...], value: object, what: str = "card") -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise _fail(doc, at, f"expected a {what} name or a list of {what} names")


def design_of(cs: CardSet, name: str) -> int | None:
    """The design index for a card name ('Dodge', or 'Dodge@beer' in a mixed deck); None if unknown."""
    base, _, origin = name.partition("@")
    key = base.strip().casefold()
    for d, c in enumerate(cs.cards):
        if c.name.casefold() == key and (not origin or c.origin == origin.strip()):
            return d
    return None


def _design(doc: Document, at: tuple[str | int, ...], cs: CardSet, name: str) -> int:
    d = design_of(cs, name)
    if d is None:
        raise _fail(doc, at, f"unknown card '{name}' in {cs.name}{did_you_mean(name, [c.name for c in cs.cards])}")
    return d


def load_scenario(path: Path, shown: str | None = None) -> Scenario:
    """Read a scenario file and set up its table (raises ScenarioError with file:line)."""
    doc, diags = read_scenario(path, shown or str(path))
    if doc is None or diags:
        raise ScenarioError(diags)
    return setup(doc, path.parent)


def _set_ref(ref: str, base: Path) -> str:
    """A set named by path is relative to the scenario's folder; a bare name is a bundled set."""
    if ("/" in ref or ref.startswith(".")) and not Path(ref).is_absolute():
        return str(base / ref)
    return ref


def setup(doc: Document, base: Path | None = None) -> Scenario:
    data = _mapping(doc, (), doc.data, SCENARIO_KEYS, "scenario")
    for key in ("sets", "players", "moves"):
        if key not in data:
            raise _fail(doc, (), f"scenario: missing required key '{key}'")
    sets = _names(doc, ("sets",), data["sets"], "set")
    if not sets:
        raise _fail(doc, ("sets",), "sets: name at least one set")
    try:
        cs = load_sets([_set_ref(r, base or Path.cwd()) for r in sets])
    except SetError as exc:
        raise ScenarioError([Diagnostic(doc.path, *doc.where(("sets",)), f"set {', '.join(sets)} does not load: "
                                        f"{exc.diagnostics[0].message if exc.diagnostics else exc}")]) from exc
    except CardgenError as exc:
        raise _fail(doc, ("sets",), str(exc)) from exc
    players = data["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 12:
        raise _fail(doc, ("players",), "players: expected a list of 2 to 12 players")
    raw_players = [_mapping(doc, ("players", i), p, PLAYER_KEYS, "player") for i, p in enumerate(players)]
    names: list[str] = []
    for i, p in enumerate(raw_players):
        name = p.get("name")
        if not isinstance(name, str) or not name:
            raise _fail(doc, ("players", i), "player: missing `name`")
        if name in names:
            raise _fail(doc, ("players", i, "name"), f"player name '{name}' used twice")
        names.append(name)
    seed = data.get("seed", 0)
    cap = data.get("turn_cap")
    if not isinstance(seed, int) or (cap is not None and (not isinstance(cap, int) or cap < 1)):
        raise _fail(doc, ("seed",) if not isinstance(seed, int) else ("turn_cap",), "expected a whole number")
    s = blank_state(make_game(cs, names, cap), seed, record=True)
    left = Counter(s.game.deck)

    def take(at: tuple[str | int, ...], name: str) -> int:
        d = _design(doc, at, cs, name)
        if left[d] <= 0:
            raise _fail(doc, at, f"more copies of '{cs.cards[d].name}' than the deck has ({cs.cards[d].count})")
        left[d] -= 1
        return d

    for i, p in enumerate(raw_players):
        s.hands[i] = [take(("players", i, "hand", j), n) for j, n in
                      enumerate(_names(doc, ("players", i, "hand"), p.get("hand")))]
        out = p.get("unconscious") is True
        life = p.get("life", 0 if out else cs.rules.life)
        if (not isinstance(life, int) or isinstance(life, bool) or life > cs.rules.life
                or (life < 0 and not cs.rules.negative_life) or (out and life > 0)):
            raise _fail(doc, ("players", i, "life"), f"life: expected a whole number up to {cs.rules.life}"
                        + (" (0 or less for an unconscious player)" if out else ""))
        s.life[i] = life
        s.pool += cs.rules.life - life
        if out or life <= 0:
            s.down[i] = True
            if s.hands[i]:
                raise _fail(doc, ("players", i, "hand"), "an unconscious player holds no cards")
        stunned = p.get("stunned", 0)
        if not isinstance(stunned, int) or stunned < 0:
            raise _fail(doc, ("players", i, "stunned"), "stunned: expected a number of turns")
        s.stun_until[i] = stunned if stunned else -1
    top = [take(("draw", j), n) for j, n in enumerate(_names(doc, ("draw",), data.get("draw")))]
    s.discard = [take(("discard", j), n) for j, n in enumerate(_names(doc, ("discard",), data.get("discard")))]
    rest = [d for d, k in sorted(left.items()) for _ in range(k)]
    random.Random(seed).shuffle(rest)
    s.draw = rest + list(reversed(top))
    first = data.get("first", names[0])
    if first not in names:
        raise _fail(doc, ("first",), f"first: '{first}' is not a player{did_you_mean(str(first), names)}")
    s.current = (names.index(first) - 1) % len(names)
    if sum(not x for x in s.down) < 2:
        raise _fail(doc, ("players",), "players: at least two must be conscious")
    start(s)
    moves = data["moves"] or []
    if not isinstance(moves, list):
        raise _fail(doc, ("moves",), "moves: expected a list")
    return Scenario(doc.path, doc, cs, s, [(i, m) for i, m in enumerate(moves)])


def _who(doc: Document, at: tuple[str | int, ...], s: GameState, name: object) -> int:
    if not isinstance(name, str) or name not in s.game.names:
        raise _fail(doc, at, f"unknown player '{name}'{did_you_mean(str(name), s.game.names)}")
    return s.game.names.index(name)


def _situation(s: GameState) -> str:
    if s.result is not None:
        return "the game is over"
    return (f"it is {s.game.names[s.to_act]}'s decision; legal: "
            + "; ".join(describe(s, m) for m in s.moves[:12]) + ("; ..." if len(s.moves) > 12 else ""))


class _Miss(Exception):
    """A well-formed scenario move that names no legal move now (`at`: where to point, `message`: why)."""

    def __init__(self, at: tuple[str | int, ...], message: str, key: bool = False) -> None:
        super().__init__(message)
        self.at, self.message, self.key = at, message, key


def _select(sc: Scenario, at: tuple[str | int, ...], p: int, m: dict[str, object], legal: list[Move]) -> list[Move]:
    """The moves among `legal` (the moves `p` may make now) that scenario move `m` names.

    Raises ScenarioError for a move that is not well formed (unknown card or player), `_Miss` for one that
    names no legal move.
    """
    doc, s, cs = sc.doc, sc.state, sc.cs
    names = s.game.names
    actions = [k for k in ACTION_KEYS if k in m]
    if len(actions) != 1:
        raise _fail(doc, at, f"move: give exactly one of {', '.join(ACTION_KEYS)}")
    action = actions[0]
    target = _who(doc, (*at, "target"), s, m["target"]) if "target" in m else None
    choice = m.get("as", "drop" if m.get("drop") else None)
    if action in ("pass", "decline", "done"):
        found = [x for x in legal if x.kind in NO_KINDS]
        if not found:
            raise _Miss((*at, action), f"{names[p]} cannot {action} now: {_situation(s)}", key=True)
        return found[:1]
    if action == "release":
        v = _who(doc, (*at, "release"), s, m["release"])
        found = [x for x in legal if x.kind == mv.RELEASE and x.target == v]
        if not found:
            raise _Miss((*at, "release"), f"{names[p]} cannot let go of {names[v]} now: {_situation(s)}")
        return found
    if action == "direction":
        found = [x for x in legal if x.kind == mv.DIRECTION and x.choice == m["direction"]]
        if not found:
            raise _Miss((*at, "direction"), f"no direction choice '{m['direction']}' now: {_situation(s)}")
        return found
    cards = _names(doc, (*at, action), m[action])
    if action == "discard":  # (for `expect_moves`: `steps` plays a discard list one card at a time)
        out: list[Move] = []
        f = s.stack[-1] if s.stack else None
        done = f.count if isinstance(f, TurnF) and f.phase == Phase.DISCARD else 0
        limit = s.game.rules.discard_limit
        for j, name in enumerate(cards):
            d = _design(doc, (*at, "discard", j), cs, name)
            if Move(mv.DISCARD, d) not in legal or sum(x == d for x in s.hands[p]) <= sum(y.card == d for y in out):
                raise _Miss((*at, "discard", j), f"{names[p]} cannot discard '{name}' now: {_situation(s)}")
            if limit and done + j >= limit:
                raise _Miss((*at, "discard", j), f"{names[p]} cannot discard '{name}' now: at most {limit} "
                                                 "discards in a turn")
            out.append(Move(mv.DISCARD, d))
        return out
    if len(cards) != 1:
        raise _fail(doc, (*at, action), f"{action}: name one card per move")
    d = _design(doc, (*at, action), cs, cards[0])
    if d not in s.hands[p]:
        same = [x for x, c in enumerate(cs.cards) if c.name.casefold() == cs.cards[d].name.casefold()]
        held = [x for x in same if x in s.hands[p]]
        if not held:
            hand = ", ".join(sorted(cs.cards[x].name for x in s.hands[p])) or "empty"
            raise _Miss((*at, action), f"{names[p]} has no '{cards[0]}' in hand (hand: {hand})")
        d = held[0]
    # `play:` may be any card-playing decision; the situation decides which.
    kinds = ({mv.HEAL} if action == "heal" else {mv.VOMIT_HIT} if action == "free_hit"
             else mv.CARD_PLAYS - {mv.VOMIT_HIT})
    found = [x for x in legal if x.card == d and x.kind in kinds]
    if not found:
        raise _Miss((*at, action), f"{names[p]} cannot play '{cs.cards[d].name}' now: {_situation(s)}")
    if target is not None:
        found = [x for x in found if x.target == target]
        if not found:
            raise _Miss((*at, "target"), f"'{cs.cards[d].name}' cannot target {names[target]} now: "
                                         f"{_situation(s)}")
    found = [x for x in found if x.choice == (choice or "")] if choice or any(not x.choice for x in found) else found
    if not found:
        raise _Miss(at, f"'{cs.cards[d].name}' cannot be played as '{choice}' now: {_situation(s)}")
    return found


def steps(sc: Scenario, i: int, raw: object) -> Iterator[Move]:
    """The engine moves that scenario move `i` stands for, each checked against the state when it is due: the
    caller pushes each one before asking for the next (a list of discards is several moves, each checked
    after the ones before it, and the `done` after them only comes if the discards left the turn open: the
    set's `discard_limit`, or an emptied hand, ends the turn by itself). Raises ScenarioError at the move's
    `file:line:col` for anything that is not legal."""
    doc, s = sc.doc, sc.state
    at: tuple[str | int, ...] = ("moves", i)
    m = _mapping(doc, at, raw, MOVE_KEYS, "move")
    if "who" not in m:
        raise _fail(doc, at, "move: missing `who`")
    p = _who(doc, (*at, "who"), s, m["who"])
    if s.result is not None:
        raise _fail(doc, at, "move after the end of the game")
    if s.to_act != p:
        raise _fail(doc, (*at, "who"), f"{s.game.names[p]} cannot act now: {_situation(s)}")
    if "discard" in m and len([k for k in ACTION_KEYS if k in m]) == 1:
        yield from _discards(sc, at, p, _names(doc, (*at, "discard"), m["discard"]), more=m.get("more") is True)
        return
    try:
        found = _select(sc, at, p, m, s.moves)
    except _Miss as miss:
        raise _fail(doc, miss.at, miss.message, key=miss.key) from None
    if len(found) > 1:
        raise _fail(doc, at, "ambiguous move, say which: " + "; ".join(describe(s, x) for x in found))
    yield found[0]


def _discards(sc: Scenario, at: tuple[str | int, ...], p: int, cards: list[str],
              more: bool = False) -> Iterator[Move]:
    """`discard: [...]`: one DISCARD a card, each legal when it comes, then DONE while the turn is still open
    (`more: true`: no DONE, the player discards on)."""
    doc, s = sc.doc, sc.state
    if not cards:
        raise _fail(doc, (*at, "discard"), "discard: name at least one card")
    for j, name in enumerate(cards):
        d = _design(doc, (*at, "discard", j), sc.cs, name)
        move = Move(mv.DISCARD, d)
        if s.result is not None or s.to_act != p or move not in s.moves:
            why = _situation(s) if s.to_act == p or s.result is not None else (
                f"the discards before it ended the turn; {_situation(s)}")
            raise _fail(doc, (*at, "discard", j), f"{s.game.names[p]} cannot discard '{name}' now: {why}")
        yield move
    f = s.stack[-1] if s.stack and s.result is None else None
    if (not more and isinstance(f, TurnF) and f.player == p and f.phase == Phase.DISCARD
            and Move(mv.DONE) in s.moves):
        yield Move(mv.DONE)


def is_check(raw: object) -> bool:
    """A `- expect: {...}` item among the moves: a check of the state at that point."""
    return isinstance(raw, dict) and set(raw) == {"expect"}


def is_moves_check(raw: object) -> bool:
    """A `- expect_moves: {who: ..., can: [...], cannot: [...]}` item: a check of someone's legal moves."""
    return isinstance(raw, dict) and set(raw) == {"expect_moves"}


def check_moves(sc: Scenario, i: int) -> list[Diagnostic]:
    """Unmet `can` / `cannot` entries of the `expect_moves` item `i`: each entry is a move as in `moves:`
    without `who` (or just `pass`, `decline`, `done`), and is met when some legal move of `who` matches."""
    doc, s = sc.doc, sc.state
    at: tuple[str | int, ...] = ("moves", i, "expect_moves")
    spec = _mapping(doc, at, doc.data["moves"][i]["expect_moves"], EXPECT_MOVES_KEYS, "expect_moves")
    if "who" not in spec:
        raise _fail(doc, at, "expect_moves: missing `who`")
    if "can" not in spec and "cannot" not in spec:
        raise _fail(doc, at, "expect_moves: give `can`, `cannot` or both")
    p = _who(doc, (*at, "who"), s, spec["who"])
    legal = s.moves if s.to_act == p and s.result is None else []
    out: list[Diagnostic] = []
    for word in ("can", "cannot"):
        entries = spec.get(word) or []
        if not isinstance(entries, list):
            raise _fail(doc, (*at, word), f"{word}: expected a list of moves")
        for j, entry in enumerate(entries):
            where = (*at, word, j)
            m = {entry: True} if isinstance(entry, str) and entry in ("pass", "decline", "done") else entry
            m = _mapping(doc, where, m, MOVE_KEYS[1:], "move")
            try:
                found = bool(_select(sc, where, p, m, legal))
                why = ""
            except _Miss as miss:
                found, why = False, miss.message
            if found != (word == "can"):
                line, col = doc.where(where)
                said = ", ".join(f"{k}: {v}" for k, v in m.items())
                out.append(Diagnostic(doc.path, line, col, f"expected {s.game.names[p]} {word} {{{said}}} now, "
                                      + (f"but {why}" if why else f"but it is legal: {_situation(s)}")))
    return out


def run_scenario(sc: Scenario) -> list[Diagnostic]:
    """Play every move in order (raises ScenarioError at the first one that is not legal).

    Returns the unmet expectations of `expect:` items met along the way, and of the final `expect:`.
    """
    unmet: list[Diagnostic] = []
    for i, raw in sc.moves:
        if is_check(raw):
            unmet += check_expect(sc, ("moves", i, "expect"))
            continue
        if is_moves_check(raw):
            unmet += check_moves(sc, i)
            continue
        for move in steps(sc, i, raw):
            try:
                push(sc.state, move)
            except CardgenError as exc:  # not expected after `steps` checked it: still never without a line
                raise _fail(sc.doc, ("moves", i), str(exc)) from exc
    return unmet + check_expect(sc)


def status(s: GameState, p: int) -> list[str]:
    out = ["unconscious", "stomped"] if s.stomped[p] else ["unconscious" if s.down[p] else "conscious"]
    if not s.down[p] and s.stunned(p):
        out.append("stunned")
    if not s.down[p] and s.vomiting(p):
        out.append("vomiting")
    out += [f"holding {s.game.names[h.victim]}" for h in s.holds if h.holder == p]
    out += [f"held by {s.game.names[h.holder]}" for h in s.holds if h.victim == p]
    return out


def final_state(s: GameState) -> dict[str, object]:
    """The end state as JSON-ready data: players, piles, whose decision it is."""
    name = s.game.info
    return {
        "turn": s.turn,
        "players": [{"name": s.game.names[p], "life": s.life[p], "hand": sorted(name[d].name for d in s.hands[p]),
                     "status": status(s, p)} for p in range(s.n)],
        "lost_pool": s.pool,
        "draw_pile": len(s.draw),
        "discard_pile": [name[d].name for d in s.discard],
        "to_act": s.game.names[s.to_act] if s.to_act >= 0 else None,
        "legal_moves": [describe(s, m) for m in s.moves],
        "outcome": None if s.result is None else {
            "winner": None if s.result.winner is None else s.game.names[s.result.winner],
            "reason": s.result.reason, "turns": s.result.turns},
    }


def check_expect(sc: Scenario, where: tuple[str | int, ...] = ("expect",)) -> list[Diagnostic]:
    """Differences between the state now and an `expect:` block (the final one, or one among the moves)."""
    doc, s = sc.doc, sc.state
    data: object = doc.data
    for key in where:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int):
            data = data[key]
        else:
            data = None
    if data is None:
        return []
    out: list[Diagnostic] = []

    def differ(at: tuple[str | int, ...], what: str, want: object, got: object) -> None:
        line, col = doc.where(at)
        out.append(Diagnostic(doc.path, line, col, f"expected {what} {want!r}, got {got!r}"))

    if not isinstance(data, dict):
        raise _fail(doc, where, "expect: expected a mapping")
    names, info = s.game.names, s.game.info
    for key, want in data.items():
        at: tuple[str | int, ...] = (*where, key)
        if key in names:
            p = names.index(key)
            exp = _mapping(doc, at, want, EXPECT_PLAYER_KEYS, f"expect for {key}")
            hand = sorted(info[d].name for d in s.hands[p])
            statuses = status(s, p)
            if "life" in exp and exp["life"] != s.life[p]:
                differ((*at, "life"), f"{key}'s life", exp["life"], s.life[p])
            if "hand" in exp:
                want_hand = sorted(sc.cs.cards[_design(doc, (*at, "hand"), sc.cs, n)].name
                                   for n in _names(doc, (*at, "hand"), exp["hand"]))
                if want_hand != hand:
                    differ((*at, "hand"), f"{key}'s hand", want_hand, hand)
            for word, present in (("has", True), ("lacks", False)):
                for j, n in enumerate(_names(doc, (*at, word), exp.get(word))):
                    name = sc.cs.cards[_design(doc, (*at, word, j), sc.cs, n)].name
                    if (name in hand) != present:
                        differ((*at, word, j), f"{key}'s hand to {'hold' if present else 'lack'}", name, hand)
            if "cards" in exp and exp["cards"] != len(hand):
                differ((*at, "cards"), f"{key}'s number of cards", exp["cards"], len(hand))
            if "status" in exp:
                words = _names(doc, (*at, "status"), exp["status"])
                wrong = [w for w in words
                         if ((w[4:] in statuses) if w.startswith("not ") else (w not in statuses))]
                if wrong:
                    differ((*at, "status"), f"{key}'s status to agree with", wrong, statuses)
        elif key == "pool":
            if want != s.pool:
                differ(at, "lost pool", want, s.pool)
        elif key == "to_act":
            acting = names[s.to_act] if s.to_act >= 0 else None
            if want != acting:
                differ(at, "to act", want, acting)
        elif key == "winner":
            r = s.result
            got = None if r is None or r.winner is None else names[r.winner]
            if want != got or r is None:
                differ(at, "winner", want, got)
        elif key == "turn":
            if want != s.turn:
                differ(at, "turn", want, s.turn)
        elif key == "discard_top":
            want_top = [sc.cs.cards[_design(doc, at, sc.cs, n)].name for n in _names(doc, at, want)]
            got_top = [info[d].name for d in s.discard[-len(want_top):]] if want_top else []
            if want_top != got_top:
                differ(at, "top of the discard pile", want_top, got_top)
        elif key == "draw_pile":
            if want != len(s.draw):
                differ(at, "cards in the draw pile", want, len(s.draw))
        else:
            raise _fail(doc, at, f"expect: '{key}' is neither a player nor one of {', '.join(EXPECT_KEYS)}",
                        key=True)
    return out
