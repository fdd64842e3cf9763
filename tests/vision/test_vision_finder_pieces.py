"""A card cut into pieces by a hand or a glare across it: its pieces are card-shaped, so
they must neither pass for the table's card size nor keep the whole card out."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finding.select import cut_cards, join_cut_cards, joined_card, select_cards, table_card
from vision.geometry import CARD_ASPECT, iou


def _rect(cx: float, cy: float, w: float, h: float, turn: float = 0.0) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), turn)).astype(np.float32)


#: A card 100 wide and 140 tall (search pixels).
WIDTH, HEIGHT = 100.0, 100.0 / CARD_ASPECT


def _pieces(cx: float, cy: float, turn: float = 0.0, reach: float = 0.56) -> list[np.ndarray]:
    """The two card-shaped pieces a hand across the middle of a card at (cx, cy) leaves:
    each from one end of the card to ``reach`` of its length (past the middle, under the
    hand), as wide as the card."""
    piece = reach * HEIGHT
    shift = (HEIGHT - piece) / 2
    t = np.radians(turn)
    along = np.float32([-np.sin(t), np.cos(t)])  # the card's long axis
    return [_rect(cx + s * shift * along[0], cy + s * shift * along[1], WIDTH, piece, turn) for s in (-1, 1)]


def test_the_two_pieces_of_a_cut_card_make_one_card_of_the_cards_length():
    pairs = cut_cards(_pieces(300, 300, turn=20))
    assert len(pairs) == 1
    assert abs(pairs[0][2] - HEIGHT) < 2


def test_two_cards_side_by_side_are_not_the_pieces_of_one():
    # Together they make a card's proportions too (a card's sides are about 1 : √2),
    # but they do not overlap.
    left, right = _rect(200, 300, WIDTH, HEIGHT), _rect(200 + WIDTH + 2, 300, WIDTH, HEIGHT)
    assert cut_cards([left, right]) == []
    # Nor are two cards one above the other, nor a card and a piece of another.
    assert cut_cards([_rect(200, 300, WIDTH, HEIGHT), _rect(200, 300 + HEIGHT + 2, WIDTH, HEIGHT)]) == []


def test_a_table_where_a_hand_cuts_every_card_keeps_the_cards_size():
    # Four cards, each cut in two: the pieces (as long as a card is wide) must not
    # become the table's card size, or the whole cards look too big beside them.
    first = [p for k in range(4) for p in _pieces(200 + 250 * k, 300, turn=5 * k)]
    assert abs(table_card(first) - HEIGHT) < 0.05 * HEIGHT
    # A table of whole cards keeps its size as before.
    whole = [_rect(200 + 150 * k, 300, WIDTH, HEIGHT) for k in range(4)]
    assert abs(table_card(whole) - HEIGHT) < 1


def test_a_whole_card_replaces_a_small_piece_of_it_lying_the_same_way_round():
    # A strip of a card's picture left beside a hand is a fifth of the card, upright as
    # the card is; the whole card around it, a little less well outlined, is the card.
    card = _rect(300, 300, WIDTH, HEIGHT)
    strip = _rect(270, 260, 40, 70)
    assert [q.tolist() for q in select_cards([(0.9, strip), (0.8, card)])] == [card.tolist()]


def test_the_two_pieces_of_a_cut_card_are_reported_as_that_card():
    card = _rect(300, 300, WIDTH, HEIGHT, 20)
    one, other = _pieces(300, 300, turn=20)
    assert iou(joined_card(one, other), card) > 0.99
    # On a table where a hand cuts every card, each pair becomes its card, whole.
    first = [p for k in range(4) for p in _pieces(200 + 250 * k, 300, turn=5 * k)]
    joined = join_cut_cards(first)
    assert len(joined) == 4
    for k, quad in enumerate(joined):
        assert iou(quad, _rect(200 + 250 * k, 300, WIDTH, HEIGHT, 5 * k)) > 0.99


def test_whole_cards_and_a_lone_piece_are_left_as_they_are():
    table = [_rect(200 + 150 * k, 300, WIDTH, HEIGHT) for k in range(4)] + _pieces(900, 300)[:1]
    assert [q.tolist() for q in join_cut_cards(table)] == [q.tolist() for q in table]


def test_two_touching_cards_whose_outlines_overlap_are_not_joined_into_one():
    # Two cards lying sideways, one above the other, their found outlines overlapping by
    # a few pixels: they have a cut card's pieces' shape, but together they are twice
    # the size of the table's other cards.
    upper = _rect(300, 300, HEIGHT, WIDTH)
    lower = _rect(300, 300 + WIDTH - 8, HEIGHT, WIDTH)
    assert cut_cards([upper, lower])  # a pair by shape alone
    table = [upper, lower] + [_rect(600 + 150 * k, 300, WIDTH, HEIGHT) for k in range(3)]
    assert len(join_cut_cards(table)) == 5


def test_cut_cards_that_agree_on_a_length_set_the_tables_size_among_lone_pieces():
    # A hand over every card: two cards' pieces pair up, six cards left one piece each
    # (the other lost under the hand). The lone pieces outnumber the pairs, but they are
    # as long as a card is wide: the pairs, alike, tell the card's length.
    pairs = [p for k in range(2) for p in _pieces(200 + 250 * k, 300, turn=5 * k)]
    lone = [_pieces(200 + 250 * k, 700)[k % 2] for k in range(6)]
    assert abs(table_card(pairs + lone) - HEIGHT) < 0.05 * HEIGHT
    joined = join_cut_cards(pairs + lone)
    assert len(joined) == 8
    for k in range(2):
        assert iou(joined[k], _rect(200 + 250 * k, 300, WIDTH, HEIGHT, 5 * k)) > 0.99


def test_one_pair_among_lone_pieces_does_not_set_the_tables_size():
    # One pair may be two touching cards: alone, it does not outweigh the others.
    pair = _pieces(200, 300)
    lone = [_pieces(200 + 250 * k, 700)[k % 2] for k in range(6)]
    assert abs(table_card(pair + lone) - WIDTH) < 0.05 * WIDTH
