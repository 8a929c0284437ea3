"""The pages a table serves in its language, as Jinja2 templates (`templates/`): the table page (the
catalogue's `play.page` words filled in, and given to its script as JSON), the page of rules pictures, and
the replay viewer. Autoescaped: a set's title or a word of a translation is text, never markup."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

import jinja2

from cardgen import messages

STATIC = resources.files("cardgen.play") / "static"
_TEMPLATES = resources.files("cardgen.play") / "templates"


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def _words(section: str, lang: str) -> dict[str, str]:
    words = messages.message(section, lang)
    if not isinstance(words, dict):
        raise messages.missing_key_error(f"{section}.title", lang)
    return {str(k): str(v) for k, v in words.items()}


def _script_json(words: dict[str, str]) -> str:
    """Words as JSON for a <script type="application/json"> (no `</script>` can end it early)."""
    return json.dumps(words, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")


def _render(name: str, section: str, lang: str, **fields: object) -> str:
    words = _words(section, lang)
    try:
        return _env().get_template(name).render(lang=lang, w=words, words_json=_script_json(words), **fields)
    except jinja2.UndefinedError as exc:  # a word the page names that the catalogue lacks
        m = re.search(r"attribute '(\w+)'", str(exc))
        raise messages.missing_key_error(f"{section}.{m.group(1) if m else 'title'}", lang) from exc


@cache
def table_page(lang: str) -> str:
    """The table page in `lang`: its `lang` attribute, its labels, and every word its script says (#words)."""
    return _render("table.html", "play.page", lang)


def rules_page(lang: str, pages: int) -> str:
    """The page the Rules link opens: the rules page's pictures and a link to its PDF, in `lang`."""
    def say(key: str, **fields: object) -> str:
        return messages.text(f"play.rules.{key}", lang, **fields)

    return _render("rules.html", "play.rules", lang, say=say, pages=pages)


@cache
def lobby_page(lang: str) -> str:
    """The host's lobby page in `lang` (its choices come from /api/TOKEN/lobby)."""
    return _render("lobby.html", "play.lobby", lang)


@cache
def replay_page(lang: str) -> str:
    """The replay viewer's page in `lang` (its data comes from /replay.json)."""
    return _render("replay.html", "play.replay", lang)
