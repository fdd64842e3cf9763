"""Finding, straightening, rotation and naming on our own synthetic table frames."""

from dataclasses import replace

import numpy as np
import pytest
from vision_scenes import CLEAN, NAMES, CountingTesseract, scene

import vision.card_reading
from vision.geometry import iou, region_quad
from vision.names import NameMatcher
from vision.ocr import Glyph, LineRead, Tesseract
from vision.recognize import Recognizer
from vision.synthetic import Scene, SceneStyle, compose, generated_mat, render_proxy


def _score(recognizer, sc, at=0.7):
    readings = recognizer.recognize(sc.image)
    found = right = wrong = rot = 0
    for card in sc.cards:
        match = max(readings, key=lambda r: iou(r.quad, card.quad), default=None)
        if match is None or iou(match.quad, card.quad) < at:
            continue
        found += 1
        rot += match.rotation == card.rotation
        if match.name == card.name:
            right += 1
        elif match.name is not None:
            wrong += 1
    return found, right, wrong, rot


@pytest.mark.parametrize("seed", [1, 2])
def test_a_clean_table_is_read(recognizer, seed):
    sc = scene(NAMES[seed * 5:seed * 5 + 6], seed)
    found, right, wrong, rot = _score(recognizer, sc, at=0.8)
    # Every card outlined closely and turned the right way; nothing named wrongly.
    # (How many names are read is the title reader's figure, measured in bench/vision.)
    assert found == len(sc.cards) == 6
    assert rot == found
    assert wrong == 0
    assert right >= 2


def test_a_hard_table_gives_no_wrong_names(recognizer):
    style = SceneStyle(height_range=(220, 420), sleeves=0.5, glare=0.6, occlusion=0.5)
    wrong_total = right_total = found_total = cards = 0
    for seed in (3, 4):
        sc = scene(NAMES[seed:seed + 8], seed, style)
        found, right, wrong, _rot = _score(recognizer, sc)
        wrong_total += wrong
        right_total += right
        found_total += found
        cards += len(sc.cards)
    assert wrong_total == 0
    assert found_total >= cards - 2
    assert right_total >= 4


def test_an_empty_mat_has_no_cards(recognizer):
    sc = scene([], 7, CLEAN)
    assert [r for r in recognizer.recognize(sc.image) if r.name is not None] == []


@pytest.mark.parametrize("kind", ["pokemon", "trainer"])
def test_a_card_is_read_either_way_up_from_its_outline(recognizer, kind):
    # The outline alone does not say which end is the top: the reader decides it.
    import numpy as np

    from vision.geometry import turn_180
    from vision.synthetic import compose, generated_mat, render_proxy

    names = [("Charmeleon", "sv3pt5-5"), ("Greedent", "sv1-152")] if kind == "pokemon" else \
        [("Nest Ball", "sv1-181"), ("Ultra Ball", "sv1-196")]
    faces = [render_proxy(n, i, kind, seed=k) for k, (n, i) in enumerate(names)]
    style = SceneStyle(height_range=(300, 360), rotations=(0, 180), max_tilt_deg=5, touching=0.0,
                       sleeves=0.0, glare=0.0, occlusion=0.0, blur=(0, 0.3), noise=(0, 2))
    sc = compose(generated_mat((1920, 1080), 5), faces, style, seed=5)
    for card in sc.cards:
        for quad in (card.quad, turn_180(card.quad)):
            r = recognizer.read(sc.image, np.asarray(quad))
            assert r is not None and r.rotation == card.rotation
            assert r.name in (card.name, None)


OINKOLOGNE_DECK = [("Oinkologne", "sv1-158"), ("Oinkologne ex", "sv1-159"), ("Lechonk", "sv1-156")]
OINKOLOGNE_HP = {"Oinkologne": {130}, "Oinkologne ex": {260}}


def _oinkologne_pair() -> Scene:
    """A card and its ex side by side: the same printed title, HP 130 and 260."""
    faces = [render_proxy("Oinkologne ex", "sv1-159", "pokemon", seed=1, hp=260),
             render_proxy("Oinkologne", "sv1-158", "pokemon", seed=2, hp=130)]
    style = SceneStyle(height_range=(300, 340), rotations=(0, 180), max_tilt_deg=5, touching=0.0,
                       sleeves=0.0, glare=0.0, occlusion=0.0, blur=(0, 0.3), noise=(0, 2))
    return compose(generated_mat((1920, 1080), 3), faces, style, seed=3)


