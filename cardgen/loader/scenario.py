"""Scenario files read into a typed `ScenarioSpec` (docs/scenarios.md).

The shape is checked by the scenario schema (`scenario_file`), like a set file; then this module loads the
sets and checks everything else the file decides on its own: card names (with a did-you-mean), copies
against the deck, player names, life against the rules, the `first` player. Every problem found is
reported at once, each at its `file:line:col`. Whether a move is legal when it comes is the engine's to
say (`cardgen.engine.replay`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.loader import load_sets
from cardgen.loader.scenario_file import read_scenario
from cardgen.model import CardSet
from cardgen.scenario_spec import (
    ACTIONS,
    NO_ACTIONS,
    Action,
    CardRef,
    ExpectSpec,
    MovesCheck,
    MoveSpec,
    Pos,
    ScenarioError,
    ScenarioSpec,
    Seat,
    SeatExpect,
    Step,
    Want,
)
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document, PathKey

EXPECT_KEYS = ("pool", "to_act", "winner", "turn", "discard_top", "draw_pile")


class _Stop(Exception):
    """A problem after which nothing more of the file can be checked (the sets do not load)."""


def design_of(cs: CardSet, name: str) -> int | None:
    """The design index for a card name ('Dodge', or 'Dodge@beer' in a mixed deck); None if unknown."""
    base, _, origin = name.partition("@")
    key = base.strip().casefold()
    for d, c in enumerate(cs.cards):
        if c.name.casefold() == key and (not origin or c.origin == origin.strip()):
            return d
    return None


def _set_ref(ref: str, base: Path) -> str:
    """A set named by path is relative to the scenario's folder; a bare name is a bundled set."""
    if ("/" in ref or ref.startswith(".")) and not Path(ref).is_absolute():
        return str(base / ref)
    return ref


def _listed(value: object) -> list[str]:
    """A name or a list of names (the schema allows no other shape)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in cast(list[Any], value) if isinstance(v, str)]


@dataclass
class _Reader:
    """One file's reading: its document, card set and players, and the problems found so far."""

    doc: Document
    cs: CardSet = field(init=False)
    names: list[str] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)

    def pos(self, at: PathKey, key: bool = False) -> Pos:
        return self.doc.where(at, key=key)

    def fail(self, at: PathKey, message: str, key: bool = False) -> None:
        line, col = self.doc.where(at, key=key)
        self.diags.append(Diagnostic(self.doc.path, line, col, message))

    def card(self, at: PathKey, name: str) -> CardRef | None:
        d = design_of(self.cs, name)
        if d is None:
            self.fail(at, f"unknown card '{name}' in {self.cs.name}"
                          f"{did_you_mean(name, [c.name for c in self.cs.cards])}")
            return None
        return CardRef(d, name, self.pos(at))

    def cards(self, at: PathKey, value: object) -> list[CardRef]:
        found = (self.card((*at, j) if isinstance(value, list) else at, n) for j, n in enumerate(_listed(value)))
        return [c for c in found if c is not None]

    def printed(self, at: PathKey, value: object) -> tuple[str, ...]:
        return tuple(self.cs.cards[c.design].name for c in self.cards(at, value))

    def player(self, at: PathKey, name: object) -> int:
        if isinstance(name, str) and name in self.names:
            return self.names.index(name)
        self.fail(at, f"unknown player '{name}'{did_you_mean(str(name), self.names)}")
        return -1


def load_scenario(path: Path, shown: str | None = None) -> ScenarioSpec:
    """Read and check a scenario file (raises ScenarioError with every problem, each at file:line:col)."""
    doc, diags = read_scenario(path, shown or str(path))
    if doc is None or diags:
        raise ScenarioError(diags)
    return read_spec(doc, path.parent)


