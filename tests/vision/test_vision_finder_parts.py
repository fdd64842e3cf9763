"""The card finder's faster parts answer as the plain computations they replace: the
selection's bounding-box pre-test, probes shared between neighbouring shifts of a side,
right angles between segments, snapping each quad with the reach it needs, probes
reused for a second snap, the snap's numpy spelled for speed, and the allocator kept
from returning each frame's arrays to the system."""

from __future__ import annotations

import sys

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.finding import snap
from vision.finding.corners import right_angles
from vision.finding.cues import blurred_lab, gradient_image
from vision.finding.quads import crosswise, long_edges, quad_areas
from vision.finding.select import (
    BORDER_MARGIN,
    CROSSWISE_GROW,
    CROSSWISE_OUTLINED,
    PART_AREA,
    SELECT_GROW,
    SMALL_PART,
    select_cards,
)
from vision.finding.snap import PROBE_GAIN, _probe
from vision.geometry import overlap
from vision.memory import keep_freed_memory


def _rect(cx: float, cy: float, w: float, h: float, turn: float) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), turn)).astype(np.float32)


def _every_pair_select(scored: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """``select_cards`` as first written: every pair of quads measured exactly."""
    scored = sorted(scored, key=lambda item: -item[0])
    quads = [q for _s, q in scored]
    areas = quad_areas(np.stack(quads)).tolist()
    angles = long_edges(np.stack(quads))[1].tolist()

    def surrounds(outer: np.ndarray, inner: np.ndarray) -> bool:
        depth = min(cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(x), float(y)), True)
                    for x, y in inner)
        sides = np.linalg.norm(outer - np.roll(outer, -1, axis=0), axis=1)
        return depth >= BORDER_MARGIN * min(sides[0] + sides[2], sides[1] + sides[3]) / 2

    kept: list[int] = []
    for i, (score, quad) in enumerate(scored):
        shared = {k: overlap(quad, quads[k]) for k in kept}
        clash = [k for k, part in shared.items() if part >= 0.3]
        if not clash:
            kept.append(i)
        elif all(areas[i] > 1.15 * areas[k] and shared[k] > 0.85 and score > SELECT_GROW * scored[k][0]
                 and ((areas[i] >= PART_AREA * areas[k] and crosswise(angles[i], angles[k])
                       and (score >= CROSSWISE_GROW * scored[k][0] or score >= CROSSWISE_OUTLINED))
                      or areas[i] >= SMALL_PART * areas[k] or surrounds(quad, quads[k])) for k in clash):
            kept = [k for k in kept if k not in clash]
            kept.append(i)
    return [quads[k] for k in kept]


