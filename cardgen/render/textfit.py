"""Word wrapping and shrink-to-fit for card text, with keywords (DODGE, STUNS 2T) set in bold.

Text is shrunk step by step, first in the regular face and then in the
condensed one, never below the legible minimum; if it still does not fit the
caller reports the card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cardgen.render.pen import Pen

_KEYWORD = re.compile(r"^\W*(?:[A-Z][A-Z0-9²⁴'’\-]+|\d+T)\W*$")


@dataclass(frozen=True)
class Faces:
    regular: str
    bold: str


@dataclass(frozen=True)
class Run:
    """Part of a line in one face; `x` is its offset from the line start in millimetres."""

    text: str
    face: str
    x: float


@dataclass(frozen=True)
class Block:
    """Wrapped text at one size: lines of runs, with their line height."""

    size_pt: float
    leading: float  # millimetres between baselines
    lines: tuple[tuple[Run, ...], ...]

    @property
    def height(self) -> float:
        return len(self.lines) * self.leading


def is_keyword(word: str) -> bool:
    return bool(_KEYWORD.match(word))


def wrap(text: str, width: float, size_pt: float, faces: Faces, leading_ratio: float,
         bold_keywords: bool = True) -> Block | None:
    """Greedy word wrap into `width` mm; None when a single word is wider than the line."""
    words = text.split()
    space = {f: Pen.width(" ", f, size_pt) for f in (faces.regular, faces.bold)}
    lines: list[tuple[Run, ...]] = []
    current: list[tuple[str, str, float]] = []  # word, face, width
    used = 0.0
    for word in words:
        face = faces.bold if bold_keywords and is_keyword(word) else faces.regular
        w = Pen.width(word, face, size_pt)
        if w > width:
            return None
        extra = w + (space[face] if current else 0.0)
        if current and used + extra > width:
            lines.append(_runs(current, space))
            current, used = [], 0.0
            extra = w
        current.append((word, face, w))
        used += extra
    if current:
        lines.append(_runs(current, space))
    return Block(size_pt, size_pt * leading_ratio * 25.4 / 72.0, tuple(lines))


def _runs(words: list[tuple[str, str, float]], space: dict[str, float]) -> tuple[Run, ...]:
    runs: list[Run] = []
    x = 0.0
    texts: list[str] = []
    face = words[0][1]
    start = 0.0
    for i, (word, f, w) in enumerate(words):
        if f != face:
            runs.append(Run(" ".join(texts), face, start))
            texts, face, start = [], f, x
        texts.append(word)
        x += w + (space[f] if i < len(words) - 1 else 0.0)
    runs.append(Run(" ".join(texts), face, start))
    return tuple(runs)


def sizes(max_pt: float, min_pt: float, step: float) -> list[float]:
    out: list[float] = []
    s = max_pt
    while s >= min_pt - 1e-9:
        out.append(round(s, 3))
        s -= step
    return out


@lru_cache(maxsize=4096)
def fit_lines(text: str, width: float, height: float, max_pt: float, min_pt: float, step: float,
              faces: tuple[Faces, ...], leading_ratio: float) -> Block | None:
    """The largest size (trying each face pair in turn) at which `text` fits the box; None if none does."""
    for pair in faces:
        for size in sizes(max_pt, min_pt, step):
            block = wrap(text, width, size, pair, leading_ratio)
            if block is not None and block.height <= height + 1e-9:
                return block
    return None


def clear_caches() -> None:
    fit_lines.cache_clear()


def draw_block(pen: Pen, block: Block, x: float, top: float, colour: str, centred_width: float | None = None) -> None:
    """Draw a block with its first line's cap height at `top` (baselines go down from there)."""
    baseline = top - block.size_pt * 0.74 * 25.4 / 72.0
    for line in block.lines:
        shift = 0.0
        if centred_width is not None and line:
            last = line[-1]
            line_w = last.x + Pen.width(last.text, last.face, block.size_pt)
            shift = (centred_width - line_w) / 2
        for run in line:
            pen.text(x + shift + run.x, baseline, run.text, run.face, block.size_pt, colour)
        baseline -= block.leading
