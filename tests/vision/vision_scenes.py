"""Candidate names for the tests (real card names are facts), rendered scenes, and an
OCR engine that counts its calls."""

from __future__ import annotations

import numpy as np

from vision.ocr import LineRead, Tesseract
from vision.synthetic import SceneStyle, compose, generated_mat, render_proxy

NAMES = [
    ("Charmander", "sv3pt5-4"), ("Charmeleon", "sv3pt5-5"), ("Charizard ex", "sv3-125"),
    ("Pikachu", "sv4pt5-131"), ("Ralts", "sv1-84"), ("Kirlia", "sv1-85"),
    ("Gardevoir ex", "sv1-86"), ("Miraidon ex", "sv1-81"), ("Miraidon", "sv8-76"),
    ("Rare Candy", "sv1-191"), ("Nest Ball", "sv1-181"), ("Ultra Ball", "sv1-196"),
    ("Boss's Orders", "pal-172"), ("Arven", "sv1-166"), ("Flittle", "sv1-100"),
    ("Espathra", "sv1-101"), ("Skwovet", "sv1-151"), ("Greedent", "sv1-152"),
]
TRAINERS = {"Rare Candy", "Nest Ball", "Ultra Ball", "Boss's Orders", "Arven"}
#: A clean table: big upright-ish cards, no tricks. Used where the test is about
#: plumbing (JSON, tracking), not about hard images.
CLEAN = SceneStyle(height_range=(330, 420), max_tilt_deg=6, jitter_deg=3, touching=0.0,
                   sleeves=0.0, glare=0.0, occlusion=0.0, blur=(0, 0.3), noise=(0, 2))


def kind(name: str) -> str:
    return "trainer" if name in TRAINERS else "pokemon"


def scene(names: list[tuple[str, str]], seed: int, style: SceneStyle = CLEAN):
    faces = [render_proxy(n, i, kind(n), seed=seed * 31 + k) for k, (n, i) in enumerate(names)]
    return compose(generated_mat((1920, 1080), seed), faces, style, seed=seed)


class CountingTesseract(Tesseract):
    """The real engine, counting its OCR calls."""

    calls = 0

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        self.calls += 1
        return super().read_line(image, either_way)
