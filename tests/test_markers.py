"""Playmat calibration: four printed corner markers fix the mat in the picture, so a
nudged camera moves no card between zones."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import cv2
import numpy as np
import pytest

from assistant.mirror import SeenCard, TableLayout
from vision.markers import MatFollower, detect_markers, draw_markers, find_mat, marker_sheet

Cli = Callable[..., CompletedProcess[str]]
W, H = 1280, 720
GREEN = (62, 104, 58)
#: The mat's corners in a square-on picture (pixels, top-left first, clockwise).
SQUARE = np.float32([[200, 120], [1079, 120], [1079, 599], [200, 599]])


def mat_picture() -> np.ndarray:
    picture = np.full((H, W, 3), GREEN, np.uint8)
    draw_markers(picture, SQUARE, 48)
    return picture


def knocked(picture: np.ndarray, turn: float = 6.0, scale: float = 0.9, shift: tuple[int, int] = (90, 60)
            ) -> tuple[np.ndarray, np.ndarray]:
    """The picture from a camera knocked hard, and the move (2×3, pixels → pixels)."""
    move = cv2.getRotationMatrix2D((W / 2, H / 2), turn, scale)
    move[:, 2] += shift
    return cv2.warpAffine(picture, move, (W, H), borderValue=GREEN), move


def test_the_printable_sheet_holds_the_four_corner_markers(tmp_path: Path, cli: Cli) -> None:
    sheet = cv2.imread(str(marker_sheet(tmp_path / "sheet.png")))
    assert sorted(detect_markers(sheet)) == [0, 1, 2, 3]
    result = cli("markers", str(tmp_path / "out" / "markers.pdf"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "markers.pdf").read_bytes().startswith(b"%PDF")
    wrong = cli("markers", str(tmp_path / "markers.txt"))
    assert wrong.returncode == 2 and "must end in .png or .pdf" in wrong.stderr and "Traceback" not in wrong.stderr


def test_the_mat_is_found_where_the_markers_put_it() -> None:
    fix = find_mat(mat_picture())
    assert fix is not None
    np.testing.assert_allclose(fix.corners, SQUARE, atol=0.6)
    for corner, expected in zip(SQUARE, [(0, 0), (1, 0), (1, 1), (0, 1)], strict=True):
        assert fix.to_mat(*corner) == pytest.approx(expected, abs=1e-3)
    assert fix.to_mat(639.5, 359.5) == pytest.approx((0.5, 0.5), abs=2e-3)


def test_a_known_tilt_of_the_camera_is_recovered() -> None:
    # A perspective view: the far edge of the mat looks narrower.
    tilted = np.float32([[260, 100], [1020, 100], [1140, 650], [140, 650]])
    view = cv2.getPerspectiveTransform(SQUARE, tilted)
    picture = cv2.warpPerspective(mat_picture(), view, (W, H), borderValue=GREEN)
    fix = find_mat(picture)
    assert fix is not None
    np.testing.assert_allclose(fix.corners, tilted, atol=2.0)
    mat_to_image = np.linalg.inv(fix.homography)
    expected = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), tilted)
    for u, v in [(0.25, 0.3), (0.5, 0.5), (0.8, 0.9)]:
        got = mat_to_image @ [u, v, 1]
        want = expected @ [u, v, 1]
        np.testing.assert_allclose(got[:2] / got[2], want[:2] / want[2], atol=2.0)


def test_a_picture_without_all_four_markers_has_no_fix_but_a_video_keeps_the_last() -> None:
    picture = mat_picture()
    covered = picture.copy()
    covered[60:240, 140:320] = (120, 160, 205)  # a hand over the top-left marker
    assert find_mat(covered) is None
    follower = MatFollower()
    assert follower.update(covered) is None  # never seen yet
    first = follower.update(picture)
    assert first is not None
    assert follower.update(covered) is first
    nudged, _ = knocked(picture)
    moved = follower.update(nudged)
    assert moved is not None and moved is not first
    assert not np.allclose(moved.corners, first.corners, atol=5)


def test_a_nudged_camera_keeps_cards_in_their_zones_with_markers_and_moves_them_without() -> None:
    picture = mat_picture()
    layout = TableLayout()
    fix = find_mat(picture)
    assert fix is not None
    # Cards near the zones' edges: A's Active just below the centre line, B's Active
    # just above it, A's Bench just past the Active row.
    cards = {"A active": (640.0, 380.0), "B active": (560.0, 330.0), "A bench": (900.0, 490.0)}
    nudged, move = knocked(picture)
    nudged_fix = find_mat(nudged)
    assert nudged_fix is not None

    def places(points: dict[str, tuple[float, float]], to: Callable[[float, float], tuple[float, float]]
               ) -> dict[str, tuple[str, str]]:
        return {k: layout.place(SeenCard(1, None, None, *to(x, y))) for k, (x, y) in points.items()}

    moved = {k: tuple(move @ [x, y, 1]) for k, (x, y) in cards.items()}
    before = places(cards, fix.to_mat)
    assert before == {"A active": ("A", "active"), "B active": ("B", "active"), "A bench": ("A", "bench")}
    assert places(moved, nudged_fix.to_mat) == before
    # Placed in the picture instead, B's Active crosses the centre line to A's side.
    in_picture = places(moved, lambda x, y: (x / W, y / H))
    assert places(cards, lambda x, y: (x / W, y / H))["B active"] == ("B", "active")
    assert in_picture["B active"] == ("A", "active")


def test_the_mirror_on_a_nudged_camera_with_markers_sees_the_same_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's first turns, with the markers on the mat and the camera knocked
    halfway through: the same plays as the square-on video, none lost, none added, and
    every card that stays put keeps its place on the mat though it moved in the picture."""
    import io

    from assistant.editions import edition
    from assistant.embedded import embedded_deck_paths
    from assistant.live.demo_script import SCRIPT, Say, camera_actions
    from assistant.mirror import TableMirror
    from table_assistant.mirror_command import settled_pictures
    from table_assistant.recognize_command import candidate_names
    from vision.demo_video import camera_knock, demo_video, mat_corners

    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path))
    ends = [k for k, step in enumerate(SCRIPT) if isinstance(step, Say) and step.action["type"] == "end_turn"]
    script = SCRIPT[:ends[2]]
    hit_points = {"Scorbunny": 70, "Raboot": 90, "Victini": 70, "Ralts": 70, "Kirlia": 100, "Duskull": 60,
                  "Dusclops": 90}
    plain = demo_video(tmp_path, hit_points, script=script)
    knock = plain.frames // 2
    video = demo_video(tmp_path, hit_points, script=script, markers=True, nudge_at=knock)
    assert video.frames == plain.frames

    layout = TableLayout()
    table = TableMirror(edition("mega-evolution-2025"), layout)
    lines: list[dict] = []
    pictures: list[tuple[int, dict[int, SeenCard]]] = []

    def shown(frame, snapshot: list[SeenCard]) -> None:  # noqa: ANN001 - vision's Frame
        pictures.append((frame.index, {c.track: c for c in snapshot}))
        lines.extend(i.to_json(frame=frame.index) for i in table.see(snapshot))

    candidates = candidate_names([str(p) for p in embedded_deck_paths().values()], io.StringIO())
    assert settled_pictures(str(video.path), candidates, layout, lambda: table.game is not None, shown,
                            give_up=None, err=io.StringIO(), command="mirror") == 0
    assert [{k: v for k, v in x.items() if k not in ("frame", "t", "verdict", "choices")} for x in lines] \
        == camera_actions(script, alone=True)
    # The last picture before the knock and the first after it: the cards that lie
    # in both lie where they did on the mat, though the picture moved under them.
    before = next(p for f, p in reversed(pictures) if f < knock)
    after = next(p for f, p in pictures if f >= knock)
    kept = [(before[track], card) for track, card in after.items() if track in before and card.name]
    assert len(kept) >= 6
    (left, top), (right, bottom) = mat_corners()[0], mat_corners()[2]
    in_picture = []
    for old, new in kept:
        assert abs(old.x - new.x) < 0.01 and abs(old.y - new.y) < 0.01, (old, new)
        x, y = left + old.x * (right - left), top + old.y * (bottom - top)
        moved_x, moved_y = camera_knock() @ [x, y, 1]
        in_picture.append(max(abs(moved_x - x) / W, abs(moved_y - y) / H))
    assert max(in_picture) > 0.02


