"""Deck-building rules: whether a read deck list may be played, as a judge checks it.

Two questions, each answered with one :class:`~assistant.decklist.Problem` per fault
(a SPEC §4 reason code, the deck-list line, and the rule it rests on):

- the **deck-building rules** of the edition (RULES.md §3): exactly 60 cards, at most 4
  of a name (basic Energy aside), at least one Basic Pokémon, one ACE SPEC, one Radiant
  Pokémon, one of each Prism Star card (:func:`check_deck`);
- the **card pool** of a format (:mod:`assistant.formats`): Standard, Expanded,
  Unlimited or an older era's Modified format, when one is asked for.

Reading the text of a deck list is :mod:`assistant.decklist`; its names are kept here
too (``parse_deck_list``, ``DeckList``…) for the callers that have always found them here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from assistant.cards import CardResolver, basic_energy_type, name_identity
from assistant.catalog import catalog_resolver, default_catalog
from assistant.decklist import (
    DeckEntry,
    DeckList,
    NotADeckList,
    Problem,
    decode_deck_list,
    parse_deck_list,
    split_printing,
)
from assistant.editions import Edition
from assistant.editions import edition as find_edition
from assistant.formats import CardPool, Format, check_card_pool
from assistant.quoting import quote

__all__ = [
    "DeckEntry", "DeckList", "DeckReport", "NotADeckList", "Problem", "Resolver", "catalog_resolver",
    "check_deck", "check_deck_text", "parse_deck_list", "read_deck_file", "split_printing",
]

#: Kept for older callers: the one resolver type is :data:`assistant.cards.CardResolver`.
Resolver = CardResolver

MAX_COPIES = 4


@dataclass
class DeckReport:
    """The outcome of a deck check. ``unsure`` holds the cards whose legality in the
    format nobody here knows: they make the verdict "not sure", never "not legal"."""

    deck: DeckList
    edition: Edition
    deck_format: Format | None = None
    problems: list[Problem] = field(default_factory=list)
    unsure: list[Problem] = field(default_factory=list)

    @property
    def era(self) -> str:
        """The edition's name (``mega-evolution-2025``)."""
        return self.edition.era

    @property
    def legal(self) -> bool:
        return not self.problems and not self.deck.unreadable

    @property
    def readable(self) -> bool:
        return bool(self.deck.entries) and not self.deck.unreadable


def read_deck_file(path: str | Path, resolve: CardResolver | None = None) -> DeckList:
    """Read a deck-list file (UTF-8, with or without BOM; any line ending). Without
    ``resolve``, cards are looked up in the default catalog. Raises ``OSError`` for a
    file that cannot be read and :class:`~assistant.decklist.NotADeckList` (a
    ``ValueError``) for one that is no text at all (a photo, a zip…)."""
    text = decode_deck_list(Path(path).read_bytes())
    return parse_deck_list(text, resolve or catalog_resolver(default_catalog()))


# -- the deck-building rules ------------------------------------------------------------

SOURCES = {
    "deck-size": {
        "mega-evolution-2025": "001_75e061fbe3c8e794.txt:579",
        "black-white-2011": "000_f5f923b195869c83.txt:557",
        "platinum-2009": "004_0163ba3d06595167.txt:371",
        "expedition-2002": "003_b55862cc83f9dac9.txt:649-651",
    },
    "copies-exceeded": {
        "mega-evolution-2025": "001_75e061fbe3c8e794.txt:571, 581",
        "black-white-2011": "000_f5f923b195869c83.txt:549, 559",
        "platinum-2009": "004_0163ba3d06595167.txt:371",
        "expedition-2002": "003_b55862cc83f9dac9.txt:651-668",
    },
    "no-basic": {
        "mega-evolution-2025": "001_75e061fbe3c8e794.txt:581, 588",
        "black-white-2011": "000_f5f923b195869c83.txt:559, 566",
        "platinum-2009": "004_0163ba3d06595167.txt:379",
        # 003 states no such rule; without a Basic a player mulligans forever.
        "expedition-2002": "003_b55862cc83f9dac9.txt:258-268",
    },
}
# Printed on the cards themselves, and stated by 001 for every deck.
ACE_SPEC_SOURCE = "001_75e061fbe3c8e794.txt:612-614, 868"
RADIANT_SOURCE = "001_75e061fbe3c8e794.txt:648-650, 970"
PRISM_STAR_SOURCE = "001_75e061fbe3c8e794.txt:732-734, 966"


def is_basic_energy_in(entry: DeckEntry, rules: Edition) -> bool:
    """Whether a deck line is a basic Energy card in this era (exempt from the 4-copy
    rule): which types are basic is the edition's (``Edition.basic_energy_types``,
    RULES.md DECK-05; in 2002 Darkness and Metal Energy are special Energy, limited to 4
    like any other card). An unresolved line counts when its name reads as a basic
    Energy."""
    card = entry.card
    if card is not None and not card.is_energy:
        return False
    if card is not None and not card.is_basic_energy:
        return False
    kind = basic_energy_type(card.name if card else entry.name)
    if kind is None and card is not None:
        kind = next(iter(card.types), None) or next(iter(card.provides), None)
    return kind in rules.basic_energy_types


