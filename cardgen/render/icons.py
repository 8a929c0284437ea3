"""Inline icons: a set's keyword icons measured and drawn as vectors (SVG) or images (PNG).

An SVG icon becomes one PDF form XObject per document, named after a hash of
the file's bytes, and each use places that form: the PDF stays small and the
icon stays vector at any zoom. A plain SVG (cardgen.svgshapes) is drawn with a
few path operations; any other goes through svglib, imported only then. A PNG
icon is embedded once by reportlab and placed the same way.
"""

from __future__ import annotations

import hashlib
import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from cardgen import __version__, messages
from cardgen.errors import CardgenError
from cardgen.iconwords import IconWord, icon_word
from cardgen.library_compat import text_cursor
from cardgen.model import CardSet
from cardgen.render.inks import rgb_to_cmyk
from cardgen.render.subset_tags import distinct_subset_tags
from cardgen.svgshapes import SimpleSvg, read_svg, svglib_drawing

ICON_FONT = "Sans"  # a bundled face (cardgen.render.fonts); icons draw no text, but the renderer sets a font


class IconError(CardgenError):
    """An icon file that can no longer be read."""


class Icon(NamedTuple):
    """A keyword icon: its key, its file and its proportions (width / height)."""

    key: str
    path: str
    aspect: float
    forms: tuple[str, ...] = ()  # the words it stands before, in a language other than English (AUSWEICHEN)


class _Art(NamedTuple):
    drawing: Any  # a SimpleSvg or (for other SVG) a reportlab Drawing; None for PNG
    width: float
    height: float
    digest: str


def _art(path: str) -> _Art:
    """The icon file's drawing and size, read once for each state of the file (a watch rebuild after an edit of
    the icon reads it again)."""
    found = Path(path).stat()
    return _art_of(path, found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=256)
def _art_of(path: str, _mtime_ns: int, _size: int) -> _Art:
    """A pure memo (the file's state is in the key), bounded: a few sets' icons."""
    data = Path(path).read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:16]
    if path.lower().endswith(".svg"):
        simple = read_svg(path)
        if simple is not None:
            return _Art(simple, simple.width, simple.height, digest)
        drawing = svglib_drawing(path)
        if drawing is None:  # the loader refuses such a file; a file changed since loading ends here
            raise IconError(f"{path}: not a readable SVG drawing")
        return _Art(drawing, float(drawing.width), float(drawing.height), digest)
    with Image.open(path) as img:
        return _Art(None, float(img.width), float(img.height), digest)


def icons_of(cs: CardSet) -> tuple[Icon, ...]:
    """The set's icons, ready to measure (the loader has checked every file)."""
    out = []
    for key, path in sorted(cs.icons.items()):
        art = _art(path)
        forms = () if cs.language == messages.DEFAULT_LANGUAGE else messages.keyword_forms(key, cs.language)
        out.append(Icon(key, path, art.width / art.height, forms))
    return tuple(out)


@lru_cache(maxsize=4096)
def find(word: str, icons: tuple[Icon, ...]) -> tuple[IconWord, Icon] | None:
    """The icon `word` stands for, with how the word splits around it."""
    hit = icon_word(word, tuple(i.key for i in icons), {i.key: i.forms for i in icons if i.forms})
    if hit is None:
        return None
    return hit, next(i for i in icons if i.key == hit.key)


def form_name(icon: Icon) -> str:
    return f"cardgen-icon-{_art(icon.path).digest}"


def draw_icon(canvas: Any, icon: Icon, x_pt: float, y_pt: float, w_pt: float, h_pt: float,
              cmyk: bool = False) -> None:
    """Place `icon` with its bottom-left corner at (x, y) points, scaled to w x h points (its inks as
    device CMYK with `cmyk`, for print-shop files: a raster icon is flattened on white and converted)."""
    art = _art(icon.path)
    if art.drawing is None:
        if cmyk:
            canvas.drawImage(cmyk_image(icon.path), x_pt, y_pt, w_pt, h_pt)
        else:
            canvas.drawImage(icon.path, x_pt, y_pt, w_pt, h_pt, mask="auto")
        return
    name = form_name(icon) + ("-cmyk" if cmyk else "")
    if not canvas.hasForm(name):
        canvas.beginForm(name, 0, 0, art.width, art.height)
        if isinstance(art.drawing, SimpleSvg):
            draw_simple(canvas, art.drawing, cmyk)
        else:
            from reportlab.graphics import renderPDF

            drawing = _cmyk_drawing(art.drawing) if cmyk else art.drawing
            drawing.initialFontName = ICON_FONT  # else the renderer names Helvetica, an unembedded font
            renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x_pt, y_pt)
    canvas.scale(w_pt / art.width, h_pt / art.height)
    canvas.doForm(name)
    canvas.restoreState()


def cmyk_image(path: str) -> Any:
    """The image at `path` flattened on white (PDF/X-1a allows no transparency) in device CMYK by the
    plain formula of `cardgen.render.inks`, as a reportlab ImageReader."""
    from reportlab.lib.utils import ImageReader

    with Image.open(path) as src:
        rgba = src.convert("RGBA")
    flat = Image.new("RGB", rgba.size, (255, 255, 255))
    flat.paste(rgba, mask=rgba.getchannel("A"))
    raw = flat.tobytes()
    cache: dict[bytes, bytes] = {}
    inks = bytearray()
    for i in range(0, len(raw), 3):
        rgb = raw[i:i + 3]
        ink = cache.get(rgb)
        if ink is None:
            c, m, y, k = rgb_to_cmyk(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)
            ink = cache[rgb] = bytes((round(c * 255), round(m * 255), round(y * 255), round(k * 255)))
        inks += ink
    out = Image.frombytes("CMYK", flat.size, bytes(inks))
    return ImageReader(out)


