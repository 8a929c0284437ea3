"""A set in another language: its translation files read (`loader.language.translate`), the translated card
texts checked against the cards' mechanics, and, for `validate`, every translation the set brings put through
both, and the characters of each held to the faces that print it."""

from __future__ import annotations

from pathlib import Path

from cardgen import messages, model
from cardgen.cardtext import check_text
from cardgen.errors import CardgenError, Diagnostic, SetError
from cardgen.loader.language import translate, translation_codes, translation_file
from cardgen.suggest import did_you_mean


def in_language(cs: model.CardSet, lang: str, warnings: list[Diagnostic] | None = None) -> model.CardSet:
    """`cs` printed in `lang` (`loader.language.translate`); raises SetError (file:line) for a translation file
    that names a type or card the set lacks, or a translated text that does not say what its card does."""
    done = translate(cs, lang, warnings)
    diags = list(done.diagnostics)
    for name, (path_shown, line, col) in done.texts.items():  # a translated `text` is read in its own language
        for problem in check_text(done.cs.card(name), done.cs):
            diags.append(Diagnostic(path_shown, line, col, f"cards.{name}.text: {problem}"))
    if any(d.severity == "error" for d in diags):
        raise SetError(diags)
    return done.cs


def translation_problems(cs: model.CardSet) -> list[Diagnostic]:
    """What `validate` (without --lang) finds in the set's other translation files, so a broken `lang/de.yaml`
    is found before anyone builds in German: each file is put through `in_language`, and a file for a language
    cardgen has no catalogue for (never read) is warned about."""
    out: list[Diagnostic] = []
    folders = [Path(f) for f in (cs.base, cs.path) if f]
    for code in translation_codes(cs):
        if code not in messages.languages():
            for f in folders:
                if translation_file(f, code).exists():
                    out.append(Diagnostic(str(translation_file(f, code)), 1, 1, f"cardgen has no message catalogue "
                                          f"for '{code}' (it has {', '.join(messages.languages())}), so this file is "
                                          f"never read{did_you_mean(code, list(messages.languages()))}", "warning"))
            continue
        try:
            in_language(cs, code)
        except SetError as exc:
            out.extend(exc.diagnostics)
    return out


def translation_print_problems(cs: model.CardSet) -> list[Diagnostic]:
    """Characters of each translation's words that no face the cards print with has, at the translation's line
    (a translation that does not load is reported by `translation_problems`)."""
    from cardgen.render.preflight import translation_glyphs

    out = []
    for code in translation_codes(cs):
        try:
            out += translation_glyphs(in_language(cs, code))
        except CardgenError:
            continue
    return out