def test_a_mat_without_markers_is_searched_only_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.markers as markers

    searched: list[int] = []
    monkeypatch.setattr(markers, "find_mat", lambda image: searched.append(1))
    follower = MatFollower()
    blank = np.zeros((72, 128, 3), np.uint8)
    for _ in range(10 * markers.SEARCH_EVERY):
        follower.update(blank)
    assert len(searched) == markers.SEARCH_EVERY + 9  # every frame at first, then one in SEARCH_EVERY


def test_tapped_corners_fix_the_mat_as_its_markers_do_until_the_markers_are_seen() -> None:
    from vision.markers import corners_fix

    picture = mat_picture()
    by_markers = find_mat(picture)
    assert by_markers is not None
    tapped = [(float(x) / W, float(y) / H) for x, y in SQUARE]
    by_hand = corners_fix(tapped, W, H)
    assert by_hand.source == "corners"
    for point in [(640.0, 380.0), (300.0, 200.0), (1000.0, 560.0)]:
        assert by_hand.to_mat(*point) == pytest.approx(by_markers.to_mat(*point), abs=2e-3)
        assert by_hand.to_image(*by_hand.to_mat(*point)) == pytest.approx(point, abs=1e-6)

    bare = np.full((H, W, 3), GREEN, np.uint8)  # the same mat without its markers
    follower = MatFollower()
    assert follower.update(bare) is None
    assert follower.update(bare, tapped).source == "corners"
    assert follower.update(bare, tapped).source == "corners"
    # Forgotten: the picture's own fractions again.
    assert follower.update(bare, None) is None
    # Tapped, then the markers come into view: they take over, and stay.
    follower.update(bare, tapped)
    assert follower.update(picture, tapped).source == "markers"
    assert follower.update(bare, tapped).source == "markers"
    # Forgetting the tapped corners leaves the markers' fix alone.
    assert follower.update(bare, None).source == "markers"
