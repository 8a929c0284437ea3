"""`cardgen new-language`: start a language cardgen does not ship, in a set folder or the user's folder."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen import messages
from cardgen.cli.common import fails_cleanly
from cardgen.language_scaffold import new_language


@click.command("new-language")
@click.argument("code")
@click.option("--set", "set_folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Put it in this set folder's lang/CODE/ (it travels with the set).")
@click.option("--user", is_flag=True, help="Put it in your own language folder, for every set you build.")
@fails_cleanly
def command(code: str, set_folder: Path | None, user: bool) -> None:
    """Write a language folder CODE/ to translate: the English catalogue and templates."""
    if (set_folder is None) == (not user):
        raise click.UsageError("give --set FOLDER or --user (where the language goes)")
    root = messages.user_languages_dir() if user else Path(set_folder or ".") / messages.LANG_FOLDER
    for p in new_language(code, root):
        click.echo(str(p))
    where = f"--set {set_folder}" if set_folder is not None else "--set SET"
    click.echo(f"next: translate {root / code / messages.CATALOGUE_FILE} and the templates, then "
               f"cardgen build {where} --lang {code}")
