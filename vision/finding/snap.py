"""Moving a quad's sides onto the card outline near them, and measuring how much of
an outline lies along them: on the search copy's gradient image, or by probing a few
pixels of a finer copy (corner refinement)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.finding.quads import NEXT, PREV


@functools.cache
def _along(samples: int, end: float = 0.1) -> np.ndarray:
    """Where a side is sampled: ``samples`` fractions of it, ``end`` of it left out at
    either end (read-only: one array serves every call)."""
    t = np.linspace(end, 1 - end, samples, dtype=np.float32)
    t.flags.writeable = False
    return t


def coarse_support(quads: np.ndarray, dist: np.ndarray, band: float) -> np.ndarray:
    """Per quad and side: fraction of the side within ``band`` px of an edge pixel
    (``dist`` is the distance to the nearest edge), for many quads at once."""
    x, y = sample_points(quads, quads.take(NEXT, axis=1), 12, 0.12)
    h, w = dist.shape
    xi = clipped(np.rint(x).astype(np.int32), w - 1)
    yi = clipped(np.rint(y).astype(np.int32), h - 1)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    near = (dist.reshape(-1).take(yi * w + xi) <= band) & inside  # a flat take: see _gather
    return share(near)


def _gather(packed: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(…, 4) gradient from ``gradient_image`` at points (``x``, ``y``): nearest pixel, zero
    outside the image. ``x`` and ``y`` are scratch: they are overwritten."""
    h, w = packed.shape[:2]
    # x + 1.5 truncated: the nearest pixel, shifted by the border ring (negative values
    # truncate towards zero and are clipped onto the zero border anyway). In place:
    # fresh arrays cost more than the arithmetic.
    x += 1.5
    y += 1.5
    # (Whole-number indices: ``take`` converts any others first. A point whose
    # coordinate is too big or not a number lands on a border pixel however it is cast.)
    xi = _inside(x.astype(np.intp), x, w - 1)
    at = _inside(y.astype(np.intp), y, h - 1)
    at *= w
    at += xi
    # One flat take of whole pixels, each seen as a single 16-byte number: ~2x faster
    # than taking rows of three floats (a 1080p frame's ~430,000 points: 2.9 -> 1.3 ms),
    # ~8x faster than indexing with two arrays.
    pixels = packed.reshape(-1).view(np.complex128)
    return pixels.take(at).view(np.float32).reshape(*xi.shape, 4)


def _inside(pixels: np.ndarray, at: np.ndarray, top: int) -> np.ndarray:
    """Whole ``pixels`` (truncated from ``at``) clipped to 0..``top`` in place: not at all
    when every one of ``at`` lies inside (two quick reductions instead of two passes)."""
    if at.min() >= 0 and at.max() < top + 1:  # (False for a coordinate not a number)
        return pixels
    return clipped(pixels, top)


def clipped(values: np.ndarray, top: int) -> np.ndarray:
    """``values`` clipped to 0..``top`` in place (``np.clip`` costs ~10 µs more a call)."""
    np.maximum(values, 0, out=values)
    return np.minimum(values, top, out=values)


#: A direction turned a quarter (x, y -> -y, x) by reversing its axis: the signs.
_TURN = np.float32([-1, 1])


