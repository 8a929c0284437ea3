"""Load a card-set folder into the model, collecting every problem before failing.

A set folder holds `set.yaml` (set keys, optionally cards) and any number of
other `*.yaml` files with `cards:`, read in name order; that order is the print
order. The loader parses and builds the `CardSet`, refusing what is malformed;
whether a well-formed set prints and plays is for the passes of `cardgen.checks`,
which read the `LoadedSet` (the set, and where each of its values was written).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
from pathlib import Path
from typing import Any, NamedTuple, cast

from cardgen import messages, model
from cardgen.bounded_read import not_regular
from cardgen.errors import Diagnostic, SetError, UnknownSetError
from cardgen.loader.card_checks import MAX_DESIGNS, head_problems, name_key, raw_card_problems, zero_problems
from cardgen.loader.extends import inherit_cards, load_base
from cardgen.loader.icons import check_icons
from cardgen.loader.look import card_back, check_look
from cardgen.loader.schema import SET_PROPERTIES, SET_REQUIRED, SET_REQUIRED_WHEN_EXTENDING
from cardgen.loader.schema_check import CARD_VALIDATOR, SET_VALIDATOR, check_schema
from cardgen.mechanic_registry import card_fields
from cardgen.paths import bundled_set_names, card_data_dir
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import TOO_MANY_CARDS, Document, read_document

MAX_CARD_FILES = 64
MAX_SET_BYTES = 4_000_000  # all files of a set together (each file: at most yaml_doc.MAX_FILE_BYTES)


def is_path_like(ref: str) -> bool:
    """A set reference written as a path (./mine, ../base, sets/mine) rather than a bare name."""
    return "/" in ref or os.sep in ref or ref.startswith(".")


def resolve_set(ref: str) -> Path:
    """A --set value: a bundled set name, or a path to a set folder.

    A bare name means the bundled set when there is one (so a local folder that
    happens to be called `beer` never silently replaces Beer Money); otherwise a
    folder of that name in the current directory. Write `./beer` for the folder.
    """
    if not ref.strip():
        raise UnknownSetError("empty --set value: give a bundled set name or a set folder")
    if is_path_like(ref):
        return Path(ref)
    bundled = card_data_dir() / ref
    if _is_dir(bundled):
        return bundled
    if _is_dir(Path(ref)):
        return Path(ref)
    names = bundled_set_names()
    raise UnknownSetError(f"unknown set '{ref}': not a bundled set ({', '.join(names)}) "
                          f"nor a set folder{did_you_mean(ref, names)}")


def _is_dir(path: Path) -> bool:
    """`path.is_dir()`, but a name the system cannot even look up (too long, say) is simply not a folder."""
    try:
        return path.is_dir()
    except OSError:
        return False


def shown(path: Path) -> str:
    """The path as the user wrote it, relative to the current folder when it lies inside it."""
    try:  # links are not followed: a file linked out of its set is named where it lies, not where it leads
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):  # outside the current folder
        return str(path)


EDITOR_FILE_PATTERNS: tuple[str, ...] = (".#*", "*~", "*.swp", ".*.tmp")


def is_editor_file(name: str) -> bool:
    """An editor's lock or temporary file (Emacs `.#x`, `x~`, Vim `.x.swp`, atomic-save `.x.tmp`): never a card file."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in EDITOR_FILE_PATTERNS)


def _card_files(folder: Path, diags: list[Diagnostic]) -> list[Path]:
    """The set's YAML files after set.yaml, in name order; editor lock and temp files are skipped with a warning."""
    found = []
    for p in sorted(folder.glob("*.yaml*")):
        if is_editor_file(p.name):
            diags.append(Diagnostic(shown(p), 1, 1, "skipped: an editor's lock or temporary file "
                                    f"({', '.join(EDITOR_FILE_PATTERNS)}), not a card file", "warning"))
        elif p.name.endswith(".yaml") and p.name != "set.yaml":
            found.append(p)
    return found


def card_files(folder: Path) -> list[Path]:
    """The set folder's card files (its YAML files besides set.yaml), in the order they are read."""
    return _card_files(folder, [])


class LoadedSet(NamedTuple):
    """A set as the loader built it, for the checks: the `CardSet`, the documents it was read from (where each
    value was written), what the loader found (errors and warnings, in the order found), and whether every
    file was read and every card taken (whole-set checks mislead otherwise)."""

    cs: model.CardSet
    docs: tuple[Document, ...]
    diagnostics: tuple[Diagnostic, ...]
    complete: bool

    @property
    def head(self) -> Document:
        """set.yaml."""
        return self.docs[0]


