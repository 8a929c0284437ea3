"""The words cardgen prints that are not a set's own data, from a catalogue per language.

`templates/messages/<lang>.yaml` holds the short words (value captions, badges, sheet notes, the
assembly page, the joins of lists); the sentences of the card text and the rules page are Jinja
templates (`templates/card_text.j2` and `templates/rules/` in English, `templates/i18n/<lang>/` in
another language). Kept as data so a sentence is edited, or a language added, without touching code.
Every catalogue has the keys of `en.yaml` (tests/test_languages.py); a key one lacks is reported as
`file:line` of the catalogue, not as a traceback.

A language cardgen does not ship can come from outside the install, as a folder `<code>/` holding its
`messages.yaml` and its templates (the layout `templates/i18n/<code>/` has): a set's `lang/<code>/`
(taken when the set is loaded), or the user's language folder (`$CARDGEN_LANGUAGES`, else
`$XDG_CONFIG_HOME/cardgen/languages`, else `~/.config/cardgen/languages`). A shipped language always
comes from the install. Templates from outside run in Jinja's sandbox, like a set's own templates.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.bounded_read import UnreadableFile, read_capped
from cardgen.errors import CardgenError
from cardgen.paths import templates_dir

DEFAULT_LANGUAGE = "en"
I18N = "i18n"  # templates/i18n/<lang>/: a language's own card-text and rules-page templates
LANG_FOLDER = "lang"  # a set's translations (lang/<code>.yaml) and languages of its own (lang/<code>/)
CATALOGUE_FILE = "messages.yaml"  # a language folder's catalogue, beside its templates
LANGUAGES_ENV = "CARDGEN_LANGUAGES"  # the user's language folder
TEMPLATE_FILES = ("card_text.j2", "card_summary.j2", "rules/page.j2", "rules/glossary.j2")
MAX_CATALOGUE_BYTES = 1_000_000  # English's is about 20 kB
_FROM_SETS: dict[str, Path] = {}  # languages the loaded sets brought, by code


class MessagesError(CardgenError):
    """A message catalogue that is missing or lacks a key."""


def user_languages_dir() -> Path:
    """The user's own language folder (it need not exist)."""
    given = os.environ.get(LANGUAGES_ENV)
    if given:
        return Path(given)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "cardgen" / "languages"


def _shipped() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (templates_dir() / "messages").glob("*.yaml")))


def _language_folders(root: Path) -> dict[str, Path]:
    """The language folders under `root`: sub-folders holding a catalogue."""
    if not root.is_dir():
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / CATALOGUE_FILE).is_file()}


def use_set_languages(set_folder: str | Path) -> tuple[str, ...]:
    """Take the languages a set folder brings in its `lang/<code>/` folders (not those cardgen ships); the codes."""
    found = {c: p.resolve() for c, p in _language_folders(Path(set_folder) / LANG_FOLDER).items()
             if c not in _shipped()}
    changed = {c for c, p in found.items() if _FROM_SETS.get(c) != p}
    if changed:
        _FROM_SETS.update(found)
        catalogue.cache_clear()
        bold_words.cache_clear()
    return tuple(sorted(found))


def language_folder(lang: str) -> Path | None:
    """Where a language that does not ship with cardgen comes from (a set's or the user's folder); None for a
    shipped language or one cardgen does not have."""
    if lang in _shipped():
        return None
    return _FROM_SETS.get(lang) or _language_folders(user_languages_dir()).get(lang)


def catalogue_path(lang: str) -> Path:
    own = language_folder(lang)
    return own / CATALOGUE_FILE if own is not None else templates_dir() / "messages" / f"{lang}.yaml"


def languages() -> tuple[str, ...]:
    """The languages cardgen can print in: those with a message catalogue, shipped or brought."""
    return tuple(sorted({*_shipped(), *_FROM_SETS, *_language_folders(user_languages_dir())}))


