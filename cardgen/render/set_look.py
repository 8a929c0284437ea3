"""Drawing a set in its own look (set.yaml `look:`): its own TrueType faces, its back design or image.

`look_layout(cs, layout)` is the layout a render of the set draws with (`RenderSession.for_cards`): each
font field of the face layout that names a logical face the set replaces (`look.fonts`) points at the
set's registered file, and a back design's inks and subtitle replace the layout's. The sheet's own
furniture (page label, scale bar) stays in the bundled faces: it is cardgen's, not the card's. A set
without `look:` gets its layout unchanged, so it draws exactly as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.model import Card, CardSet, OwnBack
from cardgen.render.face_layout import BackInks, Face, Layout, is_record, record_fields

NOT_THE_CARDS = ("sheet",)  # face.yaml sections drawn on the sheet around the cards


def own_faces(face: Face, faces: dict[str, str]) -> Face:
    """`face` with every font field naming a key of `faces` (a logical face) pointed at its value."""
    changes: dict[str, Any] = {}
    for section in record_fields(face):
        value = getattr(face, section)
        if not is_record(type(value)) or section in NOT_THE_CARDS:
            continue
        inner = {f: faces[getattr(value, f)] for f in record_fields(value)
                 if f.endswith("font") and getattr(value, f) in faces}
        if inner:
            changes[section] = value._replace(**inner)
    return face._replace(**changes) if changes else face


def look_layout(cs: CardSet, layout: Layout, faces: dict[str, str]) -> Layout:
    """The layout `cs` draws with: `layout` (the bundled or the set folder's) with the set's faces (`faces`:
    logical face -> registered name, `fonts.register_set_fonts`) and back."""
    look = cs.look
    if not look.own:
        return layout
    face = own_faces(layout.face, faces) if faces else layout.face
    back = look.back
    if back.subtitle is not None:
        face = face._replace(back=face.back._replace(subtitle=back.subtitle))
    colours = layout.colours
    if back.fill or back.pattern or back.ink:
        old = colours.back
        colours = colours._replace(back=BackInks(back.fill or old.fill, back.pattern or old.pattern,
                                                             back.ink or old.ink))
    return Layout(face, colours)


def back_title(cs: CardSet) -> str:
    return cs.look.back.title or cs.title


def back_image(cs: CardSet) -> tuple[str, tuple[int, int]] | None:
    """The set's back image and its size in pixels, or None for a generated back."""
    if not cs.look.back_image:
        return None
    path = Path(cs.look.back_image)
    return str(path), _pixels(str(path))


def own_back(cs: CardSet, card: Card | None) -> OwnBack | None:
    """The back `card` has of its own (its `back:`) or through its type (`look.backs`); None: the set's back
    (also for no card)."""
    if card is None:
        return None
    return card.back if card.back is not None else cs.look.backs.get(card.type)


def own_back_image(back: OwnBack) -> tuple[str, tuple[int, int]] | None:
    """A type's or card's back image and its size in pixels, or None when that back is a design."""
    if not back.image:
        return None
    path = Path(back.image)
    return str(path), _pixels(str(path))


def _pixels(path: str) -> tuple[int, int]:
    """The image's size (read from its header: Pillow decodes no pixel for it)."""
    from PIL import Image

    with Image.open(path) as img:
        return img.size
