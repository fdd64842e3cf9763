"""Where a picture has lines of text: PP-OCR's text detector through onnxruntime.

The detector (PP-OCRv6 "small" detection, ~10 MB) ships inside the ``rapidocr`` wheel
beside the recognizer ``vision.pp_ocr`` uses, and is loaded from there: nothing is
downloaded at run time. It is a DB network ("differentiable binarization"): for every
pixel of a picture scaled to a multiple of 32 px it gives the probability that the pixel
lies inside a line of text. A line is a connected run of likely pixels; its tightest
rotated rectangle, grown back out by the margin the network was trained to shrink lines
by, is the line's box. The network finds lines of any angle and of any size from ~8 px
tall, whatever surrounds them: on a card, the title and the HP beside it, however weak
the card's own outline is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.geometry import warp
from vision.pp_ocr import LINE_HEIGHT, wheel_session

MODEL = "PP-OCRv6_det_small.onnx"
#: A pixel is text when the network gives it at least this probability, and a line is
#: kept when its pixels' mean is at least ``LINE_SCORE`` (PP-OCR's own settings).
PIXEL_SCORE, LINE_SCORE = 0.3, 0.5
#: The network was trained on lines shrunk by an offset of area × (1 - 0.4²) / perimeter;
#: growing a found line back by area × this / perimeter gives the whole line (PP-OCR: 1.6).
UNCLIP = 1.6
#: Lines thinner than this (network pixels) are noise.
LEAST_THICKNESS = 3
#: The longer side of the picture the network sees by default (pixels): the title and
#: HP of a card a quarter of the picture's height are ~9 px tall there. The cost grows with
#: the area: ~0.3 s on one core at this size.
LONG_SIDE = 960


@dataclass(frozen=True)
class TextBox:
    """One line of text: its corners (4×2, clockwise from the first corner of its
    longer side: a line of upright text starts top-left) and the network's score."""

    corners: np.ndarray
    score: float

    @property
    def length(self) -> float:
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))

    @property
    def thickness(self) -> float:
        return float(np.linalg.norm(self.corners[3] - self.corners[0]))



def line_image(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The line inside ``corners`` (a ``TextBox``'s, reading order) straightened to the
    recognizer's height."""
    length = float(np.linalg.norm(corners[1] - corners[0]))
    thickness = max(1.0, float(np.linalg.norm(corners[3] - corners[0])))
    return warp(image, corners, (max(LINE_HEIGHT, int(LINE_HEIGHT * length / thickness)), LINE_HEIGHT))

@cache
def _session() -> object:
    """The detector's onnxruntime session, on one thread (the caller's)."""
    return wheel_session(MODEL)


@cache
def available() -> bool:
    """Whether the model and its runtime are installed."""
    try:
        _session()
    except ImportError:
        return False
    return True


def _input(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float, float]:
    """The picture as the network's input (BGR scaled to -1..1, each side a multiple of
    32, the longer one about ``long_side``) and the scale from it back to the picture
    (x, y)."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = image.shape[:2]
    factor = long_side / max(h, w)
    net_w, net_h = (max(32, int(round(side * factor / 32)) * 32) for side in (w, h))
    resized = cv2.resize(image, (net_w, net_h), interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
    x = resized.astype(np.float32).transpose(2, 0, 1)[None] / 127.5 - 1.0
    return x, w / net_w, h / net_h


def _reading_order(points: np.ndarray) -> np.ndarray:
    """A rectangle's corners clockwise, starting at the left end of its upper long side
    as the picture shows it (a vertical line starts at its top end's left corner)."""
    pts = cv2.boxPoints(cv2.minAreaRect(points.astype(np.float32)))
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]  # clockwise (y down)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if sides[0] < sides[1]:
        pts = np.roll(pts, -1, axis=0)  # start on a long side
    along = pts[1] - pts[0]
    if along[0] < 0 or (abs(along[0]) < 1e-6 and along[1] < 0):
        pts = np.roll(pts, 2, axis=0)  # the long side that reads left to right (or down)
    return pts


def detect(image: np.ndarray, long_side: int = LONG_SIDE) -> list[TextBox]:
    """The lines of text in ``image`` (BGR or grey), seen at ``long_side`` px, in
    ``image``'s pixels."""
    x, sx, sy = _input(image, long_side)
    (probability,) = _session().run(None, {"x": x})
    probability = probability[0, 0]
    mask = cv2.dilate((probability > PIXEL_SCORE).astype(np.uint8), np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours:
        rect = cv2.minAreaRect(contour)
        if min(rect[1]) < LEAST_THICKNESS:
            continue
        inside = np.zeros_like(mask)
        cv2.fillPoly(inside, [contour], 1)
        x0, y0, w, h = cv2.boundingRect(contour)
        score = float(probability[y0:y0 + h, x0:x0 + w][inside[y0:y0 + h, x0:x0 + w] > 0].mean())
        if score < LINE_SCORE:
            continue
        (cx, cy), (rw, rh), angle = rect
        grow = rw * rh * UNCLIP / (2 * (rw + rh))
        grown = cv2.boxPoints(((cx, cy), (rw + 2 * grow, rh + 2 * grow), angle))
        corners = _reading_order(grown) * np.float32([sx, sy])
        boxes.append(TextBox(corners.astype(np.float32), score))
    return boxes
