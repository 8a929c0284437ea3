"""A render session: what one render of a set draws with, handed to every drawing function.

It holds the set's layout (cardgen.render.face_layout: the bundled one, or the set folder's merged
over it) and the render's caches (measured text, fitted blocks). Nothing is read from a global or
a context variable, so a draw cannot silently use another set's layout, and a new session is a
cold render: nothing needs clearing between builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardgen.cardtext import rules_text
from cardgen.model import Card, CardSet
from cardgen.render.face_layout import Colours, Face, Layout, bundled, set_layout
from cardgen.render.memory import RulesMemory
from cardgen.render.pen import Pen, TextMetrics


@dataclass
class RenderSession:
    """The layout of the set being drawn and the caches of this render."""

    layout: Layout
    metrics: TextMetrics = field(default_factory=TextMetrics)
    texts: dict[tuple[int, int], str] = field(default_factory=dict)  # rules text by (set, card), see card_text
    rules: RulesMemory = field(default_factory=RulesMemory)  # the rules page's parsed paragraphs and layouts
    font_files: dict[str, str] = field(default_factory=dict)  # a set's registered face -> its file, for messages

    @classmethod
    def for_set(cls, set_folder: str) -> RenderSession:
        """A session with the layout of the set in `set_folder` (its `layout/` over the bundled files)."""
        return cls(set_layout(set_folder))

    @classmethod
    def for_cards(cls, cs: CardSet, rules: RulesMemory | None = None) -> RenderSession:
        """A session drawing `cs` in its own look: its folder's layout, then its `look:` faces and back (with
        `rules`, a watch's memory of rules pages, kept across its rebuilds)."""
        from cardgen.render.fonts import register_set_fonts
        from cardgen.render.set_look import look_layout

        names = register_set_fonts(cs.look.fonts) if cs.look.fonts else {}
        return cls(look_layout(cs, set_layout(cs.path), names), rules=RulesMemory() if rules is None else rules,
                   font_files={name: cs.look.fonts[face] for face, name in names.items()})

    @classmethod
    def bundled(cls) -> RenderSession:
        return cls(bundled())

    @property
    def face(self) -> Face:
        return self.layout.face

    @property
    def colours(self) -> Colours:
        return self.layout.colours

    def card_text(self, card: Card, cs: CardSet) -> str:
        """The card's rules text (its template rendered once a session, however many files draw it)."""
        key = (id(cs), id(card))
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = rules_text(card, cs)
        return text

    def pen(self, canvas: Any | None, log: list[str] | None = None, cmyk: bool = False) -> Pen:
        """A pen on `canvas` that measures text with this session's caches."""
        return Pen(canvas, log, cmyk, self.metrics)

    def with_safe_margin(self, safe: float) -> RenderSession:
        """The faces drawn with at least `safe` mm between the cut and any text (a print shop's safe zone): the
        margin moves in with it. Same caches (the widths of words do not change)."""
        face = self.face
        if safe <= face.safe_margin:
            return self
        wider = face._replace(safe_margin=safe, margin=safe + face.margin - face.safe_margin)
        return RenderSession(self.layout._replace(face=wider), self.metrics, self.texts, self.rules, self.font_files)
