"""Choosing the cards among scored quads: the best first, parts of a card giving way
to the whole card, sizes far from the table's typical card scored down (the two pieces
of a card cut by a hand counted as one card for that size), whole cards proposed
around quads that may be a part of one, and the two pieces of a cut card chosen both
reported as that card."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finding.quads import angle_between, crosswise, long_edges, quad_areas, side_lengths
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


#: ... and, lying crosswise, about as well outlined as the part (at least this fraction
#: of its score) or well outlined in its own right (a score of at least
#: ``CROSSWISE_OUTLINED``). A whole card's outline is card edge all round, the part's
#: three outer sides among it; a card with a strip of mat or of a neighbour beside its
#: long side lies crosswise to the card too, a card's area and a half to two, but its
#: long sides run on over the mat past the card's, its far side is the mat's print or
#: a neighbour's edge, and it is squarer than a card: it scores well below the card it
#: holds. (Tune split seeds 0-2, plain, tilt, sleeves, zone outlines: such quads
#: replaced a card at 0.86-0.94 of its score and mostly 0.71-0.80 in all, IoU about
#: 0.55 with it, then reported as a card that is none; whole cards replaced their upper
#: part at 0.88-0.99 of its score and 0.79-0.99 in all, never below both figures here.
#: Fresh seeds 3-4: cards lost 53 -> 50, reported outlines that are no card 55 -> 53.)
CROSSWISE_GROW = 0.93
CROSSWISE_OUTLINED = 0.80


#: ... or at least this many times its area, whichever way round: a quad of a third of
#: a card or less is a piece of its face (a text box, a strip of its picture left by a
#: hand over it), not a card beside a patch of the mat's print, which adds a part of a
#: card at most (tune split, a hand over every card, 330-440 px: the whole card lost to
#: such pieces) ...
SMALL_PART = 3.0


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
    ``PART_AREA``, ``CROSSWISE_GROW`` and ``BORDER_MARGIN``)."""
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
                and ((areas[i] >= PART_AREA * areas[k] and crosswise(angles[i], angles[k])
                      and (scored[i][0] >= CROSSWISE_GROW * scored[k][0]
                           or scored[i][0] >= CROSSWISE_OUTLINED))
                     or areas[i] >= SMALL_PART * areas[k] or _surrounds(rows[i], rows[k])))

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


def table_card(first: list[np.ndarray], pairs: list[tuple[int, int, float]] | None = None
               ) -> float | None:
    """The long side of the table's typical card: the ``TYPICAL_QUANTILE`` of a first
    selection's long sides (``first``), each pair of pieces of one cut card counted as
    that card (``pairs``: ``cut_cards(first)``, when the caller has them), and never
    shorter than the length alike pairs vouch for (``VOUCHING_PAIRS``); None while it
    has too few cards to tell."""
    if len(first) < SIZE_MIN_CARDS:
        return None
    longs = side_lengths(np.stack(first))[1]
    pairs = cut_cards(first) if pairs is None else pairs
    pieces = {k for pair in pairs for k in pair}
    whole = [float(longs[k]) for k in range(len(first)) if k not in pieces]
    whole += [long for _i, _j, long in pairs]
    return max(float(np.quantile(whole, TYPICAL_QUANTILE)), _vouched(pairs))


#: Pairs of pieces (see ``cut_cards``) that make cards of one length, this many at
#: least, vouch for that length as the table's card: a hand over most cards of a
#: table leaves more pieces than whole cards, and not every card's pieces pair up (one
#: is lost under the hand, or lies under a neighbour), so the lone pieces outnumber the
#: pairs and would set the table's size (0.72 of a card), and the whole cards then lose
#: to their own pieces as too big. Two cards touching side by side make a pair too, at
#: 1.4 times a card's length, but rarely two alike in one frame (tune split seed 0:
#: one such pair in a frame at most, under tilt, sleeves and zone outlines). (Tune
#: split, hands, 330-440 px, 40 cards: seed 3 reported outlines that are no card 17/43
#: -> 13/41, found 66.7 -> 71.8%; seed 0 5/40 -> 4/40; seeds 4-5 and the other
#: conditions as before.)
VOUCHING_PAIRS = 2


def _vouched(pairs: list[tuple[int, int, float]]) -> float:
    """The card length that at least ``VOUCHING_PAIRS`` of ``pairs`` make alike (within
    ``PIECE_LENGTHS`` of their median), or 0.0."""
    lengths = np.array([long for _i, _j, long in pairs], np.float64)
    if len(lengths) < VOUCHING_PAIRS:
        return 0.0
    middle = float(np.median(lengths))
    alike = np.abs(lengths / middle - 1) <= PIECE_LENGTHS
    return middle if int(alike.sum()) >= VOUCHING_PAIRS else 0.0


#: Two pieces of one card lie side by side along their long sides, about as long as each
#: other (within this fraction) ...
PIECE_LENGTHS = 0.15
#: ... and in line with each other (their long sides within this angle, radians: ~8°) ...
PIECE_ANGLE = 0.14
#: ... with their middles no further apart along those sides than this share of them,
#: and overlapping across them by at least this share of their short sides: a piece
#: of a card is card-shaped only when it reaches under the hand or glare, past the
#: card's middle, whereas two cards side by side never overlap (they would make a
#: card's proportions too, the √2 of a card's sides: only their overlap tells them apart).
PIECE_SLIDE = 0.15
PIECE_OVERLAP = 0.05
#: How far from a card's proportions (short over long side) two pieces together may be.
CARD_SLACK = 0.08


