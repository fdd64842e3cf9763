"""Find every card on the mat as a quadrilateral.

Two stages at reduced resolution (longest side 640 px; even the smallest card is ~47 px
tall there), then a refinement on finer pixels:

1. *Rough candidates* from several cues, each cheap and each failing differently:
   outlines (edges closed into regions: the band just inside a card's outline is a
   region), solid blobs (a card's dense art and text filled into one blob, thin mat print
   opened away), texture density (cards are busy, a mat mostly is not) and corners (two
   straight segments meeting at a right angle). A blob too long for one card is cut
   into cards of the size the table's other cards have.
2. *Snapping and scoring*, for all candidates at once (numpy arrays of quads × sides ×
   shifts × samples, no Python loop per candidate): every side is moved to the outermost
   strong straight edge near it whose gradient runs across the side (the card's outer
   outline, not its inner frame), refitted as a line and intersected with its
   neighbours; the quad is then scored by how much of each side has such an edge and by
   its proportions. The best quads win; a quad lying inside an accepted one (the art
   box, the inner frame) is dropped, and one far from the size of the table's other
   cards (two touching cards, an art box) loses score. Around every quad that may be a
   card's upper part (its title and picture are card-shaped, sideways) the whole card
   is proposed and judged with lower bars (edge and outline share), for a pale text
   box on a pale mat. A last look takes corners whose sides stop further short of them
   (a rounded corner, a faint side broken into pieces), and cards a little smaller than
   most, away from the cards already found; whole cards are proposed around those it
   finds too (one may be a part of a card).
3. *Refinement*: the winners' sides are pushed out onto a faint outer outline if one
   lies just outside (a silver border on a grey mat), then snapped once more on a
   half-size (1080p) or full-size copy, probing only pixels next to the sides.

The edge a side needs is deliberately low (``FinderConfig.edge_grad``): a pale card on a
pale mat has a faint outline, and with a strict threshold only its art box qualified,
or a card half hidden by a hand lost to its two halves (each card-shaped). What keeps
mat print out instead is asking more of the outline (``min_support``): a quad made of
tangents to printed rings and a printed line has edges along ~2/3 of it, a card along
nearly all of it.

Cost on one core is ~45-50 ms for a 1080p frame with ten cards (``bench.vision.finder``);
the line-segment detector (~10 ms) and snapping are the biggest parts. The detector
runs on a thread of its own beside the outline stage, so with two cores free a frame
takes ~40-45 ms.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import CARD_ASPECT, clockwise, overlap, portrait


@dataclass(frozen=True)
class FinderConfig:
    """Card sizes the finder accepts, as printed height in full-frame pixels."""

    min_height: float = 140.0
    max_height: float = 560.0
    #: Search at this many pixels along the frame's longest side.
    work_long: int = 640
    canny_low: int = 20
    canny_high: int = 60
    #: Gradient (Sobel / 4 on a 0..255 channel) a card outline must have across a side.
    #: 28 missed the faint outline of pale cards on a pale mat (the art box won); 20
    #: finds them and, with ``min_support`` 0.7, more real cards than 28 with 0.62 did
    #: (tune split: recall 88-100% instead of 87-93% per height band) with fewer false
    #: finds.
    edge_grad: float = 20.0
    #: Mean fraction of the outline with such an edge for a quad to be a card. (0.62
    #: at ``edge_grad`` 28; with the lower bar mat print offers more edges, and a quad of
    #: tangents to printed rings and a printed line reached 0.66.)
    min_support: float = 0.7
    #: Fraction every single side must reach (a hand may hide part of one side).
    min_side_support: float = 0.3
    #: At most this many corner hypotheses are snapped (best screened first). A cap of
    #: 60 saves ~15% of the time but loses ~10 points of recall on the real composites
    #: (tune split), so by default there is none.
    max_corner_snaps: int = 1000
    #: Samples per side in the first, wide snap of every candidate.
    snap_samples: int = 16
    #: The edge a whole card proposed around a part of one (``_completions``) needs
    #: along its sides: half ``edge_grad``, since the part missed is most often a pale
    #: text box on a pale mat (tune split, cards left without a quad of IoU >= 0.6: 11 of
    #: 270 -> 7; at 14, 8; at 20, 9).
    completion_grad: float = 10.0
    #: ... and ``min_support`` there. A card upside down with its pale text half on a
    #: pale mat had an edge along 0.69 of its outline at that bar, and only its
    #: picture and name were found (tune split).
    completion_support: float = 0.65
    #: Refine corners on finer pixels (half size for a 1080p frame, else full size).
    full_res_refine: bool = True
    #: Gradient an edge needs in that refinement. The finer pixels show an outline
    #: sharper than the search image does, and a higher bar there keeps a corner on the
    #: card's outline rather than on a faint shadow or sleeve edge next to it.
    refine_grad: float = 28.0
    #: Look this far (fraction of the card's width) outside a found outline for a faint
    #: outer one: a silver border on a grey mat has a weak outer edge and a strong inner
    #: one (border to art), and the first snap takes the strong one.
    border_search: float = 0.06
    #: ... accepting an edge of this fraction of ``refine_grad`` there, along at least
    #: ``border_support`` of the side.
    border_grad: float = 0.35
    border_support: float = 0.55
    #: Samples per side in that search (32 costs ~3 ms more and found the same corners,
    #: tune split).
    border_samples: int = 16
    #: The line-segment detector's own downscale of the search image (its default). At
    #: 0.7 it is ~2 ms faster but found 4 fewer of 221 cards (tune split).
    lsd_scale: float = 0.8


# ---------------------------------------------------------------------------- cues


#: Per corner (or side) of a quad, the next one and the one before, clockwise: for
#: ``take(_NEXT, axis=1)``, ~10x faster than ``np.roll`` on the finder's small arrays.
_NEXT, _PREV = np.array([1, 2, 3, 0]), np.array([3, 0, 1, 2])


def _edges(channels: tuple[np.ndarray, ...], cfg: FinderConfig) -> np.ndarray:
    """Outline evidence: Canny on brightness and on colour (the L, a, b ``channels`` of
    ``_lab``), so a silver border on a grey mat (little brightness step) still shows
    where its hue differs."""
    edges = cv2.Canny(channels[0], cfg.canny_low, cfg.canny_high)
    for ch in (1, 2):
        edges |= cv2.Canny(channels[ch], cfg.canny_low // 2 + 4, cfg.canny_high // 2 + 8)
    return edges


def _lab(image: np.ndarray) -> np.ndarray:
    """The image lightly blurred, in Lab: what both the edges and the gradient read."""
    return cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB)


def _gradient(channels: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per pixel the gradient of the channel (L, a, b) that changes most there, as
    (gx, gy, |gx| + |gy|, 0) interleaved, with a zero border pixel ring, so one gather
    (``_gather``) fetches all three and points outside the image read as "no edge".
    Colour counts 1.6× (a silver border on a grey mat differs more in hue than in
    brightness); Sobel / 4 is a difference over two pixels."""
    best_gx = best_gy = best_mag = None
    for ch, gain in ((0, 1.0), (1, 1.6), (2, 1.6)):
        gx = cv2.Sobel(channels[ch], cv2.CV_32F, 1, 0, ksize=3, scale=gain / 4)
        gy = cv2.Sobel(channels[ch], cv2.CV_32F, 0, 1, ksize=3, scale=gain / 4)
        mag = cv2.add(np.abs(gx), np.abs(gy))
        if best_mag is None:
            best_gx, best_gy, best_mag = gx, gy, mag
            continue
        # Blend with a 0/1 mask: plain arithmetic is ~20× faster than a masked copy,
        # which branches per pixel on a mask too irregular for the CPU to predict.
        take = (mag > best_mag).astype(np.float32)
        best_gx += take * (gx - best_gx)
        best_gy += take * (gy - best_gy)
        best_mag = np.maximum(best_mag, mag)
    assert best_gx is not None and best_gy is not None and best_mag is not None
    # A fourth, empty channel makes a pixel 16 bytes: see _gather.
    packed = cv2.merge([best_gx, best_gy, best_mag, np.zeros_like(best_mag)])
    return cv2.copyMakeBorder(packed, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)


