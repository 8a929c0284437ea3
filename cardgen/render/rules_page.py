"""The one-page rules reference of a set: content from the set data, shrunk until it fits one page.

`rules_pdf` is the entry point (the `rules` and `build` commands use it). The body
font shrinks in the steps of `templates/rules/layout.yaml` down to a legible minimum;
content that does not fit even then is an error that says by how much, never a
second page.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.errors import CardgenError
from cardgen.model import CardSet
from cardgen.render.rules_content import Block, page_blocks
from cardgen.render.rules_layout import Rendered, font_sizes, min_font_size, paper_names, render


class RulesPageError(CardgenError):
    """The rules page cannot be made (unknown paper, content too long)."""


class RulesOverflowError(RulesPageError):
    """The set's rules do not fit on one page even at the smallest legible font size."""


def _fit(blocks: list[Block], paper: str, subject: str) -> tuple[Rendered, float] | None:
    """The largest size at which the page fits, found by bisection over the candidate sizes.

    A size also fails when the card table would have to split a word; if every size does that,
    the largest size that at least fits on one page is taken.
    """
    sizes = font_sizes()
    tidy = _largest(blocks, paper, subject, sizes, lambda r: r.tidy)
    return tidy or _largest(blocks, paper, subject, sizes, lambda r: r.pages == 1)


def _largest(blocks: list[Block], paper: str, subject: str, sizes: list[float],
             good: Callable[[Rendered], bool]) -> tuple[Rendered, float] | None:
    lo, hi = 0, len(sizes) - 1  # sizes[0] is the largest; find the first index that is good
    best: tuple[Rendered, float] | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        attempt = render(blocks, paper, sizes[mid], subject)
        if good(attempt):
            best = (attempt, sizes[mid])
            hi = mid - 1
        else:
            lo = mid + 1
    return best


def rules_pdf_and_size(cs: CardSet, paper: str) -> tuple[bytes, float]:
    """The one-page PDF and the body font size it was set in."""
    if paper not in paper_names():
        raise RulesPageError(f"unknown paper '{paper}' for the rules page; expected one of "
                             f"{', '.join(paper_names())}")
    blocks = page_blocks(cs)
    subject = _subject(cs)
    best = _fit(blocks, paper, subject)
    if best is None:
        raise _overflow(cs, paper, render(blocks, paper, min_font_size(), subject))
    return best[0].pdf, best[1]


def _subject(cs: CardSet) -> str:
    return f"One-page rules reference for {cs.title} ({cs.name})"


def _overflow(cs: CardSet, paper: str, worst: Rendered) -> RulesOverflowError:
    over = max(1, round((worst.needed - 1) * 100))
    return RulesOverflowError(f"rules page for {cs.name} overflows by {over}% at {min_font_size():g} pt on {paper} "
                              f"({len(cs.cards)} card designs); shorten the set or split it")


def check_fits(cs: CardSet, paper: str) -> None:
    """Raise the error `rules_pdf` would raise for an overflowing page, from one attempt at the smallest size
    (a page that fits one page there is always made; `cardgen validate` asks this instead of fitting it)."""
    attempt = render(page_blocks(cs), paper, min_font_size(), _subject(cs))
    if attempt.pages != 1:
        raise _overflow(cs, paper, attempt)


def rules_pdf(cs: CardSet, paper: str) -> bytes:
    """A one-page PDF rules reference for `cs` on "a4" or "letter", the same bytes for the same input."""
    return rules_pdf_and_size(cs, paper)[0]
