"""Quadrilateral geometry: corner order, card rotation, straightening, overlap.

A card quad is a ``(4, 2)`` float32 array. Inside vision a quad is kept in *printed*
order (top-left, top-right, bottom-right, bottom-left of the card as printed), which
is also what SPEC §2 reports, so a quad and its rotation always agree.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Card width / height (63 × 88 mm).
CARD_ASPECT = 63.0 / 88.0
#: Size of the canonical straightened card (width, height).
CANONICAL_SIZE = (300, 420)


def clockwise(points: np.ndarray) -> np.ndarray:
    """Four points sorted clockwise (in image coordinates, y down) around their centre,
    starting with the one nearest the image's top-left."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def portrait(points: np.ndarray) -> np.ndarray:
    """Clockwise corners rolled so the first side (p0→p1) is a short side: the quad then
    reads as an upright card or one turned by 180°."""
    pts = clockwise(points)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = np.roll(pts, -1, axis=0)
    return pts


def turn_180(quad: np.ndarray) -> np.ndarray:
    """The same card read the other way up (printed top becomes printed bottom)."""
    return np.roll(np.asarray(quad, dtype=np.float32), -2, axis=0)


def rotation_of(quad: np.ndarray) -> int:
    """How far (0, 90, 180, 270) a card in printed-order ``quad`` is turned clockwise."""
    q = np.asarray(quad, dtype=np.float64)
    top = (q[0] + q[1]) / 2
    bottom = (q[2] + q[3]) / 2
    up = top - bottom
    # Angle of the card's "up" measured clockwise from the image's up (−y).
    angle = np.degrees(np.arctan2(up[0], -up[1])) % 360
    return int(round(angle / 90.0)) % 4 * 90


def card_height(quad: np.ndarray) -> float:
    """The card's printed height in image pixels (mean of its two long sides)."""
    q = np.asarray(quad, dtype=np.float64)
    return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)


def card_share(quad: np.ndarray) -> float:
    """The height of a card as wide as ``quad`` (printed order), as a share of ``quad``'s
    height: 1 for a card's proportions (63:88), less for an outline taller than its card
    (a strip of table taken in), more for one shorter (an end of the card cut off)."""
    q = np.asarray(quad, dtype=np.float64)
    width = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    return float(width / CARD_ASPECT / max(card_height(q), 1.0))


def area(quad: np.ndarray) -> float:
    return float(abs(cv2.contourArea(np.asarray(quad, dtype=np.float32))))


def overlap(a: np.ndarray, b: np.ndarray, areas: tuple[float, float] | None = None) -> float:
    """Intersection over the smaller quad's area (0..1). ``areas``: the two quads' areas,
    when the caller knows them already (one quad against many)."""
    inter, _ = cv2.intersectConvexConvex(
        np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    )
    small = min(areas or (area(a), area(b)))
    return float(inter / small) if small > 0 else 0.0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(
        np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    )
    union = area(a) + area(b) - inter
    return float(inter / union) if union > 0 else 0.0


def region_quad(quad: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The image quad of the card-relative rectangle ``[x0,x1]×[y0,y1]`` (fractions of
    the card's width and height), through the card's homography."""
    w, h = CANONICAL_SIZE
    canon = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(canon, np.asarray(quad, dtype=np.float32))
    rect = np.float32([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
    return cv2.perspectiveTransform(rect.reshape(-1, 1, 2), m).reshape(4, 2)


def warp(image: np.ndarray, quad: np.ndarray, size: tuple[int, int],
         interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """Straighten the region ``quad`` (printed order) of ``image`` to ``size`` (w, h)."""
    w, h = size
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=interpolation,
                               borderMode=cv2.BORDER_REPLICATE)


def warp_region(image: np.ndarray, quad: np.ndarray, box: tuple[float, float, float, float],
                card_px: int, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """Straighten the card-relative box ``(x0, y0, x1, y1)`` at a scale where the whole
    card would be ``card_px`` pixels tall, so text size no longer depends on distance."""
    x0, y0, x1, y1 = box
    region = region_quad(quad, x0, y0, x1, y1)
    card_w = card_px * CARD_ASPECT
    size = (max(1, int(round((x1 - x0) * card_w))), max(1, int(round((y1 - y0) * card_px))))
    return warp(image, region, size, interpolation)
