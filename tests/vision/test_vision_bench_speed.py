"""The speed breakdown's helpers (bench/vision/speed.py): stages timed and put back, and
what two readers make of a frame's cards."""

from __future__ import annotations

import numpy as np

import vision.recognize as recognize
from bench.vision.speed import Clock, two_cores


def test_two_readers_are_done_when_the_busier_is():
    assert two_cores([10, 10, 10, 10]) == 20
    # The costliest card last keeps one reader busy while the other waits.
    assert two_cores([10, 10, 10, 30]) == 40
    assert two_cores([30, 10, 10, 10]) == 30
    assert two_cores([]) == 0


def test_stages_are_timed_while_timing_and_put_back_after():
    lean = recognize.layout_lean
    frame = np.zeros((300, 300, 3), np.uint8)
    quad = np.float32([[50, 40], [150, 40], [150, 180], [50, 180]])
    clock = Clock()
    with clock.timing():
        assert recognize.layout_lean is not lean
        recognize.layout_lean(frame, quad)
        recognize.layout_lean(frame, quad)
    assert recognize.layout_lean is lean
    assert clock.calls["layout lean"] == 2 and clock.seconds["layout lean"] >= 0
    assert clock.calls["read_card"] == 0
