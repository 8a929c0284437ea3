"""Two set folders with one set name: a copied folder keeps the original's `name:`, so its build overwrites the
original's output folder and `compare` is headed `homebrew -> homebrew`. Found here, said by the commands."""

from __future__ import annotations

from pathlib import Path

from cardgen.loader.yaml_doc import read_document

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
