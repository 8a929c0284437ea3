"""What the one-page rules reference says, derived from the set data through Jinja2 templates.

The words live in `templates/rules/*.j2`; this module only gathers facts from the
cards (which mechanics are used, which cards defend, open combos, heal...) and
parses the templates' small line format into blocks that the layout draws.
Keeping content apart from layout lets tests read the words without a PDF.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast

import jinja2
from markupsafe import Markup, escape

from cardgen import mechanics as mech
from cardgen import messages
from cardgen.cardtext import summary
from cardgen.errors import CardgenError
from cardgen.iconwords import keyword_forms
from cardgen.jinja_cache import bytecode_cache
from cardgen.mechanic_registry import GLOSSARY, CardTest
from cardgen.model import DEFENCE_KINDS, Card, CardSet, defences_of
from cardgen.paths import templates_dir
from cardgen.render.icons import Icon, icons_of
from cardgen.template_sandbox import Budget, TemplateError, metered_sandbox, render_metered

PAGE_TEMPLATE = "page.j2"
GLOSSARY_TEMPLATE = "glossary.j2"  # included by the page
SEPARATOR = "¦"
EXAMPLES_SHOWN = 2
# A sentence names at most this many cards (then "and N more"), and a per-card list in the glossary
# shows at most this many entries, so the page's text does not grow with the size of the set.
NAMES_LISTED = 6

# Glossary entries a card can bring (each with the test that picks the set's cards), declared with their
# mechanics in `cardgen.mechanic_registry`. Each has exactly one entry in glossary.j2, printed only when some
# card of the set passes the test.
CARD_MECHANICS: dict[str, CardTest] = GLOSSARY

# Mechanics that are rule switches of the set rather than card fields.
SET_MECHANICS: dict[str, Callable[[CardSet], bool]] = {
    "negative": lambda cs: cs.rules.negative_life,
    "revive": lambda cs: cs.rules.revive and any(c.heal is not None for c in cs.cards),
}

MECHANICS: tuple[str, ...] = (*CARD_MECHANICS, *SET_MECHANICS)

BlockKind = Literal["title", "heading", "para", "bullet", "term", "type", "cardhead", "card", "group",
                    "equivhead", "equiv"]
TABLE_KINDS: frozenset[str] = frozenset({"type", "cardhead", "card", "group", "equivhead", "equiv"})


class Block(NamedTuple):
    """One piece of the page: a heading, a paragraph, or a table row (cells split on SEPARATOR)."""

    kind: BlockKind
    text: str = ""
    cells: tuple[str, ...] = ()
    heading: str = ""  # a glossary term's word(s)
    icons: tuple[Icon, ...] = ()  # the set's keyword icons, drawn in this block's text


@dataclass(frozen=True)
class Row:
    colour: str
    name: str
    value: str = ""
    copies: str = ""
    effect: str = ""
    label: str = ""
    role: str = ""
    count: int = 0


@dataclass(frozen=True)
class Group:
    title: str
    rows: list[Row] = field(default_factory=list)


class Named(NamedTuple):
    name: str
    amount: int


class OpenerInfo(NamedTuple):
    name: str
    next: list[str]
    free: bool
    multiplier: int
    chain: bool


class DefenceInfo(NamedTuple):
    kind: str
    label: str
    stops: list[str]
    retaliates: bool


def used_mechanics(cs: CardSet) -> dict[str, bool]:
    """Which glossary mechanics the set uses, from its card fields and rule switches."""
    used = {key: any(test(c, cs) for c in cs.cards) for key, test in CARD_MECHANICS.items()}
    used.update({key: test(cs) for key, test in SET_MECHANICS.items()})
    return used


def _examples(cs: CardSet) -> dict[str, list[str]]:
    return {key: [c.name for c in cs.cards if test(c, cs)] for key, test in CARD_MECHANICS.items()}


# --- Jinja2 filters: joined lists, with card names upper-cased as the cards print them ------------

def _or_list(items: Iterable[Any], word: str = "or") -> Markup:
    parts = [escape(x) for x in items]
    if len(parts) <= 1:
        return Markup("").join(parts)
    return Markup(", ").join(parts[:-1]) + Markup(f" {word} ") + parts[-1]


def _some(names: Iterable[str], lang: str = messages.DEFAULT_LANGUAGE) -> list[str]:
    """Upper-cased card names, at most NAMES_LISTED: the last entry says how many more there are."""
    shown = [n.upper() for n in _unique(names)]
    if len(shown) <= NAMES_LISTED:
        return shown
    return [*shown[:NAMES_LISTED - 1], messages.text("words.more_cards", lang, n=len(shown) - NAMES_LISTED + 1)]


def _filters(lang: str) -> dict[str, Callable[..., Markup]]:
    """The list filters of the page templates, joining with the language's 'or' and 'and'."""
    word_or, word_and = messages.text("words.or", lang), messages.text("words.and", lang)

    def or_list(items: Iterable[Any], word: str = word_or) -> Markup:
        return _or_list(items, {"or": word_or, "and": word_and}.get(word, word))

    return {"or_list": or_list, "cards_or": lambda names: _or_list(_some(names, lang), word_or),
            "cards_and": lambda names: _or_list(_some(names, lang), word_and), "list_some": _list_some}


