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

from vision.blur import smear
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
                 seed: int = 0, hp: int | None = None, fit_title: bool = False,
                 attacks: Sequence[str] = ()) -> CardFace:
    """Our own proxy card for ``name``. ``kind`` is ``pokemon``, ``trainer`` or
    ``energy``: the title sits where that kind of card prints it. A Pokémon's ``hp`` is
    random unless given; like a real card's, it is followed by a type symbol.
    ``fit_title``: a long name is printed smaller, as on a printed card, rather than run
    into the HP. ``attacks``: attack names printed in bold under the picture, each with
    an Energy cost before it, damage after it and a line of text under it (else lines of
    text alone)."""
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
        # The header word begins where Scarlet & Violet cards print it.
        d.text((int(0.63 * w), int(0.045 * h)), kind.upper(),
               font=_font(True, int(0.036 * h), italic=True), fill=(70, 70, 70), anchor="lm")
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
    if attacks:
        _attack_rows(d, attacks, (w, h), y, random.Random(seed * 7 + 1))
    for _ in range(0 if attacks else rng.randint(3, 6)):
        line = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 7)))
        d.text((int(0.08 * w), y), line.capitalize(), font=small, fill=(35, 35, 35))
        y += int(0.045 * h)
    d.text((int(0.06 * w), int(0.9 * h)), "weakness  resistance  retreat", font=small,
           fill=(50, 50, 50))
    d.text((int(0.06 * w), int(0.94 * h)), f"Proxy {card_id or ''}",
           font=_font(False, int(0.012 * h)), fill=(60, 60, 60))
    bgra = cv2.cvtColor(np.asarray(img), cv2.COLOR_RGBA2BGRA)
    return CardFace(bgra, name, card_id)


def _attack_rows(d: ImageDraw.ImageDraw, attacks: Sequence[str], size: tuple[int, int], y: int,
                 rng: random.Random) -> None:
    """Rows of attacks from ``y`` (under the picture) down: Energy symbols, the name in
    bold, the damage, and a line of (meaningless) text under it."""
    w, h = size
    for attack in attacks:
        r = int(0.022 * w)
        for k in range(rng.randint(1, 3)):
            cx = int(0.08 * w) + r + k * (2 * r + 4)
            d.ellipse((cx - r, y + int(0.017 * h) - r, cx + r, y + int(0.017 * h) + r),
                      fill=tuple(rng.randint(60, 220) for _ in range(3)))
        d.text((int(0.27 * w), y + int(0.017 * h)), attack, font=_font(True, int(0.03 * h)),
               fill=(25, 25, 25), anchor="lm")
        d.text((int(0.9 * w), y + int(0.017 * h)), str(rng.randrange(10, 200, 10)),
               font=_font(True, int(0.032 * h)), fill=(25, 25, 25), anchor="rm")
        line = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 8)))
        d.text((int(0.08 * w), y + int(0.045 * h)), line.capitalize(), font=_font(False, int(0.018 * h)),
               fill=(35, 35, 35))
        y += int(0.11 * h)


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
    #: A specular highlight clipped to white lies on the card's title line.
    glared: bool = False
    #: The card lies on a printed zone outline a little larger than it.
    on_outline: bool = False


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
    # The table conditions of ``bench.vision.conditions``. All are off by default and
    # drawn from a random stream of their own, so a scene without them is the very scene
    # it was before they existed.
    #: Sleeves are glossy, with a dark or a clear rim, instead of a coloured one.
    glossy_sleeves: bool = False
    #: Each card's chance of a specular highlight that clips to white, on its title line
    #: two times in three (a lamp's reflection off the card's gloss).
    specular: float = 0.0
    #: Each card's chance of a hand (a skin-coloured palm and fingers) over one of its
    #: corners or edges.
    hands: float = 0.0
    #: Each card's chance of lying on a printed zone outline 4-15% larger than it, a
    #: label beside it half the time.
    zone_outlines: float = 0.0
    #: Length in pixels of a straight motion blur in a random direction (0 for none).
    motion_blur: tuple[float, float] = (0.0, 0.0)
    #: Radius in pixels of an out-of-focus disc blur (0 for none).
    defocus: tuple[float, float] = (0.0, 0.0)
    #: Strength of a warm or cool colour cast: 0.1 moves red and blue 10% apart.
    colour_cast: tuple[float, float] = (0.0, 0.0)
    #: A webcam's JPEG quality, drawn from this range; None keeps the frame lossless.
    jpeg_quality: tuple[int, int] | None = None


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
    table = random.Random(f"table conditions {seed}")  # the conditions' own stream
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
        img = _sleeve_of(face.image, style, rng, table) if sleeved else face.image
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
    outlined = _lay_on_zone_outlines(frame, [seen for _m, seen, _f, _s in placed], style, table)
    scene = Scene(frame)
    for m, seen, face, sleeved in placed:
        img = _sleeve_of(face.image, style, rng, table) if sleeved else face.image
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
    for card, on_outline in zip(scene.cards, outlined, strict=True):
        card.on_outline = on_outline
    _photograph(scene, style, rng, table)
    if style.jpeg_quality is not None:
        scene.image = jpeg(scene.image, table.randint(*style.jpeg_quality))
    return scene


