"""Names voted over frames by two readers: a card one reader cannot name settles from the
other's reads within 5 frames, and readers that disagree settle nothing."""

import numpy as np
import pytest
from vision_scenes import NAMES, scene

from vision import pp_ocr
from vision.names import NameMatcher
from vision.ocr import Glyph, LineRead
from vision.recognize import Recognizer
from vision.tracker import Tracker, settles

needs_pp_ocr = pytest.mark.skipif(not pp_ocr.available(), reason="PP-OCR (rapidocr) is not installed")
CARDS = [NAMES[4], NAMES[11], NAMES[14]]  # Ralts, Ultra Ball, Flittle


class _Blind:
    """A line reader that sees no letters (Tesseract on a title it cannot read)."""

    backend = "blind"

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        return LineRead("", 0.0)


class _Stubborn:
    """A line reader that reads every title as "Arven", sure of it: a reader wrong the
    same way on every frame of a still table."""

    backend = "stubborn"

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        return LineRead("Arven", 0.95, Glyph.of_text("Arven"))


def _still(image: np.ndarray, frames: int):
    """A still table filmed: sensor noise of its own in every frame."""
    rng = np.random.default_rng(5)
    for _ in range(frames):
        yield np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)


def _settled_names(engine, frames: int, other_reader: bool = True) -> list[set[str]]:
    """The names settled after each frame, reading first with ``engine``."""
    sc = scene(CARDS, 21)
    tracker = Tracker(Recognizer(NameMatcher(NAMES), engine=engine), other_reader=other_reader)
    return [{c.name for c in tracker.update(f) if c.settled} for f in _still(sc.image, frames)]


@needs_pp_ocr
def test_a_card_its_reader_cannot_name_settles_from_the_other_reader_within_five_frames():
    truth = {name for name, _id in CARDS}
    assert _settled_names(_Blind(), 5)[-1] == truth
    assert _settled_names(_Blind(), 5, other_reader=False)[-1] == set()


@needs_pp_ocr
def test_readers_naming_different_cards_settle_nothing():
    # The other reader names each card right; its own reader says "Arven" every time.
    assert all(settled == set() for settled in _settled_names(_Stubborn(), 8))
    # Alone, that reader's name would settle, and a judge would act on it.
    assert _settled_names(_Stubborn(), 3, other_reader=False)[-1] == {"Arven"}


def test_two_sure_reads_of_one_name_settle_it():
    assert settles({"Ralts": 0.9}, {"Ralts": {"own"}}) is False
    assert settles({"Ralts": 1.7}, {"Ralts": {"own"}})


def test_one_reader_repeating_itself_never_outvotes_a_disagreement():
    votes = {"Koraidon ex": 5.1, "Arven": 0.6}
    assert not settles(votes, {"Koraidon ex": {"own"}, "Arven": {"own"}})
    assert not settles(votes, {"Koraidon ex": {"other"}, "Arven": {"own"}})


def test_a_stray_read_is_outvoted_when_both_readers_agree_on_the_name():
    votes = {"Koraidon ex": 5.1, "Arven": 0.6}
    assert settles(votes, {"Koraidon ex": {"own", "other"}, "Arven": {"own"}})
    # ... but not when the rival holds more than a quarter of the votes,
    assert not settles({"Koraidon ex": 1.8, "Arven": 0.9}, {"Koraidon ex": {"own", "other"}, "Arven": {"own"}})
    # ... nor when both readers named the rival too.
    assert not settles(votes, {"Koraidon ex": {"own", "other"}, "Arven": {"own", "other"}})
