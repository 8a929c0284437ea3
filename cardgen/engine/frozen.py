"""Pickling the frozen dataclasses of the compiled engine.

Unpickling sets each attribute on a blank object; a frozen dataclass compiled by mypyc refuses that
(`FrozenInstanceError`), so worker processes could not receive or return one. Each frozen class of the
compiled modules pickles itself instead as a call of its constructor with its own fields (`__reduce__`):
the same in pure Python.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def init_args(obj: DataclassInstance) -> tuple[object, ...]:
    """The constructor arguments that rebuild `obj`: its `init` fields, in order."""
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)
