"""``table-assistant deck check F [--era ERA] [--format FORMAT]``: one line per problem.

Exit codes (SPEC §1): 0 legal, 1 illegal, 2 unreadable (the file, or any of its lines);
3 not sure: no rule broken, but the legality of some card in the format is not known.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from assistant.catalog import catalog_resolver, default_catalog
from assistant.decklist import NotADeckList, decode_deck_list, parse_deck_list
from assistant.decks import DeckReport, check_deck
from assistant.editions import Edition
from assistant.formats import Format
from assistant.quoting import quote
from table_assistant.messages import cut_short


def check_deck_file(
    path: str, *, edition: Edition, deck_format: Format | None, out: TextIO, err: TextIO | None = None,
) -> int:
    """Check the deck list at ``path`` under ``edition``'s deck-building rules and
    ``deck_format``'s card pool (None: the rules alone): the report on ``out``, errors
    on ``err``."""
    err = err or out
    try:
        text = decode_deck_list(Path(path).read_bytes())
    except OSError as error:
        print(f"{quote(path)}: cannot read the deck list: {read_error(error)}", file=err)
        return 2
    except NotADeckList as error:
        print(f"{quote(path)}: cannot read the deck list: {error}", file=err)
        return 2
    catalog = default_catalog()
    deck = parse_deck_list(text, catalog_resolver(catalog))
    report = check_deck(deck, edition, deck_format, catalog)
    print_report(path, report, out, err)
    if not report.deck.entries or report.deck.unreadable:
        return 2
    if not report.legal:
        return 1
    return 3 if report.unsure else 0


def read_error(error: OSError) -> str:
    """Why a deck-list file could not be read, without repeating its path."""
    return error.strerror or str(error)


def print_report(path: str, report: DeckReport, out: TextIO, err: TextIO | None = None) -> None:
    """One line per problem on ``out``; a file with no card line is an error on ``err``."""
    for problem in [*report.deck.unreadable, *report.problems, *report.unsure, *report.deck.notes]:
        where = f"{path}:{problem.line}" if problem.line else path
        source = f" [{problem.source}]" if problem.source else ""
        print(f"{where}: {problem.code}: {cut_short(problem.message)}{source}", file=out)
    if not report.deck.entries:
        print(f"{quote(path)}: no card lines found: is this a deck list?", file=err or out)
    elif report.legal and report.unsure:
        count = len(report.unsure)
        print(f"{path}: not sure: {report.deck.total} cards ({report.era}) break no rule, but the legality"
              f" of {count} line{'s' if count != 1 else ''} in {report.deck_format} is not known", file=out)
    elif report.legal:
        pool = f" in {report.deck_format}" if report.deck_format else ""
        print(f"{path}: legal: {report.deck.total} cards ({report.era}){pool}", file=out)
    else:
        count = len(report.problems) + len(report.deck.unreadable)
        pool = f" in {report.deck_format}" if report.deck_format else ""
        print(f"{path}: not legal: {count} problem{'s' if count != 1 else ''} ({report.era}){pool}", file=out)
