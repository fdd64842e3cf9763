"""Things on a table that are not cards, and the back of a card, drawn by the project
for measuring the card judge (``vision.card_judge``).

Every drawing is a ``CardFace`` of a card's size (630 × 880 px, 10 px per mm) with a
transparent background, so ``vision.synthetic.compose`` lays it on a mat like a card,
keeps it clear of the cards and photographs it with them; the object itself has its
real size inside that canvas (a die is 16 mm, a damage counter 20 mm). Its ``card_id``
says what it is: ``BACK`` for a face-down card, ``decoy:<kind>`` for the rest.

The card back is the project's own stand-in (a blue field with a swirl, a red and white
ball in the middle): the printed back is copyrighted, and only its colour layout matters
to the judge.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from vision.synthetic import PROXY_SIZE, CardFace

#: ``card_id`` of a face-down card.
BACK = "back"
#: The kinds of things that are not cards, by how a table shows them.
DECOY_KINDS = ("zone", "label", "dice", "counters", "coin", "deck_box", "sleeve", "clear_sleeve")
_LABELS = ("ACTIVE", "BENCH", "PRIZES", "DECK", "DISCARD", "STADIUM", "LOST ZONE")


def is_decoy(card_id: str | None) -> bool:
    """Whether a placed face's ``card_id`` marks a thing that is not a card."""
    return bool(card_id) and str(card_id).startswith("decoy:")


def _canvas() -> np.ndarray:
    w, h = PROXY_SIZE
    return np.zeros((h, w, 4), np.uint8)


def _opaque(canvas: np.ndarray, draw_mask: np.ndarray, colour: tuple[int, int, int]) -> None:
    canvas[draw_mask > 0] = (*colour, 255)


