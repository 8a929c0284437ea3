"""Rules-page content without a PDF: the line format, the glossary template, the card rows."""

from __future__ import annotations

from pathlib import Path

from cardgen.checks import load_set
from cardgen.render.rules_content import MECHANICS, page_blocks, page_markup, parse_blocks, used_mechanics

FIXTURE = Path(__file__).parent / "fixtures" / "designer60"


def test_line_format_blocks() -> None:
    blocks = parse_blocks("# T ¦ sub\n## Head\nfirst line\nsecond line\n\n- a bullet\nafter it\n"
                          "### Term\nits text\ngoes on\n@card #FF0000 ¦ Jab ¦ 1 ¦ 4 ¦ hits\n")
    assert [(b.kind, b.text) for b in blocks] == [
        ("title", "T ¦ sub"), ("heading", "Head"), ("para", "first line second line"), ("bullet", "a bullet"),
        ("para", "after it"), ("term", "its text goes on"), ("card", "#FF0000 ¦ Jab ¦ 1 ¦ 4 ¦ hits")]
    assert blocks[0].cells == ("T", "sub")
    assert blocks[5].heading == "Term"
    assert blocks[6].cells == ("#FF0000", "Jab", "1", "4", "hits")


def test_every_mechanic_has_exactly_one_glossary_entry() -> None:
    cs = load_set(FIXTURE)
    assert all(used_mechanics(cs).values())
    terms = [b for b in page_blocks(cs) if b.kind == "term"]
    assert len(terms) == len(MECHANICS)
    assert len({t.heading for t in terms}) == len(MECHANICS)
    assert all(t.text for t in terms)


def test_names_are_escaped_for_the_paragraph_markup() -> None:
    markup = page_markup(load_set("beer"))
    assert "Choke &amp; Puke" in markup and "Choke & Puke" not in markup


def test_card_rows_leave_out_what_other_columns_show() -> None:
    cs = load_set("lunch")
    rows = {b.cells[1]: b.cells for b in page_blocks(cs) if b.kind == "card"}
    assert rows["Jab"][2:] == ("1", "4", "")  # value 1, 4 copies, nothing more to say
    assert rows["Roundhouse"][4] == "passes on if dodged"
    assert rows["Big Combo"][2] == "3+3"
    assert rows["First Aid"][2] == "♥2"
    assert len(rows) == len(cs.cards)
