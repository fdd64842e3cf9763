"""A card's side is its outer edge, not a zone outline printed on the mat just outside it.

Going inward across a card's edge the colour steps from the mat's to the card's own and
stays there; across a printed line it leaves the mat's tone and comes back to it before
the card. ``refine`` (on the finder's fine copy) moves a side found on such a line onto
the card within it, and leaves a side on a card's own border where it is, however faint
(silver on grey), bright (yellow) or dark (a sleeve's rim) that border is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.finding.config import FinderConfig
from vision.finding.refine import off_printed_lines, refine
from vision.geometry import iou

MAT = (150, 150, 150)
#: The card on the fine copy: x 100..244, y 100..300 (a card's proportions).
CARD = np.float32([[100, 100], [244, 100], [244, 300], [100, 300]])


def _table(border: tuple[int, int, int], border_px: int = 5, line: tuple[int, int, int] | None = None,
           line_gap: int = 12, line_px: int = 3) -> np.ndarray:
    """A grey mat with one card (a ``border`` of ``border_px`` around busy art) and, if
    ``line``, a zone outline of ``line_px`` printed ``line_gap`` px outside the card."""
    rng = np.random.default_rng(3)
    image = np.empty((400, 350, 3), np.uint8)
    image[:] = MAT
    image[:] = np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)  # the mat's grain
    if line is not None:
        x0, y0, x1, y1 = 100 - line_gap, 100 - line_gap, 244 + line_gap, 300 + line_gap
        cv2.rectangle(image, (x0, y0), (x1, y1), line, line_px)
    cv2.rectangle(image, (100, 100), (243, 299), border, -1)
    art = rng.integers(0, 255, (200 - 2 * border_px, 144 - 2 * border_px, 3), np.uint8)
    image[100 + border_px:300 - border_px, 100 + border_px:244 - border_px] = cv2.GaussianBlur(art, (9, 9), 3)
    return image


def _grown(quad: np.ndarray, px: float) -> np.ndarray:
    """An upright ``quad`` with every side ``px`` further out."""
    centre = quad.mean(axis=0)
    return (centre + (quad - centre) * (1 + px / np.abs(quad - centre))).astype(np.float32)


@pytest.mark.parametrize("line", [(235, 235, 235), (40, 40, 40), (60, 170, 230)])
def test_a_side_on_a_printed_zone_outline_moves_in_onto_the_card(line: tuple[int, int, int]) -> None:
    image = _table((60, 200, 230), line=line)
    on_line = _grown(CARD, 13.5)  # the line's outer edge (its pixels lie 11..13 px out)
    moved = off_printed_lines(image, on_line[None])[0]
    assert np.abs(moved - CARD).max() <= 1.5


@pytest.mark.parametrize("border", [(200, 200, 200), (165, 160, 160), (60, 200, 230), (20, 20, 20)],
                         ids=["white", "silver on grey", "yellow", "dark sleeve rim"])
def test_a_side_on_the_cards_own_border_stays(border: tuple[int, int, int]) -> None:
    image = _table(border, border_px=6)
    assert np.array_equal(off_printed_lines(image, CARD[None])[0], CARD)


def test_a_card_whose_art_matches_the_mat_in_places_keeps_its_outline() -> None:
    image = _table((60, 200, 230), border_px=4)
    # Stripes of the mat's own grey across the art, square to the sides.
    for at in range(110, 236, 12):
        image[104:296, at:at + 3] = MAT
        image[at:at + 3, 104:240] = MAT
    assert np.array_equal(off_printed_lines(image, CARD[None])[0], CARD)


def test_a_pale_text_box_inside_the_border_on_a_pale_mat_keeps_the_outline() -> None:
    # Just inside the yellow border the face is nearly the mat's tone, a little paler
    # all along the side: the border is the card's, not a line printed on the mat.
    image = _table((60, 200, 230), border_px=4)
    image[200:296, 104:240] = np.add(MAT, 18)
    assert np.array_equal(off_printed_lines(image, CARD[None])[0], CARD)


def test_a_quad_already_inside_a_card_does_not_come_in_off_a_bar_on_the_card() -> None:
    # The quad's top lies a little inside the card, above a thin dark bar printed on the
    # card: outside the side is the card, not the mat, and the bar looks like a printed
    # line. Coming in onto the art below it would leave a quad squatter than a card.
    image = _table((90, 120, 160), border_px=40)
    image[128:131, 100:244] = (30, 30, 30)
    inside = CARD.copy()
    inside[:2, 1] = 125
    assert np.array_equal(off_printed_lines(image, inside[None])[0], inside)


def test_a_side_with_no_card_edge_inside_the_line_stays() -> None:
    image = np.full((400, 350, 3), MAT, np.uint8)
    cv2.rectangle(image, (88, 88), (256, 312), (40, 40, 40), 3)  # an empty zone
    empty = np.float32([[87, 87], [257, 87], [257, 313], [87, 313]])
    assert np.array_equal(off_printed_lines(image, empty[None])[0], empty)


def test_refine_puts_a_quad_found_on_a_zone_outline_on_the_card() -> None:
    image = _table((200, 200, 200), line=(40, 40, 40), line_gap=10)
    found = _grown(CARD, 11.5)
    refined = refine(image, found[None], 3.0, FinderConfig())[0]
    assert iou(refined, CARD) > 0.97


def test_refine_keeps_a_card_on_a_mat_without_lines() -> None:
    image = _table((165, 160, 160), border_px=6)
    refined = refine(image, _grown(CARD, 1.0)[None], 3.0, FinderConfig())[0]
    assert iou(refined, CARD) > 0.97