def _solid_blobs(edges: np.ndarray, close_px: int, max_hole: float, open_px: int,
                 max_side: float) -> np.ndarray:
    """Cards as solid blobs: closing fills a card's dense texture (art, text) while the
    mat's sparse print stays thin; holes a card's flat panels leave are filled; opening
    then removes thin print lines and spurs."""
    k_close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close_px, close_px))
    mask = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, k_close)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        for i, contour in enumerate(contours):
            if hierarchy[0][i][3] < 0 or cv2.contourArea(contour) >= max_hole:
                continue
            _x, _y, w, h = cv2.boundingRect(contour)
            if max(w, h) < max_side:
                cv2.drawContours(mask, contours, i, 255, -1)
    k_open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_px, open_px))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, k_open)


def _dense(edges: np.ndarray, card_w: float) -> np.ndarray:
    """Where edges are dense (card art and text), opened so lines of mat print go."""
    k = max(3, int(card_w * 0.18)) | 1
    density = cv2.boxFilter(edges, cv2.CV_32F, (k, k), normalize=True) / 255.0
    mask = (density > 0.09).astype(np.uint8) * 255
    close = max(3, int(card_w * 0.3)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    op = max(3, int(card_w * 0.4)) | 1
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (op, op)))


# ------------------------------------------------------------------ candidate quads


