"""The experimental fast finder (``vision.finder_fast``) on the same synthetic tables as
the default finder. Two checks it does not pass yet are marked as expected failures, so
the gap to the default stays visible."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, scene

from vision.finder_fast import find_cards
from vision.geometry import iou


def _best(quads: list[np.ndarray], truth: np.ndarray) -> float:
    return max((iou(q, truth) for q in quads), default=0.0)


def _in_view(sc) -> list:
    h, w = sc.image.shape[:2]
    return [c for c in sc.cards if (c.quad >= 0).all() and (c.quad[:, 0] < w).all()
            and (c.quad[:, 1] < h).all()]


@pytest.mark.parametrize("seed", [pytest.param(1, marks=pytest.mark.xfail(
    reason="one false quad on this generated mat's print", strict=True)), 2])
def test_every_card_of_a_clean_table_is_outlined(seed):
    sc = scene(NAMES[seed * 5:seed * 5 + 6], seed)
    quads = find_cards(sc.image)
    assert all(_best(quads, c.quad) > 0.8 for c in sc.cards)
    assert len(quads) == len(sc.cards)


def test_touching_cards_are_split():
    sc = scene(NAMES[:6], 5, replace(CLEAN, touching=1.0, height_range=(260, 320)))
    quads = find_cards(sc.image)
    assert all(_best(quads, c.quad) > 0.8 for c in _in_view(sc))


def test_a_camera_twenty_degrees_off_vertical():
    style = replace(CLEAN, min_tilt_deg=19.0, max_tilt_deg=20.0, jitter_deg=8.0,
                    height_range=(240, 340))
    sc = scene(NAMES[6:13], 8, style)
    quads = find_cards(sc.image)
    assert all(_best(quads, c.quad) > 0.8 for c in _in_view(sc))


def test_sleeves_glare_and_a_hand():
    style = replace(CLEAN, sleeves=1.0, glare=1.0, occlusion=1.0, height_range=(260, 360),
                    blur=(0.5, 1.0), noise=(2, 4))
    sc = scene(NAMES[2:8], 9, style)
    quads = find_cards(sc.image)
    for card in _in_view(sc):
        assert _best(quads, card.quad) > (0.6 if card.occluded else 0.8)


def test_an_empty_mat_has_no_cards():
    assert find_cards(scene([], 7, CLEAN).image) == []
