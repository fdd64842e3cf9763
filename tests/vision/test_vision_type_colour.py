"""A name whose Pokémon type the card's colour contradicts is not taken
(``vision.type_colour``): drawn cards whose attack box is one type's colour, with dark text
lines on it, and a full-art card whose box is a picture of many colours."""

from __future__ import annotations

import numpy as np
import pytest

from vision.energy_type import lab
from vision.names import NameMatch, NameMatcher
from vision.type_colour import (
    BODY,
    BODY_COLOURS,
    TRAINER_COLOURS,
    body_colour,
    refuted_by_colour,
    types_of_colour,
)

HEIGHT, WIDTH = 350, 250
QUAD = np.array([[0, 0], [WIDTH - 1, 0], [WIDTH - 1, HEIGHT - 1], [0, HEIGHT - 1]], dtype=np.float32)
DECK = [("Totodile", "sv2-1"), ("Krookodile", "sv2-2"), ("Arven", "sv1-166"), ("Basic Water Energy", "sve-3")]
TYPES = {"Totodile": {"Water"}, "Krookodile": {"Darkness"}, "Arven": set(), "Basic Water Energy": set()}


def _bgr(kind: str) -> tuple[int, int, int]:
    """The 8-bit BGR colour nearest type ``kind``'s body colour."""
    import cv2

    L, a, b = BODY_COLOURS[kind]
    pixel = np.array([[[L * 255 / 100, a + 128, b + 128]]], dtype=np.uint8)
    return tuple(int(v) for v in cv2.cvtColor(pixel, cv2.COLOR_LAB2BGR)[0, 0])  # type: ignore[return-value]


def card(kind: str | None, seed: int = 0) -> np.ndarray:
    """A card whose body is type ``kind``'s colour (None: a full-art picture of many
    colours) with rows of black text across its attack box."""
    rng = np.random.default_rng(seed)
    if kind is None:
        blocks = rng.integers(0, 256, (14, 10, 3), dtype=np.uint8)
        image = np.kron(blocks, np.ones((25, 25, 1), dtype=np.uint8))[:HEIGHT, :WIDTH].copy()
    else:
        image = np.full((HEIGHT, WIDTH, 3), _bgr(kind), dtype=np.uint8)
    x0, y0, x1, _y1 = BODY
    for row in range(4):  # attack text: thin black lines
        top = int((y0 + 0.05 + row * 0.07) * HEIGHT)
        image[top:top + 5, int((x0 + 0.05) * WIDTH):int((x1 - 0.1) * WIDTH)] = 0
    return image


def test_a_flat_body_is_read_as_its_own_type() -> None:
    for kind in ("Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness"):
        colour, spread = body_colour(card(kind), QUAD)
        assert kind in (types_of_colour(colour, spread) or set()), kind


def test_a_pale_body_may_be_any_of_the_pale_types() -> None:
    colour, spread = body_colour(card("Colorless"), QUAD)
    assert types_of_colour(colour, spread) == TRAINER_COLOURS


def test_a_full_art_body_says_no_type() -> None:
    for seed in range(5):
        assert types_of_colour(*body_colour(card(None, seed), QUAD)) is None


def test_a_colour_near_no_type_says_none() -> None:
    assert types_of_colour(lab((0, 0, 255)), 0.0) is None  # pure red: no card body is


def test_the_card_s_way_up_matters_only_through_its_quad() -> None:
    """The quad in printed order: the box is measured below the picture whichever way the
    card lies in the frame."""
    turned = np.rot90(card("Darkness"), 2).copy()
    upside = QUAD[[2, 3, 0, 1]]
    assert types_of_colour(*body_colour(turned, upside)) == {"Darkness"}


def _matcher(types: dict[str, set[str]] | None = TYPES) -> NameMatcher:
    return NameMatcher(DECK, DECK, types=types)


def test_a_water_name_on_a_darkness_card_is_made_unsure() -> None:
    named = NameMatch("Totodile", "sv2-1", 0.7, closeness=0.7)
    refuted = refuted_by_colour(named, _matcher(), card("Darkness"), QUAD)
    assert refuted.confidence == 0.0
    assert refuted.closeness == 0.7  # the read is kept: a later read may still name it


def test_a_name_of_the_card_s_own_type_is_kept() -> None:
    named = NameMatch("Krookodile", "sv2-2", 0.7)
    assert refuted_by_colour(named, _matcher(), card("Darkness"), QUAD) == named


def test_a_sure_name_is_not_checked() -> None:
    named = NameMatch("Totodile", "sv2-1", 0.95)
    assert refuted_by_colour(named, _matcher(), card("Darkness"), QUAD) == named


def test_a_full_art_card_refutes_nothing() -> None:
    named = NameMatch("Totodile", "sv2-1", 0.7)
    assert refuted_by_colour(named, _matcher(), card(None), QUAD) == named


def test_a_trainer_named_on_a_coloured_card_is_made_unsure() -> None:
    """A Trainer's body is white: a green body is a Pokémon's."""
    named = NameMatch("Arven", "sv1-166", 0.7)
    assert refuted_by_colour(named, _matcher(), card("Grass"), QUAD).confidence == 0.0
    assert refuted_by_colour(named, _matcher(), card("Colorless"), QUAD) == named


def test_an_energy_or_a_name_of_no_known_types_is_not_checked() -> None:
    energy = NameMatch("Basic Water Energy", "sve-3", 0.7)
    assert refuted_by_colour(energy, _matcher(), card("Darkness"), QUAD) == energy
    named = NameMatch("Totodile", "sv2-1", 0.7)
    assert refuted_by_colour(named, _matcher(None), card("Darkness"), QUAD) == named
    dragon = _matcher({"Totodile": {"Dragon"}})
    assert refuted_by_colour(named, dragon, card("Darkness"), QUAD) == named


def test_with_deck_keeps_the_types() -> None:
    matcher = NameMatcher(DECK).with_deck(DECK, types=TYPES)
    assert matcher.types["Krookodile"] == {"Darkness"}
    assert NameMatcher(DECK).with_deck(DECK).types == {}


@pytest.mark.parametrize("kind", ["Water", "Psychic"])
def test_an_unsure_name_is_not_checked(kind: str) -> None:
    unsure = NameMatch("Krookodile", "sv2-2", 0.3)
    assert refuted_by_colour(unsure, _matcher(), card(kind), QUAD) == unsure


def test_the_command_hands_vision_the_deck_cards_types(tmp_path) -> None:
    """``recognize --deck``: each deck name with the types it is printed with, a Trainer
    with none, as the HP are handed over."""
    import io

    from table_assistant.recognize_command import candidate_names

    deck = tmp_path / "deck.txt"
    deck.write_text("4 Ralts\n2 Ultra Ball\n")
    candidates = candidate_names([str(deck)], io.StringIO())
    assert candidates.ok
    assert candidates.types == {"Ralts": {"Psychic"}, "Ultra Ball": set()}
    assert candidates.matcher().types == {"Ralts": {"Psychic"}, "Ultra Ball": set()}