def check_language(lang: str) -> str:
    """`lang`, if cardgen has a catalogue for it (a brought one with every key English has); else a
    MessagesError naming the ones it has."""
    if lang not in languages():
        raise MessagesError(f"no message catalogue for language '{lang}' (cardgen has {', '.join(languages())}; "
                            f"a new one is the folder lang/{lang}/ of a set or {user_languages_dir() / lang}, "
                            f"made by `cardgen new-language {lang}`, see docs/languages.md)")
    if language_folder(lang) is not None:
        _check_complete(lang)
    return lang


def _leaves(node: Any, prefix: str = "") -> list[str]:
    if isinstance(node, dict) and prefix != "plural_forms.":
        return [k for key, value in node.items() for k in _leaves(value, f"{prefix}{key}.")]
    return [prefix.rstrip(".")]


def _check_complete(lang: str) -> None:
    """A brought catalogue has every key English has, and the folder every template: else each missing one."""
    missing = sorted(set(_leaves(catalogue(DEFAULT_LANGUAGE))) - set(_leaves(catalogue(lang))))
    if missing:
        raise missing_key_error(missing[0], lang, more=len(missing) - 1)
    folder = language_folder(lang)
    assert folder is not None
    for name in TEMPLATE_FILES:
        if not (folder / name).is_file():
            raise MessagesError(f"{folder / name}:1:1: error: language '{lang}' has no template {name} "
                                f"(`cardgen new-language {lang}` writes English ones to translate)")


