"""Card hypotheses from corners: two straight segments meeting at about a right angle
are two sides of a card, and the card's size comes from them or from the table's
other cards."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finding.quads import angle_between, long_edges
from vision.geometry import CARD_ASPECT


def line_segments(grey: np.ndarray, min_len: float, scale: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
    """Straight segments (start points, end points) at least ``min_len`` long. (Found on
    a half-size copy the detector is 3× faster but misses a quarter of the cards.)"""
    found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE, scale).detect(grey)[0]
    if found is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    seg = found.reshape(-1, 4).astype(np.float32)
    p, q = seg[:, :2], seg[:, 2:]
    keep = np.linalg.norm(q - p, axis=1) >= min_len
    return p[keep], q[keep]


@dataclass(frozen=True)
class Corners:
    """Every pair of straight segments at about a right angle, where their lines meet:
    pair ``k`` joins segments ``i[k]`` and ``j[k]`` at ``p[i] + s * d[i]`` (``p`` the
    starts, ``d`` the unit directions, ``length`` the lengths), ``t`` along segment ``j``."""

    p: np.ndarray
    d: np.ndarray
    length: np.ndarray
    i: np.ndarray
    j: np.ndarray
    s: np.ndarray
    t: np.ndarray


def right_angles(segments: tuple[np.ndarray, np.ndarray]) -> Corners | None:
    """The right-angled pairs of ``segments`` (starts, ends); None for too few or too
    many segments."""
    p, q = segments
    if len(p) < 2 or len(p) > 1500:
        return None
    length = np.linalg.norm(q - p, axis=1)
    d = (q - p) / length[:, None]
    # Cosines of every pair, spelled out: ``d @ d.T`` goes to OpenBLAS, whose threads then
    # spin on the other core for milliseconds after (the second core that Tesseract and
    # the segment detector need; ~20 ms of CPU per 1080p frame).
    cosines = d[:, None, 0] * d[None, :, 0] + d[:, None, 1] * d[None, :, 1]
    ii, jj = np.nonzero(np.triu(np.abs(cosines) < 0.26, 1))  # 75°..105° apart
    # Intersection of the two lines: p_i + s d_i = p_j + t d_j (x and y apart: indexing
    # columns of (n, 2) arrays is several times slower).
    dx, dy, px, py = d[:, 0].copy(), d[:, 1].copy(), p[:, 0].copy(), p[:, 1].copy()
    dix, diy, djx, djy = dx[ii], dy[ii], dx[jj], dy[jj]
    det = dix * (-djy) - diy * (-djx)
    rx, ry = px[jj] - px[ii], py[jj] - py[ii]
    s = (rx * (-djy) - ry * (-djx)) / det
    t = (dix * ry - diy * rx) / det
    return Corners(p, d, length, ii, jj, s, t)


def corner_quads(corners: Corners | None, lo: float, hi: float, sizes: list[float],
                  wide_gap: float = 0.0, own_sizes: bool = True, broken: float = 0.0) -> np.ndarray:
    """Rough quads from corners: two straight segments meeting at about a right angle
    at their ends (``corners``) are two sides of a card. The card's size comes from the
    segments' lengths (a side seen whole; not with ``own_sizes`` False) and from
    ``sizes`` (card heights already found; a segment may then run on past the card's
    far corner, where a neighbour's side or the mat's print continues it). With
    ``wide_gap``, only the corners of two segments each at least ``LONG_SIDE`` of a
    card's width that end up to that fraction of its width short of their corner (and
    further than the usual tolerance). With ``broken``, only the corners of two segments
    each shorter than that fraction of a card's width (a side broken into pieces)."""
    if corners is None or len(corners.i) == 0:
        return np.zeros((0, 4, 2), np.float32)
    p, d, s, t = corners.p, corners.d, corners.s, corners.t
    ii, jj = corners.i, corners.j
    li, lj = corners.length[ii], corners.length[jj]
    # The corner lies near one end of each segment.
    gap_i = np.minimum(np.abs(s), np.abs(s - li))
    gap_j = np.minimum(np.abs(t), np.abs(t - lj))
    gap = np.maximum(gap_i, gap_j)
    near = gap < max(5.0, lo * CARD_ASPECT * 0.12)
    if wide_gap:  # only the corners the near ones left out
        width = min(sizes) * CARD_ASPECT
        near = ~near & (gap < wide_gap * width) & (np.minimum(li, lj) >= LONG_SIDE * width)
    if broken:
        near &= np.maximum(li, lj) < broken * min(sizes) * CARD_ASPECT
    ok = np.nonzero(near)[0]
    if len(ok) == 0:
        return np.zeros((0, 4, 2), np.float32)
    i, j = ii[ok], jj[ok]
    x = p[i] + d[i] * s[ok, None]
    u = np.where((np.abs(s[ok]) < np.abs(s[ok] - li[ok]))[:, None], d[i], -d[i])
    v = np.where((np.abs(t[ok]) < np.abs(t[ok] - lj[ok]))[:, None], d[j], -d[j])
    a_len, b_len = li[ok] - gap_i[ok], lj[ok] - gap_j[ok]
    # (side along segment i, side along segment j, whether both segments must lie
    # along the sides they span)
    dims = [(a_len, a_len / CARD_ASPECT, True), (a_len, a_len * CARD_ASPECT, True),
            (b_len / CARD_ASPECT, b_len, True), (b_len * CARD_ASPECT, b_len, True)] if own_sizes else []
    for h in sizes:
        dims += [(np.full_like(a_len, h * CARD_ASPECT), np.full_like(a_len, h), False),
                 (np.full_like(a_len, h), np.full_like(a_len, h * CARD_ASPECT), False)]
    quads = [np.zeros((0, 4, 2), np.float32)]
    for a, b, within in dims:
        good = (np.maximum(a, b) >= lo * 0.9) & (np.maximum(a, b) <= hi * 1.1)
        if within:
            good &= (a >= 0.8 * a_len) & (b >= 0.8 * b_len)
        ua, vb = u[good] * a[good, None], v[good] * b[good, None]
        xg = x[good]
        quads.append(np.stack([xg, xg + ua, xg + ua + vb, xg + vb], axis=1))
    return np.concatenate(quads).astype(np.float32)


