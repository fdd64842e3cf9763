"""Corner order and rotation as SPEC §2 defines them."""

import numpy as np

from vision.geometry import portrait, rotation_of, turn_180

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