def card_back(seed: int = 0) -> CardFace:
    """A face-down card: a dark blue border, a lighter blue field with a swirl of pale
    strokes, and a ball in the middle, red above and white below a black band."""
    rng = random.Random(seed)
    w, h = PROXY_SIZE
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = w / 2, h / 2
    radius = np.hypot(xx - cx, yy - cy)
    angle = np.arctan2(yy - cy, xx - cx)
    # The swirl: brightness that turns with the distance from the middle.
    swirl = 0.5 + 0.5 * np.sin(3 * angle + radius / rng.uniform(45, 70) + rng.uniform(0, 6))
    dark = np.float32([rng.uniform(100, 130), rng.uniform(35, 55), rng.uniform(10, 25)])  # BGR
    light = np.float32([rng.uniform(220, 250), rng.uniform(150, 190), rng.uniform(70, 110)])
    mix = (swirl ** 2)[..., None]
    img = np.clip(dark * (1 - mix) + light * mix, 0, 255).astype(np.uint8)
    base = dark * 1.2
    border = int(0.045 * w)
    frame_colour = (int(base[0] * 0.65), int(base[1] * 0.55), int(base[2] * 0.6))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (0, 0), (w - 1, h - 1), 255, -1)
    cv2.rectangle(mask, (border, border), (w - 1 - border, h - 1 - border), 0, -1)
    img[mask > 0] = frame_colour
    r = int(rng.uniform(0.2, 0.24) * w)
    c = (w // 2, h // 2)
    cv2.circle(img, c, r + 6, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.ellipse(img, c, (r, r), 0, 180, 360, (40, 40, 215), -1, cv2.LINE_AA)
    cv2.ellipse(img, c, (r, r), 0, 0, 180, (240, 240, 240), -1, cv2.LINE_AA)
    cv2.rectangle(img, (c[0] - r, c[1] - r // 10), (c[0] + r, c[1] + r // 10), (20, 20, 20), -1)
    cv2.circle(img, c, r // 3, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(img, c, r // 4, (240, 240, 240), -1, cv2.LINE_AA)
    out = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    rounded = np.zeros((h, w), np.uint8)
    rr = int(0.04 * w)
    cv2.rectangle(rounded, (rr, 0), (w - 1 - rr, h - 1), 255, -1)
    cv2.rectangle(rounded, (0, rr), (w - 1, h - 1 - rr), 255, -1)
    for px, py in ((rr, rr), (w - 1 - rr, rr), (rr, h - 1 - rr), (w - 1 - rr, h - 1 - rr)):
        cv2.circle(rounded, (px, py), rr, 255, -1, cv2.LINE_AA)
    out[:, :, 3] = rounded
    return CardFace(out, "", BACK)


def decoy(kind: str, seed: int = 0) -> CardFace:
    """A thing of ``kind`` (one of ``DECOY_KINDS``) that is not a card."""
    rng = random.Random(f"{kind} {seed}")
    canvas = _canvas()
    h, w = canvas.shape[:2]
    colour = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
    mask = np.zeros((h, w), np.uint8)
    if kind == "zone":
        # A printed outline exactly a card's size: the hardest one (real ones are larger).
        line = rng.randint(12, 30)
        cv2.rectangle(mask, (line // 2, line // 2), (w - 1 - line // 2, h - 1 - line // 2), 255, line)
        _opaque(canvas, mask, colour)
        if rng.random() < 0.5:
            _text(canvas, rng.choice(_LABELS), (w // 2, h // 2), 0.15 * w, colour)
    elif kind == "label":
        _text(canvas, rng.choice(_LABELS), (w // 2, h // 2), rng.uniform(0.15, 0.25) * w, colour)
    elif kind == "dice":
        for _ in range(rng.randint(1, 3)):
            _die(canvas, rng)
    elif kind == "counters":
        for _ in range(rng.randint(2, 5)):
            _token(canvas, rng, 100, rng.choice(["10", "50", "100"]),
                   rng.choice([(30, 120, 240), (40, 40, 200), (30, 200, 240)]))
    elif kind == "coin":
        _token(canvas, rng, rng.randint(110, 140), "", rng.choice([(40, 170, 210), (190, 190, 195)]))
    elif kind == "deck_box":
        m = rng.randint(0, 20)
        cv2.rectangle(mask, (m, m), (w - 1 - m, h - 1 - m), 255, -1)
        _opaque(canvas, mask, colour)
        lid = int(rng.uniform(0.2, 0.3) * h)
        darker = tuple(int(c * 0.7) for c in colour)
        cv2.line(canvas, (m, lid), (w - 1 - m, lid), (*darker, 255), 6)
        if rng.random() < 0.6:
            cv2.circle(canvas, (w // 2, int(h * 0.6)), int(0.18 * w), (*darker, 255), -1, cv2.LINE_AA)
    elif kind == "sleeve":  # empty, lying back up: the sleeve's opaque back
        canvas[:] = (*colour, 255)
        sheen = np.linspace(0, 25, w, dtype=np.float32)[None, :, None]
        canvas[:, :, :3] = np.clip(canvas[:, :, :3] + sheen, 0, 255).astype(np.uint8)
    elif kind == "clear_sleeve":  # empty, face up: a rim, and the table through clear plastic
        rim = int(0.035 * w)
        canvas[:] = (225, 225, 225, rng.randint(25, 60))
        cv2.rectangle(mask, (0, 0), (w - 1, h - 1), 255, -1)
        cv2.rectangle(mask, (rim, rim), (w - 1 - rim, h - 1 - rim), 0, -1)
        _opaque(canvas, mask, colour)
    else:
        raise ValueError(f"no decoy kind {kind!r}: one of {', '.join(DECOY_KINDS)}")
    return CardFace(canvas, kind, f"decoy:{kind}")


def _text(canvas: np.ndarray, text: str, centre: tuple[int, int], height: float,
          colour: tuple[int, int, int]) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height / 22
    (tw, th), _ = cv2.getTextSize(text, font, scale, max(2, int(scale * 2)))
    if tw > canvas.shape[1] * 0.95:
        scale *= canvas.shape[1] * 0.95 / tw
        (tw, th), _ = cv2.getTextSize(text, font, scale, max(2, int(scale * 2)))
    origin = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    cv2.putText(canvas, text, origin, font, scale, (*colour, 255), max(2, int(scale * 2)), cv2.LINE_AA)


def _die(canvas: np.ndarray, rng: random.Random) -> None:
    """A 16 mm die, turned, with the pips of one face."""
    h, w = canvas.shape[:2]
    side = 160
    cx, cy = rng.randint(side, w - side), rng.randint(side, h - side)
    turn = rng.uniform(0, math.pi / 2)
    body = rng.choice([(240, 240, 240), (30, 30, 200), (40, 40, 40), (200, 120, 30)])
    pip = (20, 20, 20) if sum(body) > 300 else (240, 240, 240)
    u = np.float32([math.cos(turn), math.sin(turn)]) * side / 2
    v = np.float32([-math.sin(turn), math.cos(turn)]) * side / 2
    c = np.float32([cx, cy])
    corners = np.int32([c - u - v, c + u - v, c + u + v, c - u + v])
    cv2.fillConvexPoly(canvas, corners, (*body, 255), cv2.LINE_AA)
    for du, dv in rng.choice([[(0, 0)], [(-0.5, -0.5), (0.5, 0.5)],
                              [(-0.5, -0.5), (0, 0), (0.5, 0.5)],
                              [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]]):
        p = c + u * du + v * dv
        cv2.circle(canvas, (int(p[0]), int(p[1])), 14, (*pip, 255), -1, cv2.LINE_AA)


def _token(canvas: np.ndarray, rng: random.Random, radius: int, text: str,
           colour: tuple[int, int, int]) -> None:
    """A round token (a damage counter, a coin) with a ring and its value."""
    h, w = canvas.shape[:2]
    cx, cy = rng.randint(radius, w - radius), rng.randint(radius, h - radius)
    cv2.circle(canvas, (cx, cy), radius, (*colour, 255), -1, cv2.LINE_AA)
    darker = tuple(int(c * 0.6) for c in colour)
    cv2.circle(canvas, (cx, cy), int(radius * 0.85), (*darker, 255), 6, cv2.LINE_AA)
    if text:
        _text(canvas, text, (cx, cy), radius * 0.6, (250, 250, 250))
