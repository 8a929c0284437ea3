"""The one-page rules reference: one page, the set's facts, a glossary that follows the cards, own words."""

from __future__ import annotations

import dataclasses
import io
import re
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.checks import load_set, load_sets
from cardgen.checks.language import in_language
from cardgen.cli.main import main
from cardgen.model import Card, CardSet
from cardgen.paths import bundled_set_names
from cardgen.render.rules_content import MECHANICS
from cardgen.render.rules_page import RulesPageError, rules_pdf, rules_pdf_and_size

FIXTURE = Path(__file__).parent / "fixtures" / "designer60"

PAPERS = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}
RUN = 12  # words in a row that may not match a rulebook

# Glossary heading of each mechanic, as printed ("Heading: text").
HEADINGS = {
    "multi_strike": "Multi-strike (+)", "area": "Hits several players", "travels": "Travelling attacks",
    "passes_on": "Passing on", "stuns": "STUNS nT", "stunned": "STUNNED nT", "pair": "Counter pairs",
    "hold": "HOLD and wrestling moves", "combo": "Openers and follow-ups", "free": "Free follow-ups",
    "after_block": "Opening after a block", "multiplier": "Multiplied damage", "ongoing": "Ongoing holds",
    "vomit": "Vomiting", "undefendable": "Undefendable cards", "weapons": "Keeping weapons", "heal": "Healing",
    "heal_dropping": "Healing at zero", "negative": "Below zero", "revive": "Revival", "stomp": "Stomping",
    "cancel": "Cancel chains", "redirect": "Redirect chains", "interfere": "Stepping in",
    "retaliates": "Hitting back", "draw": "Extra draws", "any_time": "Any-time cards",
    "answer_only": "Answer-only cards",
}


def _cases() -> list[str]:
    names = list(bundled_set_names())
    if "lunch" in names and "beer" in names:
        names.append("lunch+beer")
    return [*names, "designer60"]


CASES = _cases()


def _load(case: str) -> CardSet:
    if case == "designer60":
        return load_set(FIXTURE)
    if "+" in case:
        return load_sets(case.split("+"))
    return load_set(case)


@cache
def _pdf(case: str, paper: str) -> bytes:
    return rules_pdf(_load(case), paper)


@cache
def _text(case: str, paper: str = "a4") -> str:
    reader = PdfReader(io.BytesIO(_pdf(case, paper)))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def _uses(cs: CardSet) -> dict[str, bool]:
    """Mechanics in use, worked out from the card fields here, apart from the code under test."""
    cards = cs.cards

    def undefendable(c: Card) -> bool:
        if not (c.damage or c.opens):
            return False
        if c.defended_by is not None:
            return not c.defended_by
        return cs.role(c) not in ("attack", "weapon", "special", "event")

    heals = [c for c in cards if c.heal]
    openers = [c.opens for c in cards if c.opens]
    return {
        "multi_strike": any(len(c.damage) > 1 for c in cards),
        "area": any(c.targets in ("others", "all") for c in cards),
        "travels": any(c.travels for c in cards),
        "passes_on": any(c.passes_on for c in cards),
        "stuns": any(c.stuns for c in cards),
        "stunned": any(c.stunned for c in cards),
        "pair": any(c.pair for c in cards),
        "hold": any(c.pair and "hold" in c.pair for c in cards) or any(cs.role(c) == "wrestling" for c in cards),
        "combo": bool(openers),
        "free": any(o.free for o in openers),
        "after_block": any(o.after_block for o in openers),
        "multiplier": any(o.multiplier > 1 for o in openers),
        "ongoing": any(c.ongoing for c in cards),
        "vomit": any(c.ongoing and c.ongoing.vomit for c in cards),
        "undefendable": any(undefendable(c) for c in cards),
        "weapons": any(cs.role(c) == "weapon" for c in cards),
        "heal": bool(heals),
        "heal_dropping": any("dropping" in c.heal.when for c in heals if c.heal),
        "negative": cs.rules.negative_life,
        "revive": cs.rules.revive and bool(heals),
        "stomp": any(c.stomp for c in cards),
        "cancel": any(c.humiliate == "cancel" for c in cards),
        "redirect": any(c.humiliate == "redirect" for c in cards),
        "interfere": any(c.interfere for c in cards),
        "retaliates": any(c.retaliates for c in cards),
        "draw": any(c.draw for c in cards),
        "any_time": any(c.timing == "any" for c in cards),
        "answer_only": any(c.timing == "response" for c in cards),
    }


def test_headings_cover_every_mechanic() -> None:
    assert set(HEADINGS) == set(MECHANICS)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("case", CASES)
def test_exactly_one_page_of_the_right_size(case: str, paper: str) -> None:
    """One page; a set whose page would need text below the 7 pt minimum gets its card table on the back
    (designer60's 60 designs, lunch+beer on Letter), so one sheet printed on both sides."""
    reader = PdfReader(io.BytesIO(_pdf(case, paper)))
    two_sided = (case, paper) in {("designer60", "a4"), ("designer60", "letter"), ("lunch+beer", "letter")}
    assert len(reader.pages) == (2 if two_sided else 1)
    if two_sided:
        assert "listed on the back of this page" in reader.pages[0].extract_text().replace("\n", " ")
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(PAPERS[paper], abs=0.5)


