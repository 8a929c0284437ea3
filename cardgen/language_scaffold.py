"""`cardgen new-language`: a language folder to translate, made from the English catalogue and templates.

The folder goes where cardgen looks for languages it does not ship (`cardgen.messages`): a set's
`lang/<code>/`, or the user's language folder. Nothing of the install is touched, and nothing is
overwritten: the folder is written whole beside its place and then renamed into it.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from cardgen import messages
from cardgen.errors import CardgenError
from cardgen.paths import templates_dir

_CODE = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*", re.ASCII)
HEADER = ("# The words cardgen prints, in '{code}': translate every value, keep each {{field}} as it is.\n"
          "# `keywords` are the mechanics' words in capitals (the first form is printed; card text sets every\n"
          "# form in bold, in any script); `plural_forms` gives a set's life word in each CLDR plural category\n"
          "# of the language other than its plural (docs/languages.md).\n")


class LanguageScaffoldError(CardgenError):
    """A language folder cardgen cannot make: a bad code, one it ships, or a folder already there."""


def _sources() -> list[tuple[Path, str]]:
    """(English file, its name in a language folder): the catalogue and the card-text and rules templates."""
    root = templates_dir()
    out = [(root / "messages" / f"{messages.DEFAULT_LANGUAGE}.yaml", messages.CATALOGUE_FILE)]
    return out + [(root / name, name) for name in messages.TEMPLATE_FILES]


def new_language(code: str, root: Path) -> list[Path]:
    """Write `root/<code>/`: the English catalogue (under a header saying what to translate) and templates."""
    if not _CODE.fullmatch(code):
        raise LanguageScaffoldError(f"'{code}' is not a language code such as fr, pt_BR or sr-Latn")
    if code in messages.languages() and messages.language_folder(code) is None:
        raise LanguageScaffoldError(f"cardgen ships '{code}' already; a set's own words for it go in "
                                    f"lang/{code}.yaml (docs/languages.md)")
    target = root / code
    if target.exists() or target.is_symlink():
        raise LanguageScaffoldError(f"{target} already exists; remove it or choose another place")
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{code}-", dir=root))
    try:
        for source, name in _sources():
            dest = work / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            text = source.read_text(encoding="utf-8")
            if name == messages.CATALOGUE_FILE:
                text = HEADER.format(code=code) + text
            dest.write_text(text, encoding="utf-8")
        work.rename(target)
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise LanguageScaffoldError(f"{target}: cannot write the language folder: {exc.strerror or exc}") from None
    return [target / name for _, name in _sources()]
