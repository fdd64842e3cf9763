"""The way up from the printed layout alone: the picture is above the text."""

import numpy as np
import pytest
from vision_scenes import CountingTesseract

import vision.recognize
from vision.card_reading import MAX_READS, SHIFTED_READS, SURE_LEAN, SURE_READS
from vision.geometry import turn_180
from vision.layout import lean
from vision.names import NameMatcher
from vision.ocr import Tesseract
from vision.recognize import Recognizer
from vision.synthetic import SceneStyle, compose, generated_mat, render_proxy

STILL = SceneStyle(height_range=(240, 300), rotations=(0, 90, 180, 270), max_tilt_deg=8,
                   touching=0.0, sleeves=0.0, glare=0.0, occlusion=0.0, blur=(0, 0.5), noise=(0, 3))


def _table(kind: str, names: list[str], seed: int):
    faces = [render_proxy(name, None, kind, seed=seed + k) for k, name in enumerate(names)]
    return compose(generated_mat((1920, 1080), seed), faces, STILL, seed=seed)


@pytest.mark.parametrize("kind", ["pokemon", "energy"])
def test_the_picture_above_the_text_tells_the_top(kind):
    # (Our trainer proxies, a flat picture over plain text, are a poorer likeness of a
    # real trainer; bench/vision measures the real cards.)
    sc = _table(kind, ["Pikachu", "Nest Ball", "Basic Fire Energy", "Skwovet"], seed=11)
    for card in sc.cards:
        assert lean(sc.image, card.quad) > 0
        assert lean(sc.image, turn_180(card.quad)) < 0


def _pikachu_reader(engine: Tesseract) -> Recognizer:
    return Recognizer(NameMatcher([("Pikachu", "sv4pt5-131")], [("Pikachu", "sv4pt5-131")]),
                      engine=engine)


def test_a_card_nobody_declared_turns_by_its_layout_and_costs_one_end():
    # "Tinkaton" is in no candidate list: neither end can name it, so its way up comes
    # from the layout, and a sure layout gives the upside-down end one look only (and the
    # likelier end a look past its edge).
    sc = _table("pokemon", ["Tinkaton"], seed=3)
    card = sc.cards[0]
    engine = CountingTesseract()
    recognizer = _pikachu_reader(engine)
    for quad in (card.quad, turn_180(card.quad)):
        assert abs(lean(sc.image, quad)) >= SURE_LEAN
        engine.calls = 0
        reading = recognizer.read(sc.image, np.asarray(quad))
        assert reading is not None and reading.name is None
        assert reading.rotation == card.rotation
        assert engine.calls <= MAX_READS + SURE_READS + SHIFTED_READS


def test_a_sure_but_wrong_layout_is_overruled_by_the_name_at_the_other_end(monkeypatch):
    # A full-art card can fool the layout however sure it is; the one look at the other
    # end then finds the name there, and the card is not reported upside down (Confused).
    sc = _table("pokemon", ["Pikachu"], seed=3)
    card = sc.cards[0]
    monkeypatch.setattr(vision.recognize, "layout_lean", lambda frame, quad: 3.0)
    reading = _pikachu_reader(CountingTesseract()).read(sc.image, turn_180(card.quad))
    assert reading is not None and reading.name == "Pikachu"
    assert reading.rotation == card.rotation


def test_an_unsure_layout_reads_the_other_ends_title_before_the_rest_of_its_own(monkeypatch):
    # The layout leans a little the wrong way: the upside-down end's likeliest line is
    # read first, then the other end's, which names the card; the wrong end's two other
    # lines are never read.
    sc = _table("pokemon", ["Pikachu"], seed=2)
    card = sc.cards[0]
    monkeypatch.setattr(vision.recognize, "layout_lean", lambda frame, quad: SURE_LEAN / 5)
    engine = CountingTesseract()
    reading = _pikachu_reader(engine).read(sc.image, turn_180(card.quad))
    assert reading is not None and reading.name == "Pikachu"
    assert reading.rotation == card.rotation
    assert engine.calls == 2  # one line at each end (reading the wrong end in full: 4)
