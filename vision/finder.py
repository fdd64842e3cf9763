"""Find every card on the mat as a quadrilateral.

Cards are found from their outlines: edges are closed into outlines, the small regions
an outline encloses (a card's art, text and border) are filled so each card becomes a
solid blob, thin things (mat print lines, spurs where a line meets a card) are opened
away, and each blob is fitted with a quadrilateral of a card's proportions. Blobs made
of several touching cards are cut where the card size and the seam between them say.
The search runs at reduced resolution: a card is a big object, and speed matters more
than a pixel of corner accuracy, which the straightening tolerates.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import CARD_ASPECT, area, overlap, portrait


@dataclass(frozen=True)
class FinderConfig:
    """Card sizes the finder accepts, as printed height in full-frame pixels."""

    min_height: float = 140.0
    max_height: float = 560.0
    #: Work at this many pixels of frame height (a 1080p frame is searched at 540).
    work_height: int = 540
    canny_low: int = 20
    canny_high: int = 60
    close_px: int = 3
    close_frac: float = 0.25
    hole_frac: float = 0.6
    open_frac: float = 0.35


def _edges(small: np.ndarray, cfg: FinderConfig) -> np.ndarray:
    """Outline evidence: Canny on brightness and on colour, so a silver border on a grey
    mat (little brightness step) still shows where its hue differs."""
    blur = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(blur, cv2.COLOR_BGR2LAB)
    edges = cv2.Canny(lab[:, :, 0], cfg.canny_low, cfg.canny_high)
    for ch in (1, 2):
        edges |= cv2.Canny(lab[:, :, ch], cfg.canny_low // 2 + 4, cfg.canny_high // 2 + 8)
    return edges


def _solid_blobs(edges: np.ndarray, close_px: int, max_hole: float, open_px: int,
                 max_side: float) -> np.ndarray:
    """Cards as solid blobs: closing fills a card's dense texture (art, text) while the
    mat's sparse print stays thin; holes a card's flat panels leave are filled; opening
    then removes thin print lines and spurs."""
    k_close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close_px, close_px))
    mask = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, k_close)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        for i, contour in enumerate(contours):
            if hierarchy[0][i][3] < 0 or cv2.contourArea(contour) >= max_hole:
                continue
            # A card's flat panel fits inside a card; mat regions between print lines
            # are usually longer than any card.
            _x, _y, w, h = cv2.boundingRect(contour)
            if max(w, h) < max_side:
                cv2.drawContours(mask, contours, i, 255, -1)
    k_open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_px, open_px))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, k_open)


def _fit_quad(contour: np.ndarray) -> np.ndarray:
    """Four corners of a blob: a 4-point polygon if the outline gives one, else the
    minimum-area rectangle."""
    peri = cv2.arcLength(contour, True)
    for eps in (0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(contour, eps * peri, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def _card_like(quad: np.ndarray, blob_area: float, lo: float, hi: float) -> float:
    """0 for a quad no card could be, else a score near 1 for a clean card outline."""
    q = portrait(quad)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    if long < lo or long > hi or short <= 0:
        return 0.0
    ratio = short / long
    # A camera 20° off vertical squeezes one axis by ~6%; allow a little more.
    if not 0.58 <= ratio <= 0.86:
        return 0.0
    fill = blob_area / max(area(q), 1.0)
    if fill < 0.82:
        return 0.0
    return float(min(fill, 1.0) * (1 - abs(ratio - CARD_ASPECT)))


def _split(contour: np.ndarray, lo: float, hi: float) -> list[np.ndarray]:
    """Quads for a row of touching cards: the blob's rectangle cut into n equal cards
    (portrait or landscape in the row), when that fits the card shape well."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    if w <= 0 or h <= 0:
        return []
    blob_area = cv2.contourArea(contour)
    if blob_area / (w * h) < 0.82:
        return []
    length, depth = (w, h) if w >= h else (h, w)
    best: tuple[float, int] | None = None
    for card_along in (depth * CARD_ASPECT, depth / CARD_ASPECT):
        n = round(length / card_along)
        if n < 2 or n > 8:
            continue
        err = abs(length / n - card_along) / card_along
        long_side = max(depth, length / n)
        if err < 0.12 and lo <= long_side <= hi and (best is None or err < best[0]):
            best = (err, n)
    if best is None:
        return []
    n = best[1]
    box = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    box = portrait(box) if w < h else box
    # Order so box[0]→box[1] runs along the row's length.
    sides = np.linalg.norm(box - np.roll(box, -1, axis=0), axis=1)
    if sides[0] < sides[1]:
        box = np.roll(box, -1, axis=0)
    a, b, c, d = box
    quads = []
    for k in range(n):
        t0, t1 = k / n, (k + 1) / n
        quads.append(np.float32([a + (b - a) * t0, a + (b - a) * t1,
                                 d + (c - d) * t1, d + (c - d) * t0]))
    return quads