def _list_some(names: Iterable[str]) -> Markup:
    """A few example card names, in italics: '(e.g. Spitball, Flying Kick, …)'."""
    shown = _unique(names)
    more = len(shown) > EXAMPLES_SHOWN
    body = Markup(", ").join(escape(n) for n in shown[:EXAMPLES_SHOWN]) + (Markup(", …") if more else "")
    return Markup("<i>") + body + Markup("</i>")


def _unique(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def rules_env(lang: str = messages.DEFAULT_LANGUAGE) -> jinja2.Environment:
    """The rules-page templates of a language: English from templates/rules/, another language's from
    templates/i18n/<lang>/rules/ or the folder it was brought in (compiled code kept by Jinja's own bytecode
    cache, cardgen.jinja_cache, so a new environment compiles nothing the cache holds)."""
    folder = messages.template_folder(lang)
    options: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True,
                               "undefined": jinja2.StrictUndefined, "keep_trailing_newline": False}
    loader = jinja2.FileSystemLoader((folder or templates_dir()) / "rules")
    if messages.language_folder(lang) is not None:  # a language from a set or the user: data, not trusted code
        return metered_sandbox(loader, _filters(lang), **options)
    env = jinja2.Environment(loader=loader, bytecode_cache=bytecode_cache(), **options)
    env.filters.update(_filters(lang))
    return env


# --- facts gathered from the cards ---------------------------------------------------------------

def _origin_titles(cs: CardSet) -> dict[str, str]:
    """Set name -> title for the parts of a mixed deck (mix_sets joins both in the same order)."""
    names, titles = cs.name.split("+"), cs.title.split(" + ")
    if len(names) == len(titles):
        return dict(zip(names, titles, strict=True))
    return {n: n for n in names}


def _own_heal_caps(cs: CardSet, heal_cards: list[Card], titles: dict[str, str]) -> list[tuple[str, int]]:
    """(set title, limit) for each set of a mixed deck whose healing cards keep a stricter per-turn limit than
    the table's: each heal card plays by its own set's limit (docs/rules-decisions.md, 38)."""
    table = cs.rules.heals_per_turn or (0 if cs.rules.heal_action else 1)  # 0: no limit
    out: dict[str, int] = {}
    for c in heal_cards:
        own = cs.rules_of(c)
        cap = own.heals_per_turn or (0 if own.heal_action else 1)
        if cap and (table == 0 or cap < table):
            out[titles.get(c.origin, c.origin)] = cap
    return sorted(out.items())


def _value(card: Card, lang: str) -> str:
    if card.damage:
        return "+".join(str(d) for d in card.damage)
    if card.ongoing is not None:
        return messages.text("words.per_turn", lang, n=card.ongoing.damage)
    if card.heal is not None:
        return f"♥{card.heal.amount}"
    return "–"


