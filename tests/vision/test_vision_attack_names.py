"""A card whose title is hidden (a reflection clipped to white, a finger) named by the
names of its attacks, with deck lists that say which attacks each name has."""

import cv2
import numpy as np
import pytest

from vision import pp_ocr
from vision.attack_names import named_by_attacks
from vision.card_reading import read_card
from vision.geometry import turn_180
from vision.names import NameMatcher
from vision.ocr import Tesseract
from vision.recognize import Recognizer
from vision.synthetic import render_proxy

needs_pp_ocr = pytest.mark.skipif(not pp_ocr.available(), reason="PP-OCR (rapidocr) is not installed")

ATTACKS = {
    "Floragato": ["Leaf Step", "Slash"],
    "Zangoose": ["Slash", "Crush Claw"],
    "Magnemite": ["Electro Ball", "Magnetic Switch"],
    "Flaaffy": ["Electro Ball", "Thunder Jolt"],
}
DECK = [("Floragato", "sv1-14"), ("Zangoose", "sv2-160"), ("Magnemite", "sv1-63"), ("Flaaffy", "sv1-67"),
        ("Nest Ball", "sv1-181")]


def _attacks() -> dict[str, frozenset[str]]:
    """``ATTACKS`` as the matcher keeps them for vision (normalised)."""
    return NameMatcher(DECK).with_deck(DECK, attacks=ATTACKS).attacks


def test_an_attack_only_one_deck_name_has_names_it():
    match = named_by_attacks(["leaf step", "20"], _attacks())
    assert match.name == "Floragato" and match.confidence == pytest.approx(1.0)
    assert named_by_attacks(["crush clavv"], _attacks()).name == "Zangoose"  # a letter misread


def test_an_attack_two_deck_names_share_names_neither_unless_another_read_parts_them():
    assert named_by_attacks(["slash"], _attacks()).name is None
    assert named_by_attacks(["electro ball", "60"], _attacks()).name is None
    assert named_by_attacks(["electro ball", "magnetic switch"], _attacks()).name == "Magnemite"
    assert named_by_attacks(["slash", "leaf step"], _attacks()).name == "Floragato"


def test_text_that_is_no_attack_names_nothing():
    assert named_by_attacks(["draw two cards then shuffle", "30", "flip a coin"], _attacks()).name is None
    assert named_by_attacks(["slas", "lea"], _attacks()).name is None  # too far, too short
    assert named_by_attacks([], _attacks()).name is None


def _frame_with(face: np.ndarray, hidden_title: bool) -> tuple[np.ndarray, np.ndarray]:
    """``face`` upright on a grey table, 330 px tall, its title under a patch clipped to
    white when ``hidden_title``; the frame and the card's quad (printed order)."""
    face = cv2.resize(face, (236, 330), interpolation=cv2.INTER_AREA)
    if hidden_title:
        face[8:34, 20:200] = 255
    frame = np.full((600, 800, 3), 90, np.uint8)
    frame[100:430, 200:436] = face
    return frame, np.float32([[200, 100], [435, 100], [435, 429], [200, 429]])


def _recognizer(attacks: bool) -> Recognizer:
    matcher = NameMatcher([*DECK, ("Pikachu", "sv1-1")]).with_deck(DECK, attacks=ATTACKS if attacks else None)
    return Recognizer(matcher)


@needs_pp_ocr
def test_a_card_whose_title_is_hidden_is_named_by_its_attacks():
    face = render_proxy("Floragato", kind="pokemon", seed=3, attacks=ATTACKS["Floragato"]).image[:, :, :3].copy()
    frame, quad = _frame_with(face, hidden_title=True)
    reading = _recognizer(attacks=True).read(frame, quad)
    assert reading is not None and reading.name == "Floragato"
    assert reading.card_id == "sv1-14" and reading.rotation == 0
    # Without the deck's attacks there is nothing to name it by.
    unread = _recognizer(attacks=False).read(frame, quad)
    assert unread is None or unread.name is None


@needs_pp_ocr
def test_a_card_whose_one_readable_attack_a_rival_shares_stays_unnamed():
    face = render_proxy("Floragato", kind="pokemon", seed=3, attacks=["Slash"]).image[:, :, :3].copy()
    frame, quad = _frame_with(face, hidden_title=True)
    reading = _recognizer(attacks=True).read(frame, quad)
    assert reading is None or reading.name is None


@needs_pp_ocr
def test_attack_names_read_upright_only_so_an_unsure_way_up_looks_at_both_ends_and_is_turned():
    face = render_proxy("Floragato", kind="pokemon", seed=3, attacks=ATTACKS["Floragato"]).image[:, :, :3].copy()
    frame, quad = _frame_with(face, hidden_title=True)
    matcher = _recognizer(attacks=True).matcher
    # The layout leaning towards the card's bottom as its top: unsure, both ends are looked at.
    reading = read_card(Tesseract(), matcher, frame, turn_180(quad), (), lean=0.45)
    assert reading is not None and reading.name == "Floragato" and reading.rotation == 0
    # Sure of it, only that end is: the card stays unnamed rather than named upside down.
    sure = read_card(Tesseract(), matcher, frame, turn_180(quad), (), lean=0.9)
    assert sure is None or sure.name is None
