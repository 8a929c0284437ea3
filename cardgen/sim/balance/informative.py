"""Deals worth playing: a deal in which no tested card's holders differ from its other players is counted, not
played (most of them), because its outcome cannot move any tested figure.

A card's impact compares the players who started with it against the others. In a deal where every tested card
(a changed card, in A and in B; a new card in B and its band in A) is in nobody's opening hand or in everyone's,
the game's winner is a non-holder (or a holder) of each of them whoever it is: the deal adds the same to every
tested figure whatever happens in the game, in both versions. Such a deal is dealt, counted exactly as it would
have counted (one winner, any seat), and not played; only the deals where some tested card sits in some hands
and not in others are played. At two players that is a sixth to a half of the deals for a changed card of 2 to
8 copies, so a verdict needs that many fewer games, on the very same estimates and intervals.

The rest of what the games tell (the other cards' knock-on figures, the game's length, how often holders play
a card) needs unselected games: one in `CENSUS` of the skipped deals is played all the same (the deals whose
number is a multiple of `CENSUS`, whatever they hold) and weighs `CENSUS` games in those figures
(Horvitz-Thompson), so they stay unbiased. A game with no winner (nobody standing, or the turn cap) is the one
case a skipped deal would count differently: no such game came up in 52,000 games of the planted fixtures.
"""

from __future__ import annotations

from cardgen.engine.state import GameState

CENSUS = 4  # one in this many of the deals not worth playing is played all the same, for the other figures
SKIPPED = -2  # the winner of a deal that was counted, not played

# The designs whose holders the tested figures compare: (in A, in B); None: every deal is played.
Tested = tuple[tuple[int, ...], tuple[int, ...]] | None


def opening_masks(s: GameState) -> tuple[int, ...]:
    """Per seat, the bit mask of the designs in its hand (a freshly dealt game's: the opening hands)."""
    out = []
    for hand in s.hands:
        mask = 0
        for d in hand:
            mask |= 1 << d
        out.append(mask)
    return tuple(out)


def splits(masks: tuple[int, ...], designs: tuple[int, ...]) -> bool:
    """Some of `designs` is in some of the hands `masks` and not in all of them."""
    for d in designs:
        bit = 1 << d
        held = sum(1 for m in masks if m & bit)
        if 0 < held < len(masks):
            return True
    return False


def worth_playing(tested: Tested, masks_a: tuple[int, ...], masks_b: tuple[int, ...] | None) -> bool:
    """Whether a deal's outcome can move a tested figure (always, with nothing to select by)."""
    if tested is None:
        return True
    return splits(masks_a, tested[0]) or (masks_b is not None and splits(masks_b, tested[1]))


def weight(game: int, worth: bool) -> int:
    """How many games a deal's played game weighs in the figures of unselected games: 1 if it was worth playing,
    `CENSUS` for a deal played only for them, 0 for a deal not played."""
    if worth:
        return 1
    return CENSUS if game % CENSUS == 0 else 0
