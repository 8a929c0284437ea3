"""Tabletop Simulator export: face sheets, a back image and a saved-object JSON.

Tabletop Simulator reads a custom deck as grids of at most 10 x 7 card images;
the last slot of a grid is shown for hidden cards. Each card *design* takes one
slot and its copies repeat its CardID in `DeckIDs`, so a 110-card deck of 28
designs needs one small sheet. The images are cut from the same PDF that prints
(through the preview rasteriser), so the digital deck looks like the paper one.
When a card or a card type has a back of its own, each face sheet gets a sheet
of backs laid out slot for slot (`UniqueBack`), so each card shows its own back.

Deck keys (the `CustomDeck` numbers, CardID // 100) come from a hash of the set
and its sheet images, so two exported decks dropped on one table do not share a
key unless their images are the same.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any

from PIL import Image

from cardgen.errors import CardgenError
from cardgen.model import CardSet, OwnBack
from cardgen.numbering import card_label
from cardgen.render.preview import CardImage, back_image, card_images
from cardgen.render.set_look import own_back
from cardgen.render.sheets import PrintOptions

MAX_COLS = 10
MAX_ROWS = 7
DESIGNS_PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot holds the hidden-card image
DEFAULT_DPI = 120.0
MAX_SHEET_PX = 4096  # Tabletop Simulator's guidance: larger sheets load slowly or not at all
KEY_MIN, KEY_SPAN = 1000, 9_000_000  # deck keys; CardID = key * 100 + slot stays within a 32-bit int
URL_SCHEMES = ("http", "https", "file")
LOCAL_ONLY = ("file:// image URLs only work on this machine: to share the deck, upload the images and pass "
              "--url-base https://.../ (their folder's URL)")


class TtsError(CardgenError):
    """An option the Tabletop Simulator export cannot honour (a URL base it would write into every card)."""


def check_url_base(url: str) -> str:
    """`url` if Tabletop Simulator can fetch images below it: http(s) or file, no control characters or spaces.

    Every FaceURL and BackURL starts with it, so a `javascript:` URL or a line break would end up in each card.
    """
    bad = next((ch for ch in url if ord(ch) < 33 or ord(ch) == 127 or 0x80 <= ord(ch) < 0xA0), None)
    if bad is not None:
        raise TtsError(f"--url-base holds a {'space' if bad == ' ' else 'control character'} "
                       f"(U+{ord(bad):04X}); give a plain URL such as https://example.org/deck/")
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in URL_SCHEMES:
        raise TtsError(f"--url-base must be an http(s):// or file:// URL, not '{url}'")
    if scheme in ("http", "https") and (not url[len(scheme):].startswith("://") or len(url.rstrip("/")) <= len(
            scheme) + 3):
        raise TtsError(f"--url-base '{url}' names no host; write it as https://host/folder/")
    return url


CARD_COLOUR = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # the tint TTS saves for untinted cards


@dataclass(frozen=True)
class TtsExport:
    """Files of an export, by file name, and the numbers tests and notes report."""

    files: dict[str, bytes]
    sheets: int
    cards: int
    designs: int
    card_px: tuple[int, int]
    sheet_px: tuple[int, int]  # the largest sheet
    warnings: tuple[str, ...] = ()


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def grid_of(designs: int) -> tuple[int, int]:
    """Columns and rows of a sheet holding `designs` cards plus the hidden-card slot (at most 10 x 7)."""
    slots = min(designs, DESIGNS_PER_SHEET) + 1
    cols = min(MAX_COLS, slots)
    return cols, -(-slots // cols)


def fit_card_px(card_px: tuple[int, int], grid: tuple[int, int], max_sheet_px: int | None) -> tuple[int, int]:
    """The card image size, shrunk (keeping its proportions) so a sheet of `grid` stays within the limit."""
    w, h = card_px
    if max_sheet_px is None:
        return w, h
    scale = min(1.0, max_sheet_px / (grid[0] * w), max_sheet_px / (grid[1] * h))
    return (w, h) if scale >= 1.0 else (max(1, int(w * scale)), max(1, int(h * scale)))


def deck_key(cs: CardSet, sheet_png: bytes, index: int) -> int:
    """A CustomDeck key from the set's name and the sheet's image: same content, same key; else distinct."""
    digest = hashlib.sha256(f"{cs.name}\0{cs.title}\0{index}\0".encode() + sheet_png).digest()
    return KEY_MIN + int.from_bytes(digest[:8], "big") % KEY_SPAN


def _guid(*parts: object) -> str:
    return hashlib.sha256("\0".join(str(p) for p in parts).encode()).hexdigest()[:6]


def export_tts(cs: CardSet, dpi: float = DEFAULT_DPI, url_base: str = "",
               opts: PrintOptions | None = None, max_sheet_px: int | None = MAX_SHEET_PX) -> TtsExport:
    """Face sheets `<set>-tts-faces-N.png`, `<set>-tts-back.png` and `<set>-tts.json` (a saved object); when
    a card has a back of its own (or its type's), a sheet of backs `<set>-tts-backs-N.png` beside each.

    `url_base` prefixes the image names in the JSON (Tabletop Simulator needs
    URLs it can fetch: upload the images and pass their folder's URL).
    `max_sheet_px=None` keeps the card images at `dpi` even when a sheet gets
    larger than Tabletop Simulator's 4096 px guidance (the result then warns).
    """
    opts = opts or PrintOptions(size="poker")
    designs = card_images(cs, opts, dpi)
    w, h = fit_card_px((max(im.image.width for im in designs), max(im.image.height for im in designs)),
                       grid_of(len(designs)), max_sheet_px)
    back = back_image(cs, opts, dpi, (w, h))
    backs = _own_backs(cs, designs, opts, dpi, (w, h))
    stem = cs.name
    files: dict[str, bytes] = {}
    custom: dict[str, Any] = {}
    contained: list[dict[str, Any]] = []
    ids: list[int] = []
    warnings: list[str] = []
    sheet_px = (0, 0)
    chunks = [designs[i:i + DESIGNS_PER_SHEET] for i in range(0, len(designs), DESIGNS_PER_SHEET)]
    back_url = url_base + f"{stem}-tts-back.png"
    for s, chunk in enumerate(chunks):
        cols, rows = grid_of(len(chunk))
        sheet = _sheet(chunk, cols, rows, (w, h), back)
        png = _png(sheet)
        name = f"{stem}-tts-faces-{s + 1}.png"
        files[name] = png
        sheet_px = max(sheet_px, sheet.size)
        if max(sheet.size) > MAX_SHEET_PX:
            warnings.append(f"{name} is {sheet.size[0]} x {sheet.size[1]} px, over the {MAX_SHEET_PX} px "
                            "Tabletop Simulator recommends; it may load slowly or fail on some machines")
        key = deck_key(cs, png, s)
        entry = {"FaceURL": url_base + name, "BackURL": back_url, "NumWidth": cols, "NumHeight": rows,
                 "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        if backs:  # some card has a back of its own: a sheet of backs, slot for slot
            backs_name = f"{stem}-tts-backs-{s + 1}.png"
            files[backs_name] = _png(_sheet(chunk, cols, rows, (w, h), back,
                                            [backs.get(id(im.card), back) for im in chunk]))
            entry |= {"BackURL": url_base + backs_name, "UniqueBack": True}
        custom[str(key)] = entry
        for slot, im in enumerate(chunk):
            card_id = key * 100 + slot
            for copy in range(im.card.count):
                ids.append(card_id)
                contained.append(_card_object(cs, im, card_id, str(key), entry, copy))
    files[f"{stem}-tts-back.png"] = _png(back)
    deck = {"GUID": _guid(cs.name, *custom), "Name": "DeckCustom", "Transform": _transform(),
            "Nickname": cs.title, "Description": f"{len(ids)} cards in {len(designs)} designs, generated by cardgen",
            "GMNotes": "", "ColorDiffuse": CARD_COLOUR, "Locked": False, "Grid": True, "Snap": True,
            "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
            "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False, "DeckIDs": ids, "CustomDeck": custom,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ContainedObjects": contained}
    saved = {"SaveName": "", "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "",
             "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [deck],
             "TabStates": {}, "VersionNumber": ""}
    files[f"{stem}-tts.json"] = (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return TtsExport(files=files, sheets=len(chunks), cards=len(ids), designs=len(designs), card_px=(w, h),
                     sheet_px=sheet_px, warnings=tuple(warnings))


def _own_backs(cs: CardSet, designs: list[CardImage], opts: PrintOptions, dpi: float,
               size: tuple[int, int]) -> dict[int, Image.Image]:
    """The back image of each design whose back is its own or its type's (by `id` of its card), each distinct
    back rendered once; empty when every card has the set's back (one back image serves the deck)."""
    rendered: dict[OwnBack, Image.Image] = {}
    out: dict[int, Image.Image] = {}
    for im in designs:
        own = own_back(cs, im.card)
        if own is not None:
            if own not in rendered:
                rendered[own] = back_image(cs, opts, dpi, size, im.card)
            out[id(im.card)] = rendered[own]
    return out


def _sheet(chunk: list[CardImage], cols: int, rows: int, size: tuple[int, int], back: Image.Image,
           images: list[Image.Image] | None = None) -> Image.Image:
    """A sheet of `chunk`'s faces (or of `images`, one a design), `back` in the last slot (for hidden cards)."""
    w, h = size
    sheet = Image.new("RGB", (cols * w, rows * h), "white")
    for slot, im in enumerate(chunk):
        r, c = divmod(slot, cols)
        sheet.paste(im.image.resize((w, h), Image.Resampling.LANCZOS) if images is None else images[slot],
                    (c * w, r * h))
    sheet.paste(back, ((cols - 1) * w, (rows - 1) * h))
    return sheet


def _card_object(cs: CardSet, im: CardImage, card_id: int, key: str, entry: dict[str, Any],
                 copy: int) -> dict[str, Any]:
    """One card as Tabletop Simulator saves it inside a deck, with its own CustomDeck entry."""
    card = im.card
    return {"GUID": _guid(cs.name, card_id, copy), "Name": "Card", "Transform": _transform(),
            "Nickname": card.name, "Description": f"{cs.type_of(card).label}\n{card_label(card, cs)}",
            "GMNotes": "", "ColorDiffuse": CARD_COLOUR, "Locked": False, "Grid": True, "Snap": True,
            "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
            "HideWhenFaceDown": True, "Hands": True, "CardID": card_id, "SidewaysCard": False,
            "CustomDeck": {key: entry}, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _transform() -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