@pytest.mark.parametrize("case", CASES)
def test_starting_life_and_hand_size_are_stated(case: str) -> None:
    rules = _load(case).rules
    text = _text(case)
    assert f"starts with {rules.life} {rules.life_word}" in text
    assert f"deal {rules.hand_size} cards" in text
    assert f"refills their hand to {rules.hand_size} cards" in text


@pytest.mark.parametrize("case", CASES)
def test_every_card_name_appears(case: str) -> None:
    squashed = re.sub(r"\s+", "", _text(case))
    missing = [c.name for c in _load(case).cards if re.sub(r"\s+", "", c.name) not in squashed]
    assert missing == []


@pytest.mark.parametrize("case", CASES)
def test_glossary_entry_exactly_when_mechanic_is_used(case: str) -> None:
    text = _text(case)
    uses = _uses(_load(case))
    wrong = {key: uses[key] for key, heading in HEADINGS.items() if (f"{heading}:" in text) != uses[key]}
    assert wrong == {}, f"glossary entries wrongly present (True = used but missing): {wrong}"


def test_designer_set_uses_every_mechanic_and_role() -> None:
    cs = load_set(FIXTURE)
    assert len(cs.cards) == 60 and len({c.name for c in cs.cards}) == 60
    assert all(_uses(cs).values())
    assert {cs.role(c) for c in cs.cards} == {"attack", "weapon", "defence", "heal", "counter", "wrestling",
                                              "special", "event", "humiliation"}


def test_lunch_glossary_leaves_out_mechanics_it_lacks() -> None:
    text = _text("lunch")
    for key in ("travels", "stuns", "pair", "vomit", "cancel", "negative"):
        assert f"{HEADINGS[key]}:" not in text


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@cache
def _rulebook_runs(rulebooks: Path) -> frozenset[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for path in sorted(rulebooks.glob("*.txt")):
        words = _words(path.read_text(encoding="utf-8"))
        runs.update(tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1))
    return frozenset(runs)


@pytest.mark.parametrize("case", CASES)
def test_no_rulebook_sentence_copied(case: str, rulebooks: Path) -> None:
    runs = _rulebook_runs(rulebooks)
    assert runs, "no rulebook text read"
    words = _words(_text(case))
    copied = [" ".join(words[i:i + RUN]) for i in range(len(words) - RUN + 1) if tuple(words[i:i + RUN]) in runs]
    assert copied == []


@pytest.mark.parametrize("case", ["lunch", "designer60"])
def test_same_bytes_for_the_same_input(case: str) -> None:
    assert rules_pdf(_load(case), "a4") == _pdf(case, "a4")


@pytest.mark.parametrize("case", ["lunch", "designer60"])
def test_fonts_are_bundled_and_embedded(case: str) -> None:
    page = PdfReader(io.BytesIO(_pdf(case, "letter"))).pages[0]
    fonts = page["/Resources"]["/Font"]
    assert fonts
    for ref in fonts.values():
        font = ref.get_object()
        assert "Helvetica" not in str(font["/BaseFont"])
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor


def test_mixed_deck_lists_its_equivalences() -> None:
    cs = _load("lunch+beer")
    text = _text("lunch+beer")
    assert "Same card, two names" in text
    for mine, theirs in cs.equivalences.items():
        assert f"{mine} {theirs}" in text


def test_single_set_has_no_equivalence_table() -> None:
    assert "Same card, two names" not in _text("lunch")


def _absurd_set(n: int) -> CardSet:
    lunch = load_set("lunch")
    cards = tuple(Card(name=f"Designed Punch Number {i}", type="basic", count=1, source="designed", number=i,
                       damage=(1 + i % 5, 2), travels=i % 2 == 0, stuns=i % 3) for i in range(1, n + 1))
    return dataclasses.replace(lunch, name="absurd", cards=cards, deck_size=n)


def test_a_set_too_big_for_one_page_gets_its_card_list_on_the_back() -> None:
    """200 designs with long names: the rules stay on the front; every card is listed from the back on,
    in a compact table continued over as many pages as it needs."""
    pdf = rules_pdf(_absurd_set(200), "a4")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) >= 2
    texts = [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]
    front, back = texts[0], " ".join(texts[1:])
    assert "listed on the back of this page" in front
    assert front.count("Designed Punch Number") <= 6  # only the glossary's examples
    missing = [i for i in range(1, 201) if f"Designed Punch Number {i} " not in back + " "]
    assert not missing


def test_unknown_paper_is_an_error() -> None:
    with pytest.raises(RulesPageError, match="unknown paper 'a5'"):
        rules_pdf(load_set("lunch"), "a5")


