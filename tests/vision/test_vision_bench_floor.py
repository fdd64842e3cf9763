"""The speed floor's reading (bench/vision/floor.py): one title read a card, no more."""

from __future__ import annotations

import cv2
import numpy as np
from vision_scenes import NAMES, CountingTesseract, kind

from bench.vision.floor import one_title_read
from vision.geometry import turn_180
from vision.names import NameMatcher
from vision.synthetic import render_proxy

HEIGHT = 330


def _laid(name: str, card_id: str) -> tuple[np.ndarray, np.ndarray]:
    """A proxy of ``name`` upright on a grey table, and its quad in printed order."""
    face = render_proxy(name, card_id, kind(name), seed=3).image[:, :, :3]
    width = round(face.shape[1] * HEIGHT / face.shape[0])
    frame = np.full((HEIGHT + 200, width + 200, 3), 120, np.uint8)
    frame[100:100 + HEIGHT, 100:100 + width] = cv2.resize(face, (width, HEIGHT), interpolation=cv2.INTER_AREA)
    quad = np.float32([[100, 100], [100 + width, 100], [100 + width, 100 + HEIGHT], [100, 100 + HEIGHT]])
    return frame, quad


def test_a_clear_card_is_named_from_one_read_of_the_end_the_layout_favours():
    frame, quad = _laid("Pikachu", "sv4pt5-131")
    matcher = NameMatcher(NAMES, NAMES[:6])
    engine = CountingTesseract()
    reading = one_title_read(engine, matcher, frame, quad, (), lean=0.8)
    assert reading is not None and reading.name == "Pikachu" and engine.calls == 1
    assert reading.rotation == 0
    # Told the other end is likelier, it reads that end only, once: no name, no second look.
    engine = CountingTesseract()
    wrong_way = one_title_read(engine, matcher, frame, quad, (), lean=-0.8)
    assert engine.calls == 1 and (wrong_way is None or wrong_way.name is None)
    assert np.array_equal(one_title_read(CountingTesseract(), matcher, frame, turn_180(quad), (), -0.8).quad, quad)

