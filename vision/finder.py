"""Find every card on the mat as a quadrilateral.

Two stages, both at reduced resolution (longest side ~960 px; a card is a big object):

1. *Rough candidates* from several cues, each cheap and each failing differently:
   outlines (edges closed into regions: the band just inside a card's outline is a
   region), solid blobs (a card's dense art and text filled into one blob, thin mat print
   opened away) and texture density (cards are busy, a mat mostly is not). A blob too
   long for one card is cut into cards of the size the table's other cards have.
2. *Snapping and scoring*: every candidate's four sides are moved to the strongest
   straight edge near them whose gradient runs across the side (the card's outer
   outline, not its inner frame), refitted as lines and intersected; the quad is then
   scored by how much of each side has such an edge and by its proportions. The best
   quads win; a quad lying inside an accepted one (the art box, the inner frame) is
   dropped. Corners are finally snapped once more on full-resolution pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import CARD_ASPECT, area, iou, overlap, portrait


@dataclass(frozen=True)
class FinderConfig:
    """Card sizes the finder accepts, as printed height in full-frame pixels."""

    min_height: float = 140.0
    max_height: float = 560.0
    #: Search at this many pixels along the frame's longest side.
    work_long: int = 960
    canny_low: int = 20
    canny_high: int = 60
    #: Gradient (Sobel on a 0..255 channel) a card outline must have across a side.
    edge_grad: float = 36.0
    #: Mean fraction of the outline with such an edge for a quad to be a card.
    min_support: float = 0.62
    #: Fraction every single side must reach (a hand may hide part of one side).
    min_side_support: float = 0.3
    #: At most this many corner hypotheses are snapped (best screened first). A cap of
    #: 40 halves the time on a busy mat but loses ~10 points of recall on the real
    #: composites (tune split), so by default there is none.
    max_corner_snaps: int = 1000
    #: Refine corners on full-resolution pixels.
    full_res_refine: bool = True


# ---------------------------------------------------------------------------- cues


def _edges(small: np.ndarray, cfg: FinderConfig) -> np.ndarray:
    """Outline evidence: Canny on brightness and on colour, so a silver border on a grey
    mat (little brightness step) still shows where its hue differs."""
    blur = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(blur, cv2.COLOR_BGR2LAB)
    edges = cv2.Canny(lab[:, :, 0], cfg.canny_low, cfg.canny_high)
    for ch in (1, 2):
        edges |= cv2.Canny(lab[:, :, ch], cfg.canny_low // 2 + 4, cfg.canny_high // 2 + 8)
    return edges


@dataclass
class _Grad:
    """Per-pixel gradient of the channel (L, a, b) that changes most there."""

    gx: np.ndarray
    gy: np.ndarray
    mag: np.ndarray


def _gradient(image: np.ndarray) -> _Grad:
    blur = cv2.GaussianBlur(image, (3, 3), 0)
    lab = cv2.cvtColor(blur, cv2.COLOR_BGR2LAB)
    best_gx = best_gy = best_mag = None
    for ch, gain in ((0, 1.0), (1, 1.6), (2, 1.6)):
        c = lab[:, :, ch]
        gx = cv2.Sobel(c, cv2.CV_32F, 1, 0, ksize=3) * (gain / 4)
        gy = cv2.Sobel(c, cv2.CV_32F, 0, 1, ksize=3) * (gain / 4)
        mag = np.abs(gx) + np.abs(gy)
        if best_mag is None:
            best_gx, best_gy, best_mag = gx, gy, mag
        else:
            take = mag > best_mag
            best_gx = np.where(take, gx, best_gx)
            best_gy = np.where(take, gy, best_gy)
            best_mag = np.maximum(mag, best_mag)
    assert best_gx is not None and best_gy is not None and best_mag is not None
    return _Grad(best_gx, best_gy, best_mag)


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


def _sides(quad: np.ndarray) -> tuple[float, float]:
    """(short, long) mean side lengths of a quad."""
    q = portrait(quad)
    s = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float((s[0] + s[2]) / 2), float((s[1] + s[3]) / 2)


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


def _segments(small: np.ndarray, min_len: float) -> tuple[np.ndarray, np.ndarray]:
    """Straight segments (start points, end points) at least ``min_len`` long. (Found on
    a half-size copy the detector is 3× faster but misses a quarter of the cards.)"""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE).detect(grey)[0]
    if found is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    seg = found.reshape(-1, 4).astype(np.float32)
    p, q = seg[:, :2], seg[:, 2:]
    keep = np.linalg.norm(q - p, axis=1) >= min_len
    return p[keep], q[keep]


def _corner_quads(small: np.ndarray, lo: float, hi: float, sizes: list[float]
                  ) -> np.ndarray:
    """Rough quads from corners: two straight segments meeting at about a right angle
    at their ends are two sides of a card. The card's size comes from the segments'
    lengths (a side seen whole) and from ``sizes`` (card heights already found)."""
    p, q = _segments(small, lo * CARD_ASPECT * 0.3)
    if len(p) < 2 or len(p) > 1500:
        return np.zeros((0, 4, 2), np.float32)
    length = np.linalg.norm(q - p, axis=1)
    d = (q - p) / length[:, None]
    ii, jj = np.nonzero(np.triu(np.abs(d @ d.T) < 0.26, 1))  # 75°..105° apart
    if len(ii) == 0:
        return np.zeros((0, 4, 2), np.float32)
    # Intersection of the two lines: p_i + s d_i = p_j + t d_j.
    di, dj = d[ii], d[jj]
    det = di[:, 0] * (-dj[:, 1]) - di[:, 1] * (-dj[:, 0])
    r = p[jj] - p[ii]
    s = (r[:, 0] * (-dj[:, 1]) - r[:, 1] * (-dj[:, 0])) / det
    t = (di[:, 0] * r[:, 1] - di[:, 1] * r[:, 0]) / det
    li, lj = length[ii], length[jj]
    tol = max(5.0, lo * CARD_ASPECT * 0.12)
    # The corner lies near one end of each segment.
    gap_i = np.minimum(np.abs(s), np.abs(s - li))
    gap_j = np.minimum(np.abs(t), np.abs(t - lj))
    ok = np.nonzero((gap_i < tol) & (gap_j < tol))[0]
    if len(ok) == 0:
        return np.zeros((0, 4, 2), np.float32)
    i, j = ii[ok], jj[ok]
    x = p[i] + d[i] * s[ok, None]
    u = np.where((np.abs(s[ok]) < np.abs(s[ok] - li[ok]))[:, None], d[i], -d[i])
    v = np.where((np.abs(t[ok]) < np.abs(t[ok] - lj[ok]))[:, None], d[j], -d[j])
    a_len, b_len = li[ok] - gap_i[ok], lj[ok] - gap_j[ok]
    dims = [(a_len, a_len / CARD_ASPECT), (a_len, a_len * CARD_ASPECT),
            (b_len / CARD_ASPECT, b_len), (b_len * CARD_ASPECT, b_len)]
    for h in sizes:
        dims += [(np.full_like(a_len, h * CARD_ASPECT), np.full_like(a_len, h)),
                 (np.full_like(a_len, h), np.full_like(a_len, h * CARD_ASPECT))]
    quads = []
    for a, b in dims:
        # Sized for a card, and both segments lie along the sides they span.
        good = ((np.maximum(a, b) >= lo * 0.9) & (np.maximum(a, b) <= hi * 1.1)
                & (a >= 0.8 * a_len) & (b >= 0.8 * b_len))
        ua, vb = u[good] * a[good, None], v[good] * b[good, None]
        xg = x[good]
        quads.append(np.stack([xg, xg + ua, xg + ua + vb, xg + vb], axis=1))
    return np.concatenate(quads).astype(np.float32)


def _dedupe(quads: np.ndarray) -> np.ndarray:
    """One of each group of nearly equal quads."""
    if len(quads) == 0:
        return quads
    c = quads.mean(axis=1)
    side = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    other = np.linalg.norm(quads[:, 2] - quads[:, 1], axis=1)
    long = np.maximum(side, other)
    e = np.where((side >= other)[:, None], quads[:, 1] - quads[:, 0], quads[:, 2] - quads[:, 1])
    ang = np.degrees(np.arctan2(e[:, 1], e[:, 0])) % 180
    grid = long * 0.06
    key = np.stack([c[:, 0] / grid, c[:, 1] / grid, np.log(long) / 0.06,
                    ang / 6], axis=1).astype(np.int64)
    _, first = np.unique(key, axis=0, return_index=True)
    return quads[np.sort(first)]


def _coarse_support(quads: np.ndarray, dist: np.ndarray, band: float) -> np.ndarray:
    """Per quad and side: fraction of the side within ``band`` px of an edge pixel
    (``dist`` is the distance to the nearest edge), for many quads at once."""
    t = np.linspace(0.12, 0.88, 12, dtype=np.float32)
    a = quads
    b = np.roll(quads, -1, axis=1)
    pts = a[:, :, None, :] + (b - a)[:, :, None, :] * t[None, None, :, None]
    h, w = dist.shape
    xi = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, w - 1)
    yi = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, h - 1)
    inside = (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)
    near = (dist[yi, xi] <= band) & inside
    return near.mean(axis=2)


# ---------------------------------------------------------------- snap and score


def _lookup(grad: _Grad, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradient at points (nearest pixel; zero outside the image)."""
    h, w = grad.mag.shape
    xi = np.rint(pts[..., 0]).astype(np.int32)
    yi = np.rint(pts[..., 1]).astype(np.int32)
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    xi = np.clip(xi, 0, w - 1)
    yi = np.clip(yi, 0, h - 1)
    return (np.where(inside, grad.gx[yi, xi], 0), np.where(inside, grad.gy[yi, xi], 0),
            np.where(inside, grad.mag[yi, xi], 0))