def dedupe(quads: np.ndarray) -> np.ndarray:
    """One of each group of nearly equal quads."""
    if len(quads) == 0:
        return quads
    c = quads.mean(axis=1)
    long, angle = long_edges(quads)
    ang = np.degrees(angle) % 180
    grid = long * 0.06
    key = np.stack([c[:, 0] / grid, c[:, 1] / grid, np.log(long) / 0.06,
                    ang / 6], axis=1).astype(np.int64)
    # One number per key row: np.unique over rows (axis=0) is ~2x slower.
    key -= key.min(axis=0)
    _, first = np.unique(np.ravel_multi_index(key.T, key.max(axis=0) + 1), return_index=True)
    return quads[np.sort(first)]


#: A corner hypothesis is snapped only with an edge near this share of its sides on
#: average (and near a fifth of each): most hypotheses lie along no outline at all, and
#: the cheap screen spares them a snap.
CORNER_RANK = 0.55


#: The last look for cards still missing (``find_cards``): corners whose two sides stop
#: up to this fraction of a card's width short of them (a rounded corner, and a faint
#: side the segment detector broke into pieces; the first look allows ~5 px). Only
#: sides at least ``LONG_SIDE`` of a card's width long count (short segments are print
#: and text), and only hypotheses with an outline along ``WIDE_RANK`` of their sides
#: are snapped (0.9 found the same cards as ``CORNER_RANK`` with 40% fewer snaps). Real
#: composites, 12 frames per height band, cards with a quad of IoU >= 0.6 at 200-260 /
#: 260-330 / 330-440 px: holdout 120 / 115 / 72 -> 120 / 116 / 74, tune 118 / 116 / 74
#: -> 119 / 116 / 74. Cost: ~5-8 ms per 1080p frame. (Allowed in the first look, at
#: 0.10-0.15 of the width, the extra corners also moved the outlines of cards already
#: found, and with them their reads: on tune one card was named wrongly and two fewer
#: were named.) 0 turns the last look off.
CORNER_GAP = 0.15


