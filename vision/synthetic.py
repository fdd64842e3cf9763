"""Synthetic table frames with ground truth: our own proxy cards on playmats.

Proxy cards use the project's own layout (nothing copied from printed cards): a border,
a coloured panel, the card's real *name* (a fact, from the card database) in DejaVu Sans
Bold where printed cards carry their title, a made-up art box and text lines. Scenes put
any card faces (proxies, or at measurement time the shared real scans read from
``../shared``) onto a mat with camera tilt, rotation, glare, blur, noise, sleeves and
occlusion, and keep where every card went.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.geometry import card_height, rotation_of

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)
PROXY_SIZE = (630, 880)  # 10 px per mm

_TEXT = (
    "Draw two cards then shuffle your hand into the deck search attach energy from "
    "discard pile flip a coin if heads this attack does more damage to the defending "
    "bench each opponent once during your turn you may switch retreat heal"
)
_WORDS = _TEXT.split(" ")


@lru_cache(maxsize=32)
def _font(bold: bool, size: int, italic: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans" + ("-Bold" if bold else "") + ("Oblique" if italic and not bold else "")
    if bold and italic:
        name = "DejaVuSans-BoldOblique"
    for folder in FONT_DIRS:
        path = folder / f"{name}.ttf"
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


@dataclass(frozen=True)
class CardFace:
    """A card image (BGRA, upright) and what it is."""

    image: np.ndarray
    name: str
    card_id: str | None = None


def render_proxy(name: str, card_id: str | None = None, kind: str = "pokemon",
                 seed: int = 0, hp: int | None = None, fit_title: bool = False) -> CardFace:
    """Our own proxy card for ``name``. ``kind`` is ``pokemon``, ``trainer`` or
    ``energy``: the title sits where that kind of card prints it. A Pokémon's ``hp`` is
    random unless given; like a real card's, it is followed by a type symbol.
    ``fit_title``: a long name is printed smaller, as on a printed card, rather than run
    into the HP."""
    rng = random.Random(seed)
    w, h = PROXY_SIZE
    border = rng.choice([(200, 200, 205), (235, 205, 60), (180, 185, 190)])
    panel = tuple(int(v) for v in np.clip(np.array(
        [rng.randint(150, 255), rng.randint(150, 255), rng.randint(140, 250)]), 0, 255))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(0.04 * w), fill=border + (255,))
    m = int(0.035 * w)
    d.rounded_rectangle((m, m, w - m, h - m), radius=int(0.02 * w), fill=panel + (255,))
    title = _font(True, int(0.042 * h))
    small = _font(False, int(0.018 * h))
    if kind == "pokemon":
        d.text((int(0.05 * w), int(0.022 * h)), rng.choice(["BASIC", "STAGE 1", "STAGE 2"]),
               font=_font(True, int(0.016 * h), italic=True), fill=(90, 90, 90))
        if fit_title:
            room = int(0.58 * w)  # up to where the HP begins
            while title.size > 12 and d.textlength(name, font=title) > room:
                title = _font(True, title.size - 2)
        d.text((int(0.19 * w), int(0.073 * h)), name, font=title, fill=(25, 25, 25),
               anchor="ls")
        figure = rng.randrange(40, 340, 10)
        d.text((int(0.875 * w), int(0.073 * h)), f"HP {hp or figure}", font=_font(True, int(0.045 * h)),
               fill=(30, 30, 30), anchor="rs")
        r = int(0.025 * w)
        d.ellipse((int(0.92 * w) - r, int(0.058 * h) - r, int(0.92 * w) + r, int(0.058 * h) + r),
                  fill=tuple(rng.randint(60, 200) for _ in range(3)))
    else:
        label = "Energy" if kind == "energy" else rng.choice(["Item", "Supporter", "Stadium"])
        d.text((int(0.05 * w), int(0.02 * h)), label, font=_font(True, int(0.02 * h)),
               fill=(40, 70, 160))
        d.text((int(0.62 * w), int(0.02 * h)), kind.upper(),
               font=_font(True, int(0.03 * h), italic=True), fill=(150, 150, 150))
        d.text((int(0.05 * w), int(0.115 * h)), name, font=title, fill=(25, 25, 25),
               anchor="ls")
    # Art box: gradients and shapes standing in for a picture.
    ax0, ay0, ax1, ay1 = int(0.08 * w), int(0.13 * h), int(0.92 * w), int(0.48 * h)
    d.rectangle((ax0, ay0, ax1, ay1), fill=tuple(rng.randint(40, 230) for _ in range(3)))
    for _ in range(rng.randint(4, 12)):
        x, y = rng.randint(ax0, ax1), rng.randint(ay0, ay1)
        r = rng.randint(10, 90)
        d.ellipse((max(ax0, x - r), max(ay0, y - r), min(ax1, x + r), min(ay1, y + r)),
                  fill=tuple(rng.randint(0, 255) for _ in range(3)))
    y = int(0.54 * h)
    for _ in range(rng.randint(3, 6)):
        line = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 7)))
        d.text((int(0.08 * w), y), line.capitalize(), font=small, fill=(35, 35, 35))
        y += int(0.045 * h)
    d.text((int(0.06 * w), int(0.9 * h)), "weakness  resistance  retreat", font=small,
           fill=(50, 50, 50))
    d.text((int(0.06 * w), int(0.94 * h)), f"Proxy {card_id or ''}",
           font=_font(False, int(0.012 * h)), fill=(60, 60, 60))
    bgra = cv2.cvtColor(np.asarray(img), cv2.COLOR_RGBA2BGRA)
    return CardFace(bgra, name, card_id)


def generated_mat(size: tuple[int, int] = (1920, 1080), seed: int = 0) -> np.ndarray:
    """A busily printed playmat: gradient, zone outlines, rings, logos and scribbles."""
    rng = np.random.default_rng(seed)
    w, h = size
    base = rng.integers(40, 200, size=3)
    grad = np.linspace(0.8, 1.15, w)[None, :, None] * np.linspace(0.9, 1.1, h)[:, None, None]
    mat = np.clip(base[None, None, :] * grad, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(8, 20))):
        colour = tuple(int(c) for c in rng.integers(0, 256, size=3))
        kind = int(rng.integers(0, 3))
        if kind == 0:
            c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.circle(mat, c, int(rng.integers(40, 400)), colour, int(rng.integers(2, 30)),
                       cv2.LINE_AA)
        elif kind == 1:
            p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(mat, p, q, colour, int(rng.integers(2, 25)), cv2.LINE_AA)
        else:
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            cv2.putText(mat, "PLAYMAT", (x, y), cv2.FONT_HERSHEY_DUPLEX,
                        float(rng.uniform(1, 5)), colour, int(rng.integers(2, 8)), cv2.LINE_AA)
    noise = rng.normal(0, 4, mat.shape)
    return np.clip(mat + noise, 0, 255).astype(np.uint8)


@dataclass
class PlacedCard:
    """Ground truth of one card in a scene: printed-order corners in frame pixels."""

    name: str
    card_id: str | None
    quad: np.ndarray
    rotation: int
    height_px: float
    occluded: bool = False
    sleeved: bool = False


@dataclass
class Scene:
    image: np.ndarray
    cards: list[PlacedCard] = field(default_factory=list)


@dataclass
class SceneStyle:
    """How hard a scene is. Heights are the cards' printed height in frame pixels."""

    height_range: tuple[float, float] = (200, 440)
    #: Every card of a frame at one height drawn from ``height_range``, as on a real table
    #: (only the camera's perspective and sleeves then make them differ); otherwise each
    #: card's own height is drawn, a harder table than any real one.
    same_size: bool = False
    max_tilt_deg: float = 20.0
    #: The camera's tilt off vertical is drawn from ``[min_tilt_deg, max_tilt_deg]``.
    min_tilt_deg: float = 0.0
    jitter_deg: float = 6.0
    rotations: Sequence[int] = (0, 90, 180, 270)
    touching: float = 0.3
    sleeves: float = 0.3
    glare: float = 0.3
    occlusion: float = 0.0
    blur: tuple[float, float] = (0.0, 1.2)
    noise: tuple[float, float] = (0.0, 5.0)


