"""The verdict cache: a rerun on unchanged files answers with the very verdicts the games gave, and says so; any
change to a card, a rule or a setting that decides the verdicts misses it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.sim.balance import BalanceConfig, compare_versions, result_json, verdict_lines
from cardgen.sim.balance.cache import cache_key

PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"
QUICK = BalanceConfig(tables=(2,), games=400)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", str(tmp_path))
    return tmp_path


def _versions() -> tuple[CardSet, CardSet]:
    b = load_set(PLANTS / "bigger-heal")
    return load_set(Path(b.base or "")), b


def test_a_rerun_is_answered_from_the_cache_with_the_same_verdicts(cache: Path) -> None:
    a, b = _versions()
    first = compare_versions(a, b, QUICK)
    again = compare_versions(a, b, dataclasses.replace(QUICK, jobs=2))  # jobs does not decide the verdicts
    assert not first.cached and again.cached and len(list(cache.glob("*.json"))) == 1
    one, two = result_json(first), result_json(again)
    for key in ("seconds", "jobs", "cached"):
        one.pop(key), two.pop(key)
    assert one == two
    assert verdict_lines(again)[-1].endswith("; answered from the cache of an identical run)")
    assert "cache" not in verdict_lines(first)[-1]


def test_changing_a_card_a_rule_or_a_setting_misses_the_cache() -> None:
    a, b = _versions()
    key = cache_key(a, b, QUICK)
    card = dataclasses.replace(b.cards[0], damage=(9,))
    other_card = dataclasses.replace(b, cards=(card, *b.cards[1:]))
    other_rule = dataclasses.replace(b, rules=dataclasses.replace(b.rules, life=b.rules.life + 1))
    other_base = dataclasses.replace(a, rules=dataclasses.replace(a.rules, hand_size=a.rules.hand_size + 1))
    keys = {cache_key(a, other_card, QUICK), cache_key(a, other_rule, QUICK), cache_key(other_base, b, QUICK),
            cache_key(a, b, dataclasses.replace(QUICK, seed=1)), cache_key(a, b, dataclasses.replace(QUICK, games=600)),
            cache_key(a, b, dataclasses.replace(QUICK, min_effect=4.0))}
    assert len(keys) == 6 and key not in keys
    assert cache_key(a, b, dataclasses.replace(QUICK, jobs=2)) == key


def test_a_damaged_entry_is_played_again(cache: Path) -> None:
    a, b = _versions()
    compare_versions(a, b, QUICK)
    [entry] = cache.glob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    again = compare_versions(a, b, QUICK)
    assert not again.cached and entry.read_text(encoding="utf-8").startswith("{\"a\": ")


def test_no_cache_when_turned_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDGEN_BALANCE_CACHE", "0")
    a, b = _versions()
    assert not compare_versions(a, b, QUICK).cached and not compare_versions(a, b, QUICK).cached


@pytest.mark.parametrize("source", ["balance/procedure.py", "balance/intervals.py", "balance_defaults.py"])
def test_a_change_to_the_procedure_or_its_defaults_misses_the_cache(source: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget, the looks and their shares are code and defaults, not settings: the key hashes them."""
    a, b = _versions()
    key = cache_key(a, b, QUICK)
    read = Path.read_bytes

    def edited(path: Path) -> bytes:
        data = read(path)
        return data + b"\n# edited\n" if path.as_posix().endswith(f"cardgen/sim/{source}") else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert cache_key(a, b, QUICK) != key