def load_set(ref: str | Path) -> model.CardSet:
    """Load one set, parsed and built (`cardgen.checks.load_set` also runs the checks); raises SetError with
    every diagnostic found."""
    return load_set_with_warnings(ref)[0]


def load_set_with_warnings(ref: str | Path, _stack: tuple[Path, ...] = ()) -> tuple[model.CardSet, list[Diagnostic]]:
    """Like `load_set`, also returning the warnings (which do not fail loading).

    `_stack` is the chain of sets being extended, to refuse `extends` cycles.
    """
    loaded = read_set(ref, _stack)
    if any(d.severity == "error" for d in loaded.diagnostics):
        raise SetError(ordered(list(loaded.diagnostics)))
    return loaded.cs, [d for d in loaded.diagnostics if d.severity == "warning"]


def read_set(ref: str | Path, _stack: tuple[Path, ...] = ()) -> LoadedSet:
    """The set as far as it can be built, with every problem the loader found; raises SetError (every
    diagnostic) only when no `CardSet` can be built at all."""
    folder = resolve_set(str(ref)) if isinstance(ref, str) else ref
    shown_folder = shown(folder)
    diags: list[Diagnostic] = []
    if not folder.exists():  # no file to point into: a plain `error:` line naming the folder
        raise UnknownSetError(f"set folder '{shown_folder}' does not exist")
    if not folder.is_dir():
        raise SetError([Diagnostic(shown_folder, 1, 1, "expected a set folder containing set.yaml, got a file")])
    set_file = folder / "set.yaml"
    if set_file.exists() and not set_file.is_file():  # a folder or a FIFO named set.yaml: say so, never read it
        raise SetError([Diagnostic(shown(set_file), 1, 1, f"set.yaml is {not_regular(set_file)}; it must be the "
                                                           "set's YAML file")])
    if not set_file.is_file():
        others = [p.name for p in folder.glob("*.y*ml")]
        hint = did_you_mean("set.yaml", others)
        raise SetError([Diagnostic(shown(set_file), 1, 1, f"missing set.yaml in {shown_folder}{hint}")])
    files = [set_file, *_card_files(folder, diags)]
    if len(files) > MAX_CARD_FILES:
        raise SetError([Diagnostic(shown_folder, 1, 1, f"{len(files)} YAML files, over the limit of "
                                                       f"{MAX_CARD_FILES}")])
    strays = (p for p in folder.iterdir() if p.suffix.lower() in (".yml", ".yaml") and p.suffix != ".yaml")
    for stray in sorted(p for p in strays if not is_editor_file(p.name)):  # 9-x.yml, 9-x.YAML: never read
        diags.append(Diagnostic(shown(stray), 1, 1, "ignored: set files must end in .yaml (rename to "
                                f"{stray.stem}.yaml)", "warning"))
    docs: list[Document] = []
    complete = True  # every file read and every card well-formed: whole-set checks are meaningful
    designs = size = 0
    for f in files:
        size += _size(f)
        if size > MAX_SET_BYTES:
            diags.append(Diagnostic(shown(f), 1, 1, f"the set's files add up to more than {MAX_SET_BYTES} bytes; "
                                    "this file and the ones after it were not read"))
            complete = False
            break
        doc = read_document(f, shown(f), diags, max_cards=MAX_DESIGNS - designs, within=folder)
        if doc is None:
            complete = False
            if designs_refused(diags):
                break  # over the design limit: reading the files after it would only cost time
            continue
        designs += _card_count(doc)
        if not isinstance(doc.data, dict):
            diags.append(Diagnostic(doc.path, 1, 1, "expected a mapping of set keys and/or `cards:`, got "
                                    + ("a list" if isinstance(doc.data, list) else "a single value")))
            complete = False
            continue
        found = check_schema(doc)
        diags.extend(found)
        if found:
            complete = False
        docs.append(doc)
    if not docs or docs[0].path != shown(set_file) or not _head_usable(docs[0]):
        raise SetError(ordered(diags))
    built = _build(folder, docs, diags, (*_stack, folder.resolve()))
    if built is None:
        raise SetError(ordered(diags))
    return LoadedSet(built[0], tuple(docs), tuple(diags), complete and built[1])


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # reading it reports the problem


def _card_count(doc: Document) -> int:
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    return len(cards) if isinstance(cards, list) else 0


def designs_refused(diags: list[Diagnostic]) -> bool:
    """The last file read was refused for holding more cards than the set may still have."""
    return bool(diags) and TOO_MANY_CARDS in diags[-1].message


