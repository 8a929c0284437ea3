"""The quick schema check never calls a bad document valid, and calls every bundled file valid.

The loader trusts its "yes" and imports jsonschema only for a "no", so a "yes" where jsonschema
finds a violation would let a bad file through: this compares the two over the bundled files and
many broken variants of them (wrong types, bounds, unknown and missing keys, bad enums).
"""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import yaml

from cardgen.loader.quick_schema import plainly_valid
from cardgen.loader.scenario_file import SCENARIO_SCHEMA
from cardgen.loader.schema import CARD_SCHEMA, schema
from cardgen.loader.schema_check import _strict_integer
from cardgen.paths import card_data_dir

BUNDLED = sorted(card_data_dir().glob("*/*.yaml"))
ODD_VALUES: list[Any] = [None, True, 0, -1, 100, 2.0, 3.5, "", "x" * 200, "Not-A-Key", "#12345", [], [0], [1, 1],
                         {}, {"zz": 1}, "gift", ["gift", "gift"]]


def _full(schema_dict: dict[str, Any]) -> Any:
    cls = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer))
    return cls(schema_dict)


def _paths(x: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*at, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, (*at, i))


def _variants(doc: Any, rng: random.Random, n: int) -> Iterator[Any]:
    """Copies of `doc` with one thing broken: a value replaced, a key dropped or an unknown key added."""
    paths = [p for p in _paths(doc) if p]
    for _ in range(n):
        out = copy.deepcopy(doc)
        path = rng.choice(paths)
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        kind = rng.random()
        if kind < 0.7:
            parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif kind < 0.85 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent["colour" if rng.random() < 0.5 else "nmae"] = rng.choice(ODD_VALUES)
        yield out


def test_every_bundled_file_is_plainly_valid() -> None:
    """Else the fast path is never taken and a build imports jsonschema after all."""
    full = _full(schema())
    for path in BUNDLED:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert full.is_valid(data), path
        assert plainly_valid(schema(), data), path


@pytest.mark.parametrize("kind", ["set", "card"])
def test_never_says_yes_where_jsonschema_says_no(kind: str) -> None:
    rng = random.Random(12)
    target = schema() if kind == "set" else CARD_SCHEMA
    full = _full(target)
    said_no = 0
    for path in BUNDLED:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        docs = [data] if kind == "set" else data.get("cards", [])[:6]
        for doc in docs:
            for variant in _variants(doc, rng, 60):
                quick, real = plainly_valid(target, variant), full.is_valid(variant)
                assert not quick or real, variant
                assert quick or not real or variant == doc, variant  # exact on the keywords it knows
                said_no += not quick
    assert said_no > 100  # the variants really were broken


def test_scenario_schema_agrees() -> None:
    full = _full(SCENARIO_SCHEMA)
    rng = random.Random(3)
    for path in sorted((card_data_dir().parent / "tests" / "scenarios").glob("*.yaml"))[:10]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert plainly_valid(SCENARIO_SCHEMA, data) == full.is_valid(data), path
        for variant in _variants(data, rng, 40):
            assert not plainly_valid(SCENARIO_SCHEMA, variant) or full.is_valid(variant), variant


def test_an_unknown_keyword_means_not_sure() -> None:
    assert not plainly_valid({"type": "string", "format": "email"}, "a")
    assert plainly_valid({"type": "string", "description": "words"}, "a")


def test_a_build_of_good_files_does_not_import_jsonschema() -> None:
    code = ("import sys; from cardgen.loader import load_set; load_set('beer'); "
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