def _effect(card: Card, cs: CardSet) -> str:
    """The card's one-line summary without what the row already shows, so most rows stay one line."""
    return summary(card, cs, short=True)


def _groups(cs: CardSet) -> tuple[list[Group], list[Group]]:
    """Card-type rows and card rows, grouped by the set each came from in a mixed deck."""
    mixed = bool(cs.origin_types) and len(cs.origin_types) > 1
    titles = _origin_titles(cs)
    origins = list(cs.origin_types) if mixed else [""]
    type_groups: list[Group] = []
    card_groups: list[Group] = []
    for origin in origins:
        cards = [c for c in cs.cards if not mixed or c.origin == origin]
        # each type's cards together, types in order of their first card: a home-made set's new cards join
        # their type's rows instead of trailing the base set's
        first = {key: i for i, key in enumerate(dict.fromkeys(c.type for c in cards))}
        cards.sort(key=lambda c: first[c.type])
        types = cs.origin_types[origin] if mixed else cs.types
        counts: dict[str, int] = {}
        for c in cards:
            counts[c.type] = counts.get(c.type, 0) + c.count
        title = titles.get(origin, origin) if mixed else ""
        type_groups.append(Group(title, [Row(t.colour, t.label, label=t.label, role=t.role, count=counts[key])
                                         for key, t in types.items() if counts.get(key)]))
        card_groups.append(Group(title, [Row(cs.type_of(c).colour, c.name, _value(c, cs.language), str(c.count),
                                             _effect(c, cs)) for c in cards]))
    return type_groups, card_groups


def _openers(cs: CardSet) -> list[OpenerInfo]:
    """One entry per opener name (a mixed deck may have two GRABs: same combo, same entry)."""
    merged: dict[str, OpenerInfo] = {}
    for c in cs.cards:
        if c.opens is None:
            continue
        combo = c.opens.combo
        nxt = _some((f.name for f in cs.cards if f.follows == combo), cs.language)
        nxt += [messages.text("words.type_card", cs.language, label=cs.types[t].label)
                for t in c.opens.then if t in cs.types]
        name = c.name.upper()
        old = merged.get(name)
        if old is not None:
            nxt = old.next + nxt
        nothing = messages.text("words.nothing_yet", cs.language)
        merged[name] = OpenerInfo(name, _unique(nxt) or [nothing], c.opens.free or bool(old and old.free),
                                  max(c.opens.multiplier, old.multiplier if old else 1),
                                  c.opens.chain or bool(old and old.chain))
    return list(merged.values())


def _defences(cs: CardSet) -> list[DefenceInfo]:
    out: list[DefenceInfo] = []
    for kind in DEFENCE_KINDS:
        cards = [c for c in cs.cards if c.defence == kind]
        halves = any(c.pair is not None and kind in c.pair for c in cs.cards)
        if not cards and not halves:
            continue
        names = _unique(c.name.upper() for c in cards)
        label = " / ".join(names) if names and len(names) <= NAMES_LISTED else messages.keyword(kind, cs.language)
        stops = _some((c.name for c in cs.cards
                       if kind in defences_of(c, cs) or (c.ongoing is not None and kind in c.ongoing.broken_by)),
                      cs.language)
        hold = messages.keyword("hold", cs.language)
        if halves and kind in ("freedom", "break") and hold not in stops:
            stops.append(hold)
        out.append(DefenceInfo(kind, label, _unique(stops), any(c.retaliates for c in cards)))
    return out


def _labels_of(cs: CardSet, want: Callable[[Card], bool]) -> list[str]:
    """Type labels (in type order) of the types that have at least one card passing `want`."""
    keys = {c.type for c in cs.cards if want(c)}
    return _unique(t.label for key, t in cs.types.items() if key in keys)


