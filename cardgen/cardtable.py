"""The card table of a set (`cardgen list`, the gallery): one row per design, and the totals."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from cardgen.cardtext import summary
from cardgen.model import CardSet


@dataclass(frozen=True)
class CardRow:
    number: int
    name: str
    type: str
    type_label: str
    colour: str
    count: int
    summary: str
    source: str
    origin: str


def card_rows(cs: CardSet) -> list[CardRow]:
    """One row per card design, in print order."""
    rows = []
    for c in cs.cards:
        t = cs.type_of(c)
        rows.append(CardRow(c.number, c.name, c.type, t.label, t.colour, c.count, summary(c, cs), c.source,
                            c.origin))
    return rows


def totals(cs: CardSet) -> dict[str, Any]:
    """Cards in the deck, by type and by source, against the declared deck size."""
    by_type: dict[str, int] = {}
    by_source: dict[str, int] = {}
    for c in cs.cards:
        by_type[c.type] = by_type.get(c.type, 0) + c.count
        by_source[c.source] = by_source.get(c.source, 0) + c.count
    return {"deck_size": cs.deck_size, "total": cs.total, "designs": len(cs.cards), "by_type": by_type,
            "by_source": by_source}


def table_json(cs: CardSet) -> dict[str, Any]:
    """The `cardgen list --json` document."""
    rows = [{k: v for k, v in asdict(r).items() if k not in ("type_label", "colour")} for r in card_rows(cs)]
    return {"set": cs.name, "title": cs.title, **totals(cs), "cards": rows}
