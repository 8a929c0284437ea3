"""Checks of a set's `look:` (its own TrueType faces and card back), each problem at its line in set.yaml.

Every file must lie inside the set folder (the same rule as art and icons), be a regular file and read
as what it claims: a font is parsed by reportlab's TrueType reader (the one that embeds it), so a
PostScript-outline OpenType, a font that forbids embedding or a corrupt file is refused here, not half-way
through a print run. A back image needs 300 dpi on the largest named card with a 3 mm bleed; a back
design's ink needs WCAG 4.5:1 on its fill and on its stripes; and once the cards are known, every
character they print must be in every face the set brings (`glyph_problems`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from cardgen import model
from cardgen.bounded_read import NotRegularFile, OutsideSetFolder, UnreadableFile, read_set_file, set_file
from cardgen.errors import Diagnostic
from cardgen.loader.art import MIN_DPI, read_image
from cardgen.loader.font_file import font_file_problem
from cardgen.loader.schema import LOOK_FACES
from cardgen.loader.yaml_doc import Document
from cardgen.suggest import did_you_mean

MAX_FONT_BYTES = 20_000_000  # a full CJK face is about 16 MB; a Latin one well under 1 MB
BACK_FORMATS: frozenset[str] = frozenset({"PNG", "JPEG", "TIFF"})
# The back image covers the card and its bleed: judged on the largest named card (poker, 63.5 x 88.9 mm)
# with the 3 mm bleed the shops ask for, so it prints sharp at every named size.
BACK_BOX_MM = (63.5 + 2 * 3.0, 88.9 + 2 * 3.0)
BACK_INKS = ("fill", "pattern", "ink")


class SetFont(NamedTuple):
    """A parsed TrueType face of a set: the registered name is its content's digest, so the same file
    always embeds under the same name (reproducible PDFs) and two sets' files never clash."""

    name: str
    data: bytes
    charset: frozenset[int]


def font_name(data: bytes) -> str:
    return "set-" + hashlib.sha256(data).hexdigest()[:16]


@cache
def _parse(data: bytes) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(font_name(data), io.BytesIO(data))
    # reportlab's registry treats two faces of one PostScript name as one font (the first registered wins): a
    # set's own DejaVuSans, or two versions of a face, would silently draw in the other. The name made
    # unique by the content's digest also names the embedded subset (ABCDEF+Name-1a2b3c4d).
    font.face.name = font.face.name + b"-" + hashlib.sha256(data).hexdigest()[:8].encode()
    return font


def truetype(data: bytes) -> Any:
    """reportlab's TTFont of the file's bytes, parsed once per content."""
    return _parse(data)


def read_font(folder: Path, rel: str) -> SetFont | str:
    """The face the set folder's file `rel` holds, or why it cannot be used: outside the folder, not a regular
    file, over MAX_FONT_BYTES, a licence that forbids embedding, a character map too large to expand, or a file
    reportlab's TrueType reader refuses."""
    try:
        data = read_set_file(folder, rel, MAX_FONT_BYTES, "font file")
    except NotRegularFile as exc:
        return f"font file '{rel}' is {exc.why}"
    except OutsideSetFolder as exc:
        return str(exc)
    except UnreadableFile as exc:
        return f"font file '{rel}' not found" if exc.why == "not found" else f"'{rel}': {exc}"
    problem = font_file_problem(data)
    if problem is not None:
        return f"'{rel}' cannot be used: {problem}"
    from reportlab.pdfbase.ttfonts import TTFError

    try:
        font = truetype(data)
    except TTFError as exc:
        return f"'{rel}' is not a usable TrueType font ({exc})"
    except Exception as exc:  # reportlab's parser raises what struct or its tables raise on a damaged file
        return f"'{rel}' is not a usable TrueType font ({type(exc).__name__}: {exc}); is it corrupt?"
    return SetFont(font.fontName, data, frozenset(font.face.charWidths))


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
        _check_contrast(back, back_raw, err)
    backs = dict(inherited.backs)
    for key, raw_back in dict(raw.get("backs", {})).items():
        backs[key] = _type_back(folder, dict(raw_back), back, lambda at, msg, k=key: err(("backs", k, *at), msg))
    return model.Look(fonts, image, back, sources, backs)


