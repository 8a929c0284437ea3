"""The bench scripts stay importable (their figures are read by people, so they must not rot unnoticed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_bench_script_imports_and_has_main(script: str) -> None:
    spec = importlib.util.spec_from_file_location(f"bench_{script[:-3]}", BENCH / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # runs imports and definitions only: main() is behind __name__ == "__main__"
    assert callable(getattr(module, "main", None))