def _cmyk_drawing(drawing: Any) -> Any:
    """A copy of an svglib drawing with every fill and stroke colour turned into device CMYK."""
    from reportlab.lib.colors import CMYKColor, Color

    copy = drawing.copy()

    def walk(node: Any) -> None:
        for attr in ("fillColor", "strokeColor"):
            colour = getattr(node, attr, None)
            if isinstance(colour, Color) and not isinstance(colour, CMYKColor):
                setattr(node, attr, CMYKColor(*rgb_to_cmyk(colour.red, colour.green, colour.blue)))
        for child in getattr(node, "contents", []):
            walk(child)

    walk(copy)
    return copy


def draw_simple(canvas: Any, svg: SimpleSvg, cmyk: bool = False) -> None:
    """The shapes in SVG paint order, in the drawing's own units flipped to PDF's y-up."""
    canvas.saveState()
    canvas.transform(*svg.matrix)
    for shape in svg.shapes:
        p = shape.paint
        path = canvas.beginPath()
        for op, args in shape.ops:
            if op == "m":
                path.moveTo(*args)
            elif op == "l":
                path.lineTo(*args)
            elif op == "c":
                path.curveTo(*args)
            else:
                path.close()
        if p.fill is not None:
            if cmyk:
                canvas.setFillColorCMYK(*rgb_to_cmyk(*p.fill))
            else:
                canvas.setFillColorRGB(*p.fill)
        if p.stroke is not None:
            if cmyk:
                canvas.setStrokeColorCMYK(*rgb_to_cmyk(*p.stroke))
            else:
                canvas.setStrokeColorRGB(*p.stroke)
            canvas.setLineWidth(p.width)
            canvas.setLineCap(p.cap)
            canvas.setLineJoin(p.join)
        canvas.drawPath(path, stroke=int(p.stroke is not None), fill=int(p.fill is not None),
                        fillMode=0 if p.even_odd else 1)  # reportlab: 0 even-odd, 1 non-zero
    canvas.restoreState()


# --- icons in reportlab paragraphs (the rules page) -------------------------------------------------
#
# A paragraph reserves an icon's room with no-break spaces (the last one at a smaller size, so the room
# is exact and the line no taller), glued to the keyword so a line never breaks between them, and an
# <onDraw> callback right after the room draws the icon in it.

CALLBACK = "cardgenIcon"
_KEYWORD = re.compile(r"\{[A-Za-z][A-Za-z0-9-]*\}\S*|\b[A-Z][A-Z'’]*[A-Z]\b\S*")
NBSP = "\u00a0"


def paragraph_markup(text: str, icons: tuple[Icon, ...], size_pt: float, em: float, gap_em: float,
                     face: str) -> str:
    """Paragraph markup with each icon word's icon placed in front of it (or for its `{key}` token)."""
    if not icons:
        return text
    parts = re.split(r"(<[^>]*>)", text)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            parts[i] = _KEYWORD.sub(lambda m: _marked(m.group(0), icons, size_pt, em, gap_em, face), part)
    return "".join(parts)


def _spacer(room: float, face: str, size_pt: float) -> str:
    """No-break spaces `room` points wide in `face`: whole ones at `size_pt`, the rest in a smaller one."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    one = float(stringWidth(NBSP, face, size_pt))
    whole = int(room // one)
    rest = (room - whole * one) / one * size_pt
    tail = f'<font size="{rest:.3f}">{NBSP}</font>' if rest > 0.01 else ""
    return f'<font name="{face}">{NBSP * whole}{tail}</font>'


def _marked(word: str, icons: tuple[Icon, ...], size_pt: float, em: float, gap_em: float, face: str) -> str:
    found = find(word, icons)
    if found is None:
        return word
    hit, icon = found
    h = size_pt * em
    w = h * icon.aspect
    room = w + (size_pt * gap_em if hit.text[:1].isalnum() else 0.0)
    # the callback comes after the room: at the start of a word reportlab would hang it on the word before
    return (f'{hit.before}{_spacer(room, face, size_pt)}'
            f'<onDraw name="{CALLBACK}" label="{icon.path.encode().hex()} {w:.3f} {h:.3f} {room:.3f}"/>{hit.text}')


def _draw_from_paragraph(canvas: Any, _kind: str, label: str) -> None:
    """The callback of `_marked`'s mark: its label carries the icon's file (in hex: a label is one attribute's
    words), so the canvas needs no registry of icons."""
    path, w, h, room = label.split()
    x, y = text_cursor(canvas)  # where the callback sits: the end of the icon's room, on the baseline
    draw_icon(canvas, Icon("", bytes.fromhex(path).decode(), float(w) / float(h)), x - float(room), y, float(w),
              float(h))


PRODUCER = f"cardgen {__version__}"  # the PDFs' /Producer


class IconCanvas(Canvas):  # type: ignore[misc]
    """A reportlab Canvas that knows how to draw paragraph icons (see `paragraph_markup`), and gives each font
    it embeds a subset tag of its own when it saves into memory (`subset_tags`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setProducer(PRODUCER)  # every file cardgen writes names it, the rules page's too
        self.setNamedCB(CALLBACK, _draw_from_paragraph)
        target = args[0] if args else kwargs.get("filename")
        self._written_to = target if isinstance(target, io.BytesIO) else None

    def save(self) -> None:
        super().save()
        buf = self._written_to
        if buf is not None:
            data = distinct_subset_tags(buf.getvalue())
            buf.seek(0)
            buf.truncate()
            buf.write(data)