def _type_back(folder: Path, raw: dict[str, Any], back: model.BackDesign, err: Any) -> model.TypeBack:
    """One type's back: its image, or its design over the set's (`back`), held to the set back's rules."""
    design_keys = [k for k in raw if k != "image"]
    if "image" in raw and design_keys:
        err((design_keys[0],), f"a back is an `image` or a design ({', '.join(design_keys)}), not both")
        return model.TypeBack()
    if "image" in raw:
        return model.TypeBack(image=_back_image(folder, str(raw["image"]), lambda msg: err(("image",), msg)))
    fields = {k: (v.upper() if k in BACK_INKS else v) for k, v in raw.items()}
    design = model.BackDesign(**{**vars(back), **fields})
    _check_contrast(design, raw, lambda at, msg: err(at[1:], msg))
    return model.TypeBack(design=design)


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


def _check_contrast(back: model.BackDesign, raw: dict[str, Any], err: Any) -> None:
    """The design's ink on its fill and stripes; an ink it leaves out is the bundled layout's (what is drawn)."""
    from cardgen.render.contrast import MIN_SMALL, ratio
    from cardgen.render.face_layout import bundled

    inks = bundled().colours.back
    ink = back.ink or inks.ink
    for what in ("fill", "pattern"):
        fill = getattr(back, what) or getattr(inks, what)
        got = ratio(ink, fill)
        if got < MIN_SMALL - 1e-9:
            at = "ink" if "ink" in raw else what
            where = "the title on the fill" if what == "fill" else "the subtitle on the stripes"
            err(("back", at), f"ink {ink} on {what} {fill} is {got:.2f}:1, below {MIN_SMALL:g}:1 for "
                f"{where} (WCAG contrast for small text)")


def printed_strings(cs: model.CardSet) -> Iterable[tuple[str, str]]:
    """(what, text) of every string of the set's own the card faces and backs print."""
    from cardgen.cardtext import TemplateError, rules_text

    yield "the set's title", cs.title
    for t in cs.types.values():
        yield f"type '{t.key}'", t.label
    if cs.look.back.title:
        yield "the back's title", cs.look.back.title
    if cs.look.back.subtitle:
        yield "the back's subtitle", cs.look.back.subtitle
    for c in cs.cards:
        yield f"card '{c.name}'", c.name
        try:
            text = rules_text(c, cs)
        except TemplateError:
            text = ""  # reported with the card already
        yield f"card '{c.name}'", text
        if c.flavour:
            yield f"card '{c.name}'", c.flavour


def glyph_problems(cs: model.CardSet, head: Document, raw: dict[str, Any]) -> list[Diagnostic]:
    """Each face the set brings in this set.yaml that lacks a character the set's cards print (first use named).

    A face may draw any of them: text that does not fit moves to the condensed faces, and keywords to
    the bold ones, so every face is held to every character.
    """
    faces = {LOOK_FACES[k]: k for k in dict(raw.get("fonts", {}))}
    out = []
    for face, path in cs.look.fonts.items():
        key = faces.get(face)
        if key is None:
            continue  # inherited: its own set was checked
        found = read_font(Path(path).parent, Path(path).name)
        if isinstance(found, str):
            continue
        missing: dict[str, str] = {}
        for what, text in printed_strings(cs):
            for ch in text:
                if not ch.isspace() and ord(ch) not in found.charset and ch not in missing:
                    missing[ch] = what
        if missing:
            line, col = head.where(("look", "fonts", key))
            listed = ", ".join(f"'{ch}' (U+{ord(ch):04X}, {what})" for ch, what in list(missing.items())[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            out.append(Diagnostic(head.path, line, col, f"look.fonts.{key}: '{raw['fonts'][key]}' has no glyph "
                                  f"for {len(missing)} character{'s' if len(missing) != 1 else ''} the cards "
                                  f"print: {listed}{more}"))
    return out


def colour_warnings(cs: model.CardSet, head: Document, raw_types: dict[str, Any]) -> list[Diagnostic]:
    """One warning when two type colours (one of them given in this set.yaml) are ones people with a
    colour-vision deficiency, or a greyscale print, could mistake for each other (colour_vision.PROMISED):
    at the closer pair's colour, with how many pairs are too close."""
    from cardgen.render.colour_vision import MIN_DELTA_E, PROMISED, delta_e

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
