"""``table-assistant deck check F [--era ERA]``: one line per problem.

Exit codes (SPEC §1): 0 legal, 1 illegal, 2 unreadable (the file, or any of its lines).
"""

from __future__ import annotations

from typing import TextIO

from assistant.decks import DeckReport, check_deck, read_deck_file


def check_deck_file(path: str, *, era: str, out: TextIO) -> int:
    try:
        deck = read_deck_file(path)
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: cannot read the deck list: {error}", file=out)
        return 2
    report = check_deck(deck, era)
    print_report(path, report, out)
    if not report.deck.entries or report.deck.unreadable:
        return 2
    return 0 if report.legal else 1


def print_report(path: str, report: DeckReport, out: TextIO) -> None:
    for problem in [*report.deck.unreadable, *report.problems, *report.deck.notes]:
        where = f"{path}:{problem.line}" if problem.line else path
        source = f" [{problem.source}]" if problem.source else ""
        print(f"{where}: {problem.code}: {problem.message}{source}", file=out)
    if not report.deck.entries:
        print(f"{path}: no card lines found: is this a deck list?", file=out)
    elif report.legal:
        print(f"{path}: legal: {report.deck.total} cards ({report.era})", file=out)
    else:
        count = len(report.problems) + len(report.deck.unreadable)
        print(f"{path}: not legal: {count} problem{'s' if count != 1 else ''} ({report.era})", file=out)
