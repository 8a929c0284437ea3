"""`cardgen play --lang`: the log, the buttons, the status line and the page in German, read
from real seeded games and the served pages; English as before."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from cardgen import messages
from cardgen.cli.main import main
from cardgen.paths import bundled_set_names
from cardgen.play.art import TableArt
from cardgen.play.page import rules_page, table_page
from cardgen.play.server import TableServer
from cardgen.play.table import MixedLanguages, Table
from tests.test_languages import _keys as catalogue_keys


def _leaves(node: Any) -> dict[str, str]:
    """Every sentence of a catalogue section by dotted key (the catalogue test's own walk)."""
    return {k: str(v) for k, v in catalogue_keys(node).items()}


def _english_words(section: str) -> list[re.Pattern[str]]:
    """The literal words of every English sentence form of `play.<section>` (the text between its fields), as
    whole-word patterns: "{who} takes {amount} ({life} left)." gives "takes" and "left"."""
    pieces: set[str] = set()
    for value in _leaves(messages.message(f"play.{section}", "en")).values():
        for literal, _field, _spec, _conv in string.Formatter().parse(value):
            text = literal.strip(" .,:;()'·▶")
            if re.search(r"[A-Za-z]{2}", text):
                pieces.add(text)
    return [re.compile(r"(?<![\w'])" + re.escape(p) + r"(?!\w)") for p in sorted(pieces)]


def _without_names(text: str, table: Table) -> str:
    """`text` without the seats' and the cards' names (which stay as published in every language)."""
    names = [c.name for c in table.cs.cards] + list(table.state.game.names)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "·")
    return text


def _random_game(table: Table, seed: int) -> tuple[set[str], set[str]]:
    """Play a whole game of random legal moves for every seat (all people) through `Table.play`; return every
    button label and every status line the seats to act were shown."""
    rng = random.Random(seed)
    labels: set[str] = set()
    said: set[str] = set()
    while table.state.result is None:
        p = table.state.to_act
        view = table.view(p)
        labels.update(m["label"] for m in view["moves"])
        said.add(view["said"])
        said.update(view["pending"])
        m = rng.choice(table.state.moves)
        table.play(p, {"kind": str(m.kind), "card": m.card, "target": m.target, "choice": str(m.choice),
                       "version": table.version})
    said.update(table.view(p)["said"] for p in range(table.state.n))
    return labels, said


def _people(players: int) -> str:
    return ",".join(["human"] * (players - 1))


@pytest.mark.parametrize("set_name", bundled_set_names())
def test_a_german_game_says_everything_in_german(set_name: str) -> None:
    table = Table.open([set_name], players=4, bots=_people(4), seed=21, lang="de")
    assert table.lang == "de" and table.cs.language == "de" and not table.warnings
    labels, said = _random_game(table, seed=5)
    lines = [ln.text for ln in table.lines()]
    text = "\n".join(lines)
    names = table.state.game.names
    assert lines[0].startswith(f"Zug 1: {names[0]}.")
    assert " spielt " in text and " Schaden (noch " in text and lines[-1].startswith("Spielende: ")
    # No English sentence form is left, once the names (kept as published) are taken out.
    plain = _without_names(text, table)
    for pattern in _english_words("log") + _english_words("why"):
        assert not pattern.search(plain), (pattern.pattern, [ln for ln in lines if pattern.search(
            _without_names(ln, table))][:2])
    # A button names seats, and a card only where the card is not shown beside it (taking one from another hand).
    buttons = _without_names("\n".join(labels), table)
    for pattern in _english_words("button"):
        assert not pattern.search(buttons), pattern.pattern
    status = _without_names("\n".join(said), table)
    for pattern in _english_words("pending") + _english_words("status"):
        assert not pattern.search(status), pattern.pattern
    assert {"Passen", "Einstecken"} <= labels or "Abwerfen" in labels
    assert any(s.endswith("Du bist am Zug: spiel eine Karte, oder wirf ab und passe.") for s in said)
    # The deck itself is the German one (its faces and rules page are drawn from it): the set's words translated.
    view = table.view(0)
    english = Table.open([set_name], bots="random", seed=21)
    assert view["life_word"] == table.cs.rules.life_word != english.cs.rules.life_word


def test_english_stays_the_default_and_says_the_same_game_in_english() -> None:
    """The same seeded game in both languages: the same moves, English words in one, German in the other."""
    en = Table.open(["beer"], players=3, bots=_people(3), seed=8)
    de = Table.open(["beer"], players=3, bots=_people(3), seed=8, lang="de")
    assert en.lang == "en"
    en_labels, _ = _random_game(en, seed=2)
    de_labels, _ = _random_game(de, seed=2)
    assert en.state.log == de.state.log  # the language changes no rule
    en_lines, de_lines = [ln.text for ln in en.lines()], [ln.text for ln in de.lines()]
    assert len(en_lines) == len(de_lines) and en_lines != de_lines
    assert en_lines[0].startswith("Turn 1: Ann.") and de_lines[0].startswith("Zug 1: Ann.")
    assert "Pass" in en_labels and "Passen" in de_labels and "Pass" not in de_labels
    for pattern in _english_words("log"):
        if pattern.search(_without_names("\n".join(en_lines), en)):
            break
    else:
        raise AssertionError("the English game says none of the English sentence forms")


