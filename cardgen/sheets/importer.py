"""`cardgen import sheet`: a spreadsheet of cards becomes `SETDIR/cards.yaml`, checked like any set first.

The sheet is read, checked cell by cell against the card schema, written as
YAML into a scratch copy of the set folder beside the real one, and loaded
there with the full loader. Only when the whole set is valid are the files
written (each by temp file and rename); every problem is reported at the
sheet's row and column, all in one pass (an unreadable cell does not hide an unknown
type). The sheet holds cards only: the set's name, rules and types come from the
folder's `set.yaml`, or, for a new folder, from `--base`.

The sheet is the set's own cards. In a set that `extends:` another, a row naming
a base card is an override: only the fields that differ from the base card are
written, to set.yaml's `override:` list (the rest of set.yaml is kept as written).
The other rows go to the set's card file: `cards.yaml`, or the set's only card file
when it has just one (`cardgen new` writes `my-cards.yaml`); further card files,
whose cards the sheet now holds, are kept as `NAME.yaml.bak`. The scratch copy holds
the set folder's regular files and folders; links are copied as links, never
followed (a link to `/dev/zero` or to a large folder elsewhere costs nothing), and
FIFOs and devices are left out.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from cardgen.checks import load_set, load_set_with_warnings
from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.loader.card_checks import name_key
from cardgen.loader.load import card_files, is_path_like
from cardgen.loader.same_name import set_name_for
from cardgen.loader.schema import SCHEMA_FILE, schema_json
from cardgen.model import Card, CardSet
from cardgen.output import not_a_file_to_replace, write_atomic
from cardgen.sheets.columns import raw_card
from cardgen.sheets.parse import parse_table
from cardgen.sheets.read import read_table
from cardgen.yaml_doc import Document, read_document

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
    """The editor hint every set file starts with, as `cardgen new` writes it: the schema file beside the set's
    files, named relatively (an absolute file:// path breaks when the set is moved or shared)."""
    return f"# yaml-language-server: $schema={SCHEMA_FILE}\n"


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
        "types": {k: {"label": t.label, "colour": t.colour, "role": str(t.role)} for k, t in base.types.items()},
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


def copy_set_folder(src: Path, dst: Path) -> None:
    """Copy what a set folder is made of into `dst`: its regular files and folders (hidden ones left out).

    A symbolic link is recreated as a link, never followed, so a link to `/dev/zero` or to a large folder
    elsewhere is not read; an absolute link into the folder is made relative, so the copy reads its own
    file. FIFOs, sockets and devices are left out (reading one would block or never end).
    """
    top = src.resolve()
    for root, dirs, files in os.walk(src, followlinks=False):
        here = Path(root)
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        into = dst / here.relative_to(src)
        into.mkdir(parents=True, exist_ok=True)
        for name in [*dirs, *files]:
            if name.startswith("."):
                continue
            source, target = here / name, into / name
            if source.is_symlink():
                link = os.readlink(source)
                if os.path.isabs(link):
                    resolved = Path(link).resolve()
                    if resolved.is_relative_to(top):
                        link = os.path.relpath(resolved, here.resolve())
                os.symlink(link, target)
            elif name in files and stat.S_ISREG(source.lstat().st_mode):
                shutil.copyfile(source, target)


def _set_name(folder: Path) -> str:
    return set_name_for(folder.resolve().name, prefix="set-", empty="imported")


Where = dict[int, tuple[int, str]]  # line of a written file -> (card index in the sheet, top-level field)


def _to_sheet(d: Diagnostic, scratch: Path, into: Path, doc: Document, where: dict[str, Where]) -> Diagnostic:
    """A loader diagnostic on the scratch copy, moved to the sheet cell (or the real folder's file)."""
    message = _unscratched(d.message, scratch, into, doc, where)
    lines = where.get(Path(d.path).name)
    if lines is not None and Path(d.path).resolve().parent == scratch.resolve():
        hit = lines.get(d.line)
        if hit is None and Path(d.path).name == "set.yaml":  # the set's own problem, at its own line
            return Diagnostic(_unscratched(d.path, scratch, into, doc, where), d.line, d.column, message, d.severity)
        if hit is None:
            return Diagnostic(doc.path, 1, 1, message, d.severity)
        i, key = hit
        named = re.search(r"field `([a-z_]+(?:\.[a-z_]+)?)`", d.message)
        if named and (key == "" or named.group(1).split(".")[0] == key):
            at: tuple[str | int, ...] = ("cards", i, *named.group(1).split("."))
        else:
            at = ("cards", i, key) if key else ("cards", i)
        row, col = doc.where(at)
        return Diagnostic(doc.path, row, col, message, d.severity)
    return Diagnostic(_unscratched(d.path, scratch, into, doc, where), d.line, d.column, message, d.severity)


def _unscratched(text: str, scratch: Path, into: Path, doc: Document, where: dict[str, Where]) -> str:
    """`text` with the scratch folder's written files as sheet rows and the scratch folder as the real one."""
    for form in (str(scratch.resolve()), str(scratch), os.path.relpath(scratch)):
        for file, lines in where.items():
            def sheet_row(m: re.Match[str], lines: Where = lines) -> str:
                hit = lines.get(int(m.group(1)))
                return f"{doc.path}:{doc.where(('cards', hit[0]))[0]}" if hit else doc.path

            text = re.sub(re.escape(form + os.sep + file) + r":(\d+)", sheet_row, text)
        text = text.replace(form, str(into))
    return text


@dataclass(frozen=True)
class _Target:
    """Where an import writes in an existing set folder."""

    card_file: str  # the file that takes the sheet's own cards
    superseded: list[Path]  # further card files, kept as .bak
    set_text: str | None  # set.yaml rewritten (overrides; no `cards:`), or None to leave it alone
    override_lines: Where


def _base_cards(into: Path, head: Document) -> list[Card]:
    """The cards a set inherits (after `remove:`), or none when it extends nothing (or a base that fails)."""
    data = head.data if isinstance(head.data, dict) else {}
    ref = data.get("extends")
    if not isinstance(ref, str):
        return []
    base_ref: str | Path = (into / ref).resolve() if is_path_like(ref) else ref
    try:
        base = load_set(base_ref)
    except CardgenError:
        return []  # loading the scratch copy reports the base's problems at the `extends` line
    removed = {str(n).casefold() for n in data.get("remove", []) if isinstance(n, str)}
    return [c for c in base.cards if c.name.casefold() not in removed]


def _override(row: dict[str, Any], base: Card) -> dict[str, Any]:
    """The fields of a sheet row that differ from the base card it names (a cleared cell keeps the base's)."""
    was = raw_card(base)
    return {"name": base.name, **{k: v for k, v in row.items() if k != "name" and was.get(k) != v}}


def replace_block(text: str, doc: Document, key: str, block: str) -> str:
    """set.yaml's text with the top-level `key` (and everything under it) replaced by `block` ('' drops it);
    the comments and blank lines before the next key stay, and a missing key is added at the end."""
    lines = text.splitlines(keepends=True)
    tops = sorted(line for path, (line, _col) in doc.key_marks.items() if len(path) == 1)
    if (key,) in doc.key_marks:
        start = doc.key_marks[(key,)][0] - 1
        end = next((line - 1 for line in tops if line - 1 > start), len(lines))
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        lines[start:end] = [block] if block else []
        return "".join(lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines) + block


def _existing_target(into: Path, cards: list[dict[str, Any]]) -> tuple[_Target, list[dict[str, Any]],
                                                                      list[int]]:
    """How the sheet's rows split between set.yaml's overrides and the card file, for an existing set."""
    set_file = into / "set.yaml"
    head = read_document(set_file, str(set_file), [])
    others = [p for p in card_files(into)]
    names = [p.name for p in others]
    card_file = CARDS_FILE if CARDS_FILE in names or len(others) != 1 else names[0]
    superseded = [p for p in others if p.name != card_file]
    if head is None or not isinstance(head.data, dict):
        return _Target(card_file, superseded, None, {}), cards, list(range(len(cards)))
    base = {name_key(c.name): c for c in _base_cards(into, head)}
    own: list[int] = []
    overrides: list[tuple[int, dict[str, Any]]] = []
    for i, row in enumerate(cards):
        found = base.get(name_key(str(row.get("name", ""))))
        if found is None:
            own.append(i)
        elif len(change := _override(row, found)) > 1:  # a row equal to its base card needs no override
            overrides.append((i, change))
    text = head_text = set_file.read_text(encoding="utf-8")
    if overrides or "override" in head.data:
        block = "".join(f"  - {_flow(o)}\n" for _i, o in overrides)
        text = replace_block(text, head, "override", f"override:\n{block}" if overrides else "")
    if "cards" in head.data:  # the sheet holds these now: left in set.yaml they would be duplicates
        again = Document(head.path, head.data, head.marks, head.key_marks) if text == head_text else \
            read_document_text(text, head.path)
        if again is not None:
            text = replace_block(text, again, "cards", "")
    where: Where = {}
    if overrides:
        again = read_document_text(text, head.path)
        if again is not None:
            for k, (i, _o) in enumerate(overrides):
                where[again.where(("override", k))[0]] = (i, "")
    return _Target(card_file, superseded, text if text != head_text else None, where), \
        [cards[i] for i in own], own


def read_document_text(text: str, shown: str) -> Document | None:
    from cardgen.yaml_doc import parse_text

    return parse_text(text, shown, [])


def import_sheet(sheet: Path, into: Path, base: str | None = None, shown: str | None = None) -> Imported:
    """Check the sheet as a set with `into`'s set.yaml (or `base`'s rules) and write `into`'s cards."""
    shown = shown or str(sheet)
    set_file = into / "set.yaml"
    new_set: str | None = None
    base_set: CardSet | None = None
    if into.exists() and not into.is_dir():
        raise SheetImportError(f"{into} is a file; --into takes a set folder")
    diags: list[Diagnostic] = []
    unreadable: set[tuple[int, str]] = set()
    doc, _rows = parse_table(read_table(sheet, shown), diags, unreadable)
    if any(d.severity == "error" and d.line == 1 for d in diags) or (not doc.data["cards"] and diags):
        raise SetError(diags)  # a header that cannot be read: the rows would only add noise
    cards: list[dict[str, Any]] = doc.data["cards"]
    if not cards:
        raise SetError([Diagnostic(shown, 2, 1, "no cards: the sheet has a header row but no card rows")])
    target = _Target(CARDS_FILE, [], None, {})
    own, own_index = cards, list(range(len(cards)))
    if not set_file.is_file():
        if base is None:
            raise SheetImportError(f"{into} has no set.yaml: pass --base classic|lunch|beer (or a set folder) to "
                               "start a new set with that set's rules and card types")
        base_set = load_set(base)
        new_set = set_yaml_like(base_set, _set_name(into), cards)
    else:
        target, own, own_index = _existing_target(into, cards)
    text, own_where = cards_yaml(own, shown)
    where = {target.card_file: {line: (own_index[i], key) for line, (i, key) in own_where.items()},
             "set.yaml": target.override_lines}
    for name in (target.card_file, "set.yaml"):  # the scratch copy would fail on these with its own path
        if (why := not_a_file_to_replace(into / name)) is not None:
            raise SheetImportError(f"cannot write {into / name}: {why}; move it away")
    into.resolve().parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{into.resolve().name}.import-", dir=into.resolve().parent))
    try:
        if into.is_dir():
            copy_set_folder(into, scratch)
        if base_set is not None and new_set is not None:
            (scratch / "set.yaml").write_text(new_set, encoding="utf-8")
            _copy_icons(base_set, scratch)
        if target.set_text is not None:
            (scratch / "set.yaml").unlink(missing_ok=True)
            (scratch / "set.yaml").write_text(target.set_text, encoding="utf-8")
        for old in target.superseded:
            (scratch / old.name).unlink(missing_ok=True)
        (scratch / target.card_file).unlink(missing_ok=True)  # a link is replaced, never written through
        (scratch / target.card_file).write_text(text, encoding="utf-8")
        try:
            cs, warnings = load_set_with_warnings(scratch)
        except SetError as exc:
            found = [_to_sheet(d, scratch, into, doc, where) for d in exc.diagnostics]
            raise SetError(_merged(diags, found, unreadable)) from None
        warnings = [_to_sheet(d, scratch, into, doc, where) for d in warnings]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if any(d.severity == "error" for d in diags):
        raise SetError(diags)
    written = []
    if base_set is not None and new_set is not None:
        written.extend(_copy_icons(base_set, into))
        write_atomic(set_file, new_set.encode("utf-8"))
        written.append(set_file)
    if not (into / SCHEMA_FILE).exists():
        write_atomic(into / SCHEMA_FILE, schema_json().encode("utf-8"))
        written.append(into / SCHEMA_FILE)
    if target.set_text is not None:
        write_atomic(set_file, target.set_text.encode("utf-8"))
        written.append(set_file)
    for old in target.superseded:
        old.replace(old.with_name(old.name + ".bak"))
        written.append(old.with_name(old.name + ".bak"))
    write_atomic(into / target.card_file, text.encode("utf-8"))
    written.append(into / target.card_file)
    return Imported(written, cs.total, len(cs.cards), warnings)


def _merged(first: list[Diagnostic], found: list[Diagnostic], unreadable: set[tuple[int, str]]) -> list[Diagnostic]:
    """The sheet's own diagnostics, then the loader's that say something new (not about a cell already
    reported as unreadable, nor a repeat)."""
    def about_unreadable(d: Diagnostic) -> bool:
        return any(d.line == r and (f"field `{key}" in d.message or d.message.endswith(f"key '{key}'"))
                   for r, key in unreadable)

    seen = {(d.line, d.column, d.message) for d in first}
    sheet = first[0].path if first else ""
    out = list(first)
    for d in found:
        if (d.line, d.column, d.message) in seen or (d.path == sheet and about_unreadable(d)):
            continue
        seen.add((d.line, d.column, d.message))
        out.append(d)
    return sorted(out, key=lambda d: (d.path != out[0].path, d.line, d.column)) if out else out