_QUADS = st.lists(
    st.tuples(st.floats(0.1, 1.0), st.floats(50, 350), st.floats(50, 250), st.floats(20, 120),
              st.floats(0.5, 1.6), st.floats(0, 90)),
    min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(_QUADS)
def test_the_selection_keeps_the_cards_every_pair_measured_would(drawn):
    # Quads piled on a small table: many overlap, some lie inside others, some only
    # touch; the bounding-box pre-test and the early drop must change nothing.
    scored = [(score, _rect(cx, cy, w, w * ratio, turn)) for score, cx, cy, w, ratio, turn in drawn]
    expected = _every_pair_select(list(scored))
    assert [q.tolist() for q in select_cards(list(scored))] == [q.tolist() for q in expected]


def _eight_probes(image: np.ndarray, x: np.ndarray, y: np.ndarray, normal: np.ndarray,
                  along: np.ndarray) -> np.ndarray:
    """The gradient at points (x, y) from eight bilinear probes of their own: one pixel
    either way across and along, each the mean of two half a pixel apart."""
    pts = np.stack([x, y], axis=-1).reshape(-1, 2)
    n = np.broadcast_to(normal, x.shape + (2,)).reshape(-1, 2)
    d = np.broadcast_to(along, x.shape + (2,)).reshape(-1, 2)
    means = []
    for step, half in ((n, d), (-n, d), (d, n), (-d, n)):
        probes = [pts + step + 0.5 * half, pts + step - 0.5 * half]
        lab = [cv2.cvtColor(cv2.remap(image, p[None, :, 0].copy(), p[None, :, 1].copy(), cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
               for p in probes]
        means.append((lab[0] + lab[1]) / 2 * PROBE_GAIN)
    across, along_g = means[0] - means[1], means[2] - means[3]
    mag = np.abs(across) + np.abs(along_g)
    ch = mag.argmax(axis=1)
    idx = np.arange(len(ch))
    a_, b_ = across[idx, ch], along_g[idx, ch]
    g = np.stack([a_ * n[:, 0] + b_ * d[:, 0], a_ * n[:, 1] + b_ * d[:, 1], mag[idx, ch]], axis=-1)
    return g.reshape(x.shape + (3,))


def test_probes_shared_between_shifts_measure_what_each_points_own_probes_do():
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 256, (120, 160, 3), dtype=np.uint8), (5, 5), 0)
    # Two quads' four sides, six points along each, shifted by -3..3 px across them.
    angle = rng.uniform(0, np.pi, (2, 4))
    along = np.stack([np.cos(angle), np.sin(angle)], axis=-1).astype(np.float32)
    normal = np.stack([-along[..., 1], along[..., 0]], axis=-1)
    base_x = rng.uniform(10, 150, (2, 4, 6)).astype(np.float32)
    base_y = rng.uniform(10, 110, (2, 4, 6)).astype(np.float32)
    offsets = np.arange(-3, 4, dtype=np.float32)
    shared = _probe(image, base_x, base_y, offsets, normal, along)
    x = base_x[:, :, None, :] + offsets[:, None] * normal[:, :, None, None, 0]
    y = base_y[:, :, None, :] + offsets[:, None] * normal[:, :, None, None, 1]
    own = _eight_probes(image, x, y, normal[:, :, None, None, :], along[:, :, None, None, :])
    assert shared.shape == own.shape == (2, 4, 7, 6, 3)
    # Equal but where a probe's coordinate rounds the other way on remap's 1/32 px grid.
    close = np.isclose(shared, own, atol=1e-3).all(axis=-1)
    assert close.mean() > 0.97
    assert np.abs(shared - own).max() < 3


def test_right_angles_are_the_pairs_of_segments_about_square_to_each_other():
    rng = np.random.default_rng(5)
    p = rng.uniform(0, 600, (60, 2)).astype(np.float32)
    turn = rng.uniform(0, np.pi, 60)
    q = (p + 80 * np.stack([np.cos(turn), np.sin(turn)], axis=1)).astype(np.float32)
    corners = right_angles((p, q))
    assert corners is not None
    d = corners.d
    expected = [(i, j) for i in range(60) for j in range(i + 1, 60)
                if abs(float(d[i] @ d[j])) < 0.26]
    assert list(zip(corners.i.tolist(), corners.j.tolist(), strict=True)) == expected
    # Where the two lines meet: s along the first segment, t along the second.
    for k in range(0, len(expected), 7):
        i, j = expected[k]
        meet = p[i] + corners.s[k] * d[i]
        assert np.allclose(meet, p[j] + corners.t[k] * d[j], atol=1e-2)


def test_freed_memory_is_kept_for_the_next_frame_on_linux():
    kept = keep_freed_memory()
    assert kept == (sys.platform.startswith("linux") and _glibc())
    assert keep_freed_memory() == kept  # asking twice changes nothing


def _glibc() -> bool:
    import platform

    return platform.libc_ver()[0] == "glibc"


def _table(seed: int = 7) -> np.ndarray:
    """A small BGR table: noise with a few cards (pale, dark, coloured) laid on it."""
    rng = np.random.default_rng(seed)
    image = rng.integers(90, 140, (240, 320, 3), dtype=np.uint8)
    for (cx, cy, w, turn), colour in zip(((70, 70, 60, 5), (200, 80, 70, -12), (130, 170, 50, 30), (260, 180, 44, 0)),
                                         ((230, 230, 225), (40, 40, 60), (60, 160, 200), (200, 120, 90)), strict=True):
        cv2.fillConvexPoly(image, _rect(cx, cy, w, w / 0.716, turn).astype(np.int32), colour)
    return cv2.GaussianBlur(image, (3, 3), 0)


def _near_cards(drawn: list[tuple[int, float, float, float, float]]) -> np.ndarray:
    """Quads near the cards of ``_table``, a little off in place, size and turn."""
    cards = ((70, 70, 60, 5), (200, 80, 70, -12), (130, 170, 50, 30), (260, 180, 44, 0))
    quads = []
    for k, dx, dy, grow, turn in drawn:
        cx, cy, w, t = cards[k]
        quads.append(_rect(cx + dx, cy + dy, w * grow, w * grow / 0.716, t + turn))
    return np.stack(quads)


_OFF_CARDS = st.lists(st.tuples(st.integers(0, 3), st.floats(-6, 6), st.floats(-6, 6), st.floats(0.85, 1.15),
                                st.floats(-6, 6)), min_size=1, max_size=24)


@settings(max_examples=40, deadline=None)
@given(_OFF_CARDS, st.lists(st.floats(3, 11), min_size=24, max_size=24), st.sampled_from([16, 32]))
def test_snapping_each_quad_with_its_own_reach_changes_no_quad_it_keeps(drawn, bands, samples):
    # A batch is split into quads needing a short reach and the rest (``_reach_split``):
    # every quad kept (mask True) must be where one pass with the batch's reach puts it.
    packed = gradient_image(cv2.split(blurred_lab(_table())))
    quads = _near_cards(drawn)
    band = np.float32(bands[:len(quads)])
    saved = snap.SPLIT_SAVES
    snap.SPLIT_SAVES = 0  # split whenever two reaches differ at all
    try:
        split, split_ok = snap.snap_many(quads, packed, band, 20.0, samples)
    finally:
        snap.SPLIT_SAVES = saved
    plain, plain_ok = snap.snap_within(quads, packed, band, 20.0, samples, 1.0, int(np.ceil(band.max())))
    assert np.array_equal(split_ok, plain_ok)
    assert np.array_equal(split[split_ok], plain[plain_ok])


def test_a_batch_of_mixed_reaches_is_split_and_snaps_as_one_pass_does():
    packed = gradient_image(cv2.split(blurred_lab(_table())))
    quads = _near_cards([(k % 4, k % 3 - 1.0, 1.0 - k % 2, 1.0 + 0.02 * (k % 5), 0.5 * k) for k in range(20)])
    band = np.where(np.arange(20) % 2 == 0, 3.0, 10.0).astype(np.float32)
    assert snap._reach_split(band.reshape(-1, 1), 10, 16) is not None
    split, split_ok = snap.snap_many(quads, packed, band, 20.0)
    plain, plain_ok = snap.snap_within(quads, packed, band, 20.0, 16, 1.0, 10)
    assert plain_ok.sum() >= 10  # most quads snap onto their card
    assert np.array_equal(split_ok, plain_ok) and np.array_equal(split[split_ok], plain[plain_ok])


@settings(max_examples=30, deadline=None)
@given(_OFF_CARDS, st.integers(1, 6), st.integers(0, 5), st.sampled_from([16, 32]))
def test_probes_reused_for_some_quads_and_fewer_shifts_are_what_probing_them_again_gives(
        drawn, reach, fewer, samples):
    image = _table()
    quads = _near_cards(drawn)
    rows = np.arange(len(quads))[::2]
    r = max(1, reach - fewer)
    reused = snap.probe_sides(image, quads, reach, samples)[rows, :, reach - r:reach + r + 1]
    again = snap.probe_sides(image, quads[rows], r, samples)
    assert np.array_equal(reused, again)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.integers(1, 48), st.booleans(), st.integers(0, 2**32 - 1))
