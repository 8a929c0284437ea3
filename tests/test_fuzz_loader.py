"""Property: whatever bytes a set folder holds, loading ends in a set or in the tool's own error, never a crash."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.checks import load_set
from cardgen.errors import CardgenError
from cardgen.paths import card_data_dir

BUNDLED = {f"{p.parent.name}/{p.name}": p.read_text(encoding="utf-8")
           for p in sorted(card_data_dir().glob("*/*.yaml"))}
CARD_FILES = sorted(k for k in BUNDLED if not k.endswith("/set.yaml"))
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = [*"abcdeABC019 -:_[]{},&*!|>'\"#%@`?\n\t\\²", "cards:", "name: ", "type: ", "count: ", "damage: ",
          " - ", "\n  ", "&a ", "*a", "!!python/object ", "<<: ", "---\n", "\x00", "\ufeff"]
YAMLISH = st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)


def _load_folder(files: dict[str, str | bytes]) -> None:
    """Load a folder holding `files`; only a loaded set or a CardgenError may come out."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "fuzzed"
        folder.mkdir()
        for name, content in files.items():
            data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
            (folder / name).write_bytes(data)
        try:
            cs = load_set(folder)
        except CardgenError:
            return
        assert cs.total == cs.deck_size  # anything that loads is a consistent set


def _set_text(card_file: str) -> str:
    return BUNDLED[card_file.split("/")[0] + "/set.yaml"]


@st.composite
def mutated_text(draw: st.DrawFn) -> tuple[str, str]:
    """A bundled card file with a few text edits: deletions, insertions, duplicated or swapped lines."""
    key = draw(st.sampled_from(CARD_FILES))
    text = BUNDLED[key]
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "dup", "swap", "digit"]))
        lines = text.splitlines(keepends=True)
        if op == "delete" and text:
            a = draw(st.integers(0, len(text) - 1))
            text = text[:a] + text[a + draw(st.integers(1, 40)):]
        elif op == "insert":
            a = draw(st.integers(0, len(text)))
            text = text[:a] + draw(YAMLISH) + text[a:]
        elif op == "dup" and lines:
            i = draw(st.integers(0, len(lines) - 1))
            text = "".join([*lines[:i + 1], lines[i], *lines[i + 1:]])
        elif op == "swap" and len(lines) > 1:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        elif op == "digit":
            text = text.replace(draw(st.sampled_from(["1", "2", "3", "4"])), draw(st.sampled_from(["0", "-1", "x"])), 1)
    return key, text


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10), st.floats(allow_nan=False, width=16),
                    st.sampled_from([1.0, 2.0, 10**6, -(10**9)]),
                    st.text(max_size=12), st.sampled_from(["basic", "grab", "hold", "dodge", "#FFFFFF", "Jab"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)


def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*at, i))


def _replace(data: Any, at: tuple[Any, ...], value: Any) -> Any:
    if not at:
        return value
    head, rest = at[0], at[1:]
    if isinstance(data, dict):
        return {**data, head: _replace(data[head], rest, value)}
    copy = list(data)
    copy[head] = _replace(copy[head], rest, value)
    return copy


@st.composite
def mutated_data(draw: st.DrawFn) -> tuple[str, str]:
    """A bundled file parsed, one value anywhere in it replaced by random data, and dumped again."""
    key = draw(st.sampled_from(sorted(BUNDLED)))
    data = yaml.safe_load(BUNDLED[key])
    at = draw(st.sampled_from(list(_paths(data))))
    return key, yaml.safe_dump(_replace(data, at, draw(VALUES)), allow_unicode=True)


@FUZZ
@given(mutated_text())
def test_mutated_bundled_text_only_raises_cardgen_errors(case: tuple[str, str]) -> None:
    key, text = case
    _load_folder({"set.yaml": _set_text(key), "cards.yaml": text})


@FUZZ
@given(mutated_data())
def test_mutated_bundled_data_only_raises_cardgen_errors(case: tuple[str, str]) -> None:
    key, text = case
    if key.endswith("/set.yaml"):
        set_name = key.split("/")[0]
        cards = {k.split("/")[1]: BUNDLED[k] for k in CARD_FILES if k.startswith(set_name + "/")}
        _load_folder({"set.yaml": text, **cards})
    else:
        _load_folder({"set.yaml": _set_text(key), "cards.yaml": text})


@settings(max_examples=100, deadline=None)
@given(YAMLISH, st.binary(max_size=64))
def test_random_text_and_bytes_only_raise_cardgen_errors(text: str, raw: bytes) -> None:
    _load_folder({"set.yaml": text, "cards.yaml": raw})
    _load_folder({"set.yaml": BUNDLED["lunch/set.yaml"], "cards.yaml": text})
