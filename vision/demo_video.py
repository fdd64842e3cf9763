"""The demo video: the scripted demo game filmed from above, rendered by the project.

Each table of the script (:mod:`assistant.live.demo_script`) is drawn once onto a plain
playmat with our own proxy cards (:func:`vision.synthetic.render_proxy`: the card's
real name, nothing copied from a printed card) and held for a second; between two
tables a hand reaches in from the player's side, covers the cards it moves, and
leaves. Drawing is a paste of pre-scaled faces per table, so the whole game (about a
minute at 10 frames a second) renders in seconds. A script may also tuck an Energy under
its Pokémon with an edge showing (a spot such as ``active<1``, see :data:`TUCKED`).

The video is kept under ``$TABLE_ASSISTANT_HOME/demo/``, named by a digest of the
script and of this renderer's version, with the frame at which each step of the
script begins (``schedule``), which the demo command uses to enter the console's
steps at the right moment.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from assistant.live.demo_script import OPENING, SCRIPT, Card, Say, Seen, Step, Table, spot_xy
from vision.energy_type import ENERGY_COLOURS, energy_type
from vision.synthetic import render_proxy

#: Bump when the drawing changes: the cached video is then rendered afresh.
RENDER_VERSION = 4
SIZE = (1280, 720)
FPS = 10.0
#: A card's printed height in the image (pixels, at 1280×720).
CARD_HEIGHT = 150
#: Frames the opening table is held (vision reads every card before the game starts).
OPENING_FRAMES = 40
#: Frames a hand covers the table before and after a change, and a table is then held.
HAND_BEFORE, HAND_AFTER, HOLD = 3, 2, 10
#: Frames a console step takes (a player says what they attack with).
SAY_FRAMES = 10
#: The calibration markers' size and their outer corners' distance from the image's
#: edges (pixels): clear of the cards, and far enough in to be found after a nudge.
MARKER_SIZE, MARKER_MARGIN = 40, 36
MAT_COLOUR = (62, 104, 58)  # BGR: a green cloth mat
#: A spot such as ``active<1`` (opt-in: the script names it) is an Energy tucked under the
#: Pokémon at ``active``: drawn first, nudged toward its player so that a strip of
#: TUCKED_SHOWS of its height (``<2``: twice that) shows beyond the Pokémon's edge.
TUCKED, TUCKED_SHOWS = "<", 0.2
SKIN = (120, 160, 205)


@dataclass(frozen=True)
class DemoVideo:
    """A rendered demo: the video file, its frame rate, and the frame at which each
    step of the script begins (one entry per step, in order)."""

    path: Path
    fps: float
    schedule: tuple[int, ...]
    frames: int


def demo_video(folder: Path, hit_points: Mapping[str, int] | None = None,
               script: Sequence[Step] = SCRIPT, opening: Table = OPENING, shake: int | None = None,
               markers: bool = False, nudge_at: int | None = None) -> DemoVideo:
    """The demo video under ``folder``, rendered on first use (``hit_points``: the HP
    printed on each Pokémon's proxy, so vision can tell a card from its ex). ``shake``:
    filmed badly, as :func:`shaken` says, with this seed. ``markers``: the mat has the
    four calibration markers (:mod:`vision.markers`) at its corners; ``nudge_at``: the
    camera is knocked at this frame, as :func:`nudged` says."""
    hit_points = dict(hit_points or {})
    calibration = (markers, nudge_at) if markers or nudge_at is not None else ()  # old videos keep their names
    digest = hashlib.sha256(repr((RENDER_VERSION, SIZE, opening, tuple(script), sorted(hit_points.items()),
                                  shake, *calibration)).encode()).hexdigest()[:12]
    path = folder / f"demo-{digest}.mp4"
    index = path.with_suffix(".json")
    if path.exists() and index.exists():
        meta = json.loads(index.read_text())
        return DemoVideo(path, meta["fps"], tuple(meta["schedule"]), meta["frames"])
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part.mp4")
    writer = cv2.VideoWriter(str(partial), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    if not writer.isOpened():
        raise OSError(f"cannot write a video at {partial}")
    try:
        write = writer.write if nudge_at is None else nudged(writer.write, nudge_at)
        write = write if shake is None else shaken(write, shake)
        schedule, frames = render(write, script, opening, hit_points, markers=markers)
    finally:
        writer.release()
    partial.replace(path)
    index.write_text(json.dumps({"fps": FPS, "schedule": schedule, "frames": frames}))
    return DemoVideo(path, FPS, tuple(schedule), frames)


def render(write: Callable[[np.ndarray], bool | None], script: Sequence[Step], opening: Table,
           hit_points: Mapping[str, int], markers: bool = False) -> tuple[list[int], int]:
    """Draw the game, handing each frame to ``write``; the frame each step begins at,
    and the number of frames."""
    painter = _Painter(hit_points, markers)
    table = opening
    picture = painter.table(table)
    frame = 0
    schedule: list[int] = []

    def hold(image: np.ndarray, count: int) -> None:
        nonlocal frame
        for _ in range(count):
            if write(image) is not False:  # False: the frame was dropped
                frame += 1

    hold(picture, OPENING_FRAMES)
    for step in script:
        schedule.append(frame)
        if isinstance(step, Say):
            hold(picture, SAY_FRAMES)
            continue
        after = table.after(step)
        reach = _reach(step, table, after)
        # A hand never holds still: each frame it is somewhere else.
        for k in range(HAND_BEFORE):
            hold(painter.hand(picture, reach, HAND_BEFORE - k), 1)
        picture = painter.table(after)
        for k in range(HAND_AFTER):
            hold(painter.hand(picture, reach, k + 1), 1)
        hold(picture, HOLD)
        table = after
    return schedule, frame


def shaken(write: Callable[[np.ndarray], None], seed: int, drop: float = 0.08, flicker: float = 0.12,
           jitter: int = 2) -> Callable[[np.ndarray], bool]:
    """``write``, filmed by a poor camera: a frame now and then dropped (``drop``), the
    light flickering (a gain up to ``flicker`` either way) and the picture shaking by up
    to ``jitter`` pixels. None of it is a play: the mirror must see the same game."""
    rng = np.random.default_rng(seed)

    def write_shaken(image: np.ndarray) -> bool:
        if rng.random() < drop:
            return False
        dx, dy = (int(v) for v in rng.integers(-jitter, jitter + 1, size=2))
        moved = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), SIZE, borderMode=cv2.BORDER_REPLICATE)
        write(cv2.convertScaleAbs(moved, alpha=float(1 + rng.uniform(-flicker, flicker))))
        return True

    return write_shaken


def camera_knock(turn: float = 1.5, scale: float = 0.96, shift: tuple[int, int] = (12, 8)) -> np.ndarray:
    """How a knocked camera moves the picture (2×3, pixels → pixels): turned by
    ``turn`` degrees and scaled by ``scale`` about the centre, then shifted by
    ``shift`` pixels. The default keeps the markers in view and the cards readable."""
    move = cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), turn, scale)
    move[:, 2] += shift
    return move


def nudged(write: Callable[[np.ndarray], bool | None], at: int, move: np.ndarray | None = None
           ) -> Callable[[np.ndarray], bool | None]:
    """``write``, filmed by a camera that someone knocks at frame ``at``: from then on
    the whole picture is moved by ``move`` (default :func:`camera_knock`). Nobody moved
    a card: the mirror must see the same game."""
    move = camera_knock() if move is None else move
    count = 0

    def write_nudged(image: np.ndarray) -> bool | None:
        nonlocal count
        count += 1
        if count <= at:
            return write(image)
        return write(cv2.warpAffine(image, move, SIZE, borderValue=MAT_COLOUR))

    return write_nudged


def _reach(step: Seen, before: Table, after: Table) -> tuple[str, list[tuple[float, float]]]:
    """Whose hand moves, and the places it covers (fractions of the image)."""
    keys = [*step.lift, *(k for k, _ in step.slide), *(k for k, _ in step.turn), *(c.key for c in step.lay)]
    cards = [before.cards.get(k) or after.cards[k] for k in keys]
    places = [card_xy(c) for c in cards]
    places += [card_xy(after.cards[k]) for k, _ in step.slide]
    owner = cards[0].player
    if any(turned for _, turned in step.turn):  # the opponent's attack turned the card: the opponent turns it
        owner = "B" if owner == "A" else "A"
    return owner, places


def card_xy(card: Card) -> tuple[float, float]:
    """Where ``card``'s centre is drawn (fractions of the image): its spot's, or for a
    tucked card (:data:`TUCKED`), its Pokémon's moved toward the card's player."""
    spot, _, depth = card.spot.partition(TUCKED)
    x, y = spot_xy(card.player, spot)
    if not depth:
        return x, y
    shift = int(depth) * TUCKED_SHOWS * CARD_HEIGHT / SIZE[1]
    return x, y + (shift if card.player == "A" else -shift)


class _Painter:
    """Draws tables: the mat once, each card's face once per way it lies."""

    def __init__(self, hit_points: Mapping[str, int], markers: bool = False) -> None:
        self.hit_points = hit_points
        w, h = SIZE
        mat = np.empty((h, w, 3), np.uint8)
        mat[:] = MAT_COLOUR
        shade = np.linspace(0.92, 1.08, w, dtype=np.float32)[None, :, None]
        self.mat = np.clip(mat * shade, 0, 255).astype(np.uint8)
        cv2.line(self.mat, (0, h // 2), (w, h // 2), (80, 130, 75), 2, cv2.LINE_AA)
        if markers:
            from vision.markers import draw_markers

            draw_markers(self.mat, mat_corners(), MARKER_SIZE)
        self._faces: dict[tuple[str, bool, int], tuple[np.ndarray, np.ndarray]] = {}

    def _face(self, card: Card, rotation: int) -> tuple[np.ndarray, np.ndarray]:
        """The card's picture as it lies (BGR) and its coverage (0..1)."""
        tucked = TUCKED in card.spot
        key = (card.name, card.face_down, rotation, tucked)
        if key not in self._faces:
            if card.face_down:
                image = _card_back()
            else:
                kind = "energy" if card.name.endswith("Energy") else "pokemon"
                image = render_proxy(card.name, None, kind, seed=sum(map(ord, card.name)),
                                     hp=self.hit_points.get(card.name), fit_title=True).image
                if tucked:
                    image = _typed_energy(image, card.name)
            scale = CARD_HEIGHT / image.shape[0]
            small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            small = np.ascontiguousarray(np.rot90(small, k=-(rotation // 90)))
            self._faces[key] = (small[:, :, :3].copy(), small[:, :, 3:4].astype(np.float32) / 255)
        return self._faces[key]

    def table(self, table: Table) -> np.ndarray:
        picture = self.mat.copy()
        h, w = picture.shape[:2]
        # Tucked cards first: their Pokémon lie on top of them.
        for card in sorted(table.cards.values(), key=lambda c: TUCKED not in c.spot):
            # A's cards face A (upright in the image), B's face B (upside down).
            rotation = (card.turned + (0 if card.player == "A" else 180)) % 360
            face, alpha = self._face(card, rotation)
            x, y = card_xy(card)
            fh, fw = face.shape[:2]
            x0, y0 = int(round(x * w - fw / 2)), int(round(y * h - fh / 2))
            region = picture[y0:y0 + fh, x0:x0 + fw]
            region[:] = (face * alpha + region * (1 - alpha)).astype(np.uint8)
        return picture

    def hand(self, picture: np.ndarray, reach: tuple[str, list[tuple[float, float]]], away: int) -> np.ndarray:
        """A hand and forearm from ``owner``'s side of the table over ``places``, drawn
        back toward the player by ``away`` steps."""
        owner, places = reach
        out = picture.copy()
        h, w = out.shape[:2]
        edge = h if owner == "A" else 0
        x = float(np.mean([p[0] for p in places])) * w
        y = float(np.mean([p[1] for p in places])) * h + (edge - h / 2) * 0.08 * away
        cv2.line(out, (int(x + 60), edge), (int(x), int(y)), SKIN, 50, cv2.LINE_AA)
        cv2.ellipse(out, (int(x), int(y)), (70, 60), 0, 0, 360, SKIN, -1, cv2.LINE_AA)
        return out


def mat_corners() -> np.ndarray:
    """Where the demo mat's corners (the markers' outer corners) lie in the image
    (pixels, top-left first, clockwise)."""
    w, h, m = SIZE[0] - 1, SIZE[1] - 1, MARKER_MARGIN
    return np.float32([[m, m], [w - m, m], [w - m, h - m], [m, h - m]])


def _typed_energy(image: np.ndarray, name: str) -> np.ndarray:
    """A basic Energy's proxy (BGRA) whose lower half is its type's colour, as a printed
    basic Energy is (:data:`vision.energy_type.ENERGY_COLOURS`): the part a tucked card shows."""
    kind = energy_type(name)
    if kind is None:
        return image
    out = image.copy()
    h, w = out.shape[:2]
    m = int(0.035 * w)  # inside the card's border
    out[int(0.5 * h):h - m, m:w - m, :3] = ENERGY_COLOURS[kind]
    return out


def _card_back() -> np.ndarray:
    """A face-down card: our own plain back (BGRA)."""
    h, w = 880, 630
    back = np.zeros((h, w, 4), np.uint8)
    back[:] = (150, 60, 40, 255)
    cv2.rectangle(back, (30, 30), (w - 30, h - 30), (200, 110, 70, 255), 12)
    cv2.ellipse(back, (w // 2, h // 2), (180, 140), 0, 0, 360, (60, 170, 230, 255), -1)
    return back
