"""A set's `look:` (its own TrueType faces and card back) read into the model, each problem at its line in
set.yaml; and a card's own `back:`, at its line in its card file.

Every file must lie inside the set folder (the same rule as art and icons), be a regular file and read
as what it claims: a font is parsed by reportlab's TrueType reader (the one that embeds it), so a
PostScript-outline OpenType, a font that forbids embedding or a corrupt file is refused here, not half-way
through a print run. A back image needs 300 dpi on the largest named card with a 3 mm bleed. Whether a
back design's inks can be read and whether the faces hold every character the cards print are checks of
the loaded set (`cardgen.checks.contrast`, `cardgen.checks.glyphs`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen import model
from cardgen.bounded_read import set_file
from cardgen.errors import Diagnostic
from cardgen.font_file import read_font
from cardgen.loader.art import MIN_DPI, read_image
from cardgen.loader.card_checks import hidden_character
from cardgen.loader.schema import LOOK_FACES
from cardgen.suggest import did_you_mean
from cardgen.yaml_doc import Document

BACK_FORMATS: frozenset[str] = frozenset({"PNG", "JPEG", "TIFF"})
# The back image covers the card and its bleed: judged on the largest named card (poker, 63.5 x 88.9 mm)
# with the 3 mm bleed the shops ask for, so it prints sharp at every named size.
BACK_BOX_MM = (63.5 + 2 * 3.0, 88.9 + 2 * 3.0)
BACK_INKS = ("fill", "pattern", "ink")


def _near(folder: Path, rel: str, suffixes: Iterable[str]) -> str:
    base = folder.resolve()
    wanted = set(suffixes)
    near = [str(p.relative_to(base)) for p in base.rglob("*") if p.suffix.lower() in wanted]
    return did_you_mean(rel, near)


def check_look(folder: Path, head: Document, raw: dict[str, Any], inherited: model.Look,
               diags: list[Diagnostic]) -> model.Look:
    """The set's look (its own keys over the one it inherits); every problem becomes an error at its line."""
    def err(at: tuple[str, ...], msg: str) -> None:
        line, col = head.where(("look", *at))
        diags.append(Diagnostic(head.path, line, col, f"look.{'.'.join(at)}: {msg}"))

    fonts = dict(inherited.fonts)
    sources = dict(inherited.sources)
    for key, rel in dict(raw.get("fonts", {})).items():
        found = read_font(folder, rel)
        if isinstance(found, str):
            err(("fonts", key), found + (_near(folder, rel, (".ttf",)) if "not found" in found else ""))
            continue
        fonts[LOOK_FACES[key]] = str(set_file(folder, rel))
        line, col = head.where(("look", "fonts", key))
        sources[LOOK_FACES[key]] = model.FontSource(head.path, line, col, key, str(rel))
    back_raw: dict[str, Any] = dict(raw.get("back", {}))
    design_keys = [k for k in back_raw if k != "image"]
    if "image" in back_raw and design_keys:
        err(("back", design_keys[0]), f"a back is an `image` or a design ({', '.join(design_keys)}), not both")
        return model.Look(fonts, inherited.back_image, inherited.back, sources)
    image, back = inherited.back_image, inherited.back
    if "image" in back_raw:
        image = _back_image(folder, str(back_raw["image"]), lambda msg: err(("back", "image"), msg))
        back = model.BackDesign()
    elif design_keys:
        fields = {k: (v.upper() if k in BACK_INKS else v) for k, v in back_raw.items()}
        back = model.BackDesign(**{**vars(inherited.back), **fields})
        image = ""
    backs = dict(inherited.backs)
    for key, raw_back in dict(raw.get("backs", {})).items():
        backs[key] = _type_back(folder, dict(raw_back), back, lambda at, msg, k=key: err(("backs", k, *at), msg))
    return model.Look(fonts, image, back, sources, backs)


def _type_back(folder: Path, raw: dict[str, Any], back: model.BackDesign, err: Any) -> model.OwnBack:
    """One type's back: its image, or its design over the set's (`back`), held to the set back's rules."""
    design_keys = [k for k in raw if k != "image"]
    if "image" in raw and design_keys:
        err((design_keys[0],), f"a back is an `image` or a design ({', '.join(design_keys)}), not both")
        return model.OwnBack()
    if "image" in raw:
        return model.OwnBack(image=_back_image(folder, str(raw["image"]), lambda msg: err(("image",), msg)))
    fields = {k: (v.upper() if k in BACK_INKS else v) for k, v in raw.items()}
    design = model.BackDesign(**{**vars(back), **fields})
    return model.OwnBack(design=design)


def card_back(folder: Path, doc: Document, at: tuple[str | int, ...], raw: dict[str, Any], look: model.Look,
              type_key: str, label: str, diags: list[Diagnostic]) -> model.OwnBack | None:
    """A card's own back (its `back:` at `at` in `doc`, a schema-checked card or override): an image in the set
    folder, or a design over its type's back design (the set's when the type has none or an image); each problem
    an error at its key, `label` naming the card. None when it has no `back:` or a problem."""
    if "back" not in raw:
        return None
    found = len(diags)

    def err(where: tuple[str, ...], msg: str) -> None:
        line, col = doc.where((*at, "back", *where))
        diags.append(Diagnostic(doc.path, line, col, f"{label} field `back{''.join('.' + w for w in where)}`: {msg}"))

    back_raw = dict(raw["back"])
    for key in ("title", "subtitle"):
        if isinstance(back_raw.get(key), str) and (hidden := hidden_character(back_raw[key], one_line=True)):
            err((key,), f"has {hidden}; write plain visible text")
    typed = look.backs.get(type_key)
    over = typed.design if typed is not None and not typed.image else look.back
    back = _type_back(folder, back_raw, over, err)
    return back if len(diags) == found else None


def _back_image(folder: Path, rel: str, err: Any) -> str:
    facts = read_image(folder, rel)
    if isinstance(facts, str):
        err(facts + (_near(folder, rel, (".png", ".jpg", ".jpeg", ".tif", ".tiff")) if "not found" in facts
                     else ""))
        return ""
    if facts.format not in BACK_FORMATS:
        err(f"image '{rel}' is {facts.format}; expected one of {', '.join(sorted(BACK_FORMATS))}")
        return ""
    need = tuple(round(mm / 25.4 * MIN_DPI) for mm in BACK_BOX_MM)
    dpi = min(facts.width / (BACK_BOX_MM[0] / 25.4), facts.height / (BACK_BOX_MM[1] / 25.4))
    if dpi < MIN_DPI - 0.5:
        err(f"image '{rel}' is {facts.width} x {facts.height} px: {dpi:.0f} dpi on a poker card with 3 mm bleed "
            f"({BACK_BOX_MM[0]:g} x {BACK_BOX_MM[1]:g} mm); it needs {MIN_DPI} dpi, at least {need[0]} x {need[1]} px")
        return ""
    return str(set_file(folder, rel))