def read_spec(doc: Document, base: Path | None = None) -> ScenarioSpec:
    """The spec of a schema-valid scenario document; a set path is relative to `base` (default: here)."""
    r = _Reader(doc)
    data: dict[str, Any] = doc.data
    try:
        sets = _load(r, data, base or Path.cwd())
    except _Stop:
        raise ScenarioError(r.diags) from None
    seats = _seats(r, data)
    left = Counter({d: c.count for d, c in enumerate(r.cs.cards)})
    for at, ref in _dealt(r, data):
        if left[ref.design] <= 0:
            c = r.cs.cards[ref.design]
            r.fail(at, f"more copies of '{c.name}' than the deck has ({c.count})")
        left[ref.design] -= 1
    if data.get("deck_shuffled") and sum(left.values()) > 0:
        r.fail(("deck_shuffled",), f"deck_shuffled: the hands and piles must hold the whole deck "
               f"({sum(left.values())} of its cards are not in them)", key=True)
    first = data.get("first", r.names[0])
    if first not in r.names:
        r.fail(("first",), f"first: '{first}' is not a player{did_you_mean(str(first), r.names)}")
    if sum(not s.down for s in seats) < 2:
        r.fail(("players",), "players: at least two must be conscious")
    steps = tuple(_step(r, i, raw) for i, raw in enumerate(data.get("moves") or []))
    expect = _expect(r, ("expect",), data["expect"]) if "expect" in data else None
    if r.diags:
        r.diags.sort(key=lambda x: (x.line, x.column))
        raise ScenarioError(r.diags)
    return ScenarioSpec(
        path=doc.path, title=str(data.get("title", "")), description=str(data.get("description", "")),
        sets=sets, cs=r.cs, seed=int(data.get("seed", 0)), turn_cap=data.get("turn_cap"), seats=seats,
        draw=tuple(c.design for c in r.cards(("draw",), data.get("draw"))),
        discard=tuple(c.design for c in r.cards(("discard",), data.get("discard"))),
        first=r.names.index(first), steps=tuple(s for s in steps if s is not None), expect=expect,
        made_with={str(k): {str(n): str(h) for n, h in v.items()} for k, v in (data.get("made_with") or {}).items()},
        made_with_pos=doc.where(("made_with",), key=True), deck_shuffled=bool(data.get("deck_shuffled")))


def _load(r: _Reader, data: dict[str, Any], base: Path) -> tuple[str, ...]:
    sets = tuple(_listed(data["sets"]))
    try:
        r.cs = load_sets([_set_ref(ref, base) for ref in sets])
    except SetError as exc:
        r.fail(("sets",), f"set {', '.join(sets)} does not load: "
                          f"{exc.diagnostics[0].message if exc.diagnostics else exc}")
        raise _Stop from exc
    except CardgenError as exc:
        r.fail(("sets",), str(exc))
        raise _Stop from exc
    return sets


def _seats(r: _Reader, data: dict[str, Any]) -> tuple[Seat, ...]:
    rules = r.cs.rules
    out: list[Seat] = []
    for i, p in enumerate(data["players"]):
        name = p["name"]
        if name in r.names:
            r.fail(("players", i, "name"), f"player name '{name}' used twice")
        r.names.append(name)
        hand = tuple(c.design for c in r.cards(("players", i, "hand"), p.get("hand")))
        out_cold = p.get("unconscious") is True
        life = p.get("life", 0 if out_cold else rules.life)
        if life > rules.life or (life < 0 and not rules.negative_life) or (out_cold and life > 0):
            r.fail(("players", i, "life"), f"life: expected a whole number up to {rules.life}"
                   + (" (0 or less for an unconscious player)" if out_cold else ""))
        down = out_cold or life <= 0
        if down and hand:
            r.fail(("players", i, "hand"), "an unconscious player holds no cards")
        out.append(Seat(name, life, hand, p.get("stunned", 0), down))
    return tuple(out)


def _dealt(r: _Reader, data: dict[str, Any]) -> list[tuple[PathKey, CardRef]]:
    """Every card the table starts with (hands, then the draw pile's top, then the discard pile), and where."""
    places: list[tuple[PathKey, object]] = [(("players", i, "hand"), p.get("hand"))
                                            for i, p in enumerate(data["players"])]
    places += [(("draw",), data.get("draw")), (("discard",), data.get("discard"))]
    out: list[tuple[PathKey, CardRef]] = []
    for at, value in places:
        for j, name in enumerate(_listed(value)):
            d = design_of(r.cs, name)
            if d is not None:
                where = (*at, j) if isinstance(value, list) else at
                out.append((where, CardRef(d, name, r.pos(where))))
    return out


