"""The camera view: the latest frame with what vision made of it drawn on it.

Each tracked card gets its outline (green once its name has settled, amber while vision
is still unsure), its name and its reading confidence; the mat's zones as the mirror
uses them (:class:`~assistant.table_layout.TableLayout`) are drawn where they lie on the
picture: each zone's outline and name, and the centre line between the two halves.
When the mat's corners are known (its markers seen, or the corners the judge tapped)
the zones go through the inverse of that homography, so they follow the mat however
the camera looks at it; otherwise they are drawn in fractions of the picture, which is
where the mirror then looks for them. A caption says which.

The vision thread only hands over each frame (:meth:`CameraView.show`, a reference and
no drawing); the picture is drawn and JPEG-encoded when someone asks for it
(:meth:`CameraView.jpeg`), once per frame and layout however many people watch.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Sequence
from typing import Any, Protocol

import cv2
import numpy as np

from assistant.table_layout import TableLayout
from vision.markers import MatFix, corners_fix

#: Frames wider than this are scaled down before drawing: plenty for a phone or a TV.
MAX_WIDTH = 1280
JPEG_QUALITY = 80
#: A card's picture: the margin around its outline (a share of its longer side) and
#: the largest height it is sent at.
CROP_MARGIN = 0.08
CROP_HEIGHT = 480

SETTLED = (80, 220, 80)  # BGR: green
UNSURE = (0, 170, 255)  # amber
CENTRE_LINE = (255, 255, 0)  # cyan
ROW_EDGE = (255, 160, 60)  # light blue
INK = (255, 255, 255)


class Outlined(Protocol):
    """What the view needs of a tracked card (vision's ``TrackedCard``): its corners in
    frame pixels, its name (None: not read), how sure the reading is (0..1), whether
    the name has settled."""

    quad: Any
    name: str | None
    confidence: float
    settled: bool


def plain(text: str) -> str:
    """``text`` in the ASCII OpenCV's fonts can draw: "Flabébé" → "Flabebe"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _label(image: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    """``text`` on a dark box whose bottom-left corner is ``at``, kept inside the image."""
    thickness = max(1, round(scale * 2))
    (width, height), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x = int(min(max(at[0], 0), max(0, image.shape[1] - width - 4)))
    y = int(min(max(at[1], height + base + 4), image.shape[0] - 1))
    cv2.rectangle(image, (x, y - height - base - 4), (x + width + 4, y), (0, 0, 0), cv2.FILLED)
    cv2.putText(image, text, (x + 2, y - base - 2), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


#: What the caption says of where the zones are drawn, by the fix's source.
SOURCES = {"markers": "mat: by its markers", "corners": "mat: by the tapped corners", None: "mat: the whole picture"}


def draw_zones(image: np.ndarray, layout: TableLayout, fix: MatFix | None = None, factor: float = 1.0) -> None:
    """The layout's zones on ``image`` (in place): each zone's outline and name, and
    the centre line. ``fix`` places the mat in the frame (``factor`` scales the frame's
    pixels to the image's); without it the mat is the whole image."""
    height, width = image.shape[:2]
    scale = max(0.45, width / 2400)

    def pixel(u: float, v: float) -> tuple[float, float]:
        if fix is None:
            return u * width, v * height
        x, y = fix.to_image(u, v)
        return x * factor, y * factor

    for zone, (left, top, right, bottom) in layout.zones():
        corners = np.array([pixel(left, top), pixel(right, top), pixel(right, bottom), pixel(left, bottom)])
        cv2.polylines(image, [np.round(corners).astype(np.int32)], True, ROW_EDGE, max(1, round(scale * 2)),
                      cv2.LINE_AA)
        x, y = corners[:, 0].min(), corners[:, 1].min()
        _label(image, zone.label, (round(x) + 3, round(y + 24 * scale)), ROW_EDGE, scale * 0.8)
    ends = np.round([pixel(0, layout.centre), pixel(1, layout.centre)]).astype(int)
    cv2.line(image, tuple(ends[0]), tuple(ends[1]), CENTRE_LINE, max(2, round(scale * 3)), cv2.LINE_AA)
    caption = SOURCES[fix.source if fix is not None else None]
    (text_width, _), _ = cv2.getTextSize(caption, cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8, 1)
    _label(image, caption, (width - text_width - 10, height - 4), INK, scale * 0.8)


def fix_in_use(shown: MatFix | None, layout: TableLayout, width: int, height: int) -> MatFix | None:
    """The mat's fix to draw a frame with: the markers' when they were seen, else the
    corners the judge tapped (at once, without waiting for the next frame), else none."""
    if shown is not None and shown.source == "markers":
        return shown
    corners = layout.corners
    return corners_fix(corners, width, height) if corners is not None else None


def draw_cards(image: np.ndarray, cards: Sequence[Outlined], factor: float = 1.0) -> None:
    """Each card's outline, name and confidence on ``image`` (in place); ``factor``
    scales the cards' frame coordinates to the image's."""
    scale = max(0.45, image.shape[1] / 2400)
    for card in cards:
        corners = np.asarray(card.quad, dtype=np.float64).reshape(-1, 2) * factor
        colour = SETTLED if card.settled else UNSURE
        cv2.polylines(image, [np.round(corners).astype(np.int32)], True, colour, max(2, round(scale * 4)),
                      cv2.LINE_AA)
        name = plain(card.name) if card.name else "?"
        # Inside the card's top edge: above it, the label would cover the card behind.
        x, y = corners[:, 0].min(), corners[:, 1].min()
        _label(image, f"{name} {card.confidence:.0%}", (round(x) + 3, round(y + 30 * scale)), colour, scale)


def annotate(image: np.ndarray, cards: Sequence[Outlined], layout: TableLayout, fix: MatFix | None = None
             ) -> np.ndarray:
    """A copy of ``image`` (scaled to at most :data:`MAX_WIDTH` wide) with the zones
    (through ``fix``, the mat's place in ``image``) and every card drawn on it."""
    factor = min(1.0, MAX_WIDTH / image.shape[1])
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    picture = image.copy() if factor == 1.0 else cv2.resize(image, None, fx=factor, fy=factor,
                                                             interpolation=cv2.INTER_AREA)
    draw_zones(picture, layout, fix, factor)
    draw_cards(picture, cards, factor)
    return picture


class CameraView:
    """The latest frame and its tracked cards, shared by the vision thread (which
    :meth:`show` s each frame) and the web server (which asks for :meth:`jpeg`)."""

    def __init__(self, layout: TableLayout) -> None:
        self.layout = layout
        self._lock = threading.Lock()
        self._latest: tuple[int, np.ndarray, list[Outlined], MatFix | None] | None = None
        self._shown = 0
        self._encoded: tuple[tuple[Any, ...], bytes] | None = None

    def show(self, image: np.ndarray, cards: Sequence[Outlined], fix: MatFix | None = None) -> None:
        """The vision thread's newest frame (kept by reference: the source gives a new
        array each frame), the cards it tracked in it and the mat's fix it placed them
        with; a card out of sight (under a hand) is not drawn where it was last seen."""
        seen = [card for card in cards if getattr(card, "visible", True)]
        with self._lock:
            self._shown += 1
            self._latest = (self._shown, image, seen, fix)

    def jpeg(self) -> bytes | None:
        """The newest frame annotated, as JPEG; None before the first frame."""
        with self._lock:
            latest = self._latest
            encoded = self._encoded
        if latest is None:
            return None
        number, image, cards, shown = latest
        key = (number, *self.layout.fractions().values(), self.layout.corners)
        if encoded is not None and encoded[0] == key:
            return encoded[1]
        fix = fix_in_use(shown, self.layout, image.shape[1], image.shape[0])
        ok, data = cv2.imencode(".jpg", annotate(image, cards, self.layout, fix),
                                [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            return None
        with self._lock:
            self._encoded = (key, data.tobytes())
        return data.tobytes()

    __call__ = jpeg

    def card_jpeg(self, name: str) -> bytes | None:
        """The newest frame's picture of the card read as ``name`` (the surest reading
        when several are), cut out around its outline with a margin, as JPEG; None when
        no card in sight reads so. It lets a judge see what the camera saw before
        confirming what it asks."""
        with self._lock:
            latest = self._latest
        if latest is None:
            return None
        _number, image, cards, _fix = latest
        wanted = plain(name).casefold()
        named = [card for card in cards if card.name and plain(card.name).casefold() == wanted]
        if not named:
            return None
        card = max(named, key=lambda c: (c.settled, c.confidence))
        corners = np.asarray(card.quad, dtype=np.float64).reshape(-1, 2)
        (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
        margin = CROP_MARGIN * max(right - left, bottom - top)
        height, width = image.shape[:2]
        x0, y0 = max(0, int(left - margin)), max(0, int(top - margin))
        x1, y1 = min(width, int(right + margin) + 1), min(height, int(bottom + margin) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        crop = image[y0:y1, x0:x1]
        if crop.shape[0] > CROP_HEIGHT:
            factor = CROP_HEIGHT / crop.shape[0]
            crop = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return data.tobytes() if ok else None
