"""The engine stands on its own: it reads no deck list and opens no card database (its
caller passes a deck checker and a card lookup), and replay sits beside the game, not
under its log."""

from __future__ import annotations

import ast
from pathlib import Path

from engine_tables import GRASS, MON, game, table

from assistant.engine.actions import DeckCheck
from assistant.engine.positions import CardBook, UnknownCard

ENGINE = Path(__file__).resolve().parents[2] / "assistant" / "engine"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_engine_imports_neither_deck_lists_nor_the_card_database() -> None:
    reaching = sorted(
        f"{path.name} imports {name}"
        for path in ENGINE.glob("*.py")
        for name in _imports(path)
        if name.split(".")[:2] in (["assistant", "decks"], ["assistant", "catalog"], ["assistant", "carddb"])
    )
    assert reaching == []


def test_the_log_does_not_import_the_game() -> None:
    assert not any(name.startswith("assistant.engine.game") for name in _imports(ENGINE / "log.py"))


def test_deck_check_asks_the_checker_the_game_was_given() -> None:
    """The first problem the checker reports is the refusal, with its own rulebook lines
    or else the edition's for its code; no problems, and the deck is legal."""

    class Problem:
        code, message, source = "deck-size", "59 cards; a deck has 60", ""

    asked: list[str] = []

    def checker(text: str) -> list[Problem]:
        asked.append(text)
        return [Problem()] if "59" in text else []

    refused = game(deck_checker=checker).play(DeckCheck(deck="59 Lechonk"))
    assert refused.reason == "deck-size" and refused.refusal is not None
    assert refused.refusal.rule == "001_75e061fbe3c8e794.txt:579"
    assert game(deck_checker=checker).play(DeckCheck(deck="60 Lechonk")).events == [
        {"type": "deck_check", "legal": True}]
    assert asked == ["59 Lechonk", "60 Lechonk"]


def test_without_a_deck_checker_a_deck_check_is_refused_with_a_reason() -> None:
    outcome = game(table()).play(DeckCheck(deck="60 Lechonk"))
    assert not outcome.accepted and outcome.refusal is not None
    assert "no deck checker" in outcome.refusal.message


def test_a_card_book_looks_cards_up_only_where_its_caller_says() -> None:
    asked: list[str] = []

    def lookup(ref: str) -> object:
        asked.append(ref)
        return MON if ref == "sv1-1" else None

    book = CardBook({}, lookup)  # type: ignore[arg-type]
    assert book.resolve("sv1-1") is MON and book.resolve("Grass Energy") == GRASS
    try:
        book.resolve("me1-59")
    except UnknownCard:
        pass
    else:
        raise AssertionError("a card the lookup does not know was found elsewhere")
    assert asked == ["sv1-1", "me1-59"]
    assert CardBook({}).deck_resolver()("Kirlia", "MEG", "59") is None