def _fit_quad(contour: np.ndarray) -> np.ndarray:
    """Four corners of a blob: a 4-point polygon if the outline gives one, else the
    minimum-area rectangle."""
    peri = cv2.arcLength(contour, True)
    for eps in (0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(contour, eps * peri, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def _side_lengths(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(short, long) mean lengths of the opposite sides of many quads."""
    s = np.linalg.norm(quads.take(_NEXT, axis=1) - quads, axis=2)
    one, other = (s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2
    return np.minimum(one, other), np.maximum(one, other)


def _long_side(quads: Sequence[np.ndarray], quantile: float = 0.5) -> float | None:
    """The ``quantile`` (the median unless told) of the long sides of ``quads``, or None
    for none."""
    if not quads:
        return None
    return float(np.quantile(_side_lengths(np.stack(quads))[1], quantile))


def _split(rect: tuple, card_long: float) -> list[np.ndarray]:
    """Quads for a blob that holds several touching cards: its rectangle cut into a grid
    of cards about ``card_long`` tall (portrait or landscape)."""
    (cx, cy), (w, h), angle = rect
    if w <= 0 or h <= 0:
        return []
    box = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    # box[0]→box[1] is one axis (length w or h), box[1]→box[2] the other.
    a, b, _c, d = box
    u_len = float(np.linalg.norm(b - a))
    v_len = float(np.linalg.norm(d - a))
    out = []
    card_short = card_long * CARD_ASPECT
    for cu, cv_ in ((card_short, card_long), (card_long, card_short)):
        nu, nv = max(1, round(u_len / cu)), max(1, round(v_len / cv_))
        if nu * nv < 2 or nu * nv > 12:
            continue
        if abs(u_len / nu - cu) > 0.2 * cu or abs(v_len / nv - cv_) > 0.2 * cv_:
            continue
        du, dv = (b - a) / nu, (d - a) / nv
        for i in range(nu):
            for j in range(nv):
                p = a + du * i + dv * j
                out.append(np.float32([p, p + du, p + du + dv, p + dv]))
    return out


def _candidates(small: np.ndarray, edges: np.ndarray, lo: float, hi: float
                ) -> tuple[list[np.ndarray], list[tuple]]:
    """Rough card quads from every cue, and rectangles of blobs too big for one card."""
    min_w = lo * CARD_ASPECT
    closed = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    solid = _solid_blobs(edges, max(3, int(min_w * 0.25)) | 1, hi * hi * CARD_ASPECT * 0.6,
                         max(5, int(min_w * 0.35)) | 1, hi)
    blobs, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    dense, _ = cv2.findContours(_dense(edges, min_w * 1.3), cv2.RETR_EXTERNAL,
                                cv2.CHAIN_APPROX_SIMPLE)
    min_area = lo * lo * CARD_ASPECT * 0.6
    max_area = hi * hi * CARD_ASPECT * 1.3
    quads: list[np.ndarray] = []
    big: list[tuple] = []
    seen: set[tuple[int, int, int, int]] = set()
    for contour in list(outlines) + list(blobs) + list(dense):
        a = cv2.contourArea(contour)
        if a < min_area or a > max_area * 10:
            continue
        rect = cv2.minAreaRect(contour)
        (cx, cy), (w, h), _ang = rect
        if w * h > max_area or max(w, h) > hi * 1.25:
            if a > 0.6 * w * h:
                big.append(rect)
            continue
        if min(w, h) < min_w * 0.7 or a < 0.6 * w * h:
            continue
        ratio = min(w, h) / max(w, h)
        if not 0.5 <= ratio <= 0.95:
            continue
        key = (int(cx / 4), int(cy / 4), int(w / 4), int(h / 4))
        if key in seen:
            continue
        seen.add(key)
        quads.append(_fit_quad(contour))
    return quads, big


def _segments(grey: np.ndarray, min_len: float, scale: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
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
class _Corners:
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


def _corners(segments: tuple[np.ndarray, np.ndarray]) -> _Corners | None:
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
    # Intersection of the two lines: p_i + s d_i = p_j + t d_j.
    di, dj = d[ii], d[jj]
    det = di[:, 0] * (-dj[:, 1]) - di[:, 1] * (-dj[:, 0])
    r = p[jj] - p[ii]
    s = (r[:, 0] * (-dj[:, 1]) - r[:, 1] * (-dj[:, 0])) / det
    t = (di[:, 0] * r[:, 1] - di[:, 1] * r[:, 0]) / det
    return _Corners(p, d, length, ii, jj, s, t)


def _corner_quads(corners: _Corners | None, lo: float, hi: float, sizes: list[float],
                  wide_gap: float = 0.0, own_sizes: bool = True) -> np.ndarray:
    """Rough quads from corners: two straight segments meeting at about a right angle
    at their ends (``corners``) are two sides of a card. The card's size comes from the
    segments' lengths (a side seen whole; not with ``own_sizes`` False) and from
    ``sizes`` (card heights already found; a segment may then run on past the card's
    far corner, where a neighbour's side or the mat's print continues it). With
    ``wide_gap``, only the corners of two segments each at least ``LONG_SIDE`` of a
    card's width that end up to that fraction of its width short of their corner (and
    further than the usual tolerance)."""
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


def _long_edges(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per quad the length of the longer of its first two sides and that side's angle
    (radians): a quad's size and direction, for telling near-equal quads apart."""
    e1 = quads[:, 1] - quads[:, 0]
    e2 = quads[:, 2] - quads[:, 1]
    l1, l2 = np.linalg.norm(e1, axis=1), np.linalg.norm(e2, axis=1)
    e = np.where((l1 >= l2)[:, None], e1, e2)
    return np.maximum(l1, l2), np.arctan2(e[:, 1], e[:, 0])


def _dedupe(quads: np.ndarray) -> np.ndarray:
    """One of each group of nearly equal quads."""
    if len(quads) == 0:
        return quads
    c = quads.mean(axis=1)
    long, angle = _long_edges(quads)
    ang = np.degrees(angle) % 180
    grid = long * 0.06
    key = np.stack([c[:, 0] / grid, c[:, 1] / grid, np.log(long) / 0.06,
                    ang / 6], axis=1).astype(np.int64)
    # One number per key row: np.unique over rows (axis=0) is ~2x slower.
    key -= key.min(axis=0)
    _, first = np.unique(np.ravel_multi_index(key.T, key.max(axis=0) + 1), return_index=True)
    return quads[np.sort(first)]


@functools.cache
def _along(samples: int, end: float = 0.1) -> np.ndarray:
    """Where a side is sampled: ``samples`` fractions of it, ``end`` of it left out at
    either end (read-only: one array serves every call)."""
    t = np.linspace(end, 1 - end, samples, dtype=np.float32)
    t.flags.writeable = False
    return t


def _coarse_support(quads: np.ndarray, dist: np.ndarray, band: float) -> np.ndarray:
    """Per quad and side: fraction of the side within ``band`` px of an edge pixel
    (``dist`` is the distance to the nearest edge), for many quads at once."""
    t = _along(12, 0.12)
    a = quads
    b = quads.take(_NEXT, axis=1)
    pts = a[:, :, None, :] + (b - a)[:, :, None, :] * t[None, None, :, None]
    h, w = dist.shape
    xi = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, w - 1)
    yi = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, h - 1)
    inside = (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)
    near = (dist.reshape(-1).take(yi * w + xi) <= band) & inside  # a flat take: see _gather
    return near.mean(axis=2)


# ---------------------------------------------------------------- snap and score


