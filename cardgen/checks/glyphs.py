"""Every character the cards print is in every face the set brings (`look.fonts`), each missing one named with
the first string that prints it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from cardgen import model
from cardgen.cardtext import rules_text
from cardgen.errors import Diagnostic
from cardgen.font_file import read_font
from cardgen.loader.load import LoadedSet
from cardgen.loader.schema import LOOK_FACES
from cardgen.template_sandbox import TemplateError


def printed_strings(cs: model.CardSet) -> Iterable[tuple[str, str]]:
    """(what, text) of every string of the set's own the card faces and backs print."""
    yield "the set's title", cs.title
    for t in cs.types.values():
        yield f"type '{t.key}'", t.label
    if cs.look.back.title:
        yield "the back's title", cs.look.back.title
    if cs.look.back.subtitle:
        yield "the back's subtitle", cs.look.back.subtitle
    for c in cs.cards:
        yield f"card '{c.name}'", c.name
        try:
            text = rules_text(c, cs)
        except TemplateError:
            text = ""  # reported with the card already
        yield f"card '{c.name}'", text
        if c.flavour:
            yield f"card '{c.name}'", c.flavour


def glyph_problems(loaded: LoadedSet) -> list[Diagnostic]:
    """Each face the set brings in this set.yaml that lacks a character the set's cards print (first use named).

    A face may draw any of them: text that does not fit moves to the condensed faces, and keywords to
    the bold ones, so every face is held to every character.
    """
    cs, head = loaded.cs, loaded.head
    raw: dict[str, Any] = cast(dict[str, Any], head.data).get("look", {})
    faces = {LOOK_FACES[k]: k for k in dict(raw.get("fonts", {}))}
    out = []
    for face, path in cs.look.fonts.items():
        key = faces.get(face)
        if key is None:
            continue  # inherited: judged when its own set is checked
        found = read_font(Path(path).parent, Path(path).name)
        if isinstance(found, str):
            continue
        missing: dict[str, str] = {}
        for what, text in printed_strings(cs):
            for ch in text:
                if not ch.isspace() and ord(ch) not in found.charset and ch not in missing:
                    missing[ch] = what
        if missing:
            line, col = head.where(("look", "fonts", key))
            listed = ", ".join(f"'{ch}' (U+{ord(ch):04X}, {what})" for ch, what in list(missing.items())[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            out.append(Diagnostic(head.path, line, col, f"look.fonts.{key}: '{raw['fonts'][key]}' has no glyph "
                                  f"for {len(missing)} character{'s' if len(missing) != 1 else ''} the cards "
                                  f"print: {listed}{more}"))
    return out
