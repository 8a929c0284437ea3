"""Word wrapping and shrink-to-fit for card text, with keywords (DODGE, STUNS 2T) set in bold.

Text is shrunk step by step, first in the regular face and then in the
condensed one, never below the legible minimum; if it still does not fit the
caller reports the card. A set's keyword icons (`{dodge}`, or DODGE with its
icon in front) are measured as part of their word, so fitting counts them.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cardgen.render.icons import Icon, find
from cardgen.render.pen import Pen, TextMetrics

_EDGES = re.compile(r"^\W*(.*?)\W*$", re.DOTALL)
_IN_KEYWORD = frozenset("0123456789²⁴'’-")


class Faces(NamedTuple):
    regular: str
    bold: str


class Run(NamedTuple):
    """Part of a line in one face, or an icon; `x` is its offset from the line start in millimetres."""

    text: str
    face: str
    x: float
    icon: Icon | None = None
    width: float = 0.0  # an icon's width (text runs are measured from their text)

    def end(self, m: TextMetrics, size_pt: float) -> float:
        return self.x + (self.width if self.icon is not None else m.width(self.text, self.face, size_pt))


class _Piece(NamedTuple):
    text: str
    face: str
    w: float
    icon: Icon | None = None


class IconStyle(NamedTuple):
    """The icons text may show and how big they are, relative to the font size (face.yaml's text.icon_*), and
    the language's own keywords, set in bold in any script (the catalogue's `keywords`)."""

    icons: tuple[Icon, ...] = ()
    em: float = 1.0
    gap_em: float = 0.0
    keywords: frozenset[str] = frozenset()
    turns: str = "TZ"  # the letters after a number of turns (check_text.turns: 2T, 2Z)


NO_ICONS = IconStyle()  # text without icons


class Block(NamedTuple):
    """Wrapped text at one size: lines of runs, with their line height."""

    size_pt: float
    leading: float  # millimetres between baselines
    lines: tuple[tuple[Run, ...], ...]
    icon_h: float = 0.0  # height of its inline icons, millimetres

    @property
    def height(self) -> float:
        return len(self.lines) * self.leading


def is_keyword(word: str, keywords: frozenset[str] = frozenset(), turns: str = "TZ") -> bool:
    """A word set in bold: one of the language's keywords, a word in capitals of any cased script (DODGE,
    ESQUIVÉE, УКЛОН), or a number of turns (2T, 2Z); punctuation around it aside."""
    core = _EDGES.match(word)
    text = core.group(1) if core else word
    if text in keywords:
        return True
    if len(text) >= 2 and text[0].isupper() and all(c.isupper() or c in _IN_KEYWORD for c in text[1:]):
        return True
    return len(text) >= 2 and text[-1] in turns and text[:-1].isdigit() and text[:-1].isascii()


def icon_height(size_pt: float, style: IconStyle) -> float:
    """An inline icon's height in millimetres at `size_pt`."""
    return size_pt * style.em * 25.4 / 72.0


def _measured(m: TextMetrics, size_pt: float, faces: Faces, bold_keywords: bool,
              style: IconStyle) -> dict[str, tuple[_Piece, ...]]:
    """Words already measured at this size, in these faces, with these icons (fitting measures a word at every
    size it tries, and the same words recur across cards): one lookup of the style a wrap, not one a word."""
    key = (size_pt, faces, bold_keywords, style)
    known: dict[str, tuple[_Piece, ...]] | None = m.words.get(key)
    if known is None:
        known = m.words[key] = {}
    return known


def _pieces(m: TextMetrics, word: str, size_pt: float, faces: Faces, bold_keywords: bool,
            style: IconStyle) -> tuple[_Piece, ...]:
    """A word as its text and icon pieces, each measured."""
    def text(t: str) -> _Piece:
        face = faces.bold if bold_keywords and is_keyword(t, style.keywords, style.turns) else faces.regular
        return _Piece(t, face, m.width(t, face, size_pt))

    found = find(word, style.icons)
    if found is None:
        return (text(word),)
    hit, icon = found
    h = icon_height(size_pt, style)
    gap = size_pt * style.gap_em * 25.4 / 72.0 if hit.text and hit.text[0].isalnum() else 0.0
    pieces = [text(hit.before)] if hit.before else []
    pieces.append(_Piece("", faces.regular, h * icon.aspect + gap, icon))
    if hit.text:
        pieces.append(text(hit.text))
    return tuple(pieces)


