"""`cardgen new`: a designer's set folder that validates and builds straight away."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from cardgen.errors import CardgenError
from cardgen.loader import load_set
from cardgen.loader.same_name import set_name_for
from cardgen.loader.schema import SCHEMA_FILE, schema_json
from cardgen.output import write_atomic
from cardgen.paths import bundled_set_names, templates_dir

SCAFFOLD_DIR = "new_set"
SCAFFOLD_FILES: tuple[tuple[str, str], ...] = (
    ("set.yaml.j2", "set.yaml"), ("my-cards.yaml.j2", "my-cards.yaml"), ("README.md.j2", "README.md"))


class ScaffoldError(CardgenError):
    """The target folder cannot take a new set."""


MAX_TITLE = 60  # card-set.schema.json's maxLength of `title`


def _set_name(folder: Path) -> str:
    return set_name_for(folder.name)


def new_set(folder: Path, base: str) -> list[Path]:
    """Write the set folder; refuses a non-empty folder so nothing of the designer's is overwritten."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder; choose a new path")
    if _set_name(folder) in bundled_set_names():
        raise ScaffoldError(f"'{folder.name}' is the name of a bundled set; choose another name for your set")
    base_set = load_set(base)
    role_of = {k: t.role for k, t in base_set.types.items()}
    example_type = next((k for k, r in role_of.items() if r == "attack"), next(iter(role_of)))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir() / SCAFFOLD_DIR)),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    name = _set_name(folder)
    title = f"{base_set.title}: {folder.name}"
    if len(title) > MAX_TITLE:  # the schema's limit: a long folder name must not make the new set invalid
        title = title[:MAX_TITLE - 3].rstrip() + "..."
    context = {"name": name, "title": title, "base": base,
               "folder": os.fspath(folder), "schema_uri": SCHEMA_FILE,
               "example_name": "Double Noogie", "example_type": example_type,
               "first_card": base_set.cards[0].name, "last_card": base_set.cards[-1].name}
    # The schema travels with the set (a copy beside the files, named relatively): an absolute file:// path
    # to this checkout would break when the checkout moves or the set is shared.
    write_atomic(folder / SCHEMA_FILE, schema_json().encode("utf-8"))
    written = [folder / SCHEMA_FILE]
    for template, target in SCAFFOLD_FILES:
        text = env.get_template(template).render(**context)
        write_atomic(folder / target, text.encode("utf-8"))
        written.append(folder / target)
    return written
