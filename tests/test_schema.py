"""The checked-in JSON Schema is current, every bundled file points editors at it, and it matches the loader."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.loader.schema import CARD_PROPERTIES, SCHEMA_FILE, schema, schema_json
from cardgen.model import Card
from cardgen.paths import card_data_dir

SCHEMA_COMMENT = "# yaml-language-server: $schema=../card-set.schema.json"
BUNDLED_FILES = sorted(card_data_dir().glob("*/*.yaml"))


def test_checked_in_schema_is_not_stale() -> None:
    checked_in = (card_data_dir() / SCHEMA_FILE).read_text(encoding="utf-8")
    assert checked_in == schema_json(), (
        "card_data/card-set.schema.json is stale: run `cardgen schema --out card_data/card-set.schema.json`")


def test_schema_command_prints_the_same_schema() -> None:
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == schema()


def test_schema_command_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["schema", "--out", str(out)])
    assert result.exit_code == 0
    assert out.read_text(encoding="utf-8") == schema_json()


def test_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


def test_there_are_bundled_files() -> None:
    assert {p.parent.name for p in BUNDLED_FILES} >= {"lunch", "beer", "classic"}


@pytest.mark.parametrize("path", BUNDLED_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_file_starts_with_the_schema_comment(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == SCHEMA_COMMENT


@pytest.mark.parametrize("path", BUNDLED_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_file_passes_the_plain_schema(path: Path) -> None:
    """What an editor checks with the schema alone agrees with the loader (nothing the editor would flag)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema()).iter_errors(data))
    assert not errors, [e.message for e in errors]


def test_every_card_field_of_the_schema_is_a_model_field() -> None:
    fields = set(Card.__dataclass_fields__)
    assert set(CARD_PROPERTIES) <= fields, set(CARD_PROPERTIES) - fields


def _keys(props: dict[str, object]) -> set[str]:
    """Every property name in a schema fragment, nested ones included."""
    out: set[str] = set()
    for key, sub in props.items():
        out.add(key)
        if isinstance(sub, dict) and isinstance(sub.get("properties"), dict):
            out |= _keys(sub["properties"])
    return out


def test_every_field_is_documented() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "card-format.md").read_text(encoding="utf-8")
    props = schema()["properties"]
    fields = _keys(props) | set(props["types"]["additionalProperties"]["properties"])
    missing = sorted(f for f in fields if f"| `{f}` |" not in doc)
    assert not missing, f"docs/card-format.md lacks a table row for: {missing}"
