"""The rulebooks the rules rest on, and how a person reads a citation of them.

The engine and the deck checker cite rules in a compact, machine-readable form, the
rulebook's file name and its lines (``001_75e061fbe3c8e794.txt:579`` or
``003_b55862cc83f9dac9.txt:740-760, 988``), the form ``../shared/RULES.md`` uses. A judge
reading a refusal needs the book's name instead: :func:`readable` turns the one into
"Mega Evolution rulebook (2025), line 579".

| file                       | the book                                               |
|----------------------------|--------------------------------------------------------|
| 000_f5f923b195869c83.txt   | Black & White rulebook (2011)                          |
| 001_75e061fbe3c8e794.txt   | Mega Evolution—Phantasmal Flames rulebook (2025)       |
| 002_035e2c848b6c0d57.txt   | an unofficial summary: it never decides a rule         |
| 003_b55862cc83f9dac9.txt   | Expedition advanced rulebook (2002)                    |
| 004_0163ba3d06595167.txt   | Diamond & Pearl / Platinum rulebook (2009)             |
"""

from __future__ import annotations

import re

BLACK_WHITE_BOOK = "000_f5f923b195869c83.txt"
MEGA_EVOLUTION_BOOK = "001_75e061fbe3c8e794.txt"
UNOFFICIAL_SUMMARY = "002_035e2c848b6c0d57.txt"
EXPEDITION_BOOK = "003_b55862cc83f9dac9.txt"
PLATINUM_BOOK = "004_0163ba3d06595167.txt"

TITLES = {
    BLACK_WHITE_BOOK: "Black & White rulebook (2011)",
    MEGA_EVOLUTION_BOOK: "Mega Evolution rulebook (2025)",
    UNOFFICIAL_SUMMARY: "unofficial rules summary",
    EXPEDITION_BOOK: "Expedition rulebook (2002)",
    PLATINUM_BOOK: "Platinum rulebook (2009)",
}

# One citation: a file name, a colon, then lines ("579", "740-760, 988").
_CITATION = re.compile(r"(?P<file>\d{3}_[0-9a-f]+\.txt):(?P<lines>[0-9][0-9,\s\-–]*)")


def readable(citation: str) -> str:
    """A citation as a person reads it: ``001_75e061fbe3c8e794.txt:579`` becomes
    "Mega Evolution rulebook (2025), line 579" and ``…:740-760, 988`` "…, lines
    740-760, 988". Several citations (separated by ``;``) are each turned; text that
    is no citation, and an empty string, come back as they are."""

    def turn(match: re.Match[str]) -> str:
        title = TITLES.get(match["file"], match["file"])
        lines = match["lines"].strip().rstrip(",").strip()
        word = "line" if lines.isdigit() else "lines"
        return f"{title}, {word} {lines}"

    return _CITATION.sub(turn, citation)
