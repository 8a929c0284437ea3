"""Printed rules text, generated from a card's mechanics through Jinja2 templates.

Because the text is derived from the same fields the engine executes, a card
cannot say one thing and do another. Hand-written `text` is checked against
the mechanics by `check_text`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import jinja2

from cardgen import messages
from cardgen.bounded_read import read_set_file
from cardgen.effect_text import effect_sentences, effect_summary
from cardgen.jinja_cache import bytecode_cache
from cardgen.model import Card, CardSet, defences_of
from cardgen.paths import templates_dir
from cardgen.primitives import Who, hits
from cardgen.template_sandbox import CARD_BUDGET, metered_sandbox, render_metered

TEXT_TEMPLATE = "card_text.j2"
SUMMARY_TEMPLATE = "card_summary.j2"
SET_TEMPLATES = "templates"  # a set folder's own templates override the bundled ones, sandboxed
_ENV_OPTIONS: dict[str, Any] = {"autoescape": False, "trim_blocks": True, "lstrip_blocks": True,
                                "undefined": jinja2.StrictUndefined, "keep_trailing_newline": False}


@cache
def bundled_env(lang: str = messages.DEFAULT_LANGUAGE) -> jinja2.Environment:
    """The bundled card templates of a language: English from templates/, another language's from
    templates/i18n/<lang>/ (compiled code kept by Jinja's own bytecode cache, cardgen.jinja_cache)."""
    folder = messages.template_folder(lang)
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder or templates_dir())),
                              bytecode_cache=bytecode_cache(), **_ENV_OPTIONS)


MAX_TEMPLATE_BYTES = 200_000  # one template file of a set; the bundled card_text.j2 is about 2 KB


class _SetTemplates(jinja2.BaseLoader):
    """A set's own template files, each read by `bounded_read.read_set_file`: inside the set folder (a link
    out of it, `templates/leak.j2 -> ../../secret.txt`, is refused, not printed on every card), a regular
    file, at most MAX_TEMPLATE_BYTES. The set's `templates/<lang>/` come first, then its `templates/`."""

    def __init__(self, set_folder: Path, lang: str) -> None:
        self.set_folder = set_folder
        own = set_folder / SET_TEMPLATES
        self.folders = [own / lang, own] if (own / lang).is_dir() else [own]

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)  # refuses `..`
        for folder in self.folders:
            path = folder.joinpath(*pieces)
            if not (path.exists() or path.is_symlink()):
                continue
            data = read_set_file(self.set_folder, path.relative_to(self.set_folder), MAX_TEMPLATE_BYTES, "template")
            return data.decode("utf-8"), str(path), functools.partial(_unchanged, path, _stamp(path))
        raise jinja2.TemplateNotFound(template)


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def _unchanged(path: Path, stamp: int) -> bool:
    return _stamp(path) == stamp


@cache
def _set_env(set_folder: str, lang: str = messages.DEFAULT_LANGUAGE) -> jinja2.Environment:
    """Templates a designer ships with a set run sandboxed and bounded: they are data, not code we trust.
    The set's own (`_SetTemplates`) come first, then the bundled ones of the language, then the English ones."""
    bundled = messages.template_folder(lang)
    paths = [*([str(bundled)] if bundled else []), str(templates_dir())]
    loader = jinja2.ChoiceLoader([_SetTemplates(Path(set_folder), lang),
                                  *(jinja2.FileSystemLoader(p) for p in paths)])
    return metered_sandbox(loader, **_ENV_OPTIONS)


def set_templates_dir(cs: CardSet) -> Path | None:
    """The set's own template folder, if it has one."""
    if not cs.path:
        return None
    folder = Path(cs.path) / SET_TEMPLATES
    return folder if folder.is_dir() else None


def _render(cs: CardSet, name: str, context: dict[str, Any]) -> str:
    own = set_templates_dir(cs) or messages.language_folder(cs.language)  # a brought language's: sandboxed too
    if own is None:
        return bundled_env(cs.language).get_template(name).render(**context)
    return render_metered(_set_env(cs.path, cs.language), name, context, CARD_BUDGET, own / name)