def _side_hits(grad: _Grad, a: np.ndarray, b: np.ndarray, normal: np.ndarray,
               offsets: np.ndarray, thr: float) -> tuple[np.ndarray, np.ndarray]:
    """Edge hits along a side shifted by each offset (rows) at samples along it
    (columns), and the sample points."""
    length = float(np.linalg.norm(b - a))
    m = int(np.clip(length / 3, 10, 60))
    t = np.linspace(0.1, 0.9, m, dtype=np.float32)
    base = a[None, :] + (b - a)[None, :] * t[:, None]
    pts = base[None, :, :] + offsets[:, None, None] * normal[None, None, :]
    gx, gy, mag = _lookup(grad, pts)
    across = np.abs(gx * normal[0] + gy * normal[1])
    hits = (across >= thr) & (across >= 0.6 * mag)
    return hits, pts


def _fit_side(grad: _Grad, a: np.ndarray, b: np.ndarray, centre: np.ndarray, band: float,
              thr: float) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The card outline near side a→b as a line (point, direction) and its support."""
    d = b - a
    length = float(np.linalg.norm(d))
    if length < 4:
        return None
    d = d / length
    normal = np.float32([-d[1], d[0]])
    if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
        normal = -normal  # outward
    offsets = np.arange(-band, band + 0.5, 1.0, dtype=np.float32)
    hits, pts = _side_hits(grad, a, b, normal, offsets, thr)
    # A slightly tilted line spreads over neighbouring offsets: take the hit within ±1.
    spread = hits.copy()
    spread[1:] |= hits[:-1]
    spread[:-1] |= hits[1:]
    support = spread.mean(axis=1)
    best = float(support.max())
    if best < 0.2:
        return None
    # The outermost strong line: the card's outer outline, not its inner frame or art.
    strong = np.nonzero(support >= 0.75 * best)[0]
    k = int(strong.max())
    k0 = max(0, k - 2)
    window = hits[k0:k + 3]
    rows = np.arange(k0, k0 + len(window))[:, None]
    dist = np.where(window, np.abs(rows - k), 99)
    pick = dist.argmin(axis=0)
    has = dist.min(axis=0) < 99
    cols = pts[k0 + pick[has], np.nonzero(has)[0]]
    if len(cols) >= 5:
        line = cv2.fitLine(cols.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        direction = line[:2]
        if abs(float(np.dot(direction, d))) < 0.97:  # more than ~14° off: keep the shift
            p0, direction = a + normal * offsets[k], d
        else:
            p0 = line[2:]
    else:
        p0, direction = a + normal * offsets[k], d
    return np.float32(p0), np.float32(direction), float(support[k])


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray
               ) -> np.ndarray | None:
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], dtype=np.float64)
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    t = np.linalg.solve(m, (p2 - p1).astype(np.float64))
    return np.float32(p1 + d1 * t[0])


def _snap(quad: np.ndarray, grad: _Grad, band: float, thr: float) -> np.ndarray | None:
    """The quad with every side moved onto the card outline near it."""
    q = np.asarray(quad, dtype=np.float32)
    centre = q.mean(axis=0)
    lines = []
    for i in range(4):
        fit = _fit_side(grad, q[i], q[(i + 1) % 4], centre, band, thr)
        if fit is None:
            return None
        lines.append(fit)
    out = []
    for i in range(4):
        p1, d1, _ = lines[(i - 1) % 4]
        p2, d2, _ = lines[i]
        c = _intersect(p1, d1, p2, d2)
        if c is None:
            return None
        out.append(c)
    res = np.float32(out)
    if not cv2.isContourConvex(res.reshape(-1, 1, 2)):
        return None
    return res


def _support(quad: np.ndarray, grad: _Grad, thr: float) -> np.ndarray:
    """Per side: the fraction of it (corners left out) lying on an edge across it."""
    q = np.asarray(quad, dtype=np.float32)
    centre = q.mean(axis=0)
    out = np.zeros(4, np.float32)
    offsets = np.float32([-1, 0, 1])
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        n = np.linalg.norm(d)
        if n < 4:
            return out
        normal = np.float32([-d[1], d[0]]) / n
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal
        hits, _ = _side_hits(grad, a, b, normal, offsets, thr)
        out[i] = hits.any(axis=0).mean()
    return out


def _shape_ok(quad: np.ndarray, lo: float, hi: float) -> float:
    """0 for a quad no card could be, else a score near 1 for a card's proportions."""
    short, long = _sides(quad)
    if long < lo or long > hi or short <= 0:
        return 0.0
    ratio = short / long
    # A camera 20° off vertical squeezes one axis by ~6%; allow more for corners.
    if not 0.58 <= ratio <= 0.86:
        return 0.0
    q = portrait(quad)
    s = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    # Opposite sides of a card seen from ≤ 20° off vertical are nearly equal.
    if min(s[0], s[2]) < 0.75 * max(s[0], s[2]) or min(s[1], s[3]) < 0.75 * max(s[1], s[3]):
        return 0.0
    return float(1 - abs(ratio - CARD_ASPECT))


