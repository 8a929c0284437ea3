"""A non-editable install carries every bundled data file: the pyproject data-files globs cover them all."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA_DIRS = ("card_data", "templates", "fonts")


def test_data_files_cover_every_bundled_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, list[str]] = config["tool"]["setuptools"]["data-files"]
    installed: set[Path] = set()
    for target, patterns in mapping.items():
        assert target.startswith("share/cardgen/")
        for pattern in patterns:
            matched = [p for p in ROOT.glob(pattern) if p.is_file()]
            assert matched, f"{pattern} matches nothing"
            for p in matched:
                # each file lands at share/cardgen/<its path in the checkout>
                assert target == "share/cardgen/" + str(p.parent.relative_to(ROOT)), (target, p)
                installed.add(p)
    bundled = {p for d in DATA_DIRS for p in (ROOT / d).rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert bundled - installed == set()
