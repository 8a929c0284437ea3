"""The balance verdicts in every language cardgen ships: every key the words use is in every bundled
catalogue, and a German verdict reads German, with German numbers, from the real command."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import pytest
from click.testing import CliRunner

import cardgen.checks.sanity as sanity_module
import cardgen.sim.balance.words as words_module
from cardgen import messages
from cardgen.cli.main import main
from cardgen.loader import load_set
from cardgen.model import Role
from cardgen.paths import templates_dir
from cardgen.sim.balance.model import (
    BalanceConfig,
    BalanceResult,
    Call,
    CardChange,
    Edge,
    Interaction,
    RuleChange,
    Stopped,
    TableResult,
    Verdict,
)
from cardgen.sim.balance.verdicts import FIRST_PLAYER, GAME_LENGTH
from cardgen.sim.balance.words import verdict_lines

SHIPPED = tuple(sorted(p.stem for p in (templates_dir() / "messages").glob("*.yaml")))
PLANTS = Path(__file__).parent / "fixtures" / "balance_plants"
KEY = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")


def _literal_keys() -> set[str]:
    """Every string in the words' code that names a `balance:` entry ('card.flagged', 'lint.summary')."""
    tops = set(messages.message("balance", "en"))
    out = set()
    for module in (words_module, sanity_module):
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value):
                key = node.value.removeprefix("balance.")
                if key.split(".")[0] in tops:
                    out.add(key)
    return out


def _made_keys() -> set[str]:
    """The keys the words build from a figure: a call, an edge, a role, a stop, a unit, a direction."""
    calls = {c.replace(" ", "_") for c in get_args(Call)}
    flags = {"stronger", "weaker", "too_strong", "too_weak", "never_played"}
    return ({f"calls.{c}" for c in calls} | {f"flag.{c}" for c in flags}
            | {f"edge.{e}" for e in get_args(Edge) if e} | {f"roles.{r.value}" for r in Role}
            | {f"table.stops.{s.replace(' ', '_')}" for s in get_args(Stopped) if s != "nothing to test"}
            | {f"units.{u}" for u in ("points", "turns")} | {f"direction.{d}" for d in ("stronger", "weaker")}
            | {f"band.{k}_{r}" for k in ("card", "new") for r in ("role", "any")}
            | {"count.cards", "count.copies", "lint.stand_out", "marks"})


def test_the_code_names_the_keys_it_uses() -> None:
    found = _literal_keys()
    assert {"card.flagged", "game.longer", "table.identical", "lint.summary", "footer"} <= found | {"footer"}
    assert len(found) > 50  # the scan sees the sentences, not a handful


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_verdict_key_is_in_every_bundled_catalogue(lang: str) -> None:
    missing = []
    for key in sorted(_literal_keys() | _made_keys()):
        try:
            messages.message(f"balance.{key}", lang)
        except messages.MessagesError:
            missing.append(key)
    assert not missing, f"templates/messages/{lang}.yaml lacks balance.{missing}"


def _v(**kw: object) -> Verdict:
    base: dict[str, object] = dict(card="Kick⁴", players=2, family="changed", kind="mechanics", call="weaker",
                                   change=-12.4, low=-15.8, high=-9.1, p=0.001, a_rate=0.27, b_rate=0.15,
                                   others=0.29, a_others=0.24, games=3600, reference=None, games_needed=None)
    base.update(kw)
    return Verdict(**base)  # type: ignore[arg-type]


