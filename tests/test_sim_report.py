"""The simulation report's card panel: plays stacked by the way they were made, the share of holders who played
each card, and the designer's changed and new cards highlighted."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from reportlab.graphics.shapes import Drawing, Rect, String

from cardgen.checks import load_set
from cardgen.cli.compare_cmd import report_view
from cardgen.cli.main import main
from cardgen.render.sim_report import compare_drawing, report_drawing, style
from cardgen.sim.balance import BalanceConfig, compare_versions, result_json
from cardgen.sim.impact import length_words, paired_length
from cardgen.sim.runner import SimConfig, results_json, simulate

PLANTED = Path(__file__).parent / "fixtures" / "tune" / "planted-mix"


@pytest.fixture(scope="module")
def beer_json() -> dict[str, Any]:
    cs = load_set("beer")
    return results_json(cs, simulate(cs, SimConfig(players=2, games=80, seed=2, agents=("greedy",))))


def _strings(dr: Drawing) -> dict[str, String]:
    return {s.text: s for s in dr.contents if isinstance(s, String)}


def _rects_at(dr: Drawing, y: float, tol: float) -> list[Rect]:
    return [r for r in dr.contents if isinstance(r, Rect) and abs(r.y - y) < tol]


def test_plays_are_stacked_by_the_way_the_card_was_played(beer_json: dict[str, Any]) -> None:
    grab = beer_json["cards"]["Grab"]
    assert {"turn", "after block"} <= set(grab["played_as"])  # greedy grabs on its turn and after blocking
    dr = report_drawing(beer_json)
    label = _strings(dr)["Grab"]
    ways = style().ways
    row = _rects_at(dr, label.y - 0.13 * style().row, 0.01)  # bars sit 0.13 of a row below their label
    fills = {r.fillColor for r in row}
    assert ways["turn"] in fills and ways["after block"] in fills
    stacked = sorted((r for r in row if r.fillColor in (ways["turn"], ways["after block"])), key=lambda r: r.x)
    assert stacked[0].x + stacked[0].width == pytest.approx(stacked[1].x)  # end to end, turn plays first
    total = sum(r.width for r in stacked)
    assert stacked[1].width / total == pytest.approx(grab["played_as"]["after block"] / grab["played"], rel=1e-6)


def test_the_share_of_holders_who_played_each_card_is_printed(beer_json: dict[str, Any]) -> None:
    texts = set(_strings(report_drawing(beer_json)))
    for card in beer_json["cards"].values():
        assert f"{100 * card['played_when_held']:.0f} %" in texts
    assert "% of holders" in texts


def test_changed_and_new_cards_are_highlighted(beer_json: dict[str, Any]) -> None:
    ink = style().ink["changed"]
    plain = report_drawing(beer_json)
    assert not [r for r in plain.contents if isinstance(r, Rect) and r.fillColor == ink]
    marked = report_drawing({**beer_json, "changes": {"Smack": "changed", "Smite": "new"},
                             "changes_against": "beer"})
    strings = _strings(marked)
    bands = [r for r in marked.contents if isinstance(r, Rect) and r.fillColor == ink]
    assert len(bands) == 2
    for name, tag in (("Smack", "changed"), ("Smite", "new")):
        y = strings[name].y
        assert any(r.y <= y <= r.y + r.height for r in bands), name
        assert any(s.text == tag and abs(s.y - y) < 0.01 for s in marked.contents if isinstance(s, String))
    assert any("changed against beer" in s.text for s in marked.contents if isinstance(s, String))


def test_paired_game_length_matches_a_hand_computation() -> None:
    a, b = [10, 20, 30, 12], [9, 18, 30, 15]
    d = [y - x for x, y in zip(a, b, strict=True)]
    got = paired_length(4, sum(a), sum(b), sum(x * x for x in d))
    assert got is not None
    mean = sum(d) / 4
    se = statistics.stdev(d) / math.sqrt(4)
    assert got["a"] == 18.0 and got["b"] == 18.0 and got["change"] == mean == 0.0
    assert got["low"] == pytest.approx(-1.96 * se, abs=0.01) and got["high"] == pytest.approx(1.96 * se, abs=0.01)
    assert paired_length(0, 0, 0, 0) is None
    assert paired_length(2, 30, 0, 0, paired=False) == {"a": 15.0}
    assert length_words({"a": 18.9, "b": 17.3, "change": -1.6, "low": -1.9, "high": -1.2}) == \
        "games last 17.3 turns instead of 18.9 (-1.6 [-1.9, -1.2])"


@pytest.fixture(scope="module")
def compared() -> dict[str, Any]:
    """Beer against a set with a stronger Knuckle Sammitch (3 -> 5) and a new 5-damage basic attack: the games
    get shorter."""
    return result_json(compare_versions(load_set("beer"), load_set(str(PLANTED)),
                                        BalanceConfig(tables=(2,), games=400)))


def test_compare_reports_the_game_length_change(compared: dict[str, Any]) -> None:
    length = compared["tables"][0]["length"]
    assert set(length) == {"a", "b", "change", "low", "high"}
    assert length["change"] == pytest.approx(length["b"] - length["a"], abs=0.02)
    assert length["low"] <= length["change"] <= length["high"] < 0  # harder hits, shorter games


def test_the_compare_chart_marks_changed_and_new_cards_and_shows_the_length(compared: dict[str, Any]) -> None:
    view = report_view(compared)
    assert view["changes"] == {"Knuckle Sammitch": "changed", "Haymaker": "new"}
    dr = compare_drawing(view)
    strings = [s for s in dr.contents if isinstance(s, String)]
    bands = [r for r in dr.contents if isinstance(r, Rect) and r.fillColor == style().ink["changed"]]
    assert len(bands) == 2
    for name in ("Knuckle Sammitch", "Haymaker"):
        y = next(s.y for s in strings if s.text == name)
        assert any(r.y <= y <= r.y + r.height for r in bands), name
    assert any(s.text.startswith("Game length: ") for s in strings)
    assert any("vs " in s.text for s in strings)  # the new card's figure names the band edge it is against


def test_simulate_names_the_cards_an_extending_set_changed(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["simulate", "--set", str(PLANTED), "--players", "2", "--agent", "greedy",
                                       "--games", "20", "--json", str(out)])
    assert result.exit_code == 0, result.output
    res = json.loads(out.read_text())
    assert res["changes"] == {"Knuckle Sammitch": "changed", "Haymaker": "new"}
    assert res["changes_against"] == "beer"
    plain = tmp_path / "beer.json"
    assert CliRunner().invoke(main, ["simulate", "--set", "beer", "--games", "5", "--json", str(plain)]).exit_code == 0
    assert "changes" not in json.loads(plain.read_text())