def test_the_share_of_true_flags_is_their_mean(n, k, m, strided, seed):
    flags = np.random.default_rng(seed).random((n, 4, k, m)) < 0.4
    if strided:
        flags = flags[:, :, ::-1]
    assert np.array_equal(snap.share(flags), flags.mean(axis=-1))


def _plain_side_frames(quads: np.ndarray) -> tuple[np.ndarray, ...]:
    """``side_frames`` as first written (``np.linalg.norm``, ``stack``, ``mean``)."""
    a, b = quads, np.roll(quads, -1, axis=1)
    d = b - a
    d = d / np.maximum(np.linalg.norm(d, axis=2, keepdims=True), 1e-3)
    normal = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    centre = quads.mean(axis=1, keepdims=True)
    flip = (normal * ((a + b) / 2 - centre)).sum(axis=2, keepdims=True) < 0
    return a, b, d, np.where(flip, -normal, normal)


def _plain_gather(packed: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``_gather`` as first written: int32 pixels clipped with ``np.clip``."""
    h, w = packed.shape[:2]
    xi = np.clip((x + 1.5).astype(np.int32), 0, w - 1)
    yi = np.clip((y + 1.5).astype(np.int32), 0, h - 1)
    return packed.reshape(-1).view(np.complex128).take(yi * w + xi).view(np.float32).reshape(*xi.shape, 4)


_COORDS = st.floats(-5e3, 5e3, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(*[_COORDS] * 8), min_size=1, max_size=12), st.sampled_from([16, 40]))
def test_sides_points_and_their_gradient_are_as_the_plain_numpy_had_them(corners, samples):
    # Any quads, degenerate and far off the image too: the same directions, normals,
    # pixels read and fitted lines, bit for bit.
    quads = np.float32(corners).reshape(-1, 4, 2)
    for got, plain in zip(snap.side_frames(quads), _plain_side_frames(quads), strict=True):
        assert got.dtype == plain.dtype and np.array_equal(got, plain, equal_nan=True)
    packed = gradient_image(cv2.split(blurred_lab(_table())))
    a, b, _d, normal = snap.side_frames(quads)
    x, y = snap.sample_points(a, b, samples)
    shift = np.float32([-2, 0, 3])[None, None, :, None]
    px, py = x[:, :, None] + shift * normal[:, :, None, None, 0], y[:, :, None] + shift * normal[:, :, None, None, 1]
    assert np.array_equal(snap._gather(packed, px.copy(), py.copy()), _plain_gather(packed, px, py))
    weight = (np.arange(samples) % 3 != 0).astype(np.float32) * np.ones_like(x)
    plain_sum = np.moveaxis(x * weight, -1, 0).copy().sum(axis=0)
    assert np.array_equal(snap._sum_points(x * weight), plain_sum)


def test_refining_no_quads_gives_no_quads():
    """A frame where no card survived the selection: nothing to refine, and no error."""
    from vision.finding.config import FinderConfig
    from vision.finding.refine import refine

    fine = np.full((120, 160, 3), 120, np.uint8)
    assert refine(fine, np.zeros((0, 4, 2), np.float32), 3.0, FinderConfig()).shape == (0, 4, 2)

