"""`cardgen import sheet`: a spreadsheet of cards becomes `SETDIR/cards.yaml`, checked like any set first.

The sheet is read, checked cell by cell against the card schema, written as
YAML into a scratch copy of the set folder beside the real one, and loaded
there with the full loader. Only when the whole set is valid are the files
written (each by temp file and rename); every problem is reported at the
sheet's row and column. The sheet holds cards only: the set's name, rules and
types come from the folder's `set.yaml`, or, for a new folder, from `--base`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.loader import load_set, load_set_with_warnings
from cardgen.loader.yaml_doc import Document
from cardgen.model import CardSet
from cardgen.output import write_atomic
from cardgen.paths import card_data_dir
from cardgen.sheets.parse import parse_table
from cardgen.sheets.read import read_table

CARDS_FILE = "cards.yaml"


class SheetImportError(CardgenError):
    """The target folder cannot take the import (no set.yaml and no --base, ...)."""


@dataclass(frozen=True)
class Imported:
    """What an import wrote, and the set it makes."""

    written: list[Path]
    cards: int
    designs: int
    warnings: list[Diagnostic]


def schema_line() -> str:
    """The editor hint every set file starts with (as `cardgen new` writes it)."""
    return f"# yaml-language-server: $schema={(card_data_dir().resolve() / 'card-set.schema.json').as_uri()}\n"


def _flow(value: Any) -> str:
    """One YAML value on one line (strings quoted where YAML needs it, multi-line text escaped)."""
    if isinstance(value, str) and ("\n" in value or "\r" in value):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1_000_000, sort_keys=False)
    return text.removesuffix("\n...\n").rstrip("\n")


def cards_yaml(cards: list[dict[str, Any]], sheet: str) -> tuple[str, dict[int, tuple[int, str]]]:
    """The card file text, and for each of its lines the card index and top-level field it holds."""
    lines = [schema_line().rstrip("\n"), f"# Imported from {Path(sheet).name} by `cardgen import sheet`; edit the "
             "sheet and import again, or edit here.", "cards:"]
    where: dict[int, tuple[int, str]] = {}
    for i, card in enumerate(cards):
        for j, (key, value) in enumerate(card.items()):
            lines.append(f"{'  - ' if j == 0 else '    '}{key}: {_flow(value)}")
            where[len(lines)] = (i, key)
    return "\n".join(lines) + "\n", where


def set_yaml_like(base: CardSet, name: str, cards: list[dict[str, Any]]) -> str:
    """A stand-alone set.yaml with `base`'s rules and types, named `name`, sized for `cards`."""
    names = {c.get("name") for c in cards}
    data: dict[str, Any] = {
        "name": name, "title": name.replace("-", " ").title(),
        "description": f"Imported from a spreadsheet, with the rules and card types of {base.title}.",
        "deck_size": sum(int(c.get("count", 0)) for c in cards),
        "rules": dataclasses.asdict(base.rules),
        "types": {k: {"label": t.label, "colour": t.colour, "role": t.role} for k, t in base.types.items()},
    }
    equivalences = {k: v for k, v in base.equivalences.items() if k in names}
    if equivalences:
        data["equivalences"] = equivalences
    if base.icons:
        data["icons"] = {key: icon_file(key, path) for key, path in sorted(base.icons.items())}
    return schema_line() + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def icon_file(key: str, path: str) -> str:
    """Where a base set's icon goes in the new set folder."""
    return f"icons/{key}{Path(path).suffix.lower()}"


def _copy_icons(base: CardSet, folder: Path) -> list[Path]:
    out = []
    for key, path in sorted(base.icons.items()):
        target = folder / icon_file(key, path)
        write_atomic(target, Path(path).read_bytes())
        out.append(target)
    return out


def _set_name(folder: Path) -> str:
    name = re.sub(r"[^a-z0-9-]+", "-", folder.resolve().name.lower()).strip("-")
    return name if name and name[0].isalpha() else f"set-{name or 'imported'}"