def _support(quad: np.ndarray, edges: np.ndarray) -> float:
    """Fraction of the quad's outline that runs along edge pixels."""
    h, w = edges.shape
    q = np.asarray(quad, dtype=np.float32)
    pts = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        n = max(8, int(np.linalg.norm(b - a) / 2))
        t = np.linspace(0.05, 0.95, n, dtype=np.float32)[:, None]
        pts.append(a + (b - a) * t)
    p = np.vstack(pts).round().astype(int)
    inside = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
    if not inside.any():
        return 0.0
    p = p[inside]
    return float(edges[p[:, 1], p[:, 0]].mean() / 255.0) * float(inside.mean())


def find_cards(frame: np.ndarray, config: FinderConfig | None = None) -> list[np.ndarray]:
    """Every card in a BGR frame as a quad in frame pixels, corners clockwise with a
    short side first (upright or upside down: :mod:`vision.orientation` decides)."""
    cfg = config or FinderConfig()
    fh = frame.shape[0]
    scale = min(1.0, cfg.work_height / fh)
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    lo, hi = cfg.min_height * scale, cfg.max_height * scale
    edges = _edges(small, cfg)
    # Silver borders on grey mats leave gaps of a pixel or two in the outline.
    closed = cv2.dilate(edges, np.ones((cfg.close_px, cfg.close_px), np.uint8))
    near = cv2.dilate(closed, np.ones((3, 3), np.uint8))
    # Every boundary between edge strokes and the regions they enclose: a card's outline
    # is the outer boundary of the region just inside it (its border, or its art).
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    # Where print lines or text touch a card its outline gains spurs; the solid blobs
    # (enclosed regions filled, thin things opened away) give the clean shape instead.
    min_w = lo * CARD_ASPECT
    solid = _solid_blobs(edges, max(3, int(min_w * cfg.close_frac)) | 1,
                         hi * hi * CARD_ASPECT * cfg.hole_frac,
                         max(5, int(min_w * cfg.open_frac)) | 1, hi)
    blobs, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contours = list(contours) + list(blobs)
    min_area = lo * lo * CARD_ASPECT * 0.8
    max_area = hi * hi * CARD_ASPECT * 8
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        blob_area = cv2.contourArea(contour)
        if blob_area < min_area or blob_area > max_area:
            continue
        quad = _fit_quad(contour)
        score = _card_like(quad, blob_area, lo, hi)
        whole = score > 0
        for part in [quad] if whole else _split(contour, lo, hi):
            support = _support(part, near)
            if support >= 0.65:
                # Outer outlines before the card's own inner frames (border, art box),
                # which are card-shaped too; cuts of touching cards come last.
                found.append((float(whole) * 1e7 + area(part), part))
    found.sort(key=lambda item: -item[0])
    kept: list[np.ndarray] = []
    for _score, quad in found:
        if all(overlap(quad, other) < 0.3 for other in kept):
            kept.append(quad)
    return [portrait(q / scale) for q in kept]