def side_frames(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per quad and side: start, end, unit direction and outward unit normal.

    Spelled with ufuncs and their reductions rather than ``np.linalg.norm``, ``mean`` and
    ``stack``, whose Python wrappers cost more than the arithmetic on a few quads (the
    same operations: every value is as it was, bit for bit)."""
    a = quads
    b = quads.take(NEXT, axis=1)
    d = b - a
    length = np.maximum(np.sqrt(np.add.reduce(d * d, axis=2, keepdims=True)), 1e-3)
    d = d / length
    normal = d[..., ::-1] * _TURN
    centre = np.add.reduce(quads, axis=1, keepdims=True) / 4
    flip = np.add.reduce(normal * ((a + b) / 2 - centre), axis=2, keepdims=True) < 0
    normal = np.where(flip, -normal, normal)
    return a, b, d, normal


def _hits_many(packed: np.ndarray, a: np.ndarray, b: np.ndarray, normal: np.ndarray,
               offsets: np.ndarray, samples: int, thr: float | np.ndarray, probed: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge hits across every side (N, 4) shifted by every offset (K) at ``samples``
    points along it: hits (N, 4, K, M) and the unshifted points' x and y (N, 4, M) (a
    hit's point is its unshifted point plus offset × normal). ``packed`` is a gradient
    image from ``gradient_image`` or, for a few quads, the BGR image itself (probed;
    ``probed``: what ``probe_sides`` measured there for these sides and offsets).

    A hit is a gradient of at least ``thr`` (one for all, or per quad and side as
    (N, 4)) straight across the side that is most of the gradient there: an edge running
    along the side, not one crossing it."""
    base_x, base_y = sample_points(a, b, samples)  # N,4,M
    nx, ny = normal[:, :, None, None, 0], normal[:, :, None, None, 1]
    if isinstance(thr, np.ndarray):
        thr = thr[:, :, None, None]
    if probed is not None or packed.dtype == np.uint8:  # a BGR image: probe the few points needed
        g = _probe_points(packed, b - a, base_x, base_y, offsets, normal) if probed is None else probed
        return _hits_of(g, nx, ny, thr), base_x, base_y
    # (Gathering a block of quads at a time, so that every array stays in the CPU's
    # cache, was slower: ~0.05 ms more per block than it saved.)
    off = offsets[None, None, :, None]
    g = _gather(packed, base_x[:, :, None, :] + off * nx, base_y[:, :, None, :] + off * ny)
    return _hits_of(g, nx, ny, thr), base_x, base_y


def _hits_of(g: np.ndarray, nx: np.ndarray, ny: np.ndarray, thr: float | np.ndarray) -> np.ndarray:
    """Which gradients ``g`` (…, 3 or 4: x, y, size) are hits across sides of normal
    (``nx``, ``ny``): see ``_hits_many``."""
    across = g[..., 0] * nx
    across += g[..., 1] * ny
    np.abs(across, out=across)
    # At least ``thr`` and 0.6 of the gradient's size: at least the larger of the two.
    return across >= np.maximum(g[..., 2] * np.float32(0.6), thr)


def sample_points(a: np.ndarray, b: np.ndarray, samples: int, end: float = 0.1
                   ) -> tuple[np.ndarray, np.ndarray]:
    """x and y (N, 4, M) of ``samples`` points along every side from ``a`` to ``b``
    (``_along``), x and y apart: a trailing axis of 2 makes every broadcast ~5× slower."""
    t = _along(samples, end)
    span = b - a
    return a[:, :, None, 0] + span[:, :, None, 0] * t, a[:, :, None, 1] + span[:, :, None, 1] * t


def _probe_points(image: np.ndarray, span: np.ndarray, base_x: np.ndarray, base_y: np.ndarray,
                  offsets: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """``_probe`` along sides running ``span`` (N, 4, 2)."""
    d = span / np.maximum(np.linalg.norm(span, axis=-1, keepdims=True), 1e-6)
    return _probe(image, base_x, base_y, offsets, normal, d)


def probe_sides(image: np.ndarray, quads: np.ndarray, reach: int, samples: int) -> np.ndarray:
    """What ``snap_within`` probes on a BGR ``image`` for ``quads`` shifted up to ``reach``
    either way at ``samples`` points a side (``_probe``'s answer), for snapping the same
    quads again without probing: the rows of some quads (``[rows]``) and the shifts up to
    a smaller reach r (``[:, :, reach - r:reach + r + 1]``) are what a probe of just those
    would measure, bit for bit (every point is probed on its own)."""
    a, b, _d, normal = side_frames(quads)
    base_x, base_y = sample_points(a, b, samples)
    return _probe_points(image, b - a, base_x, base_y, _shifts(reach), normal)


def _shifts(reach: int) -> np.ndarray:
    """Whole-pixel shifts of a side, ``reach`` either way."""
    return np.arange(-reach, reach + 1, dtype=np.float32)


def _fit_lines(x: np.ndarray, y: np.ndarray, weight: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Least-squares lines through weighted points (x and y apart, (…, M) each: see
    ``_hits_many``): centre (x, y), unit direction (x, y) and the weight used."""
    used = np.add.reduce(weight, axis=-1)
    wsum = np.maximum(used, 1e-6)
    cx = _sum_points(x * weight) / wsum
    cy = _sum_points(y * weight) / wsum
    rx, ry = x - cx[..., None], y - cy[..., None]
    sxx = np.add.reduce(weight * rx ** 2, axis=-1)
    syy = np.add.reduce(weight * ry ** 2, axis=-1)
    sxy = np.add.reduce(weight * rx * ry, axis=-1)
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return cx, cy, np.cos(theta), np.sin(theta), used


def _sum_points(values: np.ndarray) -> np.ndarray:
    """The sum over the last axis, point after point: the rounding the fit had when
    points were (…, M, 2) arrays, so a side lands on the very same line. The last bit
    matters: with numpy's own (pairwise) sum instead, 7 of 99 tune-split quads moved by
    over half a pixel, one by 9 px (a point near the refit's 1.5 px bar flips sides),
    and the finder's figures were measured with this rounding."""
    # Axes reversed and copied, the points lie outermost: the reduction adds them one
    # after the other (as ``np.moveaxis(values, -1, 0).copy().sum(axis=0)`` did).
    return np.add.reduce(values.T.copy(), axis=0).T


#: Rows either side of the chosen shift where a side's points are looked for, and their
#: order of preference reversed (``snap_many``: the nearest wins, then the inner one).
_WINDOW = np.arange(-2, 3)
_NEAREST_LAST = (4, 0, 3, 1, 2)


def snap_many(quads: np.ndarray, packed: np.ndarray, band: np.ndarray, thr: float | np.ndarray,
               samples: int = 16, outer: float | np.ndarray = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Every quad's sides moved onto the card outline near them, all quads at once, as
    quads and a validity mask (a quad whose mask is False has no meaningful corners).

    See ``snap_within``, which this is, for the quads it keeps: where quads of a batch
    need very different reaches (a corner hypothesis 3 px, a big card 9 px), those
    needing fewer shifts are snapped apart (see ``_reach_split``): a quarter of the
    search copy's edge lookups were shifts beyond every row its quad could use."""
    n = len(quads)
    if n == 0:
        return quads, np.zeros(0, bool)
    reach = int(np.ceil(band.max()))
    # (With ``outer`` 0 a side with no support at all would take the outermost shift.)
    split = _reach_split(band.reshape(n, -1), reach, samples) if np.all(np.greater(outer, 0)) else None
    if split is None:
        return snap_within(quads, packed, band, thr, samples, outer, reach)
    out, ok = np.empty(quads.shape, np.float32), np.empty(n, bool)
    for rows, rows_reach in split:
        out[rows], ok[rows] = snap_within(quads[rows], packed, band[rows], _of_rows(thr, rows), samples,
                                          _of_rows(outer, rows), rows_reach)
    return out, ok


#: A batch is split by reach only where that saves this many edge lookups: a split costs
#: one more pass of ~40 array operations (~0.3 ms; fewer saved ~3% less, more ~3% more).
SPLIT_SAVES = 4_000


def _reach_split(band: np.ndarray, reach: int, samples: int) -> list[tuple[np.ndarray, int]] | None:
    """The quads (their rows) to snap with a shorter reach, and the rest with ``reach``,
    or None where splitting saves too little (``SPLIT_SAVES``).

    A quad whose sides' bands reach ``f`` whole pixels at most (per quad and side:
    ``band``) chooses a shift within ``f``, reads the hits one shift either side of
    those (the spread) and fits its line through the rows two either side of the
    chosen one: with a reach of ``f + 2`` or more, no row it reads is cut off or added,
    and its snap is the one the batch's reach gives, bit for bit, if ``outer`` > 0. (A
    quad that fails, with a side without support, may end elsewhere: its mask is False
    either way.)"""
    cost = 4 * samples
    if len(band) * 2 * reach * cost < SPLIT_SAVES:  # (not worth the look)
        return None
    # The same float32 sum as the band test in ``snap_within``.
    need = np.minimum(reach, np.floor((band + 0.01).max(axis=1)).astype(np.int64) + 2)
    best_saved, best_cut = 0, None
    for cut in np.unique(need)[:-1]:
        short = need <= cut
        saved = int(short.sum()) * 2 * (reach - int(cut)) * cost
        if saved > best_saved:
            best_saved, best_cut = saved, int(cut)
    if best_cut is None or best_saved < SPLIT_SAVES:
        return None
    short = need <= best_cut
    return [(np.nonzero(short)[0], best_cut), (np.nonzero(~short)[0], reach)]


def _of_rows(value: float | np.ndarray, rows: np.ndarray) -> float | np.ndarray:
    """A per-quad argument's rows ``rows`` (a scalar is one for all)."""
    return value[rows] if isinstance(value, np.ndarray) else value


def snap_within(quads: np.ndarray, packed: np.ndarray, band: np.ndarray, thr: float | np.ndarray,
                samples: int, outer: float | np.ndarray, reach: int, probed: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """``snap_many`` looking at whole-pixel shifts up to ``reach`` either way for every
    quad (at least ``ceil(band)``; the plain computation, one pass for the batch), on a
    BGR image what ``probe_sides`` found there if given (``probed``).

    Per side the support of each shift within ``band`` px (per quad, or per quad and
    side as (N, 4)) is the share of the side lying on an edge; the *outermost* shift
    whose support reaches 75% of the best (or ``outer``, if lower) wins: the card's
    outer outline rather than its inner frame or art. A line is fitted through the hits
    there, so the side may tilt a little, and neighbouring lines are intersected into
    corners. ``thr`` (the edge a hit needs) and ``outer`` are one for all sides, or per
    quad and side (N, 4)."""
    n = len(quads)
    a, b, d, normal = side_frames(quads)
    offsets = _shifts(reach)
    hits, base_x, base_y = _hits_many(packed, a, b, normal, offsets, samples, thr, probed)
    # A slightly tilted line spreads over neighbouring offsets: take the hit within ±1.
    spread = hits.copy()
    spread[:, :, 1:] |= hits[:, :, :-1]
    spread[:, :, :-1] |= hits[:, :, 1:]
    # (Ufuncs and their reductions, not the methods and ``np.clip``,
    # ``np.take_along_axis`` or ``np.broadcast_to``: see ``side_frames``.)
    support = share(spread)  # N,4,K
    support *= np.abs(offsets)[None, None, :] <= band.reshape(n, -1, 1) + 0.01
    best = np.maximum.reduce(support, axis=2)
    # The outermost strong line: the card's outer outline, not its inner frame or art.
    strong = support >= np.minimum(0.75 * best, outer)[..., None]
    k = len(offsets) - 1 - strong[:, :, ::-1].argmax(axis=2)  # N,4
    # Per column the hit nearest row k (within ±2): the outline's points.
    rows = clipped(k[..., None] + _WINDOW, len(offsets) - 1)  # N,4,5
    m = hits.shape[3]
    wh = hits.reshape(-1, m).take((rows + _first_rows(n, len(offsets))).reshape(-1), axis=0
                                  ).reshape(n, 4, len(_WINDOW), m)  # N,4,5,M
    # Nearest first, the row before k before the row after it (columns with no hit take
    # the first row, with no weight below).
    row = rows[..., :1]
    for j in _NEAREST_LAST:
        row = np.where(wh[:, :, j], rows[..., j, None], row)  # N,4,M
    has = np.logical_or.reduce(wh, axis=2)
    step = offsets[row]  # N,4,M
    x = base_x + step * normal[:, :, None, 0]
    y = base_y + step * normal[:, :, None, 1]
    w = has.astype(np.float32)
    cx, cy, ux, uy, _ = _fit_lines(x, y, w)
    # One robust pass: drop points more than 1.5 px off the first line and refit.
    resid = np.abs((y - cy[..., None]) * ux[..., None] - (x - cx[..., None]) * uy[..., None])
    w2 = w * (resid <= 1.5)
    cx, cy, ux, uy, wsum = _fit_lines(x, y, w2)
    fitted = np.stack([cx, cy, ux, uy], axis=-1)
    c2, dirs2 = fitted[..., :2], fitted[..., 2:]
    good_fit = (wsum >= 5) & (np.abs(np.add.reduce(dirs2 * d, axis=-1)) >= 0.97)  # within ~14° of the side
    p0 = np.where(good_fit[..., None], c2, a + normal * offsets[k][..., None])
    dd = np.where(good_fit[..., None], dirs2, d)
    out, det = meeting_corners(p0, dd)
    ok = np.logical_and.reduce((best >= 0.2) & (np.abs(det) >= 1e-6), axis=1) & convex(out)
    return out, ok


def _first_rows(n: int, shifts: int) -> np.ndarray:
    """Per quad and side (N, 4, 1), the index of its first shift's row among the rows
    of hits (N × 4 × ``shifts``, M) laid flat."""
    return np.arange(0, n * 4 * shifts, shifts).reshape(n, 4, 1)


def share(flags: np.ndarray) -> np.ndarray:
    """The share of True along the last axis (float64; ``flags.mean(axis=-1)``, the very
    same numbers): its bytes are read as whole words and their set bits counted (each
    True is one bit), ~8× faster than numpy's reductions over a short last axis."""
    m = flags.shape[-1]
    if not 0 < m < 256:  # (a count of bytes each 0 or 1 fits a byte)
        return flags.mean(axis=-1)
    word = next(size for size in (8, 4, 2, 1) if m % size == 0)
    if not flags.flags.c_contiguous:
        flags = np.ascontiguousarray(flags)
    counts = np.bitwise_count(flags.view(f"u{word}"))
    total = counts[..., 0]
    for j in range(1, m // word):
        total = total + counts[..., j]
    return total / m


def convex(quads: np.ndarray) -> np.ndarray:
    """Which quads are convex (all turns the same way)."""
    e = quads.take(NEXT, axis=1) - quads
    f = e.take(NEXT, axis=1)
    cross = e[..., 0] * f[..., 1] - e[..., 1] * f[..., 0]
    return (cross > 0).all(axis=1) | (cross < 0).all(axis=1)


def support_many(quads: np.ndarray, packed: np.ndarray, thr: float, samples: int = 40
                  ) -> np.ndarray:
    """Per quad and side: the fraction of it (corners left out) lying on an edge across
    it, within ±1 px."""
    a, b, _d, normal = side_frames(quads)
    hits = _hits_many(packed, a, b, normal, np.float32([-1, 0, 1]), samples, thr)[0]
    return share(hits[:, :, 0] | hits[:, :, 1] | hits[:, :, 2])


def running_on(quads: np.ndarray, packed: np.ndarray, thr: float, gap: float, reach: float,
               samples: int = 16) -> np.ndarray:
    """Per quad and side: how far the two sides meeting it at its corners run on past it
    as edges (the smaller share of the two, 0..1), measured along their lines from
    ``gap`` to ``gap + reach`` of their length beyond the corners, within ±1 px, on the
    gradient image ``packed``. A card's sides end at its corners; a part of a card (its
    upper half, its picture) is edged by the card's own sides, which run on past it."""
    a, b, d, normal = side_frames(quads)
    length = np.sqrt(np.add.reduce((b - a) ** 2, axis=2, keepdims=True))
    offsets = np.float32([-1, 0, 1])
    past_end = _hits_many(packed, b + d * length * gap, b + d * length * (gap + reach), normal,
                          offsets, samples, thr)[0]
    before_start = _hits_many(packed, a - d * length * (gap + reach), a - d * length * gap, normal,
                              offsets, samples, thr)[0]
    # Side s runs from corner s to corner s + 1: side s - 1 ends at the first, side s + 1
    # starts at the second.
    return np.minimum(share(past_end.any(axis=2)).take(PREV, axis=1),
                      share(before_start.any(axis=2)).take(NEXT, axis=1))


#: Channel weights of the probed gradient (as in ``gradient_image``: colour counts more, so
#: a silver border on a grey mat still shows where its hue differs).
PROBE_GAIN = np.float32([1.0, 1.6, 1.6])


def _probe(image: np.ndarray, base_x: np.ndarray, base_y: np.ndarray, offsets: np.ndarray,
           normal: np.ndarray, along: np.ndarray) -> np.ndarray:
    """The gradient at sub-pixel points of ``image``, packed as ``_gather`` answers
    (N, 4, K, M, 3): the points (``base_x``, ``base_y``) (N, 4, M) shifted by every
    offset (K, whole pixels in a row) along ``normal``, measured straight across it and
    along ``along`` (unit vectors per quad and side, (N, 4, 2)) by bilinear probes one
    pixel either way, each the mean of two half a pixel apart across its direction (as
    the Sobel kernel's smoothing does). Neighbouring offsets share their probes: a
    point's probe one pixel out is the next offset's point. For a handful of quads this
    beats computing a gradient image of their crops by ~10×."""
    n_x, n_y = normal[:, :, None, None, 0], normal[:, :, None, None, 1]
    d_x, d_y = along[:, :, None, None, 0], along[:, :, None, None, 1]
    # Across the side: the points at every offset and one beyond either end, each half a
    # pixel either way along the side; along it: the points half a pixel either side of
    # every offset, a pixel either way along the side.
    whole = (np.arange(len(offsets) + 2, dtype=np.float32) + (offsets[0] - 1))[:, None]
    halves = (np.arange(len(offsets) + 1, dtype=np.float32) + (offsets[0] - 0.5))[:, None]
    groups = []
    for base, n, d in ((base_x, n_x, d_x), (base_y, n_y, d_y)):
        at_whole = base[:, :, None, :] + whole * n
        at_halves = base[:, :, None, :] + halves * n
        groups.append([at_whole + 0.5 * d, at_whole - 0.5 * d, at_halves + d, at_halves - d])
    sizes = [g.size for g in groups[0]]
    total = sum(sizes)
    # remap wants maps under 32767 rows: rows of 256, the last one padded.
    maps = np.zeros((2, total - total % -256), np.float32)
    for axis in (0, 1):
        np.concatenate([g.ravel() for g in groups[axis]], out=maps[axis, :total])
    vals = cv2.remap(image, maps[0].reshape(-1, 256), maps[1].reshape(-1, 256), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(vals, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    split = np.cumsum(sizes)
    a_plus, a_minus, d_plus, d_minus = (lab[lo:hi].reshape(g.shape + (3,)) for lo, hi, g
                                        in zip([0, *split[:-1]], split, groups[0], strict=True))
    # Sums of two probes half a pixel apart (exact in 16 bits), halved below: their mean.
    across_sum = np.add(a_plus, a_minus, dtype=np.uint16)
    plus = np.add(d_plus[:, :, 1:], d_plus[:, :, :-1], dtype=np.uint16)
    minus = np.add(d_minus[:, :, 1:], d_minus[:, :, :-1], dtype=np.uint16)
    scale = 0.5 * PROBE_GAIN
    # A difference over two pixels: the scale of ``gradient_image``'s Sobel / 4.
    across_sum = across_sum.astype(np.float32) * scale
    across = across_sum[:, :, 2:] - across_sum[:, :, :-2]
    along_g = plus.astype(np.float32) * scale - minus.astype(np.float32) * scale
    mag = np.abs(across) + np.abs(along_g)
    # Per point the channel that changes most (the first of equals).
    second = mag[..., 1] > mag[..., 0]
    top = np.maximum(mag[..., 0], mag[..., 1])
    third = mag[..., 2] > top
    a_ = np.where(third, across[..., 2], np.where(second, across[..., 1], across[..., 0]))
    b_ = np.where(third, along_g[..., 2], np.where(second, along_g[..., 1], along_g[..., 0]))
    m_ = np.maximum(top, mag[..., 2])
    return np.stack([a_ * n_x + b_ * d_x, a_ * n_y + b_ * d_y, m_], axis=-1)


def meeting_corners(p0: np.ndarray, dd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners (N, 4, 2, float32) of quads whose sides run through points ``p0``
    in directions ``dd`` (N, 4, 2 each), and the determinants of their meeting (near 0:
    two sides in line, no corner)."""
    # Corner i is where side i-1 meets side i.
    p1, d1 = p0.take(PREV, axis=1), dd.take(PREV, axis=1)
    det = d1[..., 0] * (-dd[..., 1]) + dd[..., 0] * d1[..., 1]
    r = p0 - p1
    tt = (r[..., 0] * (-dd[..., 1]) + dd[..., 0] * r[..., 1]) / np.where(np.abs(det) < 1e-6, 1, det)
    return (p1 + d1 * tt[..., None]).astype(np.float32), det
