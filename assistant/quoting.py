"""Quoting what a user gave us back to them, cut short.

An error message names the input at fault, but an input can be anything: a 50 MB line
in a deck list, a whole JSON document where a name was expected. Echoing it whole
floods the terminal (and a log) with what the user already has; :func:`quote` keeps the
start, says how much was left out, and shows invisible characters as escapes.
"""

from __future__ import annotations

#: How many characters of an input an error message quotes.
QUOTE_LIMIT = 80


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr``-style quoting of ``value`` (a string as is, anything else as its
    ``repr``), cut to ``limit`` characters with the length of the whole:
    ``'4 Pikachu SVI …' (52,428,800 characters)``."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"
