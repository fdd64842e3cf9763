"""The embedded default card set and its two decks: legal, complete, faithful to the
card database, and free of effect text."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from assistant.cards import Card, name_identity
from assistant.embedded import (
    embedded_cards,
    embedded_deck_paths,
    embedded_deck_texts,
    embedded_decks,
)

CARDS_JSON = Path(__file__).resolve().parents[1] / "assistant" / "embedded" / "cards.json"
EFFECT_TEXT_FIELDS = {"text", "rules", "flavorText", "images", "artist"}

DECKS = embedded_decks()


def test_two_decks_with_their_texts_and_files() -> None:
    assert len(DECKS) == 2
    assert set(embedded_deck_texts()) == set(DECKS) == set(embedded_deck_paths())
    for name, path in embedded_deck_paths().items():
        assert path.read_text(encoding="utf-8") == embedded_deck_texts()[name]
        assert embedded_deck_texts()[name].rstrip().endswith("Total Cards: 60")


@pytest.mark.parametrize("name", sorted(DECKS))
def test_deck_is_legal(name: str) -> None:
    deck = DECKS[name]
    assert len(deck) == 60
    copies = Counter(card.identity for card in deck if not card.is_basic_energy)
    assert max(copies.values()) <= 4, copies.most_common(3)
    assert any(card.is_basic_pokemon for card in deck)
    assert sum(card.is_ace_spec for card in deck) <= 1
    assert sum(card.is_radiant for card in deck) <= 1


@pytest.mark.parametrize("name", sorted(DECKS))
def test_section_counts_match_the_cards(name: str) -> None:
    text = embedded_deck_texts()[name]
    headers = {}
    for line in text.splitlines():
        section, _, count = line.partition(": ")
        if section in ("Pokémon", "Trainer", "Energy"):
            headers[section] = int(count)
    assert headers == dict(Counter(card.supertype for card in DECKS[name]))


def test_decks_cover_every_kind_of_card() -> None:
    cards = [card for deck in DECKS.values() for card in deck]
    stages = {card.stage for card in cards}
    assert {"Basic", "Stage 1", "Stage 2"} <= stages
    assert {"ex", "Tera ex", "Mega ex"} <= {card.rule_box for card in cards}
    assert {"Item", "Supporter", "Stadium", "Pokémon Tool"} <= {c.trainer_kind for c in cards}
    assert any(card.is_basic_energy for card in cards)
    assert any(card.is_energy and not card.is_basic_energy for card in cards)
    assert any(card.is_ace_spec for card in cards)


def test_the_fire_deck_has_a_stage_2_ex_and_the_psychic_deck_a_mega_ex() -> None:
    fire, psychic = DECKS["fire-cinderace-ex"], DECKS["psychic-mega-gardevoir-ex"]
    assert any(c.stage == "Stage 2" and c.rule_box and "Fire" in c.types for c in fire)
    assert any(c.rule_box == "Mega ex" and "Psychic" in c.types for c in psychic)


@pytest.mark.parametrize("name", sorted(DECKS))
def test_every_evolution_evolves_from_a_card_in_the_deck(name: str) -> None:
    deck = DECKS[name]
    identities = {card.identity for card in deck if card.is_pokemon}
    for card in deck:
        if card.is_evolution:
            assert card.evolves_from, card.name
            assert name_identity(card.evolves_from) in identities, card.name


def test_special_energy_says_what_it_provides() -> None:
    for card in embedded_cards():
        if card.is_energy and not card.is_basic_energy:
            assert card.provides, card.name
        if card.is_basic_energy:
            assert card.energy_provided in (("Fire",), ("Psychic",)), card.name


def test_cards_are_sorted_by_id_with_unique_ids() -> None:
    ids = [card.id for card in embedded_cards()]
    assert ids == sorted(ids)
    assert len(ids) == len(set(ids))


def test_no_record_carries_effect_text() -> None:
    data = json.loads(CARDS_JSON.read_text(encoding="utf-8"))
    assert "cards" in data

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value).union(*(keys(v) for v in value.values()))
        if isinstance(value, list):
            return set().union(*(keys(v) for v in value))
        return set()

    for record in data["cards"]:
        assert not keys(record) & EFFECT_TEXT_FIELDS, record["id"]
        assert all("http" not in str(v) for v in record.values()), record["id"]
    assert all(not card.rules for card in embedded_cards())


def _database_records(data: Path) -> dict[str, dict]:
    wanted = {card.id for card in embedded_cards()}
    records: dict[str, dict] = {}
    for set_id in {card_id.rsplit("-", 1)[0] for card_id in wanted}:
        path = data / "cards" / "en" / f"{set_id}.json"
        for record in json.loads(path.read_text(encoding="utf-8")):
            if record["id"] in wanted:
                records[record["id"]] = record
    return records


def _facts(card: Card) -> dict[str, object]:
    return {
        "name": card.name,
        "supertype": card.supertype,
        "hp": card.hp,
        "types": card.types,
        "subtypes": card.subtypes,
        "evolves_from": card.evolves_from,
        "attacks": [(a.name, a.cost, a.damage) for a in card.attacks],
        "abilities": [(a.name, a.type) for a in card.abilities],
        "weaknesses": card.weaknesses,
        "resistances": card.resistances,
        "retreat_cost": card.retreat_cost,
        "number": card.number,
        "regulation_mark": card.regulation_mark,
    }


def test_facts_equal_the_card_database(shared_card_data: Path) -> None:
    records = _database_records(shared_card_data)
    sets = json.loads((shared_card_data / "sets" / "en.json").read_text(encoding="utf-8"))
    codes = {s["id"]: s.get("ptcgoCode", "") for s in sets}
    for card in embedded_cards():
        assert card.id in records, card.id
        expected = Card.from_json(records[card.id])
        assert _facts(card) == _facts(expected), card.id
        assert card.set_code == codes[card.set_id], card.id
