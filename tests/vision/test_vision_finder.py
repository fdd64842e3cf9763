"""The card finder on synthetic tables: every card outlined, also when cards touch, a
hand covers part of one, they are sleeved, or the camera is 20° off vertical."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, scene

from vision.finder import find_cards
from vision.geometry import iou
from vision.synthetic import Scene


def _best(quads: list[np.ndarray], truth: np.ndarray) -> float:
    return max((iou(q, truth) for q in quads), default=0.0)


def _in_view(sc: Scene) -> list:
    """The cards wholly inside the frame (the camera tilt can push one past an edge)."""
    h, w = sc.image.shape[:2]
    return [c for c in sc.cards if (c.quad >= 0).all() and (c.quad[:, 0] < w).all()
            and (c.quad[:, 1] < h).all()]


def _outlined(sc: Scene) -> list[float]:
    """For every card in view, the IoU of the best quad found on it."""
    quads = find_cards(sc.image)
    return [_best(quads, c.quad) for c in _in_view(sc)]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_card_of_a_clean_table_is_outlined(seed):
    sc = scene(NAMES[seed * 5:seed * 5 + 6], seed)
    quads = find_cards(sc.image)
    assert len(sc.cards) == 6
    assert all(_best(quads, c.quad) > 0.8 for c in sc.cards)
    # Nothing but the cards: no extra quads on the printed mat.
    assert len(quads) == len(sc.cards)


def test_touching_cards_are_split():
    style = replace(CLEAN, touching=1.0, height_range=(260, 320))
    sc = scene(NAMES[:6], 5, style)
    assert len(sc.cards) >= 5
    assert all(v > 0.8 for v in _outlined(sc))


def test_a_camera_twenty_degrees_off_vertical():
    style = replace(CLEAN, min_tilt_deg=19.0, max_tilt_deg=20.0, jitter_deg=8.0,
                    height_range=(240, 340))
    sc = scene(NAMES[6:13], 8, style)
    got = _outlined(sc)
    assert len(got) >= 5
    assert all(v > 0.8 for v in got)


def test_sleeves_glare_and_a_hand():
    style = replace(CLEAN, sleeves=1.0, glare=1.0, occlusion=1.0, height_range=(260, 360),
                    blur=(0.5, 1.0), noise=(2, 4))
    sc = scene(NAMES[2:8], 9, style)
    got = _outlined(sc)
    for card, v in zip(_in_view(sc), got, strict=True):
        # A hand hides part of one card's outline: it is still found, a little less
        # exactly; every other card is outlined closely.
        assert v > (0.6 if card.occluded else 0.8)


def test_an_empty_mat_has_no_cards():
    sc = scene([], 7, CLEAN)
    assert find_cards(sc.image) == []
