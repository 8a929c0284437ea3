"""Drawing a set in its own look: its layout data, its own TrueType faces, its back.

`drawing(cs)` is what every renderer enters before it draws a set's cards: the set's `layout/` files over
the bundled layout, then each face key of the face layout that names a logical face the set replaces
(`look.fonts`) pointed at the set's registered file. The sheet's own furniture (page label, scale bar)
stays in the bundled faces: it is cardgen's, not the card's. A set without `look:` draws exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.model import CardSet
from cardgen.render import layout_data as L
from cardgen.render.fonts import register_set_fonts

NOT_THE_CARDS = ("sheet",)  # face.yaml sections drawn on the sheet around the cards


def font_overrides(face: dict[str, Any], faces: dict[str, str], _top: bool = True) -> dict[str, Any]:
    """The face.yaml values (nested, only those that change) that point its font keys at `faces`."""
    out: dict[str, Any] = {}
    for key, value in face.items():
        if isinstance(value, dict):
            if not (_top and key in NOT_THE_CARDS):
                inner = font_overrides(value, faces, False)
                if inner:
                    out[key] = inner
        elif key.endswith("font") and isinstance(value, str) and value in faces:
            out[key] = faces[value]
    return out


@contextmanager
def drawing(cs: CardSet) -> Iterator[None]:
    """Draw `cs` with its own layout data and faces inside this block."""
    with L.set_layout(cs.path):
        if not cs.look.fonts:
            yield
            return
        with L.face_overrides(font_overrides(L.face_layout(), register_set_fonts(cs.look.fonts))):
            yield


@dataclass(frozen=True)
class BackInks:
    """What the generated back is drawn with: the set's design over the active layout."""

    fill: str
    pattern: str
    ink: str
    title: str
    subtitle: str


def back_inks(cs: CardSet) -> BackInks:
    d = cs.look.back
    return BackInks(d.fill or L.colour("back.fill"), d.pattern or L.colour("back.pattern"),
                    d.ink or L.colour("back.ink"), d.title or cs.title,
                    L.text("back.subtitle") if d.subtitle is None else d.subtitle)


def back_image(cs: CardSet) -> tuple[str, tuple[int, int]] | None:
    """The set's back image and its size in pixels, or None for a generated back."""
    if not cs.look.back_image:
        return None
    path = Path(cs.look.back_image)
    return str(path), _pixels(str(path), path.stat().st_mtime_ns)


@cache
def _pixels(path: str, stamp: int) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as img:
        return img.size