@cache
def catalogue(lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    from cardgen.yaml_doc import read_plain

    path = catalogue_path(lang)
    try:
        if language_folder(lang) is None:
            text = path.read_text(encoding="utf-8")
        else:  # brought with a set or by the user: a regular file of a catalogue's size, like a set's own files
            text = read_capped(path, MAX_CATALOGUE_BYTES, "message catalogue").decode("utf-8")
        data = read_plain(text)
    except OSError as exc:
        raise MessagesError(f"no message catalogue for language '{lang}' ({path}): {exc.strerror}") from None
    except UnicodeDecodeError:
        raise MessagesError(f"{path}:1:1: error: a message catalogue must be UTF-8 text") from None
    except UnreadableFile as exc:
        raise MessagesError(f"{path}:1:1: error: {exc}") from None
    if not isinstance(data, dict):
        raise MessagesError(f"{path}:1:1: error: expected a mapping of message keys")
    return data


def _line_of(path: Path, key: tuple[str, ...]) -> int:
    """The line of `key` in a catalogue file, or of its nearest parent that is there (1: none is)."""
    from cardgen.errors import Diagnostic
    from cardgen.yaml_doc import read_document

    diags: list[Diagnostic] = []
    doc = read_document(path, str(path), diags, expected="a message catalogue")
    if doc is None:
        return 1
    probe = key
    while probe and probe not in doc.key_marks:
        probe = probe[:-1]
    return doc.key_marks[probe][0] if probe else 1


def missing_key_error(key: str, lang: str, more: int = 0) -> MessagesError:
    """The error for a catalogue without `key` (and `more` others): where it should be, and where English has it."""
    parts = tuple(key.split("."))
    path = catalogue_path(lang)
    where = f"{path}:{_line_of(path, parts)}:1"
    hint = ""
    if lang != DEFAULT_LANGUAGE:
        en = catalogue_path(DEFAULT_LANGUAGE)
        hint = f" ({en}:{_line_of(en, parts)} has it)"
    others = f", and {more} more key{'s' if more != 1 else ''} English has" if more else ""
    return MessagesError(f"{where}: error: message catalogue '{lang}' has no '{key}'{hint}{others}")


def message(key: str, lang: str = DEFAULT_LANGUAGE) -> Any:
    """The entry at a dotted `key` (a string, or a list of strings for steps)."""
    node: Any = catalogue(lang)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise missing_key_error(key, lang)
        node = node[part]
    return node


def text(key: str, lang: str = DEFAULT_LANGUAGE, **fields: object) -> str:
    """The message at `key` with its `{name}` fields filled in."""
    try:
        return str(message(key, lang)).format(**fields)
    except (KeyError, IndexError) as exc:
        path = catalogue_path(lang)
        raise MessagesError(f"{path}:{_line_of(path, tuple(key.split('.')))}:1: error: message '{key}' uses the "
                            f"field {exc} that cardgen does not fill in here") from None


def counted(key: str, lang: str, n: int) -> str:
    """A count in the words of the table at `key` ({one: ..., other: "{n} ..."}): "a card", "2 cards".

    The form is the language's CLDR plural category of `n` (a language with "few" or "two" may give them);
    `other` stands in for a category the table does not give."""
    forms = message(key, lang)
    return str(forms.get(plural_category(n, lang), forms["other"])).format(n=n)


def keyword(kind: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A mechanic's word as cards print it in capitals (dodge -> DODGE, AUSWEICHEN); the key itself in
    capitals for a combo or kind the catalogue does not name (a set's own combo, 'power-play')."""
    words = message("keywords", lang)
    entry = words.get(kind) if isinstance(words, dict) else None
    if entry is None:
        return kind.upper()
    return str(entry[0] if isinstance(entry, list) else entry)


@cache
def bold_words(lang: str) -> frozenset[str]:
    """Every form of every mechanic's word in `lang` (`keywords` and `check_text.keywords`): what card text
    sets in bold, in a script without capitals too."""
    out: set[str] = set()
    for entry in (message("keywords", lang), message("check_text", lang).get("keywords", {})):
        for forms in (entry.values() if isinstance(entry, dict) else ()):
            out.update(str(f) for f in (forms if isinstance(forms, list) else [forms]))
    return frozenset(out)


def turn_letters(lang: str) -> str:
    """The letters after a number of turns that card text sets in bold (2T, 2Z): English's, German's and `lang`'s."""
    return "TZ" + str(message("check_text", lang).get("turns", ""))


def keyword_forms(kind: str, lang: str) -> tuple[str, ...]:
    """Every capitalised form of a mechanic's word in `lang` (a keyword icon is drawn before any of them)."""
    words = message("keywords", lang)
    entry = words.get(kind) if isinstance(words, dict) else None
    if entry is None:
        return (kind.upper(),)
    return tuple(str(w) for w in entry) if isinstance(entry, list) else (str(entry),)


def plural_category(n: int, lang: str) -> str:
    """The CLDR plural category of `n` in `lang` ('one', 'few', 'other'...), by Babel's copy of the CLDR rules."""
    return str(_plural_rule(lang)(n))


@cache
def _plural_rule(lang: str) -> Any:
    """The language's CLDR plural rule, from its own locale file or its language's (pt_BR -> pt), else
    English's. One locale file is a fraction of loading the whole inherited locale."""
    from babel import localedata  # only a count in a sentence needs it

    code = lang.replace("-", "_")
    for candidate in (code, code.split("_")[0], DEFAULT_LANGUAGE):
        if localedata.exists(candidate):
            rule = localedata.load(candidate, merge_inherited=False).get("plural_form")
            if rule is not None:
                return rule
    raise MessagesError(f"Babel has no plural rules for '{lang}' nor for English")


def plural(word: str, n: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """`word` (as a set writes it, in its plural) in the form for `n`: the catalogue's `plural_forms` entry
    for it (`counters: {one: counter}`) under `n`'s CLDR category; the word itself when none is given."""
    forms = catalogue(lang).get("plural_forms")
    entry = forms.get(word) if isinstance(forms, dict) else None
    if not isinstance(entry, dict) or not entry:
        return word  # no other form: no need to ask the rules
    return str(entry.get(plural_category(n, lang), word))


def or_list(words: list[str], lang: str = DEFAULT_LANGUAGE, join: str = "or") -> str:
    """'A, B or C' in the language's words ('A, B oder C')."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {message('words.' + join, lang)} " + words[-1]


def template_folder(lang: str) -> Path | None:
    """The folder of a language's own card-text and rules templates (None for English, the bundled ones)."""
    if lang == DEFAULT_LANGUAGE:
        return None
    folder = language_folder(lang) or templates_dir() / I18N / lang
    if not folder.is_dir():
        raise MessagesError(f"{folder}: error: language '{lang}' has a message catalogue but no templates "
                            "(card_text.j2, card_summary.j2, rules/page.j2, rules/glossary.j2)")
    return folder
