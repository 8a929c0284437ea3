"""Errors a print build reports to the user: each names what to fix (paper, size, card, character)."""

from __future__ import annotations

from cardgen.errors import CardgenError


class LayoutError(CardgenError):
    """Unknown paper or card size, a negative bleed, or cards that do not fit the printable area."""


class CardFitError(CardgenError):
    """A card's text cannot fit its box even at the smallest legible size."""


class GlyphError(CardgenError):
    """A card uses a character that no bundled font can draw."""
