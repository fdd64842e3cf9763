"""The card judge: what a found outline holds. A card's back is a face-down card (a
Prize, the deck), never a card to name; a printed zone outline, an empty sleeve, a deck
box, a label, dice, damage counters and a coin are no card at all."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_scenes import NAMES, kind

from vision.card_judge import (
    MAX_HALF_FLAT,
    MAX_HALF_FLAT_STEEP,
    MAX_SKEW,
    MIN_SIDE_STEP,
    STEEP_BUSY,
    STEEP_ENDS_STEP,
    UNREAD_SKEW,
    Kind,
    between_cards,
    judge,
    judge_all,
    looks,
    part_of_a_card,
    skew,
    smaller_than_the_table,
    square_enough,
)
from vision.card_reading import CardReading, face_down
from vision.decoys import BACK, DECOY_KINDS, card_back, decoy
from vision.names import NameMatcher
from vision.recognize import Recognizer, _whole_cards
from vision.synthetic import SceneStyle, compose, generated_mat, render_proxy

#: A plain table: the judge is about what lies there, not about hard pictures.
PLAIN = SceneStyle(height_range=(260, 330), same_size=True, max_tilt_deg=6, jitter_deg=4,
                   touching=0.0, sleeves=0.0, glare=0.0, blur=(0, 0.4), noise=(0, 2))


def _table(faces: list, seed: int):
    return compose(generated_mat((1920, 1080), seed), faces, PLAIN, seed=seed)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_cards_back_is_face_down_and_a_cards_face_is_a_face(seed):
    faces = [render_proxy(n, i, kind(n), seed=seed * 10 + k) for k, (n, i) in enumerate(NAMES[:4])]
    sc = _table(faces + [card_back(seed), card_back(seed + 7)], seed)
    kinds = {c.name: judge(sc.image, c.quad) for c in sc.cards if c.card_id != BACK}
    assert kinds == {n: Kind.FACE for n, _ in NAMES[:4]}
    assert [judge(sc.image, c.quad) for c in sc.cards if c.card_id == BACK] == [Kind.BACK] * 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_what_lies_on_a_table_and_is_no_card_is_judged_no_card(seed):
    # Each thing judged by the card-sized outline around it: a printed zone outline, a
    # sleeve (back up, or empty and clear) and a deck box are card-shaped themselves.
    sc = _table([decoy(k, seed) for k in DECOY_KINDS], seed)
    assert {c.name: judge(sc.image, c.quad) for c in sc.cards} == dict.fromkeys(DECOY_KINDS, Kind.NOT_A_CARD)


def test_a_printed_line_around_the_table_is_no_cards_outline_but_a_cards_edge_is():
    # A zone outline has the table on both sides of its line; a card's border differs
    # from the table beside it on every side.
    mat = np.full((600, 600, 3), (60, 110, 60), np.uint8)
    quad = np.float32([[200, 150], [343, 150], [343, 350], [200, 350]])
    outline = mat.copy()
    cv2.polylines(outline, [quad.astype(np.int32)], True, (230, 230, 230), 4)
    card = mat.copy()
    cv2.fillConvexPoly(card, quad.astype(np.int32), (200, 200, 205))
    rng = np.random.default_rng(0)
    inside = card[160:340, 210:333]
    inside[:] = rng.integers(0, 255, inside.shape, dtype=np.uint8)  # busy, like printing
    assert looks(outline, quad).weakest_side < MIN_SIDE_STEP <= looks(card, quad).weakest_side


def test_an_outline_far_from_square_is_no_card():
    # Mat print gives quads that are parallelograms; a card seen by a camera up to 20°
    # off vertical keeps its corners near square.
    sc = _table([render_proxy("Ralts", "sv1-84", seed=2)], 2)
    card = sc.cards[0].quad
    along = (card[1] - card[0]) * 0.35  # top corners one way along the top, bottom ones the other
    sheared = card + np.stack([along, along, -along, -along])
    assert judge(sc.image, card) is Kind.FACE
    assert skew(sheared) > MAX_SKEW and judge(sc.image, sheared) is Kind.NOT_A_CARD


def _deck_box_beside_the_table(box_share: float, box: tuple[int, int, int] = (150, 90, 140)
                               ) -> tuple[np.ndarray, np.ndarray]:
    """A frame and a card-shaped outline whose upper ``box_share`` is a flat deck box (of
    colour ``box``, BGR) and the rest a strip of the table's busy print beside it."""
    mat = np.full((600, 600, 3), (60, 110, 60), np.uint8)
    quad = np.float32([[200, 150], [343, 150], [343, 350], [200, 350]])
    frame = mat.copy()
    split = int(150 + 200 * box_share)
    frame[150:split, 200:343] = box  # a deck box, one flat colour
    strip = frame[split:350, 200:343]
    strip[:] = np.random.default_rng(1).integers(0, 255, strip.shape, dtype=np.uint8)
    return frame, quad


