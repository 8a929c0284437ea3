"""Print-shop presets (`templates/layout/shops.yaml`): each shop's pixel size, bleed, safe zone, pages
and inks, so `--shop tgc` replaces a bleed to type. The specs and their sources are in docs/printing.md."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardgen.errors import CardgenError
from cardgen.paths import templates_dir
from cardgen.yaml_doc import read_plain

PAGE_MODES: tuple[str, ...] = ("design", "copy", "pairs")
SHOP_NAMES: tuple[str, ...] = ("mpc", "tgc", "drivethrucards")  # the keys of shops.yaml, for the command line


class ShopError(CardgenError):
    """An unknown shop or a preset file that does not say what a shop needs."""


@dataclass(frozen=True)
class Shop:
    key: str
    name: str
    size: str
    dpi: float  # the spec's own; art below it is refused for the shop
    dpis: tuple[float, ...]  # every resolution it takes
    px: tuple[int, int]
    bleed_px: float
    safe_px: float
    pages: str
    cmyk: bool

    @property
    def bleed_mm(self) -> float:
        return self.bleed_px / self.dpi * 25.4

    @property
    def safe_mm(self) -> float:
        return self.safe_px / self.dpi * 25.4

    def px_at(self, dpi: float) -> tuple[int, int]:
        """The card image's pixels at one of its resolutions (the spec's size, scaled)."""
        return round(self.px[0] * dpi / self.dpi), round(self.px[1] * dpi / self.dpi)


@cache
def shops() -> dict[str, Shop]:
    path = templates_dir() / "layout" / "shops.yaml"
    data = read_plain(path.read_text(encoding="utf-8"))
    out = {}
    try:
        for key, s in data.items():
            shop = Shop(str(key), str(s["name"]), str(s["size"]), float(s["dpi"]),
                        tuple(float(d) for d in s.get("dpis", [s["dpi"]])), (int(s["px"][0]), int(s["px"][1])),
                        float(s["bleed_px"]), float(s["safe_px"]), str(s["pages"]), bool(s["cmyk"]))
            if shop.pages not in PAGE_MODES:
                raise ShopError(f"{path}: shop '{key}': pages must be one of {', '.join(PAGE_MODES)}")
            out[str(key)] = shop
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ShopError(f"{path}: a shop lacks or mistypes {exc}") from None
    return out


def shop(key: str) -> Shop:
    known = shops()
    if key not in known:
        raise ShopError(f"unknown shop '{key}' (choose from {', '.join(known)})")
    return known[key]
