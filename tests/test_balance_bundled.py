"""`cardgen validate` on a clean checkout, with every default a user gets: the bundled sets' balance lint warns
about no card; the cards that stand out are those whose data marks them `intended:`, each explained in
docs/simulation.md. The defaults stop on game counts only, so this is what every machine says."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from cardgen.checks import load_set
from cardgen.cli.main import main
from cardgen.sim import balance_defaults as defaults

DOCS = Path(__file__).resolve().parents[1] / "docs" / "simulation.md"


def test_validate_on_the_bundled_sets_warns_about_no_card_and_names_only_intended_ones() -> None:
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 0, result.output
    assert [x for x in result.stderr.splitlines() if ": warning: " in x] == [], result.stderr
    said = re.findall(r"^(\w+): balance: (.+) stands out as its data says is intended", result.stdout, re.M)
    sets = {name: load_set(name) for name in ("beer", "classic", "lunch")}
    for name in sets:
        assert re.search(rf"^{name}: balance \(each card against the rest\): \d+ games at 2 players, \d+ games at 4 "
                         r"players; no card stands out", result.stdout, re.M), result.stdout
        games = re.search(rf"^{name}: balance \(each card against the rest\): (\d+) games at 2 players, (\d+)",
                          result.stdout, re.M)
        assert games is not None and all(int(g) <= 2 * defaults.MAX_GAMES for g in games.groups())
    docs = DOCS.read_text(encoding="utf-8")
    section = docs[docs.index("### What the procedure says about the bundled sets"):]
    section = section[:section.index("\n## ")]
    for set_name, card in said:
        assert sets[set_name].card(card).intended  # marked in the card data ...
        assert f"| {set_name} | {card} |" in section  # ... and explained in the docs
