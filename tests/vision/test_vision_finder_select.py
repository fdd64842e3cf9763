"""Choosing cards among overlapping quads: a whole card replaces a part of one lying
crosswise in it, but a card with a strip of mat or of a neighbour beside it, lying
crosswise to the card too and less well outlined, does not replace the card."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finding.select import select_cards
from vision.geometry import CARD_ASPECT, iou


def _rect(cx: float, cy: float, w: float, h: float, turn: float = 0.0) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), turn)).astype(np.float32)


#: A card 100 wide and 140 tall (search pixels).
WIDTH, HEIGHT = 100.0, 100.0 / CARD_ASPECT


def _kept(scored: list[tuple[float, np.ndarray]]) -> list[list[list[float]]]:
    return [q.tolist() for q in select_cards(scored)]


def test_a_card_with_a_strip_of_mat_beside_it_does_not_replace_the_card():
    # The card's outline is whole; a quad around it and a strip of mat beside its long
    # side is as tall as the card and wider than tall (crosswise to it), 1.5-1.8 times
    # its area, and scores well below it (tune split: 0.86-0.94 of the card's score,
    # mostly 0.71-0.80 in all): IoU about 0.55 with the card, no card.
    card = _rect(300, 300, WIDTH, HEIGHT)
    for strip, score in ((0.5, 0.78), (0.6, 0.75), (0.7, 0.71)):
        wider = _rect(300 + strip * WIDTH / 2, 300, WIDTH * (1 + strip), HEIGHT)
        assert 0.5 < iou(wider, card) < 0.7
        assert _kept([(0.84, card), (score, wider)]) == [card.tolist()]
    # The same, turned with the camera.
    card, wider = _rect(300, 300, WIDTH, HEIGHT, 25), _rect(300, 300, WIDTH * 1.65, HEIGHT, 25)
    assert _kept([(0.9, card), (0.78, wider)]) == [card.tolist()]


def test_a_whole_card_still_replaces_its_upper_part_or_its_art_box_lying_crosswise():
    card = _rect(300, 300, WIDTH, HEIGHT, 10)
    card_upright = _rect(300, 300, WIDTH, HEIGHT)
    # Title and picture: as wide as the card, half its length; the whole card about as
    # well outlined.
    upper = _rect(300, 300 - HEIGHT / 4, WIDTH, HEIGHT / 2)
    assert _kept([(0.97, upper), (0.93, card_upright)]) == [card_upright.tolist()]
    # ... or less so than its part, but well outlined in its own right (a pale card).
    assert _kept([(0.95, upper), (0.82, card_upright)]) == [card_upright.tolist()]
    # The art box: narrower than the card, about 0.7 as tall as it is wide.
    art = _rect(300, 290, 0.88 * WIDTH, 0.62 * WIDTH, 10)
    assert _kept([(0.95, art), (0.91, card)]) == [card.tolist()]
    # Title and picture with a strip of mat beside them, a little wider than the card
    # (tune split: 96 x 68 in a card 88 x 117).
    wide_upper = _rect(304, 300 - HEIGHT / 2 + 0.29 * HEIGHT, 1.09 * WIDTH, 0.58 * HEIGHT)
    assert _kept([(0.92, wide_upper), (0.9, card_upright)]) == [card_upright.tolist()]


def test_a_poorly_outlined_quad_replaces_no_part_lying_crosswise_in_it():
    # Whatever lies crosswise inside it: a quad scoring well below the quad inside it,
    # and poorly in all, is not the whole card around a part of one.
    upper = _rect(300, 300 - HEIGHT / 4, WIDTH, HEIGHT / 2)
    card = _rect(300, 300, WIDTH, HEIGHT)
    assert _kept([(0.9, upper), (0.78, card)]) == [upper.tolist()]
