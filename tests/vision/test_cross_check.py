"""A name only just sure is kept only when the other line reader leans the same way."""

from dataclasses import replace

import numpy as np
import pytest

from vision import cross_check
from vision.cross_check import CHECKED_BELOW, cross_checked, needs_cross_check
from vision.names import ACCEPT, NameMatch, NameMatcher
from vision.ocr import Glyph, LineRead, Tesseract
from vision.pp_ocr import PPOCR
from vision.recognize import identified

DECK = [("Pawmo", "sv1-75"), ("Arven", "sv1-166"), ("Meditite", "sv1-100"), ("Rotom", "sv1-88")]
FRAME = np.full((1080, 1920, 3), 235, np.uint8)
QUAD = np.float32([[800, 300], [1000, 300], [1000, 580], [800, 580]])


class Reads:
    """A line reader that reads ``text`` from every line, counting its calls."""

    backend = "fake"

    def __init__(self, text: str) -> None:
        self.text, self.calls = text, 0

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        self.calls += 1
        return LineRead(self.text, 0.5)


def _barely(matcher: NameMatcher, name: str) -> NameMatch:
    """``name`` named only just, as junk read from a blurred title names it."""
    match = matcher.match([LineRead(name, 0.5, tuple(Glyph({ch.lower(): 1.0}, True) for ch in name))])
    return replace(match, confidence=(ACCEPT + CHECKED_BELOW) / 2)


@pytest.fixture
def matcher() -> NameMatcher:
    return NameMatcher(DECK, deck=DECK)


def test_a_barely_sure_name_the_other_reader_does_not_see_is_not_sure(matcher, monkeypatch):
    # Tesseract named a blurred Pawmo "Arven" only just; PP-OCR reads "Pawm" there.
    other = Reads("Pawm")
    monkeypatch.setattr(cross_check, "other_reader", lambda engine: other)
    arven = _barely(matcher, "Arven")
    assert arven.name == "Arven" and needs_cross_check(matcher, arven)
    checked = matcher.decide(cross_checked(Reads("Arven"), matcher, FRAME, QUAD, arven))
    assert checked.name is None and other.calls >= 1


def test_the_card_reader_reports_such_a_card_as_not_sure(matcher, monkeypatch):
    monkeypatch.setattr(cross_check, "other_reader", lambda engine: Reads("Pawm"))
    reading = identified(Reads("Arven"), matcher, FRAME, QUAD, _barely(matcher, "Arven"))
    assert reading.name is None and reading.card_id is None and reading.confidence < ACCEPT


def test_a_barely_sure_name_the_other_reader_leans_to_is_kept(matcher, monkeypatch):
    # The other reader's read is too poor to name the card alone ("Arvm"), but it fits
    # Arven best of the deck names: the two readers agree.
    monkeypatch.setattr(cross_check, "other_reader", lambda engine: Reads("Arvm"))
    arven = _barely(matcher, "Arven")
    assert matcher.decide(cross_checked(Reads("Arven"), matcher, FRAME, QUAD, arven)).name == "Arven"


def test_a_sure_name_costs_no_second_reading(matcher, monkeypatch):
    other = Reads("Pawm")
    monkeypatch.setattr(cross_check, "other_reader", lambda engine: other)
    sure = matcher.match(["Arven"])
    assert sure.confidence >= CHECKED_BELOW and not needs_cross_check(matcher, sure)
    assert cross_checked(Reads("Arven"), matcher, FRAME, QUAD, sure) == sure and other.calls == 0


def test_without_deck_lists_or_without_the_other_reader_nothing_changes(matcher, monkeypatch):
    arven = _barely(matcher, "Arven")
    monkeypatch.setattr(cross_check, "other_reader", lambda engine: None)
    assert cross_checked(Reads("Arven"), matcher, FRAME, QUAD, arven) == arven
    no_decks = NameMatcher(DECK)
    assert not needs_cross_check(no_decks, _barely(no_decks, "Arven"))


def test_tesseract_names_are_checked_by_pp_ocr_and_pp_ocr_names_by_none():
    # Tesseract reads blurred titles too poorly for its disagreement to refute PP-OCR.
    assert cross_check.other_reader(PPOCR.__new__(PPOCR)) is None
    if cross_check.learned_reader_available():
        assert isinstance(cross_check.other_reader(Tesseract()), PPOCR)


def test_the_other_reader_reading_nothing_refutes_nothing(matcher, monkeypatch):
    # Blur can leave PP-OCR no text where Tesseract read a title: no evidence either way.
    arven = _barely(matcher, "Arven")
    for nothing in ("", "y"):  # no text, or a stray letter that fits no deck name
        monkeypatch.setattr(cross_check, "other_reader", lambda engine, text=nothing: Reads(text))
        assert matcher.decide(cross_checked(Reads("Arven"), matcher, FRAME, QUAD, arven)).name == "Arven"
