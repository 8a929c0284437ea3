"""What `validate` finds without playing: cards no rule could ever let anyone play (a static analysis of the
mechanics, `engine.playability`), and whatever a print build would refuse (`render.preflight` draws every face
at every card size). `build` hears of the first as warnings: the deck still prints."""

from __future__ import annotations

import dataclasses

from cardgen.errors import Diagnostic
from cardgen.model import CardSet


def unplayable(cs: CardSet) -> list[Diagnostic]:
    """Cards nobody can play and games that can never end (errors of `validate`)."""
    from cardgen.engine.playability import playability_problems

    return playability_problems(cs)


def unplayable_warnings(cs: CardSet) -> list[Diagnostic]:
    """`unplayable` as warnings, for a build."""
    return [dataclasses.replace(d, severity="warning") for d in unplayable(cs)]


def static_problems(cs: CardSet) -> list[Diagnostic]:
    """Problems found without playing: cards that can never be played, and what a build would refuse."""
    from cardgen.render.preflight import print_problems

    return unplayable(cs) + print_problems(cs)
