"""Did-you-mean suggestions for misspelt keys, names and options (every stage uses them)."""

from __future__ import annotations


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """A ' (did you mean X?)' suffix, or '' when nothing is close (difflib is imported only for a mistake)."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        close = [lowered[c] for c in close]
    return f" (did you mean '{close[0]}'?)" if close else ""
