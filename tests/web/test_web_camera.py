"""The camera view and the zones' calibration, against a real uvicorn: the judge sees the
latest frame with each card's outline, name and confidence and the mat's zones; moves
the zones; spectators reach none of it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from web_server import TOKEN, Served, serve

from assistant.live.table import LiveTable
from assistant.table_layout import LayoutError, SeenCard, TableLayout
from table_assistant.camera_view import CENTRE_LINE, SETTLED, UNSURE, CameraView, plain
from vision.tracker import TrackedCard
from web.app import create_app

AUTH = {"Authorization": f"Bearer {TOKEN}"}
WIDTH, HEIGHT = 800, 600
#: A card lying in player A's Bench row (bottom of the image), and one being read in B's Active row.
BENCHED = np.array([[100, 460], [200, 460], [200, 590], [100, 590]], dtype=np.float32)
READING = np.array([[500, 200], [600, 200], [600, 290], [500, 290]], dtype=np.float32)


#: A card a hand hides: vision still tracks it, but it is not drawn where it was last seen.
HIDDEN = np.array([[650, 420], [750, 420], [750, 560], [650, 560]], dtype=np.float32)


def tracked(quad: np.ndarray, name: str | None, confidence: float, settled: bool,
            visible: bool = True) -> TrackedCard:
    return TrackedCard(1, quad, 0, name, None, confidence, settled, visible)


@pytest.fixture
def view() -> CameraView:
    return CameraView(TableLayout())


@pytest.fixture
def camera(table: LiveTable, view: CameraView) -> Iterator[Served]:
    app = create_app(table, token=TOKEN, camera=view.jpeg, cards=view.card_jpeg, layout=view.layout)
    for url in serve(app):
        yield Served(url, table, app)


def show_table(view: CameraView) -> None:
    frame = np.full((HEIGHT, WIDTH, 3), 60, np.uint8)  # a grey mat
    view.show(frame, [tracked(BENCHED, "Flabébé", 0.87, True), tracked(READING, None, 0.3, False),
                      tracked(HIDDEN, "Pikachu", 0.9, True, visible=False)])


def picture(response: httpx.Response) -> np.ndarray:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(response.content, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape == (HEIGHT, WIDTH, 3)
    return image


def near_colour(pixel: np.ndarray, colour: tuple[int, int, int]) -> bool:
    return bool(np.abs(pixel.astype(int) - np.array(colour)).max() < 60)


def test_no_frame_yet_is_a_clear_503(camera: Served) -> None:
    response = httpx.get(camera.url + "/api/console/camera.jpg", headers=AUTH)
    assert response.status_code == 503
    assert "no frame yet" in response.json()["error"]


def test_a_table_without_a_camera_says_so(served: Served) -> None:
    response = httpx.get(served.url + "/api/console/camera.jpg", headers=AUTH)
    assert response.status_code == 404
    assert "no camera" in response.json()["error"]
    assert httpx.get(served.url + "/api/console/layout", headers=AUTH).status_code == 404


def test_the_frame_shows_each_cards_outline_and_the_zones(camera: Served, view: CameraView) -> None:
    show_table(view)
    image = picture(httpx.get(camera.url + "/api/console/camera.jpg", headers=AUTH))
    # The settled card's left edge is green halfway down, its inside still the mat.
    assert near_colour(image[525, 100], SETTLED)
    assert near_colour(image[525, 150], (60, 60, 60))
    # The card still being read is amber.
    assert near_colour(image[245, 600], UNSURE)
    assert near_colour(image[490, 650], (60, 60, 60))
    # The centre line crosses the middle of the image, away from any label.
    assert near_colour(image[HEIGHT // 2, WIDTH - 40], CENTRE_LINE)
    assert near_colour(image[HEIGHT // 2 - 40, WIDTH - 40], (60, 60, 60))


def test_the_name_is_drawn_in_letters_opencv_has() -> None:
    assert plain("Flabébé") == "Flabebe"


def test_spectators_reach_neither_the_camera_nor_the_zones(camera: Served, view: CameraView) -> None:
    show_table(view)
    for path in ("/api/console/camera.jpg", "/api/console/layout"):
        assert httpx.get(camera.url + path).status_code == 401
        assert httpx.get(camera.url + path, headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert httpx.post(camera.url + "/api/console/layout", json={"centre": 0.4}).status_code == 401
    assert view.layout.centre == 0.5
    page = httpx.get(camera.url + "/camera")
    assert page.status_code == 401 and 'data-testid="locked"' in page.text
    assert httpx.get(camera.url + f"/camera?token={TOKEN}").status_code == 200


def test_calibration_moves_the_zones_the_mirror_uses(camera: Served, view: CameraView) -> None:
    card = SeenCard(1, "Lechonk", None, 0.5, 0.45)  # just above the middle: player B's Active row
    assert view.layout.place(card) == ("B", "active")
    show_table(view)
    picture(httpx.get(camera.url + "/api/console/camera.jpg", headers=AUTH))

    response = httpx.post(camera.url + "/api/console/layout", headers=AUTH,
                          json={"centre": 0.4, "active_depth": 0.1})
    assert response.status_code == 200, response.text
    assert response.json() == {"centre": 0.4, "active_depth": 0.1, "near": 0.25, "a_at_bottom": True}
    assert view.layout.place(card) == ("A", "active")
    assert httpx.get(camera.url + "/api/console/layout", headers=AUTH).json()["centre"] == 0.4
    # The same frame, drawn again with the new centre line.
    image = picture(httpx.get(camera.url + "/api/console/camera.jpg", headers=AUTH))
    assert near_colour(image[240, WIDTH - 40], CENTRE_LINE)
    assert not near_colour(image[HEIGHT // 2, WIDTH - 40], CENTRE_LINE)


@pytest.mark.parametrize(("change", "status", "said"), [
    ({"centre": 2}, 400, "centre line"),
    ({"active_depth": 0}, 400, "Active row"),
    ({"centre": "middle"}, 422, "centre"),
    ({"tilt": 3}, 422, "tilt"),
])
def test_bad_zones_are_refused_and_change_nothing(camera: Served, view: CameraView, change: dict[str, Any],
                                                   status: int, said: str) -> None:
    response = httpx.post(camera.url + "/api/console/layout", headers=AUTH, json=change)
    assert response.status_code == status
    assert said in response.json()["error"]
    assert view.layout == TableLayout()


def test_a_bad_value_leaves_every_fraction_as_it_was() -> None:
    layout = TableLayout()
    with pytest.raises(LayoutError, match="Active row"):
        layout.adjust(centre=0.3, active_depth=0.9)
    assert layout == TableLayout()
    with pytest.raises(LayoutError, match="no tilt"):
        layout.adjust(tilt=1)


CHROMIUM = "/usr/bin/chromium"


@contextmanager
def phone(url: str) -> Iterator[tuple[Any, Any]]:
    """The camera page open in Chromium at a phone's size (390×844, touch), and
    Playwright's API (for ``expect``)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                       has_touch=True).new_page()
            page.set_default_timeout(10_000)
            page.goto(f"{url}/camera?token={TOKEN}")
            playwright_api.expect(page.get_by_test_id("frame")).to_be_visible()
            yield page, playwright_api
        finally:
            browser.close()


