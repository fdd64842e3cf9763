"""Playmat calibration with four printed ArUco markers, one at each corner of the mat.

A camera over a table is never quite square to the mat, and a knock moves it. Four
printed markers fix where the mat lies in each picture: marker 0 at the mat's top-left
corner, 1 top-right, 2 bottom-right, 3 bottom-left (as the camera's "up" sees the mat,
player B's side at the top), from OpenCV's small 4×4 dictionary. Each marker's outer
corner (the one nearest the mat's own corner) *is* that corner of the mat, so the four
give the homography from the image to the mat's own coordinates: 0..1 across and 0..1
down the mat, whatever the camera's angle.

:func:`marker_sheet` writes the four to print; :func:`find_mat` finds them in one
picture; :class:`MatFollower` follows a camera over a video: one frame without the
markers (a hand over a corner) keeps the last fix, and a nudged camera gets a new fix
as soon as all four are seen again.

A mat without markers is fixed by hand: the judge taps its four corners on the camera
view (:func:`corners_fix`, the same homography from four points); the markers take over
again as soon as they are seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
#: Marker ids at the mat's corners, in order: top-left, top-right, bottom-right, bottom-left.
CORNER_IDS = (0, 1, 2, 3)
#: For each marker, which of its own four corners (OpenCV's order: top-left, top-right,
#: bottom-right, bottom-left as printed) is the mat's corner.
OUTER_CORNER = (0, 1, 2, 3)
#: Where each marker's outer corner lies on the mat (fractions across, down).
MAT_CORNERS = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


@dataclass(frozen=True)
class MatFix:
    """Where the mat lies in one picture: ``corners`` (the mat's four corners in image
    pixels, top-left first, clockwise), ``homography`` (3×3, image pixels → mat
    fractions) and where the corners came from: ``markers`` seen in the picture, or
    ``corners`` a judge tapped."""

    corners: np.ndarray
    homography: np.ndarray
    source: str = "markers"

    def to_mat(self, x: float, y: float) -> tuple[float, float]:
        """The image point (pixels) as fractions across and down the mat."""
        u, v, w = self.homography @ np.array([x, y, 1.0])
        return float(u / w), float(v / w)

    def to_image(self, u: float, v: float) -> tuple[float, float]:
        """The mat point (fractions across and down it) in the image (pixels)."""
        x, y, w = np.linalg.solve(self.homography, np.array([u, v, 1.0]))
        return float(x / w), float(y / w)


def corners_fix(corners: Sequence[Sequence[float]], width: int, height: int) -> MatFix:
    """The fix from the mat's four corners as a judge tapped them on a ``width`` ×
    ``height`` picture: fractions of it, top-left first, clockwise (checked by
    :func:`assistant.table_layout.check_corners`)."""
    pixels = np.float32([(x * width, y * height) for x, y in corners])
    return MatFix(pixels, cv2.getPerspectiveTransform(pixels, MAT_CORNERS).astype(np.float64), "corners")


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """One marker (grey, black on white) ``pixels`` wide, without a quiet zone."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, pixels)


