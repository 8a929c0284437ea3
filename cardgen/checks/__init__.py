"""Checks of a set the loader built: passes over a `LoadedSet` that give diagnostics, each at its file and line.

The loader refuses what is malformed; these find what makes a well-formed set unusable: text its templates
cannot render or that says what the card does not do, art and glyphs that will not print, inks that cannot be
told apart, cards that need a field their type implies, cards no rule lets anyone play, faces that do not fit
(`before_build`), and what only games show (`sanity`). `load_set` runs the load-time passes (every command
loads sets through it); `validate` and `build` add the others.
"""

from __future__ import annotations

from cardgen.checks.run import check, load_set, load_set_with_warnings, load_sets

__all__ = ["check", "load_set", "load_set_with_warnings", "load_sets"]
