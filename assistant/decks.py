"""Deck lists: reading them, and the deck-building rules.

Three export formats are read (SPEC §5):

- Pokémon TCG Live: sections ``Pokémon: 12`` / ``Trainer: 36`` / ``Energy: 12``, lines
  ``4 Charmander OBF 26``, an optional ``Total Cards: 60``;
- the older PTCGO export: ``##Pokémon - 12`` and lines starting ``* ``;
- deck sites: ``Pokemon - 12`` headers and plain lines.

Set codes may hold hyphens (``PR-SV``), numbers letters (``TG05``, ``SWSH121``); basic
Energy may have no set (``13 Basic Darkness Energy``) or a symbol
(``8 Basic {D} Energy MEE 7``). Every line that cannot be read is reported with its line
number and why: nothing is dropped silently.

The deck-building rules (RULES.md §3) are checked by :func:`check_deck`; each problem
carries a SPEC §4 reason code, the deck-list line it concerns and the rulebook line it
rests on.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from assistant.cards import Card, basic_energy_type, fold, name_identity
from assistant.catalog import Catalog, default_catalog
from assistant.editions import edition
from assistant.eras import canonical_era

#: Looks a deck line's card up: (name, set code, number) → Card or None.
Resolver = Callable[[str, str, str], "Card | None"]

MAX_COPIES = 4

_HEADER = re.compile(
    r"^(?:#+\s*)?(?P<section>pok[eé]mon|trainers?(?:\s+cards?)?|energy|energies)\s*"
    r"(?:[:\-–]\s*|\()\s*(?P<count>\d+)\)?\s*$",
    re.IGNORECASE,
)
_TOTAL = re.compile(r"^(?:#+\s*)?total\s+cards?\s*[:\-–]?\s*(?P<count>\d+)\s*$", re.IGNORECASE)
_CARD = re.compile(r"^(?:[*•\-]\s*)?(?P<count>\d+)\s*[x×]?\s+(?P<rest>\S.*?)\s*$", re.IGNORECASE)
_BANNER = re.compile(r"^\*{3,}.*\*{3,}$")  # PTCGO's "****** ... Deck List ******" lines
_SET_CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$|^[a-z]+\d+[a-z0-9]*$")
_NUMBER = re.compile(r"^[A-Z]{0,6}\d+[a-zA-Z]?$")


@dataclass
class DeckEntry:
    """One card line: how many, the name and printing as written, and the card it
    resolved to (None when nobody knows it)."""

    line: int
    count: int
    name: str
    set_code: str = ""
    number: str = ""
    section: str = ""
    card: Card | None = None


@dataclass(frozen=True)
class Problem:
    """Something wrong with a deck list. ``code`` is a SPEC §4 reason code, or
    ``unreadable-line`` / ``section-total`` for the reading itself; ``line`` is the
    deck-list line (1-based) when one line is at fault; ``source`` the rulebook line."""

    code: str
    message: str
    line: int | None = None
    source: str = ""


@dataclass
class DeckList:
    """A read deck list: its card lines, the lines that could not be read, and notes
    (section totals that do not add up) that do not by themselves make a deck illegal."""

    entries: list[DeckEntry] = field(default_factory=list)
    unreadable: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    def cards(self) -> list[Card]:
        """Every resolved card, one per copy."""
        return [entry.card for entry in self.entries if entry.card for _ in range(entry.count)]


@dataclass
class DeckReport:
    """The outcome of a deck check."""

    deck: DeckList
    era: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.problems and not self.deck.unreadable

    @property
    def readable(self) -> bool:
        return bool(self.deck.entries) and not self.deck.unreadable


# -- reading -------------------------------------------------------------------------------


def parse_deck_list(text: str, resolve: Resolver | None = None) -> DeckList:
    """Read a deck list in any of the SPEC §5 formats. ``resolve`` looks each card up;
    without it the entries carry no card."""
    deck = DeckList()
    text = text.lstrip("\ufeff")
    section = ""
    declared: dict[str, tuple[int, int]] = {}  # section → (count, header line)
    total_declared: tuple[int, int] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("\u00a0", " ").strip()
        if not line or line.startswith("//") or set(line) <= set("-=*#") or _BANNER.match(line):
            continue
        if header := _HEADER.match(line):
            section = _section_name(header["section"])
            declared[section] = (int(header["count"]), number)
            continue
        if total := _TOTAL.match(line):
            total_declared = (int(total["count"]), number)
            continue
        if card_line := _CARD.match(line):
            count = int(card_line["count"])
            if count == 0:
                deck.unreadable.append(Problem("unreadable-line", f"{line!r}: a count of 0", number))
                continue
            name, set_code, card_number = split_printing(card_line["rest"])
            entry = DeckEntry(number, count, name, set_code, card_number, section)
            if resolve is not None:
                entry.card = resolve(name, set_code, card_number)
            deck.entries.append(entry)
            continue
        deck.unreadable.append(
            Problem("unreadable-line", f"{line!r}: not a card line ('<count> <name> [SET NUMBER]')"
                    " nor a section header", number)
        )
    _check_totals(deck, declared, total_declared)
    return deck


def split_printing(rest: str) -> tuple[str, str, str]:
    """Split ``Charmander OBF 26`` into (name, set code, number); a line without a
    printing (``Basic Darkness Energy``) has empty set and number."""
    words = rest.split()
    if len(words) >= 3 and _SET_CODE.match(words[-2]) and _NUMBER.match(words[-1]):
        return " ".join(words[:-2]), words[-2], words[-1]
    return " ".join(words), "", ""


def _section_name(word: str) -> str:
    key = fold(word)
    if key.startswith("pok"):
        return "Pokémon"
    return "Trainer" if key.startswith("trainer") else "Energy"


def _check_totals(
    deck: DeckList, declared: dict[str, tuple[int, int]], total: tuple[int, int] | None
) -> None:
    listed = Counter()
    for entry in deck.entries:
        listed[entry.section] += entry.count
    for section, (count, line) in declared.items():
        if listed[section] != count:
            deck.notes.append(Problem(
                "section-total",
                f"the {section} header says {count} but its lines add up to {listed[section]}",
                line,
            ))
    if total and total[0] != deck.total:
        deck.notes.append(Problem(
            "section-total", f"'Total Cards' says {total[0]} but the lines add up to {deck.total}",
            total[1],
        ))


def catalog_resolver(catalog: Catalog) -> Resolver:
    """Resolve deck lines through a :class:`~assistant.catalog.Catalog`: the printing
    (set code and number) when it exists and carries the same name, else the name."""

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


def read_deck_file(path: str | Path, resolve: Resolver | None = None) -> DeckList:
    """Read a deck-list file (UTF-8, with or without BOM; any line ending). Without
    ``resolve``, cards are looked up in the default catalog. Raises ``OSError`` or
    ``UnicodeDecodeError`` for a file that cannot be read at all."""
    text = Path(path).read_bytes().decode("utf-8-sig")
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


def is_basic_energy_in(entry: DeckEntry, era: str) -> bool:
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
    return kind in edition(era).basic_energy_types


def check_deck(deck: DeckList, era: str | None = None) -> DeckReport:
    """Apply the deck-building rules of an era to a read deck list."""
    era = canonical_era(era)
    rules = edition(era)
    report = DeckReport(deck, era)
    problems = report.problems
    for entry in deck.entries:
        if entry.card is None:
            printing = f" {entry.set_code} {entry.number}" if entry.set_code else ""
            problems.append(Problem(
                "unknown-card", f"no card named {entry.name!r}{printing} is known", entry.line
            ))

    if deck.total != rules.deck_size:
        problems.append(Problem(
            "deck-size", f"the deck has {deck.total} cards; it must have exactly {rules.deck_size}",
            source=SOURCES["deck-size"][era],
        ))

    by_identity: dict[str, list[DeckEntry]] = defaultdict(list)
    for entry in deck.entries:
        if not is_basic_energy_in(entry, era):
            by_identity[name_identity(entry.card.name if entry.card else entry.name)].append(entry)
    for entries in by_identity.values():
        copies = sum(e.count for e in entries)
        if copies > MAX_COPIES:
            names = " + ".join(f"{e.count} {e.name}" for e in entries)
            energy_note = ""
            if any(_named_basic_energy(e) for e in entries):
                # a basic Energy by name that this era's book does not count as basic
                *most, last = rules.basic_energy_types
                energy_note = (f" (in {era.rsplit('-', 1)[-1]} only {', '.join(most)} and {last}"
                               " Energy are basic)")
            problems.append(Problem(
                "copies-exceeded",
                f"{copies} cards share the name {entries[0].name!r} ({names}); at most {MAX_COPIES}{energy_note}",
                entries[-1].line, SOURCES["copies-exceeded"][era],
            ))

    resolved = [e for e in deck.entries if e.card is not None]
    if deck.entries and not any(e.card.is_basic_pokemon for e in resolved) and len(resolved) == len(deck.entries):
        problems.append(Problem(
            "no-basic", "the deck has no Basic Pokémon", source=SOURCES["no-basic"][era]
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
                f"{copies} copies of the Prism Star card {entries[0].name!r}; at most 1 of each name",
                entries[-1].line, PRISM_STAR_SOURCE,
            ))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return report


def _named_basic_energy(entry: DeckEntry) -> bool:
    """An Energy line whose name reads as a basic Energy of some type."""
    card = entry.card
    name = card.name if card is not None else entry.name
    return (card is None or card.is_energy) and basic_energy_type(name) is not None


def _limit_one(problems: list[Problem], entries: list[DeckEntry], code: str, what: str, source: str) -> None:
    copies = sum(e.count for e in entries)
    if copies > 1:
        names = ", ".join(f"{e.count} {e.name}" for e in entries)
        problems.append(Problem(code, f"{copies} {what} ({names}); a deck may hold only 1",
                                entries[-1].line, source))


def check_deck_text(text: str, era: str | None = None, resolve: Resolver | None = None) -> DeckReport:
    """Read and check a deck list in one step (the ``deck_check`` action). Without
    ``resolve`` cards are looked up in the default catalog."""
    return check_deck(parse_deck_list(text, resolve or catalog_resolver(default_catalog())), era)