def test_an_outline_around_a_deck_box_and_the_table_beside_it_is_no_card():
    # The finder snaps an outline around a deck box with the table beside it: busy, and
    # flat over half of it only, but one flat colour over all of the half the box fills.
    frame, quad = _deck_box_beside_the_table(0.5)
    seen = looks(frame, quad)
    assert seen.busy >= 0.5 and seen.flat <= 0.6
    assert judge(frame, quad) is Kind.NOT_A_CARD
    # A card whose art box is one flat colour over a third of it is still a card.
    frame, quad = _deck_box_beside_the_table(0.3)
    assert judge(frame, quad) is Kind.FACE


def test_a_box_with_a_label_beside_the_table_is_no_card_where_its_ends_are_far_apart():
    # A label printed on the box leaves its half less than wholly flat; where the box's
    # end and the table's are far apart in colour, that half is still flat enough.
    frame, quad = _deck_box_beside_the_table(0.5, box=(40, 20, 60))
    frame[170:182, 230:313] = (230, 230, 230)  # a pale label on a dark box
    seen = looks(frame, quad)
    assert seen.ends_step >= STEEP_ENDS_STEP and MAX_HALF_FLAT_STEEP < seen.half_flat <= MAX_HALF_FLAT
    assert seen.busy < STEEP_BUSY  # the box's half has no detail
    assert judge(frame, quad) is Kind.NOT_A_CARD
    # A bigger label: the half is as busy as a card's text box, and it stays a card.
    frame[182:184, 230:313] = (230, 230, 230)
    assert looks(frame, quad).half_flat < MAX_HALF_FLAT_STEEP and judge(frame, quad) is Kind.FACE


def test_a_face_down_card_is_reported_with_no_name_and_faces_keep_their_keys():
    quad = np.float32([[100, 100], [100, 300], [243, 300], [243, 100]])  # lying as found
    back = face_down(quad).to_json()
    assert back["face_down"] is True and back["name"] is None and back["id"] is None
    assert back["rotation"] in (0, 180)  # a short side first: no end of a back is its top
    face = CardReading(quad, 0, "Ralts", "sv1-84", 0.97).to_json()
    assert set(face) == {"name", "id", "confidence", "quad", "rotation"}  # SPEC §2, unchanged


def test_recognize_reports_backs_face_down_and_nothing_for_what_is_no_card():
    names = NAMES[:3]
    faces = [render_proxy(n, i, kind(n), seed=k) for k, (n, i) in enumerate(names)]
    props = [card_back(3), decoy("zone", 4), decoy("sleeve", 5), decoy("deck_box", 6)]
    sc = _table(faces + props, 3)
    readings = Recognizer(NameMatcher(list(NAMES)), by_text=False).recognize(sc.image)
    assert sorted(r.name for r in readings if not r.face_down) == sorted(n for n, _ in names)
    down = [r for r in readings if r.face_down]
    assert len(down) == 1 and down[0].name is None
    back = next(c for c in sc.cards if c.card_id == BACK)
    assert np.abs(np.sort(down[0].quad, axis=0) - np.sort(back.quad, axis=0)).max() < 0.05 * back.height_px


def _laid(heights: list[int], seed: int = 4) -> tuple[np.ndarray, list[np.ndarray]]:
    """Proxy cards of these ``heights`` (px) laid upright in a row on a generated mat, and
    their outlines."""
    frame = generated_mat((1920, 1080), seed)
    quads, x = [], 60
    for k, height in enumerate(heights):
        face = render_proxy(*NAMES[k % len(NAMES)], kind(NAMES[k % len(NAMES)][0]), seed=seed * 10 + k).image
        width = round(height * 63 / 88)
        card = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
        alpha = card[..., 3:] / 255.0
        y = 300
        spot = frame[y:y + height, x:x + width]
        spot[:] = (card[..., :3] * alpha + spot * (1 - alpha)).astype(np.uint8)
        quads.append(np.float32([[x, y], [x + width, y], [x + width, y + height], [x, y + height]]))
        x += width + 40
    return frame, quads


def test_a_card_far_smaller_than_the_tables_cards_is_no_card():
    # A card printed small in the mat's art or its stream overlay, or the part of a card
    # beside a hand over it, looks like a card on its own; only the table's cards, all of
    # one size, give it away.
    frame, quads = _laid([300, 296, 304, 300, 300, 210])
    assert judge(frame, quads[-1]) is Kind.FACE
    assert judge_all(frame, quads) == [Kind.FACE] * 5 + [Kind.NOT_A_CARD]


def test_cards_of_unlike_sizes_tell_no_size_of_the_table():
    # Too few cards, or cards that do not agree on a size, judge no card by its size.
    frame, quads = _laid([300, 300, 210])
    assert judge_all(frame, quads) == [Kind.FACE] * 3
    frame, quads = _laid([300, 360, 240, 330, 270, 210])
    assert judge_all(frame, quads) == [Kind.FACE] * 6


