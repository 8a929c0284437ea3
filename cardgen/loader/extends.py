"""`extends:` — a designer's set that starts from another set and removes, overrides and adds cards.

The base is loaded (recursively, refusing cycles) and its cards are inherited
in order; `remove:` drops cards by name, `override:` changes only the fields
it names, and the set's own `cards:` come after. The deck size follows unless
the set declares one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from cardgen import model
from cardgen.errors import Diagnostic, SetError
from cardgen.loader.card_checks import raw_card_problems, zero_problems
from cardgen.mechanic_registry import card_fields
from cardgen.paths import card_data_dir
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document

# Reads a card's or an override's own `back:` (document, where, raw entry, its type, its label), None on a problem.
OwnBackReader = Callable[[Document, tuple[str | int, ...], dict[str, Any], str, str], model.OwnBack | None]

MAX_EXTENDS_DEPTH = 16  # sets in one `extends:` chain; a deeper one is refused before it exhausts the stack


def _base_folder(folder: Path, ref: str) -> Path | None:
    """The base set's folder: a path relative to this set's folder (./x, ../x), or a bundled set name."""
    from cardgen.loader.load import is_path_like

    if is_path_like(ref):
        return (folder / ref).resolve()
    bundled = card_data_dir() / ref
    return bundled.resolve() if bundled.is_dir() else None


def load_base(folder: Path, ref: str, head: Document, diags: list[Diagnostic],
              stack: tuple[Path, ...]) -> model.CardSet | None:
    """Load the set named by `extends:`; problems are added to `diags` at the `extends` line."""
    from cardgen.loader.load import load_set_with_warnings
    from cardgen.paths import bundled_set_names

    line, col = head.where(("extends",))
    base_folder = _base_folder(folder, ref)
    if base_folder is None or not (base_folder / "set.yaml").is_file():
        where = ("no set folder there (a path is relative to this set's folder)" if "/" in ref or
                 ref.startswith(".") else f"not a bundled set ({', '.join(bundled_set_names())}); write "
                 f"../{ref} for a folder next to this set")
        diags.append(Diagnostic(head.path, line, col, f"extends: no set '{ref}': {where}"
                                f"{did_you_mean(ref, bundled_set_names())}"))
        return None
    if base_folder in stack:
        chain = " -> ".join(p.name for p in (*stack, base_folder))
        diags.append(Diagnostic(head.path, line, col, f"extends: cycle of sets ({chain})"))
        return None
    if len(stack) >= MAX_EXTENDS_DEPTH:
        names = [p.name for p in (*stack, base_folder)]
        chain = " -> ".join(names if len(names) <= 6 else [*names[:3], "...", *names[-2:]])
        diags.append(Diagnostic(head.path, line, col, f"extends: a chain of more than {MAX_EXTENDS_DEPTH} sets "
                                f"({chain}); extend the base set directly"))
        return None
    try:
        base, warnings = load_set_with_warnings(base_folder, stack)
    except SetError as exc:
        diags.append(Diagnostic(head.path, line, col, f"extends: base set '{ref}' has errors (below)"))
        diags.extend(exc.diagnostics)
        return None
    diags.extend(warnings)
    return base


def inherit_cards(base: model.CardSet, head: Document, types: dict[str, model.CardType], origin: str,
                  diags: list[Diagnostic], own_back: OwnBackReader) -> list[model.Card] | None:
    """The base cards after `remove:` and `override:`; None when one of those names no base card. An override's
    `back:` is read by `own_back` (the set folder's image or design)."""
    data = cast(dict[str, Any], head.data)
    by_name = {c.name.casefold(): c for c in base.cards}
    names = [c.name for c in base.cards]
    ok = True
    removed: set[str] = set()
    for i, name in enumerate(data.get("remove", [])):
        if name.casefold() not in by_name:
            line, col = head.where(("remove", i))
            diags.append(Diagnostic(head.path, line, col, f"remove: base set '{base.name}' has no card '{name}'"
                                    f"{did_you_mean(name, names)}"))
            ok = False
        removed.add(name.casefold())
    changed: dict[str, model.Card] = {}
    for i, raw in enumerate(data.get("override", [])):
        key = raw["name"].casefold()
        line, col = head.where(("override", i))
        card = by_name.get(key)
        if key in changed:  # the second would silently win over the first
            first = changed[key]
            diags.append(Diagnostic(head.path, line, col, f"override: '{raw['name']}' is overridden twice (first at "
                                    f"line {first.line}); put every change of one card in one entry"))
            ok = False
            continue
        if key in removed and card is not None:
            diags.append(Diagnostic(head.path, line, col, f"override: '{raw['name']}' is also in `remove:`, so the "
                                    "change would never be seen; keep one of the two"))
            ok = False
            continue
        if card is None:
            diags.append(Diagnostic(head.path, line, col, f"override: base set '{base.name}' has no card "
                                    f"'{raw['name']}'{did_you_mean(raw['name'], names)}"))
            ok = False
            continue
        if "type" in raw and raw["type"] not in types:
            tl, tc = head.where(("override", i, "type"))
            diags.append(Diagnostic(head.path, tl, tc, f"override '{raw['name']}' field `type`: unknown card type "
                                    f"'{raw['type']}'{did_you_mean(raw['type'], list(types))}"))
            ok = False
            continue
        label = f"override '{raw['name']}'"
        problems = raw_card_problems(head, ("override", i), raw, label) + zero_problems(head, ("override", i), raw,
                                                                                        label, base=card)
        if problems:
            diags.extend(problems)
            ok = False
            continue
        fields = {k: v for k, v in card_fields(raw).items() if k not in ("name", "back")}
        if "back" in raw:
            back = own_back(head, ("override", i), raw, raw.get("type", card.type), label)
            if back is None:
                ok = False
                continue
            fields["back"] = back
        changed[key] = dataclasses.replace(card, file=head.path, line=line, column=col, **fields)
    if not ok:
        return None
    out = []
    for c in base.cards:
        key = c.name.casefold()
        if key in removed:
            continue
        out.append(dataclasses.replace(changed.get(key, c), origin=origin))
    return out
