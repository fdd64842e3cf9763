"""The condition benchmark's helpers (bench/vision/conditions.py): how a frame is scored,
which deck-list decoys it draws from the shared card database, and what is held out."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest
from shared_data import needs_shared
from vision_scenes import NAMES, scene

from bench.vision import conditions, evalset
from vision.card_reading import CardReading


def _reading(card, name: str | None, shift: float = 0.0) -> CardReading:
    return CardReading(card.quad + np.float32([shift, 0]), card.rotation, name, None, 0.9)


def test_a_frame_is_scored_by_what_a_user_would_see():
    cards = scene(NAMES[:4], 1).cards
    readings = [
        _reading(cards[0], cards[0].name),  # right
        _reading(cards[1], "Pikachu"),  # found, wrong name
        _reading(cards[2], None),  # found, not sure
        # cards[3] is not found; and something that is no card is reported:
        _reading(cards[0], None, shift=5 * cards[0].height_px),
    ]
    score = conditions.score_frame(readings, cards)
    assert (score["cards"], score["found"], score["right"], score["wrong"]) == (4, 3, 1, 1)
    assert (score["reported"], score["non_cards"], score["rot"]) == (4, 1, 3)


def test_the_totals_sum_one_readers_cells():
    rows = {
        ((200, 260), "plain", "tesseract"): conditions.Row(Counter(cards=8, right=7, null=1), Counter(right=6)),
        ((330, 440), "glare", "tesseract"): conditions.Row(Counter(cards=6, right=4, wrong=1), Counter(right=3)),
        ((200, 260), "plain", "pp-ocr"): conditions.Row(Counter(cards=8, right=8), Counter(right=8)),
    }
    outlines, frames = conditions.totals(rows, "tesseract")
    assert (outlines["cards"], outlines["right"], outlines["wrong"], frames["right"]) == (14, 11, 1, 9)


def test_an_outline_read_as_nothing_is_not_sure_and_not_turned_right():
    card = scene(NAMES[:1], 2).cards[0]
    assert conditions.score_outline(None, card) == {"cards": 1, "null": 1, "rot": 0}
    assert conditions.score_outline(_reading(card, card.name), card) == {"cards": 1, "right": 1, "rot": 1}


@needs_shared
def test_decoys_are_names_spelled_alike_and_other_printings_of_the_same_name():
    padding = conditions.decoys([("Pawmi", "sv1-74"), ("Smoliv", "sv1-20")])
    names = {name for name, _id in padding}
    assert {"Pawmo", "Pawmot", "Dolliv"} <= names
    assert ("Pawmi", "sv1-74") not in padding
    assert any(name == "Pawmi" for name, _id in padding)  # another printing of Pawmi
    assert any(name == "Smoliv" and card_id != "sv1-20" for name, card_id in padding)


@needs_shared
def test_the_holdout_is_on_mats_the_tune_side_never_sees():
    tune, holdout = evalset.mats("tune"), evalset.mats("holdout")
    assert len(tune) == 3 and len(holdout) == 3  # two real mats and a generated one
    assert not any(np.array_equal(a, b) for a in tune for b in holdout)
    assert {evalset.split_of(c.card_id) for c in evalset.scans("holdout")} == {"holdout"}


@needs_shared
@pytest.mark.parametrize("condition", conditions.CONDITIONS, ids=lambda c: c.name)
def test_every_condition_lays_every_card_it_is_given_at_the_largest_size(condition):
    # A card that does not fit on the mat is silently left out of a frame, and a band
    # would then be measured on fewer cards than the report says.
    scene_, chosen = next(conditions.scenes("holdout", (330, 440), condition, limit=6))
    assert [c.name for c in scene_.cards] == [c.name for c in chosen]


def test_a_card_a_whole_frame_lost_is_told_where_it_was_lost():
    cards = scene(NAMES[:3], 1).cards
    card, other = cards[0], cards[1]
    face, no_card = conditions.Kind.FACE, conditions.Kind.NOT_A_CARD
    named = [_reading(c, c.name) for c in cards]

    def loss(readings, outline_right=True, quads=(), kinds=()):
        lost = conditions.frame_loss(card, cards, readings, outline_right, list(quads), list(kinds))
        return lost and lost[0]

    assert loss(named) is None
    assert loss([_reading(card, "Pikachu")]) == "wrong name"
    assert loss([_reading(card, None)]) == "read none"
    assert loss([_reading(card, None)], outline_right=False) == "unreadable"
    assert loss([_reading(card, None, shift=0.12 * card.height_px)]) == "poor quad"
    assert loss([], quads=[card.quad], kinds=[no_card]) == "judged no card"
    assert loss([], quads=[card.quad], kinds=[face]) == "dropped"
    # One outline around the card and its neighbour (IoU ~0.25 with the card):
    hull = cv2.convexHull(np.concatenate([card.quad, other.quad])).reshape(-1, 2)
    around_both = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    assert loss([], quads=[around_both], kinds=[face]) == "merged"
    assert loss([], quads=[card.quad + np.float32([card.height_px, 0])], kinds=[face]) == "not found"
