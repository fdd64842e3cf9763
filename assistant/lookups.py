"""What the rules engine is handed from outside it: the card database and the deck rules.

The engine (:mod:`assistant.engine`) imports neither the card catalog nor the deck-list
rules, so that it can be understood and tested alone. Whoever makes a game (the
scenario runner, the live table, the mirror) gives it these:

- :func:`database_lookups`: a card by reference (an id or a name) and a deck-list
  line's card, for a :class:`~assistant.engine.positions.CardBook`, from the embedded
  cards and the imported database, opened only when first needed;
- :func:`deck_checker`: the ``deck_check`` action's judge, the deck-building rules of
  the game's edition.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.cards import Card
from assistant.catalog import Catalog, catalog_resolver, default_catalog
from assistant.decks import check_deck_text
from assistant.editions import Edition
from assistant.engine.positions import CardLookup, DeckLineLookup
from assistant.engine.referee import DeckChecker, DeckProblem


def database_lookups(first: CardLookup | None = None) -> tuple[CardLookup, DeckLineLookup]:
    """The card database for a :class:`CardBook`: a card by reference (after ``first``)
    and a deck-list line's card. The database is opened once, when first needed."""
    opened: list[Catalog] = []

    def catalog() -> Catalog:
        if not opened:
            opened.append(default_catalog())
        return opened[0]

    def card(ref: str) -> Card | None:
        found = first(ref) if first is not None else None
        return found if found is not None else catalog().resolve(ref)

    def deck_line(name: str, set_code: str, number: str) -> Card | None:
        return catalog_resolver(catalog())(name, set_code, number)

    return card, deck_line


def deck_checker(rules: Edition, resolve: Callable[[str, str, str], Card | None] | None = None) -> DeckChecker:
    """The engine's ``deck_check``: the deck list read and checked under ``rules``; its
    rule problems first, then its unreadable lines."""

    def check(text: str) -> list[DeckProblem]:
        report = check_deck_text(text, rules.era, resolve)
        return [*report.problems, *report.deck.unreadable]

    return check