def ordered(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics by file (set.yaml first, as read), then position; duplicates dropped."""
    order: dict[str, int] = {}
    for d in diags:
        order.setdefault(d.path, len(order))
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=lambda d: (order[d.path], d.line, d.column))


def _head_usable(head: Document) -> bool:
    """set.yaml's own keys (all but `cards`) are valid, so a CardSet can be built around the cards."""
    data = cast(dict[str, Any], head.data)
    return bool(SET_VALIDATOR.is_valid({k: v for k, v in data.items() if k != "cards"}))


def _card_ok(raw: Any) -> bool:
    return isinstance(raw, dict) and bool(CARD_VALIDATOR.is_valid(raw))


def _build(folder: Path, docs: list[Document], diags: list[Diagnostic],
           stack: tuple[Path, ...]) -> tuple[model.CardSet, bool] | None:
    """The set built from its documents, and whether every card was taken; None when set.yaml's keys do not
    make a set (the reason is in `diags`)."""
    head = docs[0]
    data = cast(dict[str, Any], head.data)
    base: model.CardSet | None = None
    if "extends" in data:
        base = load_base(folder, data["extends"], head, diags, stack)
        if base is None:
            return None
    if _head_broken(docs, base, diags):
        return None
    rules_raw = data.get("rules", {})
    types = dict(base.types) if base else {}
    types.update({key: model.CardType(key, t["label"], t["colour"].upper(), model.Role(t["role"]))
                  for key, t in data.get("types", {}).items()})
    if "one_per_own_turn" in rules_raw:
        rules_raw = {**rules_raw, "one_per_own_turn": tuple(rules_raw["one_per_own_turn"])}
    rules = dataclasses.replace(base.rules, **rules_raw) if base else model.Rules(**rules_raw)
    icons = {**(base.icons if base else {}), **check_icons(folder, head, data.get("icons", {}), diags)}
    look = check_look(folder, head, data.get("look", {}), base.look if base else model.Look(), diags)
    for key in look.backs:
        if key not in types:
            line, col = head.where(("look", "backs", key))
            diags.append(Diagnostic(head.path, line, col, f"look.backs.{key}: the set has no card type '{key}' "
                                    f"(it has {', '.join(types)}){did_you_mean(key, list(types))}"))
    cards, complete = _cards(folder, docs, base, types, look, diags)
    equivalences = dict(base.equivalences) if base else {}
    equivalences.update(data.get("equivalences", {}))
    total = sum(c.count for c in cards)
    messages.use_set_languages(folder)  # its lang/<code>/ folders: languages cardgen does not ship
    cs = model.CardSet(name=data["name"], title=data["title"], deck_size=data.get("deck_size", total), rules=rules,
                       types=types, cards=tuple(cards), path=str(folder), equivalences=equivalences,
                       description=data.get("description", base.description if base else ""), icons=icons,
                       base=base.path if base else "", look=look, language=_language(head, data, base, diags))
    return cs, complete


def _head_broken(docs: list[Document], base: model.CardSet | None, diags: list[Diagnostic]) -> bool:
    """set.yaml's keys checked against each other (and set keys written in a card file): True when they do not
    make a set."""
    head = docs[0]
    data = cast(dict[str, Any], head.data)
    broken = False
    for key in ("remove", "override"):
        if key in data and base is None:
            line, col = head.where((key,), key=True)
            diags.append(Diagnostic(head.path, line, col, f"`{key}:` changes the cards of a base set, and this set "
                                    "has no `extends:`; add `extends: <base set>`, or write the cards in `cards:`"))
            broken = True
    for key in SET_REQUIRED_WHEN_EXTENDING if base else SET_REQUIRED:
        if key not in data:
            diags.append(Diagnostic(head.path, 1, 1, f"set.yaml: missing required key '{key}'"))
            broken = True
    for doc in docs[1:]:
        extra = [k for k in cast(dict[str, Any], doc.data) if k != "cards" and k in SET_PROPERTIES]
        for k in extra:
            line, col = doc.where((k,), key=True)
            diags.append(Diagnostic(doc.path, line, col, f"set key '{k}' belongs in set.yaml; card files hold "
                                                         "only `cards:`"))
    diags.extend(head_problems(head))
    rules_raw = data.get("rules", {})
    if base is None:
        for key in ("life", "hand_size"):
            if key not in rules_raw:
                line, col = head.where(("rules",), key=True)
                diags.append(Diagnostic(head.path, line, col, f"rules: missing required key '{key}'"))
                broken = True
    return broken


def _cards(folder: Path, docs: list[Document], base: model.CardSet | None, types: dict[str, model.CardType],
           look: model.Look, diags: list[Diagnostic]) -> tuple[list[model.Card], bool]:
    """The set's cards in print order (the base's after `remove:` and `override:`, then each file's), and
    whether every card was taken."""
    head = docs[0]
    name = cast(dict[str, Any], head.data)["name"]
    cards: list[model.Card] = []
    first_seen: dict[str, tuple[str, int, str]] = {}
    complete = True

    def own_back(doc: Document, at: tuple[str | int, ...], raw: dict[str, Any], type_key: str,
                 label: str) -> model.OwnBack | None:
        return card_back(folder, doc, at, raw, look, type_key, label, diags)

    if base is not None:
        inherited = inherit_cards(base, head, types, name, diags, own_back)
        if inherited is None:
            complete = False
            inherited = []
        for c in inherited:
            cards.append(dataclasses.replace(c, number=len(cards) + 1))
            first_seen[name_key(c.name)] = (c.file, c.line, c.name)
    for doc in docs:
        raws = cast(dict[str, Any], doc.data).get("cards")
        for i, raw in enumerate(raws if isinstance(raws, list) else []):
            card = _card_of(doc, i, raw, types, first_seen, diags)
            if card is None:
                complete = complete and not _card_ok(raw)  # a malformed card left the file incomplete already
                continue
            back = own_back(doc, ("cards", i), card, card["type"], f"card '{card['name']}'")
            cards.append(_card(card, len(cards) + 1, doc.path, *doc.where(("cards", i)), name, back))
    return cards, complete


def _card_of(doc: Document, i: int, raw: Any, types: dict[str, model.CardType],
             first_seen: dict[str, tuple[str, int, str]], diags: list[Diagnostic]) -> dict[str, Any] | None:
    """The raw card `cards[i]` of `doc` when it can be taken, its problems added to `diags`; None when not
    (malformed, of an unknown type, or a second card of one name)."""
    if not _card_ok(raw):
        # the schema check reported the rest; an unknown type is reported in the same pass, not after
        if isinstance(raw, dict) and isinstance(raw.get("type"), str) and raw["type"] not in types:
            diags.append(_unknown_type(doc, i, raw, types))
        return None
    line, _ = doc.where(("cards", i))
    if raw["type"] not in types:
        diags.append(_unknown_type(doc, i, raw, types))
        return None
    label = f"card '{raw['name']}'"
    diags.extend(raw_card_problems(doc, ("cards", i), raw, label) + zero_problems(doc, ("cards", i), raw, label))
    key = name_key(raw["name"])
    if key in first_seen:
        fpath, fline, fname = first_seen[key]
        nl, nc = doc.where(("cards", i, "name"))
        what = (f"duplicate card name '{raw['name']}'" if fname.casefold() == raw["name"].casefold() else
                f"card name '{raw['name']}' looks the same as '{fname}'")
        diags.append(Diagnostic(doc.path, nl, nc, f"{what} (first defined at {fpath}:{fline}); merge them "
                                "and raise `count`, or rename one"))
        return None
    first_seen[key] = (doc.path, line, raw["name"])
    return cast(dict[str, Any], raw)


def _language(head: Document, data: dict[str, Any], base: model.CardSet | None, diags: list[Diagnostic]) -> str:
    """The set's `language:` (its base's, or English), if cardgen has a catalogue for it."""
    lang = data.get("language", base.language if base else messages.DEFAULT_LANGUAGE)
    if lang not in messages.languages():
        line, col = head.where(("language",))
        diags.append(Diagnostic(head.path, line, col, f"language: cardgen has no message catalogue for '{lang}' "
                                f"(it has {', '.join(messages.languages())}; docs/languages.md says how to add one)"))
        return messages.DEFAULT_LANGUAGE
    return str(lang)


def _unknown_type(doc: Document, i: int, raw: dict[str, Any], types: dict[str, model.CardType]) -> Diagnostic:
    line, col = doc.where(("cards", i, "type"))
    who = f"card '{raw['name']}'" if isinstance(raw.get("name"), str) else f"card {i + 1}"
    return Diagnostic(doc.path, line, col, f"{who} field `type`: unknown card type '{raw['type']}'; expected one of "
                      f"{', '.join(types)}{did_you_mean(raw['type'], list(types))}")


def _card(raw: dict[str, Any], number: int, path: str, line: int, col: int, origin: str,
          back: model.OwnBack | None) -> model.Card:
    return model.Card(number=number, file=path, line=line, column=col, origin=origin, back=back,
                      **card_fields({k: v for k, v in raw.items() if k != "back"}))
