"""Every card the program knows: the embedded set, then the imported database.

The embedded set ships inside the package, so the program works before any import;
the imported database (``table-assistant cards import``) adds the rest of the card
pool when the user has it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from assistant.carddb import CardDatabase
from assistant.cards import Card, CardResolver, basic_energy, basic_energy_type, fold
from assistant.paths import card_database_path


class Catalog:
    """Card lookup over the embedded cards and, when given, the imported database."""

    def __init__(self, embedded: list[Card], database: CardDatabase | None = None) -> None:
        self.embedded = embedded
        self.database = database

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.embedded}

    @cached_property
    def _by_folded_name(self) -> dict[str, list[Card]]:
        index: dict[str, list[Card]] = {}
        for card in self.embedded:
            index.setdefault(fold(card.name), []).append(card)
        return index

    @cached_property
    def _by_printing(self) -> dict[tuple[str, str], Card]:
        index: dict[tuple[str, str], Card] = {}
        for card in self.embedded:
            for code in filter(None, (card.set_code, card.set_id)):
                index[(code.upper(), card.number.upper())] = card
        return index

    def get(self, card_id: str) -> Card | None:
        """A printing by its pokemontcg.io id (``sv3-125``)."""
        card = self._by_id.get(card_id)
        if card is None and self.database is not None:
            card = self.database.get(card_id)
        return card

    def by_name(self, name: str) -> list[Card]:
        """Every known printing of a name (exact or normalised spelling); a basic
        Energy named any usual way (``Fire Energy``, ``Basic {R} Energy``) is the
        embedded basic Energy card of that type."""
        cards = list(self._by_folded_name.get(fold(name), ()))
        if not cards and self.database is not None:
            cards = self.database.by_name(name)
        if not cards:
            kind = basic_energy_type(name)
            if kind:
                return [self._basic_energy(kind)]
        return cards

    def printing(self, set_code: str, number: str) -> Card | None:
        """The card at ``number`` in the set with ptcgo code or id ``set_code``."""
        card = self._by_printing.get((set_code.upper(), number.upper()))
        if card is None and number.isdigit():
            card = self._by_printing.get((set_code.upper(), number.lstrip("0") or number))
        if card is None and self.database is not None:
            card = self.database.printing(set_code, number)
        return card

    def resolve(self, ref: str) -> Card | None:
        """A card named in a position file or on the command line: an id, else a name
        (its newest printing), else None."""
        return self.get(ref) or next(iter(self.by_name(ref)), None)

    def all_names(self) -> list[tuple[str, str]]:
        """(name, id) of every known printing: embedded first, then the database."""
        names = [(card.name, card.id) for card in self.embedded]
        if self.database is not None:
            seen = {card_id for _, card_id in names}
            names += [(n, i) for n, i in self.database.names() if i not in seen]
        return names

    def legalities(self, card: Card) -> Mapping[str, str] | None:
        """The formats the imported database says a printing is legal (or banned) in,
        ``{"standard": "Legal", "expanded": "Banned", ...}``; None when there is no
        database, or it does not know this printing (an embedded card with no import,
        a database imported before legalities were stored)."""
        if self.database is None or not card.id:
            return None
        return self.database.legalities(card.id)

    def _basic_energy(self, kind: str) -> Card:
        for card in self.embedded:
            if card.is_energy and basic_energy_type(card.name) == kind:
                return card
        return basic_energy(kind)


def catalog_resolver(catalog: Catalog) -> CardResolver:
    """Resolve deck lines through a :class:`Catalog`: the printing (set code and
    number) when it exists and carries the same name, else the name."""

    def resolve(name: str, set_code: str, number: str) -> Card | None:
        if set_code:
            card = catalog.printing(set_code, number)
            if card is not None and _same_card_name(card.name, name):
                return card
        return next(iter(catalog.by_name(name)), None)

    return resolve


def _same_card_name(printed: str, written: str) -> bool:
    if fold(printed) == fold(written):
        return True
    kind = basic_energy_type(written)
    return kind is not None and kind == basic_energy_type(printed)


def default_catalog() -> Catalog:
    """The embedded cards plus the database under ``TABLE_ASSISTANT_HOME`` if the user
    has imported one. Made anew on each call: tests change ``TABLE_ASSISTANT_HOME``."""
    from assistant.embedded import embedded_cards

    path = card_database_path()
    database = CardDatabase(path) if path.exists() else None
    return Catalog(embedded_cards(), database)
