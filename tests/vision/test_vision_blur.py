"""A frame's blur told from its cepstrum, and undone around a card before it is read."""

import math
import re

import cv2
import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, scene

from vision import blur
from vision.geometry import iou
from vision.names import NameMatcher
from vision.recognize import Recognizer
from vision.synthetic import SceneStyle
from vision.tracker import Tracker

#: Cards of the size where blur costs the most names (200-260 px tall).
SMALL = SceneStyle(**{**CLEAN.__dict__, "height_range": (220, 250)})


@pytest.fixture(scope="module")
def sharp():
    return scene(NAMES[:10], 7, SMALL)


def _blurred(image: np.ndarray, psf: np.ndarray) -> np.ndarray:
    return cv2.filter2D(image, -1, psf, borderType=cv2.BORDER_REFLECT)


def _smear_of(what: str) -> tuple[int, float]:
    length, angle = re.fullmatch(r"a smear of (\d+) px at ([\d.]+)°", what).groups()
    return int(length), float(angle)


@pytest.mark.parametrize("degrees", [0, 45, 120])
def test_a_smear_is_told_by_its_length_and_direction(sharp, degrees):
    smeared = _blurred(sharp.image, blur.smear(7, math.radians(degrees)))
    found = blur.estimate(smeared, [card.quad for card in sharp.cards])
    assert found is not None
    length, angle = _smear_of(found.what)
    assert abs(length - 7) <= 1
    # A smear has no way along it: 0° and 180° are one direction.
    assert min(abs(angle - degrees), 180 - abs(angle - degrees)) <= 15


def test_a_camera_out_of_focus_is_told_by_its_disc(sharp):
    found = blur.estimate(_blurred(sharp.image, blur.disc(2.5)), [card.quad for card in sharp.cards])
    assert found is not None
    radius = float(re.fullmatch(r"out of focus, a disc of ([\d.]+) px", found.what).group(1))
    assert abs(radius - 2.5) <= 0.5


def test_a_sharp_frame_has_no_blur(sharp):
    assert blur.estimate(sharp.image, [card.quad for card in sharp.cards]) is None


def test_no_blur_is_told_without_cards_or_from_a_frame_smaller_than_a_tile(sharp):
    smeared = _blurred(sharp.image, blur.smear(7, 0.0))
    assert blur.estimate(smeared, []) is None
    tiny = smeared[:blur.TILE - 1, :blur.TILE - 1]
    assert blur.estimate(tiny, [np.float32([[0, 0], [60, 0], [60, 100], [0, 100]])]) is None


def test_undoing_a_blur_brings_the_card_back_near_its_sharp_picture(sharp):
    psf = blur.smear(9, math.radians(30))
    smeared = _blurred(sharp.image, psf)
    card = sharp.cards[0].quad
    near, corner = blur.undone_around(smeared, card, blur.Blur("true", psf, 1.0))
    x0, y0 = (int(v) for v in corner)
    # The card's outline, less the corner, is where the card lies in what came back.
    x1, y1 = (int(v) for v in card.max(axis=0) - corner)
    cx0, cy0 = (int(v) for v in card.min(axis=0) - corner)
    inside = (slice(cy0, y1), slice(cx0, x1))
    original = sharp.image[y0:y0 + near.shape[0], x0:x0 + near.shape[1]].astype(np.float32)
    before = np.abs(smeared[y0:y0 + near.shape[0], x0:x0 + near.shape[1]].astype(np.float32) - original)[inside]
    after = np.abs(near.astype(np.float32) - original)[inside]
    assert near.dtype == np.uint8 and near.shape[2] == 3
    assert after.mean() < 0.7 * before.mean()


def _named(recognizer: Recognizer, image: np.ndarray, cards) -> int:
    readings = recognizer.recognize(image)
    named = 0
    for card in cards:
        best = max(readings, key=lambda r: iou(r.quad, card.quad), default=None)
        named += best is not None and iou(best.quad, card.quad) >= 0.6 and best.name == card.name
    return named


def test_smeared_small_cards_are_named_once_the_blur_is_undone(sharp, monkeypatch):
    """The reader's gain, end to end: a 7 px smear over 220-250 px cards."""
    recognizer = Recognizer(NameMatcher(NAMES), by_text=False)
    smeared = _blurred(sharp.image, blur.smear(7, math.radians(20)))
    undone = _named(recognizer, smeared, sharp.cards)
    monkeypatch.setattr(blur, "MIN_FIT", math.inf)  # every frame taken as sharp
    left = _named(recognizer, smeared, sharp.cards)
    assert undone >= left + 3
    assert undone >= 7


def test_a_tracker_names_the_cards_of_a_smeared_camera(sharp):
    """Video: the tracker reads its new cards with the frame's blur undone too."""
    smeared = _blurred(sharp.image, blur.smear(7, math.radians(160)))
    tracker = Tracker(Recognizer(NameMatcher(NAMES), by_text=False), other_reader=False)
    for _ in range(3):
        cards = tracker.update(smeared)
    truth = {card.name for card in sharp.cards}
    settled = [card.name for card in cards if card.settled]
    assert len(settled) >= 7
    assert set(settled) <= truth