@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_the_camera_page_on_a_phone(camera: Served, view: CameraView, tmp_path: Path) -> None:
    show_table(view)
    with phone(camera.url) as (page, playwright_api):
        playwright_api.expect(page.locator("#centre")).to_have_value("0.5")
        page.locator("#centre").fill("0.42")
        page.get_by_test_id("save-zones").click()
        playwright_api.expect(page.get_by_test_id("zones-reply")).to_contain_text("Saved")
        assert view.layout.centre == pytest.approx(0.42)
        page.wait_for_timeout(1200)  # the next refresh draws the moved line
        page.screenshot(path=str(tmp_path / "camera.png"), full_page=True)


def test_the_judge_sees_the_camera_s_picture_of_a_card_it_asks_about(camera: Served, view: CameraView) -> None:
    frame = np.full((HEIGHT, WIDTH, 3), 60, np.uint8)
    frame[460:590, 100:200] = (200, 40, 200)  # the card's face, a purple block on the grey mat
    view.show(frame, [tracked(BENCHED, "Flabébé", 0.87, True)])
    with httpx.Client(base_url=camera.url, headers=AUTH) as client:
        answer = client.get("/api/console/camera/card.jpg", params={"name": "Flabebe"})
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/jpeg"
        seen = cv2.imdecode(np.frombuffer(answer.content, np.uint8), cv2.IMREAD_COLOR)
        assert 130 <= seen.shape[0] <= 160 and 100 <= seen.shape[1] <= 130  # the card and a margin
        middle = seen[seen.shape[0] // 2, seen.shape[1] // 2].astype(int)
        assert abs(middle - (200, 40, 200)).max() < 40  # the card itself, not the mat
        missing = client.get("/api/console/camera/card.jpg", params={"name": "Pikachu"})
        assert missing.status_code == 404 and "Pikachu" in missing.json()["error"]
    assert httpx.get(f"{camera.url}/api/console/camera/card.jpg", params={"name": "Flabebe"}).status_code == 401


#: A mat the camera sees from an angle (pixels, top-left first, clockwise): its far
#: edge (B's side) narrower and tilted.
MAT = np.float32([[190, 70], [650, 110], [760, 570], [60, 520]])


def show_tilted_mat(view: CameraView) -> None:
    frame = np.full((HEIGHT, WIDTH, 3), 60, np.uint8)
    cv2.fillPoly(frame, [MAT.astype(np.int32)], (70, 110, 60))  # a green cloth on the grey table
    view.show(frame, [])


def mat_point(u: float, v: float) -> tuple[int, int]:
    """Where the mat point (u, v) lies in the picture (pixels, rounded)."""
    homography = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), MAT)
    x, y, w = homography @ [u, v, 1]
    return round(x / w), round(y / w)


