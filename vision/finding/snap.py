"""Moving a quad's sides onto the card outline near them, and measuring how much of
an outline lies along them: on the search copy's gradient image, or by probing a few
pixels of a finer copy (corner refinement)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.finding.config import FinderConfig
from vision.finding.quads import NEXT, PREV, quad_areas, side_lengths
from vision.geometry import CARD_ASPECT


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
    x, y = _sample_points(quads, quads.take(NEXT, axis=1), 12, 0.12)
    h, w = dist.shape
    xi = _clipped(np.rint(x).astype(np.int32), w - 1)
    yi = _clipped(np.rint(y).astype(np.int32), h - 1)
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
    return _clipped(pixels, top)


def _clipped(values: np.ndarray, top: int) -> np.ndarray:
    """``values`` clipped to 0..``top`` in place (``np.clip`` costs ~10 µs more a call)."""
    np.maximum(values, 0, out=values)
    return np.minimum(values, top, out=values)


#: A direction turned a quarter (x, y -> -y, x) by reversing its axis: the signs.
_TURN = np.float32([-1, 1])


def _side_frames(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
    base_x, base_y = _sample_points(a, b, samples)  # N,4,M
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


def _sample_points(a: np.ndarray, b: np.ndarray, samples: int, end: float = 0.1
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
    a, b, _d, normal = _side_frames(quads)
    base_x, base_y = _sample_points(a, b, samples)
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
    a, b, d, normal = _side_frames(quads)
    offsets = _shifts(reach)
    hits, base_x, base_y = _hits_many(packed, a, b, normal, offsets, samples, thr, probed)
    # A slightly tilted line spreads over neighbouring offsets: take the hit within ±1.
    spread = hits.copy()
    spread[:, :, 1:] |= hits[:, :, :-1]
    spread[:, :, :-1] |= hits[:, :, 1:]
    # (Ufuncs and their reductions, not the methods and ``np.clip``,
    # ``np.take_along_axis`` or ``np.broadcast_to``: see ``_side_frames``.)
    support = share(spread)  # N,4,K
    support *= np.abs(offsets)[None, None, :] <= band.reshape(n, -1, 1) + 0.01
    best = np.maximum.reduce(support, axis=2)
    # The outermost strong line: the card's outer outline, not its inner frame or art.
    strong = support >= np.minimum(0.75 * best, outer)[..., None]
    k = len(offsets) - 1 - strong[:, :, ::-1].argmax(axis=2)  # N,4
    # Per column the hit nearest row k (within ±2): the outline's points.
    rows = _clipped(k[..., None] + _WINDOW, len(offsets) - 1)  # N,4,5
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
    out, det = _corners(p0, dd)
    ok = np.logical_and.reduce((best >= 0.2) & (np.abs(det) >= 1e-6), axis=1) & _convex(out)
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


def _convex(quads: np.ndarray) -> np.ndarray:
    """Which quads are convex (all turns the same way)."""
    e = quads.take(NEXT, axis=1) - quads
    f = e.take(NEXT, axis=1)
    cross = e[..., 0] * f[..., 1] - e[..., 1] * f[..., 0]
    return (cross > 0).all(axis=1) | (cross < 0).all(axis=1)


def support_many(quads: np.ndarray, packed: np.ndarray, thr: float, samples: int = 40
                  ) -> np.ndarray:
    """Per quad and side: the fraction of it (corners left out) lying on an edge across
    it, within ±1 px."""
    a, b, _d, normal = _side_frames(quads)
    hits = _hits_many(packed, a, b, normal, np.float32([-1, 0, 1]), samples, thr)[0]
    return share(hits[:, :, 0] | hits[:, :, 1] | hits[:, :, 2])


#: Channel weights of the probed gradient (as in ``gradient_image``: colour counts more, so
#: a silver border on a grey mat still shows where its hue differs).
_GAIN = np.float32([1.0, 1.6, 1.6])


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
    scale = 0.5 * _GAIN
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


def refine(fine: np.ndarray, quads: np.ndarray, reach: float, cfg: FinderConfig
            ) -> np.ndarray:
    """The quads' corners snapped on the finer image ``fine`` (quads in its pixels),
    probing only the pixels near their sides, all quads at once: first outward onto a
    faint outer outline if there is one (``FinderConfig.border_search``; never onto
    another quad's outline), in off a line printed on the mat (``off_printed_lines``),
    then onto the exact edge of that outline (see ``INWARD``). A quad whose snap fails
    or jumps further than ``2 * reach`` stays."""
    quads = quads.astype(np.float32)
    if len(quads) == 0:  # (the probes below take the largest reach of the quads)
        return quads
    thr = cfg.refine_grad
    # Each snap below that repeats one for some of the quads reuses its probes (the
    # same points: ``probe_sides``). As ``snap_many``, one pass each.
    if cfg.border_search > 0:
        short, _long = side_lengths(quads)
        band = np.maximum(reach, cfg.border_search * short).astype(np.float32)
        wide_reach = int(np.ceil(band.max()))
        wide_probed = probe_sides(fine, quads, wide_reach, cfg.border_samples)
        wide, ok = snap_within(quads, fine, band, thr * cfg.border_grad, cfg.border_samples,
                               cfg.border_support, wide_reach, wide_probed)
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
            r = int(np.ceil(sides.max()))
            wide[redo], ok[redo] = snap_within(
                quads[redo], fine, sides, thr * cfg.border_grad, cfg.border_samples, cfg.border_support, r,
                wide_probed[redo, :, wide_reach - r:wide_reach + r + 1])
        grow = ok & (quad_areas(wide) >= quad_areas(quads))
        quads = np.where(grow[:, None, None], wide, quads)
    # (Tune split, seeds 3-4, every card on a zone outline: cards lost by the finder and
    # judge 29 -> 12 of 710, as many outlines that are no card (14). Without the check of
    # a card's proportions 7 were lost, and real scans on the real playmat lost corner
    # accuracy; with it, those come out the same, quad for quad.)
    quads = off_printed_lines(fine, quads)
    exact_band = np.full(len(quads), reach, np.float32)
    exact_reach = int(np.ceil(exact_band.max()))
    exact_probed = probe_sides(fine, quads, exact_reach, 32)
    snapped, ok = snap_within(quads, fine, exact_band, thr, 32, 1.0, exact_reach, exact_probed)
    if cfg.border_search > 0:
        # The exact snap refines a side on the outline the border search put it on, and
        # does not leave it for a stronger line inside: a silver border on a grey mat has
        # a faint outer edge and, ~2% of the card's height in, a strong inner one, which
        # alone passes the full bar. Such sides are snapped again at the search's bar.
        # (Tune split, cards with a side more than 2% of their height off: 200-260 px
        # 31% -> 16%, no band worse; more than 1%: 60% -> 44%.)
        back = grow[:, None] & (_outward(quads, snapped) < -INWARD)
        if back.any():
            redo = np.nonzero(back.any(axis=1))[0]
            side_thr = np.where(back[redo], thr * cfg.border_grad, thr).astype(np.float32)
            side_outer = np.where(back[redo], cfg.border_support, 1.0).astype(np.float32)
            snapped[redo], ok[redo] = snap_within(quads[redo], fine, exact_band[redo], side_thr, 32, side_outer,
                                                  exact_reach, exact_probed[redo])
    ok &= np.abs(snapped - quads).max(axis=(1, 2)) <= 2 * reach
    return np.where(ok[:, None, None], snapped, quads)


#: The exact snap has left a side's outline for one inside it when it moved the side in
#: by more than this (pixels of the finer copy).
INWARD = 1.0


def _outward(quads: np.ndarray, moved: np.ndarray) -> np.ndarray:
    """Per quad and side (N, 4): how far the side of ``moved`` lies outside the same side
    of ``quads`` at its middle, in pixels."""
    a, b, _d, normal = _side_frames(quads)
    shift = (moved + moved.take(NEXT, axis=1)) / 2 - (a + b) / 2
    return (shift * normal).sum(axis=-1)


def _on_outlines(quads: np.ndarray, others: np.ndarray, tol: float) -> np.ndarray:
    """Per quad and side (N, 4): whether the side's midpoint lies inside, or within
    ``tol`` px of, one of ``others`` (the same N quads, each not tested against itself)."""
    a, b, _d, normal = _side_frames(others)
    mid = (quads + quads.take(NEXT, axis=1)) / 2  # N,4,2
    # Distance inside each other quad: the least over its sides (convex quads).
    depth = ((a[None, None] - mid[:, :, None, None]) * normal[None, None]).sum(-1).min(axis=3)  # N,4,N
    n = len(quads)
    depth[np.arange(n), :, np.arange(n)] = -np.inf
    return (depth >= -tol).any(axis=2)



#: How deep inside a side ``off_printed_lines`` looks for the card's edge, as a fraction of
#: the quad's short side: a zone outline is drawn up to ~15% outside the card.
LINE_SEARCH = 0.2
#: ... and how thick a printed line may be (a zone outline is up to ~3.5% of a card's
#: width, and its edges blur over a pixel or two more).
LINE_WIDTH = 0.05
#: Inside a printed line the colour comes back nearer the mat's than this fraction of
#: the line's own contrast ...
LINE_RETURN = 0.35
#: ... at this share of a side's points at least (a card's art may match the mat here
#: and there, not along most of a side).
LINE_SHARE = 0.5
#: The least colour step (Lab, colour 1.6x: as ``_probe``) taken for a line's or a card's
#: edge: about the faintest outer edge the border search accepts.
EDGE_STEP = 10.0
#: ... and, for the card's edge inside a printed line, this many times the mat's own
#: grain there (its mean difference from the mat just outside the line).
GRAIN_STEP = 3.0
#: ... and where it came back, the mat's colour there differs from the mat's outside
#: by no more than this on average over the side (the grain averages out; a pale text
#: box inside a card's border on a pale mat differs ~18 one way).
MAT_DRIFT = 8.0
#: Points probed along each side for that test.
_LINE_SAMPLES = 12


def off_printed_lines(fine: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """``quads`` with every side that lies on a thin line printed on the mat (a zone
    outline just outside a card) moved inward onto the card's edge within it.

    Going inward across a card's outer edge the colour steps from the mat's to the
    card's own (its border, a sleeve's rim, then the art) and does not come back to the
    mat's. Across a printed line it leaves the mat's tone for the line's and, a few pixels
    in, comes back to the mat's, until the card's edge further in. Compared point by
    point along the side, a faint silver border on a grey mat (little contrast) still
    stays apart from the mat up to the card's art, and a pale text box just inside a
    card's border on a pale mat, near the mat's tone, is all of it a little off it one
    way (the mat inside a line differs only by its grain). The side moves parallel to
    itself, to the median depth where its points step away from the mat again; a side
    where too few do stays."""
    a, b, d, normal = _side_frames(quads)
    short = side_lengths(quads)[0][:, None]  # N,1
    # First across the line alone (most sides are a card's edge: a cheap look), from
    # 2 px outside the side (the mat) to a line's width in.
    width = int(np.ceil(LINE_WIDTH * short.max())) + 2
    base_x, base_y = _sample_points(a, b, _LINE_SAMPLES, 0.15)  # N,4,M
    apart = _apart_from_mat(fine, base_x, base_y, normal, 1, width)  # N,4,K,M,3: depth 1..width
    away = np.add.reduce(np.abs(apart), axis=-1)
    depth = np.arange(1, width + 1, dtype=np.float32)[:, None]
    line = np.where(depth <= LINE_WIDTH * short[..., None, None] + 2, away, 0)
    peak = line.argmax(axis=2)[:, :, None]  # N,4,1,M: the line (or the card's edge)
    contrast = np.take_along_axis(line, peak, axis=2)
    order = np.arange(width)[:, None]
    # Back to the mat's tone past the line, and still within a line's width of it.
    back = (order > peak) & (line * np.float32(1 / LINE_RETURN) <= contrast) & (contrast >= EDGE_STEP)
    returned = np.logical_or.reduce(back, axis=2)  # N,4,M
    tested = share(returned) >= LINE_SHARE
    if not tested.any():
        return quads
    # Then, for those sides only, the card's edge further in: the colour leaves the
    # mat's again, clearly beyond the mat's own grain there (a silver card on a grey mat
    # differs from it little, a dark line much).
    rows, sides = np.nonzero(tested)
    deepest = max(width, int(np.ceil(LINE_SEARCH * short[rows].max())))
    deeper = _apart_from_mat(fine, base_x[rows, sides][None], base_y[rows, sides][None],
                             normal[rows, sides][None], width + 1, deepest)[0]
    far = np.concatenate([away[rows, sides], np.add.reduce(np.abs(deeper), axis=-1)], axis=1)  # S,K,M
    every = np.arange(deepest)[:, None]
    back, returned = back[rows, sides], returned[rows, sides]
    first_back = np.where(back, order, width).min(axis=1)[:, None]  # S,1,M
    # Where the colour came back, it is the mat's own: its mean difference from the mat
    # outside is the grain's, near none. A card's face just inside its border may be
    # near the mat's tone too (a pale text box on a pale mat), but all of it one way.
    cells = np.maximum(np.add.reduce(back, axis=(1, 2)), 1)
    drift = np.add.reduce(np.where(back[..., None], apart[rows, sides], 0), axis=(1, 2)) / cells[:, None]
    returned &= (np.add.reduce(np.abs(drift), axis=-1) <= MAT_DRIFT)[:, None]
    grain = (np.add.reduce(np.where(back, away[rows, sides], 0), axis=(1, 2)) / cells)[:, None, None]
    reach = every < LINE_SEARCH * short[rows, 0, None, None]
    edge = (every > first_back) & reach & (far >= np.maximum(GRAIN_STEP * grain, EDGE_STEP))
    found = returned & np.logical_or.reduce(edge, axis=1)
    printed = share(found) >= LINE_SHARE
    if not printed.any():
        return quads
    # The side moves in, parallel to itself (the exact snap that follows fits it), to
    # the median depth where its points found the card's edge: between the last mat
    # pixel and the first card pixel (``every`` + 1 - 0.5). (A line fitted through those
    # points instead lost 4 more cards of 357 at 200-260 px, tune split.)
    at = np.where(edge, every, deepest).min(axis=1) + np.float32(0.5)  # S,M
    shift = np.zeros(tested.shape, np.float32)
    shift[rows, sides] = np.where(printed, _median_where(at, found), 0)
    moved, det = _corners(a - normal * shift[..., None], d)
    # A quad around a card and its zone outline has the card's proportions, and keeps
    # them as it comes in. One already a little inside a card (its top on the name bar)
    # has no mat outside it and may take the bar for a line: coming in further makes it
    # squatter than a card. (Real scans on the real playmat, tune split: 4 of 5 cards so
    # moved came out worse, IoU 0.96 -> 0.90.) A zone outline lies outside every side, so
    # three sides or more coming in are taken as they are.
    keep = (np.logical_and.reduce(np.abs(det) >= 1e-6, axis=1) & _convex(moved)
            & ((_off_card_shape(moved) <= np.maximum(_off_card_shape(quads) + SHAPE_SLACK, CARD_SHAPED))
               | (np.add.reduce(shift > 0, axis=1) >= 3)))
    return np.where(keep[:, None, None], moved, quads)


#: How much further from a card's proportions (``_off_card_shape``) a quad moved in off
#: a printed line may come, unless it still has a card's proportions (within 6%: a
#: camera off vertical squeezes one axis).
SHAPE_SLACK = 0.02
CARD_SHAPED = 0.06


def _off_card_shape(quads: np.ndarray) -> np.ndarray:
    """Per quad, how far its proportions are from a card's: |log(short / long / aspect)|."""
    short, long = side_lengths(quads)
    return np.abs(np.log(np.maximum(short, 1e-3) / np.maximum(long, 1e-3) / CARD_ASPECT))


