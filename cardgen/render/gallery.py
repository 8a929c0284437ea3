"""A static, offline HTML gallery of card previews: search, filter by type, sort, and the card table.

Everything the page needs (style, script, images) is in the page or beside it,
so it works from a USB stick or a file:// URL. Each image keeps its card's
proportions at any width (CSS `aspect-ratio` from the image's pixel size).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

import jinja2

from cardgen import messages
from cardgen.cardtable import card_rows
from cardgen.cardtext import rules_text
from cardgen.model import CardSet
from cardgen.numbering import card_label
from cardgen.paths import templates_dir

GALLERY_TEMPLATE = "gallery.html.j2"


@dataclass(frozen=True)
class PreviewImage:
    """A card preview file, relative to the gallery page, and its pixel size."""

    path: str
    width: int
    height: int


def gallery_html(cs: CardSet, images: Mapping[str, PreviewImage]) -> str:
    """The gallery page; `images` maps card names to their preview files (relative paths)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    words = messages.message("gallery", cs.language)  # the page's own words, in the set's language
    sources = words["sources"]
    rows = []
    for row, card in zip(card_rows(cs), cs.cards, strict=True):
        img = images.get(row.name)
        text = " ".join(t for t in (rules_text(card, cs), card.flavour or "") if t)
        rows.append({**asdict(row), "label": card_label(card, cs), "text": text, "damage": card.total_damage,
                     "image": img.path if img else "", "width": img.width if img else 0,
                     "height": img.height if img else 0, "source_label": str(sources.get(row.source, row.source))})
    types = [{"key": key, "label": t.label} for key, t in cs.types.items() if any(c.type == key for c in cs.cards)]
    return env.get_template(GALLERY_TEMPLATE).render(title=cs.title, set_name=cs.name, total=cs.total, cards=rows,
                                                     types=types, lang=cs.language, t=words)
