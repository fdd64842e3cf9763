"""The scoreboard's board and its words, from a table's public snapshot (no server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from live_tables import CARDS, no_database, table_state

from assistant.editions import edition
from assistant.engine.positions import CardBook
from assistant.live.feed import Snapshot
from assistant.live.record import Entry, Record
from assistant.live.table import LiveTable
from web.board import board, name_at
from web.narrate import damage_breakdown, entry_lines

SECRET = {"name": "Secretmon", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": 70}
BOOK = CardBook({**CARDS, "secret": SECRET}, no_database)


def snapshot(tmp_path: Path, state: dict[str, Any]) -> Snapshot:
    """A table's own public snapshot of ``state``, with a question waiting."""
    with Record(tmp_path / "games.sqlite") as record:
        table = LiveTable.start(record, edition("mega-evolution-2025"), state, no_database,
                                cards={**CARDS, "secret": SECRET})
        table.ask("Which card from A's hand?", {"Secretmon": None, "none": None})
        return table.snapshot()


def test_each_pokemon_shows_its_name_hp_left_energy_and_conditions(tmp_path: Path) -> None:
    state = table_state()
    state["players"]["B"]["active"]["damage"] = 70
    shown = board(snapshot(tmp_path, state), BOOK.resolve)
    a, b = shown["players"]["A"], shown["players"]["B"]
    assert a["active"] == {"name": "Lechonk", "hp": 100, "hp_left": 100, "damage": 0, "energy": ["Grass Energy"],
                           "tool": None, "conditions": ["Confused"]}
    assert b["active"]["hp_left"] == 30
    assert [mon["name"] for mon in b["bench"]] == ["Skwovet"]
    assert (shown["turn"], shown["current"], a["prizes"], a["hand"], a["deck"]) == (5, "A", 6, 5, 30)
    assert shown["waiting"] == 1


def test_a_hand_the_table_knows_is_still_only_a_count(tmp_path: Path) -> None:
    state = table_state()
    state["players"]["A"]["hand"] = ["secret", "secret"]
    shown = board(snapshot(tmp_path, state), BOOK.resolve)
    assert shown["players"]["A"]["hand"] == 2
    assert "Secretmon" not in json.dumps(shown) and "secret" not in json.dumps(shown)
    assert "Which card" not in json.dumps(shown)  # what a question offers is for the console


def test_a_card_the_book_cannot_find_is_shown_as_written() -> None:
    state = table_state()
    state["players"]["B"]["bench"] = [{"card": "sv9-999", "energy": ["Mystery Energy"]}]
    mon = board(Snapshot(1, {"position": state}), BOOK.resolve)["players"]["B"]["bench"][0]
    assert mon["name"] == "sv9-999" and mon["hp"] is None and mon["energy"] == ["Mystery Energy"]


def test_damage_is_told_the_way_a_player_counts_it() -> None:
    assert damage_breakdown([["base", 90], ["weakness", 180], ["resistance", 180]]) == "90, ×2 Weakness"
    assert damage_breakdown([["base", 120], ["weakness", 120], ["resistance", 90]]) == "120, −30 Resistance"
    assert damage_breakdown([["base", 30], ["mods:attacker:*", 60]]) == "30, +30 from effects"
    assert damage_breakdown([["base", 30], ["weakness", 30]]) == ""


def test_an_attack_names_the_pokemon_that_stood_there_before_it(tmp_path: Path) -> None:
    before = board(snapshot(tmp_path, table_state()), BOOK.resolve)
    entry = Entry(3, 0.0, "action", {"action": {"type": "attack", "attack": "Tackle"}, "events": [
        {"type": "attack", "player": "A", "attack": "Tackle"},
        {"type": "damage", "target": "B.active", "amount": 60, "steps": [["base", 30], ["weakness", 60]]},
        {"type": "knockout", "target": "B.active", "card": "Wiglett", "prizes": 1},
        {"type": "prize", "player": "A", "count": 1}]})
    assert entry_lines(entry, before) == ["Lechonk used Tackle", "Wiglett took 60: 30, ×2 Weakness",
                                          "Wiglett was Knocked Out", "A took a Prize card"]
    assert entry_lines(entry, None)[:2] == ["A's Active Pokémon used Tackle",
                                            "B's Active Pokémon took 60: 30, ×2 Weakness"]
    assert name_at(before, "A.bench[0]") == "Skwovet" and name_at(before, "A.bench[5]") is None


def test_refusals_and_what_a_question_offers_are_for_the_console_only() -> None:
    refusal = Entry(4, 0.0, "alert", {"reason": "retreat-already", "message": "one retreat a turn", "rule": "",
                                      "action": {}, "source": "camera"})
    choice = Entry(5, 0.0, "question", {"kind": "choice", "text": "Which card from A's hand?", "options": {}})
    coin = Entry(6, 0.0, "question", {"kind": "coin", "purpose": "confusion"})
    penalty = Entry(7, 0.0, "penalty", {"player": "B", "kind": "warning", "reason": "slow play"})
    assert entry_lines(refusal, None) == []
    assert entry_lines(refusal, None, console=True) == ["Refused (retreat-already): one retreat a turn"]
    assert entry_lines(choice, None) == ["Waiting for the judge"]
    assert "hand" in entry_lines(choice, None, console=True)[0]
    assert entry_lines(coin, None) == ["Waiting for a coin flip (confusion)"]
    assert entry_lines(penalty, None) == ["Penalty for B: warning (slow play)"]
