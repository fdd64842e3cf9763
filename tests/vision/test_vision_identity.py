"""Card identity: the collector number on the bottom strip picks the printing (``id``) of
a name printed more than once; the name stands without it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import pp_ocr
from vision.identity import NUMBER_STRIP, parse_number, printing, read_number
from vision.names import NameMatcher
from vision.ocr import LineRead
from vision.recognize import Recognizer
from vision.synthetic import render_proxy

needs_pp_ocr = pytest.mark.skipif(not pp_ocr.available(), reason="rapidocr/onnxruntime not installed")

#: Two printings of one Supporter in one deck (real ids: sv1's regular and full-art Arven).
ARVEN = [("Arven", "sv1-166"), ("Arven", "sv1-235"), ("Nest Ball", "sv1-181")]


class Scripted:
    """A line reader that reads every line as ``text`` at ``confidence``, counting its calls."""

    backend = "scripted"

    def __init__(self, text: str, confidence: float = 1.0) -> None:
        self.read, self.calls = LineRead(text, confidence), 0

    def read_line(self, image, either_way=True):
        self.calls += 1
        return self.read


@pytest.mark.parametrize(("text", "number"), [
    ("012/193", "12"), ("G SVI EN 010/198 *", "10"), ("235 / 198", "235"),
    ("Illus. 5ban Graphics", None), ("©2023 Pokémon", None), ("", None),
])
def test_the_number_is_the_digits_before_the_slash(text, number):
    assert parse_number(text) == number


def test_the_number_picks_one_of_the_names_printings():
    ids = ["sv1-166", "sv1-235", "pal-185"]
    assert printing(ids, "235") == "sv1-235"
    assert printing(ids, "7") is None  # a misread number names no printing
    assert printing(ids, None) is None
    assert printing(["sv1-10", "sv2-10"], "10") is None  # two sets, one number: not sure


def _table_with_card(number: str | None) -> tuple[np.ndarray, np.ndarray]:
    """A frame holding one proxy Arven, upright, whose bottom strip prints ``number``
    (or nothing), and its printed-order quad."""
    face = render_proxy("Arven", None, "trainer", seed=3).image
    h, w = face.shape[:2]
    x0, y0, x1, y1 = NUMBER_STRIP
    cv2.rectangle(face, (int(x0 * w), int(y0 * h)), (int(x1 * w), int(y1 * h)), (235, 235, 235, 255), -1)
    if number:
        cv2.putText(face, number, (int(0.16 * w), int(0.972 * h)), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (30, 30, 30, 255), 2, cv2.LINE_AA)
    frame = np.full((h + 200, w + 200, 3), 90, np.uint8)
    alpha = face[:, :, 3:] / 255.0
    frame[100:100 + h, 100:100 + w] = (face[:, :, :3] * alpha + 90 * (1 - alpha)).astype(np.uint8)
    quad = np.float32([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]])
    return cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), quad * 0.5


@needs_pp_ocr
@pytest.mark.parametrize(("number", "card_id"), [("166/198", "sv1-166"), ("235/198", "sv1-235")])
def test_two_printings_of_one_name_are_told_apart_by_number(number, card_id):
    frame, quad = _table_with_card(number)
    reading = Recognizer(NameMatcher(ARVEN, ARVEN)).read(frame, quad)
    assert (reading.name, reading.card_id) == ("Arven", card_id)


def test_the_name_stands_when_the_number_is_unreadable():
    frame, quad = _table_with_card(None)
    reading = Recognizer(NameMatcher(ARVEN, ARVEN)).read(frame, quad)
    assert (reading.name, reading.card_id) == ("Arven", None)


def test_a_name_printed_once_keeps_its_id_without_a_number():
    frame, quad = _table_with_card(None)
    reading = Recognizer(NameMatcher(ARVEN, ARVEN[:1])).read(frame, quad)
    assert (reading.name, reading.card_id) == ("Arven", "sv1-166")


def test_a_card_too_small_for_its_number_costs_no_read():
    frame = np.full((600, 600, 3), 200, np.uint8)
    engine = Scripted("012/193")
    small = np.float32([[0, 0], [180, 0], [180, 250], [0, 250]])
    assert read_number(engine, frame, small) is None and engine.calls == 0
    assert read_number(engine, frame, small * 2) == "12" and engine.calls == 1


def test_a_number_in_its_printed_shape_is_taken_from_a_less_sure_read():
    frame = np.full((900, 900, 3), 200, np.uint8)
    quad = np.float32([[0, 0], [360, 0], [360, 500], [0, 500]])
    # "105/198" says it is a collector number; a bare "105/" at the same confidence may
    # be any row's digits, and a shaped read must still be fairly sure.
    assert read_number(Scripted("SVI EN 105/198", 0.75), frame, quad) == "105"
    assert read_number(Scripted("105/19", 0.75), frame, quad) == "105"
    assert read_number(Scripted("105/", 0.75), frame, quad) is None
    assert read_number(Scripted("105/198", 0.6), frame, quad) is None
    assert read_number(Scripted("105/", 0.9), frame, quad) == "105"


def test_a_number_narrower_than_its_count_lost_a_digit_and_picks_no_printing():
    """Scarlet & Violet print the number as wide as the set's count ("014/198"). Lucario
    114/198 in a 400 px photo read surely as "14/198" named its col1-14 printing; such a
    read gives no number, so no id, and the name stands."""
    frame = np.full((900, 900, 3), 200, np.uint8)
    quad = np.float32([[0, 0], [360, 0], [360, 500], [0, 500]])
    assert read_number(Scripted("14/198", 0.86), frame, quad) is None
    assert read_number(Scripted("014/198", 0.86), frame, quad) == "14"
    assert read_number(Scripted("114/198", 0.86), frame, quad) == "114"
    assert read_number(Scripted("14/95", 0.86), frame, quad) == "14"  # a count of two digits


def test_a_close_up_card_has_its_number_read_below_a_table_cards_least_height():
    """A phone photo's card ~310 px tall (a 400 px photo) prints legible digits, where a
    webcam's card that tall on a table does not: the close-up is read, the table card
    costs no read."""
    card = np.float32([[0, 0], [222, 0], [222, 310], [0, 310]])
    photo, table = np.full((400, 300, 3), 200, np.uint8), np.full((1080, 1920, 3), 200, np.uint8)
    assert read_number(Scripted("105/198", 0.95), photo, card + 40) == "105"
    engine = Scripted("105/198", 0.95)
    assert read_number(engine, table, card + 40) is None and engine.calls == 0


def _close_up_with_number(number: str) -> tuple[np.ndarray, np.ndarray]:
    """A photo filled by one proxy Arven printing ``number``, and its card's frame as a
    title-found frame may be: its top right, 13% too short, so its bottom strip lies on
    the weakness row above the number."""
    frame, quad = _table_with_card(number)
    short = quad.copy()
    short[2:, 1] = quad[0, 1] + (quad[3, 1] - quad[0, 1]) * 0.87
    return frame, short


@needs_pp_ocr
def test_a_close_up_whose_frame_misses_the_strip_finds_its_number_nearby():
    frame, short = _close_up_with_number("235/198")
    assert read_number(pp_ocr.PPOCR(), frame, short) == "235"


@needs_pp_ocr
def test_only_a_close_up_is_searched_for_its_number(monkeypatch):
    """The search costs ~0.1 s: a table's cards (at most a quarter of the frame tall) are
    never searched, whatever their frame."""
    frame, short = _close_up_with_number("235/198")
    table = np.full((frame.shape[0] * 4, frame.shape[1] * 4, 3), 90, np.uint8)
    table[:frame.shape[0], :frame.shape[1]] = frame
    monkeypatch.setattr("vision.identity.text_detect.detect", lambda *a, **k: pytest.fail("searched"))
    assert read_number(pp_ocr.PPOCR(), table, short) is None