def damage_label(card: Card) -> str:
    """The printed damage: '3', or '4 + 3' for a multi-strike."""
    return " + ".join(str(d) for d in card.damage)


def openers_of(combo: str, cs: CardSet) -> list[Card]:
    """Cards that open `combo` (for 'after GRAB' labels)."""
    out = [c for c in cs.cards if c.opens is not None and c.opens.combo == combo]
    if not out:
        out = [c for c in cs.cards if c.pair is not None and combo in c.pair]
    return out


def opener_label(card: Card, cs: CardSet) -> str:
    """'GRAB' for a card that follows a grab; the combo word if no card opens it."""
    if card.follows is None:
        return ""
    names = sorted({c.name.upper() for c in openers_of(card.follows, cs) if c.pair is None})
    if names and len(names) <= MAX_NAMED:
        return f" {messages.message('words.or', cs.language)} ".join(names)
    return messages.keyword(card.follows, cs.language)


def _or_list(words: list[str], lang: str = messages.DEFAULT_LANGUAGE) -> str:
    return messages.or_list(words, lang)


def breakers_of(card: Card, cs: CardSet) -> list[str]:
    """Printed names of what breaks the card's ongoing hold: the set's cards with those defences."""
    if card.ongoing is None:
        return []
    out: list[str] = []
    for kind in card.ongoing.broken_by:
        # a card named for its defence (Freedom) is named by the keyword, in the language printed (BEFREIUNG)
        plain = messages.keyword(kind, messages.DEFAULT_LANGUAGE)
        names = sorted({messages.keyword(kind, cs.language) if c.name.upper() == plain else c.name.upper()
                        for c in cs.cards if c.defence == kind})
        for name in names or [messages.keyword(kind, cs.language)]:
            if name not in out:
                out.append(name)
    if card.ongoing.humiliation_breaks:  # anyone's humiliation breaks it (docs/rules-decisions.md)
        out.extend(sorted({c.name.upper() for c in cs.cards if c.humiliate} - set(out)))
    return out


# A card names at most this many other cards; beyond that it names the kind (a big set's text must not
# grow with the number of cards in it).
MAX_NAMED = 4


def _context(card: Card, cs: CardSet) -> dict[str, Any]:
    lang = cs.language
    role = cs.role(card)
    then_labels = []
    if card.opens is not None:
        for key in card.opens.then:
            t = cs.types.get(key)
            then_labels.append(t.label if t else key)
    followers = []
    if card.opens is not None:
        follower_cards = [c for c in cs.cards if c.follows == card.opens.combo]
        followers = sorted({c.name.upper() for c in follower_cards})
        if len(followers) > MAX_NAMED:
            followers = [messages.text("words.any_follower", lang, opener=opener_label(follower_cards[0], cs))]
    breakers = breakers_of(card, cs)
    if len(breakers) > MAX_NAMED:
        breakers = [messages.text("words.any_breaker", lang)]
    defences = defences_of(card, cs)
    return {
        "card": card,
        "role": role,
        "rules": cs.rules,
        "life_word": cs.rules.life_word,
        "life": lambda n: messages.plural(cs.rules.life_word, n, lang),  # the life word for a count of n
        "combo": messages.keyword(card.opens.combo, lang) if card.opens is not None else "",
        "damage": damage_label(card),
        "strikes": len(card.damage),
        "defences": [messages.keyword(d, lang) for d in defences],
        "defence_words": _or_list([messages.text(f"defended.{d}", lang) for d in defences], lang),
        "opener": opener_label(card, cs),
        "then_labels": then_labels,
        "followers": followers,
        "breakers": _or_list(breakers, lang),
        "returns": role == "weapon",
        "may_drop": role == "weapon" and cs.rules.weapons_may_drop,
        "kw": _keywords(card, lang),
        "direction": {d: messages.text(f"words.{d}", lang) for d in ("left", "right", "either")},
        "effects_text": effect_sentences(card.effects, lang, cs.rules.life_word),
        "effects_summary": (messages.text("effects.not_simulated", lang) if card.words_only
                            else effect_summary(card.effects, lang, cs.rules.life_word)),
        "effects_hit": hits(card.effects),
    }