def _sleeve(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """The face in a coloured sleeve: a margin of sleeve colour and a faint sheen."""
    h, w = face.shape[:2]
    mx, my = int(0.035 * w), int(0.03 * h)
    colour = rng.choice([(20, 20, 20), (120, 30, 30), (30, 30, 140), (30, 110, 40),
                         (200, 200, 200)])
    out = np.zeros((h + 2 * my, w + 2 * mx, 4), np.uint8)
    cv2.rectangle(out, (0, 0), (out.shape[1] - 1, out.shape[0] - 1), colour + (255,), -1)
    alpha = face[:, :, 3:4].astype(np.float32) / 255
    region = out[my:my + h, mx:mx + w]
    region[:, :, :3] = (face[:, :, :3] * alpha + region[:, :, :3] * (1 - alpha)).astype(np.uint8)
    sheen = np.linspace(0, 18, out.shape[1], dtype=np.float32)[None, :, None]
    out[:, :, :3] = np.clip(out[:, :, :3] + sheen, 0, 255).astype(np.uint8)
    return out


def _camera(size: tuple[int, int], tilt_deg: float, rng: random.Random) -> np.ndarray:
    """A homography for a camera ``tilt_deg`` off vertical (a keystone) in a random
    direction, keeping the frame filled."""
    w, h = size
    k = math.tan(math.radians(tilt_deg)) * 0.35
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src.copy()
    side = rng.randrange(4)
    a, b = side, (side + 1) % 4
    centre = np.float32([w / 2, h / 2])
    for i in (a, b):
        dst[i] = centre + (src[i] - centre) * (1 - k)
    # Scale back up about the centre so the shrunk side still reaches the frame edge.
    m = cv2.getPerspectiveTransform(src, dst)
    grow = np.float32([[1 + k, 0, -k * w / 2], [0, 1 + k, -k * h / 2], [0, 0, 1]])
    return grow @ m


def compose(background: np.ndarray, faces: Sequence[CardFace], style: SceneStyle,
            seed: int = 0, region: tuple[int, int, int, int] | None = None) -> Scene:
    """Lay ``faces`` on ``background`` (a copy) without overlap and photograph the table.

    ``region`` (x0, y0, x1, y1) limits where cards are put (before the camera tilt)."""
    rng = random.Random(seed)
    frame = background.copy()
    fh, fw = frame.shape[:2]
    x0, y0, x1, y1 = region or (0, 0, fw, fh)
    cam = _camera((fw, fh), rng.uniform(style.min_tilt_deg, style.max_tilt_deg), rng)
    frame = cv2.warpPerspective(frame, cam, (fw, fh), borderMode=cv2.BORDER_REFLECT)
    # Per card: where it lies on the table (a 2×3 matrix), its corners in the frame, its
    # face, whether sleeved.
    placed: list[tuple[np.ndarray, np.ndarray, CardFace, bool]] = []
    taken: list[np.ndarray] = []
    table_height = rng.uniform(*style.height_range) if style.same_size else None
    for face in faces:
        sleeved = rng.random() < style.sleeves
        img = _sleeve(face.image, rng) if sleeved else face.image
        ih, iw = img.shape[:2]
        height = table_height or rng.uniform(*style.height_range)
        scale = height / ih
        rot = rng.choice(list(style.rotations)) + rng.uniform(-style.jitter_deg, style.jitter_deg)
        for _attempt in range(200):
            if taken and rng.random() < style.touching:
                ref = rng.choice(taken)
                cx, cy = ref.mean(axis=0)
                r = max(np.ptp(ref[:, 0]), np.ptp(ref[:, 1])) * 0.5
                ang = rng.choice([0, 90, 180, 270])
                cx += math.cos(math.radians(ang)) * (r + height * 0.36)
                cy += math.sin(math.radians(ang)) * (r + height * 0.36)
            else:
                cx, cy = rng.uniform(x0 + height / 2, x1 - height / 2), rng.uniform(
                    y0 + height / 2, y1 - height / 2)
            m = cv2.getRotationMatrix2D((iw / 2, ih / 2), -rot, scale)
            m[:, 2] += (cx - iw / 2, cy - ih / 2)
            corners = np.float32([[0, 0], [iw, 0], [iw, ih], [0, ih]])
            quad = cv2.transform(corners[None], m)[0]
            if (quad[:, 0].min() < x0 or quad[:, 1].min() < y0 or quad[:, 0].max() > x1
                    or quad[:, 1].max() > y1):
                continue
            # The camera's keystone enlarges the picture, so a card laid near an edge can
            # end up partly out of view; a card's truth is only fair when all of it is seen.
            seen = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), cam)[:, 0]
            if seen.min() < 0 or seen[:, 0].max() > fw or seen[:, 1].max() > fh:
                continue
            hull = quad.astype(np.float32)
            if any(cv2.intersectConvexConvex(hull, t)[0] > 2.0 for t in taken):
                continue
            taken.append(hull)
            placed.append((m, seen, face, sleeved))
            break
    scene = Scene(frame)
    for m, seen, face, sleeved in placed:
        img = _sleeve(face.image, rng) if sleeved else face.image
        full = np.vstack([m, [0, 0, 1]]).astype(np.float64)
        h_total = cam @ full
        warped = cv2.warpPerspective(img, h_total, (fw, fh), flags=cv2.INTER_AREA
                                     if h_total[0, 0] ** 2 + h_total[1, 0] ** 2 < 1 else
                                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        alpha = warped[:, :, 3:4].astype(np.float32) / 255
        frame[:] = (warped[:, :, :3] * alpha + frame * (1 - alpha)).astype(np.uint8)
        q = seen.astype(np.float32)
        scene.cards.append(PlacedCard(face.name, face.card_id, q, rotation_of(q), card_height(q),
                                      sleeved=sleeved))
    _photograph(scene, style, rng)
    return scene


def _photograph(scene: Scene, style: SceneStyle, rng: random.Random) -> None:
    """Lighting, glare, occlusion, blur and noise, applied to the whole frame."""
    frame = scene.image.astype(np.float32)
    fh, fw = frame.shape[:2]
    gain = rng.uniform(0.85, 1.1)
    frame *= gain
    if scene.cards and rng.random() < style.glare:
        card = rng.choice(scene.cards)
        cx, cy = card.quad.mean(axis=0) + rng.uniform(-0.3, 0.3) * card.height_px
        yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
        sx, sy = card.height_px * rng.uniform(0.15, 0.35), card.height_px * rng.uniform(0.1, 0.3)
        spot = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))[:, :, None]
        frame += spot * (255 - frame) * rng.uniform(0.4, 0.8)
    if scene.cards and rng.random() < style.occlusion:
        card = rng.choice(scene.cards)
        card.occluded = True
        q = card.quad
        edge = rng.randrange(4)
        a, b = q[edge], q[(edge + 1) % 4]
        inward = q.mean(axis=0) - (a + b) / 2
        depth = rng.uniform(0.2, 0.45)
        mid = (a + b) / 2 + inward * depth
        outward = (a + b) / 2 - inward * 1.5
        hand = np.int32([a + (a - b) * 0.2, mid, b + (b - a) * 0.2, outward])
        skin = (rng.uniform(80, 140), rng.uniform(120, 170), rng.uniform(170, 220))
        cv2.fillConvexPoly(frame, hand, skin, cv2.LINE_AA)
    blur = rng.uniform(*style.blur)
    if blur > 0.3:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    sigma = rng.uniform(*style.noise)
    if sigma > 0:
        frame += np.random.default_rng(rng.randrange(1 << 30)).normal(0, sigma, frame.shape)
    scene.image = np.clip(frame, 0, 255).astype(np.uint8)


