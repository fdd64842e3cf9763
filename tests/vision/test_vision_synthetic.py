"""The scene generator's ground truth: what it says is on the table is what the frame shows."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, scene

from vision.synthetic import SceneStyle, compose, jpeg, render_proxy


@pytest.mark.parametrize("seed", range(6))
def test_every_card_of_a_tilted_camera_frame_is_wholly_in_view(seed):
    # The keystone of a camera 20° off vertical enlarges the picture about its centre;
    # cards laid near an edge used to end partly out of view while the truth still
    # listed them whole (up to a fifth of the cards at 330-440 px).
    style = SceneStyle(height_range=(300, 400), min_tilt_deg=20, max_tilt_deg=20)
    sc = scene(NAMES[:10], seed, style)
    height, width = sc.image.shape[:2]
    assert len(sc.cards) >= 6
    for card in sc.cards:
        assert card.quad.min() >= 0
        assert card.quad[:, 0].max() <= width and card.quad[:, 1].max() <= height


def test_cards_of_one_table_share_a_height_when_asked():
    flat = SceneStyle(height_range=(200, 440), max_tilt_deg=0, sleeves=0.0, jitter_deg=0)
    same = scene(NAMES[:8], 3, SceneStyle(**{**flat.__dict__, "same_size": True}))
    mixed = scene(NAMES[:8], 3, flat)
    assert np.ptp([c.height_px for c in same.cards]) < 1.0
    assert np.ptp([c.height_px for c in mixed.cards]) > 20


# The table conditions (bench.vision.conditions): each does what it says, and only that.

def _pair(seed: int, **condition) -> tuple:
    """The same clean table without and with ``condition``: the conditions draw from
    their own random stream, so everything else about the two frames is the same."""
    names = NAMES[:6]
    return scene(names, seed, CLEAN), scene(names, seed, replace(CLEAN, **condition))


def _inside(card, shape: tuple[int, ...], grow: float = 1.0) -> np.ndarray:
    quad = (card.quad - card.quad.mean(axis=0)) * grow + card.quad.mean(axis=0)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(quad)), 1)
    return mask.astype(bool)


def _title(card, shape: tuple[int, ...]) -> np.ndarray:
    q = card.quad
    corners = [q[0] + (q[1] - q[0]) * u + (q[3] - q[0]) * v
               for u, v in ((0.1, 0.02), (0.7, 0.02), (0.7, 0.12), (0.1, 0.12))]
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(corners)), 1)
    return mask.astype(bool)


def test_a_specular_highlight_clips_the_title_to_white():
    plain, glared = _pair(2, specular=1.0)
    on_title = [c for c in glared.cards if c.glared]
    assert on_title  # two cards in three get theirs on the title
    for card in on_title:
        title = _title(card, glared.image.shape)
        white = [int(np.all(s.image[title] >= 250, axis=1).sum()) for s in (plain, glared)]
        assert white[1] > white[0] + 40


def test_a_hand_covers_a_corner_or_an_edge_of_the_card_not_all_of_it():
    plain, handed = _pair(3, hands=1.0)
    changed = np.any(plain.image != handed.image, axis=2)
    for card in handed.cards:
        assert card.occluded
        covered = changed[_inside(card, changed.shape, 0.98)].mean()
        assert 0.01 < covered < 0.5


def test_a_zone_outline_is_printed_around_the_card_and_under_it():
    plain, outlined = _pair(4, zone_outlines=1.0)
    changed = np.any(plain.image != outlined.image, axis=2)
    for card in outlined.cards:
        assert card.on_outline
        inner = _inside(card, changed.shape, 0.97)
        ring = _inside(card, changed.shape, 1.25) & ~_inside(card, changed.shape, 1.0)
        assert changed[inner].mean() < 0.01  # the card lies on the outline
        assert changed[ring].sum() > card.height_px  # a line runs round it


@pytest.mark.parametrize("condition", [{"motion_blur": (6.0, 6.0)}, {"defocus": (2.0, 2.0)}])
def test_motion_and_focus_blur_soften_the_frame(condition):
    plain, blurred = _pair(5, **condition)
    sharpness = [cv2.Laplacian(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
                 for s in (plain, blurred)]
    assert sharpness[1] < 0.5 * sharpness[0]


def test_a_colour_cast_moves_red_against_blue():
    plain, cast = _pair(6, colour_cast=(0.2, 0.2))
    ratio = [s.image[:, :, 2].mean() / s.image[:, :, 0].mean() for s in (plain, cast)]
    assert abs(ratio[1] / ratio[0] - 1) > 0.1


def test_jpeg_is_the_last_thing_done_to_the_frame():
    plain, compressed = _pair(7, jpeg_quality=(70, 70))
    assert np.array_equal(compressed.image, jpeg(plain.image, 70))
    assert not np.array_equal(compressed.image, plain.image)


def test_a_clear_sleeve_shows_the_table_through_its_rim_and_a_dark_one_does_not():
    style = replace(CLEAN, sleeves=1.0, glossy_sleeves=True, max_tilt_deg=0)
    faces = [render_proxy(n, i, seed=k) for k, (n, i) in enumerate(NAMES[:8])]
    black = compose(np.zeros((1080, 1920, 3), np.uint8), faces, style, seed=8)
    white = compose(np.full((1080, 1920, 3), 255, np.uint8), faces, style, seed=8)
    through = []
    for card in black.cards:
        assert card.sleeved
        q = card.quad
        x, y = np.int32(np.round(q[0] + (q[1] - q[0]) * 0.5 + (q[3] - q[0]) * 0.012))
        through.append(int(white.image[y, x].mean()) - int(black.image[y, x].mean()))
    assert max(through) > 80 and min(through) < 20  # clear rims and dark rims both
