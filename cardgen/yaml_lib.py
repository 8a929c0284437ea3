"""PyYAML, imported through cardgen.lazy_patterns: the pattern its pure-Python reader compiles at import
(unused with the C loader cardgen reads with) compiles on first use. Import `yaml` from here."""

from __future__ import annotations

from cardgen.lazy_patterns import import_module

import_module("yaml")

import yaml as yaml  # noqa: E402