def _photograph(scene: Scene, style: SceneStyle, rng: random.Random,
                table: random.Random | None = None) -> None:
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
    if table is not None:
        frame = _table_light(scene, frame, style, table)
    blur = rng.uniform(*style.blur)
    if blur > 0.3:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    sigma = rng.uniform(*style.noise)
    if sigma > 0:
        frame += np.random.default_rng(rng.randrange(1 << 30)).normal(0, sigma, frame.shape)
    scene.image = np.clip(frame, 0, 255).astype(np.uint8)


# The table conditions (see ``SceneStyle``): each draws only from the ``table`` stream.

def _sleeve_of(face: np.ndarray, style: SceneStyle, rng: random.Random,
               table: random.Random) -> np.ndarray:
    return _glossy_sleeve(face, table) if style.glossy_sleeves else _sleeve(face, rng)


def _glossy_sleeve(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """The face in a glossy sleeve: a dark rim, or a clear one the table shows through
    (a faint milky sheen), and a diagonal band of gloss across the whole sleeve."""
    h, w = face.shape[:2]
    mx, my = int(0.035 * w), int(0.03 * h)
    out = np.zeros((h + 2 * my, w + 2 * mx, 4), np.float32)
    if rng.random() < 0.5:
        out[:] = (*rng.choice([(15, 15, 15), (40, 20, 20), (20, 20, 45), (35, 35, 35)]), 255)
    else:
        out[:] = (225, 225, 225, rng.uniform(40, 90))  # clear: mostly the table
    alpha = face[:, :, 3:4].astype(np.float32) / 255
    region = out[my:my + h, mx:mx + w]
    region[:, :, :3] = face[:, :, :3] * alpha + region[:, :, :3] * (1 - alpha)
    region[:, :, 3:4] = 255 * alpha + region[:, :, 3:4] * (1 - alpha)
    yy, xx = np.mgrid[0:out.shape[0], 0:out.shape[1]].astype(np.float32)
    angle = math.radians(rng.uniform(20, 70))
    across = xx * math.cos(angle) + yy * math.sin(angle)
    centre = rng.uniform(0.2, 0.8) * float(across.max())
    band = rng.uniform(0.04, 0.12) * out.shape[0]
    gloss = rng.uniform(0.15, 0.45) * np.exp(-(((across - centre) / band) ** 2))
    out[:, :, :3] += gloss[:, :, None] * (255 - out[:, :, :3])
    out[:, :, 3] = np.maximum(out[:, :, 3], 255 * gloss)
    return np.clip(out, 0, 255).astype(np.uint8)


def _on_card(quad: np.ndarray, u: float, v: float) -> np.ndarray:
    """The frame point at ``u`` across and ``v`` down a card (printed-order corners)."""
    top = quad[0] + (quad[1] - quad[0]) * u
    bottom = quad[3] + (quad[2] - quad[3]) * u
    return top + (bottom - top) * v


def _lay_on_zone_outlines(frame: np.ndarray, quads: list[np.ndarray], style: SceneStyle,
                          rng: random.Random) -> list[bool]:
    """Print zone outlines on the table under some of the cards about to be laid at
    ``quads``: a line 4-15% outside the card, a little turned and off-centre, and half
    the time a label beside it. Which cards got one."""
    if style.zone_outlines <= 0:
        return [False] * len(quads)
    out = []
    for quad in quads:
        if rng.random() >= style.zone_outlines:
            out.append(False)
            continue
        centre = quad.mean(axis=0)
        height = float(np.linalg.norm(quad[3] - quad[0]))
        turn = cv2.getRotationMatrix2D((0.0, 0.0), rng.uniform(-4, 4), rng.uniform(1.04, 1.15))
        shift = np.float32([rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03)]) * height
        outline = (quad - centre) @ turn[:, :2].T + centre + shift
        colour = rng.choice([(235, 235, 235), (200, 200, 200), (40, 40, 40), (60, 170, 230)])
        thickness = max(2, round(height * rng.uniform(0.008, 0.025)))
        cv2.polylines(frame, [np.int32(outline)], True, colour, thickness, cv2.LINE_AA)
        if rng.random() < 0.5:
            corner = outline[int(np.argmax(outline[:, 1]))]
            cv2.putText(frame, rng.choice(["ACTIVE", "BENCH", "PRIZES", "DECK"]),
                        (int(corner[0] - height * 0.3), int(corner[1] + height * 0.12)),
                        cv2.FONT_HERSHEY_DUPLEX, height / 250, colour, max(1, thickness // 2),
                        cv2.LINE_AA)
        out.append(True)
    return out


def _table_light(scene: Scene, frame: np.ndarray, style: SceneStyle,
                 rng: random.Random) -> np.ndarray:
    """Specular highlights, hands, a colour cast and the camera's motion and focus blur
    on ``frame`` (float, BGR)."""
    fh, fw = frame.shape[:2]
    if style.specular > 0:
        for card in scene.cards:
            if rng.random() < style.specular:
                card.glared = rng.random() < 2 / 3
                u, v = (rng.uniform(0.15, 0.6), rng.uniform(0.04, 0.09)) if card.glared else (
                    rng.uniform(0.1, 0.9), rng.uniform(0.15, 0.9))
                _highlight(frame, _on_card(card.quad, u, v), card.height_px, rng)
        np.minimum(frame, 255, out=frame)  # a highlight clips to white
    for card in scene.cards:
        if style.hands > 0 and rng.random() < style.hands:
            card.occluded = True
            _hand(frame, card, rng)
    cast = rng.uniform(*style.colour_cast)
    if cast > 0:
        warm = rng.random() < 0.5
        frame *= np.float32([1 - cast / 2, 1.0, 1 + cast / 2] if warm else
                            [1 + cast / 2, 1.0, 1 - cast / 2])
    length = rng.uniform(*style.motion_blur)
    if length >= 1.5:
        frame = cv2.filter2D(frame, -1, smear(length, rng.uniform(0, math.pi)))
    radius = rng.uniform(*style.defocus)
    if radius >= 0.75:
        size = 2 * int(math.ceil(radius)) + 1
        disc = np.zeros((size, size), np.float32)
        cv2.circle(disc, (size // 2, size // 2), int(round(radius)), 1.0, -1, cv2.LINE_AA)
        frame = cv2.filter2D(frame, -1, disc / disc.sum())
    return frame


def _highlight(frame: np.ndarray, centre: np.ndarray, height: float, rng: random.Random) -> None:
    """A lamp's reflection: an elongated spot whose middle clips to white."""
    fh, fw = frame.shape[:2]
    sx, sy = height * rng.uniform(0.06, 0.18), height * rng.uniform(0.03, 0.08)
    reach = int(3 * max(sx, sy))
    x0, x1 = max(0, int(centre[0]) - reach), min(fw, int(centre[0]) + reach)
    y0, y1 = max(0, int(centre[1]) - reach), min(fh, int(centre[1]) + reach)
    if x0 >= x1 or y0 >= y1:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    dx, dy = xx - centre[0], yy - centre[1]
    a = (dx * math.cos(angle) + dy * math.sin(angle)) / sx
    b = (-dx * math.sin(angle) + dy * math.cos(angle)) / sy
    spot = np.exp(-(a * a + b * b))[:, :, None]
    patch = frame[y0:y1, x0:x1]
    patch += spot * (255 - patch) * rng.uniform(1.5, 2.5)


def _hand(frame: np.ndarray, card: PlacedCard, rng: random.Random) -> None:
    """A skin-coloured palm just outside one of the card's corners or edges, its
    fingers reaching 10-30% of the card's height over it."""
    q, height = card.quad, card.height_px
    centre = q.mean(axis=0)
    k = rng.randrange(4)
    at = q[k] if rng.random() < 0.5 else (q[k] + q[(k + 1) % 4]) / 2
    inward = (centre - at) / max(1e-6, float(np.linalg.norm(centre - at)))
    skin = tuple(float(c) for c in rng.choice([(110, 150, 205), (90, 130, 190), (70, 100, 150),
                                               (50, 75, 115), (140, 175, 225)]))
    palm = at - inward * height * rng.uniform(0.15, 0.3)
    angle = math.degrees(math.atan2(inward[1], inward[0]))
    cv2.ellipse(frame, (int(palm[0]), int(palm[1])), (int(height * 0.25), int(height * 0.18)),
                angle, 0, 360, skin, -1, cv2.LINE_AA)
    side = np.float32([-inward[1], inward[0]])
    reach = height * rng.uniform(0.1, 0.3)
    for f in range(4):
        base = palm + side * (f - 1.5) * height * 0.07
        tip = at + inward * reach * rng.uniform(0.7, 1.0) + side * (f - 1.5) * height * 0.06
        cv2.line(frame, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), skin,
                 max(2, int(height * 0.05)), cv2.LINE_AA)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` after a round trip through JPEG at ``quality`` (a webcam's stream)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image


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
