"""The HP figure of a Pokémon, read from its corner of the title row: what settles a
title that reads as two deck names alike (Bombirdier and Bombirdier ex)."""

import cv2
import numpy as np
import pytest

from vision import pp_ocr
from vision.hit_points import HP_CORNER, hit_point_figures, read_hit_points
from vision.names import NameMatcher
from vision.ocr import LineRead, title_band
from vision.recognize import Recognizer
from vision.synthetic import render_proxy

needs_pp_ocr = pytest.mark.skipif(not pp_ocr.available(), reason="PP-OCR (rapidocr) is not installed")


def _quad(face: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    return np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])


def _on_a_dark_bar(name: str, hp: int) -> np.ndarray:
    """A Pokémon proxy whose HP corner is white on a dark bar, as a Darkness Pokémon's
    (Mabosstiff, Kingambit) is printed."""
    face = render_proxy(name, kind="pokemon", seed=1, hp=hp).image[:, :, :3].copy()
    h, w = face.shape[:2]
    x0, y0, x1, y1 = int(0.60 * w), int(0.02 * h), int(0.89 * w), int(0.095 * h)
    face[y0:y1, x0:x1] = 255 - face[y0:y1, x0:x1]
    return face


def test_figures_a_card_could_print_are_found_among_stray_digits():
    # "HP" read as "2" before the figure, the type symbol's edge as "0" after it.
    assert hit_point_figures("2700") == {70, 270}
    assert hit_point_figures("1300") == {30, 130, 300}
    assert hit_point_figures("7260") == {60, 260}
    assert hit_point_figures("60") == {60}
    assert hit_point_figures("1") == hit_point_figures("") == hit_point_figures("05") == set()
    assert hit_point_figures("10") == set()  # a "1" beside a "0": no card of ours


class _Script:
    """A line reader reading each image it is shown as the next of ``texts``, keeping
    the images."""

    backend = "script"

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)
        self.images: list[np.ndarray] = []

    def read_line(self, image: np.ndarray, either_way: bool = True) -> LineRead:
        self.images.append(image)
        return LineRead(self.texts.pop(0) if self.texts else "", 0.9)


def test_the_corner_is_read_as_it_is_first_and_a_cleaned_line_only_when_it_shows_no_figure():
    face = render_proxy("Mabosstiff", kind="pokemon", seed=1, hp=130).image[:, :, :3].copy()
    band = title_band(face, _quad(face))
    clear = _Script("HP130")
    assert read_hit_points(clear, band) == "130"
    assert len(clear.images) == 1 and clear.images[0].ndim == 3  # the corner, colours and all
    height, width = clear.images[0].shape[:2]
    assert width / height == pytest.approx((HP_CORNER[2] - HP_CORNER[0]) / (HP_CORNER[3] - HP_CORNER[1])
                                           * band.shape[1] / band.shape[0] * 0.2, rel=0.1)
    unclear = _Script("HP", "130")
    assert read_hit_points(unclear, band) == "130" and len(unclear.images) == 2
    assert unclear.images[1].ndim == 2  # the line of strokes found there, cleaned
    assert read_hit_points(_Script("4", "1"), band) == "4"  # no figure: the first digits read


@needs_pp_ocr
def test_a_white_figure_on_a_dark_bar_is_read():
    face = _on_a_dark_bar("Mabosstiff", 130)
    assert "130" in read_hit_points(pp_ocr.PPOCR(), title_band(face, _quad(face)))


@needs_pp_ocr
def test_a_title_read_as_a_name_and_its_ex_twin_is_settled_by_a_white_figure():
    deck = [("Bombirdier", "sv1-138"), ("Bombirdier ex", "sv4pt5-83"), ("Skwovet", "sv1-151")]
    hit_points = {"Bombirdier": {110}, "Bombirdier ex": {200}, "Skwovet": {60}}
    matcher = NameMatcher(deck, deck=deck, hit_points=hit_points)
    face = _on_a_dark_bar("Bombirdier", 110)
    big = cv2.copyMakeBorder(face, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(60, 90, 60))
    reading = Recognizer(matcher, engine=pp_ocr.PPOCR(), by_text=False).read(
        big, _quad(face) + np.float32([40, 40]))
    assert reading is not None and reading.name == "Bombirdier"


def test_a_corner_read_holding_two_figures_gets_the_cleaned_line_read_too():
    """"7090" holds 70 and 90 (a "7" from the small "HP" letters): it would leave Flaaffy
    (90) and Flaaffy δ (70) tied, so the cleaned line is read, and its one figure kept."""
    face = render_proxy("Flaaffy", kind="pokemon", seed=1, hp=90).image[:, :, :3].copy()
    band = title_band(face, _quad(face))
    two = _Script("HP7090", "90")
    assert read_hit_points(two, band) == "90" and len(two.images) == 2
    one = _Script("HP130")  # 30 within 130 is one print, not a second figure
    assert read_hit_points(one, band) == "130" and len(one.images) == 1
    assert read_hit_points(_Script("7090", "HP"), band) == "7090"  # no better read: the first


def test_a_figure_cut_by_an_outline_a_little_off_is_read_from_the_wide_corner():
    """An outline a few percent narrow cuts the last digit of "150" from the corner and
    from the line found there ("15", "1"): the corner taken wide, to the card's edge, is
    read next, as it is."""
    face = render_proxy("Arboliva", kind="pokemon", seed=1, hp=150).image[:, :, :3].copy()
    band = title_band(face, _quad(face))
    cut = _Script("15", "1", "150")
    assert read_hit_points(cut, band) == "150" and len(cut.images) == 3
    corner, wide = cut.images[0], cut.images[2]
    assert wide.ndim == 3 and wide.shape[1] > corner.shape[1]  # as it is, and wider
