"""Inks a player must tell apart: a back design's title and subtitle on their fill and stripes (WCAG contrast
for small text), and the card types' colours (CIEDE2000 in greyscale and under colour-vision deficiencies)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from cardgen import model
from cardgen.errors import Diagnostic
from cardgen.loader.load import LoadedSet
from cardgen.yaml_doc import Document


def back_problems(loaded: LoadedSet) -> list[Diagnostic]:
    """The back designs this set gives (the set's `look.back`, each type's `look.backs`, each card's `back:`): the
    ink on the fill and on the stripes, at the key that sets the ink (or the fill/pattern when the ink is the
    bundled one)."""
    head = loaded.head
    look_raw: dict[str, Any] = dict(cast(dict[str, Any], head.data).get("look", {}))
    back_raw: dict[str, Any] = dict(look_raw.get("back", {}))
    design_keys = [k for k in back_raw if k != "image"]
    if "image" in back_raw and design_keys:
        return []  # an image and a design at once: the loader refused it
    out: list[Diagnostic] = []

    def at(*where: str) -> Callable[[str, str], None]:
        def err(key: str, msg: str) -> None:
            line, col = head.where(("look", *where, key))
            out.append(Diagnostic(head.path, line, col, f"look.{'.'.join((*where, key))}: {msg}"))
        return err

    if design_keys:
        _contrast(loaded.cs.look.back, back_raw, at("back"))
    for key, raw in dict(look_raw.get("backs", {})).items():
        raw = dict(raw)
        if "image" not in raw and key in loaded.cs.look.backs:
            _contrast(loaded.cs.look.backs[key].design, raw, at("backs", key))
    return out + _card_back_problems(loaded)


def _card_back_problems(loaded: LoadedSet) -> list[Diagnostic]:
    """The back designs the set's own cards and overrides give (their `back:`), each at its card."""
    out: list[Diagnostic] = []
    by_name = {c.name: c for c in loaded.cs.cards}
    for doc in loaded.docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        for list_key in ("cards", "override"):
            entries = data.get(list_key)
            for i, raw in enumerate(entries if isinstance(entries, list) else []):
                card = by_name.get(str(raw.get("name"))) if isinstance(raw, dict) else None
                back = raw.get("back") if isinstance(raw, dict) else None
                if card is not None and card.back is not None and not card.back.image and isinstance(back, dict):
                    _contrast(card.back.design, back, _card_err(doc, (list_key, i), card.name, out))
    return out


def _card_err(doc: Document, at: tuple[str | int, ...], name: str,
              out: list[Diagnostic]) -> Callable[[str, str], None]:
    def err(key: str, msg: str) -> None:
        line, col = doc.where((*at, "back", key))
        out.append(Diagnostic(doc.path, line, col, f"card '{name}' field `back.{key}`: {msg}"))
    return err


def _contrast(back: model.BackDesign, raw: dict[str, Any], err: Callable[[str, str], None]) -> None:
    """The design's ink on its fill and stripes; an ink it leaves out is the bundled layout's (what is drawn)."""
    from cardgen.render.contrast import MIN_SMALL, ratio
    from cardgen.render.face_layout import bundled

    inks = bundled().colours.back
    ink = back.ink or inks.ink
    for what in ("fill", "pattern"):
        fill = getattr(back, what) or getattr(inks, what)
        got = ratio(ink, fill)
        if got < MIN_SMALL - 1e-9:
            where = "the title on the fill" if what == "fill" else "the subtitle on the stripes"
            err("ink" if "ink" in raw else what, f"ink {ink} on {what} {fill} is {got:.2f}:1, below "
                f"{MIN_SMALL:g}:1 for {where} (WCAG contrast for small text)")


def colour_warnings(loaded: LoadedSet) -> list[Diagnostic]:
    """One warning when two type colours (one of them given in this set.yaml) are ones people with a
    colour-vision deficiency, or a greyscale print, could mistake for each other (colour_vision.PROMISED):
    at the closer pair's colour, with how many pairs are too close."""
    from cardgen.render.colour_vision import MIN_DELTA_E, PROMISED, delta_e

    cs, head = loaded.cs, loaded.head
    raw_types = cast(dict[str, Any], head.data).get("types", {})
    close: list[tuple[float, str, str, str]] = []
    keys = list(cs.types)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a in raw_types or b in raw_types:
                d, condition = min((delta_e(cs.types[a].colour, cs.types[b].colour, c), c) for c in PROMISED)
                if d < MIN_DELTA_E:
                    here, other = (b, a) if b in raw_types else (a, b)
                    close.append((d, condition, here, other))
    if not close:
        return []
    d, condition, here, other = min(close)
    more = f" (the closest of {len(close)} pairs below it)" if len(close) > 1 else ""
    line, col = head.where(("types", here, "colour"))
    return [Diagnostic(head.path, line, col, f"types: '{here}' {cs.types[here].colour} and '{other}' "
                       f"{cs.types[other].colour} differ by only {d:.1f} (CIEDE2000) in {condition}, below "
                       f"{MIN_DELTA_E:g}{more}: players may tell the types apart only by their icon and label",
                       "warning")]