def _step(r: _Reader, i: int, raw: dict[str, Any]) -> Step | None:
    at: PathKey = ("moves", i)
    if set(raw) == {"expect"}:
        return _expect(r, (*at, "expect"), raw["expect"])
    if set(raw) == {"expect_moves"}:
        return _moves_check(r, (*at, "expect_moves"), raw["expect_moves"])
    for key in ("expect", "expect_moves"):
        if key in raw:
            r.fail((*at, key), f"move: unknown key '{key}'; a check is an item of its own (`- {key}: ...`)",
                   key=True)
            return None
    if "who" not in raw:
        r.fail(at, "move: missing `who`")
        return None
    return _move(r, at, raw, r.player((*at, "who"), raw["who"]))


def _move(r: _Reader, at: PathKey, m: dict[str, Any], who: int = -1) -> MoveSpec | None:
    actions = [k for k in ACTIONS if k in m]
    if len(actions) != 1:
        r.fail(at, f"move: give exactly one of {', '.join(ACTIONS)}")
        return None
    action: Action = actions[0]
    value = m[action]
    spec = MoveSpec(pos=r.pos(at), action=action, key_pos=r.pos((*at, action), key=True),
                    value_pos=r.pos((*at, action)), written=", ".join(f"{k}: {v}" for k, v in m.items()),
                    who=who, who_pos=r.pos((*at, "who")), target_pos=r.pos((*at, "target")),
                    target=r.player((*at, "target"), m["target"]) if "target" in m else -1,
                    choice=m.get("as", "drop" if m.get("drop") else ""), more=m.get("more") is True)
    if action in NO_ACTIONS:
        return spec
    if action == "release":
        return replace(spec, player=r.player((*at, "release"), value))
    if action == "direction":
        return replace(spec, direction=value)
    cards = r.cards((*at, action), value)
    if action == "discard" and not _listed(value):
        r.fail((*at, action), "discard: name at least one card")
    if len(cards) != len(_listed(value)):
        return None
    return replace(spec, cards=tuple(cards))


def _moves_check(r: _Reader, at: PathKey, spec: dict[str, Any]) -> MovesCheck | None:
    if "can" not in spec and "cannot" not in spec:
        r.fail(at, "expect_moves: give `can`, `cannot` or both")
        return None
    who = r.player((*at, "who"), spec["who"])
    lists: dict[str, tuple[MoveSpec, ...]] = {}
    for word in ("can", "cannot"):
        entries = [_move(r, (*at, word, j), {e: True} if isinstance(e, str) else e)
                   for j, e in enumerate(spec.get(word) or [])]
        lists[word] = tuple(e for e in entries if e is not None)
    return MovesCheck(r.pos(at), who, lists["can"], lists["cannot"])


def _want(r: _Reader, at: PathKey, value: Any) -> Want[Any]:
    return Want(value, r.pos(at))


def _expect(r: _Reader, where: PathKey, data: dict[str, Any] | None) -> ExpectSpec:
    if data is None:
        return ExpectSpec()
    seats: list[SeatExpect] = []
    found: dict[str, Want[Any]] = {}
    for key, want in data.items():
        at = (*where, key)
        if key in r.names:
            seats.append(_seat_expect(r, at, r.names.index(key), want))
        elif key == "discard_top":
            found[key] = _want(r, at, r.printed(at, want))
        elif key in EXPECT_KEYS:
            found[key] = _want(r, at, want)
        else:
            r.fail(at, f"expect: '{key}' is neither a player nor one of {', '.join(EXPECT_KEYS)}", key=True)
    return ExpectSpec(seats=tuple(seats), **found)


def _seat_expect(r: _Reader, at: PathKey, seat: int, exp: dict[str, Any]) -> SeatExpect:
    def one(key: str) -> Want[Any] | None:
        return _want(r, (*at, key), exp[key]) if key in exp else None

    def each(key: str) -> tuple[Want[str], ...]:
        value = exp.get(key)
        return tuple(Want(r.cs.cards[c.design].name, c.pos) for c in r.cards((*at, key), value))

    hand = _want(r, (*at, "hand"), tuple(sorted(r.printed((*at, "hand"), exp["hand"])))) if "hand" in exp else None
    status = _want(r, (*at, "status"), tuple(_listed(exp["status"]))) if "status" in exp else None
    return SeatExpect(seat=seat, life=one("life"), hand=hand, has=each("has"), lacks=each("lacks"),
                      cards=one("cards"), status=status)
