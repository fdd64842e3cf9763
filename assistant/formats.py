"""Formats: which printed cards a deck may hold, as a judge checks it.

The rulebooks say how a deck is built (60 cards, 4 copies, a Basic…: see
:mod:`assistant.decks`) but not *which cards* are allowed: that is the format of the
event. A Base Set deck is no legal deck at a 2025 tournament, nor a Scarlet & Violet
deck at a 2002 one. A :class:`Format` judges one printing at a time:

- **Standard** (2025–26): by the regulation mark printed on the card, G, H, I or J;
- **Expanded** and **Unlimited**: by the card database's own ``legalities`` field
  (pokemontcg.io), which also carries the ban lists;
- each older era's **Modified** format: by the set the printing comes from (the sets
  legal in that season), for the rules of ``expedition-2002``, ``platinum-2009`` and
  ``black-white-2011``.

Two tournament rules apply everywhere: basic Energy cards are always allowed, and an
older printing of a card is allowed when a reprint of it (the same name and the same
game facts) is legal in the format. A card banned in a format stays banned whatever
its printing.

When nothing the program has decides (an embedded card with no imported database, for
a format judged by the database) the verdict is :data:`UNKNOWN`, "not sure": never a
guess either way. :func:`check_card_pool` turns the verdicts on a deck list's cards
into one problem per barred line, and one ``legality-unknown`` note per unsure one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Protocol

from assistant.cards import Card, name_identity
from assistant.decklist import DeckList, Problem
from assistant.eras import BLACK_WHITE_2011, EXPEDITION_2002, MEGA_EVOLUTION_2025, PLATINUM_2009

LEGAL = "legal"
NOT_LEGAL = "not-legal"
BANNED = "banned"
UNKNOWN = "unknown"

#: Legalities as the card database stores them: format key → ``Legal``/``Banned``/….
Legalities = Mapping[str, str]


@dataclass(frozen=True)
class Verdict:
    """A format's answer for one printing: :data:`LEGAL`, :data:`NOT_LEGAL`,
    :data:`BANNED` or :data:`UNKNOWN`, and why, in words a player reads."""

    status: str
    why: str = ""


@dataclass(frozen=True)
class Format:
    """A card pool. Exactly one way of judging is set: ``regulation_marks`` (Standard),
    ``sets`` (an era's Modified format, pokemontcg.io set ids) or neither (judged by
    the database's ``legalities`` under ``key`` alone). ``key`` is the format's name in
    the database's ``legalities``, read for its bans, '' when it has none there."""

    name: str
    title: str
    key: str = ""
    regulation_marks: frozenset[str] = frozenset()
    sets: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return self.title

    def judge(self, card: Card, legalities: Legalities | None) -> Verdict:
        """The verdict on one printing, from its own facts and the database's
        ``legalities`` for it (None when the database does not know the card)."""
        if card.is_basic_energy:
            return Verdict(LEGAL, "basic Energy is allowed in every format")
        if legalities is not None and self.key and legalities.get(self.key) == "Banned":
            return Verdict(BANNED, f"it is banned in {self.title}")
        if self.regulation_marks:
            return self._by_mark(card, legalities)
        if self.sets:
            return self._by_set(card)
        return self._by_database(legalities)

    def _by_mark(self, card: Card, legalities: Legalities | None) -> Verdict:
        marks = ", ".join(sorted(self.regulation_marks))
        if card.regulation_mark:
            if card.regulation_mark in self.regulation_marks:
                return Verdict(LEGAL)
            return Verdict(NOT_LEGAL, f"its regulation mark is {card.regulation_mark}; the format takes {marks}")
        if legalities is None:
            return Verdict(UNKNOWN, "it has no regulation mark the program knows of")
        if legalities.get(self.key) == "Legal":  # the database knows of a legal reprint
            return Verdict(LEGAL)
        return Verdict(NOT_LEGAL, f"it has no regulation mark; the format takes {marks}")

    def _by_set(self, card: Card) -> Verdict:
        if not card.set_id:
            return Verdict(UNKNOWN, "the program does not know which set it comes from")
        if card.set_id in self.sets:
            return Verdict(LEGAL)
        return Verdict(NOT_LEGAL, f"its set, {card.set_id}, is not one of the format's sets")

    def _by_database(self, legalities: Legalities | None) -> Verdict:
        if legalities is None:
            return Verdict(UNKNOWN, "the card database does not know its legality")
        status = legalities.get(self.key)
        if status == "Legal":
            return Verdict(LEGAL)
        listed = ", ".join(k for k, v in legalities.items() if v == "Legal") or "no format"
        return Verdict(NOT_LEGAL, f"the card database lists it as legal in {listed} only")


STANDARD = Format(
    "standard", "Standard 2025-26", key="standard",
    regulation_marks=frozenset("GHIJ"),
)
EXPANDED = Format("expanded", "Expanded", key="expanded")
UNLIMITED = Format("unlimited", "Unlimited", key="unlimited")
#: 2002-03: Team Rocket to Skyridge, with the Wizards promos ("Rocket-on").
MODIFIED_2002 = Format("modified-2002", "Modified 2002-03", sets=frozenset({
    "base5", "gym1", "gym2", "neo1", "neo2", "si1", "neo3", "neo4", "base6", "ecard1", "bp",
    "ecard2", "ecard3", "basep",
}))
#: 2009-10: no rotation that season, so Diamond & Pearl to Unleashed ("DP-on").
MODIFIED_2009 = Format("modified-2009", "Modified 2009-10", sets=frozenset({
    "dp1", "dpp", "dp2", "dp3", "dp4", "dp5", "dp6", "dp7", "pl1", "pl2", "pl3", "pl4",
    "pop6", "pop7", "pop8", "pop9", "ru1", "hgss1", "hsp", "hgss2",
}))
#: 2011-12: the mid-2011 rotation to HeartGold & SoulSilver on ("HGSS-on"), up to Dark Explorers.
MODIFIED_2011 = Format("modified-2011", "Modified 2011-12", sets=frozenset({
    "hgss1", "hsp", "hgss2", "hgss3", "hgss4", "col1", "bwp", "bw1", "mcd11", "bw2", "bw3",
    "bw4", "bw5", "mcd12",
}))

#: ``--format`` names → formats; ``none`` checks the deck-building rules alone.
FORMATS: Mapping[str, Format] = MappingProxyType({
    f.name: f for f in (STANDARD, EXPANDED, UNLIMITED, MODIFIED_2002, MODIFIED_2009, MODIFIED_2011)
})
NO_FORMAT = "none"

#: The format each era's games are played in unless told otherwise.
DEFAULT_FORMATS: Mapping[str, Format] = MappingProxyType({
    EXPEDITION_2002: MODIFIED_2002,
    PLATINUM_2009: MODIFIED_2009,
    BLACK_WHITE_2011: MODIFIED_2011,
    MEGA_EVOLUTION_2025: STANDARD,
})


class UnknownFormat(ValueError):
    """A ``--format`` name that is not one of :data:`FORMATS` (nor ``none``)."""


def format_named(name: str) -> Format | None:
    """The format called ``name`` (case and spacing aside); None for ``none`` (no
    card-pool check). Raises :class:`UnknownFormat` naming the choices."""
    key = name.strip().lower()
    if key == NO_FORMAT:
        return None
    if key not in FORMATS:
        choices = ", ".join([*FORMATS, NO_FORMAT])
        raise UnknownFormat(f"unknown format {name[:40]!r}; choose one of {choices}")
    return FORMATS[key]


def is_reprint(card: Card, other: Card) -> bool:
    """Whether ``other`` is the same card as ``card`` in another printing: the same
    name and, for a Pokémon, the same game facts (HP, attacks, abilities, Weakness…);
    a Trainer or Energy card of the same name is the same card."""
    if name_identity(card.name) != name_identity(other.name) or card.supertype != other.supertype:
        return False
    if not card.is_pokemon:
        return True
    return _game_facts(card) == _game_facts(other)


def _game_facts(card: Card) -> Card:
    return replace(card, id="", set_id="", set_code="", number="", regulation_mark="")


def default_format(era: str) -> Format:
    """The format an era's games are played in unless told otherwise (README "Deck
    lists"): each older era's Modified format, Standard for 2025."""
    return DEFAULT_FORMATS[era]


# -- a deck's cards, as a judge checks them ---------------------------------------------------


class CardPool(Protocol):
    """What the card-pool check asks of the cards the program knows (a
    :class:`~assistant.catalog.Catalog` is one): every printing of a name, and the
    database's ``legalities`` of a printing (None when it does not know them)."""

    def by_name(self, name: str) -> list[Card]: ...

    def legalities(self, card: Card) -> Mapping[str, str] | None: ...


def check_card_pool(
    deck: DeckList, deck_format: Format, pool: CardPool | None = None
) -> tuple[list[Problem], list[Problem]]:
    """The cards a format bars, one problem per deck-list line (``not-in-format``, or
    ``banned-card``), and the lines whose legality nobody here knows
    (``legality-unknown``: "not sure", never a verdict). Lines naming no known card are
    left to ``unknown-card``."""
    barred: list[Problem] = []
    unsure: list[Problem] = []
    for entry in deck.entries:
        if entry.card is None:
            continue
        verdict = card_verdict(entry.card, deck_format, pool)
        if verdict.status == LEGAL:
            continue
        what = f"{entry.written} ({entry.card.id})" if entry.card.id else entry.written
        if verdict.status == BANNED:
            barred.append(Problem("banned-card", f"{what}: {verdict.why}", entry.line))
        elif verdict.status == NOT_LEGAL:
            barred.append(Problem(
                "not-in-format", f"{what} is not legal in {deck_format}: {verdict.why}", entry.line
            ))
        else:
            unsure.append(Problem(
                "legality-unknown", f"not sure whether {what} is legal in {deck_format}: "
                f"{verdict.why} (import the card database: table-assistant cards import)", entry.line,
            ))
    return barred, unsure


def card_verdict(card: Card, deck_format: Format, pool: CardPool | None = None) -> Verdict:
    """A format's verdict on a card, as a judge gives it: its own printing first, then,
    unless it is banned, any reprint of it the pool knows that is legal."""

    def legalities(printing: Card) -> Mapping[str, str] | None:
        return pool.legalities(printing) if pool is not None else None

    verdict = deck_format.judge(card, legalities(card))
    if verdict.status in (LEGAL, BANNED) or pool is None:
        return verdict
    for other in pool.by_name(card.name):
        if other.id != card.id and is_reprint(card, other) and \
                deck_format.judge(other, legalities(other)).status == LEGAL:
            return Verdict(LEGAL, f"reprinted as {other.set_code or other.set_id} {other.number}")
    return verdict
