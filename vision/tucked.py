"""Energy tucked under a Pokémon with an edge showing.

Players attach Energy by sliding the card under their Pokémon so that a strip of it shows
beyond one of the Pokémon's short edges. From above, that strip is a card-wide band that
starts right at the Pokémon's edge, has a card border down both of its sides and across
its far end, and lies on the table beyond it; a basic Energy's type shows in its colour.

:func:`tucked_energy` looks, in the Pokémon's own straightened frame
(:func:`vision.geometry.warp`), at the band beyond each short edge and names the Energy
whose strip it finds. A strip of bare table has no border; a neighbouring card's edge
neither starts at the Pokémon's edge nor spans its width; a colour far from every type
the deck lists allow is not named: unsure is nothing.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.energy_type import ENERGY_COLOURS, energy_names, energy_type, from_8bit_lab, type_of_colour
from vision.geometry import card_share, region_quad, warp

# The palette and the names of basic Energy live in ``vision.energy_type``; they are
# still reached from here.
__all__ = ["ENERGY_COLOURS", "energy_names", "energy_type", "tucked_energy"]

#: The card's size in its straightened frame (pixels), and how far beyond its edges the
#: frame reaches (shares of the card's width at each side, of its height at each end).
CARD_W, CARD_H = 100, 140
SIDE, END = 0.25, 0.5
#: How much of a tucked card shows (share of the card's height): less is a nudged card's
#: slop, more is a card laid beside rather than under.
SHOWS = (0.08, 0.4)
#: Colour distances (OpenCV's 8-bit Lab): what differs from the table, and what is one
#: border.
TABLE_DIFF, BORDER_SAME = 30.0, 45.0


def tucked_energy(frame: np.ndarray, quad: np.ndarray, allowed: dict[str, str]) -> tuple[str, ...]:
    """The Energy tucked under the card at ``quad`` (printed order) with an edge showing,
    by name: at most one beyond each short edge, only of the types ``allowed`` names
    (:func:`energy_names`); nothing when unsure."""
    if not allowed:
        return ()
    found = []
    for card, ends in _own_outline(np.asarray(quad, dtype=np.float32)):
        for bottom in ends:
            kind = _strip_type(_beyond(frame, card, bottom), allowed)
            if kind is not None:
                found.append(allowed[kind])
    return tuple(found)


def _own_outline(quad: np.ndarray) -> list[tuple[np.ndarray, tuple[bool, ...]]]:
    """Where the card of ``quad`` may lie, each with the ends (True: its bottom) to look
    beyond. The finder may outline a card together with the strip tucked under it: an
    outline taller than a card is then the card at one end and the strip at the other."""
    share = card_share(quad)  # of the outline, the card's own height
    if share > 1 - SHOWS[0] / 2:
        return [(quad, (True, False))]
    return [(region_quad(quad, 0, 0, 1, share), (True,)), (region_quad(quad, 0, 1 - share, 1, 1), (False,))]


def _beyond(frame: np.ndarray, quad: np.ndarray, bottom: bool) -> np.ndarray:
    """The band of table beyond the card's bottom (or top) edge, straightened (Lab,
    float) and seen as if that edge were the bottom: row 0 lies along the edge, and the
    card's width spans columns ``SIDE*CARD_W`` to ``(1+SIDE)*CARD_W``."""
    # The card's own axes, to reach beyond its edges (a homography extrapolates).
    to_card = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad)
    if bottom:
        band = [[-SIDE, 1], [1 + SIDE, 1], [1 + SIDE, 1 + END], [-SIDE, 1 + END]]
    else:  # turned half a turn: the top edge seen as the bottom
        band = [[1 + SIDE, 0], [-SIDE, 0], [-SIDE, -END], [1 + SIDE, -END]]
    region = cv2.perspectiveTransform(np.float32(band).reshape(-1, 1, 2), to_card).reshape(4, 2)
    straight = warp(frame, region, (int(CARD_W * (1 + 2 * SIDE)), int(CARD_H * END)))
    return cv2.cvtColor(straight, cv2.COLOR_BGR2LAB).astype(np.float32)


def _strip_type(band: np.ndarray, allowed: dict[str, str]) -> str | None:
    """The type of the Energy whose strip shows in ``band`` (:func:`_beyond`), or None:
    no such strip, or a colour no allowed type has."""
    c0, c1 = int(SIDE * CARD_W), int((1 + SIDE) * CARD_W)
    side = int(0.08 * CARD_W), int(0.2 * CARD_W)
    rows = slice(int(0.02 * CARD_H), int(0.12 * CARD_H))  # beside the shortest strip
    table = np.concatenate([band[rows, c0 - side[1]:c0 - side[0]].reshape(-1, 3),
                            band[rows, c1 + side[0]:c1 + side[1]].reshape(-1, 3)])
    colour = np.median(table, axis=0)
    if np.median(np.linalg.norm(table - colour, axis=1)) > TABLE_DIFF / 2:
        return None  # no plain table beside the strip: something else lies there
    # Right at the card's edge, the strip spans the card's width, with table either side
    # (most cards have no strip: this is looked at first).
    near = (np.linalg.norm(band[int(0.02 * CARD_H):int(0.07 * CARD_H)] - colour, axis=2) > TABLE_DIFF).mean(axis=0)
    inner = slice(c0 + int(0.1 * CARD_W), c1 - int(0.1 * CARD_W))
    if near[inner].mean() < 0.9 or near[c0 - side[1]:c0 - side[0]].mean() > 0.15 \
            or near[c1 + side[0]:c1 + side[1]].mean() > 0.15:
        return None
    off_table = np.linalg.norm(band - colour, axis=2) > TABLE_DIFF
    # Its far end lies within reach, with table beyond it.
    rows = off_table[:, inner].mean(axis=1)
    ends = np.flatnonzero(rows[int(0.02 * CARD_H):] < 0.3)
    if not len(ends):
        return None
    length = int(ends[0]) + int(0.02 * CARD_H)
    beyond = rows[length + int(0.03 * CARD_H):length + int(0.1 * CARD_H)]
    if not SHOWS[0] * CARD_H <= length <= SHOWS[1] * CARD_H or not len(beyond) or beyond.max() > 0.15:
        return None
    # Its actual sides (a card a little askew under its Pokémon), and a border along
    # both sides and across the far end, all of one colour.
    cols = off_table[int(0.02 * CARD_H):length - 2].mean(axis=0)
    across = np.flatnonzero(cols > 0.5)
    left, right = int(across[0]), int(across[-1])
    width = right - left
    if abs(width - CARD_W) > 0.08 * CARD_W:
        return None
    strip = band[:length]
    borders = [np.median(strip[2:-2, left + 1:left + 3].reshape(-1, 3), axis=0),
               np.median(strip[2:-2, right - 2:right].reshape(-1, 3), axis=0),
               np.median(strip[-3:-1, left + 4:right - 4].reshape(-1, 3), axis=0)]
    if max(np.linalg.norm(a - b) for a in borders for b in borders) > BORDER_SAME:
        return None
    inside = strip[int(0.25 * length):int(0.75 * length) + 1, left + int(0.15 * CARD_W):right - int(0.15 * CARD_W)]
    # Named as a whole card's colour is (``vision.energy_type``): among the allowed types only.
    return type_of_colour(from_8bit_lab(np.median(inside.reshape(-1, 3), axis=0)), allowed)