def _keywords(card: Card, lang: str) -> dict[str, str]:
    """The printed word of each mechanic a card's text may name (its halves, defences, combos)."""
    kinds = {"dodge", "block", "disarm", "freedom", "break", "hold", *(card.pair or ())}
    return {k: messages.keyword(k, lang) for k in sorted(kinds)}


def rules_text(card: Card, cs: CardSet) -> str:
    """The card's printed rules text: its own `text`, or the one generated from its mechanics."""
    if card.text:
        return card.text
    return generated_text(card, cs)


def generated_text(card: Card, cs: CardSet) -> str:
    out = _render(cs, TEXT_TEMPLATE, _context(card, cs))
    out = re.sub(r"\s+([.,;])", r"\1", re.sub(r"\s+", " ", out))
    return re.sub(r"([.;:])(?=[A-Z])", r"\1 ", out).strip()


def summary(card: Card, cs: CardSet, short: bool = False) -> str:
    """A one-line effect for tables (`cardgen list`); `short` for a table that shows the value on its own."""
    out = _render(cs, SUMMARY_TEMPLATE, {**_context(card, cs), "short": short})
    return re.sub(r"\s+", " ", out).strip()


# --- checking hand-written text ------------------------------------------------------------

class Reading(NamedTuple):
    """How `check_text` reads a card's hand-written text in one language: the `check_text` entry of
    templates/messages/<lang>.yaml (its words and phrases are data, so a language is added without code)."""

    numbers: dict[str, int]  # number words, in capitals -> their value
    free_word: re.Pattern[str]  # a number word checked anywhere (the ones that are mostly not numbers left out)
    phrases: tuple[tuple[re.Pattern[str], str], ...]  # phrases whose number is one mechanic ("stuns", "damage"...)
    undefendable: re.Pattern[str]  # "cannot be defended", about the card itself
    keywords: dict[str, str]  # mechanic words in capitals -> the mechanic they name
    turns: str  # the letter after a number of turns (2T, 2Z)
    directions: re.Pattern[str]  # a side the text names ("on your left"): its groups capture the side's word
    sides: dict[str, str]  # that word in capitals -> the side it is ("left", "right")


@cache
def reading(lang: str = messages.DEFAULT_LANGUAGE) -> Reading:
    """The language's `check_text` entry, compiled once."""
    data = messages.message("check_text", lang)
    numbers: dict[str, int] = {}
    for value, entry in enumerate(data["numbers"]):
        for word in entry if isinstance(entry, list) else [entry]:
            numbers[str(word)] = value
    words = "|".join(sorted(numbers, key=len, reverse=True))
    # a number word that counts something else ("take two cards", "one of them") is not the mechanic's number
    num = rf"(?:\d+|(?:{words})\b(?! (?:{data['counting']})\b))"
    free = [w for w in numbers if w not in {str(x) for x in data["not_a_number"]}]
    phrases = tuple((re.compile(r"\b" + str(pattern).replace("{ns}", rf"({num}(?: ?\+ ?{num})*)")
                                .replace("{n}", f"({num})")), str(what))
                    for what, pattern in data["phrases"].items())
    return Reading(numbers, re.compile(rf"\b(?:{'|'.join(free)})\b"), phrases, re.compile(str(data["undefendable"])),
                   {str(w): str(kind) for kind, words in data["keywords"].items() for w in words}, str(data["turns"]),
                   re.compile(str(data["directions"]["pattern"])),
                   {str(w): str(side) for side, words in data["directions"]["words"].items() for w in words})