def _gather(packed: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(…, 4) gradient from ``_gradient`` at points (``x``, ``y``): nearest pixel, zero
    outside the image."""
    h, w = packed.shape[:2]
    # x + 1.5 truncated: the nearest pixel, shifted by the border ring (negative values
    # truncate towards zero and are clipped onto the zero border anyway).
    xi = np.clip((x + 1.5).astype(np.int32), 0, w - 1)
    yi = np.clip((y + 1.5).astype(np.int32), 0, h - 1)
    # One flat take of whole pixels, each seen as a single 16-byte number: ~2x faster
    # than taking rows of three floats (a 1080p frame's ~430,000 points: 2.9 -> 1.3 ms),
    # ~8x faster than indexing with two arrays.
    pixels = packed.reshape(-1).view(np.complex128)
    return pixels.take(yi * w + xi).view(np.float32).reshape(*xi.shape, 4)


def _side_frames(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per quad and side: start, end, unit direction and outward unit normal."""
    a = quads
    b = quads.take(_NEXT, axis=1)
    d = b - a
    length = np.maximum(np.linalg.norm(d, axis=2, keepdims=True), 1e-3)
    d = d / length
    normal = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    centre = quads.mean(axis=1, keepdims=True)
    flip = ((normal * ((a + b) / 2 - centre)).sum(axis=2, keepdims=True) < 0)
    normal = np.where(flip, -normal, normal)
    return a, b, d, normal


def _hits_many(packed: np.ndarray, a: np.ndarray, b: np.ndarray, normal: np.ndarray,
               offsets: np.ndarray, samples: int, thr: float) -> tuple[np.ndarray, np.ndarray]:
    """Edge hits across every side (N, 4) shifted by every offset (K) at ``samples``
    points along it: hits (N, 4, K, M) and the unshifted points (N, 4, M, 2) (a hit's
    point is its unshifted point plus offset × normal). ``packed`` is a gradient image
    from ``_gradient`` or, for a few quads, the BGR image itself (probed).

    A hit is a gradient of at least ``thr`` straight across the side that is most of
    the gradient there: an edge running along the side, not one crossing it."""
    t = _along(samples)
    base = a[:, :, None, :] + (b - a)[:, :, None, :] * t[None, None, :, None]  # N,4,M,2
    nx, ny = normal[:, :, None, None, 0], normal[:, :, None, None, 1]
    if packed.dtype == np.uint8:  # a BGR image: probe the few points needed
        pts = base[:, :, None, :, :] + (offsets[None, None, :, None, None]
                                        * normal[:, :, None, None, :])
        d = b - a
        d = d / np.maximum(np.linalg.norm(d, axis=-1, keepdims=True), 1e-6)
        g = _probe(packed, pts, normal[:, :, None, None, :], d[:, :, None, None, :])
    else:
        # x and y apart: a trailing axis of 2 makes every broadcast operation ~5× slower.
        off = offsets[None, None, :, None]
        g = _gather(packed, base[:, :, None, :, 0] + off * nx,
                    base[:, :, None, :, 1] + off * ny)
    across = np.abs(g[..., 0] * nx + g[..., 1] * ny)
    hits = (across >= thr) & (across >= 0.6 * g[..., 2])
    return hits, base


def _fit_lines(pts: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Least-squares lines through weighted points (…, M, 2): centre, unit direction and
    the weight used."""
    wsum = np.maximum(weight.sum(axis=-1), 1e-6)
    c = (pts * weight[..., None]).sum(axis=-2) / wsum[..., None]
    r = pts - c[..., None, :]
    sxx = (weight * r[..., 0] ** 2).sum(axis=-1)
    syy = (weight * r[..., 1] ** 2).sum(axis=-1)
    sxy = (weight * r[..., 0] * r[..., 1]).sum(axis=-1)
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return c, np.stack([np.cos(theta), np.sin(theta)], axis=-1), weight.sum(axis=-1)


def _snap_many(quads: np.ndarray, packed: np.ndarray, band: np.ndarray, thr: float,
               samples: int = 16, outer: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Every quad's sides moved onto the card outline near them, all quads at once, as
    quads and a validity mask.

    Per side the support of each shift within ``band`` px (per quad, or per quad and
    side as (N, 4)) is the share of the side lying on an edge; the *outermost* shift
    whose support reaches 75% of the best (or ``outer``, if lower) wins: the card's
    outer outline rather than its inner frame or art. A line is fitted through the hits
    there, so the side may tilt a little, and neighbouring lines are intersected into
    corners."""
    n = len(quads)
    if n == 0:
        return quads, np.zeros(0, bool)
    a, b, d, normal = _side_frames(quads)
    reach = int(np.ceil(band.max()))
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    hits, base = _hits_many(packed, a, b, normal, offsets, samples, thr)
    # A slightly tilted line spreads over neighbouring offsets: take the hit within ±1.
    spread = hits.copy()
    spread[:, :, 1:] |= hits[:, :, :-1]
    spread[:, :, :-1] |= hits[:, :, 1:]
    support = spread.mean(axis=3)  # N,4,K
    support *= np.abs(offsets)[None, None, :] <= band.reshape(n, -1, 1) + 0.01
    best = support.max(axis=2)
    # The outermost strong line: the card's outer outline, not its inner frame or art.
    strong = support >= np.minimum(0.75 * best, outer)[..., None]
    k = len(offsets) - 1 - np.argmax(strong[:, :, ::-1], axis=2)  # N,4
    # Per column the hit nearest row k (within ±2): the outline's points.
    win = np.arange(-2, 3)
    rows = np.clip(k[..., None] + win, 0, len(offsets) - 1)  # N,4,5
    wh = np.take_along_axis(hits, rows[..., None], axis=2)  # N,4,5,M
    dist = np.where(wh, np.abs(win)[None, None, :, None], 99)
    pick = dist.argmin(axis=2)  # N,4,M
    has = dist.min(axis=2) < 99
    row = np.take_along_axis(rows, pick, axis=2)  # N,4,M
    chosen = base + offsets[row][..., None] * normal[:, :, None, :]  # N,4,M,2
    w = has.astype(np.float32)
    c, dirs, _ = _fit_lines(chosen, w)
    # One robust pass: drop points more than 1.5 px off the first line and refit.
    resid = np.abs(((chosen - c[:, :, None, :]) * np.stack([-dirs[..., 1], dirs[..., 0]], -1)
                    [:, :, None, :]).sum(-1))
    w2 = w * (resid <= 1.5)
    c2, dirs2, wsum = _fit_lines(chosen, w2)
    good_fit = (wsum >= 5) & (np.abs((dirs2 * d).sum(-1)) >= 0.97)  # within ~14° of the side
    shift = np.take_along_axis(np.broadcast_to(offsets, k.shape + offsets.shape), k[..., None],
                               axis=2)[..., 0]
    p0 = np.where(good_fit[..., None], c2, a + normal * shift[..., None])
    dd = np.where(good_fit[..., None], dirs2, d)
    # Corner i is where side i-1 meets side i.
    p1, d1 = p0.take(_PREV, axis=1), dd.take(_PREV, axis=1)
    det = d1[..., 0] * (-dd[..., 1]) + dd[..., 0] * d1[..., 1]
    r = p0 - p1
    tt = (r[..., 0] * (-dd[..., 1]) + dd[..., 0] * r[..., 1]) / np.where(np.abs(det) < 1e-6, 1, det)
    out = (p1 + d1 * tt[..., None]).astype(np.float32)
    ok = (best >= 0.2).all(axis=1) & (np.abs(det) >= 1e-6).all(axis=1) & _convex(out)
    return out, ok


def _convex(quads: np.ndarray) -> np.ndarray:
    """Which quads are convex (all turns the same way)."""
    e = quads.take(_NEXT, axis=1) - quads
    f = e.take(_NEXT, axis=1)
    cross = e[..., 0] * f[..., 1] - e[..., 1] * f[..., 0]
    return (cross > 0).all(axis=1) | (cross < 0).all(axis=1)


def _support_many(quads: np.ndarray, packed: np.ndarray, thr: float, samples: int = 40
                  ) -> np.ndarray:
    """Per quad and side: the fraction of it (corners left out) lying on an edge across
    it, within ±1 px."""
    a, b, _d, normal = _side_frames(quads)
    hits, _ = _hits_many(packed, a, b, normal, np.float32([-1, 0, 1]), samples, thr)
    return hits.any(axis=2).mean(axis=2)


def _turn(angle: np.ndarray | float, other: np.ndarray | float) -> np.ndarray | float:
    """The angle between lines at ``angle`` and ``other`` (radians, element-wise for
    arrays), from 0 to pi/2."""
    return np.abs((angle - other + np.pi / 2) % np.pi - np.pi / 2)


def _crosswise(angle: float, other: float) -> bool:
    """Whether two quads' long sides (at ``angle`` and ``other``) lie nearer square to
    each other than in line."""
    return bool(_turn(angle, other) > np.pi / 4)


def _surrounds(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether every corner of ``inner`` lies inside ``outer`` by ``BORDER_MARGIN`` of
    ``outer``'s short side."""
    hull = outer.astype(np.float32).reshape(-1, 1, 2)
    depth = min(cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in inner)
    return depth >= BORDER_MARGIN * float(_side_lengths(outer[None])[0][0])


def _shape_many(quads: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Per quad 0 for a shape no card could be, else a score near 1 for a card's
    proportions. A camera 20° off vertical squeezes one axis by ~6% and makes opposite
    sides differ, so both are allowed some slack."""
    s = np.linalg.norm(quads.take(_NEXT, axis=1) - quads, axis=2)  # N,4
    pa, pb = (s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2
    short, long = np.minimum(pa, pb), np.maximum(pa, pb)
    ratio = short / np.maximum(long, 1e-6)
    eq = ((np.minimum(s[:, 0], s[:, 2]) >= 0.75 * np.maximum(s[:, 0], s[:, 2]))
          & (np.minimum(s[:, 1], s[:, 3]) >= 0.75 * np.maximum(s[:, 1], s[:, 3])))
    ok = (long >= lo) & (long <= hi) & (short > 0) & (ratio >= 0.58) & (ratio <= 0.86) & eq
    return np.where(ok, 1 - np.abs(ratio - CARD_ASPECT), 0.0)


# ------------------------------------------------------------ corner refinement


#: Channel weights of the probed gradient (as in ``_gradient``: colour counts more, so
#: a silver border on a grey mat still shows where its hue differs).
_GAIN = np.float32([1.0, 1.6, 1.6])


def _probe(image: np.ndarray, pts: np.ndarray, normal: np.ndarray, along: np.ndarray
           ) -> np.ndarray:
    """The gradient at sub-pixel points ``pts`` (…, 2) of ``image``, packed as
    ``_gather`` answers, measured straight across (``normal``) and along the side by
    bilinear probes one pixel either way. For a handful of quads this beats computing a
    gradient image of their crops by ~10×."""
    shape = pts.shape[:-1]
    p = pts.reshape(-1, 2)
    n = np.broadcast_to(normal, pts.shape).reshape(-1, 2)
    d = np.broadcast_to(along, pts.shape).reshape(-1, 2)
    probes = np.concatenate([p + n, p - n, p + d, p - d]).astype(np.float32)
    # Two probes across the side's direction average the along-side noise (as the
    # Sobel kernel's smoothing does).
    half = 0.5 * np.concatenate([d, d, n, n]).astype(np.float32)
    probes = np.concatenate([probes + half, probes - half])
    # remap wants maps under 32767 rows: lay the probes out as rows of 256.
    count = len(probes)
    pad = -count % 256
    mx = np.pad(probes[:, 0], (0, pad)).reshape(-1, 256)
    my = np.pad(probes[:, 1], (0, pad)).reshape(-1, 256)
    vals = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(vals, cv2.COLOR_BGR2LAB).reshape(-1, 3)[:count]
    lab = lab.reshape(2, 4, -1, 3).astype(np.float32)
    lab = lab.mean(axis=0) * _GAIN
    # A difference over two pixels: the scale of ``_gradient``'s Sobel / 4.
    across = lab[0] - lab[1]
    along_g = lab[2] - lab[3]
    mag = np.abs(across) + np.abs(along_g)
    ch = mag.argmax(axis=1)
    idx = np.arange(len(ch))
    a_, b_, m_ = across[idx, ch], along_g[idx, ch], mag[idx, ch]
    gx = a_ * n[:, 0] + b_ * d[:, 0]
    gy = a_ * n[:, 1] + b_ * d[:, 1]
    return np.stack([gx, gy, m_], axis=-1).reshape(shape + (3,))


def _areas(quads: np.ndarray) -> np.ndarray:
    """Areas of many quads (shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * y.take(_NEXT, axis=1) - x.take(_NEXT, axis=1) * y).sum(axis=1))


def _refine(fine: np.ndarray, quads: np.ndarray, reach: float, cfg: FinderConfig
            ) -> np.ndarray:
    """The quads' corners snapped on the finer image ``fine`` (quads in its pixels),
    probing only the pixels near their sides, all quads at once: first outward onto a
    faint outer outline if there is one (``FinderConfig.border_search``; never onto
    another quad's outline), then onto the exact edge. A quad whose snap fails or jumps
    further than ``2 * reach`` stays."""
    quads = quads.astype(np.float32)
    thr = cfg.refine_grad
    if cfg.border_search > 0:
        short, _long = _side_lengths(quads)
        band = np.maximum(reach, cfg.border_search * short).astype(np.float32)
        wide, ok = _snap_many(quads, fine, band, thr * cfg.border_grad, samples=cfg.border_samples,
                              outer=cfg.border_support)
        # A side that grew onto another card's outline took the neighbour's edge for the
        # card's own (a card's top grown onto the bottom of the card above it): that side
        # searches no further than the exact snap below. (Real composites, 12 frames per
        # height band, cards with a quad of IoU >= 0.9 at 200-260 / 260-330 / 330-440 px:
        # tune 106 / 100 / 65 -> 110 / 106 / 66, holdout 100 / 101 / 66 -> 107 / 104 / 67;
        # the cards named with deck lists: holdout 260-330 px 111 -> 113 of 118.)
        onto = _on_outlines(wide, quads, reach) & ok[:, None]
        if onto.any():
            redo = np.nonzero(onto.any(axis=1))[0]
            sides = np.where(onto[redo], reach, band[redo, None]).astype(np.float32)
            wide[redo], ok[redo] = _snap_many(quads[redo], fine, sides, thr * cfg.border_grad,
                                              samples=cfg.border_samples, outer=cfg.border_support)
        grow = ok & (_areas(wide) >= _areas(quads))
        quads = np.where(grow[:, None, None], wide, quads)
    snapped, ok = _snap_many(quads, fine, np.full(len(quads), reach, np.float32), thr, samples=32)
    ok &= np.abs(snapped - quads).max(axis=(1, 2)) <= 2 * reach
    return np.where(ok[:, None, None], snapped, quads)


def _on_outlines(quads: np.ndarray, others: np.ndarray, tol: float) -> np.ndarray:
    """Per quad and side (N, 4): whether the side's midpoint lies inside, or within
    ``tol`` px of, one of ``others`` (the same N quads, each not tested against itself)."""
    a, b, _d, normal = _side_frames(others)
    mid = (quads + quads.take(_NEXT, axis=1)) / 2  # N,4,2
    # Distance inside each other quad: the least over its sides (convex quads).
    depth = ((a[None, None] - mid[:, :, None, None]) * normal[None, None]).sum(-1).min(axis=3)  # N,4,N
    n = len(quads)
    depth[np.arange(n), :, np.arange(n)] = -np.inf
    return (depth >= -tol).any(axis=2)


_worker: ThreadPoolExecutor | None = None


def _side_worker() -> ThreadPoolExecutor:
    """One thread for the part of finding that can run beside the rest."""
    global _worker
    if _worker is None:
        _worker = ThreadPoolExecutor(1, thread_name_prefix="card-finder")
    return _worker


#: ``find_cards``'s ``ahead``: given the cards found before the last look (quads in the
#: search copy's pixels), it may start ``finish_cards`` on them elsewhere and return how
#: to wait for its result (None: it failed), or return None when it cannot.
Ahead = Callable[[np.ndarray], Callable[[], "list[np.ndarray] | None"] | None]


def find_cards(frame: np.ndarray, config: FinderConfig | None = None, ahead: Ahead | None = None
               ) -> list[np.ndarray]:
    """Every card in a BGR frame as a quad in frame pixels, corners clockwise with a
    short side first (upright or upside down: the reader decides which). With two cores,
    ``ahead`` may refine the cards found before the last look on the other while this
    one looks: most often the last look finds nothing more, and then they are the result."""
    cfg = config or FinderConfig()
    fine_scale, scale = _scales(frame, cfg)
    fine = _fine_copy(frame, fine_scale)
    small = cv2.resize(fine, None, fx=scale / fine_scale, fy=scale / fine_scale,
                       interpolation=cv2.INTER_AREA) if scale < fine_scale else fine
    lo, hi = cfg.min_height * scale, cfg.max_height * scale
    # The segment detector needs only the small grey copy: it runs on the other core
    # while the outlines are found and snapped (OpenCV releases the GIL).
    segments_ahead = _side_worker().submit(
        _segments, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), lo * CARD_ASPECT * 0.3, cfg.lsd_scale)
    channels = cv2.split(_lab(small))
    edges = _edges(channels, cfg)
    packed = _gradient(channels)
    quads, big = _candidates(small, edges, lo, hi)
    scored: list[tuple[float, np.ndarray]] = []

    def consider(rough: np.ndarray, grad: float = cfg.edge_grad, support: float = cfg.min_support) -> None:
        if len(rough) == 0:
            return
        rough = rough.astype(np.float32)
        short, _long = _side_lengths(rough)
        q, ok = _snap_many(rough, packed, np.maximum(3.0, 0.09 * short), grad,
                           samples=cfg.snap_samples)
        q = q[ok]
        q, ok = _snap_many(q, packed, np.full(len(q), 2.0, np.float32), grad)
        q = q[ok]
        if len(q) == 0:
            return
        # A side lying along the frame's edge is the frame, not a card's outline.
        shape = _shape_many(q, lo, hi) * ~_on_frame_edge(q, small.shape[1], small.shape[0])
        sup = _support_many(q, packed, grad)
        good = (shape > 0) & (sup.mean(axis=1) >= support) \
            & (sup.min(axis=1) >= cfg.min_side_support)
        for k in np.nonzero(good)[0]:
            scored.append((float(sup[k].mean() * shape[k]), q[k]))

    consider(np.array(quads, np.float32).reshape(-1, 4, 2))
    corners = _corners(segments_ahead.result())
    dist = cv2.distanceTransform(255 - edges, cv2.DIST_L2, 3)

    def consider_corners(hypotheses: np.ndarray, rank_needed: float) -> None:
        hypotheses = _dedupe(hypotheses)
        if not len(hypotheses):
            return
        # Cheap screen first: most corner hypotheses have no outline along their sides.
        sup = _coarse_support(hypotheses, dist, max(3.0, lo * CARD_ASPECT * 0.07))
        rank = sup.mean(axis=1)
        good = np.nonzero((rank >= rank_needed) & (sup.min(axis=1) >= 0.2))[0]
        good = good[np.argsort(-rank[good])][:cfg.max_corner_snaps]
        cand = hypotheses[good]
        if scored and len(cand):
            # A hypothesis on a card already found costs a snap and finds nothing new.
            known = np.stack([q for _s, q in scored])
            kc, kl = known.mean(axis=1), _side_lengths(known)[1]
            cc, cl = cand.mean(axis=1), _side_lengths(cand)[1]
            near = np.linalg.norm(cc[:, None] - kc[None], axis=2) < 0.12 * kl[None]
            alike = np.abs(cl[:, None] / kl[None] - 1) < 0.12
            cand = cand[~(near & alike).any(axis=1)]
        consider(_suppress(cand, NMS_DIST))

    size = _long_side([q for _s, q in scored])
    consider_corners(_corner_quads(corners, lo, hi, [size] if size else []), CORNER_RANK)
    if size is None and (size := _long_side([q for _s, q in scored])):
        # No outline closed into a contour, so the corners were sized by their own
        # segments, often a side's visible part only: size them again by the cards
        # those found.
        consider_corners(_corner_quads(corners, lo, hi, [size]), CORNER_RANK)
    # Cards on one table are about the same size: cut blobs of touching cards into cards
    # of the size already found (or, with none found yet, of every plausible size).
    found = _long_side([q for _s, q in scored])
    card_long = [found] if found else list(np.linspace(lo, hi, 6)[1:-1])
    cuts = [rough for rect in big for cl in card_long for rough in _split(rect, cl)]
    consider(np.array(cuts, np.float32).reshape(-1, 4, 2))
    first = _select(list(scored))
    typical = _table_card(first)
    consider(_completions(first, typical), cfg.completion_grad, cfg.completion_support)
    kept = _select(_by_table_size(scored, typical))
    before_last_look = np.stack(kept) if kept else None
    finished_ahead = ahead(before_last_look) if ahead and kept else None
    if typical is not None and CORNER_GAP:
        # A last look for cards still missing, from corners whose sides stop short of
        # them (``CORNER_GAP``); hypotheses on cards already found are not snapped.
        known = len(scored)
        last = [_corner_quads(corners, lo, hi, [typical], CORNER_GAP)]
        if SMALLER_CARD:
            last.append(_corner_quads(corners, lo, hi, [typical * SMALLER_CARD], own_sizes=False))
        consider_corners(np.concatenate(last), WIDE_RANK)
        if len(scored) > known:
            kept = _select(_by_table_size(scored, typical))
            # A card the last look found may be a part of one, as a first look's may. (Around
            # every card kept, not only these, named one more card on holdout but took ~5 ms
            # more per frame: the last look finds some quad in most frames.)
            new = [q for q in kept if before_last_look is None or not (before_last_look == q).all(axis=(1, 2)).any()]
            if new:
                consider(_completions(new, typical), cfg.completion_grad, cfg.completion_support)
                kept = _select(_by_table_size(scored, typical))
    if not kept:
        return []
    found = np.stack(kept)
    if finished_ahead and np.array_equal(found, before_last_look) and (finished := finished_ahead()) is not None:
        return finished
    return _finish(fine, found, fine_scale, scale, cfg)


def finish_cards(frame: np.ndarray, found: np.ndarray, config: FinderConfig | None = None
                 ) -> list[np.ndarray]:
    """What ``find_cards`` makes of the cards it found (``found``: quads in its search
    copy's pixels, as ``find_cards``'s ``ahead`` is given them): their corners refined,
    in frame pixels."""
    cfg = config or FinderConfig()
    fine_scale, scale = _scales(frame, cfg)
    return _finish(_fine_copy(frame, fine_scale), found, fine_scale, scale, cfg)


def _scales(frame: np.ndarray, cfg: FinderConfig) -> tuple[float, float]:
    """The frame's scale in the copy corners are refined on, and in the search copy.
    Corners are refined on a half-size copy of a big frame (a 2:1 area resize is nearly
    free and a pixel there is still under 1% of the smallest card's height); candidates
    are searched on a smaller copy still."""
    fh, fw = frame.shape[:2]
    fine_scale = 0.5 if max(fh, fw) >= 1600 and fh % 2 == 0 and fw % 2 == 0 else 1.0
    return fine_scale, min(1.0, cfg.work_long / max(fh, fw))


def _fine_copy(frame: np.ndarray, fine_scale: float) -> np.ndarray:
    return cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) if fine_scale < 1 else frame


def _finish(fine: np.ndarray, found: np.ndarray, fine_scale: float, scale: float, cfg: FinderConfig
            ) -> list[np.ndarray]:
    quads = found.astype(np.float32) * (fine_scale / scale)
    if cfg.full_res_refine and scale < fine_scale:
        quads = _refine(fine, quads, max(2.0, 1.5 * fine_scale / scale), cfg)
    return [portrait(q / fine_scale) for q in quads]


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
#: the wide-gap corners'; with ``_select``, ``_suppress`` and ``_dedupe`` made cheaper in
#: the same change, finding a 1080p frame takes no longer than before (2-7 ms more
#: without those). 0 turns it off.
SMALLER_CARD = 0.9
#: Corner hypotheses closer than this (fraction of their size) count as one.
NMS_DIST = 0.05
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


def _suppress(quads: np.ndarray, dist: float) -> np.ndarray:
    """Best first, quads nearly equal to an earlier one dropped (same centre, size and
    angle within ``dist`` of the size): many corner pairs of one card propose the same
    quad, and one snap of it is enough."""
    if len(quads) < 2 or dist <= 0:
        return quads
    c = quads.mean(axis=1)
    long, ang = _long_edges(quads)
    turn = _turn(ang[:, None], ang[None])
    gap = c[:, None] - c[None]
    same = np.triu((np.hypot(gap[..., 0], gap[..., 1]) < dist * long[:, None])
                   & (np.abs(long[:, None] / long[None] - 1) < dist) & (turn < dist), 1)
    keep = np.ones(len(quads), bool)
    for i in np.nonzero(same.any(axis=1))[0]:  # a quad like no later one drops none
        if keep[i]:
            keep &= ~same[i]
    return quads[keep]


def _on_frame_edge(quads: np.ndarray, w: int, h: int, tol: float = 2.0) -> np.ndarray:
    """Which quads have a side (both its corners) within ``tol`` px of one frame edge."""
    b = quads.take(_NEXT, axis=1)
    near = np.zeros(quads.shape[:2], bool)
    for axis, size in ((0, w), (1, h)):
        for edge in (0.0, size - 1.0):
            near |= (np.abs(quads[..., axis] - edge) < tol) & (np.abs(b[..., axis] - edge) < tol)
    return near.any(axis=1)


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


def _table_card(first: list[np.ndarray]) -> float | None:
    """The long side of the table's typical card: the ``TYPICAL_QUANTILE`` of a first
    selection's long sides (``first``); None while it has too few cards to tell."""
    return _long_side(first, TYPICAL_QUANTILE) if len(first) >= SIZE_MIN_CARDS else None


def _by_table_size(scored: list[tuple[float, np.ndarray]], typical: float | None
                   ) -> list[tuple[float, np.ndarray]]:
    """Scores lowered for quads whose size is not the table's (``typical``, see
    ``_table_card``). A pair of touching cards side by side has a sideways card's
    proportions, and a card's art box a card's: only their size gives them away (tune
    split: recall 93/91/100% -> 96/93/100% per height band, a third fewer false finds)."""
    if typical is None or not scored:
        return scored
    longs = _side_lengths(np.stack([q for _s, q in scored]))[1]
    off = np.abs(np.log(longs / typical)) - np.log(SIZE_SLACK)
    factor = np.clip(1.0 - SIZE_FALL * np.maximum(0.0, off), 0.0, 1.0)
    return [(score * float(f), q) for (score, q), f in zip(scored, factor, strict=True) if f > 0]


#: A side within this fraction of a typical card's short (or long) side can be that side
#: of a whole card (see ``_completions``).
SIDE_SLACK = 0.2


def _completions(first: list[np.ndarray], typical: float | None) -> np.ndarray:
    """Whole cards proposed around quads that may be a part of one. A card's upper
    part, title and picture down to the picture's lower edge, has a card's proportions
    turned sideways (63 × ~45 mm), and it wins when the lower part's outline is faint or
    touches a neighbour's. For every side of a quad of a first selection (``first``) no
    longer than the table's typical card (``typical``, see ``_table_card``) that is about
    as long as a card's short or long side, the card of those proportions that has this
    side as its own and lies across the quad is proposed; snapping and scoring then
    judge it like any other candidate (a real card's proposals are that card again)."""
    if typical is None or not first:
        return np.empty((0, 4, 2), np.float32)
    proposals = []
    longs = _side_lengths(np.stack(first))[1]
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


def _select(scored: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """Best quads first; one that overlaps an accepted card is dropped, unless it is a
    whole card around a part of one, about as well supported (then the part goes; see
    ``PART_AREA`` and ``BORDER_MARGIN``)."""
    if not scored:
        return []
    scored.sort(key=lambda item: -item[0])
    quads = np.stack([q for _s, q in scored])
    (x0, y0), (x1, y1) = quads.min(axis=1).T, quads.max(axis=1).T
    # Only quads whose bounding boxes meet can overlap: a cheap test first, for all pairs.
    # (Python lists from here: the loop below reads single values, which numpy serves
    # slowly; this select took ~40% longer with arrays.)
    meets = ((x0[:, None] < x1[None]) & (x1[:, None] > x0[None])
             & (y0[:, None] < y1[None]) & (y1[:, None] > y0[None])).tolist()
    areas = _areas(quads).tolist()
    angles = _long_edges(quads)[1].tolist()
    kept: list[int] = []
    for i, (score, quad) in enumerate(scored):
        shared = {k: overlap(quad, quads[k]) for k in kept if meets[i][k]}
        clash = [k for k, part in shared.items() if part >= 0.3]
        if not clash:
            kept.append(i)
            continue
        if all(areas[i] > 1.15 * areas[k] and shared[k] > 0.85
               and score > SELECT_GROW * scored[k][0]
               and ((areas[i] >= PART_AREA * areas[k] and _crosswise(angles[i], angles[k]))
                    or _surrounds(quad, quads[k])) for k in clash):
            kept = [k for k in kept if k not in clash]
            kept.append(i)
    return [quads[k] for k in kept]
