"""Where the bundled data lives: beside the package in a checkout, or under sys.prefix/share/cardgen."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def data_root() -> Path:
    """The folder holding card_data/, templates/ and fonts/."""
    for root in (_CHECKOUT, Path(sys.prefix) / "share" / "cardgen"):
        if (root / "card_data").is_dir() and (root / "templates").is_dir():
            return root
    return _CHECKOUT


def card_data_dir() -> Path:
    return data_root() / "card_data"


def templates_dir() -> Path:
    return data_root() / "templates"


def fonts_dir() -> Path:
    return data_root() / "fonts"


def bundled_set_names() -> list[str]:
    """Names of the bundled sets, in a stable order."""
    base = card_data_dir()
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "set.yaml").is_file())