def cut_cards(quads: list[np.ndarray]) -> list[tuple[int, int, float]]:
    """Pairs of ``quads`` that are likelier the two pieces of one card than two cards,
    each with that card's long side. A hand or a glare across a card cuts its outline
    into two pieces, and each is card-shaped lying sideways (63 mm wide, about half of
    88 mm tall): on a table where most cards are cut (a hand over every card), the
    pieces' size would pass for the table's, and the whole cards around them would be
    scored down as too big. Two pieces lie side by side along their long sides (the
    card's width), in line, overlapping a little, and together make a card's
    proportions, their long side its short side. Each quad is in one pair at most, the
    closest-fitting first. (Tune split, a hand over every card, 330-440 px: cards found
    66 -> 87%, reported outlines that are no card 46 -> 24%, finder and judge alone.)"""
    if len(quads) < 2:
        return []
    q = np.stack(quads).astype(np.float32)
    short, long = side_lengths(q)
    angle = long_edges(q)[1]
    along = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    centre = q.mean(axis=1)
    gap = centre[None] - centre[:, None]  # N,N,2: from quad i to quad j
    slide = np.abs((gap * along[:, None]).sum(-1))
    across = np.abs(gap[..., 0] * along[:, None, 1] - gap[..., 1] * along[:, None, 0])
    width = (long[:, None] + long[None]) / 2
    # The card the two make: as wide as the pieces are long, as long as from the far side
    # of one to the far side of the other.
    length = across + (short[:, None] + short[None]) / 2
    ratio = width / np.maximum(length, 1e-6)
    fits = ((np.abs(long[:, None] / long[None] - 1) <= PIECE_LENGTHS)
            & (angle_between(angle[:, None], angle[None]) <= PIECE_ANGLE)
            & (slide <= PIECE_SLIDE * width)
            & (across <= (1 - PIECE_OVERLAP) * (short[:, None] + short[None]) / 2)
            & (ratio >= CARD_ASPECT - CARD_SLACK) & (ratio <= CARD_ASPECT + CARD_SLACK))
    pairs = []
    used: set[int] = set()
    for i, j in sorted(zip(*np.nonzero(np.triu(fits, 1)), strict=True),
                       key=lambda ij: abs(ratio[ij] - CARD_ASPECT)):
        if i not in used and j not in used:
            used |= {int(i), int(j)}
            pairs.append((int(i), int(j), float(length[i, j])))
    return pairs


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


def _far_side(piece: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The long side of ``piece`` (clockwise corners) farther from ``other``'s centre:
    for one of a cut card's pieces, the end of the card it holds."""
    sides = [(piece[k], piece[(k + 1) % 4]) for k in range(4)]
    longest = sorted(sides, key=lambda ab: -float(np.linalg.norm(ab[1] - ab[0])))[:2]
    centre = other.mean(axis=0)
    return np.stack(max(longest, key=lambda ab: float(np.linalg.norm((ab[0] + ab[1]) / 2 - centre))))


def joined_card(one: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The whole card two pieces of it make (see ``cut_cards``): its ends are the
    pieces' far long sides, each piece's outline is the card's own there, and its sides
    run from one end to the other under the hand or glare between them."""
    one, other = clockwise(one), clockwise(other)
    end, far_end = _far_side(one, other), _far_side(other, one)
    along = end[1] - end[0]
    end = end[np.argsort(end @ along)]
    far_end = far_end[np.argsort(far_end @ along)]
    return clockwise(np.stack([end[0], end[1], far_end[1], far_end[0]]))


def join_cut_cards(kept: list[np.ndarray]) -> list[np.ndarray]:
    """The cards chosen (``kept``) with each pair of pieces of one cut card (see
    ``cut_cards``) replaced by that card (``joined_card``). A hand across a card breaks
    its outline under the hand, so the whole card's outline is too weak to win there,
    while its two pieces (title and picture; text box) each have an outline all round:
    reported as they are, they are two outlines that are no card, and the card under
    them is lost. Their size cannot tell them from cards: where a hand cuts most
    cards, the pieces set the table's size among themselves. The whole card is what a
    reader and a tracker need. Two cards touching side by side whose outlines overlap a
    little make a pair too, at twice a card's size: a pair is joined only when its card
    is the table's size (``table_card`` of ``kept``, each pair counted as one card; on
    a table of fewer cards than that needs, always)."""
    pairs = cut_cards(kept)
    if not pairs:
        return kept
    typical = table_card(kept, pairs)
    if typical is not None:
        pairs = [(i, j, long) for i, j, long in pairs if long <= SIZE_SLACK * typical]
    partner = {i: j for i, j, _long in pairs} | {j: i for i, j, _long in pairs}
    out = []
    for k, quad in enumerate(kept):
        if k not in partner:
            out.append(quad)
        elif k < partner[k]:
            out.append(joined_card(quad, kept[partner[k]]))
    return out
