"""Rough card candidates from the search image: edges, solid blobs and texture
density, each closed into regions whose outlines may be cards (see ``vision.finder``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finding.config import FinderConfig
from vision.geometry import CARD_ASPECT


def edge_map(channels: tuple[np.ndarray, ...], cfg: FinderConfig) -> np.ndarray:
    """Outline evidence: Canny on brightness and on colour (the L, a, b ``channels`` of
    ``blurred_lab``), so a silver border on a grey mat (little brightness step) still shows
    where its hue differs."""
    edges = cv2.Canny(channels[0], cfg.canny_low, cfg.canny_high)
    for ch in (1, 2):
        edges |= cv2.Canny(channels[ch], cfg.canny_low // 2 + 4, cfg.canny_high // 2 + 8)
    return edges


def blurred_lab(image: np.ndarray) -> np.ndarray:
    """The image lightly blurred, in Lab: what both the edges and the gradient read."""
    return cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB)


def gradient_image(channels: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per pixel the gradient of the channel (L, a, b) that changes most there, as
    (gx, gy, |gx| + |gy|, 0) interleaved, with a zero border pixel ring, so one gather
    (``_gather``) fetches all three and points outside the image read as "no edge".
    Colour counts 1.6× (a silver border on a grey mat differs more in hue than in
    brightness); Sobel / 4 is a difference over two pixels."""
    h, w = channels[0].shape
    best_gx = cv2.Sobel(channels[0], cv2.CV_32F, 1, 0, ksize=3, scale=1 / 4)
    best_gy = cv2.Sobel(channels[0], cv2.CV_32F, 0, 1, ksize=3, scale=1 / 4)
    best_mag, spare = np.abs(best_gx), np.abs(best_gy)
    best_mag += spare
    # Every array below is written in place: fresh pages cost more than the arithmetic
    # (see ``vision.memory``).
    gx, gy, mag = np.empty_like(best_gx), np.empty_like(best_gx), np.empty_like(best_gx)
    take = np.empty((h, w), bool)
    for ch in (1, 2):
        cv2.Sobel(channels[ch], cv2.CV_32F, 1, 0, dst=gx, ksize=3, scale=1.6 / 4)
        cv2.Sobel(channels[ch], cv2.CV_32F, 0, 1, dst=gy, ksize=3, scale=1.6 / 4)
        np.abs(gx, out=mag)
        np.abs(gy, out=spare)
        mag += spare
        # Blend with a 0/1 mask: plain arithmetic is ~20× faster than a masked copy,
        # which branches per pixel on a mask too irregular for the CPU to predict.
        np.greater(mag, best_mag, out=take)
        for best, g in ((best_gx, gx), (best_gy, gy)):
            np.subtract(g, best, out=spare)
            spare *= take
            best += spare
        np.maximum(best_mag, mag, out=best_mag)
    # A fourth, empty channel makes a pixel 16 bytes: see _gather.
    packed = np.zeros((h + 2, w + 2, 4), np.float32)
    inner = packed[1:-1, 1:-1]
    inner[..., 0], inner[..., 1], inner[..., 2] = best_gx, best_gy, best_mag
    return packed


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
            _x, _y, w, h = cv2.boundingRect(contour)
            if max(w, h) < max_side:
                cv2.drawContours(mask, [contour], 0, 255, -1)  # (all contours: converted per call)
    k_open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_px, open_px))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, k_open)


def _dense(edges: np.ndarray, card_w: float) -> np.ndarray:
    """Where edges are dense (card art and text), opened so lines of mat print go."""
    k = max(3, int(card_w * 0.18)) | 1
    density = cv2.boxFilter(edges, cv2.CV_32F, (k, k), normalize=True) / 255.0
    mask = (density > 0.09).astype(np.uint8) * 255
    close = max(3, int(card_w * 0.3)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    op = max(3, int(card_w * 0.4)) | 1
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (op, op)))


def _fit_quad(contour: np.ndarray) -> np.ndarray:
    """Four corners of a blob: a 4-point polygon if the outline gives one, else the
    minimum-area rectangle."""
    peri = cv2.arcLength(contour, True)
    for eps in (0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(contour, eps * peri, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def split_blob(rect: tuple, card_long: float) -> list[np.ndarray]:
    """Quads for a blob that holds several touching cards: its rectangle cut into a grid
    of cards about ``card_long`` tall (portrait or landscape)."""
    (cx, cy), (w, h), angle = rect
    if w <= 0 or h <= 0:
        return []
    box = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    # box[0]→box[1] is one axis (length w or h), box[1]→box[2] the other.
    a, b, _c, d = box
    u_len = float(np.linalg.norm(b - a))
    v_len = float(np.linalg.norm(d - a))
    out = []
    card_short = card_long * CARD_ASPECT
    for cu, cv_ in ((card_short, card_long), (card_long, card_short)):
        nu, nv = max(1, round(u_len / cu)), max(1, round(v_len / cv_))
        if nu * nv < 2 or nu * nv > 12:
            continue
        if abs(u_len / nu - cu) > 0.2 * cu or abs(v_len / nv - cv_) > 0.2 * cv_:
            continue
        du, dv = (b - a) / nu, (d - a) / nv
        for i in range(nu):
            for j in range(nv):
                p = a + du * i + dv * j
                out.append(np.float32([p, p + du, p + du + dv, p + dv]))
    return out


def rough_candidates(small: np.ndarray, edges: np.ndarray, lo: float, hi: float
                ) -> tuple[list[np.ndarray], list[tuple]]:
    """Rough card quads from every cue, and rectangles of blobs too big for one card."""
    min_w = lo * CARD_ASPECT
    closed = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    solid = _solid_blobs(edges, max(3, int(min_w * 0.25)) | 1, hi * hi * CARD_ASPECT * 0.6,
                         max(5, int(min_w * 0.35)) | 1, hi)
    blobs, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    dense, _ = cv2.findContours(_dense(edges, min_w * 1.3), cv2.RETR_EXTERNAL,
                                cv2.CHAIN_APPROX_SIMPLE)
    min_area = lo * lo * CARD_ASPECT * 0.6
    max_area = hi * hi * CARD_ASPECT * 1.3
    quads: list[np.ndarray] = []
    big: list[tuple] = []
    seen: set[tuple[int, int, int, int]] = set()
    for contour in list(outlines) + list(blobs) + list(dense):
        a = cv2.contourArea(contour)
        if a < min_area or a > max_area * 10:
            continue
        rect = cv2.minAreaRect(contour)
        (cx, cy), (w, h), _ang = rect
        if w * h > max_area or max(w, h) > hi * 1.25:
            if a > 0.6 * w * h:
                big.append(rect)
            continue
        if min(w, h) < min_w * 0.7 or a < 0.6 * w * h:
            continue
        ratio = min(w, h) / max(w, h)
        if not 0.5 <= ratio <= 0.95:
            continue
        key = (int(cx / 4), int(cy / 4), int(w / 4), int(h / 4))
        if key in seen:
            continue
        seen.add(key)
        quads.append(_fit_quad(contour))
    return quads, big