def test_the_tables_card_size_is_told_by_its_bigger_cards():
    # The parts of cards cut by hands are among the cards judged: the table's size is a
    # high quantile, so that two parts of five do not make the whole cards look big.
    longs = np.array([300, 302, 298, 215, 210])
    assert smaller_than_the_table(longs).tolist() == [False, False, False, True, True]
    assert not smaller_than_the_table(np.array([300, 302, 298, 240, 231])).any()  # perspective


def _column(tops: list[int], height: int = 300, x: int = 400, seed: int = 5) -> tuple[np.ndarray, list[np.ndarray]]:
    """Proxy cards of ``height`` px laid upright one above another at ``tops``, and their
    outlines."""
    frame = generated_mat((1920, 1080), seed)
    width = round(height * 63 / 88)
    quads = []
    for k, top in enumerate(tops):
        face = render_proxy(*NAMES[k], kind(NAMES[k][0]), seed=seed * 10 + k).image
        card = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
        alpha = card[..., 3:] / 255.0
        spot = frame[top:top + height, x:x + width]
        spot[:] = (card[..., :3] * alpha + spot * (1 - alpha)).astype(np.uint8)
        quads.append(np.float32([[x, top], [x + width, top], [x + width, top + height], [x, top + height]]))
    return frame, quads


def test_an_outline_two_cards_cover_a_third_of_between_them_is_no_card():
    # The end of one card, the mat between, the top of the next: where the mat's print
    # edges it, such an outline is busy, edged all round and a card's size. Here a card
    # laid over both makes one: on its own it is a card; the two it lies across, a
    # third of it between them, make it the gap between them.
    frame, (upper, lower, between) = _column([40, 545, 280])
    assert judge(frame, between) is Kind.FACE
    assert judge_all(frame, [upper, between, lower]) == [Kind.FACE, Kind.NOT_A_CARD, Kind.FACE]
    assert between_cards([upper, between, lower]).tolist() == [False, True, False]


def test_cards_overlapping_their_neighbours_a_little_stay_cards():
    frame, quads = _column([40, 310, 580])  # each overlaps the next by 30 px, a tenth
    assert judge_all(frame, quads) == [Kind.FACE] * 3
    # One outline over a third of another is a matter for choosing outlines, not the judge.
    assert not between_cards([quads[0], quads[0] + np.float32([0, 200])]).any()


def _upper_part(card: np.ndarray) -> np.ndarray:
    """The outline of the upper 0.6 of an upright ``card`` (its title and picture)."""
    upper = card.copy()
    upper[2:, 1] = card[0, 1] + 0.6 * (card[2, 1] - card[0, 1])
    return upper


def test_an_outline_whose_sides_run_on_past_its_end_is_a_part_of_a_card():
    # The upper part of a card (title and picture, the rest under a hand): its sides are
    # the card's, and they run on past its lower end; a whole card's end at its corners.
    # Its long side is the card's width, 215 px of the card's 300.
    frame, (card,) = _column([300])
    upper = _upper_part(card)
    assert part_of_a_card(frame, upper, biggest=300)
    assert not part_of_a_card(frame, card, biggest=300)
    # A card alone on the mat is no part of one, however it lies.
    assert not part_of_a_card(frame, card[[1, 2, 3, 0]], biggest=300)
    # Nor is an outline nearly as long as the frame's biggest card (cards touching end
    # to end run on into one another).
    assert not part_of_a_card(frame, upper, biggest=260)


def test_a_part_of_a_card_is_reported_only_when_its_title_was_read():
    # Cards touching end to end, or laid on a zone line, have sides that run on too: an
    # outline whose title names its card stays a card.
    frame, (card,) = _column([300])
    upper = _upper_part(card)
    unread = CardReading(upper, 0, None, None, 0.0)
    named = CardReading(upper, 0, NAMES[0][0], NAMES[0][1], 0.9)
    whole = CardReading(card, 0, None, None, 0.0)
    assert _whole_cards(frame, [unread, named, whole]) == [named, whole]


def test_an_outline_leaning_off_square_is_reported_only_when_its_title_was_read():
    # A corner pulled 40 px along the card's bottom: the outline leans ~8° off square,
    # less than the judge allows any outline, more than a card under a webcam leans.
    frame, (card,) = _column([300])
    leaning = card.copy()
    leaning[2, 0] += 40
    assert UNREAD_SKEW < skew(leaning) < MAX_SKEW
    assert square_enough(card) and not square_enough(leaning)
    unread = CardReading(leaning, 0, None, None, 0.0)
    named = CardReading(leaning, 0, NAMES[0][0], NAMES[0][1], 0.9)
    back = face_down(leaning)
    assert _whole_cards(frame, [unread, named, back]) == [named, back]
    # A photo of a card held up to the camera may lean any way.
    assert _whole_cards(frame, [unread], close_up=True) == [unread]
