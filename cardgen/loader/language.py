"""A set printed in another language: its own words from `lang/<code>.yaml` in its folder.

Everything cardgen generates (the card text, the face's labels, the rules page) comes from the
language's templates and catalogue; what only the designer wrote (the title, the type labels, the
word and hint for life, flavour, a card's own `text`) comes from the set's translation file:

    # lang/de.yaml
    title: Lunch Money (selbst gemacht)
    rules: {life_word: Leben, counters_hint: ein 20-seitiger Würfel pro Spieler}
    types: {attack: Angriff, weapon: Waffe}
    cards:
      Band-Aid: {flavour: Ein Kühlpack und ein Passierschein.}

Card names stay as written: they are a card's identity in scenarios, reports, equivalences and the
published games (docs/languages.md). A set that `extends:` another takes the base's translation, then
its own on top.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, NamedTuple

from cardgen import messages, model
from cardgen.errors import Diagnostic
from cardgen.loader.card_checks import RIGHT_TO_LEFT, hidden_character, right_to_left
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document, read_document

LANG_FOLDER = messages.LANG_FOLDER
_RULE_WORDS = ("life_word", "counters_hint")
_CARD_WORDS = ("flavour", "text")


def translation_file(folder: str | Path, lang: str) -> Path:
    return Path(folder) / LANG_FOLDER / f"{lang}.yaml"


class Translated(NamedTuple):
    """A set in another language as the translation files make it: the set, what the files hold that is wrong,
    and where each translated card `text` was written (by card name), for the checks of that text."""

    cs: model.CardSet
    diagnostics: list[Diagnostic]
    texts: dict[str, tuple[str, int, int]]


def translate(cs: model.CardSet, lang: str, warnings: list[Diagnostic] | None = None) -> Translated:
    """`cs` printed in `lang`: the language's catalogue and templates, and the set's translated words.

    A translation file that names a type or card the set lacks is a diagnostic of the result; a language
    cardgen has no catalogue for raises MessagesError. A set without a translation for `lang` keeps its own
    words, with a warning. `cardgen.checks.language.in_language` also checks the translated texts.
    """
    for set_folder in (cs.base, cs.path):
        if set_folder:
            messages.use_set_languages(set_folder)
    messages.check_language(lang)
    messages.template_folder(lang)
    if lang == cs.language:
        return Translated(cs, [], {})
    files = [(Path(f), translation_file(f, lang)) for f in (cs.base, cs.path) if f]
    # a folder, a device or a link there (even a broken one) is reported, not taken for no file
    found = [(folder, f) for folder, f in files if f.exists() or f.is_symlink()]
    if not found:
        if warnings is not None:
            where = str(Path(cs.path) / "set.yaml") if cs.path else cs.name
            warnings.append(Diagnostic(where, 1, 1, f"no {LANG_FOLDER}/{lang}.yaml: the set's own words (title, "
                                       f"type labels, life word, flavour) stay in '{cs.language}'", "warning"))
        return Translated(dataclasses.replace(cs, language=lang), [], {})
    diags: list[Diagnostic] = []
    texts: dict[str, tuple[str, int, int]] = {}
    for folder, path in found:
        doc = read_document(path, str(path), diags, expected="a set's translation", within=folder)
        if doc is not None:
            cs = _apply(cs, doc, diags, texts)
    return Translated(dataclasses.replace(cs, language=lang), diags, texts)


# The longest each translated word may be, and whether it prints on one line: twice set.yaml's limits
# (card-set.schema.json), since a translation runs longer than its English (German by a third). What does not
# fit its place is the layout's to shorten (a title's ellipsis) or refuse (text too long for its box).
_LIMITS: dict[str, tuple[int, bool]] = {"title": (120, True), "label": (120, True), "life_word": (120, True),
                                        "counters_hint": (400, True), "flavour": (400, False), "text": (800, False)}


def translation_codes(cs: model.CardSet) -> list[str]:
    """The languages the set (or its base) has a translation file for, besides its own."""
    folders = [Path(f) for f in (cs.base, cs.path) if f]
    codes = {p.stem for f in folders if (f / LANG_FOLDER).is_dir() for p in (f / LANG_FOLDER).glob("*.yaml")}
    return sorted(codes - {cs.language})


def _text(doc: Document, at: tuple[str | int, ...], value: Any, diags: list[Diagnostic],
          kind: str = "title") -> str | None:
    """A translated word held to what set.yaml holds the original to: non-empty, its length, no hidden characters."""
    where = ".".join(str(a) for a in at)
    limit, one_line = _LIMITS[kind]
    problem = None
    if not isinstance(value, str) or not value.strip():
        problem = "expected a non-empty text"
    elif len(value) > limit:
        problem = f"is too long ({len(value)} characters; at most {limit})"
    elif (hidden := hidden_character(value, one_line)) is not None:
        problem = f"has {hidden}; write plain visible text"
    elif (rtl := right_to_left(value)) is not None:
        problem = RIGHT_TO_LEFT.format(rtl)
    if problem is None:
        return str(value)
    line, col = doc.where(at)
    diags.append(Diagnostic(doc.path, line, col, f"{where}: {problem}"))
    return None


def translated_words(cs: model.CardSet) -> list[tuple[str, str, str, int, int]]:
    """(key, word, file, line, column) of each word the set prints that comes from its `lang/<language>.yaml` (the
    title, type labels, rules words, a card's flavour or text), so a problem found while printing it is told at
    the translation's line, not at the card's in the set's own language."""
    printed: dict[tuple[str, ...], str] = {("title",): cs.title, ("rules", "life_word"): cs.rules.life_word,
                                           ("rules", "counters_hint"): cs.rules.counters_hint}
    printed.update({("types", k): t.label for k, t in cs.types.items()})
    for c in cs.cards:
        printed.update({("cards", c.name, "flavour"): c.flavour or "", ("cards", c.name, "text"): c.text or ""})
    found: dict[tuple[str, ...], tuple[str, str, str, int, int]] = {}
    for folder in (Path(f) for f in (cs.base, cs.path) if f):  # the set's own after its base's, as applied
        path = translation_file(folder, cs.language)
        if not (path.exists() or path.is_symlink()):
            continue
        doc = read_document(path, str(path), [], expected="a set's translation", within=folder)
        if doc is None:
            continue
        for at, word in printed.items():
            value: Any = doc.data
            for key in at:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, str) and value == word and word:
                found[at] = (".".join(at), word, doc.path, *doc.where(at))
    return list(found.values())