def page_context(cs: CardSet) -> dict[str, Any]:
    """Everything the page templates may use, all computed from the set."""
    titles = _origin_titles(cs)
    return {**_set_facts(cs), **_name_lists(cs), **_defence_facts(cs), **_group_facts(cs, titles),
            **_equivalence_facts(cs, titles), **_words(cs)}


def _set_facts(cs: CardSet) -> dict[str, Any]:
    """The set's numbers and rules, and which mechanics it uses."""
    return {
        "title": cs.title,
        "total": cs.total,
        "designs": len(cs.cards),
        "deck_size": cs.deck_size,
        "rules": cs.rules,
        "life": cs.rules.life,
        "life_word": cs.rules.life_word,
        "hint": cs.rules.counters_hint,
        "hand_size": cs.rules.hand_size,
        "used": used_mechanics(cs),
        "ex": _examples(cs),
        "holder_restricted": any(c.ongoing is not None and c.ongoing.holder_restricted for c in cs.cards),
        "pass_directions": sorted({c.passes_on for c in cs.cards if c.passes_on}),
        "moves_per_hold": max((cs.rules_of(c).moves_per_hold for c in cs.cards if c.pair and "hold" in c.pair),
                              default=0),
    }


def _name_lists(cs: CardSet) -> dict[str, Any]:
    """The cards the page names for a rule they share."""
    return {
        "area_all": [c.name for c in cs.cards if c.targets == "all"],
        "wrestling_names": [c.name for c in cs.cards if c.follows == "hold" or cs.role(c) == "wrestling"],
        "attack_labels": _labels_of(cs, lambda c: mech.attacks(c, cs.role(c))),
        "event_labels": _labels_of(cs, lambda c: cs.role(c) == "event"),
        "one_per_turn_labels": _labels_of(cs, lambda c: cs.role(c) in cs.rules_of(c).one_per_own_turn),
        "sealed_names": [c.name for c in cs.cards if c.opens is not None and c.opens.sealed],
        "heal_past_zero": [c.name for c in cs.cards if c.heal is not None and "dropping" in c.heal.when
                           and cs.rules_of(c).negative_life],  # heals after the damage: as many as you hold
        "free_open_names": [c.name for c in cs.cards if c.opens is not None and c.opens.free and not c.opens.sealed],
        "out_of_turn_names": [c.name for c in cs.cards if mech.out_of_turn(c)],  # what the engine lets them play
        "openers": _openers(cs)[:NAMES_LISTED],
        "retaliators": [Named(c.name.upper(), c.retaliates) for c in cs.cards if c.retaliates][:NAMES_LISTED],
        "drawers": [Named(c.name.upper(), c.draw) for c in cs.cards if c.draw][:NAMES_LISTED],
    }


def _defence_facts(cs: CardSet) -> dict[str, Any]:
    """The defences, the disarm's label and what breaks an ongoing card."""
    defences = _defences(cs)
    disarm = next((d for d in defences if d.kind == "disarm"), None)
    ongoing_kinds = _unique(k for c in cs.cards if c.ongoing for k in c.ongoing.broken_by)
    return {
        "defences": defences,
        "disarm_label": disarm.label if disarm else "",
        "ongoing_breakers": _some((c.name for k in ongoing_kinds for c in cs.cards if c.defence == k), cs.language),
    }


def _group_facts(cs: CardSet, titles: dict[str, str]) -> dict[str, Any]:
    """The type and card groups of the tables, and the heals with their caps."""
    type_groups, card_groups = _groups(cs)
    heal_cards = [c for c in cs.cards if c.heal is not None]
    return {
        "type_groups": type_groups,
        "card_groups": card_groups,
        "heal_names": [c.name for c in heal_cards],
        "own_heal_caps": _own_heal_caps(cs, heal_cards, titles),
    }


