"""Set names: a valid `name:` made from a folder's name, and two set folders with one set name (a copied folder
keeps the original's `name:`, so its build overwrites the original's output folder and `compare` is headed
`homebrew -> homebrew`: found here, said by the commands)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from cardgen.loader.schema import MAX_SET_NAME
from cardgen.yaml_doc import read_document

MAX_SIBLINGS = 200  # folders beside a set looked at for a namesake; a crowded folder is not searched in full


def set_name_of(folder: Path) -> str | None:
    """The `name:` of the set in `folder`, or None when it has no readable set.yaml."""
    set_file = folder / "set.yaml"
    if not set_file.is_file():
        return None
    doc = read_document(set_file, str(set_file), [])
    name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
    return name if isinstance(name, str) else None


def namesakes(folder: Path, name: str) -> list[Path]:
    """Set folders beside `folder` whose set has the same name (a copy that kept it, or the original)."""
    here = folder.resolve()
    out = []
    try:
        siblings = sorted(p for p in here.parent.iterdir() if p.is_dir() and p != here)[:MAX_SIBLINGS]
    except OSError:
        return []
    for other in siblings:
        if set_name_of(other) == name:
            out.append(other)
    return out


def set_name_for(folder_name: str, prefix: str = "my-", empty: str = "set") -> str:
    """A valid set `name:` made from a folder's name: accents dropped (Über -> uber), other characters a '-',
    `prefix` in front of one not starting with a letter, at most the schema's 40 characters."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", folder_name) if not unicodedata.combining(ch))
    name = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    if not name or not name[0].isalpha():
        name = prefix + (name or empty)
    return name[:MAX_SET_NAME].rstrip("-")