def _median_where(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The (lower) median of ``values`` over the last axis where ``keep`` (0 where none)."""
    ranked = np.sort(np.where(keep, values, np.inf), axis=-1)
    count = np.add.reduce(keep, axis=-1)
    middle = np.take_along_axis(ranked, np.maximum(count - 1, 0)[..., None] // 2, axis=-1)[..., 0]
    return np.where(count > 0, middle, 0.0)


def _apart_from_mat(fine: np.ndarray, base_x: np.ndarray, base_y: np.ndarray, normal: np.ndarray,
                    start: int, deepest: int) -> np.ndarray:
    """Per point (``base_x``, ``base_y``: N, 4, M) on a side of outward ``normal``
    (N, 4, 2), the colour ``start`` .. ``deepest`` px inside it less the colour 2 px
    outside it (N, 4, K, M, 3): Lab with colour 1.6x, as ``_probe``. (How far apart: the
    sum of the channels' differences, cheaper than the Euclidean distance and as good a
    rank.)"""
    off = np.float32([2, *range(-start, -deepest - 1, -1)])[:, None]
    xs = base_x[:, :, None, :] + off * normal[:, :, None, None, 0]  # N,4,K,M
    ys = base_y[:, :, None, :] + off * normal[:, :, None, None, 1]
    # The nearest pixels (a flat take: see ``_gather``): a colour, not an edge's place,
    # is measured, and ~5x faster than bilinear probes.
    h, w = fine.shape[:2]
    at = _clipped(np.floor(ys + 0.5).astype(np.intp), h - 1) * w
    at += _clipped(np.floor(xs + 0.5).astype(np.intp), w - 1)
    vals = fine.reshape(-1, 3).take(at.reshape(1, -1), axis=0)
    lab = cv2.cvtColor(vals, cv2.COLOR_BGR2LAB).reshape(*xs.shape, 3)
    return (lab[:, :, 1:].astype(np.int16) - lab[:, :, :1]).astype(np.float32) * _GAIN


def _corners(p0: np.ndarray, dd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners (N, 4, 2, float32) of quads whose sides run through points ``p0``
    in directions ``dd`` (N, 4, 2 each), and the determinants of their meeting (near 0:
    two sides in line, no corner)."""
    # Corner i is where side i-1 meets side i.
    p1, d1 = p0.take(PREV, axis=1), dd.take(PREV, axis=1)
    det = d1[..., 0] * (-dd[..., 1]) + dd[..., 0] * d1[..., 1]
    r = p0 - p1
    tt = (r[..., 0] * (-dd[..., 1]) + dd[..., 0] * r[..., 1]) / np.where(np.abs(det) < 1e-6, 1, det)
    return (p1 + d1 * tt[..., None]).astype(np.float32), det