def wrap(m: TextMetrics, text: str, width: float, size_pt: float, faces: Faces, leading_ratio: float,
         bold_keywords: bool = True, style: IconStyle = NO_ICONS) -> Block | None:
    """Greedy word wrap into `width` mm; None when a single word is wider than the line."""
    words = text.split()
    space = {f: m.width(" ", f, size_pt) for f in (faces.regular, faces.bold)}
    lines: list[tuple[Run, ...]] = []
    current: list[tuple[_Piece, ...]] = []
    used = 0.0
    known = _measured(m, size_pt, faces, bold_keywords, style)
    for word in words:
        pieces = known.get(word)
        if pieces is None:
            pieces = known[word] = _pieces(m, word, size_pt, faces, bold_keywords, style)
        w = sum(p.w for p in pieces)
        if w > width:
            return None
        extra = w + (space[current[-1][-1].face] if current else 0.0)
        if current and used + extra > width:
            lines.append(_runs(current, space, style, size_pt))
            current, used = [], 0.0
            extra = w
        current.append(pieces)
        used += extra
    if current:
        lines.append(_runs(current, space, style, size_pt))
    return Block(size_pt, size_pt * leading_ratio * 25.4 / 72.0, tuple(lines), icon_height(size_pt, style))


def _runs(words: list[tuple[_Piece, ...]], space: dict[str, float], style: IconStyle,
          size_pt: float) -> tuple[Run, ...]:
    """Runs of one line: words of one face joined by spaces, icons on their own."""
    runs: list[Run] = []
    open_run: list[str | float] = []  # text, face, x of the text run being built

    def flush() -> None:
        if open_run:
            runs.append(Run(str(open_run[0]), str(open_run[1]), float(open_run[2])))
            open_run.clear()

    x = 0.0
    for i, pieces in enumerate(words):
        if i:
            x += space[words[i - 1][-1].face]
            first = pieces[0]
            if open_run and first.icon is None and first.face == open_run[1]:
                open_run[0] = f"{open_run[0]} "
            else:
                flush()
        for p in pieces:
            if p.icon is not None:
                flush()
                runs.append(Run("", p.face, x, p.icon, icon_height(size_pt, style) * p.icon.aspect))
            elif open_run and p.face == open_run[1]:
                open_run[0] = f"{open_run[0]}{p.text}"
            else:
                flush()
                open_run.extend([p.text, p.face, x])
            x += p.w
    flush()
    return tuple(runs)


def sizes(max_pt: float, min_pt: float, step: float) -> list[float]:
    out: list[float] = []
    s = max_pt
    while s >= min_pt - 1e-9:
        out.append(round(s, 3))
        s -= step
    return out


def fit_lines(m: TextMetrics, text: str, width: float, height: float, max_pt: float, min_pt: float, step: float,
              faces: tuple[Faces, ...], leading_ratio: float, style: IconStyle = NO_ICONS) -> Block | None:
    """The largest size (trying each face pair in turn) at which `text` fits the box; None if none does
    (remembered in `m`: a design is fitted once however many copies and sheets draw it)."""
    key = (text, width, height, max_pt, min_pt, step, faces, leading_ratio, style)
    if key in m.fitted:
        found: Block | None = m.fitted[key]
        return found
    found = m.fitted[key] = _fit(m, text, width, height, max_pt, min_pt, step, faces, leading_ratio, style)
    return found


def _fit(m: TextMetrics, text: str, width: float, height: float, max_pt: float, min_pt: float, step: float,
         faces: tuple[Faces, ...], leading_ratio: float, style: IconStyle) -> Block | None:
    for pair in faces:
        for size in sizes(max_pt, min_pt, step):
            block = wrap(m, text, width, size, pair, leading_ratio, style=style)
            if block is not None and block.height <= height + 1e-9:
                return block
    return None


def draw_block(pen: Pen, block: Block, x: float, top: float, colour: str, centred_width: float | None = None) -> None:
    """Draw a block with its first line's cap height at `top` (baselines go down from there)."""
    baseline = top - block.size_pt * 0.74 * 25.4 / 72.0
    for line in block.lines:
        shift = 0.0
        if centred_width is not None and line:
            shift = (centred_width - line[-1].end(pen.metrics, block.size_pt)) / 2
        for run in line:
            if run.icon is not None:
                pen.icon(run.icon, x + shift + run.x, baseline, run.width, block.icon_h)
            else:
                pen.text(x + shift + run.x, baseline, run.text, run.face, block.size_pt, colour)
        baseline -= block.leading
