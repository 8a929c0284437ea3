"""Card art named by `art:`: a usable image (errors), with enough pixels for its box (a warning)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cardgen.errors import Diagnostic
from cardgen.loader.art import MIN_DPI, read_image
from cardgen.loader.load import LoadedSet
from cardgen.model import Card

ART_FORMATS: frozenset[str] = frozenset({"PNG", "JPEG", "WEBP", "GIF", "TIFF"})
# The art box on a poker card with the bundled face layout (mm); used to judge resolution at validation.
NOMINAL_ART_BOX_MM = (57.5, 22.6)


def check_art(card: Card, set_folder: Path, box_mm: tuple[float, float]) -> list[Diagnostic]:
    """Problems with the card's art: errors for unusable files, a warning below MIN_DPI at `box_mm`."""
    if card.art is None:
        return []

    def diag(msg: str, severity: str = "error") -> Diagnostic:
        return Diagnostic(card.file, card.line, card.column, f"card '{card.name}' field `art`: {msg}",
                          "warning" if severity == "warning" else "error")

    facts = read_image(set_folder, card.art)
    if isinstance(facts, str):
        return [diag(facts)]
    if facts.format not in ART_FORMATS:
        return [diag(f"image '{card.art}' is {facts.format}; expected one of {', '.join(sorted(ART_FORMATS))}")]
    dpi = min(facts.width / (box_mm[0] / 25.4), facts.height / (box_mm[1] / 25.4))
    if dpi < MIN_DPI:
        return [diag(f"image '{card.art}' gives {dpi:.0f} dpi at {box_mm[0]:.1f} x {box_mm[1]:.1f} mm; "
                     f"{MIN_DPI} dpi or more prints sharp", "warning")]
    return []


def card_art(loaded: LoadedSet) -> Callable[[Card], list[Diagnostic]]:
    """The art of each card the set itself brings (a base set's art is judged when that set is checked)."""
    cs = loaded.cs

    def problems(c: Card) -> list[Diagnostic]:
        return check_art(c, Path(cs.path), NOMINAL_ART_BOX_MM) if c.art is not None and c.origin == cs.name else []

    return problems