def _every_kind_of_sentence() -> BalanceResult:
    """A result with a verdict of every family and call the words have a sentence for."""
    two = (_v(), _v(card="Dodge", call="no change that matters", change=0.4, low=-1.2, high=2.0),
           _v(card="Bar Brawl", family="new", kind="new", call="too strong", change=6.1, low=2.2, high=10.0,
              reference="Kick⁴", edge="hi", reference_role="attack", other_reference="Love Tap", other_change=11.0),
           _v(card="Coldcock", call="never played"),
           _v(card="Sucker Punch", call="undecided", change=2.2, low=-0.9, high=5.3, games_needed=12_500),
           _v(card="Block", family="knock-on", kind="unchanged", call="stronger", change=3.4, low=0.2, high=6.6),
           _v(card=GAME_LENGTH, family="rules", call="shorter", change=-8.7, low=-9.1, high=-8.3, a_rate=18.9,
              b_rate=10.2),
           _v(card=FIRST_PLAYER, family="rules", call="no change that matters", change=0.3, low=-1.0, high=1.6))
    tables = (TableResult(2, 3600, "decided", two), TableResult(4, 8000, "max games", (two[0],)))
    changes = (CardChange("Kick⁴", "mechanics", (4, 4), ("damage",)), CardChange("Bar Brawl", "new", (0, 2)))
    inter = (Interaction("Kick⁴", (2, 4), -7.8, -12.5, -3.1, 0.001, True),)
    return BalanceResult("beer", "plant-nerf", changes, tables, BalanceConfig(), 0.0, rules=(
        RuleChange("life", "15", "8"),), interactions=inter, depends_on_table=("Kick⁴",))


def test_german_verdicts_are_german_with_german_numbers() -> None:
    english = "\n".join(verdict_lines(_every_kind_of_sentence(), "en"))
    german = "\n".join(verdict_lines(_every_kind_of_sentence(), "de"))
    assert "Kick⁴, at 2 players:" in english and "-12.4 points [-15.8, -9.1]" in english
    assert "Kick⁴, bei 2 Spielern: Spieler, die mit ihr beginnen, gewinnen 15 % der Spiele" in german
    assert "-12,4 Punkte [-15,8; -9,1]" in german and "Schwächer als vorher." in german
    assert "der stärksten Angriffskarte des Grundsets" in german and "Zu stark." in german
    assert "Nie gespielt: Niemand würde sie wählen." in german and "etwa 12.500 würden es zeigen" in german
    assert "Kürzere Spiele." in german and "Fehlerrate 0,05 je Familie" in german
    assert "Kick⁴ (7,8 Punkte schwächer bei 4 Spielern als bei 2 [+3,1; +12,5])" in german
    for word in ("players", "points", "games", "stronger", "weaker", "against", "before", "not clear", "changed",
                 "the ", " and ", "card"):
        assert word not in german.replace("--max-games", ""), word


def _fields_of(result: BalanceResult) -> list[object]:
    return [(v.card, v.call, v.change) for t in result.tables for v in t.verdicts]


def test_a_german_verdict_from_the_real_command(balance_cache: Path) -> None:
    """`cardgen compare --lang de` on a nerf: the same verdict as in English, said in German."""
    plant = PLANTS / "nerf"
    base = load_set(plant).base or ""
    german = CliRunner().invoke(main, ["compare", base, str(plant), "--lang", "de"])
    assert german.exit_code == 0, german.output
    [line] = [x for x in german.stdout.splitlines() if x.startswith("  Kick⁴, bei 2 Spielern: ")]
    assert re.search(r"\(vorher: \d+ % und \d+ %\): -\d+,\d Punkte \[-\d+,\d; -\d+,\d\]: mindestens ein Sieg "
                     r"weniger in \d+ Spielen\. Schwächer als vorher\.$", line), line
    assert german.stdout.splitlines()[0].startswith("beer -> plant-nerf: 1 Karte geändert")
    english = CliRunner().invoke(main, ["compare", base, str(plant)])
    [same] = [x for x in english.stdout.splitlines() if x.startswith("  Kick⁴, at 2 players: ")]
    numbers = re.findall(r"[-+]?\d+(?:[.,]\d)?", line)
    assert numbers == re.findall(r"[-+]?\d+(?:[.,]\d)?", same.replace(".", ",")), (line, same)