def test_cli_writes_one_page_to_the_default_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["rules", "--set", "lunch", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "output" / "lunch" / "lunch-rules.pdf"
    assert len(PdfReader(out).pages) == 1
    assert out.read_bytes() == _pdf("lunch", "letter")


def test_cli_out_option_and_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    ok = CliRunner().invoke(main, ["rules", "--set", str(FIXTURE), "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    assert out.read_bytes() == _pdf("designer60", "a4")
    bad = CliRunner().invoke(main, ["rules", "--set", "lunch", "--paper", "a5", "--out", str(tmp_path / "x.pdf")])
    assert bad.exit_code != 0 and "'a5' is not one of 'a4', 'letter'" in bad.output
    assert not (tmp_path / "x.pdf").exists()
    missing = CliRunner().invoke(main, ["rules"])
    assert missing.exit_code == 1 and "needs --set" in missing.output


def test_a_stopped_probe_decides_like_a_full_layout() -> None:
    """The size search stops drawing a probe once it runs onto a second page; the size it picks is
    still the largest tidy one, and a stopped probe reports what a full layout would decide on."""
    from cardgen.render.rules_content import page_blocks
    from cardgen.render.rules_layout import font_sizes, render
    from cardgen.render.rules_page import rules_pdf_and_size

    cs = load_set("beer")
    blocks = page_blocks(cs)
    _, size, _ = rules_pdf_and_size(cs, "a4")
    sizes = font_sizes()
    larger = sizes[sizes.index(size) - 1]
    full, stopped = render(blocks, "a4", larger, "s"), render(blocks, "a4", larger, "s", stop_at_overflow=True)
    assert not full.tidy and full.pages >= 2 and full.pdf
    assert stopped.pages == 2 and not stopped.tidy and stopped.pdf == b""
    fits = render(blocks, "a4", size, "s", stop_at_overflow=True)
    assert fits.tidy and fits.pdf == render(blocks, "a4", size, "s").pdf  # a page that fits is drawn whole


@pytest.mark.parametrize("name", bundled_set_names())
def test_a_placed_only_probe_decides_like_a_drawn_layout(name: str) -> None:
    """Probes the size search does not keep are placed without drawing; they must reach the same verdict
    (pages, room needed, cramped table) as a drawn layout, at the chosen size and the next larger one."""
    from cardgen.render.rules_content import page_blocks
    from cardgen.render.rules_layout import font_sizes, render
    from cardgen.render.rules_page import rules_pdf_and_size

    cs = load_set(name)
    blocks = page_blocks(cs)
    _, size, _ = rules_pdf_and_size(cs, "a4")
    sizes = font_sizes()
    for s in {size, sizes[max(0, sizes.index(size) - 1)], sizes[-1]}:
        drawn, placed = render(blocks, "a4", s, "s", stop_at_overflow=True), render(blocks, "a4", s, "s", draw=False)
        assert placed.pdf == b"" and (drawn.pdf != b"") == (drawn.pages == 1)
        assert (placed.pages, placed.needed, placed.cramped) == (drawn.pages, drawn.needed, drawn.cramped), s


@pytest.mark.parametrize("name", bundled_set_names())
def test_remembered_paragraphs_lay_out_the_page_a_cold_process_lays_out(name: str) -> None:
    """A watch rebuild lays the page out again with the paragraphs it parsed before; same bytes as cold."""
    from cardgen.render.memory import RulesMemory

    cs = load_set(name)
    memory = RulesMemory()
    cold = rules_pdf(cs, "a4", memory)
    assert memory.parsed and memory.plans  # the paragraphs it parsed and the page are remembered
    memory.plans.clear()  # the page itself is laid out again, from the remembered paragraphs
    assert rules_pdf(cs, "a4", memory) == cold and memory.plans


@pytest.mark.parametrize("name", ["beer", "classic"])
def test_a_short_table_stays_in_one_column_with_its_heading(name: str) -> None:
    """A heading kept apart from its table would end a column with the table at the top of the next."""
    from reportlab.platypus import KeepTogether, Paragraph

    from cardgen.render.rules_content import page_blocks
    from cardgen.render.rules_layout import story

    blocks = page_blocks(load_set(name))
    flow = story(blocks, 8.0, 160.0)
    kept = [f for f in flow if isinstance(f, KeepTogether)]
    with_heading = [k for k in kept if isinstance(k._content[0], Paragraph)
                    and k._content[0].getPlainText() == "Card types"]
    assert len(with_heading) == 1 and len(with_heading[0]._content) == 3  # heading, its rule, the table
    loose = [f for f in flow if isinstance(f, Paragraph) and f.getPlainText() == "Card types"]
    assert loose == []


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["classic", "lunch", "beer"])
def test_the_card_table_keeps_names_whole_where_a_size_allows_it(name: str, lang: str) -> None:
    """The size search takes the largest size at which the card table splits no word, and a smaller page only
    then: a name is hyphenated only when no size that fits keeps it whole (German Lunch Money's Roundhouse,
    Humiliation and Interference were split at a larger size while a slightly smaller one held them)."""
    cs = load_set(name) if lang == "en" else in_language(load_set(name), lang)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(rules_pdf_and_size(cs, "a4")[0])).pages)
    split = [line for line in text.splitlines()
             if line.endswith("-") and any(c.name.startswith(line[:-1]) and c.name != line[:-1] for c in cs.cards)]
    assert split == []