def _accept(quad: np.ndarray | None, grad: _Grad, lo: float, hi: float, cfg: FinderConfig
            ) -> tuple[float, np.ndarray] | None:
    if quad is None:
        return None
    shape = _shape_ok(quad, lo, hi)
    if shape <= 0:
        return None
    sup = _support(quad, grad, cfg.edge_grad)
    if sup.mean() < cfg.min_support or sup.min() < cfg.min_side_support:
        return None
    return float(sup.mean() * shape), quad


def _refine_full(frame: np.ndarray, quad: np.ndarray, thr: float) -> np.ndarray:
    """The quad's corners snapped on full-resolution pixels of a crop around it."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.float32))
    pad = 8
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return quad
    crop = frame[y0:y1, x0:x1]
    grad = _gradient(crop)
    local = quad - np.float32([x0, y0])
    snapped = _snap(local, grad, 3.0, thr)
    if snapped is None:
        return quad
    snapped = snapped + np.float32([x0, y0])
    if np.abs(snapped - quad).max() > 6:
        return quad
    return snapped


def find_cards(frame: np.ndarray, config: FinderConfig | None = None) -> list[np.ndarray]:
    """Every card in a BGR frame as a quad in frame pixels, corners clockwise with a
    short side first (upright or upside down: the reader decides which)."""
    cfg = config or FinderConfig()
    fh, fw = frame.shape[:2]
    scale = min(1.0, cfg.work_long / max(fh, fw))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    lo, hi = cfg.min_height * scale, cfg.max_height * scale
    edges = _edges(small, cfg)
    grad = _gradient(small)
    quads, big = _candidates(small, edges, lo, hi)
    scored: list[tuple[float, np.ndarray]] = []

    def consider(rough: np.ndarray) -> None:
        short, _long = _sides(rough)
        band = max(3.0, 0.09 * short)
        q = _snap(rough, grad, band, cfg.edge_grad)
        if q is not None:
            q = _snap(q, grad, 2.0, cfg.edge_grad) if q is not None else None
        got = _accept(q, grad, lo, hi, cfg)
        if got is not None:
            scored.append(got)

    for rough in quads:
        consider(rough)
    first = [_sides(q)[1] for _s, q in scored]
    corners = _dedupe(_corner_quads(small, lo, hi, [float(np.median(first))] if first else []))
    if len(corners):
        # Cheap screen first: most corner hypotheses have no outline along their sides.
        dist = cv2.distanceTransform(255 - edges, cv2.DIST_L2, 3)
        sup = _coarse_support(corners, dist, max(3.0, lo * CARD_ASPECT * 0.07))
        rank = sup.mean(axis=1)
        good = np.nonzero((rank >= 0.55) & (sup.min(axis=1) >= 0.2))[0]
        for k in good[np.argsort(-rank[good])][:cfg.max_corner_snaps]:
            rough = corners[k]
            # A hypothesis on a card already found costs a snap and finds nothing new.
            if any(iou(rough, q) > 0.75 for _s, q in scored):
                continue
            consider(rough)
    # Cards on one table are about the same size: cut blobs of touching cards into cards
    # of the size already found (or, with none found yet, of every plausible size).
    sizes = [_sides(q)[1] for _s, q in scored]
    card_long = [float(np.median(sizes))] if sizes else list(np.linspace(lo, hi, 6)[1:-1])
    for rect in big:
        for cl in card_long:
            for rough in _split(rect, cl):
                consider(rough)
    kept = _select(scored)
    out = []
    for q in kept:
        full = q / scale
        if cfg.full_res_refine and scale < 1:
            full = _refine_full(frame, full, cfg.edge_grad)
        out.append(portrait(full))
    return out


def _select(scored: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """Best quads first; one that overlaps an accepted card is dropped, unless it is a
    bigger, about as well supported outline around it (then the inner one goes)."""
    scored.sort(key=lambda item: -item[0])
    kept: list[tuple[float, np.ndarray]] = []
    for score, quad in scored:
        clash = [k for k, (_s, other) in enumerate(kept) if overlap(quad, other) >= 0.3]
        if not clash:
            kept.append((score, quad))
            continue
        a = area(quad)
        if all(a > 1.15 * area(kept[k][1]) and overlap(quad, kept[k][1]) > 0.85
               and score > 0.8 * kept[k][0] for k in clash):
            kept = [item for k, item in enumerate(kept) if k not in clash]
            kept.append((score, quad))
    return [q for _s, q in kept]
