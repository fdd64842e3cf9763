"""Choosing the cards among scored quads: the best first, parts of a card giving way
to the whole card, sizes far from the table's typical card scored down, and whole
cards proposed around quads that may be a part of one."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finding.quads import crosswise, long_edges, long_side, quad_areas, side_lengths
from vision.geometry import CARD_ASPECT, clockwise, overlap

#: A bigger outline around an accepted quad replaces it when it scores at least this
#: fraction of the inner one's score (a pale card's outer outline is fainter than its
#: art box's) ...
SELECT_GROW = 0.85


#: ... and it is a whole card around a part of one: at least this many times the part's
#: area (a card's upper part or art box is half a card or less), and the part crosswise
#: to it (card-shaped parts lie sideways in a card: title and picture, text box, art box;
#: a bigger quad the same way round is the card with a patch of mat print beside it) ...
PART_AREA = 1.5


#: ... or around it on every side by at least this fraction of its short side (the card
#: around the inner edge of its own border). A quad a little bigger than a card on one
#: side only is the card with a neighbour's edge or the mat's print taken for its side
#: (tune split, recall@0.8 per height band: 90/96/96/94% -> 92/99/98/96%).
BORDER_MARGIN = 0.01


def _surrounds(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether every corner of ``inner`` lies inside ``outer`` by ``BORDER_MARGIN`` of
    ``outer``'s short side."""
    hull = outer.astype(np.float32).reshape(-1, 1, 2)
    depth = min(cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in inner)
    return depth >= BORDER_MARGIN * float(side_lengths(outer[None])[0][0])


#: A quad overlapping an accepted one by this share of the smaller one's area clashes
#: with it (``select_cards``).
CLASH = 0.3


