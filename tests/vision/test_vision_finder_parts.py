"""The card finder's faster parts answer as the plain computations they replace: the
selection's bounding-box pre-test, probes shared between neighbouring shifts of a side,
right angles between segments, and the allocator kept from returning each frame's
arrays to the system."""

from __future__ import annotations

import sys

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.finding.corners import right_angles
from vision.finding.quads import crosswise, long_edges, quad_areas
from vision.finding.select import BORDER_MARGIN, PART_AREA, SELECT_GROW, SMALL_PART, select_cards
from vision.finding.snap import _GAIN, _probe
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
                 and ((areas[i] >= PART_AREA * areas[k] and crosswise(angles[i], angles[k]))
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
        means.append((lab[0] + lab[1]) / 2 * _GAIN)
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