def _mentions(card: Card, cs: CardSet, kind: str) -> bool:
    defs = defences_of(card, cs)
    if kind in ("dodge", "block", "disarm", "freedom"):
        opener = card.opens
        return (kind in defs or card.defence == kind or (card.pair is not None and kind in card.pair)
                or (card.ongoing is not None and kind in card.ongoing.broken_by)
                or (opener is not None and opener.free and kind in ("dodge", "block"))  # "the follow-up cannot be"
                or (opener is not None and opener.after_block and kind == "block"))
    if kind == "stuns":
        return card.stuns > 0 or bool(_effect_values(card, ("stun",), "turns", Who.SELF, False))
    if kind == "stunned":  # a cancelled card's player is stunned
        return (card.stunned > 0 or card.humiliate == "cancel"
                or bool(_effect_values(card, ("stun",), "turns", Who.SELF, True)))
    if kind == "travels":
        return card.travels
    return False


def _effect_values(card: Card, ops: tuple[str, ...], name: str, who: str = "", is_who: bool = True) -> set[str]:
    """The values of parameter `name` of the card's effects of primitives `ops` (only those whose `who` is, or with
    `is_who` false is not, `who`, when given): what a phrase of its own `text` may state for them."""
    return {str(e.number(name)) for e in card.effects
            if e.op in ops and (not who or (e.who == who) == is_who)}


def stated_numbers(card: Card, cs: CardSet) -> set[int]:
    """Numbers the text of this card may state: its fixed mechanics' and every number of its `effects:` (a card
    written as effects has no other, so without them its own text could state no number at all)."""
    nums = set(card.damage) | {card.total_damage, len(card.damage), card.stuns, card.stunned, card.retaliates,
                               card.draw}
    nums |= {v for e in card.effects for _name, v in e.values if isinstance(v, int)}
    if card.heal:
        nums.add(card.heal.amount)
    if card.ongoing:
        nums.add(card.ongoing.damage)
    if card.opens:
        nums.add(card.opens.multiplier)
    return (nums - {0}) | ({0} if card.heal is not None and "dropping" in card.heal.when else set())


# Numbers written as words are checked like digits ("takes three counters" on a 4-damage card); "one" (and the
# like in other languages: German "ein") only in the phrases of `reading`: elsewhere it is mostly not a number.


def _phrase_values(card: Card, what: str) -> set[str]:
    """The spellings a phrase may use for `what`: '4', '4+3', '7' for a 4 + 3 card."""
    if what == "stuns":
        return ({str(card.stuns)} if card.stuns else set()) | _effect_values(card, ("stun",), "turns", Who.SELF, False)
    if what == "stunned":
        return ({str(card.stunned)} if card.stunned else set()) | _effect_values(card, ("stun",), "turns", Who.SELF)
    if what == "heal":
        return ({str(card.heal.amount)} if card.heal else set()) | _effect_values(card, ("heal",), "amount")
    # a '+' card states its strikes ('2 + 2'), never their sum: each strike is defended on its own
    values = {"+".join(str(d) for d in card.damage)} if card.damage else set()
    # effects: "deal 2", "take 2 life" (`damage`, `lose`), and "take 2 cards" (`steal`, `take_discard`)
    values |= _effect_values(card, ("damage", "lose"), "amount") | _effect_values(card, ("steal", "take_discard"),
                                                                                   "cards")
    if card.ongoing is not None:
        values.add(str(card.ongoing.damage))
    if card.retaliates:
        values.add(str(card.retaliates))  # "the holder loses N"
    return values


def _phrase_problems(card: Card, cs: CardSet, text: str, r: Reading) -> list[str]:
    problems = []
    for pattern, what in r.phrases:
        for m in pattern.finditer(text):
            stated = "+".join(str(r.numbers.get(t, t)) for t in re.split(r"\s*\+\s*", m.group(1).strip()))
            allowed = _phrase_values(card, what)
            if stated not in allowed:
                have = ", ".join(sorted(allowed)) or "none"
                mine = "card's effects say" if card.effects else f"card's {what} is"
                problems.append(f"text says '{m.group(0)}' but the {mine} {have}")
    if card.effects:  # "the player on your left" on a card whose effects go right, or to a chosen player
        sides = {str(v) for e in card.effects for k, v in e.values if k in ("who", "way")} & {"left", "right"}
        for m in r.directions.finditer(text):
            side = r.sides[next(g for g in m.groups() if g)]
            if side not in sides:
                acts = (f"the card's effects go {' and '.join(sorted(sides))}" if sides
                        else "none of the card's effects goes left or right")
                problems.append(f"text says '{m.group(0).lower()}' but {acts}")
    if r.undefendable.search(text) and defences_of(card, cs):
        problems.append(f"text says it cannot be defended but it may be {_or_list(list(defences_of(card, cs)))}; "
                        "set `defended_by: []` to make it so")
    return problems


