"""Title reading on our own proxy cards: where the reader looks for a title line."""

import cv2
import numpy as np

from vision.ocr import WINDOWS, Tesseract, _box, _grey, find_lines, read_hit_points, title_band, title_images
from vision.recognize import MAX_READS
from vision.synthetic import render_proxy


def _trainer_over_busy_art(name: str) -> np.ndarray:
    """A Trainer proxy whose picture starts with a ragged dark edge just under the title,
    longer than the title (real Supporters: the art's top edge under "Katy")."""
    face = render_proxy(name, kind="trainer", seed=3).image[:, :, :3].copy()
    h, w = face.shape[:2]
    y = int(0.165 * h)
    for x in range(int(0.10 * w), int(0.78 * w), int(0.05 * w)):
        cv2.ellipse(face, (x, y), (int(0.03 * w), int(0.012 * h)), 0, 0, 360, (20, 20, 20), -1)
    return face


def _band(face: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    quad = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    return title_band(face, quad)


def test_a_longer_row_under_a_trainer_title_does_not_hide_it():
    band = _band(_trainer_over_busy_art("Katy"))
    engine = Tesseract()
    lines = find_lines(_box(_grey(band), WINDOWS["trainer"]), rows=2)
    texts = [engine.read_line(line.image).text for line in lines]
    assert len(lines) == 2 and "Katy" not in texts[0]  # the art's edge is the longer row
    assert "Katy" in texts[1]
    offered = [engine.read_line(image).text for image in list(title_images(band))[:MAX_READS]]
    assert sum("Katy" in text for text in offered) >= 1


def test_the_hp_figure_is_read_from_its_corner():
    face = render_proxy("Oinkologne", kind="pokemon", seed=1, hp=260).image[:, :, :3].copy()
    assert "260" in read_hit_points(Tesseract(), _band(face))