LONG_SIDE = 0.45


WIDE_RANK = 0.9


#: The last look also proposes cards of this fraction of the table's typical size (see
#: ``TYPICAL_QUANTILE``: most cards are smaller) at corners whose sides meet, screened
#: like the corners above (``WIDE_RANK``). A card smaller than most, one side running on
#: in line with a neighbour's side or the mat's print, had no hypothesis that fit it: the
#: table's size was too big for it, and so was the size its too long segment gave (a
#: table-sized hypothesis may now also have a segment running past its corner). Real
#: composites, 12 frames per height band, 200-260 / 260-330 / 330-440 px: cards with a
#: quad of IoU >= 0.6, holdout 120 / 116 / 74 -> 120 / 117 / 76, tune 119 / 117 / 74 ->
#: 120 / 117 / 74; named with deck lists, holdout 112 / 114 / 74 -> 113 / 116 / 76, tune
#: the same 105 / 113 / 71. Its hypotheses are screened and snapped in one batch with
#: the wide-gap corners'; with ``select_cards``, ``suppress`` and ``dedupe`` made cheaper in
#: the same change, finding a 1080p frame takes no longer than before (2-7 ms more
#: without those). 0 turns it off.
SMALLER_CARD = 0.9


#: The last look also proposes cards this much bigger than the table's typical card
#: (cards differ by the camera's perspective, and the typical one is a quantile of a
#: first selection that parts of cards pull down), at corners whose two segments are
#: both shorter than ``BROKEN_SIDE`` of that card's width: a pale or busy border the
#: segment detector broke into pieces. Such a card has no hypothesis of its own size
#: (that needs a segment along most of a side), and the table's size fell short of it:
#: its snapped outline was a card-shaped quad shifted into a touching neighbour (tune
#: split, 330-440 px plain: Koraidon ex, 137 px long against a typical 123). A corner
#: with a longer segment has a hypothesis of about its own size; proposed there too,
#: the bigger cards found one more card each under hands and glare at 260-330 px but
#: reported two more outlines that are no card under hands. Tune split,
#: ``bench.vision.finder --conditions plain,decoys,tilt,hands,glare``: cards found
#: 117 -> 118 of 119 at 330-440 px plain and decoys (outlines that are no card 5 -> 4);
#: under hands at 260-330 px one more such outline (19 -> 20 of ~124: the upper part of
#: a card under a hand, not found before either); every other cell the same. Named from
#: whole frames (Tesseract) at 330-440 px: plain 98.3 -> 99.2%, decoys 95.0 -> 95.8%.
#: Cost: ~0.4 ms of CPU per 1080p frame. 0 turns it off.
BIGGER_CARD = 1.12
BROKEN_SIDE = 0.8


#: Corner hypotheses closer than this (fraction of their size) count as one.
NMS_DIST = 0.05


def suppress(quads: np.ndarray, dist: float) -> np.ndarray:
    """Best first, quads nearly equal to an earlier one dropped (same centre, size and
    angle within ``dist`` of the size): many corner pairs of one card propose the same
    quad, and one snap of it is enough."""
    if len(quads) < 2 or dist <= 0:
        return quads
    c = quads.mean(axis=1)
    long, ang = long_edges(quads)
    turn = angle_between(ang[:, None], ang[None])
    x, y = c[:, 0], c[:, 1]  # apart: pairs of (n, n, 2) arrays are several times slower
    same = np.triu((np.hypot(x[:, None] - x[None], y[:, None] - y[None]) < dist * long[:, None])
                   & (np.abs(long[:, None] / long[None] - 1) < dist) & (turn < dist), 1)
    keep = np.ones(len(quads), bool)
    for i in np.nonzero(same.any(axis=1))[0]:  # a quad like no later one drops none
        if keep[i]:
            keep &= ~same[i]
    return quads[keep]