def check_deck(
    deck: DeckList, edition: Edition | str | None = None, deck_format: Format | None = None,
    pool: CardPool | None = None,
) -> DeckReport:
    """Apply the deck-building rules of an edition (None: the newest) to a read deck
    list, and, given a ``deck_format``, its card pool (judged with what ``pool`` knows
    of each card's printings and legalities; without a pool only the printing itself)."""
    rules = find_edition(edition)
    report = DeckReport(deck, rules, deck_format)
    problems = report.problems
    for entry in deck.entries:
        if entry.card is None:
            problems.append(Problem("unknown-card", f"no card named {entry.written} is known", entry.line))

    if deck.total != rules.deck_size:
        problems.append(Problem(
            "deck-size", f"the deck has {deck.total} cards; it must have exactly {rules.deck_size}",
            source=SOURCES["deck-size"][rules.era],
        ))
    _check_copies(problems, deck, rules)

    resolved = [e for e in deck.entries if e.card is not None]
    if deck.entries and not any(e.card.is_basic_pokemon for e in resolved) and len(resolved) == len(deck.entries):
        problems.append(Problem(
            "no-basic", "the deck has no Basic Pokémon", source=SOURCES["no-basic"][rules.era]
        ))

    _limit_one(problems, [e for e in resolved if e.card.is_ace_spec], "ace-spec-exceeded",
               "ACE SPEC cards", ACE_SPEC_SOURCE)
    _limit_one(problems, [e for e in resolved if e.card.is_pokemon and e.card.is_radiant],
               "radiant-exceeded", "Radiant Pokémon", RADIANT_SOURCE)
    prism: dict[str, list[DeckEntry]] = defaultdict(list)
    for entry in resolved:
        if entry.card.is_prism_star:
            prism[name_identity(entry.card.name)].append(entry)
    for entries in prism.values():
        copies = sum(e.count for e in entries)
        if copies > 1:
            problems.append(Problem(
                "prism-star-duplicate",
                f"{copies} copies of the Prism Star card {entries[0].written}; at most 1 of each name",
                entries[-1].line, PRISM_STAR_SOURCE,
            ))
    if deck_format is not None:
        barred, report.unsure = check_card_pool(deck, deck_format, pool)
        problems += barred
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return report


def _check_copies(problems: list[Problem], deck: DeckList, rules: Edition) -> None:
    """At most 4 cards of one name (RULES.md DECK-02), basic Energy aside."""
    by_identity: dict[str, list[DeckEntry]] = defaultdict(list)
    for entry in deck.entries:
        if not is_basic_energy_in(entry, rules):
            by_identity[name_identity(entry.card.name if entry.card else entry.name)].append(entry)
    for entries in by_identity.values():
        copies = sum(e.count for e in entries)
        if copies > MAX_COPIES:
            names = " + ".join(f"{e.count} {quote(e.name)}" for e in entries)
            energy_note = ""
            if any(_named_basic_energy(e) for e in entries):
                # a basic Energy by name that this era's book does not count as basic
                *most, last = rules.basic_energy_types
                energy_note = (f" (in {rules.era.rsplit('-', 1)[-1]} only {', '.join(most)} and {last}"
                               " Energy are basic)")
            problems.append(Problem(
                "copies-exceeded",
                f"{copies} cards share the name {entries[0].written} ({names}); at most {MAX_COPIES}{energy_note}",
                entries[-1].line, SOURCES["copies-exceeded"][rules.era],
            ))


def _named_basic_energy(entry: DeckEntry) -> bool:
    """An Energy line whose name reads as a basic Energy of some type."""
    card = entry.card
    name = card.name if card is not None else entry.name
    return (card is None or card.is_energy) and basic_energy_type(name) is not None


def _limit_one(problems: list[Problem], entries: list[DeckEntry], code: str, what: str, source: str) -> None:
    copies = sum(e.count for e in entries)
    if copies > 1:
        names = ", ".join(f"{e.count} {quote(e.name)}" for e in entries)
        problems.append(Problem(code, f"{copies} {what} ({names}); a deck may hold only 1",
                                entries[-1].line, source))


def check_deck_text(
    text: str, edition: Edition | str | None = None, resolve: CardResolver | None = None,
    deck_format: Format | None = None,
) -> DeckReport:
    """Read and check a deck list in one step (the ``deck_check`` action). Without
    ``resolve`` cards are looked up in the default catalog, which also judges their
    legality in ``deck_format`` when one is given."""
    catalog = default_catalog() if resolve is None or deck_format is not None else None
    deck = parse_deck_list(text, resolve or catalog_resolver(catalog))
    return check_deck(deck, edition, deck_format, catalog)