def check_text(card: Card, cs: CardSet) -> list[str]:
    """Ways in which the card's own `text` contradicts its mechanics (empty when it agrees), read in the set's
    language (`reading`: its number words, phrases and keywords)."""
    if not card.text or card.words_only:  # words alone say what the card does: nothing to check them against
        return []
    r = reading(cs.language)
    problems: list[str] = []
    text = card.text
    allowed = stated_numbers(card, cs)
    own = card.name.upper()
    scrubbed = text.upper().replace(own, " ")
    problems.extend(_phrase_problems(card, cs, scrubbed, r))
    for pattern, _what in r.phrases:  # checked above: report each stated number once
        scrubbed = pattern.sub(" ", scrubbed)
    for m in re.finditer(rf"(?<![\w²⁴])(\d+)(?:{re.escape(r.turns)}\b)?", scrubbed):
        n = int(m.group(1))
        if n not in allowed:
            problems.append(f"text states {m.group(0)} but the mechanics have no such number "
                            f"(they have {', '.join(str(x) for x in sorted(allowed)) or 'none'})")
    names = {c.name.upper(): c for c in cs.cards if c.name != card.name}
    related = _related_names(card, cs)
    # a card is named as printed (Coldcock) or in capitals (COLDCOCK); a lower-case "choke" is just a word
    cased = text.replace(card.name, " ").replace(own, " ")
    for upper, other in sorted(names.items(), key=lambda kv: -len(kv[0])):
        named = any(re.search(rf"(?<!\w){re.escape(form)}(?!\w)", cased) for form in (upper, other.name))
        if named and upper not in r.keywords:
            if upper not in related:
                problems.append(f"text mentions card '{other.name}' but the mechanics do not refer to it")
            cased = cased.replace(upper, " ").replace(other.name, " ")
            scrubbed = scrubbed.replace(upper, " ")
    for word in sorted(set(r.free_word.findall(scrubbed)), key=lambda w: r.numbers[w]):
        if r.numbers[word] not in allowed:
            problems.append(f"text states {word.lower()} ({r.numbers[word]}) but the mechanics have no such "
                            f"number (they have {', '.join(str(x) for x in sorted(allowed)) or 'none'})")
    for word in sorted(set(re.findall(r"\b[^\W\d_]{4,}\b", scrubbed))):
        kind = r.keywords.get(word)
        if kind and not _mentions(card, cs, kind):
            problems.append(f"text says {word} but the mechanics do not have it")
    return problems


def _related_names(card: Card, cs: CardSet) -> set[str]:
    out: set[str] = set()
    if card.follows:
        out |= {c.name.upper() for c in openers_of(card.follows, cs)}
    if card.opens:
        out |= {c.name.upper() for c in cs.cards if c.follows == card.opens.combo}
        out |= {c.name.upper() for c in cs.cards if c.type in card.opens.then}
    for a, b in cs.equivalences.items():
        if a.upper() == card.name.upper():
            out.add(b.upper())
    out |= set(breakers_of(card, cs))
    for c in cs.cards:
        if c.ongoing is not None and (card.defence in c.ongoing.broken_by):
            out.add(c.name.upper())
        if card.defence is not None and card.defence in defences_of(c, cs) and c.name != card.name:
            out.add(c.name.upper())
        if card.humiliate and c.humiliate:
            out.add(c.name.upper())
        if card.opens and card.opens.after_block and c.defence == "block":
            out.add(c.name.upper())
    return out