def _equivalence_facts(cs: CardSet, titles: dict[str, str]) -> dict[str, Any]:
    """A mixed deck's pairs of cards that count as each other, and the titles of their two sets."""
    equivalences: list[tuple[str, str]] = []
    names = {c.name.upper(): c for c in cs.cards}
    for mine, theirs in sorted(cs.equivalences.items()):
        if mine.upper() in names and theirs.upper() in names:
            equivalences.append((names[mine.upper()].name, names[theirs.upper()].name))
    eq_titles = ("", "")
    if equivalences:
        a, b = names[equivalences[0][0].upper()], names[equivalences[0][1].upper()]
        eq_titles = (titles.get(a.origin, a.origin), titles.get(b.origin, b.origin))
    return {"equivalences": equivalences, "equivalence_titles": eq_titles}


def _words(cs: CardSet) -> dict[str, Any]:
    """The keywords and directions in the page's language."""
    return {
        "icon_words": [keyword_forms(k)[0] if cs.language == messages.DEFAULT_LANGUAGE else
                       messages.keyword(k, cs.language) for k in sorted(cs.icons)],
        "kw": {k: messages.keyword(k, cs.language) for k in ("dodge", "block", "disarm", "freedom", "break", "hold")},
        "direction": {d: messages.text(f"words.{d}", cs.language) for d in ("left", "right", "either")},
    }


# What one rules page of a brought language's templates may spend. The English templates, brought as a new
# language, take 74 operations and write 5,428 characters for Lunch Money, and 339 and 20,196 for a set of 280
# designs: the bounds leave a designer's templates ample room and stop a runaway loop or string.
RULES_PAGE_BUDGET = Budget(ops=100_000, seconds=10.0, output=200_000, value=50_000, what="one rules page")


class RulesTemplateError(CardgenError):
    """A rules-page template of a language from a set or the user failed (its syntax, a name, the sandbox)."""


def page_markup(cs: CardSet) -> str:
    """The page in the templates' line format (see templates/rules/page.j2); a brought language's templates run
    metered, within RULES_PAGE_BUDGET."""
    env = rules_env(cs.language)
    if messages.language_folder(cs.language) is None:
        return env.get_template(PAGE_TEMPLATE).render(**page_context(cs))
    default = cast(Path, messages.template_folder(cs.language)) / "rules" / PAGE_TEMPLATE
    try:
        return render_metered(env, PAGE_TEMPLATE, page_context(cs), RULES_PAGE_BUDGET, default)
    except TemplateError as exc:
        raise RulesTemplateError(str(exc)) from None


# --- the line format -------------------------------------------------------------------------------

def _cells(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(SEPARATOR))


def parse_blocks(markup: str) -> list[Block]:
    """Blocks from the line format: marker lines start a block, plain lines continue a paragraph or a
    glossary entry, blank lines end it."""
    blocks: list[Block] = []
    current: dict[str, Any] | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            blocks.append(Block(current["kind"], " ".join(current["lines"]).strip(), heading=current["heading"]))
            current = None

    for raw in markup.splitlines():
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("@"):
            close()
            tag, _, rest = line[1:].partition(" ")
            if tag not in TABLE_KINDS:
                raise ValueError(f"unknown table row @{tag} in the rules template")
            blocks.append(Block(tag, rest.strip(), cells=_cells(rest)))  # type: ignore[arg-type]
        elif line.startswith("### "):
            close()
            current = {"kind": "term", "lines": [], "heading": line[4:].strip()}
        elif line.startswith("## "):
            close()
            blocks.append(Block("heading", line[3:].strip()))
        elif line.startswith("# "):
            close()
            blocks.append(Block("title", line[2:].strip(), cells=_cells(line[2:])))
        elif line.startswith("- "):  # a bullet is one line: the next plain line starts a paragraph
            close()
            blocks.append(Block("bullet", line[2:].strip()))
        elif current is None:
            current = {"kind": "para", "lines": [line], "heading": ""}
        else:
            current["lines"].append(line)
    close()
    return blocks


def page_blocks(cs: CardSet) -> list[Block]:
    """The rules page of `cs` as blocks, ready for layout; text blocks carry the set's keyword icons."""
    icons = icons_of(cs)
    return [b._replace(icons=icons) if icons and b.kind in ("para", "bullet", "term") else b
            for b in parse_blocks(page_markup(cs))]