def load_face(path: str | Path, name: str, card_id: str | None = None) -> CardFace:
    """A card image file as a face (alpha kept; opaque if the file has none)."""
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise OSError(f"cannot read {path}")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return CardFace(img, name, card_id)


def mat_from_frame(frame: np.ndarray, x0: int = 330, x1: int = 1590,
                   size: tuple[int, int] = (1920, 1080)) -> np.ndarray:
    """Stretch the mat part of a broadcast frame (columns ``x0..x1``) to fill ``size``."""
    mat = frame[:, x0:x1]
    w, h = size
    scale = w / mat.shape[1]
    mat = cv2.resize(mat, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    top = max(0, (mat.shape[0] - h) // 2)
    return np.ascontiguousarray(mat[top:top + h, :w])


def demo_scene(names: Sequence[tuple[str, str]], seed: int = 0, count: int = 10,
               style: SceneStyle | None = None, size: tuple[int, int] = (1920, 1080),
               kinds: dict[str, str] | None = None) -> Scene:
    """A generated mat with ``count`` proxy cards drawn from ``names`` ((name, id) pairs)."""
    rng = random.Random(seed)
    chosen = [rng.choice(list(names)) for _ in range(count)]
    faces = [render_proxy(n, i, (kinds or {}).get(n, "pokemon"), seed=seed * 100 + k)
             for k, (n, i) in enumerate(chosen)]
    return compose(generated_mat(size, seed), faces, style or SceneStyle(), seed=seed)


def to_image(face: CardFace) -> Image.Image:
    """A face as a PIL image (for saving proxies to look at)."""
    return Image.fromarray(cv2.cvtColor(face.image, cv2.COLOR_BGRA2RGBA))