def _mapping(doc: Document, at: tuple[str, ...], value: Any, diags: list[Diagnostic]) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    line, col = doc.where(at)
    diags.append(Diagnostic(doc.path, line, col, f"{'.'.join(at) or 'file'}: expected a mapping"))
    return {}


def _apply(cs: model.CardSet, doc: Document, diags: list[Diagnostic],
           texts: dict[str, tuple[str, int, int]]) -> model.CardSet:
    """`cs` with the words of one translation file; `texts` notes where each translated card text is."""
    data = _mapping(doc, (), doc.data, diags)
    for key in data:
        if key not in ("title", "rules", "types", "cards"):
            line, col = doc.where((key,), key=True)
            diags.append(Diagnostic(doc.path, line, col, f"unknown key '{key}' (a translation has title, rules, "
                                    f"types and cards){did_you_mean(key, ['title', 'rules', 'types', 'cards'])}"))
    title = _text(doc, ("title",), data["title"], diags) if "title" in data else None
    rules = cs.rules
    for key, value in _mapping(doc, ("rules",), data.get("rules", {}), diags).items():
        if key not in _RULE_WORDS:
            line, col = doc.where(("rules", key), key=True)
            diags.append(Diagnostic(doc.path, line, col, f"rules.{key}: only {' and '.join(_RULE_WORDS)} are words "
                                    "to translate"))
        elif (word := _text(doc, ("rules", key), value, diags, key)) is not None:
            rules = dataclasses.replace(rules, life_word=word) if key == "life_word" else \
                dataclasses.replace(rules, counters_hint=word)
    types = dict(cs.types)
    for key, value in _mapping(doc, ("types",), data.get("types", {}), diags).items():
        if key not in types:
            line, col = doc.where(("types", key), key=True)
            diags.append(Diagnostic(doc.path, line, col, f"types.{key}: the set has no such type "
                                    f"(it has {', '.join(types)}){did_you_mean(key, list(types))}"))
        elif (label := _text(doc, ("types", key), value, diags, "label")) is not None:
            types[key] = dataclasses.replace(types[key], label=label)
    cards = {c.name: c for c in cs.cards}
    for name, value in _mapping(doc, ("cards",), data.get("cards", {}), diags).items():
        if name not in cards:
            line, col = doc.where(("cards", name), key=True)
            diags.append(Diagnostic(doc.path, line, col, f"cards: the set has no card '{name}'"
                                    f"{did_you_mean(name, list(cards))}"))
            continue
        card = cards[name]
        for key, text in _mapping(doc, ("cards", name), value, diags).items():
            if key not in _CARD_WORDS:
                line, col = doc.where(("cards", name, key), key=True)
                diags.append(Diagnostic(doc.path, line, col, f"cards.{name}.{key}: only flavour and text are "
                                        "words to translate (card names stay as written)"))
            elif (word := _text(doc, ("cards", name, key), text, diags, key)) is not None:
                card = dataclasses.replace(card, flavour=word) if key == "flavour" else \
                    dataclasses.replace(card, text=word)
                if key == "text":
                    texts[name] = (doc.path, *doc.where(("cards", name, key)))
        cards[name] = card
    return dataclasses.replace(cs, title=title or cs.title, rules=rules, types=types,
                               cards=tuple(cards[c.name] for c in cs.cards))
