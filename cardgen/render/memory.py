"""What rules-page layouts remember, held by a render session instead of by modules.

A render session (cardgen.render.session) starts with an empty one, so a build is cold and nothing needs
clearing between builds. A watch keeps one across its rebuilds: a rebuild after an edit that leaves the rules
page's words alone reuses its laid-out pages. Both stores are bounded; a layout made from a remembered piece
writes the bytes a cold one writes (tests/test_warm_rebuild.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

PARSED_MAX = 4096  # parsed paragraphs: every paragraph of a few pages at the sizes a search tries
PLANS_MAX = 8  # laid-out rules pages: a few sets, papers and languages in one watch


@dataclass
class RulesMemory:
    """Parsed paragraph fragments by (text, style) and whole rules plans by what they are made of."""

    parsed: dict[tuple[str, str, str, float, float], list[Any]] = field(default_factory=dict)
    plans: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict)

    def plan(self, key: Hashable, make: Callable[[], T]) -> T:
        """The plan remembered for `key`, else `make()`'s (remembered; the least recently used is forgotten)."""
        if key in self.plans:
            self.plans.move_to_end(key)
            found: T = self.plans[key]
            return found
        made = make()
        self.plans[key] = made
        if len(self.plans) > PLANS_MAX:
            self.plans.popitem(last=False)
        return made

    def remember_parsed(self, key: tuple[str, str, str, float, float], frags: list[Any]) -> None:
        if len(self.parsed) >= PARSED_MAX:
            self.parsed.clear()
        self.parsed[key] = frags
