"""A card's `effects:` in words, in any language of the message catalogue (its `effects` section).

Each primitive has one sentence per language; the sentence names the grammatical form of whom it acts on
(`effects.who.<form>`), and may have variants for the card's player and for how cards are picked. Numbers of
cards and turns take the language's own forms (`effects.count`). So the printed text, the rules page and the
table's words come from the same declarations the engine plays (`cardgen.primitives`), in every language.
"""

from __future__ import annotations

from typing import Any

from cardgen import messages
from cardgen.primitives import PRIMITIVES, Effect, Who

CHOSEN_AGAIN = "chosen_again"  # the chosen player, named a second time on the same card ("that player")


def _variant(entry: Any, e: Effect, lang: str) -> str:
    """The sentence of entry `entry` for effect `e`: its `self`/`pick` variant if the catalogue has one."""
    if isinstance(entry, str):
        return entry
    who = "self" if e.who == Who.SELF else "other"
    pick = dict(e.values).get("pick")
    for key in (f"{who}_{pick}", str(pick), who if who == "self" else "", "text"):
        if key and key in entry:
            return str(entry[key])
    raise messages.missing_key_error(f"effects.say.{e.op}.text", lang)


def _fields(e: Effect, lang: str, life: str, who_key: str, form: str) -> dict[str, str]:
    counts: dict[str, Any] = messages.message("effects.count", lang)
    fields: dict[str, str] = {"life": life}
    for name, value in e.values:
        if isinstance(value, int):
            fields[name] = messages.counted(f"effects.count.{name}", lang, value) if name in counts else str(value)
            for table in counts:
                fields[f"{name}_{table}"] = messages.counted(f"effects.count.{table}", lang, value)
        elif name == "way":
            fields["way"] = messages.text(f"effects.way.{value}", lang)
        elif name == "pick":
            fields["pick"] = messages.text(f"effects.pick.{value}", lang)
    if who_key:
        fields["who"] = messages.text(f"effects.who.{form}.{who_key}", lang, life=life)
    return fields


def _who_keys(effects: tuple[Effect, ...]) -> list[str]:
    """Each effect's `who`, the chosen player named as such once and as `chosen_again` after that."""
    out: list[str] = []
    named = False
    for e in effects:
        if e.who == Who.CHOSEN:
            out.append(CHOSEN_AGAIN if named else Who.CHOSEN.value)
            named = True
        else:
            out.append(e.who)
    return out


def effect_sentences(effects: tuple[Effect, ...], lang: str, life: str) -> str:
    """The printed text of a card's effects: a sentence each, in order."""
    out = []
    for e, who in zip(effects, _who_keys(effects), strict=True):
        entry = messages.message(f"effects.say.{e.op}", lang)
        form = str(entry.get("form", "")) if isinstance(entry, dict) else ""
        out.append(_variant(entry, e, lang).format(**_fields(e, lang, life, who, form)))
    return " ".join(out)


def effect_summary(effects: tuple[Effect, ...], lang: str, life: str) -> str:
    """The card's effects in a few words each, for one-line tables."""
    out = []
    for e, who in zip(effects, _who_keys(effects), strict=True):
        fields = _fields(e, lang, life, who, "short")
        fields["amount"] = str(next((v for _, v in e.values if isinstance(v, int)), ""))
        out.append(messages.text(f"effects.short.{e.op}", lang, **fields))
    return "; ".join(out)


def catalogue_gaps(lang: str) -> list[str]:
    """The registered primitives whose sentence or summary the catalogue of `lang` lacks (a test holds it empty)."""
    say = messages.message("effects.say", lang)
    short = messages.message("effects.short", lang)
    return [f"effects.{part}.{op}" for op in PRIMITIVES for part, table in (("say", say), ("short", short))
            if op not in table]
