"""Every number option's type in one place: finite (no `nan`, no `inf`) and within a documented range.

click's FloatRange lets `nan` through (no comparison with nan is true), and an unbounded size or count
makes a command run for hours or fill memory; these types refuse both at parse time, with the range in
the message, before any work starts.
"""

from __future__ import annotations

import math
from typing import Any

import click

from cardgen.sim.cluster import ClusterError, check_address

MAX_BLEED_MM = 10.0  # shops ask for 3 mm (1/8 in); more only wastes paper
MAX_GAP_MM = 50.0
MAX_GAMES = 10_000_000  # about a day of greedy games on one core; the results hold a few kB whatever the count
MAX_SIM_SECONDS = 3600.0


class Finite(click.FloatRange):
    """A float within [min, max] that is a real number: `nan` and `inf` are refused like any out-of-range value."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number; expected {self._describe_range()}", param, ctx)
        return number


class ClusterAddress(click.types.StringParamType):
    """`--cluster`: `local` or a scheduler address, its form checked at parse time (nothing is contacted)."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return check_address(super().convert(value, param, ctx))
        except ClusterError as exc:
            self.fail(str(exc), param, ctx)


BLEED_MM = Finite(0.0, MAX_BLEED_MM)
GAP_MM = Finite(0.0, MAX_GAP_MM)
TTS_DPI = Finite(30.0, 400.0)
SHOP_DPI = Finite(72.0, 1200.0)
SIM_SECONDS = Finite(0.1, MAX_SIM_SECONDS)
ALPHA = Finite(0.0, 1.0, min_open=True, max_open=True)
CLUSTER = ClusterAddress()
GAMES = click.IntRange(1, MAX_GAMES)
JOBS = click.IntRange(min=1)  # any count is accepted, and a local run capped at the CPUs (sim.runner.usable_jobs)
PREVIEW_DPI = click.IntRange(18, 1200)
