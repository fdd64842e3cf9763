"""Synthetic phone photos with ground truth: a card filling the frame, a card held in a
hand, a binder page.

``vision.synthetic`` films a table from above, where every card lies whole on a mat. A
person photographing a card does otherwise: the card fills the picture and its edges may
be cut off, a hand holds it and covers a corner and part of a side, or nine cards sit in
the clear pockets of a binder page whose rims outline everything *but* the cards. These
are the framings where a card's own outline is weak or absent; any card face can be used
(our proxies in tests, the shared real scans at measurement time).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import cv2
import numpy as np

from vision.geometry import card_height, rotation_of
from vision.synthetic import CardFace, PlacedCard, Scene

#: A phone's portrait photo (width, height).
PHONE = (1344, 1792)
SKIN = ((120, 160, 205), (95, 135, 190), (150, 180, 225))


def backdrop(size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A room or table behind the card: a smooth two-tone gradient with some blotches
    and grain (BGR)."""
    w, h = size
    top = np.array([rng.randint(60, 220) for _ in range(3)], np.float32)
    bottom = np.array([rng.randint(30, 200) for _ in range(3)], np.float32)
    ramp = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    image = np.broadcast_to(top * (1 - ramp) + bottom * ramp, (h, w, 3)).copy()
    for _ in range(rng.randint(3, 8)):
        centre = (rng.randrange(w), rng.randrange(h))
        axes = (rng.randint(w // 12, w // 3), rng.randint(h // 12, h // 3))
        colour = tuple(float(rng.randint(20, 235)) for _ in range(3))
        cv2.ellipse(image, centre, axes, rng.uniform(0, 180), 0, 360, colour, -1)
    image = cv2.GaussianBlur(image, (0, 0), max(w, h) / 60)
    image += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def _paste(frame: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """``face`` (BGRA) drawn into ``frame`` with its corners at ``quad`` (printed order)."""
    h, w = face.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(corners, np.float32(quad))
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA if card_height(quad) < h
                                 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    frame[:] = (warped[:, :, :3] * alpha + frame * (1 - alpha)).astype(np.uint8)


def _card_quad(centre: tuple[float, float], height: float, turn_deg: float, tilt: float,
               rng: random.Random) -> np.ndarray:
    """Printed-order corners of a card ``height`` px tall at ``centre``, turned
    ``turn_deg`` clockwise and seen a little from one side (``tilt``: the far side's
    shrink, 0 for square on)."""
    half_w, half_h = height * 63 / 88 / 2, height / 2
    corners = np.float32([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    side = rng.randrange(4)
    for i in (side, (side + 1) % 4):
        corners[i] *= 1 - tilt
    a = np.radians(turn_deg)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return corners @ turn.T + np.float32(centre)


def _hand(frame: np.ndarray, quad: np.ndarray, rng: random.Random) -> None:
    """A hand holding the card by its lower half: a palm over one bottom corner and a
    thumb across the side above it, skin-coloured with a soft shade."""
    skin = np.array(rng.choice(SKIN), np.float32) * rng.uniform(0.85, 1.1)
    left = rng.random() < 0.5
    bottom = quad[3] if left else quad[2]
    side_top = quad[0] if left else quad[1]
    inward = quad.mean(axis=0) - bottom
    along = side_top - bottom
    palm = [bottom - inward * 0.6 - along * 0.1, bottom + inward * 0.28 - along * 0.05,
            bottom + inward * 0.3 + along * 0.25, bottom - inward * 0.4 + along * 0.35]
    thumb_root = bottom + along * 0.3 - inward * 0.1
    thumb_tip = bottom + along * 0.45 + inward * 0.35
    layer = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(layer, np.int32(palm), 255, cv2.LINE_AA)
    cv2.line(layer, tuple(int(v) for v in thumb_root), tuple(int(v) for v in thumb_tip), 255,
             max(4, int(card_height(quad) * 0.07)), cv2.LINE_AA)
    mask = cv2.GaussianBlur(layer, (0, 0), 2).astype(np.float32)[:, :, None] / 255
    shade = np.linspace(0.8, 1.05, frame.shape[1], dtype=np.float32)[None, :, None]
    frame[:] = (frame * (1 - mask) + np.clip(skin * shade, 0, 255) * mask).astype(np.uint8)


def _finish(image: np.ndarray, rng: random.Random, blur: float = 0.8) -> np.ndarray:
    """A phone camera's softness, grain and JPEG-free noise."""
    out = cv2.GaussianBlur(image.astype(np.float32), (0, 0), rng.uniform(0.3, blur))
    out += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 2.5, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _scene(frame: np.ndarray, placed: Sequence[tuple[CardFace, np.ndarray]]) -> Scene:
    scene = Scene(frame)
    for face, quad in placed:
        q = np.float32(quad)
        scene.cards.append(PlacedCard(face.name, face.card_id, q, rotation_of(q), card_height(q)))
    return scene


def filling_photo(face: CardFace, seed: int = 0, held: bool = False,
                  size: tuple[int, int] = PHONE) -> Scene:
    """One card filling a portrait photo. Not ``held``: a little wider than the frame, so
    both long edges and the top corners are cut off. ``held``: whole, turned and tilted
    a little, held by a hand over a bottom corner and a side."""
    rng = random.Random(seed)
    w, h = size
    frame = backdrop(size, rng)
    if held:
        height = h * rng.uniform(0.8, 0.9)
        quad = _card_quad((w / 2 + rng.uniform(-0.03, 0.03) * w, h / 2 + rng.uniform(-0.02, 0.02) * h),
                          height, rng.uniform(-7, 7), rng.uniform(0.0, 0.06), rng)
    else:
        height = w * rng.uniform(1.06, 1.12) * 88 / 63
        top = -height * rng.uniform(0.01, 0.025)
        quad = _card_quad((w / 2, top + height / 2), height, rng.uniform(-2, 2), 0.0, rng)
    _paste(frame, face.image, quad)
    if held:
        _hand(frame, quad, rng)
    return _scene(_finish(frame, rng), [(face, quad)])


def binder_page(faces: Sequence[CardFace], seed: int = 0, size: tuple[int, int] = PHONE) -> Scene:
    """Up to nine cards in the 3×3 clear pockets of a binder page, photographed from a
    little off square. Each pocket is a bright rim a little larger than its card, with a
    gloss streak across it: the pockets outline well, the cards inside less so."""
    rng = random.Random(seed)
    w, h = size
    frame = backdrop(size, rng)
    page_colour = tuple(float(rng.randint(215, 245)) for _ in range(3))
    pocket_h = h * 0.3
    pocket_w = pocket_h * 0.74
    gap = pocket_h * 0.03
    x0 = (w - 3 * pocket_w - 2 * gap) / 2
    y0 = (h - 3 * pocket_h - 2 * gap) / 2
    page = np.float32([[x0 - gap * 2, y0 - gap * 2], [w - x0 + gap * 2, y0 - gap * 2],
                       [w - x0 + gap * 2, h - y0 + gap * 2], [x0 - gap * 2, h - y0 + gap * 2]])
    cv2.fillConvexPoly(frame, np.int32(page), page_colour, cv2.LINE_AA)
    placed = []
    for k, face in enumerate(faces[:9]):
        row, col = divmod(k, 3)
        px, py = x0 + col * (pocket_w + gap), y0 + row * (pocket_h + gap)
        cv2.rectangle(frame, (int(px), int(py)), (int(px + pocket_w), int(py + pocket_h)),
                      tuple(c - 25 for c in page_colour), max(2, int(gap / 3)), cv2.LINE_AA)
        card_h = pocket_h * 0.94
        centre = (px + pocket_w / 2 + rng.uniform(-1, 1) * gap * 0.4, py + card_h / 2 + pocket_h * 0.04)
        quad = _card_quad(centre, card_h, rng.uniform(-1.5, 1.5), 0.0, rng)
        _paste(frame, face.image, quad)
        placed.append((face, quad))
    gloss = np.zeros(frame.shape[:2], np.float32)
    cv2.line(gloss, (0, int(h * rng.uniform(0.2, 0.5))), (w, int(h * rng.uniform(0.5, 0.8))), 1.0,
             int(w * 0.05), cv2.LINE_AA)
    gloss = cv2.GaussianBlur(gloss, (0, 0), w * 0.02)[:, :, None] * rng.uniform(0.15, 0.3)
    frame = (frame + gloss * (255 - frame.astype(np.float32))).astype(np.uint8)
    camera = _tilt(size, rng.uniform(3, 8), rng)
    frame = cv2.warpPerspective(frame, camera, size, borderMode=cv2.BORDER_REPLICATE)
    seen = [(face, cv2.perspectiveTransform(np.float32(quad)[None], camera)[0]) for face, quad in placed]
    return _scene(_finish(frame, rng), seen)


def _tilt(size: tuple[int, int], degrees: float, rng: random.Random) -> np.ndarray:
    """A homography for a camera ``degrees`` off square to the page (a keystone)."""
    w, h = size
    k = np.tan(np.radians(degrees)) * 0.35
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src.copy()
    side = rng.randrange(4)
    centre = np.float32([w / 2, h / 2])
    for i in (side, (side + 1) % 4):
        dst[i] = centre + (src[i] - centre) * (1 - k)
    return cv2.getPerspectiveTransform(src, dst)


def scaled(scene: Scene, height: int) -> Scene:
    """``scene`` resized to ``height`` px tall, its truth with it."""
    factor = height / scene.image.shape[0]
    image = cv2.resize(scene.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    out = Scene(image)
    for card in scene.cards:
        q = card.quad * factor
        out.cards.append(PlacedCard(card.name, card.card_id, q, card.rotation, card_height(q)))
    return out
