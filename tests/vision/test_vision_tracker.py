"""Tracking: stable ids through jitter, a passing hand and flicker; names settle; OCR
only for new or changed cards."""

import cv2
import numpy as np
from vision_scenes import NAMES, scene

from vision.tracker import Tracker


def _frames(sc, n=12):
    rng = np.random.default_rng(0)
    for k in range(n):
        img = np.roll(sc.image, int(rng.integers(-2, 3)), axis=1).astype(np.float32)
        img *= 1.0 + 0.08 * np.sin(k)  # lighting flicker
        img = np.clip(img, 0, 255).astype(np.uint8)
        if 4 <= k <= 6:  # a hand passes over the first card
            c = sc.cards[0].quad.mean(axis=0).astype(int)
            cv2.circle(img, tuple(int(v) for v in c), 90, (110, 150, 200), -1)
        yield img


def test_ids_stay_and_names_settle(recognizer):
    sc = scene([NAMES[4], NAMES[11], NAMES[14]], 21)
    tracker = Tracker(recognizer)
    history = [tracker.update(f) for f in _frames(sc)]
    ids_first = {c.track_id for c in history[2]}
    ids_last = {c.track_id for c in history[-1]}
    # Every card known early keeps its id through the hand and the flicker.
    assert ids_first and ids_first <= ids_last
    settled = [c for c in history[-1] if c.settled]
    assert settled, "at least one name settles"
    truth = {c.name for c in sc.cards}
    assert all(c.name in truth for c in history[-1] if c.name)
    # After settling, frames cost no OCR: far fewer reads than cards × frames.
    assert tracker.ocr_calls < len(ids_last) * len(history) / 2
