"""Arithmetic on many quads at once (arrays of N × 4 corners): side lengths, size
and direction, area, and whether a quad has a card's proportions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.geometry import CARD_ASPECT

#: Per corner (or side) of a quad, the next one and the one before, clockwise: for
#: ``take(NEXT, axis=1)``, ~10x faster than ``np.roll`` on the finder's small arrays.
NEXT, PREV = np.array([1, 2, 3, 0]), np.array([3, 0, 1, 2])


def side_lengths(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(short, long) mean lengths of the opposite sides of many quads."""
    s = np.linalg.norm(quads.take(NEXT, axis=1) - quads, axis=2)
    one, other = (s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2
    return np.minimum(one, other), np.maximum(one, other)


def long_side(quads: Sequence[np.ndarray], quantile: float = 0.5) -> float | None:
    """The ``quantile`` (the median unless told) of the long sides of ``quads``, or None
    for none."""
    if not quads:
        return None
    return float(np.quantile(side_lengths(np.stack(quads))[1], quantile))


def long_edges(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per quad the length of the longer of its first two sides and that side's angle
    (radians): a quad's size and direction, for telling near-equal quads apart."""
    e1 = quads[:, 1] - quads[:, 0]
    e2 = quads[:, 2] - quads[:, 1]
    l1, l2 = np.linalg.norm(e1, axis=1), np.linalg.norm(e2, axis=1)
    e = np.where((l1 >= l2)[:, None], e1, e2)
    return np.maximum(l1, l2), np.arctan2(e[:, 1], e[:, 0])


def angle_between(angle: np.ndarray | float, other: np.ndarray | float) -> np.ndarray | float:
    """The angle between lines at ``angle`` and ``other`` (radians, element-wise for
    arrays), from 0 to pi/2."""
    return np.abs((angle - other + np.pi / 2) % np.pi - np.pi / 2)


def crosswise(angle: float, other: float) -> bool:
    """Whether two quads' long sides (at ``angle`` and ``other``) lie nearer square to
    each other than in line."""
    return bool(angle_between(angle, other) > np.pi / 4)


def shape_scores(quads: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Per quad 0 for a shape no card could be, else a score near 1 for a card's
    proportions. A camera 20° off vertical squeezes one axis by ~6% and makes opposite
    sides differ, so both are allowed some slack."""
    s = np.linalg.norm(quads.take(NEXT, axis=1) - quads, axis=2)  # N,4
    pa, pb = (s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2
    short, long = np.minimum(pa, pb), np.maximum(pa, pb)
    ratio = short / np.maximum(long, 1e-6)
    eq = ((np.minimum(s[:, 0], s[:, 2]) >= 0.75 * np.maximum(s[:, 0], s[:, 2]))
          & (np.minimum(s[:, 1], s[:, 3]) >= 0.75 * np.maximum(s[:, 1], s[:, 3])))
    ok = (long >= lo) & (long <= hi) & (short > 0) & (ratio >= 0.58) & (ratio <= 0.86) & eq
    return np.where(ok, 1 - np.abs(ratio - CARD_ASPECT), 0.0)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Areas of many quads (shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * y.take(NEXT, axis=1) - x.take(NEXT, axis=1) * y).sum(axis=1))


def on_frame_edge(quads: np.ndarray, w: int, h: int, tol: float = 2.0) -> np.ndarray:
    """Which quads have a side (both its corners) within ``tol`` px of one frame edge."""
    b = quads.take(NEXT, axis=1)
    near = np.zeros(quads.shape[:2], bool)
    for axis, size in ((0, w), (1, h)):
        for edge in (0.0, size - 1.0):
            near |= (np.abs(quads[..., axis] - edge) < tol) & (np.abs(b[..., axis] - edge) < tol)
    return near.any(axis=1)
