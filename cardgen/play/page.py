"""The pages a table serves in its language: the table page (static/table.html with the catalogue's `play.page`
words filled in, and given to its script as JSON) and the page of rules pictures."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib import resources

from cardgen import messages

STATIC = resources.files("cardgen.play") / "static"
_FIELD = re.compile(r"\{\{(\w+)\}\}")


def _words(lang: str) -> dict[str, str]:
    words = messages.message("play.page", lang)
    if not isinstance(words, dict):
        raise messages.missing_key_error("play.page.title", lang)
    return {str(k): str(v) for k, v in words.items()}


@cache
def table_page(lang: str) -> str:
    """The table page in `lang`: its `lang` attribute, its labels, and every word its script says (#words)."""
    words = _words(lang)
    fields = {k: html.escape(v) for k, v in words.items()}
    fields["lang"] = html.escape(lang)
    fields["words"] = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")

    def fill(m: re.Match[str]) -> str:
        if m.group(1) not in fields:
            raise messages.missing_key_error(f"play.page.{m.group(1)}", lang)
        return fields[m.group(1)]

    return _FIELD.sub(fill, (STATIC / "table.html").read_text(encoding="utf-8"))


def rules_page(lang: str, pages: int) -> str:
    """The page the Rules link opens: the rules page's pictures and a link to its PDF, in `lang`."""
    def say(key: str, **fields: object) -> str:
        return html.escape(messages.text(f"play.rules.{key}", lang, **fields))

    imgs = "".join(f'<img src="/rules-{i}.png" alt="{say("image", page=i + 1)}">' for i in range(pages))
    return (f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{say("title")}</title><style>body{{margin:0;'
            f'font-family:sans-serif}}img{{width:100%;max-width:1000px;display:block;margin:0 auto}}'
            f'p{{text-align:center}}</style></head><body><p><a href="/rules.pdf">{say("pdf")}</a>'
            f'</p>{imgs}</body></html>')
