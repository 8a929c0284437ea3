"""The lobby of a running table: the host chooses the next table and starts it, without stopping the server.

What may be chosen is what the server was started with: any of its sets (one or several, mixed), the seats
(2 to 12: the host first, then a bot kind or a friend for each other seat) and the language. The new table
keeps the links: the host's link stays the host's, and each friend's link opens the first friend's seat of the
new table still free, in seat order, with that friend's name; a friend seat more than before gets a new link
(the lobby shows it to send), a friend seat fewer leaves that link opening nothing. The game number goes on
from the last table's, so a page of the old game cannot move in the new one.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.loader import load_set_with_warnings
from cardgen.messages import languages
from cardgen.play.table import HUMAN, MAX_PLAYERS, NAMES, MoveRefused, Table
from cardgen.play.wording import say
from cardgen.sim.agents import AGENTS
from cardgen.sim.seeding import derive_seed


@dataclass(frozen=True)
class Choice:
    """The next table: which of the server's sets, every seat's kind (the host's first) and the language."""

    sets: tuple[str, ...]
    seats: tuple[str, ...]
    lang: str


def language_name(code: str) -> str:
    """A language as its own speakers write it ("Deutsch"), or its code where Babel does not know it."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(code).get_display_name(code) or code)
    except (UnknownLocaleError, ValueError):
        return code


def set_titles(refs: Sequence[str]) -> list[str]:
    """Each set's printed title (the lobby's check boxes)."""
    return [load_set_with_warnings(r)[0].title for r in refs]


def lobby_data(table: Table, titles: Sequence[str], base: str) -> dict[str, object]:
    """What the lobby page shows: the choices and the table as it is (its sets, seats and language)."""
    return {
        "sets": [{"ref": r, "title": t, "chosen": r in table.chosen_sets}
                 for r, t in zip(table.sets, titles, strict=True)],
        "seats": [{"name": s.name, "kind": s.kind} for s in table.seats],
        "kinds": [*AGENTS, HUMAN],
        "langs": [{"code": c, "name": language_name(c)} for c in languages()],
        "lang": table.lang,
        "max_players": MAX_PLAYERS,
        "over": table.over,
        "table": f"{base}/t/{table.host.token}",
    }


def parse_choice(payload: object, table: Table) -> Choice:
    """The lobby's JSON ({sets: [ref...], seats: [kind...], lang}) checked against what may be chosen, or
    MoveRefused (400) with the reason in the table's language."""
    lang = table.lang
    if not isinstance(payload, dict) or set(payload) - {"sets", "seats", "lang"}:
        raise MoveRefused(say(lang, "refused.lobby_shape"), 400)
    sets, seats, chosen_lang = payload.get("sets"), payload.get("seats"), payload.get("lang")
    if not isinstance(sets, list) or not sets or any(s not in table.sets for s in sets) or len(set(sets)) != len(sets):
        raise MoveRefused(say(lang, "refused.lobby_sets"), 400)
    kinds = [*AGENTS, HUMAN]
    if (not isinstance(seats, list) or not 2 <= len(seats) <= MAX_PLAYERS or seats[0] != HUMAN
            or any(k not in kinds for k in seats)):
        raise MoveRefused(say(lang, "refused.lobby_seats", most=MAX_PLAYERS), 400)
    if chosen_lang not in languages():
        raise MoveRefused(say(lang, "refused.lobby_lang"), 400)
    ordered = tuple(r for r in table.sets if r in sets)  # the server's order: the same choice, the same deck
    return Choice(sets=ordered, seats=tuple(seats), lang=str(chosen_lang))


def _names(old: Table, seats: Sequence[str]) -> list[str]:
    """The new seats' names: the host's, the friends' carried in order, then unused names for the rest."""
    friends = [s.name for s in old.seats[1:] if not s.bot]
    out: list[str | None] = [old.host.name]
    for kind in seats[1:]:
        out.append(friends.pop(0) if kind == HUMAN and friends else None)
    spare = [n for n in dict.fromkeys((*(s.name for s in old.seats), *NAMES)) if n not in out]
    return [n if n is not None else spare.pop(0) for n in out]


def next_table(old: Table, choice: Choice) -> Table:
    """The table the lobby starts: dealt afresh (a seed derived from the last table's), bots seated, and the
    host's and friends' tokens carried over (module docstring)."""
    seed = derive_seed(old.seed, old.game, 1) % 1_000_000
    new = Table.open(choice.sets, players=len(choice.seats), bots=",".join(choice.seats[1:]), seed=seed,
                     budget=old.budget, names=",".join(_names(old, choice.seats)), agent_factory=old.agent_factory,
                     lang=choice.lang, offered=old.sets)
    tokens = [s.token for s in old.seats[1:] if not s.bot]
    new.host.token = old.host.token
    for seat in new.seats[1:]:
        if not seat.bot:
            seat.token = tokens.pop(0) if tokens else secrets.token_urlsafe(18)
    new.game = old.game + 1
    new.number = old.number + 1
    return new


def links(old: Table, new: Table, base: str) -> list[dict[str, object]]:
    """The friends' links of the new table, each said to be the link it had or a new one to send."""
    kept = {s.token for s in old.seats if not s.bot}
    return [{"name": s.name, "link": f"{base}/t/{s.token}", "kept": s.token in kept}
            for s in new.seats[1:] if not s.bot]