def select_cards(scored: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """Best quads first; one that overlaps an accepted card is dropped, unless it is a
    whole card around a part of one, about as well supported (then the part goes; see
    ``PART_AREA`` and ``BORDER_MARGIN``)."""
    if not scored:
        return []
    scored.sort(key=lambda item: -item[0])
    quads = np.stack([q for _s, q in scored])
    # ``geometry.overlap``'s figures, with each quad's area found once, not per pair.
    rows = list(quads.astype(np.float32, copy=False))
    cv_areas = np.array([abs(cv2.contourArea(q)) for q in rows])
    # Two quads overlap no more than their bounding boxes do: only pairs whose boxes
    # share nearly ``CLASH`` of the smaller quad's area need the exact test. (Python lists
    # from here: the loop below reads single values, which numpy serves slowly.)
    (x0, y0), (x1, y1) = quads.min(axis=1).T, quads.max(axis=1).T
    box = (np.clip(np.minimum(x1[:, None], x1[None]) - np.maximum(x0[:, None], x0[None]), 0, None)
           * np.clip(np.minimum(y1[:, None], y1[None]) - np.maximum(y0[:, None], y0[None]), 0, None))
    may_clash = (box >= 0.99 * CLASH * np.minimum(cv_areas[:, None], cv_areas[None])).tolist()
    areas = quad_areas(quads).tolist()
    angles = long_edges(quads)[1].tolist()
    cv_area = cv_areas.tolist()

    def replaces(i: int, k: int, part: float) -> bool:
        """Whether quad ``i`` is a whole card around quad ``k``, a part of one, that it
        overlaps by ``part``."""
        return (areas[i] > 1.15 * areas[k] and part > 0.85 and scored[i][0] > SELECT_GROW * scored[k][0]
                and ((areas[i] >= PART_AREA * areas[k] and crosswise(angles[i], angles[k]))
                     or _surrounds(rows[i], rows[k])))

    kept: list[int] = []
    for i in range(len(rows)):
        clash = []
        for k in kept:
            if not may_clash[i][k]:
                continue
            part = overlap(rows[i], rows[k], (cv_area[i], cv_area[k]))
            if part < CLASH:
                continue
            if not replaces(i, k, part):
                break  # it clashes with a card it is not a whole card around: dropped
            clash.append(k)
        else:
            kept = [k for k in kept if k not in clash]
            kept.append(i)
    return [quads[k] for k in kept]


#: Cards on one table differ in size only by the camera's perspective (and, in our
#: composites, by ±13%): a quad longer or shorter than the table's typical card by more
#: than this factor is likelier two touching cards, or a card's art box, than a card.
SIZE_SLACK = 1.25


#: How fast the score falls beyond that slack, per unit of log size ratio.
SIZE_FALL = 3.0


#: Cards a first selection needs before its sizes say what the table's size is.
SIZE_MIN_CARDS = 3


#: The table's typical card is this quantile of a first selection's long sides. Where a
#: card's outline is faint, its upper part (0.7 of its length) or its art box can win
#: the first selection, and several of those pulled a median down to their size (four
#: of eleven on one real frame: median 180 px for cards 206-258 px tall), which then
#: made the whole cards look too big. Whole cards are the bigger ones (tune split:
#: 0.65-0.85 alike, 1.0 worse; generated mats at 200-260 px, recall@0.8 82.5 -> 90%).
TYPICAL_QUANTILE = 0.75


def table_card(first: list[np.ndarray]) -> float | None:
    """The long side of the table's typical card: the ``TYPICAL_QUANTILE`` of a first
    selection's long sides (``first``); None while it has too few cards to tell."""
    return long_side(first, TYPICAL_QUANTILE) if len(first) >= SIZE_MIN_CARDS else None


def by_table_size(scored: list[tuple[float, np.ndarray]], typical: float | None
                   ) -> list[tuple[float, np.ndarray]]:
    """Scores lowered for quads whose size is not the table's (``typical``, see
    ``table_card``). A pair of touching cards side by side has a sideways card's
    proportions, and a card's art box a card's: only their size gives them away (tune
    split: recall 93/91/100% -> 96/93/100% per height band, a third fewer false finds)."""
    if typical is None or not scored:
        return scored
    longs = side_lengths(np.stack([q for _s, q in scored]))[1]
    off = np.abs(np.log(longs / typical)) - np.log(SIZE_SLACK)
    factor = np.clip(1.0 - SIZE_FALL * np.maximum(0.0, off), 0.0, 1.0)
    return [(score * float(f), q) for (score, q), f in zip(scored, factor, strict=True) if f > 0]


#: A side within this fraction of a typical card's short (or long) side can be that side
#: of a whole card (see ``completions``).
SIDE_SLACK = 0.2


def completions(first: list[np.ndarray], typical: float | None) -> np.ndarray:
    """Whole cards proposed around quads that may be a part of one. A card's upper
    part, title and picture down to the picture's lower edge, has a card's proportions
    turned sideways (63 × ~45 mm), and it wins when the lower part's outline is faint or
    touches a neighbour's. For every side of a quad of a first selection (``first``) no
    longer than the table's typical card (``typical``, see ``table_card``) that is about
    as long as a card's short or long side, the card of those proportions that has this
    side as its own and lies across the quad is proposed; snapping and scoring then
    judge it like any other candidate (a real card's proposals are that card again)."""
    if typical is None or not first:
        return np.empty((0, 4, 2), np.float32)
    proposals = []
    longs = side_lengths(np.stack(first))[1]
    for quad in (q for q, long in zip(first, longs, strict=True) if long <= typical):
        quad = clockwise(quad)
        centre = quad.mean(axis=0)
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            side = float(np.linalg.norm(b - a))
            if abs(side / (typical * CARD_ASPECT) - 1) < SIDE_SLACK:
                depth = side / CARD_ASPECT
            elif abs(side / typical - 1) < SIDE_SLACK:
                depth = side * CARD_ASPECT
            else:
                continue
            inward = np.float32([a[1] - b[1], b[0] - a[0]]) / side
            if np.dot(centre - a, inward) < 0:
                inward = -inward
            proposals.append([a, b, b + inward * depth, a + inward * depth])
    return np.array(proposals, np.float32).reshape(-1, 4, 2)