def test_a_deck_with_a_card_and_its_ex_is_told_apart_by_the_hp():
    # "Oinkologne" and "Oinkologne ex" print the same title (the "ex" is a logo); the
    # deck lists' HP (130 and 260) and the figure on the card settle it.
    sc = _oinkologne_pair()
    engine = Tesseract()
    told = Recognizer(NameMatcher(OINKOLOGNE_DECK, OINKOLOGNE_DECK, OINKOLOGNE_HP), engine=engine)
    untold = Recognizer(NameMatcher(OINKOLOGNE_DECK, OINKOLOGNE_DECK), engine=engine)
    for card in sc.cards:
        assert told.read(sc.image, card.quad).name == card.name
        assert untold.read(sc.image, card.quad).name is None


def test_a_tie_the_hp_can_settle_gets_its_hp_read_at_once(monkeypatch):
    # More reads of the title cannot part "Oinkologne" from "Oinkologne ex": the HP is
    # read right after the title read that shows the tie, not after the title's other
    # crops (five and six OCR calls a card before, two now). The HP's reader is the
    # title's here, so that one engine counts both.
    monkeypatch.setattr(vision.card_reading, "learned_or", lambda engine: engine)
    sc = _oinkologne_pair()
    for card in sc.cards:
        engine = CountingTesseract()
        told = Recognizer(NameMatcher(OINKOLOGNE_DECK, OINKOLOGNE_DECK, OINKOLOGNE_HP), engine=engine)
        assert told.read(sc.image, card.quad).name == card.name
        assert engine.calls == 2  # the title, then the HP


@pytest.mark.parametrize("shifted_reads, named", [(vision.card_reading.SHIFTED_READS, "Greedent"), (0, None)])
def test_an_outline_that_cuts_off_the_title_is_read_past_its_edge(monkeypatch, shifted_reads, named):
    # The finder may take a line inside the card (the art box's edge) for its top, with
    # the title just outside the outline: with deck lists the reader looks past the edge
    # before it gives up (and without that look, the card goes unnamed).
    monkeypatch.setattr(vision.card_reading, "SHIFTED_READS", shifted_reads)
    deck = [("Greedent", "sv1-152"), ("Charmeleon", "sv3pt5-5"), ("Nest Ball", "sv1-181")]
    style = replace(CLEAN, height_range=(280, 320), rotations=(0, 90, 180, 270))
    sc = compose(generated_mat((1920, 1080), 1), [render_proxy("Greedent", None, "pokemon", seed=1)],
                 style, seed=1)
    card = sc.cards[0]
    cut = region_quad(card.quad, 0.0, 0.08, 1.0, 1.08)  # the card's top 8% outside
    reading = Recognizer(NameMatcher(deck, deck)).read(sc.image, cut)
    assert reading is not None and reading.name == named
    assert reading.rotation == card.rotation
    np.testing.assert_allclose(reading.quad, cut)  # the outline found is what is reported


@pytest.mark.parametrize("top, rotation", [(0.16, 90), (0.16, 270), (-0.12, 270)])
def test_an_outline_off_a_cards_proportions_is_read_as_the_card_its_bottom_makes(monkeypatch, top, rotation):
    # An outline whose top lies inside the card (the art box's top taken for the card's:
    # the title cut off) or past it (the mat above taken in) is not card-shaped. With
    # deck lists, when the look past its top names nothing, the reader reads the title
    # of the card its bottom end and its width make; without that, the card goes unnamed.
    deck = [("Greedent", "sv1-152"), ("Charmeleon", "sv3pt5-5"), ("Nest Ball", "sv1-181")]
    style = replace(CLEAN, height_range=(280, 320), rotations=(rotation,))
    sc = compose(generated_mat((1920, 1080), 1), [render_proxy("Greedent", None, "pokemon", seed=1)],
                 style, seed=1)
    card = sc.cards[0]
    off = region_quad(card.quad, 0.0, top, 1.0, 1.0)
    reading = Recognizer(NameMatcher(deck, deck)).read(sc.image, off)
    assert reading is not None and reading.name == "Greedent"
    assert reading.rotation == card.rotation
    np.testing.assert_allclose(reading.quad, off)  # the outline found is what is reported
    monkeypatch.setattr(vision.card_reading, "PROPORTION_SLACK", 1.0)
    assert Recognizer(NameMatcher(deck, deck)).read(sc.image, off).name is None


def test_a_card_named_by_its_glyphs_alone_is_kept():
    # Tesseract at times gives a line's glyphs (with their runners-up) but no text; when
    # those glyphs name a deck card, the card is there, not an outline without letters.
    class GlyphsOnly:
        backend = "glyphs-only"

        def read_line(self, image, either_way=True):
            return LineRead("", 0.9, Glyph.of_text("Ralts"))

    sc = scene([NAMES[4]], 3)
    card = sc.cards[0]
    matcher = NameMatcher(NAMES, deck=NAMES[:8])
    reading = Recognizer(matcher, engine=GlyphsOnly()).read(sc.image, card.quad)
    assert reading is not None and reading.name == "Ralts"
