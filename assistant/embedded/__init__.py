"""The embedded default card set and its two deck lists.

They ship inside the package, so the program works before any card import:

- ``cards.json``: the facts of every card of the two decks (no effect text, no images),
  under the pokemontcg.io field names :meth:`Card.from_json` reads;
- ``decks/<name>.txt``: the two deck lists in the Pokémon TCG Live export format
  (SPEC §5), a Fire Stage 2 ex deck and a Psychic Mega Evolution ex deck.
"""

from __future__ import annotations

import atexit
import json
from contextlib import ExitStack
from functools import lru_cache
from importlib.resources import as_file, files
from pathlib import Path

from assistant.cards import Card, basic_energy_type
from assistant.decklist import parse_deck_list

_PACKAGE = files(__name__)
_EXTRACTED = ExitStack()  # temporary copies of the deck lists, only for a zipped install
atexit.register(_EXTRACTED.close)


@lru_cache(maxsize=1)
def _cards() -> tuple[Card, ...]:
    data = json.loads(_PACKAGE.joinpath("cards.json").read_text(encoding="utf-8"))
    return tuple(Card.from_json(record) for record in data["cards"])


def embedded_cards() -> list[Card]:
    """Every embedded card, sorted by id (a new list each call; the cards are cached)."""
    return list(_cards())


@lru_cache(maxsize=1)
def _deck_texts() -> tuple[tuple[str, str], ...]:
    decks = _PACKAGE.joinpath("decks")
    return tuple(
        (entry.name.removesuffix(".txt"), entry.read_text(encoding="utf-8"))
        for entry in sorted(decks.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".txt")
    )


def embedded_deck_texts() -> dict[str, str]:
    """Deck name (the file's stem, e.g. ``fire-cinderace-ex``) → the deck list's text."""
    return dict(_deck_texts())


def embedded_deck_paths() -> dict[str, Path]:
    """Deck name → a path to the deck list file, for commands that take a file. (In a
    zipped install each list is copied to a temporary file kept until exit.)"""
    paths: dict[str, Path] = {}
    for name, _ in _deck_texts():
        resource = _PACKAGE.joinpath("decks", f"{name}.txt")
        paths[name] = resource if isinstance(resource, Path) else _EXTRACTED.enter_context(
            as_file(resource)
        )
    return paths


@lru_cache(maxsize=1)
def _decks() -> tuple[tuple[str, tuple[Card, ...]], ...]:
    by_printing = {(card.set_code, card.number): card for card in _cards()}
    basic_energy = {basic_energy_type(card.name): card for card in _cards() if card.is_basic_energy}

    def resolve(name: str, set_code: str, number: str) -> Card | None:
        return by_printing.get((set_code, number)) or basic_energy.get(basic_energy_type(name))

    decks = []
    for name, text in _deck_texts():
        deck = parse_deck_list(text, resolve)
        bad = [(p.line or 0, p.message) for p in deck.unreadable]
        bad += [(e.line, f"no card for {e.name!r}") for e in deck.entries if e.card is None]
        if bad:
            line, why = min(bad)
            raise ValueError(f"embedded deck {name!r} line {line}: {why}")
        decks.append((name, tuple(deck.cards())))
    return tuple(decks)


def embedded_decks() -> dict[str, list[Card]]:
    """Deck name → its 60 cards, each line resolved by set code and number against
    :func:`embedded_cards` (a basic Energy line without a printing resolves to the
    embedded basic Energy card of its type). Raises ``ValueError`` for a line no
    embedded card answers: the embedded lists are ours and must always resolve."""
    return {name: list(cards) for name, cards in _decks()}