def test_tapped_corners_fix_the_mat_and_the_zones_are_drawn_on_it(camera: Served, view: CameraView) -> None:
    show_tilted_mat(view)
    tapped = [[float(x) / WIDTH, float(y) / HEIGHT] for x, y in MAT]
    with httpx.Client(base_url=camera.url, headers=AUTH) as client:
        plain_picture = picture(client.get("/api/console/camera.jpg"))
        assert near_colour(plain_picture[HEIGHT // 2, WIDTH - 40], CENTRE_LINE)  # the picture's own middle
        answer = client.post("/api/console/corners", json={"corners": tapped})
        assert answer.status_code == 200, answer.text
        assert np.allclose(answer.json()["corners"], tapped)
        assert np.allclose(client.get("/api/console/corners").json()["corners"], tapped)
        image = picture(client.get("/api/console/camera.jpg"))
        # The centre line now runs across the mat, tilted with it, not across the picture.
        for u in (0.3, 0.6, 0.9):
            x, y = mat_point(u, 0.5)
            assert near_colour(image[y, x], CENTRE_LINE), (u, x, y)
        assert not near_colour(image[HEIGHT // 2, WIDTH - 40], CENTRE_LINE)  # off the mat
        # A card's place on the picture is now read on the mat: the mirror's zones follow it.
        forgotten = client.delete("/api/console/corners")
        assert forgotten.status_code == 200 and forgotten.json() == {"corners": None}
        assert view.layout.corners is None
        again = picture(client.get("/api/console/camera.jpg"))
        assert near_colour(again[HEIGHT // 2, WIDTH - 40], CENTRE_LINE)


@pytest.mark.parametrize(("corners", "status", "said"), [
    ([[0.2, 0.1], [0.8, 0.1], [0.8, 0.9]], 400, "four corners, not 3"),
    ([[0.2, 0.1], [0.8, 0.9], [0.8, 0.1], [0.2, 0.9]], 400, "cross or fold"),
    ([[0.2, 0.1], [1.3, 0.1], [0.8, 0.9], [0.2, 0.9]], 400, "on the picture"),
    ([[0.2, 0.1], [0.8, 0.1], [0.8, 0.9], [0.2]], 400, "two numbers"),
    ([[0.2, 0.1], [0.8, 0.1], [0.8, 0.9], ["left", 0.9]], 422, "corners"),
])
def test_corners_that_are_no_mat_are_refused_and_change_nothing(camera: Served, view: CameraView, corners: Any,
                                                                  status: int, said: str) -> None:
    good = [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]
    assert httpx.post(camera.url + "/api/console/corners", headers=AUTH, json={"corners": good}).status_code == 200
    response = httpx.post(camera.url + "/api/console/corners", headers=AUTH, json={"corners": corners})
    assert response.status_code == status
    assert said in response.json()["error"]
    assert np.allclose(view.layout.corners, good)


def test_spectators_cannot_tap_the_corners(camera: Served, view: CameraView) -> None:
    good = {"corners": [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]}
    assert httpx.post(camera.url + "/api/console/corners", json=good).status_code == 401
    assert httpx.post(camera.url + "/api/console/corners", json=good,
                      headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert httpx.delete(camera.url + "/api/console/corners").status_code == 401
    assert view.layout.corners is None


@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_the_judge_taps_the_mats_corners_on_a_phone(camera: Served, view: CameraView, tmp_path: Path) -> None:
    show_tilted_mat(view)
    with phone(camera.url) as (page, playwright_api):
        frame = page.get_by_test_id("frame")
        page.get_by_test_id("tap-start").click()
        playwright_api.expect(page.get_by_test_id("tap-reply")).to_contain_text("top-left corner (1 of 4)")
        box = frame.bounding_box()
        assert box is not None
        for x, y in MAT:
            frame.tap(position={"x": float(x) / WIDTH * box["width"], "y": float(y) / HEIGHT * box["height"]})
        playwright_api.expect(page.get_by_test_id("tap-reply")).to_contain_text("Saved")
        assert view.layout.corners is not None
        assert np.allclose(np.array(view.layout.corners) * [WIDTH, HEIGHT], MAT, atol=WIDTH / box["width"] + 1)
        page.wait_for_timeout(1200)  # the next refresh draws the zones on the mat
        frame.screenshot(path=str(tmp_path / "corners.png"))
        page.screenshot(path=str(tmp_path / "camera-corners.png"), full_page=True)
        shot = cv2.imread(str(tmp_path / "corners.png"))
        scale = shot.shape[1] / WIDTH
        for u in (0.3, 0.6, 0.9):  # the centre line, thin once the phone shrinks the picture
            x, y = (round(v * scale) for v in mat_point(u, 0.5))
            around = shot[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3).astype(int)
            assert (np.abs(around - CENTRE_LINE).max(axis=1) < 110).any(), u
        # A mistaken tap order is refused, and the corners stay as they were.
        page.get_by_test_id("tap-start").click()
        for x, y in (MAT[0], MAT[2], MAT[1], MAT[3]):
            frame.tap(position={"x": float(x) / WIDTH * box["width"], "y": float(y) / HEIGHT * box["height"]})
        playwright_api.expect(page.get_by_test_id("tap-reply")).to_contain_text("cross or fold")
        assert np.allclose(np.array(view.layout.corners) * [WIDTH, HEIGHT], MAT, atol=WIDTH / box["width"] + 1)
