"""The card colour check on the real scans of the tune split (../shared, read at run time,
never copied): a regular card's body says its own type, a full-art card's says none, and
no scan's colour refutes its own name. Skips when ../shared is absent."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from shared_data import needs_shared

from vision.names import NameMatch, NameMatcher
from vision.type_colour import TRAINER_COLOURS, body_colour, refuted_by_colour, types_of_colour

pytestmark = needs_shared

#: Rarities printed with a flat body in the type's colour (full-art rarities are not).
REGULAR = {"Common", "Uncommon", "Rare", "Double Rare"}


def _tune_cards() -> list[tuple[dict, np.ndarray]]:
    from bench.vision import evalset

    data = {c["id"]: c for c in json.loads((evalset.CARDS / "sv1.json").read_text())}
    return [(data[scan.card_id], cv2.imread(str(scan.path))) for scan in evalset.scans("tune")]


def _quad(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)


@pytest.fixture(scope="module")
def tune_cards() -> list[tuple[dict, np.ndarray]]:
    return _tune_cards()


def test_a_regular_card_s_body_says_its_own_type(tune_cards: list[tuple[dict, np.ndarray]]) -> None:
    checked = 0
    for card, image in tune_cards:
        if card.get("rarity") not in REGULAR or card["supertype"] == "Energy":
            continue
        own = set(card.get("types") or TRAINER_COLOURS)
        possible = types_of_colour(*body_colour(image, _quad(image)))
        assert possible is None or possible & own, (card["id"], card["name"], possible)
        checked += possible is not None
    assert checked >= 80  # most regular cards are told


def test_no_scan_s_colour_refutes_its_own_name(tune_cards: list[tuple[dict, np.ndarray]]) -> None:
    for card, image in tune_cards:
        name = card["name"]
        matcher = NameMatcher([(name, card["id"])], [(name, card["id"])],
                              types={name: set(card.get("types") or ())})
        named = NameMatch(name, card["id"], 0.7)
        assert refuted_by_colour(named, matcher, image, _quad(image)) == named, (card["id"], name)


def test_a_darkness_card_named_as_a_water_pokemon_is_made_unsure(
        tune_cards: list[tuple[dict, np.ndarray]]) -> None:
    """Krookodile read as Totodile: a Darkness card's dark body is no Water card's blue."""
    image = next(image for card, image in tune_cards if card["id"] == "sv1-133")  # Bisharp, Darkness
    deck = [("Totodile", "sv2-1"), ("Bisharp", "sv1-133")]
    matcher = NameMatcher(deck, deck, types={"Totodile": {"Water"}, "Bisharp": {"Darkness"}})
    assert refuted_by_colour(NameMatch("Totodile", "sv2-1", 0.7), matcher, image, _quad(image)).confidence == 0
    assert refuted_by_colour(NameMatch("Bisharp", "sv1-133", 0.7), matcher, image, _quad(image)).confidence == 0.7


def test_the_benchmarks_hand_vision_the_deck_cards_types() -> None:
    from bench.vision import evalset

    deck = [("Bisharp", "sv1-133"), ("Pal Pad", "sv1-182"), ("Lost", None)]
    assert evalset.types(deck) == {"Bisharp": {"Darkness"}, "Pal Pad": set()}
