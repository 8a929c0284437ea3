"""Card text: the set's own templates render every card, and each card's text says what the card does, with
icons the set has."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cardgen.bounded_read import UnreadableFile, set_file
from cardgen.cardtext import SET_TEMPLATES, check_text, generated_text, set_templates_dir, summary
from cardgen.checks.cards import blank
from cardgen.checks.where import card_problem
from cardgen.errors import Diagnostic
from cardgen.iconwords import unknown_tokens
from cardgen.loader.load import LoadedSet, shown
from cardgen.model import Card
from cardgen.suggest import did_you_mean
from cardgen.template_sandbox import TemplateError


def _outside(folder: Path, rel: str) -> str | None:
    """Why the set's file or folder `rel` is not its own (a link out of the set folder), or None."""
    try:
        set_file(folder, rel)
    except UnreadableFile as exc:
        return str(exc)
    return None


def template_problems(loaded: LoadedSet) -> list[Diagnostic]:
    """The set's own templates (`templates/`): inside its folder, and rendering every card (the first failure
    is reported, at its template line)."""
    cs = loaded.cs
    templates = set_templates_dir(cs)
    if templates is None:
        return []
    outside = _outside(Path(cs.path), SET_TEMPLATES)
    if outside is not None:
        return [Diagnostic(shown(templates), 1, 1, outside)]
    for c in cs.cards:
        try:
            generated_text(c, cs)
            summary(c, cs)
        except TemplateError as exc:
            return [Diagnostic(exc.path, exc.line, 1, f"{exc.args[0].split(': error: ', 1)[-1]} "
                               f"(rendering card '{c.name}')")]
    return []


def card_text(loaded: LoadedSet) -> Callable[[Card], list[Diagnostic]]:
    """A card's written text against its mechanics, and its `{icon}` tokens against the set's icons."""
    cs = loaded.cs

    def problems(c: Card) -> list[Diagnostic]:
        if blank(cs, c):
            return []  # reported as a card with no mechanics
        out = [card_problem(loaded, c, "text", f"field `text`: {problem}") for problem in check_text(c, cs)]
        for token in unknown_tokens(c.text or "", tuple(cs.icons)):
            out.append(card_problem(loaded, c, "text", f"field `text`: no icon '{{{token}}}' in the set's `icons`"
                                    f"{did_you_mean(token, list(cs.icons))}; known: {', '.join(cs.icons) or 'none'}"))
        return out

    return problems
