"""Reading card sets: YAML with positions, schema checks, semantic checks, mixing."""

from __future__ import annotations

from cardgen.loader.load import load_set, load_set_with_warnings, resolve_set
from cardgen.loader.mix import mix_sets
from cardgen.model import CardSet
from cardgen.paths import bundled_set_names


def load_sets(refs: list[str] | tuple[str, ...]) -> CardSet:
    """Load one set or mix several (`--set lunch --set beer`)."""
    return mix_sets([load_set(r) for r in refs])


__all__ = ["bundled_set_names", "load_set", "load_set_with_warnings", "load_sets", "mix_sets", "resolve_set"]