def _to_sheet(d: Diagnostic, scratch: Path, into: Path, doc: Document, where: dict[int, tuple[int, str]]) -> Diagnostic:
    """A loader diagnostic on the scratch copy, moved to the sheet cell (or the real folder's file)."""
    message = _unscratched(d.message, scratch, into, doc, where)
    if Path(d.path).name == CARDS_FILE and Path(d.path).resolve().parent == scratch.resolve():
        hit = where.get(d.line)
        if hit is None:
            return Diagnostic(doc.path, 1, 1, message, d.severity)
        i, key = hit
        nested = re.search(rf"field `({re.escape(key)}\.[a-z_]+)`", d.message)
        row, col = doc.where(("cards", i, *(nested.group(1).split(".") if nested else [key])))
        return Diagnostic(doc.path, row, col, message, d.severity)
    return Diagnostic(_unscratched(d.path, scratch, into, doc, where), d.line, d.column, message, d.severity)


def _unscratched(text: str, scratch: Path, into: Path, doc: Document, where: dict[int, tuple[int, str]]) -> str:
    """`text` with the scratch folder's card file as sheet rows and the scratch folder as the real one."""
    for form in (str(scratch.resolve()), str(scratch), os.path.relpath(scratch)):
        def sheet_row(m: re.Match[str]) -> str:
            hit = where.get(int(m.group(1)))
            return f"{doc.path}:{doc.where(('cards', hit[0]))[0]}" if hit else doc.path

        text = re.sub(re.escape(form + os.sep + CARDS_FILE) + r":(\d+)", sheet_row, text)
        text = text.replace(form, str(into))
    return text


def import_sheet(sheet: Path, into: Path, base: str | None = None, shown: str | None = None) -> Imported:
    """Check the sheet as a set with `into`'s set.yaml (or `base`'s rules) and write `into/cards.yaml`."""
    shown = shown or str(sheet)
    set_file = into / "set.yaml"
    new_set: str | None = None
    base_set: CardSet | None = None
    if into.exists() and not into.is_dir():
        raise SheetImportError(f"{into} is a file; --into takes a set folder")
    diags: list[Diagnostic] = []
    doc, _rows = parse_table(read_table(sheet, shown), diags)
    if any(d.severity == "error" for d in diags):
        raise SetError(diags)
    cards: list[dict[str, Any]] = doc.data["cards"]
    if not cards:
        raise SetError([Diagnostic(shown, 2, 1, "no cards: the sheet has a header row but no card rows")])
    if not set_file.is_file():
        if base is None:
            raise SheetImportError(f"{into} has no set.yaml: pass --base classic|lunch|beer (or a set folder) to "
                               "start a new set with that set's rules and card types")
        base_set = load_set(base)
        new_set = set_yaml_like(base_set, _set_name(into), cards)
    text, where = cards_yaml(cards, shown)
    into.resolve().parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{into.resolve().name}.import-", dir=into.resolve().parent))
    try:
        if into.is_dir():
            shutil.copytree(into, scratch, dirs_exist_ok=True)
        if base_set is not None and new_set is not None:
            (scratch / "set.yaml").write_text(new_set, encoding="utf-8")
            _copy_icons(base_set, scratch)
        (scratch / CARDS_FILE).write_text(text, encoding="utf-8")
        try:
            cs, warnings = load_set_with_warnings(scratch)
        except SetError as exc:
            raise SetError([_to_sheet(d, scratch, into, doc, where) for d in exc.diagnostics]) from None
        warnings = [_to_sheet(d, scratch, into, doc, where) for d in warnings]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    written = []
    if base_set is not None and new_set is not None:
        written.extend(_copy_icons(base_set, into))
        write_atomic(set_file, new_set.encode("utf-8"))
        written.append(set_file)
    write_atomic(into / CARDS_FILE, text.encode("utf-8"))
    written.append(into / CARDS_FILE)
    return Imported(written, cs.total, len(cs.cards), warnings)