def draw_markers(image: np.ndarray, corners: np.ndarray, size: int) -> None:
    """Draw the four markers into ``image`` (BGR, in place), each ``size`` pixels wide
    on a white quiet zone, with its outer corner on the given mat corner (pixels,
    top-left first, clockwise; the mat is taken to be square to the image)."""
    quiet = max(2, size // 6)
    h, w = image.shape[:2]
    for marker_id, (cx, cy) in zip(CORNER_IDS, np.asarray(corners, dtype=float), strict=True):
        marker = cv2.cvtColor(marker_image(marker_id, size), cv2.COLOR_GRAY2BGR)
        # The outer corner is the marker's corner pixel (as the detector reports it).
        x0 = int(round(cx)) if marker_id in (0, 3) else int(round(cx)) - size + 1
        y0 = int(round(cy)) if marker_id in (0, 1) else int(round(cy)) - size + 1
        if x0 - quiet < 0 or y0 - quiet < 0 or x0 + size + quiet > w or y0 + size + quiet > h:
            raise ValueError("a marker does not fit in the image with its white border")
        image[y0 - quiet:y0 + size + quiet, x0 - quiet:x0 + size + quiet] = 255
        image[y0:y0 + size, x0:x0 + size] = marker


def marker_sheet(path: Path, size: int = 600) -> Path:
    """Write the four markers to print, two by two on a white page, each labelled with
    the mat corner it belongs at; PNG, or PDF when ``path`` ends in ``.pdf``. Cut them
    out and lay each with its outer corner (the top-left marker's top-left corner, and
    so on) on that corner of the mat."""
    from PIL import Image

    margin = size // 3
    page = np.full((2 * size + 4 * margin, 2 * size + 3 * margin), 255, np.uint8)
    labels = ("0: top-left", "1: top-right", "3: bottom-left", "2: bottom-right")
    for k, marker_id in enumerate((0, 1, 3, 2)):
        row, col = divmod(k, 2)
        x0, y0 = margin + col * (size + margin), margin + row * (size + 2 * margin)
        page[y0:y0 + size, x0:x0 + size] = marker_image(marker_id, size)
        cv2.putText(page, labels[k], (x0, y0 + size + margin // 2), cv2.FONT_HERSHEY_SIMPLEX,
                    size / 400, 0, max(1, size // 200), cv2.LINE_AA)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    picture = Image.fromarray(page)
    if path.suffix.lower() == ".pdf":
        picture.save(path, "PDF", resolution=300.0)
    else:
        picture.save(path, "PNG")
    return path


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The corner markers seen in ``image``: id → its four corners (pixels, 4×2)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True) if int(i) in CORNER_IDS}


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), cv2.aruco.DetectorParameters())


def find_mat(image: np.ndarray) -> MatFix | None:
    """The mat's fix in ``image`` when all four corner markers are seen, else None."""
    found = detect_markers(image)
    if any(i not in found for i in CORNER_IDS):
        return None
    corners = np.float32([found[i][OUTER_CORNER[k]] for k, i in enumerate(CORNER_IDS)])
    return MatFix(corners, cv2.getPerspectiveTransform(corners, MAT_CORNERS).astype(np.float64))


#: How often a mat whose markers were never seen is searched for them, in frames.
SEARCH_EVERY = 15


class MatFollower:
    """The mat's fix over a video: a new fix whenever all four markers are seen (the
    camera may have been nudged), else the last one (a hand covers a marker).

    The judge's tapped corners (``corners`` of :meth:`update`, fractions of the
    picture) fix a mat without markers: tapped, they replace the fix in use until the
    markers are seen; forgotten (None), the fix they gave goes with them. With neither,
    None: cards are placed in the picture's own fractions."""

    def __init__(self) -> None:
        self.fix: MatFix | None = None
        self._frames = 0
        self._corners: object = None

    def update(self, image: np.ndarray, corners: Sequence[Sequence[float]] | None = None) -> MatFix | None:
        if corners != self._corners:  # the judge tapped the corners, or forgot them
            self._corners = corners
            height, width = image.shape[:2]
            if corners is not None:
                self.fix = corners_fix(corners, width, height)
            elif self.fix is not None and self.fix.source == "corners":
                self.fix = None
        # The search costs ~7-9 ms a 1280x720 frame: a mat whose markers the first
        # SEARCH_EVERY frames did not show is searched on every SEARCH_EVERY-th frame
        # only; once they are seen, on every frame, to follow a nudged camera at once.
        following = self.fix is not None and self.fix.source == "markers"
        if following or self._frames < SEARCH_EVERY or self._frames % SEARCH_EVERY == 0:
            self.fix = find_mat(image) or self.fix
        self._frames += 1
        return self.fix
