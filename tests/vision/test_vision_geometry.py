"""Corner order and rotation as SPEC §2 defines them."""

import numpy as np
import pytest

from vision.geometry import card_share, portrait, region_quad, rotation_of, turn_180

UPRIGHT = np.float32([[100, 100], [200, 100], [200, 240], [100, 240]])


def test_rotation_follows_the_printed_top():
    assert rotation_of(UPRIGHT) == 0
    assert rotation_of(turn_180(UPRIGHT)) == 180
    # Turned 90° clockwise: the printed top-left is now at the image's top-right.
    turned = np.float32([[240, 100], [240, 200], [100, 200], [100, 100]])
    assert rotation_of(turned) == 90
    assert rotation_of(turn_180(turned)) == 270


def test_portrait_puts_a_short_side_first():
    landscape = np.float32([[0, 0], [140, 0], [140, 100], [0, 100]])
    q = portrait(landscape[[2, 0, 3, 1]])
    assert np.linalg.norm(q[1] - q[0]) < np.linalg.norm(q[2] - q[1])


def test_an_outlines_card_share_is_the_height_a_card_as_wide_would_have():
    card = np.float32([[0, 0], [63, 0], [63, 88], [0, 88]])
    assert card_share(card) == 1.0
    turned = np.float32([[300, 40], [300, 103], [212, 103], [212, 40]])  # 90° on the table
    assert card_share(turned) == 1.0
    assert card_share(region_quad(card, 0.0, -0.25, 1.0, 1.0)) == pytest.approx(0.8)  # a strip taken in
    assert card_share(region_quad(card, 0.0, 0.2, 1.0, 1.0)) == pytest.approx(1.25)  # the top cut off
