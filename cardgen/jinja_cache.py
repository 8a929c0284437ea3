"""Jinja's own bytecode cache for the bundled templates, so a build does not compile them in every process.

Lexing, parsing and compiling the four templates a build renders is a large share of a build's own work. Jinja's
`FileSystemBytecodeCache` keeps the compiled code per template, keyed by the template's name and checked
against a checksum of its source, so an edited template is compiled afresh, exactly as without a cache; its
default folder is private to the user (`<tmp>/_jinja2-cache-<uid>`, made mode 0700 and checked to be theirs).
Output does not depend on it: the same code runs whether it was compiled now or loaded.
`CARDGEN_TEMPLATE_CACHE=0` turns it off.
"""

from __future__ import annotations

import os

import jinja2


def bytecode_cache() -> jinja2.BytecodeCache | None:
    """The cache for the bundled templates' environments, or None when turned off or unusable."""
    if os.environ.get("CARDGEN_TEMPLATE_CACHE", "1") == "0":
        return None
    try:
        return jinja2.FileSystemBytecodeCache()
    except RuntimeError:  # the default folder exists but is not the user's: compile, as without a cache
        return None