def test_the_sets_own_language_is_played_unless_lang_says_otherwise(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    res = CliRunner().invoke(main, ["new", str(tmp_path / "meins"), "--base", "lunch"])
    assert res.exit_code == 0, res.output
    set_yaml = tmp_path / "meins" / "set.yaml"
    set_yaml.write_text(set_yaml.read_text(encoding="utf-8") + "language: de\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    own = Table.open(["./meins"], players=2, bots="human", seed=3)
    assert own.lang == "de"
    _random_game(own, seed=1)
    assert own.lines()[0].text.startswith("Zug 1: ")
    english = Table.open(["./meins"], players=2, bots="human", seed=3, lang="en")
    assert english.lang == "en" and english.lines()[0].text.startswith("Turn 1: ")
    assert any("no lang/en.yaml" in d.message for d in english.warnings)  # its own words stay German
    with pytest.raises(MixedLanguages, match="different languages"):
        Table.open(["./meins", "beer"], seed=1)
    assert Table.open(["./meins", "beer"], seed=1, lang="de").lang == "de"


@pytest.mark.parametrize(("args", "said"), [
    (("--lang", "xx"), "error: no message catalogue for language 'xx'"),
])
def test_a_language_cardgen_lacks_is_one_error_line(args: tuple[str, ...], said: str) -> None:
    res = CliRunner().invoke(main, ["play", "--set", "lunch", "--no-browser", "--port", "0", *args])
    assert res.exit_code == 1 and said in res.output and "Traceback" not in res.output


def _page_words(html: str) -> dict[str, str]:
    m = re.search(r'<script id="words" type="application/json">(.*?)</script>', html, re.S)
    assert m is not None
    words: dict[str, str] = json.loads(m.group(1))
    return words


def test_the_served_page_speaks_the_tables_language() -> None:
    de = Table.open(["lunch"], players=2, bots="random", seed=2, lang="de")
    en = Table.open(["lunch"], players=2, bots="random", seed=2)
    with TestClient(TableServer(de, TableArt(de.cs), pace=0).app, base_url="http://127.0.0.1") as client:
        html = client.get(f"/t/{de.host.token}").text
        state = client.get(f"/api/{de.host.token}/state").json()
        refused = client.post(f"/api/{de.host.token}/move", json={"kind": "pass", "version": 99}).json()
    assert '<html lang="de">' in html and "<title>cardgen-Spieltisch</title>" in html
    for label in ('>Regeln</a>', '>Spiel speichern</a>', 'aria-label="Deine Hand"', 'alt="Nachziehstapel"',
                  '<h2>Verlauf</h2>'):
        assert label in html, label
    words = _page_words(html)
    assert words == messages.message("play.page", "de") and words["turn"] == "Zug {turn}"
    english = messages.message("play.page", "en")
    markup = re.sub(r'<script id="words".*?</script>', "", html, flags=re.S)
    shown = {t.strip() for t in re.findall(r">([^<>]+)<", markup)}
    shown |= set(re.findall(r'(?:aria-label|alt)="([^"]*)"', markup))
    left = {key for key, value in english.items() if value != words[key] and value in shown}
    assert not left, left  # no English label left in the German page
    assert state["said"] == "Du bist am Zug: spiel eine Karte, oder wirf ab und passe."
    assert state["life_word"] == "Marken"
    assert refused["error"].startswith("am Tisch ist inzwischen")
    # English: the page as before, its words given to the script in English.
    page = table_page("en")
    assert '<html lang="en">' in page and "<title>cardgen table</title>" in page and ">Save game</a>" in page
    assert 'aria-label="Your hand"' in page and _page_words(page)["turn"] == "Turn {turn}"
    assert en.view(0)["said"] == "Your turn: play a card, or discard and pass."


def test_the_rules_link_page_speaks_the_tables_language() -> None:
    de, en = rules_page("de", 2), rules_page("en", 2)
    assert '<html lang="de">' in de and "<title>Regeln</title>" in de and ">Die Regelseite als PDF</a>" in de
    assert 'alt="Regelseite 2"' in de and 'src="/rules-1.png"' in de
    assert '<html lang="en">' in en and "<title>Rules</title>" in en and 'alt="rules page 1"' in en


def _every_form(lang: str, monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], list[str]]:
    """Say every move (each kind, with no target, another seat and oneself, each choice, under each kind of
    step), every event and every kind of pending step in `lang`; return the catalogue keys used and the text."""
    from cardgen.engine import events as ev
    from cardgen.engine import moves as mv
    from cardgen.engine.observation import Pending, StepKind
    from cardgen.engine.outcome import Reason
    from cardgen.engine.primitives import STRIKES
    from cardgen.play import wording
    from cardgen.primitives import PRIMITIVES

    used: set[str] = set()
    real = wording.say

    def say(lang: str, key: str, **fields: object) -> str:
        used.add(key)
        return real(lang, key, **fields)

    monkeypatch.setattr(wording, "say", say)
    g = Table.open(["classic"], players=3, bots="random", seed=1).state.game
    out: list[str] = []
    steps = [None, *(Pending(k, 1, 0, t) for k in StepKind for t in (0, 1))]
    c = mv.Choice
    choices = {mv.DEFEND: [c.NONE, c.DODGE, c.BLOCK, c.DISARM, c.FREEDOM, c.BREAK], mv.DIRECTION: [c.LEFT, c.RIGHT],
               mv.PICK: [c.GIVE, c.TAKE, c.THROW]}
    for kind in mv.KINDS:
        for target in (-1, 0, 1):
            for choice in choices.get(kind, [c.NONE, c.DROP, c.HOLD]):  # the choices a move of that kind may have
                for step in steps:
                    out.extend(wording._words(g, 0, mv.Move(kind, 0, target, choice), step, lang))
    events: list[ev.Event] = [
        ev.Damage(1, 0, 2, 10, 0), ev.Healed(1, 0, 2, 12, 0, 0), ev.Unconscious(1, 0, 0), ev.Stunned(1, 0, 3),
        ev.StunLifted(1, 0, 0), ev.Vomiting(1, 0, 3), *(ev.TurnLost(1, 0, why) for why in ev.LostTurn),
        ev.HoldStarts(1, 0, 1, 0),
        *(ev.HoldEnds(1, 0, 1, why) for why in ev.HoldEnd), ev.Stomped(1, 1), ev.Revived(1, 1), ev.Reshuffle(1, 30),
        ev.MovesOn(1, 0, 2), ev.Stopped(1, 0, 1), ev.Stopped(1, 0, -1), ev.Redirected(1, 2), ev.Cancelled(1, 0, 0, 1),
        ev.Combo(1, 0, 1, "grab"), ev.ComboWasted(1, 0), ev.ComboEnds(1, 0), ev.WeaponDiscarded(1, 0, 0),
        *(ev.Effected(1, 0, 0, op, 1, n) for op in PRIMITIVES if op not in STRIKES and op != "heal" for n in (1, 2)),
        *(ev.GameOver(1, w, r) for w in (-1, 0) for r in Reason)]
    out.extend(wording._event(g, e, lang) for e in events)
    run = [ev.TurnStarts(1, 0), *(ev.Moved(1, 0, mv.Move(mv.DISCARD, d, -1, mv.Choice.NONE)) for d in (0, 1, 2))]
    out.extend(ln.text for ln in wording.log_lines(g, run, lang=lang))
    out.extend(wording.in_flight(g, [Pending(k, 1, c, t) for k in StepKind for c in (None, 0) for t in (None, 0)],
                                 lang))
    return used, [t for t in out if t]


def test_every_sentence_form_of_the_catalogue_is_said_and_none_is_english_in_german(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key of `play.log`, `play.button` and `play.pending` is one the table says (no sentence written for
    nothing), each fills in with the fields it is given, and the German forms have no English words left."""
    catalogue = {f"{s}.{k}" for s in ("log", "button", "pending")
                 for k in _leaves(messages.message(f"play.{s}", "en"))}
    used_en, english = _every_form("en", monkeypatch)
    used_de, german = _every_form("de", monkeypatch)
    assert used_de == used_en and catalogue <= used_en, sorted(catalogue - used_en)
    from cardgen.engine.events import HoldEnd, LostTurn
    from cardgen.engine.outcome import Reason
    from cardgen.play.wording import reason
    for why in (*LostTurn, *HoldEnd, *Reason):
        assert reason("en", why) == str(why) and reason("de", why) != str(why), why  # each reason in words
    table = Table.open(["classic"], players=3, bots="random", seed=1)
    text = _without_names("\n".join(german), table)
    left = [p.pattern for s in ("log", "button", "pending", "why") for p in _english_words(s) if p.search(text)]
    assert not left, left
    assert "Zug 1: Ann. Ann wirft" in "\n".join(german) and " und " in "\n".join(german)
    assert len(set(english)) > 150 and len(set(german)) >= len(set(english))  # German tells apart what English may not
