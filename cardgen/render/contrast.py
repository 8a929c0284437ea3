"""Text contrast by WCAG 2.x: relative luminance and contrast ratio, and the pairs of inks a card prints.

A card's footer, badges and captions are small (7 pt), so every text ink must reach 4.5:1 against what
it is printed on (3:1 is WCAG's figure for large text only: 18 pt, or 14 pt bold). `text_pairs` lists
each pair the card faces, backs and sheets draw, from the layout data and the set's type colours, so
`cardgen validate` and the tests hold every palette to the same number.
"""

from __future__ import annotations

from typing import Any, NamedTuple

MIN_SMALL = 4.5  # WCAG 1.4.3 (AA) for normal-size text
MIN_LARGE = 3.0  # 18 pt and up, or 14 pt bold and up


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of '#RRGGBB'."""
    h = hex_colour.lstrip("#")
    chans = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in chans)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    """Contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def best_ink(fill: str, dark: str, light: str) -> str:
    """Of the two inks, the one that reads better on `fill` (the higher contrast ratio; dark on a tie)."""
    return dark if ratio(fill, dark) >= ratio(fill, light) else light


class Pair(NamedTuple):
    """A text ink on a fill, what it is, and the least ratio it needs."""

    what: str
    ink: str
    fill: str
    need: float = MIN_SMALL
    keys: tuple[str, ...] = ()  # the colours.yaml keys (dotted) its inks come from, the likelier culprit first
    type_label: str = ""  # a type colour's pair: the type's label

    @property
    def ratio(self) -> float:
        return ratio(self.ink, self.fill)


def text_pairs(colours: dict[str, Any], type_colours: dict[str, str], paper: str = "#FFFFFF") -> list[Pair]:
    """Every (text ink, fill) pair a card face, back or sheet prints with these inks and type colours."""
    dark, light = str(colours["dark_ink"]), str(colours["light_ink"])
    out = []
    inks = ("dark_ink", "light_ink")
    for label, fill in type_colours.items():
        out.append(Pair(f"{label}: name and footer on the type colour", best_ink(fill, dark, light), fill,
                        keys=inks, type_label=label))
    for what, key, fill in [("opener badge", "opener_badge", colours["opener_badge"])] + [
            (f"{k} badge", f"badges.{k}", v) for k, v in dict(colours["badges"]).items()]:
        out.append(Pair(what, best_ink(str(fill), dark, light), str(fill), keys=(key, *inks)))
    back = dict(colours["back"])
    out += [Pair("value on its box", str(colours["value_text"]), str(colours["value_box"]),
                 keys=("value_text", "value_box")),
            Pair("rules text", str(colours["card_text"]), paper, keys=("card_text",)),
            Pair("flavour text", str(colours["flavour_text"]), paper, keys=("flavour_text",)),
            Pair("split divider caption", str(colours["caption_text"]), paper, keys=("caption_text",)),
            Pair("page label and scale bar", str(colours["page_text"]), paper, keys=("page_text",)),
            Pair("card back title", str(back["ink"]), str(back["fill"]), keys=("back.ink", "back.fill")),
            Pair("card back subtitle on the pattern", str(back["ink"]), str(back["pattern"]),
                 keys=("back.ink", "back.pattern"))]
    return out


def too_faint(colours: dict[str, Any], type_colours: dict[str, str]) -> list[Pair]:
    """The pairs below the ratio they need."""
    return [p for p in text_pairs(colours, type_colours) if p.ratio < p.need - 1e-9]


def problem_text(p: Pair) -> str:
    return f"{p.what}: {p.ink} on {p.fill} is {p.ratio:.2f}:1, below {p.need:g}:1"


def contrast_problems(colours: dict[str, Any], type_colours: dict[str, str]) -> list[str]:
    return [problem_text(p) for p in too_faint(colours, type_colours)]
