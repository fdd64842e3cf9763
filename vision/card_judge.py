"""What a found outline holds: a card's face, a card's back, or no card at all.

The finder outlines anything card-shaped with an edge around it, and a table has many
such things that are not cards: the mat's printed zone outlines (a card's size, with the
mat inside), an empty sleeve, a deck box, labels, dice and tokens beside one another.
One judge tells them apart by what every printed card has and none of them does, read
from the outline straightened to a small card (``SIZE``) with a ring of the table
around it (``Looks``):

- **a rectangle** (``skew``): seen by a camera up to 20° off vertical, a card's corners
  stay near square; a quad of the mat's print often does not.
- **an edge all round** (``weakest_side``). A card is an object: along every side the
  colour just inside it (its border, a sleeve's rim) differs from the table just
  outside. A printed line (a zone outline, a clear sleeve's rim) has the table on both
  sides of it.
- **a printed inside** (``busy``, ``flat``). A card's face is busy all over (a title
  line and HP above, a picture, lines of text below), and so is its back; a deck box, a
  sleeve's back or a printed panel is one flat colour over most of it. An outline
  around a deck box and the table beside it is one flat colour over nearly all of one
  half (``half_flat``), and its two ends are unlike (``ends_step``: the box at one, the
  table at the other).
- **an inside unlike the table** (``table_inside``). A zone outline or an empty sleeve
  shows the mat inside its rim: the colours inside are those around it.
- **a back's colour layout** (``blue``, ``ball``), for what passed the three: a card's
  back is blue all over, with a ball in the middle, red on one side of its middle line
  and white on the other. No face is that blue around such a ball.

Last, two judgements of an outline among the others:

- **one size** (``smaller_than_the_table``): cards on one table are one size up to the
  camera's perspective, so where a frame's cards agree on a size, an outline far
  smaller than it is no card: a card printed small in the mat's art or a stream
  overlay, or the part of a card on one side of a hand over it.
- **side by side** (``between_cards``): cards lie beside one another, overlapping a
  little at most, so an outline that two or more others cover a good part of between
  them is the gap between those cards (the end of one, the mat, the end of the next).

And two judgements of an outline no title was read from, whose shape is then all that
says it holds a card: a card's sides end at its corners, so an outline smaller than the
frame's biggest card whose two sides run on as edges past one of its ends is a part of a
bigger card (its upper half or its picture, the rest under a hand), not a card to report
(``part_of_a_card``); and a card seen from above is near square at every corner, nearer
than the judge asks of every outline (``MAX_SKEW``), which a title read from it may vouch
for (``square_enough``).

A face-down card (a Prize, the deck) is thus a card to count but not one to read. The
thresholds were set on the tune split's scans on mats table1-3 and our proxies on
generated mats (``bench.vision.finder``), with the project's own back and things
(``vision.decoys``); real backs in a binder photo (measurement only) are blue over 0.78-0.86
of their field, faces there at most 0.26.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

import cv2
import numpy as np

from vision.finding.cues import blurred_lab, gradient_image
from vision.finding.quads import side_lengths
from vision.finding.snap import running_on

#: The straightened card, in pixels (width, height): a card's title line is still ~4 px
#: tall there, its text lines ~2 px.
SIZE = (40, 56)
#: The ring of table around it, in those pixels.
RING = 8
#: Outlines are straightened from a copy of the frame halved until it is shorter than
#: twice this along its longest side (960 px for a 1080p frame: a card of 140 px is 70 px
#: tall there, and ``straighten`` averages it down to ``SIZE`` from twice that size).
JUDGE_LONG = 800
#: Detail cells: the card is cut into this grid (columns, rows) ...
GRID = (4, 6)
#: ... and a cell has detail when its mean gradient (Sobel / 4 on brightness and colour,
#: 0..255) reaches this.
DETAIL = 6.0


class Kind(Enum):
    """What an outline holds."""

    FACE = "face"
    BACK = "back"
    NOT_A_CARD = "not a card"


@dataclass(frozen=True)
class Looks:
    """The judge's view of one outline (see the module's docstring)."""

    busy: float
    flat: float
    table_inside: float
    weakest_side: float
    blue: float
    ball: float
    #: The outline's worst corner's departure from a right angle, in degrees.
    skew: float = 0.0
    #: The step in colour between the strips just inside its two ends, and the flatter
    #: half's flat share (upper or lower half of the upright card; see ``MAX_HALF_FLAT``),
    #: measured only where the ends are unlike (``MIN_ENDS_STEP``; 0 elsewhere).
    half_flat: float = 0.0
    ends_step: float = 0.0


#: A card is a rectangle: a camera up to 20° off vertical keeps its corners within
#: this many degrees of square (tune split: faces at most 12.4°, a real phone photo of a
#: binder page 13.8°; quads of the mat's print 19-22°).
MAX_SKEW = 16.0
#: A card's outline is an edge on every side: the colour inside it differs from the
#: table's outside by at least this (Lab distance, L + a + b) along each side. A printed
#: line (a zone outline, a sleeve's rim) has the table on both sides of it. (Tune split:
#: faces' weakest side 16 and more, things that are not cards ~2, clear sleeves 12-38; a
#: real back in a binder's pocket, whose sides are the pocket's, 11.5.)
MIN_SIDE_STEP = 10.0
#: The strips compared across a side, from and to this depth (straightened pixels).
SIDE_STRIP = (3, 6)
#: A card is busy in at least this share of its cells (tune split: faces 0.62 and more;
#: our plainest proxies, a flat art box and three text lines, 0.54; deck boxes and
#: sleeves' backs 0.0-0.4, and flat besides).
MIN_BUSY = 0.4
#: An inside whose colours the table around has more than this share of is the table
#: seen through an outline (tune split: faces at most 0.6, 95% of them under 0.34; the
#: table inside a zone outline, around dice or tokens, 0.62-0.8).
MAX_TABLE_INSIDE = 0.6
#: A back: blue over this share of the card around its middle (tune split: our backs
#: 0.77-1.0, faces 95% under 0.57), and a ball in the middle.
BACK_BLUE = 0.7
BACK_BALL = 0.5
#: The ball: at least this share of one half of the middle red, and this share of the
#: other white.
BALL_RED = 0.1
BALL_WHITE = 0.15
#: A pixel is flat within this Lab distance (sum over L, a, b) of the inside's median,
#: and a card is flat over at most this share of its inside (tune split: faces at most
#: 0.71, deck boxes and sleeves' backs 0.85-1.0).
FLAT_STEP = 18
MAX_FLAT = 0.75
#: An outline snapped around a deck box and a strip of the table beside it is flat over
#: half of it only (0.5 by ``MAX_FLAT``'s measure), but over more than this share of
#: the half the box fills (0.95-1.0), and the colour just inside its two ends differs by
#: at least ``MIN_ENDS_STEP`` (Lab, L + a + b; 94-155): the box at one end, the table at
#: the other. A printed face's halves are less flat (tune split, 1,719 faces found under
#: plain, tilt, glare, hands and sleeves: at most 0.91, a Trainer's text box); our
#: plainest proxies' text boxes are as flat as a box (up to 0.98), but their border runs
#: round both ends (steps up to 20). The outlines found there that are no card: 19 of
#: 109 cut, a real deck box on the mat of table1 among them in every third frame.
MAX_HALF_FLAT = 0.95
MIN_ENDS_STEP = 50.0
#: Where the two ends are unlike by this much or more (Lab, L + a + b) and the outline
#: is busy over less than ``STEEP_BUSY`` of its cells (the box's half has no detail), the
#: flatter half may be flat over ``MAX_HALF_FLAT_STEEP`` at most: the steeper that step,
#: the surer one end is a box. (Tune split, 2,100 faces found under plain, decoys, tilt,
#: hands, glare and sleeves: those with such a step at most 0.87 flat over a half, and
#: busy over 0.96 and more; the outlines around the deck box of table1 and a card beside
#: it 0.92-0.94 flat, busy 0.46-0.58, steps 128-159. A proxy card of ours, whose plain
#: text box is as flat, is busy over 0.96 of it.)
STEEP_ENDS_STEP = 100.0
STEEP_BUSY = 0.75
MAX_HALF_FLAT_STEEP = 0.9


#: Cards on one table are one size, up to the camera's perspective (tune split, camera
#: up to 15° off overhead: a whole card's long side at least 0.79 of the table's card).
#: An outline whose long side is under this share of the table's card is no card: a
#: card printed small in the mat's art or its stream overlay (0.58-0.75), or the part
#: of a card on one side of a hand across it (0.70-0.73) ...
SMALLER_THAN_TABLE = 0.75
#: ... where the table's card is this quantile of the long sides of the outlines judged
#: cards (faces and backs; a high one, as parts of cards are among them) ...
TABLE_QUANTILE = 0.75
#: ... told by at least this many cards ...
TABLE_MIN_CARDS = 4
#: ... that agree on it: their 0.9 quantile within this factor of their median (tune
#: frames: 1.05 or less in nine of ten, at most 1.28). Cards laid at sizes unlike one
#: another, as no camera shows one table but our synthetic scenes do (230-330 px tall
#: in one frame), tell no size, and nothing is judged by it.
TABLE_AGREE = 1.1


def smaller_than_the_table(longs: np.ndarray) -> np.ndarray:
    """Which of a frame's cards (the long sides ``longs`` of the outlines judged cards)
    are too small to be one of its cards (see ``SMALLER_THAN_TABLE``): none unless at
    least ``TABLE_MIN_CARDS`` cards agree on a size (``TABLE_AGREE``)."""
    longs = np.asarray(longs, np.float64)
    if len(longs) < TABLE_MIN_CARDS or np.quantile(longs, 0.9) > TABLE_AGREE * np.median(longs):
        return np.zeros(len(longs), bool)
    return longs < SMALLER_THAN_TABLE * np.quantile(longs, TABLE_QUANTILE)


#: An outline is the gap between cards when two or more outlines judged cards cover this
#: share of its area between them. (Tune split seeds 0-2, 200-260 and 330-440 px, plain,
#: sleeves, tilt, zone outlines, the table mix: of 3,482 outlines on a card, at most 0.23
#: covered so by others; of 50 on none, 5 from 0.28 to 0.37, and 4 more from 0.15 to
#: 0.19, where 15 cards are too. Fresh seed 3, those and hands, whole frames: the same
#: cards named, reported outlines that are no card 45 -> 43.) A single outline covering
#: one is judged where the outlines are chosen (``vision.finding.select.CLASH``).
BETWEEN_COVERED = 0.25


def between_cards(quads: list[np.ndarray]) -> np.ndarray:
    """Which of ``quads`` (outlines judged cards, in one frame) lie between others
    (``BETWEEN_COVERED``)."""
    quads = [np.asarray(q, np.float32) for q in quads]
    out = np.zeros(len(quads), bool)
    for i, quad in enumerate(quads):
        shared = [cv2.intersectConvexConvex(quad, other)[0] for k, other in enumerate(quads) if k != i]
        covering = [area for area in shared if area > 0]
        out[i] = len(covering) >= 2 and sum(covering) >= BETWEEN_COVERED * abs(cv2.contourArea(quad))
    return out


#: An outline is a part of a card when it is smaller than the frame's biggest card (its
#: long side under ``PART_SIZE`` of that one's: a card's upper half or its picture lies
#: crosswise in it, as long as the card is wide, 0.72 of its length or less) and both
#: sides meeting one of its ends run on as edges over ``RUN_ON`` of their continuation
#: past it (``vision.finding.snap.running_on``: from ``RUN_ON_GAP`` to ``RUN_ON_GAP +
#: RUN_ON_REACH`` of their length, a gradient of ``RUN_ON_GRADIENT`` on the frame
#: halved). Tune split seeds 0-2, the judge's cards at 200-260 and 330-440 px (hands,
#: plain, tilt, sleeves, zone outlines, the table mix): of 76 outlines that run on so,
#: 16 of the 28 on no card are under 0.8 of the biggest and 1 of the 48 on a card;
#: the rest are cards touching end to end, or laid on a zone line that runs on past
#: them. Only outlines no title was read from are judged so.
PART_SIZE = 0.8
RUN_ON = 0.8
RUN_ON_GAP, RUN_ON_REACH = 0.03, 0.2
RUN_ON_GRADIENT = 8.0


def part_of_a_card(frame: np.ndarray, quad: np.ndarray, biggest: float) -> bool:
    """Whether the outline ``quad`` of ``frame`` is a part of a bigger card, the frame's
    biggest card being ``biggest`` px long (see ``PART_SIZE``, ``RUN_ON``). Only the
    outline's surroundings are measured, on a halved copy of them."""
    quad = np.asarray(quad, np.float32)
    long = float(side_lengths(quad[None])[1][0])
    if long >= PART_SIZE * biggest:
        return False
    margin = (RUN_ON_GAP + RUN_ON_REACH) * long + 4  # the sides' continuations, and the blur's
    h, w = frame.shape[:2]
    x0, y0 = (max(0, int(v - margin)) for v in quad.min(axis=0))
    x1, y1 = min(w, int(quad[:, 0].max() + margin) + 1), min(h, int(quad[:, 1].max() + margin) + 1)
    crop = frame[y0:y1, x0:x1]
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return False
    half = cv2.resize(crop, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    packed = gradient_image(cv2.split(blurred_lab(half)))
    local = ((quad - np.float32([x0, y0])) * np.float32(0.5))[None]
    return bool(running_on(local, packed, RUN_ON_GRADIENT, RUN_ON_GAP, RUN_ON_REACH).max() >= RUN_ON)


#: An outline no title was read from is reported as a card only when its worst corner
#: is this near square (degrees; ``skew``). A flat card seen by a webcam over the table
#: is within a few degrees of square: the finder's outlines of the cards it named, tune
#: split seed 2, every condition, 3,704 faces: 95% within 4.9°, 99% within 7.4°. What the
#: finder outlines on no card leans further: of 50 such outlines no title was read from,
#: 26 over 7° (the real deck box beside a hand, the mat's print, a stream overlay's
#: picture), against 12 of the 217 unread outlines on a card, which nothing named either.
#: (Seed 0, six conditions: 13 of 39 against 5 of 155. 6°: 28 against 19 on seed 2; 8°:
#: 22 against 7.) A photo of one card held up to the camera may lean any way: it is not
#: judged so (``vision.recognize``).
UNREAD_SKEW = 7.0


def square_enough(quad: np.ndarray) -> bool:
    """Whether the outline ``quad`` is near enough square (``UNREAD_SKEW``) to be reported
    as a card when no title was read from it."""
    return skew(quad) <= UNREAD_SKEW


def straighten(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline ``quad`` of ``frame`` as an upright card of ``SIZE`` with ``RING``
    pixels of the table around it (BGR). It is warped at twice the size and halved, so
    a card of 400 px is averaged rather than sampled."""
    w, h = SIZE
    q = np.asarray(quad, np.float32)
    sides = np.linalg.norm(q[[1, 2, 3, 0]] - q, axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # a long side first: turn it a quarter
        q = q[[1, 2, 3, 0]]
    target = np.float32([[RING, RING], [RING + w, RING], [RING + w, RING + h], [RING, RING + h]]) * 2
    m = cv2.getPerspectiveTransform(q, target)
    big = cv2.warpPerspective(frame, m, ((w + 2 * RING) * 2, (h + 2 * RING) * 2),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (w + 2 * RING, h + 2 * RING), interpolation=cv2.INTER_AREA)


def looks(frame: np.ndarray, quad: np.ndarray) -> Looks:
    """What the judge reads from the outline ``quad`` of ``frame``."""
    return replace(looks_all(straighten(frame, quad)[None])[0], skew=skew(quad))


def skew(quad: np.ndarray) -> float:
    """How far the worst corner of ``quad`` is from a right angle, in degrees."""
    q = np.asarray(quad, np.float64)
    before, after = q[[3, 0, 1, 2]] - q, q[[1, 2, 3, 0]] - q
    cosine = (before * after).sum(axis=1) / np.maximum(
        np.linalg.norm(before, axis=1) * np.linalg.norm(after, axis=1), 1e-9)
    return float(np.degrees(np.arcsin(np.abs(np.clip(cosine, -1, 1)))).max())


def looks_all(cards: np.ndarray) -> list[Looks]:
    """What the judge reads from outlines straightened by ``straighten`` (N, rows,
    columns, 3), all at once: a frame's dozen outlines cost little more than one."""
    n, rows, cols = cards.shape[:3]
    w, h, r = *SIZE, RING
    # One tall picture of them all for OpenCV; the ring around each keeps a card's
    # gradient apart from its neighbour's.
    lab = cv2.cvtColor(cards.reshape(n * rows, cols, 3), cv2.COLOR_BGR2LAB)
    gx = np.abs(cv2.Sobel(lab, cv2.CV_16S, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(lab, cv2.CV_16S, 0, 1, ksize=3))
    lab = lab.reshape(n, rows, cols, 3)
    # Detail per cell, inside the card's own outline (its edge is no detail): the
    # largest gradient of L, a and b (Sobel / 4, as the finder's), averaged per cell.
    g = gx + gy
    # (Channels are taken apart: numpy reduces a last axis of three slowly.)
    grad = np.maximum(np.maximum(g[..., 0], g[..., 1]), g[..., 2])
    grad = grad.reshape(n, rows, cols)[:, r + 2:r + h - 2, r + 2:r + w - 2]
    (gc, gr), (ch, cw) = GRID, ((h - 4) // GRID[1], (w - 4) // GRID[0])
    cells = grad[:, :gr * ch, :gc * cw].reshape(n, gr, ch, gc, cw).mean(axis=(2, 4)) / 4
    busy = (cells >= DETAIL).mean(axis=(1, 2))
    inside = lab[:, r + h // 8:r + h - h // 8, r + w // 8:r + w - w // 8].reshape(n, -1, 3)
    flat = _flat_shares(inside)
    ends = _ends_steps(lab)
    # Rows run first: the first half of the inside's pixels is its upper half. (Medians
    # cost: only outlines with unlike ends can be a box beside the table.)
    half, unlike = inside.shape[1] // 2, ends >= MIN_ENDS_STEP
    half_flat = np.zeros(n)
    if unlike.any():
        half_flat[unlike] = np.maximum(_flat_shares(inside[unlike, :half]), _flat_shares(inside[unlike, half:]))
    table_inside = np.minimum(_histograms(inside), _histograms(lab[:, _RING_MASK])).sum(axis=1)
    hsv = cv2.cvtColor(cards.reshape(n * rows, cols, 3), cv2.COLOR_BGR2HSV).reshape(n, rows, cols, 3)
    hsv = hsv[:, r:r + h, r:r + w]
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    blue = ((hue >= 90) & (hue <= 130) & (sat >= 50) & (val >= 40))[:, ~_MIDDLE].mean(axis=1)
    # The ball is red on one side of the card's middle line and white on the other
    # (which side depends on which end of the card is up).
    red = ((hue <= 10) | (hue >= 160)) & (sat >= 60) & (val >= 60)
    white = (sat <= 70) & (val >= 160)
    upper, lower, across = _BALL

    def share(px: np.ndarray, part: slice) -> np.ndarray:
        return px[:, part, across].mean(axis=(1, 2))

    ball = np.minimum(1.0, np.maximum(
        np.minimum(share(red, upper) / BALL_RED, share(white, lower) / BALL_WHITE),
        np.minimum(share(red, lower) / BALL_RED, share(white, upper) / BALL_WHITE)))
    side = _weakest_sides(lab)
    return [Looks(*(float(v) for v in values[:6]), half_flat=float(values[6]), ends_step=float(values[7]))
            for values in zip(busy, flat, table_inside, side, blue, ball, half_flat, ends, strict=True)]


def _ends_steps(lab: np.ndarray) -> np.ndarray:
    """Per straightened card (``lab``: N, rows, columns, 3), the Lab distance between
    the median colours of the strips just inside its two ends (``SIDE_STRIP`` deep)."""
    w, h, r = *SIZE, RING
    d0, d1 = SIDE_STRIP
    n, across = len(lab), slice(r + 3, r + w - 3)
    top = np.median(lab[:, r + d0:r + d1, across].reshape(n, -1, 3), axis=1)
    bottom = np.median(lab[:, r + h - d1:r + h - d0, across].reshape(n, -1, 3), axis=1)
    return np.abs(top.astype(np.float32) - bottom.astype(np.float32)).sum(axis=1)


def _flat_shares(px: np.ndarray) -> np.ndarray:
    """Per card, the share of its pixels (``px``: N, M, 3 Lab) within ``FLAT_STEP`` of
    their median colour."""
    # Channels apart and each one's pixels in a row: numpy's median runs faster so.
    channels = np.ascontiguousarray(px.transpose(0, 2, 1))
    centre = np.median(channels, axis=2).astype(np.int16)
    off = np.abs(channels.astype(np.int16) - centre[..., None]).sum(axis=1)
    return (off <= FLAT_STEP).mean(axis=1)


def _weakest_sides(lab: np.ndarray) -> np.ndarray:
    """Per straightened card (``lab``: N, rows, columns, 3), the least step in colour
    across any of its sides: per side, the median over its length of the Lab distance
    between a strip just inside it and one just outside (``SIDE_STRIP`` pixels deep,
    past the outline itself)."""
    w, h, r = *SIZE, RING
    d0, d1 = SIDE_STRIP
    lab = lab.astype(np.float32)
    along_x, along_y = slice(r + 3, r + w - 3), slice(r + 3, r + h - 3)
    pairs = ((lab[:, r + d0:r + d1, along_x].mean(axis=1), lab[:, r - d1:r - d0, along_x].mean(axis=1)),
             (lab[:, r + h - d1:r + h - d0, along_x].mean(axis=1), lab[:, r + h + d0:r + h + d1, along_x].mean(axis=1)),
             (lab[:, along_y, r + d0:r + d1].mean(axis=2), lab[:, along_y, r - d1:r - d0].mean(axis=2)),
             (lab[:, along_y, r + w - d1:r + w - d0].mean(axis=2), lab[:, along_y, r + w + d0:r + w + d1].mean(axis=2)))
    steps = []
    for inside, outside in pairs:
        step = np.abs(inside - outside)
        steps.append(np.median(step[..., 0] + step[..., 1] + step[..., 2], axis=1))
    return np.min(steps, axis=0)


def _masks() -> tuple[np.ndarray, np.ndarray, tuple[slice, slice, slice]]:
    """Where the table is around a straightened card, where its middle is, and the
    halves of the middle the ball lies in (upper rows, lower rows, columns)."""
    w, h = SIZE
    ring = np.ones((h + 2 * RING, w + 2 * RING), bool)
    ring[RING - 2:RING + h + 2, RING - 2:RING + w + 2] = False
    top, bottom, left, right = int(h * 0.35), int(h * 0.65), int(w * 0.25), int(w * 0.75)
    middle = np.zeros((h, w), bool)
    middle[top:bottom, left:right] = True
    return ring, middle, (slice(top, h // 2), slice(h // 2, bottom), slice(left, right))


_RING_MASK, _MIDDLE, _BALL = _masks()


def _histograms(px: np.ndarray) -> np.ndarray:
    """Per card, the share of its pixels (``px``: N, M, 3 Lab) in each coarse colour bin
    (8 per channel): two cards' shared colours are the sum of the lesser shares."""
    n, m = px.shape[:2]
    bins = (px >> 5).astype(np.int32)
    index = (bins[..., 0] * 64 + bins[..., 1] * 8 + bins[..., 2]) + 512 * np.arange(n)[:, None]
    return np.bincount(index.ravel(), minlength=512 * n).reshape(n, 512) / m


def judge(frame: np.ndarray, quad: np.ndarray) -> Kind:
    """What the outline ``quad`` of ``frame`` holds."""
    return judge_all(frame, [quad])[0]


def judge_all(frame: np.ndarray, quads: list[np.ndarray]) -> list[Kind]:
    """What each outline of ``quads`` in ``frame`` holds, each by its own looks and then
    among the others: by its size (``smaller_than_the_table``), and by how much of it
    they cover (``between_cards``). A big frame is halved first (once for all outlines;
    see ``JUDGE_LONG``)."""
    if not len(quads):
        return []
    scale = 1.0
    while max(frame.shape[:2]) >= 2 * JUDGE_LONG:
        # Halving is OpenCV's fast path of an area resize (~1 ms for 1080p, where a
        # resize by 1/3 took ~3.5 ms).
        frame = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        scale *= 0.5
    cards = np.stack([straighten(frame, np.asarray(q, np.float32) * scale) for q in quads])
    kinds = [kind_of(replace(seen, skew=skew(q))) for seen, q in zip(looks_all(cards), quads, strict=True)]
    held = [k for k, kind in enumerate(kinds) if kind is not Kind.NOT_A_CARD]
    longs = side_lengths(np.stack([np.asarray(quads[k], np.float64) for k in held]))[1] if held else []
    for k, small in zip(held, smaller_than_the_table(longs), strict=True):
        if small:
            kinds[k] = Kind.NOT_A_CARD
    held = [k for k in held if kinds[k] is not Kind.NOT_A_CARD]
    for k, between in zip(held, between_cards([quads[k] for k in held]), strict=True):
        if between:
            kinds[k] = Kind.NOT_A_CARD
    return kinds


def kind_of(seen: Looks) -> Kind:
    """The kind an outline's ``Looks`` say it is."""
    if (seen.skew > MAX_SKEW or seen.busy < MIN_BUSY or seen.flat > MAX_FLAT
            or _box_beside_the_table(seen)
            or seen.table_inside > MAX_TABLE_INSIDE or seen.weakest_side < MIN_SIDE_STEP):
        return Kind.NOT_A_CARD
    if seen.blue >= BACK_BLUE and seen.ball >= BACK_BALL:
        return Kind.BACK
    return Kind.FACE


def _box_beside_the_table(seen: Looks) -> bool:
    """Whether an outline's ``Looks`` are those of a box and the table beside it: unlike
    ends and one flat half (``MAX_HALF_FLAT``; ``MAX_HALF_FLAT_STEEP`` where the ends
    are far apart and the outline is not busy all over)."""
    if seen.ends_step < MIN_ENDS_STEP:
        return False
    steep = seen.ends_step >= STEEP_ENDS_STEP and seen.busy < STEEP_BUSY
    return seen.half_flat > (MAX_HALF_FLAT_STEEP if steep else MAX_HALF_FLAT)
