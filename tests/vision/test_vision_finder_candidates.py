"""Rough candidates the finder's last look proposes from corners: a card bigger than
most whose border the segment detector broke into short pieces."""

from __future__ import annotations

import numpy as np

from vision.finding.corners import (
    BIGGER_CARD,
    BROKEN_SIDE,
    CORNER_GAP,
    SMALLER_CARD,
    corner_quads,
    right_angles,
)
from vision.geometry import CARD_ASPECT, iou

#: Card sizes the finder accepts in its search copy (1080p frames at 640 px), and the
#: table's typical card there.
LO, HI, TYPICAL = 140 / 3, 560 / 3, 123.0


def _pieces(a: np.ndarray, b: np.ndarray, piece: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """A side from ``a`` to ``b`` as the segment detector sees a busy border: a piece
    ``piece`` long at each end and one in the middle."""
    along = (b - a) / np.linalg.norm(b - a)
    middle = (a + b) / 2
    return [(a, a + along * piece), (b - along * piece, b),
            (middle - along * piece / 2, middle + along * piece / 2)]


def _card(long: float, at: tuple[float, float] = (200.0, 100.0)) -> np.ndarray:
    x, y = at
    return np.float32([[x, y], [x + long * CARD_ASPECT, y], [x + long * CARD_ASPECT, y + long], [x, y + long]])


def _corners(card: np.ndarray, piece: float):
    segments = [seg for k in range(4) for seg in _pieces(card[k], card[(k + 1) % 4], piece)]
    return right_angles((np.float32([s for s, _e in segments]), np.float32([e for _s, e in segments])))


def _last_look(corners, bigger: bool = True) -> np.ndarray:
    """The last look's corner hypotheses, as ``vision.finder.find_cards`` makes them."""
    last = [corner_quads(corners, LO, HI, [TYPICAL], CORNER_GAP),
            corner_quads(corners, LO, HI, [TYPICAL * SMALLER_CARD], own_sizes=False)]
    if bigger:
        last.append(corner_quads(corners, LO, HI, [TYPICAL * BIGGER_CARD], own_sizes=False,
                                 broken=BROKEN_SIDE))
    return np.concatenate(last)


def _best(quads: np.ndarray, card: np.ndarray) -> float:
    return max((iou(q, card) for q in quads), default=0.0)


def test_a_card_bigger_than_most_with_its_border_in_pieces_is_proposed():
    # Koraidon ex on a tune frame: 137 px long where the table's typical card is 123,
    # its yellow border found as pieces of 10-38 px. No segment spans a side, so no
    # hypothesis has the card's own size; one of the table's size is a tenth too short,
    # and snapping it slid into the touching neighbour.
    card = _card(TYPICAL * 1.11)
    corners = _corners(card, piece=30)
    assert _best(corner_quads(corners, LO, HI, []), card) < 0.5
    assert _best(_last_look(corners, bigger=False), card) < 0.9
    assert _best(_last_look(corners), card) > 0.97


def test_a_corner_with_a_side_seen_whole_gets_no_bigger_card():
    # A segment along most of a side gives a hypothesis of about the card's own size:
    # the bigger card is proposed only where the sides are in pieces (fewer hypotheses,
    # fewer outlines that are no card).
    card = _card(TYPICAL * 1.11)
    width = float(card[1, 0] - card[0, 0])
    corners = _corners(card, piece=0.85 * width)
    bigger = corner_quads(corners, LO, HI, [TYPICAL * BIGGER_CARD], own_sizes=False, broken=BROKEN_SIDE)
    assert len(bigger) == 0
    assert _best(corner_quads(corners, LO, HI, []), card) > 0.7
