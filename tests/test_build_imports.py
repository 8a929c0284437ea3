"""What a print build imports (a build is kept fast by importing less, never by patching a library).

`build` checks playability with `cardgen.engine.playability`; the engine package imports its other names
(the rules, the game log's event classes) only when asked, so a build does not pay for them.
"""

from __future__ import annotations

import json
import subprocess
import sys


def _loaded(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\n"
                          "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cardgen.engine'))))"],
                         capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_the_playability_check_imports_neither_the_rules_nor_the_event_classes() -> None:
    loaded = _loaded("import cardgen.engine.playability")
    assert "cardgen.engine.playability" in loaded
    assert not {"cardgen.engine.rules", "cardgen.engine.events", "cardgen.engine.game"} & set(loaded), loaded


def test_the_engine_package_still_gives_its_names() -> None:
    code = ("import cardgen.engine.playability\nfrom cardgen.engine import Move, apply, new_game, outcome, push\n"
            "import cardgen.engine as e\n"
            "assert callable(outcome) and e.outcome is outcome and not hasattr(outcome, '__path__')\n"
            "from cardgen.engine.outcome import Outcome\nassert Outcome is e.Outcome")
    assert "cardgen.engine.rules" in _loaded(code)
