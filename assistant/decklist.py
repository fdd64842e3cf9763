"""Deck lists as people write them: reading the text into card lines.

Three export formats are read (SPEC §5):

- Pokémon TCG Live: sections ``Pokémon: 12`` / ``Trainer: 36`` / ``Energy: 12``, lines
  ``4 Charmander OBF 26``, an optional ``Total Cards: 60``;
- the older PTCGO export: ``##Pokémon - 12`` and lines starting ``* ``;
- deck sites: ``Pokemon - 12`` headers and plain lines.

Set codes may hold hyphens (``PR-SV``), numbers letters (``TG05``, ``SWSH121``); basic
Energy may have no set (``13 Basic Darkness Energy``) or a symbol
(``8 Basic {D} Energy MEE 7``). Every line that cannot be read is reported with its line
number and why: nothing is dropped silently. Whatever the input (a photo given by
mistake, a 50 MB line), the answer is a :class:`DeckList` or a clear reason, and an
input is only ever quoted back cut short (:func:`assistant.quoting.quote`).

This module only reads; whether the deck may be played is :mod:`assistant.decks`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from assistant.cards import Card, CardResolver, fold
from assistant.quoting import quote

#: A card count longer than this is no card count (and Python refuses to turn a
#: thousands-digit number into an int).
_COUNT = r"\d{1,4}"
_HEADER = re.compile(
    r"^(?:#+\s*)?(?P<section>pok[eé]mon|trainers?(?:\s+cards?)?|energy|energies)\s*"
    rf"(?:[:\-–]\s*|\()\s*(?P<count>{_COUNT})\)?\s*$",
    re.IGNORECASE,
)
_TOTAL = re.compile(rf"^(?:#+\s*)?total\s+cards?\s*[:\-–]?\s*(?P<count>{_COUNT})\s*$", re.IGNORECASE)
# The line is stripped before matching, so ``rest`` needs no lazy "up to trailing
# spaces" (which is quadratic on a long run of inner spaces).
_CARD = re.compile(rf"^(?:[*•\-]\s*)?(?P<count>{_COUNT})\s*[x×]?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_BANNER = re.compile(r"^\*{3,}.*\*{3,}$")  # PTCGO's "****** ... Deck List ******" lines
# Lines end as an editor counts them, so that FILE:LINE finds the line: not at a form
# feed or the other breaks str.splitlines() also honours.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
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

    @property
    def written(self) -> str:
        """The card as the list writes it, cut short for a message: ``'Charmander' OBF 26``."""
        printing = f" {self.set_code} {self.number}" if self.set_code else ""
        return f"{quote(self.name)}{printing}"


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


def parse_deck_list(text: str, resolve: CardResolver | None = None) -> DeckList:
    """Read a deck list in any of the SPEC §5 formats. ``resolve`` looks each card up;
    without it the entries carry no card."""
    deck = DeckList()
    text = text.lstrip("\ufeff")
    section = ""
    declared: dict[str, tuple[int, int]] = {}  # section → (count, header line)
    total_declared: tuple[int, int] | None = None
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
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
                deck.unreadable.append(Problem("unreadable-line", f"{quote(line)}: a count of 0", number))
                continue
            name, set_code, card_number = split_printing(card_line["rest"])
            entry = DeckEntry(number, count, name, set_code, card_number, section)
            if resolve is not None:
                entry.card = resolve(name, set_code, card_number)
            deck.entries.append(entry)
            continue
        deck.unreadable.append(
            Problem("unreadable-line", f"{quote(line)}: not a card line ('<count> <name> [SET NUMBER]')"
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
    listed: Counter[str] = Counter()
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


# -- is this a deck list at all? -------------------------------------------------------------

#: File signatures of what people pick by mistake instead of a deck list.
_SIGNATURES = (
    (b"\xff\xd8\xff", "a JPEG image"), (b"\x89PNG", "a PNG image"), (b"GIF8", "a GIF image"),
    (b"RIFF", "a RIFF file (WebP image, AVI or WAV)"), (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive"), (b"SQLite format 3", "an SQLite database"),
    (b"\x1a\x45\xdf\xa3", "a Matroska/WebM video"),
)


class NotADeckList(ValueError):
    """What was given is no deck list at all: binary data, text that is not UTF-8, or
    text without a single card line. The message says which."""


def decode_deck_list(data: bytes) -> str:
    """The text of a deck-list file (UTF-8, with or without BOM). Raises
    :class:`NotADeckList` naming what the bytes look like instead."""
    head = data[:64]
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            raise NotADeckList(f"this is {what}, not a deck list")
    if head[4:8] == b"ftyp":
        raise NotADeckList("this is an MP4/QuickTime video or HEIC image, not a deck list")
    if b"\x00" in data[:8192]:
        raise NotADeckList("this is binary data (it holds NUL bytes), not a deck list")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotADeckList(f"this is not UTF-8 text (byte {error.start} cannot be read), not a deck list"
                           " — save the list as UTF-8 text") from None


def deck_list_refusal(data: bytes | str) -> str | None:
    """Why ``data`` (a file's bytes, or text) is no deck list at all, or None when it
    reads as one: it must be text with at least one card line. For a command that takes
    a deck list (``recognize --deck``) and should refuse a photo or a note given by
    mistake. A list with some bad lines is still a deck list: its check reports them."""
    try:
        text = decode_deck_list(data) if isinstance(data, bytes) else data
    except NotADeckList as error:
        return str(error)
    if not parse_deck_list(text).entries:
        return "no card lines ('<count> <name> [SET NUMBER]') found: this is not a deck list"
    return None


def looks_like_deck_list(data: bytes | str) -> bool:
    """Whether ``data`` reads as a deck list (see :func:`deck_list_refusal`)."""
    return deck_list_refusal(data) is None
