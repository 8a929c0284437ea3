"""A legal card is not refused for its layout: badges too long to stand beside the value, even at the minimum
size, get lines of their own under it (and the rules text the room left); only a badge wider than the card's
text column is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.checks import load_set
from cardgen.model import CardSet
from cardgen.render.card_face import draw_card
from cardgen.render.errors import CardFitError
from cardgen.render.fonts import register_fonts
from cardgen.render.geometry import Rect
from cardgen.render.session import RenderSession

POKER = Rect(0.0, 0.0, 63.5, 88.9)
SLIP = Rect(0.0, 0.0, 56.0, 80.0)


def _set(tmp_path: Path, opener: str, follower: str) -> CardSet:
    (tmp_path / "set.yaml").write_text("name: grabby\ntitle: Grabby\nextends: lunch\ndeck_size: 112\n",
                                       encoding="utf-8")
    (tmp_path / "more.yaml").write_text(
        "cards:\n"
        f"  - {{name: {opener}, type: specialty, count: 1, opens: {{combo: grab-2, then: [basic]}}, "
        "source: designed}\n"
        f"  - {{name: {follower}, type: specialty, count: 1, follows: grab-2, damage: [3, 3], stuns: 1, "
        "source: designed}\n", encoding="utf-8")
    return load_set(tmp_path)


def _log(cs: CardSet, name: str, trim: Rect) -> list[list[str]]:
    register_fonts()
    log: list[str] = []
    s = RenderSession.bundled()
    draw_card(s, s.pen(None, log), cs.card(name), cs, trim, 0.0)
    return [line.split() for line in log]


def _text_y(log: list[list[str]], text: str) -> float:
    return next(float(op[2]) for op in log if op[0] == "text" and " ".join(op[7:]).strip("'") == text)


@pytest.mark.parametrize("trim", [POKER, SLIP], ids=["poker", "slip"])
def test_a_follow_up_of_a_longer_combo_name_builds_with_its_badges_under_the_value(tmp_path: Path,
                                                                                     trim: Rect) -> None:
    cs = _set(tmp_path, "Grab Two", "Headlock 2")
    log = _log(cs, "Headlock 2", trim)
    value_box = next(op for op in log if op[0] == "fill_rect" and op[5] == "#1F1F1F")
    value_bottom = float(value_box[2])
    after, stuns = _text_y(log, "after GRAB TWO"), _text_y(log, "STUNS 1T")
    assert after < value_bottom and stuns < value_bottom  # below the value row, not beside it
    assert after == pytest.approx(stuns)  # side by side on one line: both fit the card's width
    first_rules_line = max(float(op[2]) for op in log if op[0] == "text" and op[3] in ("Sans", "Sans-Bold", "Cond",
                                                                                       "Cond-Bold")
                           and float(op[4]) > 7.0 and float(op[2]) < after)
    assert first_rules_line < after - 2.0  # the rules text starts under the badges


def test_badges_that_fit_beside_the_value_stay_there(tmp_path: Path) -> None:
    cs = _set(tmp_path, "Grip", "Hug")
    log = _log(cs, "Hug", POKER)
    value_box = next(op for op in log if op[0] == "fill_rect" and op[5] == "#1F1F1F")
    assert _text_y(log, "after GRIP") > float(value_box[2])


def test_a_badge_wider_than_the_card_is_still_an_error(tmp_path: Path) -> None:
    cs = _set(tmp_path, "Grabbing Grappling Grasping Gripping Grabber", "Headlock 2")
    with pytest.raises(CardFitError, match="does not fit the card's width"):
        _log(cs, "Headlock 2", POKER)


def test_beer_and_lunch_badges_are_where_they_were() -> None:
    """The bundled cards' badges all fit beside their values (their faces are pinned by the golden log too)."""
    for name in ("lunch", "beer"):
        cs = load_set(name)
        for card in cs.cards:
            log = _log(cs, card.name, POKER)
            boxes = [op for op in log if op[0] == "fill_rect" and op[5] == "#1F1F1F"]
            badges = [op for op in log if op[0] == "fill_rect" and float(op[4]) == pytest.approx(4.6)]
            if boxes and badges:
                assert all(float(b[2]) >= float(boxes[0][2]) - 1e-6 for b in badges), card.name
